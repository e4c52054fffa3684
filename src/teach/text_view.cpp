#include "teach/text_view.h"

#include <QEvent>
#include <QFileInfo>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QSvgGenerator>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

#include "teach/scaled_font.h"

namespace attn {

namespace {

constexpr int kMargin = 8;
constexpr int kPadX = 4;
constexpr int kPadY = 3;
constexpr int kGap = 6;         // between words: a token that starts with a space
constexpr int kJoin = 1;        // inside a word: a token that continues the one before
const QRgb kAccent = 0x2166ac;  // the strongest weight's fill (ColorBrewer RdBu's blue)

QColor blend(const QColor& a, const QColor& b, double t) {
    t = std::clamp(t, 0.0, 1.0);
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// The print look: black on white, whatever the window's palette.
QPalette printPalette() {
    QPalette p;
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::Window, Qt::white);
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::WindowText, Qt::black);
    p.setColor(QPalette::PlaceholderText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Highlight, QColor(0xd5, 0x5e, 0x00));
    return p;
}

}  // namespace

TextView::TextView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAccessibleName(tr("Text view"));
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void TextView::setAttention(std::vector<std::vector<float>> weights, const QStringList& tokens,
                            std::vector<uint8_t> hidden) {
    weights_ = std::move(weights);
    tokens_ = tokens;
    hidden_ = std::move(hidden);
    const int T = int(tokens_.size());
    for (const auto& w : weights_)
        if (w.size() != size_t(T) * size_t(T)) {
            weights_.clear();  // not a T x T attention step: nothing to colour
            break;
        }
    if (hidden_.size() != size_t(T) * size_t(T))
        hidden_.clear();
    if (query_ < 0 || query_ >= T)
        query_ = T - 1;  // the last token sees every other
    if (head_ >= headCount())
        head_ = -1;
    relayout();
}

void TextView::setQuery(int query) {
    if (query < 0 || query >= tokenCount() || query == query_)
        return;
    query_ = query;
    relayout();  // the caption names the query
    emit queryChanged(query_);
}

void TextView::setHead(int head) {
    head = head >= 0 && head < headCount() ? head : -1;
    if (head == head_)
        return;
    head_ = head;
    relayout();
}

void TextView::setFontScale(double scale) {
    fontScale_ = std::clamp(scale, 0.5, 4.0);
    relayout();
}

bool TextView::isHidden(int key) const {
    const int T = tokenCount();
    if (query_ < 0 || key < 0 || key >= T || hidden_.empty())
        return false;
    return hidden_[size_t(query_) * size_t(T) + size_t(key)] != 0;
}

void TextView::setQuizRows(std::vector<uint8_t> rows) {
    if (rows == quizRows_)
        return;
    quizRows_ = std::move(rows);
    relayout();
}

bool TextView::isWithheld() const {
    return values_.empty() && query_ >= 0 && size_t(query_) < quizRows_.size() &&
           quizRows_[size_t(query_)];
}

float TextView::weightOf(int key) const {
    const int T = tokenCount();
    if (weights_.empty() || query_ < 0 || key < 0 || key >= T || isHidden(key) || isWithheld())
        return 0.0f;
    const size_t i = size_t(query_) * size_t(T) + size_t(key);
    if (head_ >= 0)
        return weights_[size_t(head_)][i];
    double sum = 0;
    for (const auto& w : weights_)
        sum += w[i];
    return float(sum / double(weights_.size()));
}

float TextView::rowMaximum() const {
    float m = 0;
    for (int k = 0; k < tokenCount(); ++k)
        m = std::max(m, weightOf(k));
    return m;
}

QColor TextView::fillOf(int key) const {
    return fillFor(key, palette().color(QPalette::Base));
}

void TextView::setTokenValues(std::vector<double> values, bool diverging, const QString& caption) {
    values_ = std::move(values);
    diverging_ = diverging;
    valuesCaption_ = caption;
    relayout();
}

double TextView::valueOf(int token) const {
    return token >= 0 && size_t(token) < values_.size() ? values_[size_t(token)]
                                                        : std::numeric_limits<double>::quiet_NaN();
}

QColor TextView::fillFor(int key, const QColor& base) const {
    if (!values_.empty()) {
        double top = 0;
        for (double v : values_)
            if (std::isfinite(v))
                top = std::max(top, std::abs(v));
        const double v = valueOf(key);
        if (!std::isfinite(v) || top <= 0)
            return base;
        // Red for a loss that rose (harder to predict), blue for one that fell.
        const QColor ink = diverging_ && v > 0 ? QColor(0xb2, 0x18, 0x2b) : QColor(kAccent);
        return blend(base, ink, std::abs(v) / top);
    }
    const float top = rowMaximum();
    if (isHidden(key) || top <= 0)
        return base;
    return blend(base, QColor(kAccent), double(weightOf(key)) / double(top));
}

QString TextView::caption() const {
    if (!values_.empty())
        return valuesCaption_;
    if (weights_.empty() || query_ < 0)
        return tr("No attention weights to show yet.");
    if (isWithheld())
        return tr("A quiz hides the weights of \u201c%1\u201d (token %2): reveal its row in the "
                  "heatmap to colour the text by it, or click another token.")
            .arg(tokens_.value(query_).trimmed(), QString::number(query_));
    const QString who = head_ >= 0 || headCount() == 1
                            ? tr("head %1").arg(std::max(0, head_))
                            : tr("the mean of the %1 heads").arg(headCount());
    return tr("How much \u201c%1\u201d (token %2) attends to each token, %3. Darkest: %4, the "
              "row's strongest weight; click a token to make it the query.")
        .arg(tokens_.value(query_).trimmed(), QString::number(query_), who,
             QString::number(double(rowMaximum()), 'f', 2));
}

std::vector<TextView::Box> TextView::layoutFor(int width, int* height) const {
    const QFont f = scaledFont(font(), fontScale_);
    const QFontMetrics fm(f);
    const QFontMetrics small(scaledFont(font(), fontScale_ * 0.9));
    const int line = fm.height() + 2 * kPadY + 6;
    const int right = std::max(width - kMargin, kMargin + 40);
    // The caption first, wrapped to the width.
    const QRect captionRect = small.boundingRect(QRect(kMargin, kMargin, right - kMargin, 10000),
                                                 Qt::TextWordWrap, caption());
    int x = kMargin, y = captionRect.bottom() + 10;
    // Tokens that carry their leading space (GPT-2's) are spaced by it; labels without any
    // (the book's words, a file's row numbers) are words of their own.
    bool spaced = false;
    for (int i = 1; i < tokenCount(); ++i)
        spaced = spaced || tokens_[i].startsWith(QLatin1Char(' ')) ||
                 tokens_[i].startsWith(QLatin1Char('\n'));
    std::vector<Box> boxes;
    boxes.reserve(size_t(tokenCount()));
    for (int i = 0; i < tokenCount(); ++i) {
        const QString& t = tokens_[i];
        const bool space = !spaced || t.startsWith(QLatin1Char(' '));
        QString shown = t;
        shown.remove(QLatin1Char('\n'));
        shown = shown.trimmed();
        const int breaks = int(t.count(QLatin1Char('\n')));
        if (shown.isEmpty())
            shown = breaks > 0 ? QString(QChar(0x21B5)) : QString(QChar(0x00B7));  // ↵, ·
        const int w = fm.horizontalAdvance(shown) + 2 * kPadX;
        if (i > 0)
            x += space ? kGap : kJoin;
        if (x + w > right && x > kMargin) {
            x = kMargin;
            y += line;
        }
        boxes.push_back({QRect(x, y, w, fm.height() + 2 * kPadY), shown});
        x += w;
        // A line break in the text breaks the line here too (a blank line for two).
        if (breaks > 0) {
            x = kMargin;
            y += line * std::min(breaks, 2);
        }
    }
    if (height)
        *height = y + line + kMargin;
    return boxes;
}

void TextView::relayout() {
    boxes_ = layoutFor(width(), &contentHeight_);
    updateGeometry();
    update();
}

int TextView::heightForWidth(int width) const {
    int h = 0;
    layoutFor(width, &h);
    return h;
}

QSize TextView::sizeHint() const {
    return QSize(360, heightForWidth(360));
}

QRect TextView::tokenRect(int token) const {
    return token >= 0 && size_t(token) < boxes_.size() ? boxes_[size_t(token)].rect : QRect();
}

int TextView::tokenAt(const QPoint& pos) const {
    for (size_t i = 0; i < boxes_.size(); ++i)
        if (boxes_[i].rect.contains(pos))
            return int(i);
    return -1;
}

void TextView::paintTo(QPainter& p, const QPalette& pal) const {
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    const QFont f = scaledFont(font(), fontScale_);
    const QFont small = scaledFont(font(), fontScale_ * 0.9);
    p.setFont(small);
    p.setPen(pal.color(QPalette::WindowText));
    p.drawText(QRect(kMargin, kMargin, width() - 2 * kMargin, 10000),
               Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, caption());
    const QColor base = pal.color(QPalette::Base);
    for (size_t i = 0; i < boxes_.size(); ++i) {
        const int k = int(i);
        const QRect r = boxes_[i].rect;
        const bool hidden = values_.empty() ? isHidden(k) : !std::isfinite(valueOf(k));
        const QColor fill = fillFor(k, base);
        p.setPen(hidden ? QPen(pal.color(QPalette::PlaceholderText), 1, Qt::DotLine)
                        : QPen(blend(base, pal.color(QPalette::Text), 0.25), 1));
        p.setBrush(fill);
        p.drawRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
        if (k == query_ && values_.empty()) {
            p.setPen(QPen(pal.color(QPalette::Highlight), 3));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(QRectF(r).adjusted(-1.5, -1.5, 1.5, 1.5), 5, 5);
        }
        QFont tf = f;
        tf.setBold(k == query_);
        p.setFont(tf);
        p.setPen(hidden                     ? pal.color(QPalette::PlaceholderText)
                 : fill.lightnessF() < 0.55 ? QColor(Qt::white)
                                            : QColor(Qt::black));
        p.drawText(r, Qt::AlignCenter, boxes_[i].text);
    }
}

void TextView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    paintTo(p, palette());
}

bool TextView::saveImage(const QString& path, bool print) const {
    const QPalette pal = print ? printPalette() : palette();
    const QSize size(width(), std::max(height(), contentHeight_));
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(tr("Text view"));
        svg.setDescription(caption());
        QPainter p;
        if (!p.begin(&svg))
            return false;
        p.fillRect(QRect(QPoint(0, 0), size), pal.color(QPalette::Base));
        paintTo(p, pal);
        return p.end();
    }
    QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(2.0);
    image.fill(pal.color(QPalette::Base));
    {
        QPainter p(&image);
        paintTo(p, pal);
    }
    return image.save(path);
}

void TextView::mousePressEvent(QMouseEvent* event) {
    const int k = tokenAt(event->position().toPoint());
    if (k >= 0 && event->button() == Qt::LeftButton)
        setQuery(k);
}

void TextView::mouseMoveEvent(QMouseEvent* event) {
    const int k = tokenAt(event->position().toPoint());
    if (k < 0) {
        QToolTip::hideText();
        return;
    }
    const QString key = tokens_.value(k).trimmed();
    if (!values_.empty()) {
        const double v = valueOf(k);
        QToolTip::showText(
            event->globalPosition().toPoint(),
            !std::isfinite(v)
                ? tr("\u201c%1\u201d has no loss: nothing before it predicts it").arg(key)
            : diverging_ ? tr("\u201c%1\u201d: %2%3 nats")
                               .arg(key, v >= 0 ? QStringLiteral("+") : QString())
                               .arg(v, 0, 'f', 3)
                         : tr("\u201c%1\u201d: %2 nats").arg(key).arg(v, 0, 'f', 3),
            this);
        return;
    }
    if (isWithheld()) {
        QToolTip::showText(event->globalPosition().toPoint(),
                           tr("\u201c%1\u201d: hidden by the quiz").arg(key), this);
        return;
    }
    const QString text = isHidden(k) ? tr("\u201c%1\u201d is masked for this query").arg(key)
                                     : tr("\u201c%1\u201d gets %2 of \u201c%3\u201d's attention")
                                           .arg(key, QString::number(double(weightOf(k)), 'f', 3),
                                                tokens_.value(query_).trimmed());
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void TextView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relayout();
}

void TextView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        relayout();
}

}  // namespace attn

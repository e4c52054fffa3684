#include "teach/token_view.h"

#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

#include "engine/trace.h"
#include "export/heatmap_data.h"

namespace attn {

namespace {
constexpr double kMargin = 12.0;
constexpr double kGap = 150.0;  // room for the lines between the columns
constexpr double kPad = 6.0;    // text to line end
}  // namespace

TokenView::TokenView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_Hover);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setAccessibleName(
        tr("Token view: lines from query tokens to key tokens, darker = more attention"));
}

QColor TokenView::headColor(int head) {
    // Okabe & Ito (2008), colour-blind safe, black left out (it is the text colour).
    static const QRgb kColors[] = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7,
                                   0xE69F00, 0x56B4E9, 0xF0E442};
    const int n = int(sizeof(kColors) / sizeof(kColors[0]));
    return QColor(kColors[((head % n) + n) % n]);
}

void TokenView::setAttention(const std::vector<std::vector<float>>& perHeadWeights,
                             const QStringList& tokens) {
    weights_ = perHeadWeights;
    tokens_ = tokens;
    const size_t need = size_t(tokens.size()) * size_t(tokens.size());
    for (auto& w : weights_)
        w.resize(need, 0.0f);  // defensive: never index past the end
    if (head_ >= int(weights_.size()))
        head_ = -1;
    hovered_ = {};
    updateGeometry();
    update();
}

void TokenView::setHead(int head) {
    head_ = head < 0 || head >= int(weights_.size()) ? -1 : head;
    updateGeometry();
    update();
}

void TokenView::setFontScale(double scale) {
    fontScale_ = std::clamp(scale, 0.5, 4.0);
    updateGeometry();
    update();
}

double TokenView::legendWidth() const {
    const QFontMetricsF fm(tokenFont());
    double total = 0;
    for (int h = 0; h < int(weights_.size()); ++h)
        total += fm.height() * 0.7 + 4 + fm.horizontalAdvance(tr("head %1").arg(h)) + 12;
    return total;
}

QFont TokenView::tokenFont() const {
    QFont f = font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * 1.1 * fontScale_);
    else
        f.setPixelSize(int(std::lround(f.pixelSize() * 1.1 * fontScale_)));
    return f;
}

TokenView::Layout TokenView::layout() const {
    Layout l;
    const QFontMetricsF fm(tokenFont());
    double colW = fm.horizontalAdvance(tr("Queries"));
    for (const QString& t : tokens_)
        colW = std::max(colW, fm.horizontalAdvance(displayLabel(t, 18)));
    colW += 2 * kPad;
    l.colW = colW;
    l.rowH = std::ceil(fm.height() * 1.55);
    // A legend line (when several heads are drawn), then the column titles.
    l.legend = weights_.size() > 1 && head_ < 0;
    l.headerY = kMargin + (l.legend ? fm.height() * 1.5 : 0.0);
    l.top = l.headerY + fm.height() * 1.6;
    const int n = int(tokens_.size());
    const double total = 2 * colW + kGap * fontScale_;
    const double x0 = std::max(kMargin, (width() - total) / 2.0);
    l.leftX = x0;                              // left column box starts here
    l.rightX = x0 + colW + kGap * fontScale_;  // right column box starts here
    // Spread rows out when the widget is taller than needed (up to 2x).
    const double avail = height() - l.top - kMargin;
    if (n > 0 && avail > n * l.rowH)
        l.rowH = std::min(l.rowH * 2.0, avail / n);
    return l;
}

QRectF TokenView::tokenRect(Side side, int index) const {
    if (side == Side::None || index < 0 || index >= tokens_.size())
        return {};
    const Layout l = layout();
    const double x = side == Side::Query ? l.leftX : l.rightX;
    return QRectF(x, l.top + index * l.rowH, l.colW, l.rowH);
}

TokenView::Hit TokenView::hitTest(const QPointF& pos) const {
    for (int i = 0; i < tokens_.size(); ++i) {
        if (tokenRect(Side::Query, i).contains(pos))
            return {Side::Query, i};
        if (tokenRect(Side::Key, i).contains(pos))
            return {Side::Key, i};
    }
    return {};
}

void TokenView::setHovered(const Hit& hit) {
    Hit h = hit;
    if (h.side == Side::None || h.index < 0 || h.index >= tokens_.size())
        h = {};
    if (h == hovered_)
        return;
    hovered_ = h;
    emit tokenHovered(int(h.side), h.index);
    update();
}

std::vector<TokenView::Line> TokenView::visibleLines() const {
    std::vector<Line> out;
    const int T = int(tokens_.size());
    for (int h = 0; h < int(weights_.size()); ++h) {
        if (head_ >= 0 && h != head_)
            continue;
        for (int i = 0; i < T; ++i) {
            if (hovered_.side == Side::Query && hovered_.index != i)
                continue;
            for (int j = 0; j < T; ++j) {
                if (hovered_.side == Side::Key && hovered_.index != j)
                    continue;
                const float w = weights_[size_t(h)][size_t(i) * size_t(T) + size_t(j)];
                if (!std::isfinite(w) || w <= 0.0f)
                    continue;
                out.push_back({h, i, j, std::min(w, 1.0f)});
            }
        }
    }
    return out;
}

QSize TokenView::sizeHint() const {
    const Layout l = const_cast<TokenView*>(this)->layout();
    const int w = int(2 * l.colW + kGap * fontScale_ + 2 * kMargin);
    const QFontMetricsF fm(tokenFont());
    const int h = int(
        l.top + std::max<qsizetype>(tokens_.size(), 3) * std::ceil(fm.height() * 1.55) + kMargin);
    return {std::max({w, 320, int(legendWidth() + 2 * kMargin)}), h};
}

QSize TokenView::minimumSizeHint() const {
    return {200, 120};
}

void TokenView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    const QPalette pal = palette();
    const QFont f = tokenFont();
    p.setFont(f);
    const QFontMetricsF fm(f);
    const Layout l = layout();
    const int T = int(tokens_.size());
    const int H = int(weights_.size());

    if (T == 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No attention weights to show yet"));
        return;
    }

    // Header: column titles and which heads are drawn.
    QFont bold = f;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(pal.color(QPalette::Text));
    const double headerY = l.headerY;
    p.drawText(QRectF(l.leftX, headerY, l.colW, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
               tr("Queries"));
    p.drawText(QRectF(l.rightX, headerY, l.colW, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Keys"));
    p.setFont(f);
    if (l.legend) {
        // One swatch per head, centred above the lines.
        const double sw = fm.height() * 0.7;
        double x = (l.leftX + l.colW + l.rightX) / 2.0 - legendWidth() / 2.0;
        x = std::max(x, kMargin);
        for (int h = 0; h < H; ++h) {
            const QRectF swatch(x, kMargin + (fm.height() - sw) / 2, sw, sw);
            p.fillRect(swatch, headColor(h));
            x += sw + 4;
            const QString label = tr("head %1").arg(h);
            p.setPen(pal.color(QPalette::Text));
            p.drawText(QRectF(x, kMargin, fm.horizontalAdvance(label) + 2, fm.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, label);
            x += fm.horizontalAdvance(label) + 12;
        }
    } else if (head_ >= 0 && H > 1) {
        // One head: its swatch between the column titles.
        const int h = std::max(0, head_);
        const double sw = fm.height() * 0.7;
        const QString label = tr("head %1").arg(h);
        const double total = sw + 4 + fm.horizontalAdvance(label);
        double x = (l.leftX + l.colW + l.rightX) / 2.0 - total / 2.0;
        p.fillRect(QRectF(x, headerY + (fm.height() - sw) / 2, sw, sw), headColor(h));
        x += sw + 4;
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRectF(x, headerY, fm.horizontalAdvance(label) + 2, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, label);
    }

    // Lines, faint ones first so strong ones sit on top.
    std::vector<Line> lines = visibleLines();
    std::stable_sort(lines.begin(), lines.end(),
                     [](const Line& a, const Line& b) { return a.weight < b.weight; });
    const int drawnHeads = head_ >= 0 ? 1 : H;
    const double lineW = std::max(1.5, 2.5 * fontScale_);
    for (const Line& ln : lines) {
        const int slot = head_ >= 0 ? 0 : ln.head;
        const double off =
            (slot - (drawnHeads - 1) / 2.0) * std::min(3.0, l.rowH / (2.0 * drawnHeads + 2));
        const QPointF a(l.leftX + l.colW, l.top + (ln.query + 0.5) * l.rowH + off);
        const QPointF b(l.rightX, l.top + (ln.key + 0.5) * l.rowH + off);
        QColor c = headColor(ln.head);
        c.setAlphaF(std::clamp(0.06f + 0.94f * ln.weight, 0.0f, 1.0f));
        p.setPen(QPen(c, lineW, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(a, b);
    }

    // Tokens.
    const QColor hl = pal.color(QPalette::Highlight);
    QColor hlSoft = hl;
    hlSoft.setAlphaF(0.18f);
    // With one query hovered and one head drawn, the weights go next to the keys.
    const bool showWeights = hovered_.side != Side::None && (head_ >= 0 || H == 1);
    const int wHead = head_ >= 0 ? head_ : 0;
    for (int i = 0; i < T; ++i) {
        for (Side side : {Side::Query, Side::Key}) {
            const QRectF r = tokenRect(side, i);
            const bool isHover = hovered_.side == side && hovered_.index == i;
            if (isHover) {
                p.setPen(Qt::NoPen);
                p.setBrush(hlSoft);
                p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 4, 4);
            }
            QFont tf = f;
            tf.setBold(isHover);
            p.setFont(tf);
            p.setPen(pal.color(QPalette::Text));
            const QRectF tr2 = r.adjusted(kPad, 0, -kPad, 0);
            p.drawText(tr2,
                       (side == Side::Query ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter,
                       displayLabel(tokens_[i], 18));
            if (showWeights && side != hovered_.side && !weights_.empty()) {
                const int q = hovered_.side == Side::Query ? hovered_.index : i;
                const int k = hovered_.side == Side::Query ? i : hovered_.index;
                const float w = weights_[size_t(wHead)][size_t(q) * size_t(T) + size_t(k)];
                const QString txt = formatCellValue(w, 2);
                QFont sf = f;
                sf.setPointSizeF(f.pointSizeF() > 0 ? f.pointSizeF() * 0.8 : 8);
                p.setFont(sf);
                p.setPen(pal.color(QPalette::PlaceholderText));
                const QFontMetricsF sfm(sf);
                const double tw = sfm.horizontalAdvance(txt) + 4;
                const QRectF wr = side == Side::Key
                                      ? QRectF(r.left() - tw - 2, r.top(), tw, r.height())
                                      : QRectF(r.right() + 2, r.top(), tw, r.height());
                p.drawText(wr, Qt::AlignCenter, txt);
            }
        }
    }
}

void TokenView::mouseMoveEvent(QMouseEvent* event) {
    setHovered(hitTest(event->position()));
    QWidget::mouseMoveEvent(event);
}

void TokenView::leaveEvent(QEvent* event) {
    setHovered({});
    QWidget::leaveEvent(event);
}

std::vector<std::vector<float>> tokenViewWeights(const Trace& trace, int batch,
                                                 const std::string& stepId) {
    std::vector<std::vector<float>> out;
    const Step* s = trace.find(stepId);
    if (!s || s->value.dim() < 2 || s->value.size(-1) != s->value.size(-2))
        return out;
    const int heads = int(trace.config.effectiveHeads());
    for (int h = 0; h < heads; ++h)
        out.push_back(stepMatrix(*s, h, batch).toVector());
    return out;
}

}  // namespace attn

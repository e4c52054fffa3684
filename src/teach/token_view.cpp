#include "teach/token_view.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QHash>
#include <QHelpEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include "pipeline/latest_job.h"

#include <algorithm>
#include <cmath>

#include "engine/step_ids.h"
#include "engine/trace.h"
#include "export/heatmap_data.h"
#include "teach/scaled_font.h"

namespace attn {

namespace {
constexpr double kMargin = 12.0;
constexpr double kGap = 150.0;  // room for the lines between the columns
constexpr double kPad = 6.0;    // text to line end
constexpr int kLabelChars = 18;
// Below this many weights the links are selected at once on the GUI thread (well under a
// millisecond), so a short sentence shows its lines and its note in the very first frame.
constexpr size_t kSyncSelectionWeights = size_t(1) << 18;

// Where the lines of a view go: x0 is the right edge of the query column, x1 the left edge of
// the key column, row r's centre is at yOrigin + (r + 0.5) * rowH. With several heads drawn,
// head h's lines are moved a little up or down so they do not hide each other.
struct LineGeometry {
    double x0 = 0, x1 = 0, rowH = 0, yOrigin = 0, lineWidth = 1;
    int head = -1;             // the one head drawn, -1 for all
    int heads = 1;             // heads in the data
    std::vector<QRgb> colors;  // per head

    double headOffset(int h) const {
        const int drawn = head >= 0 ? 1 : heads;
        const int slot = head >= 0 ? 0 : h;
        return (slot - (drawn - 1) / 2.0) * std::min(3.0, rowH / (2.0 * drawn + 2));
    }
    double rowY(double row, int h) const { return yOrigin + (row + 0.5) * rowH + headOffset(h); }
};

// A line as drawn: from a query row to a key row (rows may be fractional: a bundle's end just
// outside the rows drawn).
struct Segment {
    int head = 0;
    double query = 0, key = 0;
    float weight = 0;
};

// What to do with a link whose other end lies outside the rows drawn.
enum class OutsideRows {
    Drop,    // the whole picture: only links among the rows drawn (lines that run off the view
             // by the thousand would cover everything)
    Keep,    // one query's few links: each runs off the view towards its key
    Bundle,  // one key's links, possibly from every query: one line per head and direction, as
             // strong as the strongest link in it
};

// The segments that show the links in rows first..last.
std::vector<Segment> segmentsForRows(const std::vector<AttentionLink>& links, int head, int first,
                                     int last, OutsideRows outside) {
    std::vector<Segment> out;
    QHash<qint64, size_t> bundles;  // (head, in-range side, direction, row) -> index in out
    for (const AttentionLink& l : links) {
        if (head >= 0 && l.head != head)
            continue;
        const bool qIn = l.query >= first && l.query <= last;
        const bool kIn = l.key >= first && l.key <= last;
        if ((qIn && kIn) || (outside == OutsideRows::Keep && (qIn || kIn))) {
            out.push_back({l.head, double(l.query), double(l.key), l.weight});
            continue;
        }
        if (outside != OutsideRows::Bundle || (!qIn && !kIn))
            continue;
        const int row = qIn ? l.query : l.key;
        const bool up = (qIn ? l.key : l.query) < first;
        const qint64 id =
            ((qint64(l.head) * 2 + (qIn ? 1 : 0)) * 2 + (up ? 1 : 0)) * (qint64(1) << 32) + row;
        const auto it = bundles.find(id);
        if (it != bundles.end()) {
            out[it.value()].weight = std::max(out[it.value()].weight, l.weight);
            continue;
        }
        // The bundle ends a few rows beyond the edge, so it leaves the view at an angle.
        const double edge = up ? first - 4.0 : last + 4.0;
        bundles.insert(id, out.size());
        out.push_back({l.head, qIn ? double(row) : edge, qIn ? edge : double(row), l.weight});
    }
    return out;
}

// A line's opacity for its weight. The square root lifts the weak links a projector would wash
// out (0.01 -> 0.17, 0.1 -> 0.37, 0.5 -> 0.71) and keeps the order: stronger is always darker.
float linkAlpha(float weight) {
    return std::clamp(0.08f + 0.92f * std::sqrt(std::max(0.0f, weight)), 0.0f, 1.0f);
}

// A colour to blend: 8-bit channels and an opacity in 0..1.
struct Ink {
    int r = 0, g = 0, b = 0;
    float alpha = 1;
};

// Source over of `ink` at coverage `cover` (0..1) onto a premultiplied pixel, in 8.8 fixed
// point.
inline void blendPixel(QRgb* px, const Ink& ink, double cover) {
    const int a = int(ink.alpha * float(cover) * 256.0f + 0.5f);
    if (a <= 0)
        return;
    const QRgb d = *px;
    const int keep = 256 - a;
    *px = qRgba((ink.r * a + qRed(d) * keep) >> 8, (ink.g * a + qGreen(d) * keep) >> 8,
                (ink.b * a + qBlue(d) * keep) >> 8, (255 * a + qAlpha(d) * keep) >> 8);
}

// An antialiased line of `width` device pixels from a to b, in device pixels, clipped to the
// image and to rows yMin..yMax. One pass along the long axis: each scanline (or column) gets
// the span the line covers there, with fractional coverage at the span's ends. Qt's raster
// engine takes far longer per line for the long, steep, translucent lines this view has
// (0.2-1 ms each in a 1,000-token view), which is what made a thousand tokens slow.
void rasterLine(QImage& img, QPointF a, QPointF b, double width, const Ink& ink, double yMin,
                double yMax) {
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    const int W = img.width(), H = img.height();
    uchar* bits = img.bits();
    const qsizetype stride = img.bytesPerLine();
    auto pixel = [&](int x, int y) { return reinterpret_cast<QRgb*>(bits + y * stride) + x; };
    const int rowLo = std::max(0, int(std::floor(yMin)));
    const int rowHi = std::min(H, int(std::ceil(yMax)));
    if (std::abs(dy) >= std::abs(dx)) {
        if (dy < 0)
            std::swap(a, b);
        const double slope = (b.x() - a.x()) / std::max(1e-9, b.y() - a.y());
        const double half = width / 2.0 * std::sqrt(1.0 + slope * slope);
        const int y0 = std::max(rowLo, int(std::floor(a.y())));
        const int y1 = std::min(rowHi, int(std::ceil(b.y())));
        for (int y = y0; y < y1; ++y) {
            const double yc = std::clamp(y + 0.5, a.y(), b.y());
            const double xc = a.x() + (yc - a.y()) * slope;
            const double lo = xc - half, hi = xc + half;
            const int x0 = std::max(0, int(std::floor(lo)));
            const int x1 = std::min(W - 1, int(std::floor(hi)));
            for (int x = x0; x <= x1; ++x)
                blendPixel(pixel(x, y), ink,
                           std::min(1.0, std::min(hi, x + 1.0) - std::max(lo, double(x))));
        }
    } else {
        if (dx < 0)
            std::swap(a, b);
        const double slope = (b.y() - a.y()) / std::max(1e-9, b.x() - a.x());
        const double half = width / 2.0 * std::sqrt(1.0 + slope * slope);
        const int x0 = std::max(0, int(std::floor(a.x())));
        const int x1 = std::min(W, int(std::ceil(b.x())));
        for (int x = x0; x < x1; ++x) {
            const double xc = std::clamp(x + 0.5, a.x(), b.x());
            const double yc = a.y() + (xc - a.x()) * slope;
            const double lo = yc - half, hi = yc + half;
            const int ya = std::max(rowLo, int(std::floor(lo)));
            const int yb = std::min(rowHi - 1, int(std::floor(hi)));
            for (int y = ya; y <= yb; ++y)
                blendPixel(pixel(x, y), ink,
                           std::min(1.0, std::min(hi, y + 1.0) - std::max(lo, double(y))));
        }
    }
}

// Draws links into a transparent premultiplied image whose logical coordinates are g's, faint
// ones first so strong ones sit on top. Only rows yMin..yMax (logical) are touched.
void drawSegments(QImage& img, std::vector<Segment> lines, const LineGeometry& g, double yMin,
                  double yMax) {
    std::stable_sort(lines.begin(), lines.end(),
                     [](const Segment& a, const Segment& b) { return a.weight < b.weight; });
    const double dpr = img.devicePixelRatio();
    for (const Segment& l : lines) {
        const double ya = g.rowY(l.query, l.head), yb = g.rowY(l.key, l.head);
        if ((ya < yMin && yb < yMin) || (ya > yMax && yb > yMax))
            continue;
        const QRgb c = g.colors[size_t(l.head) % g.colors.size()];
        const Ink ink{qRed(c), qGreen(c), qBlue(c), linkAlpha(l.weight)};
        rasterLine(img, QPointF(g.x0 * dpr, ya * dpr), QPointF(g.x1 * dpr, yb * dpr),
                   g.lineWidth * dpr, ink, yMin * dpr, yMax * dpr);
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Data, selection and the off-thread render

struct TokenView::Data {
    std::vector<std::vector<float>> weights;  // per head, T*T
    std::vector<uint8_t> hidden;              // T*T or empty
    int tokens = 0;
};

struct TokenView::RenderJob {
    quint64 key = 0;
    quint64 dataGeneration = 0;
    std::shared_ptr<const Data> data;
    std::shared_ptr<const LinkSelection> selection;  // null: the worker selects
    std::vector<uint8_t> quizRows;                   // queries whose links are not drawn
    LineGeometry geometry;                           // yOrigin = -top: image coordinates
    double top = 0;                                  // content y of the image's first row
    QSize size;                                      // device-independent pixels
    qreal dpr = 1;
};

struct TokenView::RenderResult {
    quint64 key = 0;
    quint64 dataGeneration = 0;
    std::shared_ptr<const LinkSelection> selection;
    QImage image;
    double top = 0;
};

LinkSelection selectAttentionLinks(const std::vector<std::vector<float>>& perHeadWeights,
                                   int tokens, const std::vector<uint8_t>& hidden, int perQuery,
                                   float minWeight) {
    LinkSelection out;
    if (tokens <= 0 || perQuery <= 0)
        return out;
    const size_t T = size_t(tokens);
    const bool useHidden = hidden.size() == T * T;
    std::vector<AttentionLink> best;
    best.reserve(size_t(perQuery));
    for (int h = 0; h < int(perHeadWeights.size()); ++h) {
        const std::vector<float>& w = perHeadWeights[size_t(h)];
        if (w.size() < T * T)
            continue;
        for (int q = 0; q < tokens; ++q) {
            const float* row = w.data() + size_t(q) * T;
            const uint8_t* hid = useHidden ? hidden.data() + size_t(q) * T : nullptr;
            best.clear();
            size_t weakest = 0;  // index in best of its smallest weight, once best is full
            int64_t positive = 0;
            for (int k = 0; k < tokens; ++k) {
                const float v = row[k];
                if (!(v > 0.0f) || !std::isfinite(v) || (hid && hid[k]))
                    continue;
                ++positive;
                if (v < minWeight)
                    continue;
                if (best.size() < size_t(perQuery)) {
                    best.push_back({h, q, k, v});
                } else if (v > best[weakest].weight) {
                    best[weakest] = {h, q, k, v};
                } else {
                    continue;
                }
                if (best.size() == size_t(perQuery)) {
                    weakest = 0;
                    for (size_t i = 1; i < best.size(); ++i)
                        if (best[i].weight < best[weakest].weight ||
                            (best[i].weight == best[weakest].weight &&
                             best[i].key > best[weakest].key))
                            weakest = i;
                }
            }
            std::sort(best.begin(), best.end(), [](const AttentionLink& a, const AttentionLink& b) {
                return a.weight != b.weight ? a.weight > b.weight : a.key < b.key;
            });
            out.omitted += positive - int64_t(best.size());
            out.links.insert(out.links.end(), best.begin(), best.end());
        }
    }
    return out;
}

namespace {

// Runs on a worker thread: only the job's values, never the view.
TokenView::RenderResult renderLinks(const TokenView::RenderJob& job) {
    TokenView::RenderResult r;
    r.key = job.key;
    r.dataGeneration = job.dataGeneration;
    r.top = job.top;
    r.selection = job.selection;
    if (!r.selection)
        r.selection = std::make_shared<const LinkSelection>(
            selectAttentionLinks(job.data->weights, job.data->tokens, job.data->hidden,
                                 TokenView::kLinksPerQuery, TokenView::kMinLinkWeight));
    const QSize px(std::max(1, int(std::ceil(job.size.width() * job.dpr))),
                   std::max(1, int(std::ceil(job.size.height() * job.dpr))));
    r.image = QImage(px, QImage::Format_ARGB32_Premultiplied);
    r.image.setDevicePixelRatio(job.dpr);
    r.image.fill(Qt::transparent);
    // The rows in the image, and a row more on either side for the lines' ends.
    const LineGeometry& g = job.geometry;
    const int first = std::max(0, int(std::floor(job.top / g.rowH)) - 1);
    const int last = int(std::ceil((job.top + job.size.height()) / g.rowH)) + 1;
    std::vector<AttentionLink> shown;
    const std::vector<AttentionLink>* all = &r.selection->links;
    if (!job.quizRows.empty()) {
        for (const AttentionLink& l : r.selection->links)
            if (size_t(l.query) >= job.quizRows.size() || !job.quizRows[size_t(l.query)])
                shown.push_back(l);
        all = &shown;
    }
    std::vector<Segment> links = segmentsForRows(*all, g.head, first, last, OutsideRows::Drop);
    drawSegments(r.image, std::move(links), g, 0, job.size.height());
    return r;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Free helpers

QStringList tokenViewLabels(const QStringList& tokens) {
    QStringList shown;
    QHash<QString, int> count;
    for (const QString& t : tokens) {
        shown << displayLabel(t, kLabelChars);
        ++count[shown.back()];
    }
    for (int i = 0; i < int(shown.size()); ++i)
        if (count.value(shown[i]) > 1)
            shown[i] = QStringLiteral("%1\u00b7%2").arg(i).arg(shown[i]);
    return shown;
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

std::vector<uint8_t> tokenViewHidden(const Trace& trace) {
    const Step* m = trace.find(step_id::kMask);
    if (!m || m->value.dim() != 2)
        return {};
    const std::vector<float> v = m->value.toVector();
    std::vector<uint8_t> out(v.size());
    for (size_t i = 0; i < v.size(); ++i)
        out[i] = v[i] != 0.0f ? 1 : 0;
    return out;
}

std::string tokenViewStepId(const Trace& trace, const std::string& shownStepId) {
    const Step* s = trace.find(shownStepId);
    return s && s->info.kind == StepKind::Weights ? shownStepId : std::string(step_id::kWeights);
}

TokenViewInput tokenViewInput(const Trace& trace, int batch, const std::string& stepId) {
    TokenViewInput in;
    in.weights = tokenViewWeights(trace, batch, stepId);
    // The simple method's first softmax runs before any mask: nothing is hidden in it.
    if (stepId != step_id::kWeightsUnmasked)
        in.hidden = tokenViewHidden(trace);
    return in;
}

// ---------------------------------------------------------------------------------------------
// The view

TokenView::TokenView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_Hover);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setAccessibleName(
        tr("Token view: lines from query tokens to key tokens, darker = more attention"));
    scrollBar_ = new QScrollBar(Qt::Vertical, this);
    scrollBar_->hide();
    connect(scrollBar_, &QScrollBar::valueChanged, this, [this] {
        // The token under the mouse is another one now: let the next move say which.
        setHovered({});
        update();
    });
    renderJob_ = std::make_unique<LatestJob>();
}

TokenView::~TokenView() = default;

QColor TokenView::headColor(int head) {
    // Okabe & Ito (2008), colour-blind safe, black left out (it is the text colour), then Paul
    // Tol's muted colours: 16 heads (GPT-2 medium) each get a colour of their own, every two
    // at least 40 apart in RGB. Past 16, hues spaced by the golden angle.
    static const QRgb kColors[] = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9,
                                   0xF0E442, 0x882255, 0x117733, 0x332288, 0x999933, 0xAA4499,
                                   0x661100, 0x44AA99, 0x888888, 0x6699CC};
    const int n = int(sizeof(kColors) / sizeof(kColors[0]));
    head = std::max(0, head);
    if (head < n)
        return QColor(kColors[head]);
    const int k = head - n;
    const int hue = int(std::lround(std::fmod(17.0 + 137.508 * k, 360.0)));
    return QColor::fromHsv(hue, k % 2 ? 170 : 230, k % 3 == 2 ? 150 : 200);
}

std::vector<QRgb> TokenView::lineColors() const {
    // On a dark background the darker Okabe-Ito colours are lifted so the lines stay visible.
    const bool dark = palette().color(QPalette::Base).lightness() < 110;
    std::vector<QRgb> out;
    for (int h = 0; h < std::max(1, headCount()); ++h)
        out.push_back((dark ? headColor(h).lighter(135) : headColor(h)).rgb());
    return out;
}

int TokenView::headCount() const {
    return data_ ? int(data_->weights.size()) : 0;
}

void TokenView::setAttention(std::vector<std::vector<float>> perHeadWeights,
                             const QStringList& tokens, std::vector<uint8_t> hidden) {
    auto data = std::make_shared<Data>();
    data->tokens = int(tokens.size());
    const size_t need = size_t(tokens.size()) * size_t(tokens.size());
    for (auto& w : perHeadWeights)
        if (w.size() != need)
            w.resize(need, 0.0f);  // defensive: never index past the end
    data->weights = std::move(perHeadWeights);
    if (hidden.size() == need)
        data->hidden = std::move(hidden);
    tokens_ = tokens;
    labels_ = tokenViewLabels(tokens);
    colWCache_ = -1;
    ++dataGeneration_;
    selection_.reset();
    if (need * data->weights.size() <= kSyncSelectionWeights)
        selection_ = std::make_shared<const LinkSelection>(selectAttentionLinks(
            data->weights, data->tokens, data->hidden, kLinksPerQuery, kMinLinkWeight));
    data_ = std::move(data);
    if (head_ >= headCount())
        head_ = -1;
    hovered_ = {};
    scrollBar_->setValue(0);  // before the render is asked for: it covers the rows in view
    invalidate();
    updateGeometry();
}

void TokenView::setHead(int head) {
    const int next = head < 0 || head >= headCount() ? -1 : head;
    if (next == head_)
        return;
    head_ = next;
    invalidate();
    updateGeometry();
}

void TokenView::setQuizRows(std::vector<uint8_t> rows) {
    if (std::find(rows.begin(), rows.end(), uint8_t(1)) == rows.end())
        rows.clear();
    if (rows == quizRows_)
        return;
    quizRows_ = std::move(rows);
    invalidate();
}

bool TokenView::isWithheld(int query) const {
    return query >= 0 && size_t(query) < quizRows_.size() && quizRows_[size_t(query)];
}

void TokenView::setFontScale(double scale) {
    if (std::clamp(scale, 0.5, 4.0) == fontScale_)
        return;
    fontScale_ = std::clamp(scale, 0.5, 4.0);
    colWCache_ = -1;
    invalidate();
    updateGeometry();
}

void TokenView::invalidate() {
    layoutDirty_ = true;
    ++renderKey_;
    requestRender();
    update();
}

float TokenView::weightAt(int head, int query, int key) const {
    if (!data_ || head < 0 || head >= headCount() || query < 0 || key < 0 ||
        query >= data_->tokens || key >= data_->tokens)
        return 0.0f;
    return data_->weights[size_t(head)][size_t(query) * size_t(data_->tokens) + size_t(key)];
}

bool TokenView::isHidden(int query, int key) const {
    if (!data_ || data_->hidden.empty() || query < 0 || key < 0 || query >= data_->tokens ||
        key >= data_->tokens)
        return false;
    return data_->hidden[size_t(query) * size_t(data_->tokens) + size_t(key)] != 0;
}

QString TokenView::weightText(int head, int query, int key) const {
    if (isHidden(query, key))
        return tr("masked");
    if (isWithheld(query))
        return QStringLiteral("?");
    const float w = weightAt(head, query, key);
    // A visible weight too small for two decimals is not zero: say so.
    if (w > 0.0f && std::isfinite(w) && w < 0.005f)
        return QStringLiteral("<0.01");
    return formatCellValue(w, 2);
}

// ---------------------------------------------------------------------------------------------
// Layout

QFont TokenView::tokenFont() const {
    return scaledFont(font(), 1.1 * fontScale_);
}

QString TokenView::legendLabel(int head, bool compact) const {
    return compact ? QString::number(head) : tr("head %1").arg(head);
}

// The swatches and labels in one line; compact, the labels are the head numbers after a
// "heads" caption, for many heads in a narrow view or at presentation size.
double TokenView::legendWidth(const QFont& font, bool compact) const {
    const QFontMetricsF fm(font);
    double total = compact ? fm.horizontalAdvance(tr("heads")) + 8 : 0;
    for (int h = 0; h < headCount(); ++h)
        total += fm.height() * 0.7 + 4 + fm.horizontalAdvance(legendLabel(h, compact)) +
                 (compact ? 8 : 12);
    return total;
}

const TokenView::Layout& TokenView::layout() const {
    if (!layoutDirty_ && layout_.size == size())
        return layout_;
    Layout l;
    l.size = size();
    l.font = tokenFont();
    l.smallFont = scaledFont(font(), 0.95 * fontScale_);
    const QFontMetricsF fm(l.font);
    l.lineH = fm.height();
    if (colWCache_ < 0) {
        // Measured once per set of tokens and font: the widest label decides the column.
        double w = std::max(fm.horizontalAdvance(tr("Queries")), fm.horizontalAdvance(tr("Keys")));
        QFont bold = l.font;
        bold.setBold(true);  // the hovered label is bold
        const QFontMetricsF bfm(bold);
        for (const QString& t : labels_)
            w = std::max(w, bfm.horizontalAdvance(t));
        colWCache_ = std::ceil(w + 2 * kPad);
    }
    l.colW = colWCache_;
    const double baseRowH = std::ceil(fm.height() * 1.55);
    l.rowH = baseRowH;
    double y = kMargin;
    l.legend = headCount() > 1 && head_ < 0;
    l.legendCompact = legendWidth(l.font, false) > width() - 2 * kMargin;
    l.legendY = y;
    if (l.legend)
        y += l.lineH * 1.5;
    // The note line exists whenever links may be left out, so rows do not jump when the
    // selection arrives from the worker.
    l.note = data_ && (data_->tokens > kLinksPerQuery || (selection_ && selection_->omitted > 0));
    l.noteY = y;
    if (l.note)
        y += QFontMetricsF(l.smallFont).height() * 1.4;
    l.headerY = y;
    l.rowsTop = y + l.lineH * 1.6;
    l.rowsBottom = std::max(l.rowsTop + baseRowH, height() - kMargin);
    const int n = int(tokens_.size());
    const double avail = l.rowsBottom - l.rowsTop;
    const bool scrolls = n * baseRowH > avail;
    double gap = kGap * fontScale_;
    const double usableW = width() - (scrolls ? scrollBar_->sizeHint().width() : 0);
    // A narrow panel first narrows the room for the lines, down to a third of it, then the
    // columns (their labels are elided): the key labels are never cut off at the edge.
    const double room = usableW - 2 * kMargin;
    if (2 * l.colW + gap > room) {
        gap = std::max(gap / 3.0, room - 2 * l.colW);
        if (2 * l.colW + gap > room)
            l.colW = std::max(2.0 * kPad + 8.0, (room - gap) / 2.0);
    }
    const double total = 2 * l.colW + gap;
    const double x0 = std::max(kMargin, (usableW - total) / 2.0);
    l.leftX = x0;
    l.rightX = x0 + l.colW + gap;
    // Spread rows out when the widget is taller than needed (up to 2x).
    if (n > 0 && !scrolls)
        l.rowH = std::min(baseRowH * 2.0, avail / n);
    l.contentH = n * l.rowH;
    layout_ = l;
    layoutDirty_ = false;
    updateScrollBar();
    return layout_;
}

void TokenView::updateScrollBar() const {
    const Layout& l = layout_;
    const double view = l.rowsBottom - l.rowsTop;
    const int range = int(std::ceil(std::max(0.0, l.contentH - view)));
    const int sbW = scrollBar_->sizeHint().width();
    const QRect geo(width() - sbW, int(l.rowsTop), sbW, int(l.rowsBottom - l.rowsTop));
    if (scrollBar_->geometry() != geo)
        scrollBar_->setGeometry(geo);
    scrollBar_->setRange(0, range);
    scrollBar_->setPageStep(std::max(1, int(view)));
    scrollBar_->setSingleStep(std::max(1, int(l.rowH)));
    if (scrollBar_->isVisibleTo(const_cast<TokenView*>(this)) != (range > 0))
        scrollBar_->setVisible(range > 0);
}

int TokenView::scrollPosition() const {
    layout();
    return scrollBar_->value();
}

int TokenView::firstVisibleRow() const {
    const Layout& l = layout();
    return std::max(0, int(std::floor(scrollBar_->value() / l.rowH)));
}

int TokenView::lastVisibleRow() const {
    const Layout& l = layout();
    const double bottom = scrollBar_->value() + (l.rowsBottom - l.rowsTop);
    return std::min(int(tokens_.size()) - 1, int(std::ceil(bottom / l.rowH)));
}

void TokenView::scrollToToken(int index) {
    if (index < 0 || index >= tokens_.size())
        return;
    const Layout& l = layout();
    const double top = index * l.rowH;
    const double view = l.rowsBottom - l.rowsTop;
    if (top < scrollBar_->value())
        scrollBar_->setValue(int(std::floor(top)));
    else if (top + l.rowH > scrollBar_->value() + view)
        scrollBar_->setValue(int(std::ceil(top + l.rowH - view)));
}

QRectF TokenView::tokenRect(Side side, int index) const {
    if (side == Side::None || index < 0 || index >= tokens_.size())
        return {};
    const Layout& l = layout();
    const double x = side == Side::Query ? l.leftX : l.rightX;
    return QRectF(x, l.rowsTop + index * l.rowH - scrollBar_->value(), l.colW, l.rowH);
}

TokenView::Hit TokenView::hitTest(const QPointF& pos) const {
    const Layout& l = layout();
    if (tokens_.isEmpty() || pos.y() < l.rowsTop || pos.y() >= l.rowsBottom)
        return {};
    const int row = int(std::floor((pos.y() - l.rowsTop + scrollBar_->value()) / l.rowH));
    if (row < 0 || row >= tokens_.size())
        return {};
    if (pos.x() >= l.leftX && pos.x() < l.leftX + l.colW)
        return {Side::Query, row};
    if (pos.x() >= l.rightX && pos.x() < l.rightX + l.colW)
        return {Side::Key, row};
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

const LinkSelection* TokenView::readySelection() const {
    return selection_.get();
}

std::vector<TokenView::Line> TokenView::visibleLines() const {
    std::vector<Line> out;
    if (!data_)
        return out;
    if (!selection_)  // not back from the worker yet: the same selection, here and now
        selection_ = std::make_shared<const LinkSelection>(selectAttentionLinks(
            data_->weights, data_->tokens, data_->hidden, kLinksPerQuery, kMinLinkWeight));
    for (const AttentionLink& l : selection_->links) {
        if (head_ >= 0 && l.head != head_)
            continue;
        if (isWithheld(l.query))
            continue;
        if (hovered_.side == Side::Query && l.query != hovered_.index)
            continue;
        if (hovered_.side == Side::Key && l.key != hovered_.index)
            continue;
        out.push_back(l);
    }
    return out;
}

QString TokenView::linkNote() const {
    if (!data_ || data_->tokens == 0)
        return {};
    if (!selection_)
        return tr("Finding the strongest links\u2026");
    QStringList parts;
    if (selection_->omitted > 0)
        parts << tr("The %1 strongest links per token (weights \u2265 %2)")
                     .arg(kLinksPerQuery)
                     .arg(double(kMinLinkWeight), 0, 'f', 2);
    const Layout& l = layout();
    if (l.contentH > l.rowsBottom - l.rowsTop + 0.5)
        parts << tr("hover a token to see all of its links");
    if (parts.isEmpty())
        return {};
    QString note = parts.join(QStringLiteral(" \u00b7 ")) + QLatin1Char('.');
    note[0] = note[0].toUpper();
    return note;
}

QString TokenView::toolTipText(const Hit& hit) const {
    if (hit.side == Side::None || hit.index < 0 || hit.index >= tokens_.size())
        return {};
    const int T = int(tokens_.size());
    const int i = hit.index;
    const QString name = labels_[i].toHtmlEscaped();
    QString html;
    int hiddenCount = 0;
    if (hit.side == Side::Query) {
        html = tr("<b>%1</b>: query at position %2").arg(name).arg(i);
        // A window mask hides earlier keys too: each side is counted and said on its own.
        int earlier = 0;
        for (int k = 0; k < T; ++k)
            if (isHidden(i, k))
                ++(k > i ? hiddenCount : earlier);
        const int h = head_ >= 0 ? head_ : 0;
        if (isWithheld(i)) {
            html += QStringLiteral("<br>") +
                    tr("A quiz hides this token's weights: reveal its row in the heatmap.");
        } else if (head_ >= 0 || headCount() == 1) {
            QStringList strongest;
            for (const AttentionLink& l : visibleLinesOf(h, i))
                strongest << QStringLiteral("%1 %2").arg(labels_[l.key].toHtmlEscaped(),
                                                         weightText(h, i, l.key));
            if (!strongest.isEmpty())
                html += QStringLiteral("<br>") + tr("Strongest keys (head %1): %2")
                                                     .arg(h)
                                                     .arg(strongest.join(QStringLiteral(", ")));
        }
        if (hiddenCount > 0)
            html +=
                QStringLiteral("<br>") +
                (hiddenCount == 1
                     ? tr("1 later key masked: this token may not see it.")
                     : tr("%1 later keys masked: this token may not see them.").arg(hiddenCount));
        if (earlier > 0)
            html += QStringLiteral("<br>") +
                    (earlier == 1 ? tr("1 earlier key masked: it is outside this token's window.")
                                  : tr("%1 earlier keys masked: they are outside this token's "
                                       "window.")
                                        .arg(earlier));
    } else {
        html = tr("<b>%1</b>: key at position %2").arg(name).arg(i);
        int later = 0;  // queries whose window the key has left
        for (int q = 0; q < T; ++q)
            if (isHidden(q, i))
                ++(q < i ? hiddenCount : later);
        if (hiddenCount > 0)
            html += QStringLiteral("<br>") +
                    (hiddenCount == 1 ? tr("Masked for 1 earlier query.")
                                      : tr("Masked for %1 earlier queries.").arg(hiddenCount));
        if (later > 0)
            html +=
                QStringLiteral("<br>") +
                (later == 1
                     ? tr("Masked for 1 later query, whose window it is outside.")
                     : tr("Masked for %1 later queries, whose window it is outside.").arg(later));
    }
    return html;
}

std::vector<AttentionLink> TokenView::visibleLinesOf(int head, int query) const {
    std::vector<AttentionLink> out;
    if (!selection_)
        return out;
    for (const AttentionLink& l : selection_->links)
        if (l.head == head && l.query == query)
            out.push_back(l);
    return out;
}

QSize TokenView::sizeHint() const {
    const Layout& l = layout();
    const int w = int(2 * l.colW + kGap * fontScale_ + 2 * kMargin);
    const QFontMetricsF fm(l.font);
    // Tall enough for a sentence; longer inputs scroll.
    const int rows = std::clamp(int(tokens_.size()), 3, 40);
    const int h = int(l.rowsTop + rows * std::ceil(fm.height() * 1.55) + kMargin);
    return {std::max({w, 320, int(legendWidth(l.font, true) + 2 * kMargin)}), h};
}

QSize TokenView::minimumSizeHint() const {
    // Two narrow token columns and the lines between them; any narrower and the window's
    // minimum width passes a 960-pixel-wide screen (1920 x 1080 at scale 2) in model mode.
    return {140, 120};
}

// ---------------------------------------------------------------------------------------------
// Rendering

bool TokenView::imageCoversView() const {
    if (image_.isNull() || imageKey_ != renderKey_)
        return false;
    const Layout& l = layout();
    const double top = scrollBar_->value();
    const double bottom = top + (l.rowsBottom - l.rowsTop);
    const double imageH = image_.height() / image_.devicePixelRatio();
    return imageTop_ <= top + 0.5 && imageTop_ + imageH >= std::min(bottom, l.contentH) - 0.5;
}

bool TokenView::linesReady() const {
    return !data_ || tokens_.isEmpty() || headCount() == 0 || imageCoversView();
}

void TokenView::requestRender() {
    renderWanted_ = true;
    if (!renderRunning_)
        startRender();
}

void TokenView::startRender() {
    renderWanted_ = false;
    if (!data_ || tokens_.isEmpty() || headCount() == 0)
        return;
    const Layout& l = layout();
    const double view = std::max(1.0, l.rowsBottom - l.rowsTop);
    RenderJob job;
    job.key = renderKey_;
    job.dataGeneration = dataGeneration_;
    job.data = data_;
    job.selection = selection_;
    job.quizRows = quizRows_;
    // Half a screen more above and below what shows, so scrolling a little needs no render.
    const bool whole = l.contentH <= 2 * view;
    job.top = whole ? 0.0 : std::max(0.0, scrollBar_->value() - view / 2);
    const double height = std::min(l.contentH - job.top, whole ? l.contentH : 2 * view);
    job.size = QSize(int(std::ceil(l.rightX - (l.leftX + l.colW))), int(std::ceil(height)));
    job.dpr = devicePixelRatioF();
    job.geometry.x0 = 0;
    job.geometry.x1 = l.rightX - (l.leftX + l.colW);
    job.geometry.rowH = l.rowH;
    job.geometry.yOrigin = -job.top;
    job.geometry.lineWidth = std::max(1.5, 2.5 * fontScale_);
    job.geometry.head = head_;
    job.geometry.heads = headCount();
    job.geometry.colors = lineColors();
    renderRunning_ = true;
    // Only one render is ever in flight (a request made meanwhile waits in renderWanted_), so
    // every result lands, from the event loop, never inside setAttention or setHead: one with
    // an older key still brings the link selection.
    renderJob_->run([job = std::move(job)](const CancelToken&) { return renderLinks(job); },
                    [this](RenderResult result) { acceptRender(std::move(result)); });
}

void TokenView::acceptRender(RenderResult result) {
    renderRunning_ = false;
    if (result.dataGeneration == dataGeneration_ && !selection_)
        selection_ = result.selection;
    if (result.key == renderKey_) {
        image_ = std::move(result.image);
        imageKey_ = result.key;
        imageTop_ = result.top;
    } else {
        ++droppedRenders_;
    }
    if (renderWanted_ || !imageCoversView())
        startRender();
    update();
}

void TokenView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    const QPalette pal = palette();
    const Layout& l = layout();
    const QFont f = l.font;
    p.setFont(f);
    const QFontMetricsF fm(f);
    const int T = int(tokens_.size());
    const int H = headCount();

    if (T == 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No attention weights to show yet"));
        return;
    }
    if (!imageCoversView() && !renderRunning_)
        requestRender();

    // Header: which heads are drawn, what is left out, the column titles.
    const QColor text = pal.color(QPalette::Text);
    const QColor muted = pal.color(QPalette::PlaceholderText);
    const double mid = (l.leftX + l.colW + l.rightX) / 2.0;
    if (l.legend) {
        const double sw = fm.height() * 0.7;
        const bool compact = l.legendCompact;
        double x = std::max(kMargin, mid - legendWidth(f, compact) / 2.0);
        p.setPen(text);
        if (compact) {
            const QString caption = tr("heads");
            p.drawText(QRectF(x, l.legendY, fm.horizontalAdvance(caption) + 2, fm.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, caption);
            x += fm.horizontalAdvance(caption) + 8;
        }
        const std::vector<QRgb> colors = lineColors();
        for (int h = 0; h < H; ++h) {
            const QRectF swatch(x, l.legendY + (fm.height() - sw) / 2, sw, sw);
            p.fillRect(swatch, QColor::fromRgb(colors[size_t(h)]));
            x += sw + 4;
            const QString label = legendLabel(h, compact);
            p.drawText(QRectF(x, l.legendY, fm.horizontalAdvance(label) + 2, fm.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, label);
            x += fm.horizontalAdvance(label) + (compact ? 8 : 12);
        }
    }
    if (l.note) {
        p.setFont(l.smallFont);
        p.setPen(muted);
        const QFontMetricsF sfm(l.smallFont);
        const double w = width() - 2 * kMargin;
        p.drawText(QRectF(kMargin, l.noteY, w, sfm.height()), Qt::AlignHCenter | Qt::AlignVCenter,
                   sfm.elidedText(linkNote(), Qt::ElideRight, w));
    }
    QFont bold = f;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(text);
    p.drawText(QRectF(l.leftX, l.headerY, l.colW - kPad, fm.height()),
               Qt::AlignRight | Qt::AlignVCenter, tr("Queries"));
    p.drawText(QRectF(l.rightX + kPad, l.headerY, l.colW, fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter, tr("Keys"));
    if (!l.legend && head_ >= 0 && H > 1) {
        // One head: its swatch between the column titles.
        p.setFont(f);
        const double sw = fm.height() * 0.7;
        const QString label = tr("head %1").arg(head_);
        const double total = sw + 4 + fm.horizontalAdvance(label);
        double x = mid - total / 2.0;
        p.fillRect(QRectF(x, l.headerY + (fm.height() - sw) / 2, sw, sw),
                   QColor::fromRgb(lineColors()[size_t(head_)]));
        x += sw + 4;
        p.drawText(QRectF(x, l.headerY, fm.horizontalAdvance(label) + 2, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, label);
    }

    // The rows area scrolls under the header.
    const double scrollY = scrollBar_->value();
    const QRectF rowsArea(0, l.rowsTop,
                          width() - (scrollBar_->isVisible() ? scrollBar_->width() : 0),
                          l.rowsBottom - l.rowsTop);
    p.setClipRect(rowsArea);
    const double lineX0 = l.leftX + l.colW;
    if (hovered_.side != Side::None) {
        // One token's lines: few enough to draw here, and they must follow the mouse at once.
        LineGeometry g;
        g.x0 = lineX0;
        g.x1 = l.rightX;
        g.rowH = l.rowH;
        g.yOrigin = l.rowsTop - scrollY;
        g.lineWidth = std::max(1.5, 2.5 * fontScale_);
        g.head = head_;
        g.heads = H;
        g.colors = lineColors();
        if (readySelection()) {
            // Drawn into an image of the rows area's line gap, then blitted.
            const qreal dpr = devicePixelRatioF();
            const double gapW = l.rightX - lineX0;
            QImage overlay(std::max(1, int(std::ceil(gapW * dpr))),
                           std::max(1, int(std::ceil((l.rowsBottom - l.rowsTop) * dpr))),
                           QImage::Format_ARGB32_Premultiplied);
            overlay.setDevicePixelRatio(dpr);
            overlay.fill(Qt::transparent);
            g.x0 = 0;
            g.x1 = gapW;
            g.yOrigin = -scrollY;
            drawSegments(overlay,
                         segmentsForRows(visibleLines(), head_, firstVisibleRow(), lastVisibleRow(),
                                         hovered_.side == Side::Query ? OutsideRows::Keep
                                                                      : OutsideRows::Bundle),
                         g, 0, l.rowsBottom - l.rowsTop);
            p.drawImage(QPointF(lineX0, l.rowsTop), overlay);
        }
    } else if (!image_.isNull() && imageKey_ == renderKey_) {
        p.drawImage(QPointF(lineX0, l.rowsTop + imageTop_ - scrollY), image_);
    }

    // Tokens of the rows in view.
    const QColor hl = pal.color(QPalette::Highlight);
    QColor hlSoft = hl;
    hlSoft.setAlphaF(0.18f);
    // With a token hovered and one head drawn, the weights go next to the other column.
    const bool showWeights = hovered_.side != Side::None && (head_ >= 0 || H == 1);
    const int wHead = head_ >= 0 ? head_ : 0;
    const QFont small = scaledFont(f, 0.8);
    const QFontMetricsF smallFm(small);
    QFont smallItalic = small;
    smallItalic.setItalic(true);
    const int first = firstVisibleRow(), last = lastVisibleRow();
    for (int i = first; i <= last; ++i) {
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
            p.setPen(text);
            const QRectF labelRect = r.adjusted(kPad, 0, -kPad, 0);
            p.drawText(
                labelRect,
                (side == Side::Query ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter,
                QFontMetricsF(tf).elidedText(labels_[i], Qt::ElideRight, labelRect.width() + 1));
            if (showWeights && side != hovered_.side) {
                const int q = hovered_.side == Side::Query ? hovered_.index : i;
                const int k = hovered_.side == Side::Query ? i : hovered_.index;
                const bool masked = isHidden(q, k);
                const QString txt = weightText(wHead, q, k);
                p.setFont(masked ? smallItalic : small);
                p.setPen(muted);
                const double tw = smallFm.horizontalAdvance(txt) + 6;
                const QRectF wr = side == Side::Key
                                      ? QRectF(r.left() - tw - 2, r.top(), tw, r.height())
                                      : QRectF(r.right() + 2, r.top(), tw, r.height());
                p.drawText(wr, Qt::AlignCenter, txt);
            }
        }
    }
}

void TokenView::resizeEvent(QResizeEvent* event) {
    invalidate();
    QWidget::resizeEvent(event);
}

void TokenView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange) {
        colWCache_ = -1;
        invalidate();
        updateGeometry();
    } else if (event->type() == QEvent::PaletteChange) {
        invalidate();  // the line colours follow the background
    }
    QWidget::changeEvent(event);
}

bool TokenView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const Hit hit = hitTest(help->pos());
        const QString tip = toolTipText(hit);
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this,
                               tokenRect(hit.side, hit.index).toAlignedRect());
        return true;
    }
    return QWidget::event(event);
}

void TokenView::mouseMoveEvent(QMouseEvent* event) {
    setHovered(hitTest(event->position()));
    QWidget::mouseMoveEvent(event);
}

void TokenView::leaveEvent(QEvent* event) {
    setHovered({});
    QWidget::leaveEvent(event);
}

void TokenView::wheelEvent(QWheelEvent* event) {
    if (!scrollBar_->isVisible()) {
        QWidget::wheelEvent(event);
        return;
    }
    QCoreApplication::sendEvent(scrollBar_, event);
}

}  // namespace attn

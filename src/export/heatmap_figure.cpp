#include "export/heatmap_figure.h"

#include <qcustomplot.h>
#include <QCoreApplication>
#include <QEvent>
#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>
#include <QPalette>
#include <QPixmap>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace attn {

namespace {

class FigureText {
    Q_DECLARE_TR_FUNCTIONS(attn::FigureText)
};

constexpr double kHatchSpacing = 8.0;  // logical pixels between hatch lines (Qt::BDiagPattern)

// The spacing of the axes around the cells, in pixels, as the axes are styled (styleAxis) and
// as the layout reserves room for them.
constexpr int kTickOut = 4;       // tick marks outside the cells
constexpr int kTickLabelPad = 4;  // between a tick mark and its label
constexpr int kTitlePad = 6;      // between the tick labels and the axis title
constexpr int kAxisPad = 4;       // beyond the axis title
constexpr int kEdge = 4;          // a margin with nothing in it
constexpr int kBodyPad = 8;       // between the figure's edge and what it holds
constexpr int kLabelGap = 6;      // between two upright column labels
constexpr double kSin45 = 0.70711;

// The matrix a suggested figure keeps within, and the figure itself.
constexpr double kMaxMatrixSide = 1600.0;
constexpr int kMaxFigureSide = 2000;

bool isMaskedValue(float v) {
    return !std::isfinite(v) && !(std::isinf(v) && v > 0);
}

QFont baseFont(double pointSize) {
    QFont f = QFontDatabase::systemFont(QFontDatabase::GeneralFont);
    // The real family (e.g. "DejaVu Sans"), not an alias, so SVG viewers find the same font.
    f.setFamily(QFontInfo(f).family());
    f.setPointSizeF(pointSize);
    return f;
}

// Diagonal lines x + y = c (c a multiple of the spacing, so neighbouring cells join up)
// clipped to `r` by hand: vector output needs no clip paths.
void drawHatch(QPainter* p, const QRectF& r, const FigureColors& colors) {
    p->save();
    p->setPen(Qt::NoPen);
    p->setBrush(colors.maskFill);
    p->drawRect(r);
    QPen pen(colors.maskLine);
    pen.setWidthF(1.0);
    pen.setCapStyle(Qt::FlatCap);
    p->setPen(pen);
    p->setBrush(Qt::NoBrush);
    const double x0 = r.left(), x1 = r.right(), y0 = r.top(), y1 = r.bottom();
    const double cStart = std::ceil((x0 + y0) / kHatchSpacing) * kHatchSpacing;
    for (double c = cStart; c <= x1 + y1; c += kHatchSpacing) {
        const double xa = std::max(x0, c - y1);
        const double xb = std::min(x1, c - y0);
        if (xb <= xa)
            continue;
        p->drawLine(QPointF(xa, c - xa), QPointF(xb, c - xb));
    }
    p->restore();
}

// The hatched grey texture behind the colour map: NaN (masked) cells are transparent.
QBrush hatchBrush(const FigureColors& colors) {
    QPixmap tile(16, 16);
    tile.fill(colors.maskFill);
    QPainter p(&tile);
    p.fillRect(tile.rect(), QBrush(colors.maskLine, Qt::BDiagPattern));
    p.end();
    return QBrush(tile);
}

// The visible cell index range along an axis, clamped to [0, n).
void visibleCells(const QCPAxis* axis, int n, int* first, int* last) {
    const QCPRange r = axis->range();
    *first = std::clamp(int(std::floor(r.lower + 0.5)), 0, std::max(0, n - 1));
    *last = std::clamp(int(std::ceil(r.upper - 0.5)), 0, std::max(0, n - 1));
}

QRectF cellRect(const QCPAxis* x, const QCPAxis* y, int row, int col) {
    const QPointF a(x->coordToPixel(col - 0.5), y->coordToPixel(row - 0.5));
    const QPointF b(x->coordToPixel(col + 0.5), y->coordToPixel(row + 0.5));
    return QRectF(a, b).normalized();
}

// The fonts of a figure, by its size and font scale.
struct FigureFonts {
    QFont tick, axisTitle, barTitle, title, subtitle, note, values;
};

FigureFonts figureFonts(const HeatmapData& data, double fs) {
    FigureFonts f;
    const int n = std::max(data.rows, data.cols);
    f.tick = baseFont((n > 48 ? 8 : n > 24 ? 9 : 10) * fs);
    f.axisTitle = baseFont(10.5 * fs);
    f.axisTitle.setBold(true);
    f.barTitle = baseFont(9.5 * fs);
    f.title = baseFont(14 * fs);
    f.title.setBold(true);
    f.subtitle = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.subtitle.setFamily(QFontInfo(f.subtitle).family());
    f.subtitle.setPointSizeF(9.5 * fs);
    f.note = baseFont(9 * fs);
    f.values = baseFont(10);
    return f;
}

QString colorScaleLabel(StepKind kind) {
    switch (kind) {
        case StepKind::Weights:
            return FigureText::tr("attention weight");
        case StepKind::Scores:
            return FigureText::tr("attention score");
        case StepKind::Mask:
            return FigureText::tr("1 = hidden");
        case StepKind::DropoutMask:
            return FigureText::tr("1 = kept");
        case StepKind::Input:
            return FigureText::tr("embedding value");
        case StepKind::Projection:
            return FigureText::tr("value");
    }
    return FigureText::tr("value");
}

// The colour bar's title: what the colours mean in the scale in use.
QString colorBarTitle(const HeatmapData& data, const ColorScaling& s, const QString& given) {
    const QString what = !given.isEmpty()          ? given
                         : !data.valueName.isEmpty() ? data.valueName
                                                     : colorScaleLabel(data.kind);
    if (!s.fallback.isEmpty())
        return FigureText::tr("%1 (%2)").arg(what, s.fallback);
    switch (s.scale) {
        case ColorScale::Row:
            return s.symmetric ? FigureText::tr("each row: ±max |value| of the row")
                               : FigureText::tr("each row: min → max of the row");
        case ColorScale::Log:
            return FigureText::tr("%1, log scale").arg(what);
        case ColorScale::Matrix:
            break;
    }
    return what;
}

// "10⁻³": a power of ten with a superscript exponent.
QString powerOfTen(int exponent) {
    static const QChar digits[] = {QChar(0x2070), QChar(0x00B9), QChar(0x00B2), QChar(0x00B3),
                                   QChar(0x2074), QChar(0x2075), QChar(0x2076), QChar(0x2077),
                                   QChar(0x2078), QChar(0x2079)};
    QString s = QStringLiteral("10");
    if (exponent < 0)
        s += QChar(0x207B);  // superscript minus
    for (const QChar c : QString::number(std::abs(exponent)))
        s += digits[c.digitValue()];
    return s;
}

// The colour bar's axis: values for Matrix, row min/max for Row, decades for Log. Its range
// runs along the bar as the colormap does.
struct BarScale {
    QCPRange range;
    QSharedPointer<QCPAxisTicker> ticker;
};

BarScale barScale(const ColorScaling& s) {
    BarScale b;
    if (s.scale == ColorScale::Matrix) {
        b.range = QCPRange(s.lower, s.upper);
        b.ticker.reset(new QCPAxisTicker);
        b.ticker->setTickCount(6);
        return b;
    }
    auto* text = new QCPAxisTickerText;
    b.ticker.reset(text);
    if (s.scale == ColorScale::Row) {
        b.range = QCPRange(0, 1);
        if (s.symmetric) {
            text->addTick(0, FigureText::tr("−max"));
            text->addTick(0.5, QStringLiteral("0"));
            text->addTick(1, FigureText::tr("+max"));
        } else {
            text->addTick(0, FigureText::tr("min"));
            text->addTick(1, FigureText::tr("max"));
        }
        return b;
    }
    b.range = QCPRange(s.lower, s.upper);
    const int first = int(std::lround(s.lower)), last = int(std::lround(s.upper));
    const int step = std::max(1, (last - first + 5) / 6);  // at most about six labels
    for (int e = first; e <= last; e += step)
        text->addTick(e, powerOfTen(e));
    return b;
}

// What the items that draw the cells (colours, numbers) share.
struct Shared {
    HeatmapData data;
    QCPColorGradient gradient;
    std::vector<float> positions;  // each cell's colormap position, NaN when masked
    int decimals = 2;
    QStringList widestValues;  // the cell texts that may be the widest
    bool showValues = true;
    double fontScale = 1.0;
    bool largeValues = false;  // FigureOptions::largeValues
    FigureColors colors;
};

QColor positionColor(Shared& s, double t) {
    return QColor::fromRgba(s.gradient.color(t, QCPRange(0, 1)));
}

// The font size the numbers of cells cw x ch pixels are drawn at: the largest that leaves a
// little room around the widest number and fits the height, capped at 16 px (x font scale) or
// at a third of the cell, whichever is larger, so big cells (a 12-token map on a large screen)
// get digits to match instead of 12 px digits in 130 px cells; 0 below leastCellValuePixels.
int valuePixelSize(const Shared& s, double cw, double ch) {
    if (!s.showValues || s.widestValues.isEmpty() || cw <= 0 || ch <= 0)
        return 0;
    // Large numbers (presentation mode) keep a tenth of the cell on each side, or neighbouring
    // numbers run together.
    const double pad = s.largeValues ? cw * 0.1 : std::clamp(cw * 0.1, 1.5, 8.0);
    const double room = cw - 2 * pad;
    QFont f = baseFont(10);
    f.setPixelSize(100);
    double widestAt100 = 0;
    for (const QString& t : s.widestValues)
        widestAt100 = std::max(widestAt100, QFontMetricsF(f).horizontalAdvance(t));
    if (widestAt100 <= 0)
        return 0;
    const double cap = s.largeValues ? 200.0 : std::max(16.0 * s.fontScale, std::min(cw, ch) / 3.0);
    int px = int(std::floor(std::min({room * 100.0 / widestAt100, ch * 0.62, cap})));
    // Hinting makes small sizes a little wider than proportional: check the real width.
    for (const int least = leastCellValuePixels(s.fontScale); px >= least; --px) {
        f.setPixelSize(px);
        const QFontMetricsF fm(f);
        double widest = 0;
        for (const QString& t : s.widestValues)
            widest = std::max(widest, fm.horizontalAdvance(t));
        if (widest <= room)
            return px;
    }
    return 0;
}

// Something drawn over the cells of a figure, clipped to their axis rect, never selectable.
class CellsItem : public QCPAbstractItem {
  public:
    CellsItem(QCustomPlot* plot, std::shared_ptr<Shared> s, QCPAxisRect* rect)
        : QCPAbstractItem(plot), s_(std::move(s)), rect_(rect) {
        setClipAxisRect(rect);
        setClipToAxisRect(true);
        setSelectable(false);
    }
    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }

  protected:
    // Calls f(row, col, pixel rect) for every cell in view, row by row.
    template <class F>
    void forVisibleCells(F f) const {
        const QCPAxis* x = rect_->axis(QCPAxis::atBottom);
        const QCPAxis* y = rect_->axis(QCPAxis::atLeft);
        const HeatmapData& d = s_->data;
        if (d.isEmpty())
            return;
        int c0, c1, r0, r1;
        visibleCells(x, d.cols, &c0, &c1);
        visibleCells(y, d.rows, &r0, &r1);
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c)
                f(r, c, cellRect(x, y, r, c), r == r1, c == c1);
    }
    std::shared_ptr<Shared> s_;
    QCPAxisRect* rect_;
};

// Every cell as its own rectangle (for SVG and PDF, where QCPColorMap would emit one bitmap).
class VectorCellsItem : public CellsItem {
  public:
    using CellsItem::CellsItem;

  protected:
    void draw(QCPPainter* painter) override {
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, false);
        const int cols = s_->data.cols;
        forVisibleCells([&](int r, int c, QRectF cr, bool lastRow, bool lastCol) {
            const float t = s_->positions[size_t(r) * size_t(cols) + size_t(c)];
            if (std::isnan(t)) {
                drawHatch(painter, cr, s_->colors);
                return;
            }
            // Overlap the next cell a little so no hairline seams show in viewers.
            if (!lastCol)
                cr.setRight(cr.right() + 0.75);
            if (!lastRow)
                cr.setBottom(cr.bottom() + 0.75);
            painter->setPen(Qt::NoPen);
            painter->setBrush(positionColor(*s_, t));
            painter->drawRect(cr);
        });
        painter->restore();
    }
};

// The cells a quiz hides: a neutral fill over their colour, and a "?" where numbers fit.
class QuizCellsItem : public CellsItem {
  public:
    using CellsItem::CellsItem;

  protected:
    void draw(QCPPainter* painter) override {
        const QCPAxis* x = rect_->axis(QCPAxis::atBottom);
        const QCPAxis* y = rect_->axis(QCPAxis::atLeft);
        const HeatmapData& d = s_->data;
        const double ch = std::abs(y->coordToPixel(1) - y->coordToPixel(0));
        const double cw = std::abs(x->coordToPixel(1) - x->coordToPixel(0));
        QFont font = baseFont(10);
        font.setBold(true);
        font.setPixelSize(std::max(1, int(std::min(ch, cw) * 0.55)));
        const bool text = std::min(ch, cw) >= 10;
        painter->save();
        painter->setFont(font);
        painter->setRenderHint(QPainter::TextAntialiasing, true);
        const QColor fill = s_->colors.background.lightness() < 128 ? QColor(0x3a, 0x3a, 0x3a)
                                                                    : QColor(0xd9, 0xd9, 0xd9);
        const QColor ink = s_->colors.background.lightness() < 128 ? QColor(0xe0, 0xe0, 0xe0)
                                                                   : QColor(0x40, 0x40, 0x40);
        forVisibleCells([&](int r, int c, const QRectF& cr, bool, bool) {
            if (!d.isQuizHidden(r, c))
                return;
            painter->setPen(QPen(s_->colors.background, 1));
            painter->setBrush(fill);
            painter->drawRect(cr);
            if (text) {
                painter->setPen(ink);
                painter->drawText(cr, Qt::AlignCenter, QStringLiteral("?"));
            }
        });
        painter->restore();
    }
};

// The numbers in the cells, sized to the cells at draw time (so zooming in reveals them).
class CellValuesItem : public CellsItem {
  public:
    using CellsItem::CellsItem;

    const HeatmapData& data() const { return s_->data; }
    int pixelSize() const {
        const QCPAxis* x = rect_->axis(QCPAxis::atBottom);
        const QCPAxis* y = rect_->axis(QCPAxis::atLeft);
        if (s_->data.isEmpty())
            return 0;
        return valuePixelSize(*s_, std::abs(x->coordToPixel(1) - x->coordToPixel(0)),
                              std::abs(y->coordToPixel(1) - y->coordToPixel(0)));
    }

    // What cell (r, c) prints: "-inf" on a masked score, nothing on a hidden weight.
    QString textAt(int r, int c) const {
        const HeatmapData& d = s_->data;
        const float v = d.value(r, c);
        if (isMaskedValue(v))
            return formatCellValue(v, s_->decimals);
        if (d.isMasked(r, c))
            return {};
        return formatCellValue(d.shownValue(r, c), s_->decimals);
    }

  protected:
    void draw(QCPPainter* painter) override {
        const int px = pixelSize();
        if (px == 0)
            return;  // too small to read: colours only
        const QCPAxis* x = rect_->axis(QCPAxis::atBottom);
        const QCPAxis* y = rect_->axis(QCPAxis::atLeft);
        const HeatmapData& d = s_->data;
        QFont font = baseFont(10);
        font.setPixelSize(px);
        const QFontMetricsF fm(font);
        painter->save();
        painter->setFont(font);
        painter->setRenderHint(QPainter::TextAntialiasing, true);
        int c0, c1, r0, r1;
        visibleCells(x, d.cols, &c0, &c1);
        visibleCells(y, d.rows, &r0, &r1);
        for (int r = r0; r <= r1; ++r) {
            for (int c = c0; c <= c1; ++c) {
                const QRectF cr = cellRect(x, y, r, c);
                const float v = d.value(r, c);
                if (isMaskedValue(v)) {
                    // A clean patch behind the text so the hatch lines do not cross it.
                    const QString text = textAt(r, c);
                    const double tw = fm.horizontalAdvance(text) + px * 0.5;
                    const double th = fm.height();
                    const QRectF box(cr.center().x() - tw / 2, cr.center().y() - th / 2, tw, th);
                    painter->setPen(Qt::NoPen);
                    painter->setBrush(s_->colors.maskFill);
                    painter->drawRect(box.intersected(cr));
                    painter->setPen(s_->colors.maskText);
                    painter->drawText(cr, Qt::AlignCenter, text);
                    continue;
                }
                if (d.isMasked(r, c))
                    continue;  // hidden by the mask: the hatch says it all
                const float t = s_->positions[size_t(r) * size_t(d.cols) + size_t(c)];
                painter->setPen(textColorOn(positionColor(*s_, t)));
                painter->drawText(cr, Qt::AlignCenter, textAt(r, c));
            }
        }
        painter->restore();
    }
};

// The colour bar: one rectangle filled with a linear gradient through the colormap's stops,
// vector in SVG (<linearGradient>) and PDF (a shading), so no bitmap ends up in the file.
class ColorBarItem : public QCPAbstractItem {
  public:
    ColorBarItem(QCustomPlot* plot, Colormap c, QCPAxisRect* bar, const QColor& frame)
        : QCPAbstractItem(plot), colormap_(c), bar_(bar), frame_(frame) {
        setClipAxisRect(bar);
        setClipToAxisRect(false);
        setSelectable(false);
    }
    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }

  protected:
    void draw(QCPPainter* painter) override {
        const QRectF r = QRectF(bar_->rect());
        if (r.isEmpty())
            return;
        QLinearGradient g(r.left(), r.bottom(), r.left(), r.top());
        for (const auto& [pos, color] : colormapStops(colormap_))
            g.setColorAt(pos, color);
        painter->save();
        painter->setPen(Qt::NoPen);
        painter->setBrush(g);
        painter->drawRect(r);
        painter->setPen(QPen(frame_, 1));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(r);
        painter->restore();
    }

  private:
    Colormap colormap_;
    QCPAxisRect* bar_;
    QColor frame_;
};

// Token labels at integer positions. A label is left out only when it would overlap its
// neighbour: every label when a cell holds `extent` pixels (the label's width upright, about
// 1.4 line heights at 45 degrees, a line height down the rows), else every 2nd, 5th, 10th ...
class TokenTicker : public QCPAxisTickerText {
  public:
    TokenTicker(QStringList labels, QCPAxis* axis) : labels_(std::move(labels)), axis_(axis) {}

    QString labelAt(int i) const { return i >= 0 && i < labels_.size() ? labels_[i] : QString(); }
    void setLabelExtent(double extent) { extent_ = extent; }

  protected:
    double getTickStep(const QCPRange& range) override {
        double pixels = 0;
        if (QCPAxisRect* r = axis_->axisRect())
            pixels = axis_->orientation() == Qt::Horizontal ? r->width() : r->height();
        if (pixels <= 1 || range.size() <= 0)
            return 1.0;
        const double perCell = pixels / range.size();
        double mag = 1;
        while (true) {
            for (double m : {1.0, 2.0, 5.0})
                if (m * mag * perCell >= extent_ || m * mag >= labels_.size())
                    return m * mag;
            mag *= 10;
        }
    }
    int getSubTickCount(double) override { return 0; }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return labelAt(int(std::lround(tick)));
    }
    // Counted back from the last token when thinned: the last row is the query that predicts
    // the next token, and where a one-word change at the end (the coreference pair) shows.
    QVector<double> createTickVector(double step, const QCPRange& range) override {
        QVector<double> ticks;
        const double last = double(labels_.size() - 1);
        const double lower = std::max(0.0, std::ceil(range.lower));
        if (last < lower)
            return ticks;
        const double first = last - std::floor((last - lower) / step) * step;
        for (double t = first; t <= range.upper + 1e-9 && t <= last; t += step)
            ticks.append(t);
        return ticks;
    }

  private:
    QStringList labels_;
    QCPAxis* axis_;
    double extent_ = 1;
};

// The key to the hatch: a hatched swatch and "masked" with what a masked cell holds ("-inf",
// "weight 0"), under the colour bar, where the column labels leave room.
class MaskLegendElement : public QCPLayoutElement {
  public:
    MaskLegendElement(QCustomPlot* plot, const QStringList& lines, const QFont& font,
                      const FigureColors& colors)
        : QCPLayoutElement(plot), lines_(lines), font_(font), colors_(colors) {
        setAutoMargins(QCP::msNone);
        setMargins(QMargins());
    }
    static constexpr double kSwatchW = 18, kSwatchH = 12, kGap = 5;
    static QSizeF sizeFor(const QStringList& lines, const QFont& font) {
        const QFontMetricsF fm(font);
        double w = 0;
        for (const QString& l : lines)
            w = std::max(w, fm.horizontalAdvance(l));
        return QSizeF(kSwatchW + kGap + w + 2, std::max(kSwatchH, lines.size() * fm.height()));
    }

  protected:
    void draw(QCPPainter* painter) override {
        const QFontMetricsF fm(font_);
        const QRectF swatch(mRect.left(), mRect.top() + (fm.height() - kSwatchH) / 2, kSwatchW,
                            kSwatchH);
        painter->save();
        drawHatch(painter, swatch, colors_);
        painter->setPen(QPen(colors_.frame, 0.8));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(swatch);
        painter->setFont(font_);
        painter->setPen(colors_.noteText);
        for (int i = 0; i < lines_.size(); ++i)
            painter->drawText(QRectF(swatch.right() + kGap, mRect.top() + i * fm.height(),
                                     mRect.width(), fm.height()),
                              Qt::AlignLeft | Qt::AlignVCenter, lines_[i]);
        painter->restore();
    }

  private:
    QStringList lines_;
    QFont font_;
    FigureColors colors_;
};

// The sizes the figure's layout works with, measured once from its fonts and labels.
struct FigureMetrics {
    int rows = 1, cols = 1;
    bool square = true;
    double rowLabelWidth = 0;  // the widest row tick label; 0 when the rows have none
    double colLabelWidth = 0;  // the widest column tick label
    double tickLine = 0;       // the tick font's line height
    double xTitle = 0;         // height of the column axis title (0 without one)
    double yTitle = 0;         // height of the row axis title, turned along the axis
    bool colorBar = true;
    double barWidth = 16;
    double barLabelWidth = 0;  // the widest colour-bar tick label
    double barTitle = 0;       // height of the colour bar's title, turned along the bar
    double barTitleLength = 0;
    QSizeF legend;         // the masked-cells legend under the colour bar (empty: none)
    double maxCell = 0;    // FigureOptions::maxCellSize
    double maxAspect = 1;  // FigureOptions::maxCellAspect
    bool cellsAtTop = false;
    bool tight = false;  // FigureOptions::tight
    bool colsAreTokens = false;
    // The least cell that holds the numbers (0: none drawn): its width (the widest number
    // with a tenth of the cell each side), its height, and the larger of the two.
    double valueW = 0, valueH = 0, valueCell = 0;
};

// Whether cells of cw x ch hold their numbers.
bool holdsNumbers(const FigureMetrics& m, double cw, double ch) {
    return m.valueCell > 0 && cw >= m.valueW && ch >= m.valueH;
}

// Where the cells and the colour bar go in an area of the figure.
struct BodyGeometry {
    QRect cellsOuter;
    QMargins cellsMargins;
    QRect barOuter;
    QMargins barMargins;
    QRect legend;
    double cellW = 0, cellH = 0;
    int turn = 0;                         // the column labels' angle: 0 (upright), 45 or 90 degrees
    bool titles = true;                   // the axis and colour-bar titles are drawn
    bool tickLabels = true;               // the token labels are drawn
    double colExtent = 1, rowExtent = 1;  // pixels a tick label needs along its axis
};

double columnLabelsHeight(const FigureMetrics& m, int turn) {
    if (m.colLabelWidth <= 0)
        return 0;
    if (turn == 90)
        return m.colLabelWidth;
    return turn == 45 ? (m.colLabelWidth + m.tickLine) * kSin45 : m.tickLine;
}

// The room around the cells for ticks, tick labels and titles. Upright column labels need a
// line; at 45 degrees their diagonal, which also reaches left of the first cell; at 90 degrees
// their length.
QMargins cellsMargins(const FigureMetrics& m, int turn, double cellW) {
    // Tight figures (FigureOptions::tight) keep a pixel where others keep a few, and what a
    // label reaches beyond the first or last cell when the cells are smaller than its line
    // (QCustomPlot leaves out a label the widget's edge would cut).
    const double reach = (m.tickLine - cellW) / 2;
    const double overhang = reach > 0 ? reach + 3 : 1;
    const int edge = m.tight ? int(std::ceil(turn == 90 ? overhang : 1.0)) : kEdge;
    const int pad = m.tight ? 1 : kAxisPad;
    double left = edge;
    if (m.rowLabelWidth > 0)
        left = kTickOut + kTickLabelPad + m.rowLabelWidth + pad;
    if (m.yTitle > 0)
        left += kTitlePad + m.yTitle;
    if (turn == 45)
        left = std::max(left, columnLabelsHeight(m, 45) - cellW / 2 + edge);
    double bottom = edge;
    if (m.colLabelWidth > 0)
        bottom = kTickOut + kTickLabelPad + columnLabelsHeight(m, turn) + pad;
    if (m.xTitle > 0)
        bottom += kTitlePad + m.xTitle;
    if (!m.legend.isEmpty())
        bottom = std::max(bottom, kTickOut + kTickLabelPad + m.legend.height() + kEdge);
    // The colour bar's end labels reach half a line beyond the cells' top. Reserved with or
    // without a bar, so figures side by side (compare view) put their rows at the same height;
    // tight figures have no bar, and keep only what the first row's label reaches.
    const double top =
        m.tight && !m.colorBar ? overhang : std::max<double>(kEdge, m.tickLine / 2 + 2);
    return QMargins(int(std::ceil(left)), int(std::ceil(top)), edge, int(std::ceil(bottom)));
}

// Between the figure's edge and its body: less for the compare view's small figures.
int bodyPad(const FigureOptions& o) {
    return o.tight ? 0 : o.compactColorBar ? 2 : kBodyPad;
}

constexpr int kBarGap = 12;  // between the cells and the colour bar

// The colour bar's width beside the cells: the gap, the bar, its tick labels and title, or the
// masked-cells legend under it when that is wider.
int barOuterWidth(const FigureMetrics& m) {
    if (!m.colorBar)
        return 0;
    double w = kBarGap + m.barWidth + kTickOut + kTickLabelPad + m.barLabelWidth + kAxisPad;
    if (m.barTitle > 0)
        w += kTitlePad + m.barTitle;
    w = std::max(w, kBarGap + m.legend.width() + kEdge);
    return int(std::ceil(w));
}

// Cells of cw x ch: whole pixels from 2 px on, so every cell is drawn the same size.
double wholePixels(double v) {
    return v >= 2 ? std::floor(v) : std::max(v, 0.01);
}

// The colour bar's height: the cells' height, but at least enough for its title and a few
// labels (a one-row matrix), and no more than the area.
double barHeight(const FigureMetrics& m, double cellsHeight, double areaHeight) {
    const double wanted =
        std::max({cellsHeight, m.barTitleLength + 2 * m.tickLine, 5 * m.tickLine, 40.0});
    return std::max(10.0, std::min(wanted, areaHeight - m.tickLine - 4));
}

// How far the body reaches above and below the cells' top edge, and where the masked-cells
// legend starts: under the cells or under the bar, whichever ends lower (a bar keeps a least
// height for its labels, so it can reach below a short matrix).
struct VerticalExtent {
    double top = 0, bottom = 0, legendTop = 0;
};

VerticalExtent verticalExtent(const FigureMetrics& m, const QMargins& mg, double cellsH,
                              double barH) {
    const double overhang = m.colorBar ? m.tickLine / 2 + 2 : 0;
    const double barBottom = (cellsH + barH) / 2 + overhang;
    VerticalExtent e;
    e.legendTop = std::max(cellsH, barBottom) + kTickOut + kTickLabelPad;
    e.top = std::min<double>(-mg.top(), (cellsH - barH) / 2 - overhang);
    e.bottom = std::max<double>(cellsH + mg.bottom(), barBottom);
    if (m.colorBar && !m.legend.isEmpty())
        e.bottom = std::max(e.bottom, e.legendTop + m.legend.height() + kEdge);
    return e;
}

BodyGeometry layoutBodyOnce(const FigureMetrics& m, const QRect& area) {
    BodyGeometry g;
    const int barW = barOuterWidth(m);
    QMargins mg;
    for (int turn : {0, 45, 90}) {
        double cw = 0, ch = 0;
        // The margins without the first column label's reach, which depends on the cell width;
        // a tight figure's margins are what its labels reach beyond cells of the size just
        // found, and the cells are found again in them.
        for (double guess : {1e9, -1.0}) {
            if (guess < 0 && !m.tight)
                break;
            mg = cellsMargins(m, turn, guess > 0 ? guess : cw);
            const double widthLeft = area.width() - mg.right() - barW;  // margin and cells
            cw = (widthLeft - mg.left()) / m.cols;
            if (turn == 45) {
                // A turned label reaches left of its cell's centre by its diagonal: the first
                // one may need more than the row labels leave.
                const double reach = columnLabelsHeight(m, 45) + kEdge;
                cw = std::min(cw, (widthLeft - reach) / (m.cols - 0.5));
            }
            ch = (area.height() - mg.top() - mg.bottom()) / m.rows;
            if (m.maxCell > 0) {
                cw = std::min(cw, m.maxCell);
                ch = std::min(ch, m.maxCell);
            }
            if (m.square) {
                ch = std::min(cw, ch);
                // Wider than tall only where that lets the numbers show or grow: cells that
                // hold none either way stay square (the sonnet's 46 tokens in presentation).
                const double wide = std::min(cw, ch * m.maxAspect);
                cw = holdsNumbers(m, wholePixels(wide), wholePixels(ch)) ? wide : ch;
            }
            cw = wholePixels(std::max(cw, 0.0));
            ch = wholePixels(std::max(ch, 0.0));
        }
        g.cellW = cw;
        g.cellH = ch;
        g.turn = turn;
        // Token labels too wide for their cells are turned so every token keeps its label: at
        // 45 degrees while a cell holds a label's height along the diagonal, else upright on
        // their side (90 degrees), which packs them closest. Numbers (feature indices) stay
        // upright and are thinned: every 50th index says as much.
        if (turn == 90 || !m.colsAreTokens)
            break;
        if (turn == 0 && m.colLabelWidth <= cw - kLabelGap)
            break;
        if (turn == 45 && cw * kSin45 >= m.tickLine + 1)
            break;
    }
    if (g.turn == 45 || m.tight)
        mg = cellsMargins(m, g.turn, g.cellW);
    g.cellsMargins = mg;
    g.colExtent = g.turn == 45   ? m.tickLine / kSin45
                  : g.turn == 90 ? m.tickLine + 1
                                 : m.colLabelWidth + kLabelGap;
    g.rowExtent = m.tickLine + 1;

    const int innerW = std::max(1, int(std::lround(g.cellW * m.cols)));
    const int innerH = std::max(1, int(std::lround(g.cellH * m.rows)));
    const double barH = m.colorBar ? barHeight(m, innerH, area.height()) : 0;
    const double overhang = m.colorBar ? m.tickLine / 2 + 2 : 0;
    // The block of cells and bar, relative to the cells' top left corner, centred in the area.
    const VerticalExtent ext = verticalExtent(m, mg, innerH, barH);
    const double top = ext.top, bottom = ext.bottom, legendTop = ext.legendTop;
    const int blockW = mg.left() + innerW + mg.right() + barW;
    const int x = area.left() + std::max(0, (area.width() - blockW) / 2) + mg.left();
    const int y =
        area.top() +
        int(m.cellsAtTop ? -top : std::max(0.0, (area.height() - (bottom - top)) / 2 - top));
    const QRect inner(x, y, innerW, innerH);
    g.cellsOuter = inner.adjusted(-mg.left(), -mg.top(), mg.right(), mg.bottom());
    if (m.colorBar) {
        const int barTop = int(std::lround(inner.top() + (innerH - barH) / 2));
        const QRect bar(inner.right() + 1 + mg.right() + kBarGap, barTop, int(m.barWidth),
                        int(std::lround(barH)));
        g.barMargins = QMargins(0, int(overhang), barW - kBarGap - int(m.barWidth), int(overhang));
        g.barOuter =
            bar.adjusted(0, -g.barMargins.top(), g.barMargins.right(), g.barMargins.bottom());
        if (!m.legend.isEmpty())
            g.legend = QRect(bar.left(), inner.top() + int(std::ceil(legendTop)),
                             int(std::ceil(m.legend.width())), int(std::ceil(m.legend.height())));
    }
    return g;
}

// The cells below this many pixels would vanish under their labels (the compare view's small
// figures collapsed to piles of labels): then the labels give way to the cells.
constexpr double kLeastCell = 2.0;

// The body's layout: all the labels and titles when the cells keep room for their numbers;
// in a tight area the axis and colour-bar titles and the masked-cells legend step aside when
// that lets the numbers show or gives the cells a fifth more, and the token labels too when
// the cells would otherwise vanish.
BodyGeometry layoutBody(const FigureMetrics& m, const QRect& area) {
    const BodyGeometry full = layoutBodyOnce(m, area);
    const bool wantNumbers = m.valueCell > 0 && !holdsNumbers(m, full.cellW, full.cellH);
    if (!wantNumbers && full.cellW >= kLeastCell)
        return full;
    FigureMetrics bare = m;
    bare.xTitle = bare.yTitle = bare.barTitle = bare.barTitleLength = 0;
    bare.legend = QSizeF();  // the hatch speaks for itself; the legend widened the bar's column
    BodyGeometry g = layoutBodyOnce(bare, area);
    g.titles = false;
    // Bare when the numbers then show, or the cells grow by a fifth (a map beside Compare
    // and above Focus's bars shrank to 70 px under its titles).
    if (g.cellW >= kLeastCell)
        return holdsNumbers(m, g.cellW, g.cellH) || g.cellW >= 1.2 * full.cellW ||
                       full.cellW < kLeastCell
                   ? g
                   : full;
    bare.rowLabelWidth = bare.colLabelWidth = 0;
    g = layoutBodyOnce(bare, area);
    g.titles = false;
    g.tickLabels = false;
    return g;
}

// The cells, the colour bar and the masked-cells legend, placed by layoutBody at every layout.
// Sets the tick labels up for the cell size it chose and makes the ticks again, so one replot is
// always consistent.
class FigureBody : public QCPLayout {
  public:
    FigureBody(const FigureMetrics& metrics, const QFont& barTitleFont, const QString& barTitle,
               const QString& xTitle, const QString& yTitle, int pad)
        : metrics_(metrics),
          barTitleFont_(barTitleFont),
          barTitle_(barTitle),
          xTitle_(xTitle),
          yTitle_(yTitle) {
        setAutoMargins(QCP::msNone);
        setMargins(QMargins(pad, pad, pad, pad));
    }
    ~FigureBody() override { clear(); }

    void setElements(QCPAxisRect* cells, QCPAxisRect* bar, QCPLayoutElement* legend) {
        cells_ = cells;
        bar_ = bar;
        legend_ = legend;
        for (QCPLayoutElement* el :
             {static_cast<QCPLayoutElement*>(cells), static_cast<QCPLayoutElement*>(bar), legend}) {
            if (el) {
                children_.push_back(el);
                adoptElement(el);
            }
        }
    }

    // Only elements that exist are counted: QCustomPlot walks elements() without null checks.
    int elementCount() const override { return int(children_.size()); }
    QCPLayoutElement* elementAt(int index) const override {
        return index >= 0 && index < elementCount() ? children_[size_t(index)] : nullptr;
    }
    QCPLayoutElement* takeAt(int index) override {
        QCPLayoutElement* el = elementAt(index);
        if (el)
            take(el);
        return el;
    }
    bool take(QCPLayoutElement* element) override {
        const auto it = std::find(children_.begin(), children_.end(), element);
        if (!element || it == children_.end())
            return false;
        children_.erase(it);
        releaseElement(element);
        if (element == cells_)
            cells_ = nullptr;
        if (element == bar_)
            bar_ = nullptr;
        if (element == legend_)
            legend_ = nullptr;
        return true;
    }
    QSize minimumOuterSizeHint() const override { return QSize(80, 60); }
    QSize maximumOuterSizeHint() const override { return QSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX); }

  protected:
    void updateLayout() override {
        if (!cells_)
            return;
        const BodyGeometry g = layoutBody(metrics_, rect());
        cells_->setMargins(g.cellsMargins);
        cells_->setOuterRect(g.cellsOuter);
        QCPAxis* x = cells_->axis(QCPAxis::atBottom);
        QCPAxis* y = cells_->axis(QCPAxis::atLeft);
        x->setTickLabelRotation(-double(g.turn));
        x->setLabel(g.titles ? xTitle_ : QString());
        y->setLabel(g.titles ? yTitle_ : QString());
        x->setTickLabels(g.tickLabels);
        y->setTickLabels(g.tickLabels);
        if (auto* t = dynamic_cast<TokenTicker*>(x->ticker().data()))
            t->setLabelExtent(g.colExtent);
        if (auto* t = dynamic_cast<TokenTicker*>(y->ticker().data()))
            t->setLabelExtent(g.rowExtent);
        // The ticks were made before this layout: make them again for the cells just placed.
        cells_->update(upPreparation);
        if (bar_) {
            bar_->setMargins(g.barMargins);
            bar_->setOuterRect(g.barOuter);
            // A title longer than the bar is elided rather than drawn past its ends.
            const QString title =
                g.titles ? QFontMetricsF(barTitleFont_)
                               .elidedText(barTitle_, Qt::ElideRight, bar_->rect().height())
                         : QString();
            QCPAxis* barAxis = bar_->axis(QCPAxis::atRight);
            barAxis->setLabel(title);
            // About one value label per 2.5 lines of bar: a short bar gets fewer.
            if (barAxis->ticker()->tickCount() > 0 &&
                !dynamic_cast<QCPAxisTickerText*>(barAxis->ticker().data()))
                barAxis->ticker()->setTickCount(
                    std::clamp(int(g.barOuter.height() / (2.5 * metrics_.tickLine)), 2, 6));
            bar_->update(upPreparation);
        }
        if (legend_) {
            legend_->setVisible(!g.legend.isEmpty());
            legend_->setOuterRect(g.legend);
        }
    }

  private:
    FigureMetrics metrics_;
    QFont barTitleFont_;
    QString barTitle_;
    QString xTitle_, yTitle_;
    std::vector<QCPLayoutElement*> children_;
    QCPAxisRect* cells_ = nullptr;
    QCPAxisRect* bar_ = nullptr;
    QCPLayoutElement* legend_ = nullptr;
};

void styleAxis(QCPAxis* axis, const QFont& tickFont, const QFont& labelFont,
               const FigureColors& colors) {
    axis->setTickLabelFont(tickFont);
    axis->setLabelFont(labelFont);
    axis->setLabelColor(colors.text);
    axis->setTickLabelColor(colors.text);
    axis->setBasePen(QPen(colors.frame, 1));
    axis->setTickPen(QPen(colors.frame, 1));
    axis->setTickLengthIn(0);
    axis->setTickLengthOut(kTickOut);
    axis->setSubTicks(false);
    axis->grid()->setVisible(false);
    axis->setPadding(kAxisPad);
    axis->setTickLabelPadding(kTickLabelPad);
    axis->setLabelPadding(kTitlePad);
}

// a + (b - a) * t per channel.
QColor mix(const QColor& a, const QColor& b, double t) {
    auto ch = [t](int x, int y) { return std::clamp(int(std::lround(x + (y - x) * t)), 0, 255); };
    return QColor(ch(a.red(), b.red()), ch(a.green(), b.green()), ch(a.blue(), b.blue()));
}

QColor grey(int level) {
    return QColor(level, level, level);
}

double widestText(const QFont& font, const QStringList& texts) {
    const QFontMetrics fm(font);
    int w = 0;
    for (const QString& t : texts)
        w = std::max(w, fm.horizontalAdvance(t));
    return w > 0 ? w + 1 : 0;
}

double textHeight(const QFont& font, const QString& text) {
    if (text.isEmpty())
        return 0;
    return QFontMetrics(font)
        .boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignHCenter | Qt::AlignVCenter, text)
        .height();
}

// Everything drawHeatmap and suggestedFigureSize derive from the data and options before
// anything is placed: fonts, labels, colour scaling and the metrics of the layout.
struct FigurePlan {
    FigureFonts fonts;
    QStringList rowTicks, colTicks;
    bool rowTicksShown = true;
    ColorScaling scaling;
    BarScale bar;
    QString barTitle;
    QString title, subtitle;
    QStringList maskLegend;  // the legend's lines; empty without masked cells or colour bar
    FigureMetrics metrics;
    int decimals = 2;
    QStringList widestValues;
};

// The texts that may be the widest in the cells. Formatting every value costs about 0.1 s for
// a 1,000 x 1,000 map, which never has room for text anyway; there the texts of the extremes
// (and of -inf, nan if present) stand in for all of them.
QStringList widestCellTexts(const HeatmapData& data, int decimals) {
    std::vector<float> stand;
    constexpr size_t kFormatAll = size_t(1) << 16;
    if (data.values.size() <= kFormatAll) {
        stand = data.values;
    } else {
        float lo = std::numeric_limits<float>::max(), hi = -lo;
        bool negInf = false, posInf = false, nan = false;
        for (float v : data.values) {
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            } else {
                (std::isnan(v) ? nan : v < 0 ? negInf : posInf) = true;
            }
        }
        if (lo <= hi)
            stand = {lo, hi};
        if (negInf)
            stand.push_back(-std::numeric_limits<float>::infinity());
        if (posInf)
            stand.push_back(std::numeric_limits<float>::infinity());
        if (nan)
            stand.push_back(std::numeric_limits<float>::quiet_NaN());
    }
    // Digits are equally wide: the longest texts, and of those one per distinct length, will
    // do; keep every text of the longest length with a minus or an "e" (narrow and wide glyphs).
    int longest = 0;
    for (float v : stand)
        longest = std::max(longest, int(formatCellValue(v, decimals).size()));
    QStringList out;
    for (float v : stand) {
        const QString t = formatCellValue(v, decimals);
        if (t.size() == longest && !out.contains(t))
            out << t;
        if (out.size() >= 8)
            break;
    }
    return out;
}

FigurePlan planFigure(const HeatmapData& data, const FigureOptions& o) {
    FigurePlan p;
    const double fs = o.fontScale > 0 ? o.fontScale : 1.0;
    p.fonts = figureFonts(data, fs);
    const bool positions = tokenLabelsWithPositions(data, o.positionsInLabels);
    p.rowTicks = axisTickLabels(data.rowLabels, data.rowsAreTokens, positions, o.labelChars);
    p.colTicks = axisTickLabels(data.colLabels, data.colsAreTokens, positions, o.labelChars);
    p.rowTicksShown = o.showRowLabels && !(data.rows == 1 && data.rowLabels.value(0).isEmpty());
    p.scaling = colorScaling(data, o.colormap, o.colorScale, o.valueRange);
    p.bar = barScale(p.scaling);
    if (!o.compactColorBar)
        p.barTitle = colorBarTitle(data, p.scaling, o.colorBarLabel);
    p.title = o.titlePrefix + (o.title.isEmpty() ? data.title : o.title);
    p.subtitle = data.subtitle;
    if (o.showColorBar && !o.compactColorBar && data.maskedCount() > 0) {
        const bool negInf = std::any_of(data.values.begin(), data.values.end(), isMaskedValue);
        p.maskLegend = QStringList{FigureText::tr("masked"), negInf ? FigureText::tr("(-inf)")
                                                                    : FigureText::tr("(weight 0)")};
    }
    p.decimals = printedDecimals(data, o.decimals);
    if (o.showValues) {
        HeatmapData printed;
        printed.values = data.shownValues.empty() ? data.values : data.shownValues;
        p.widestValues = widestCellTexts(printed, p.decimals);
    }

    FigureMetrics& m = p.metrics;
    m.rows = std::max(1, data.rows);
    m.cols = std::max(1, data.cols);
    m.square = squareCells(data);
    m.maxCell = o.maxCellSize;
    m.maxAspect = std::max(1.0, o.maxCellAspect);
    m.cellsAtTop = o.cellsAtTop;
    m.tight = o.tight;
    m.colsAreTokens = data.colsAreTokens;
    m.tickLine = QFontMetrics(p.fonts.tick).height();
    m.rowLabelWidth = p.rowTicksShown ? widestText(p.fonts.tick, p.rowTicks) : 0;
    m.colLabelWidth = widestText(p.fonts.tick, p.colTicks);
    if (!p.widestValues.isEmpty()) {
        // valuePixelSize: a tenth of the cell on each side, the text 0.62 of its height.
        const int least = leastCellValuePixels(fs);
        QFont f = p.fonts.values;
        f.setPixelSize(least);
        m.valueW = widestText(f, p.widestValues) / 0.8 + 1;
        m.valueH = least / 0.62 + 1;
        m.valueCell = std::max(m.valueW, m.valueH);
    }
    m.xTitle = o.showAxisTitles ? textHeight(p.fonts.axisTitle, data.colAxis) : 0;
    m.yTitle =
        o.showRowLabels && o.showAxisTitles ? textHeight(p.fonts.axisTitle, data.rowAxis) : 0;
    m.colorBar = o.showColorBar;
    m.barWidth = std::round(16 * fs);
    if (m.colorBar) {
        QVector<double> ticks;
        QVector<QString> labels;
        p.bar.ticker->generate(p.bar.range, QLocale(), QLatin1Char('g'), 6, ticks, nullptr,
                               &labels);
        m.barLabelWidth = widestText(p.fonts.tick, QStringList(labels.begin(), labels.end()));
        if (!p.barTitle.isEmpty()) {
            m.barTitle = textHeight(p.fonts.barTitle, p.barTitle);
            m.barTitleLength = QFontMetricsF(p.fonts.barTitle).horizontalAdvance(p.barTitle);
        }
        if (!p.maskLegend.isEmpty())
            m.legend = MaskLegendElement::sizeFor(p.maskLegend, p.fonts.note);
    }
    // Numbers on the bar that would not be true, or would tell too much, are left off (the
    // bar keeps the width its numbers take, so nothing moves): a fade between two steps blends
    // their colours (shownValues set), so no value on the bar matches a cell's colour and
    // number; a quiz hides cells, and the bar's ends would give away their range ("?" there).
    const bool quiz =
        std::find(data.quizHidden.begin(), data.quizHidden.end(), 1) != data.quizHidden.end();
    if (quiz || !data.shownValues.empty()) {
        auto* text = new QCPAxisTickerText;
        if (quiz) {
            text->addTick(p.bar.range.lower, QStringLiteral("?"));
            text->addTick(p.bar.range.upper, QStringLiteral("?"));
        }
        p.bar.ticker.reset(text);
    }
    return p;
}

// Heights of the rows above and below the body: title, subtitle, mask note.
int titleRowsHeight(const FigurePlan& p, const FigureOptions& o) {
    if (!o.showTitle)
        return 0;
    int h = int(textHeight(p.fonts.title, p.title)) + 8;
    if (!p.subtitle.isEmpty())
        h += int(textHeight(p.fonts.subtitle, p.subtitle)) + 8;
    return h;
}

// The cell size a file gets: big enough for the numbers at a comfortable 12 px (x font scale)
// with room around them, 72 px for the book's 6 x 6 and shrinking with more tokens to 720 px
// of matrix, never below what the numbers need, and never more than kMaxMatrixSide of matrix.
double suggestedCell(const FigurePlan& p, int n, double fs) {
    double forNumbers = 0;
    if (!p.widestValues.isEmpty()) {
        QFont f = p.fonts.values;
        f.setPixelSize(int(std::round(12 * fs)));
        forNumbers = widestText(f, p.widestValues) + 2 * 6;
    }
    const double comfortable = std::clamp(720.0 / n, 12.0, 72.0 * fs);
    return std::min(std::max(comfortable, forNumbers), kMaxMatrixSide / n);
}

}  // namespace

bool FigureColors::followPalette(const QEvent* event, const QPalette& palette,
                                 FigureColors* colors) {
    if (event->type() != QEvent::PaletteChange && event->type() != QEvent::StyleChange)
        return false;
    const FigureColors now = fromPalette(palette);
    if (now == *colors)
        return false;
    *colors = now;
    return true;
}

FigureColors FigureColors::fromPalette(const QPalette& palette) {
    const QColor window = palette.color(QPalette::Active, QPalette::Window);
    if (window.lightness() >= 128)
        return FigureColors{};  // light window: the print look, exactly
    FigureColors c;
    // The figure sits on the palette's view background (as white does in a light window):
    // Base when it is dark too, else the window colour.
    QColor bg = palette.color(QPalette::Active, QPalette::Base);
    if (bg.lightness() >= 100)
        bg = window.lightness() < 100 ? window : grey(0x1e);
    bg.setAlpha(255);
    // The palette's text when it reads well on that background, else a light grey.
    QColor text = palette.color(QPalette::Active, QPalette::Text);
    if (text.lightness() < bg.lightness() + 140)
        text = grey(0xe6);
    text.setAlpha(255);
    c.background = bg;
    c.text = text;
    c.title = mix(text, Qt::white, 0.5);  // a little brighter than the axes, as 0x11 vs 0x22
    c.subtitle = mix(bg, text, 0.68);     // subdued but readable, like 0x55 on white
    c.noteText = mix(bg, text, 0.88);
    c.frame = mix(bg, text, 0.5);
    // Masked cells: a neutral dark grey a step above the background with mid-grey hatch lines.
    // No colormap has a neutral dark grey (viridis and cividis start at a dark blue/purple,
    // magma at black), so masked cells never read as a value; the lines tell them apart from
    // the background.
    const int fill = std::clamp(bg.lightness() + 28, 0x38, 0x4a);
    c.maskFill = grey(fill);
    c.maskLine = grey(fill + 0x50);
    c.maskText = mix(c.maskFill, text, 0.88);
    return c;
}

void drawMaskHatch(QPainter* painter, const QRectF& rect, const FigureColors& colors) {
    drawHatch(painter, rect, colors);
}

QColor textColorOn(const QColor& background) {
    auto lin = [](double c) {
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const double l = 0.2126 * lin(background.redF()) + 0.7152 * lin(background.greenF()) +
                     0.0722 * lin(background.blueF());
    // Contrast with black (l + 0.05) / 0.05 vs with white 1.05 / (l + 0.05): equal at ~0.179.
    return l > 0.179 ? QColor(Qt::black) : QColor(Qt::white);
}

int leastCellValuePixels(double fontScale) {
    return std::max(kMinCellValuePixels, int(std::ceil(kMinCellValuePixels * fontScale - 0.01)));
}

bool squareCells(const HeatmapData& data) {
    if (data.rowsAreTokens && data.colsAreTokens)
        return true;
    const int longSide = std::max(data.rows, data.cols);
    const int shortSide = std::max(1, std::min(data.rows, data.cols));
    return longSide <= 4 * shortSide;
}

struct HeatmapFrame::Parts {
    FigureMetrics metrics;
    double titles = 0;  // the title rows above the body
    int pad = kBodyPad;
};

HeatmapFrame::HeatmapFrame(const HeatmapData& data, const FigureOptions& o) {
    auto parts = std::make_shared<Parts>();
    // What the cells print takes no room around them: left unformatted.
    FigureOptions labelsOnly = o;
    labelsOnly.showValues = false;
    const FigurePlan p = planFigure(data, labelsOnly);
    parts->metrics = p.metrics;
    parts->titles = titleRowsHeight(p, o);
    parts->pad = bodyPad(o);
    d_ = std::move(parts);
}

QSizeF HeatmapFrame::sizeFor(double cell) const {
    const FigureMetrics& m = d_->metrics;
    // As layoutBodyOnce turns the column labels: upright while they fit, then 45 degrees while
    // a cell holds a label's height along the diagonal, else upright on their side.
    int turn = 90;
    if (!m.colsAreTokens || m.colLabelWidth <= cell - kLabelGap)
        turn = 0;
    else if (cell * kSin45 >= m.tickLine + 1)
        turn = 45;
    const QMargins mg = cellsMargins(m, turn, cell);
    const double cellsW = cell * m.cols, cellsH = cell * m.rows;
    const double barH = m.colorBar ? barHeight(m, cellsH, 1e9) : 0;
    const VerticalExtent e = verticalExtent(m, mg, cellsH, barH);
    // A pixel of slack each way: the layout rounds cells and margins to whole pixels.
    return QSizeF(mg.left() + cellsW + mg.right() + barOuterWidth(m) + 2 * d_->pad + 1,
                  e.bottom - e.top + 2 * d_->pad + d_->titles + 1);
}

double HeatmapFrame::labelExtent() const {
    return d_->metrics.tickLine + 1;
}

QSize suggestedFigureSize(const HeatmapData& data, const FigureOptions& o) {
    const double fs = o.fontScale > 0 ? o.fontScale : 1.0;
    const FigurePlan p = planFigure(data, o);
    const FigureMetrics& m = p.metrics;
    double cw = suggestedCell(p, std::max(m.rows, m.cols), fs);
    double ch = cw;
    if (!m.square) {
        // A strip: each side as long as its own count asks for.
        cw = suggestedCell(p, m.cols, fs);
        ch = suggestedCell(p, m.rows, fs);
    }
    const int turn = m.colLabelWidth > cw - kLabelGap ? 45 : 0;
    const QMargins mg = cellsMargins(m, turn, cw);
    const double cellsW = cw * m.cols, cellsH = ch * m.rows;
    const double barH = m.colorBar ? barHeight(m, cellsH, 1e9) : 0;
    const VerticalExtent ext = verticalExtent(m, mg, cellsH, barH);
    const double blockH = ext.bottom - ext.top;
    // A few pixels of slack: the layout rounds cells down to whole pixels.
    double w = mg.left() + cellsW + mg.right() + barOuterWidth(m) + 2 * kBodyPad + 4;
    double h = blockH + 2 * kBodyPad + titleRowsHeight(p, o) + 4;
    // Room for the texts that span the figure.
    if (o.showTitle) {
        w = std::max(w, QFontMetricsF(p.fonts.title).horizontalAdvance(p.title) + 32);
        w = std::max(w, QFontMetricsF(p.fonts.subtitle).horizontalAdvance(p.subtitle) + 32);
    }
    return QSize(std::clamp(int(std::ceil(w)), 320, kMaxFigureSide),
                 std::clamp(int(std::ceil(h)), 240, kMaxFigureSide));
}

QCPColorGradient colorGradient(Colormap c) {
    QCPColorGradient g;
    QMap<double, QColor> stops;
    for (const auto& [pos, color] : colormapStops(c))
        stops.insert(pos, color);
    g.setColorStops(stops);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(c == Colormap::Diverging ? 350 : 256);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    g.setPeriodic(false);
    return g;
}

QCPAxisRect* heatmapAxisRect(QCustomPlot* plot) {
    if (!plot || plot->axisRectCount() == 0)
        return nullptr;
    return plot->axisRect(0);
}

bool heatmapCellAt(QCustomPlot* plot, const HeatmapData& data, QPointF pixel, int* row, int* col) {
    QCPAxisRect* rect = heatmapAxisRect(plot);
    if (!rect || data.isEmpty() || !rect->rect().contains(pixel.toPoint()))
        return false;
    const double cx = rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    const double cy = rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y());
    const int c = int(std::floor(cx + 0.5));
    const int r = int(std::floor(cy + 0.5));
    if (r < 0 || c < 0 || r >= data.rows || c >= data.cols)
        return false;
    if (row)
        *row = r;
    if (col)
        *col = c;
    return true;
}

QRectF heatmapCellRect(QCustomPlot* plot, int row, int col) {
    QCPAxisRect* rect = heatmapAxisRect(plot);
    if (!rect || rect->rect().isEmpty())
        return {};
    return cellRect(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft), row, col);
}

int heatmapRowLabelAt(QCustomPlot* plot, const HeatmapData& data, QPointF pixel) {
    QCPAxisRect* rect = heatmapAxisRect(plot);
    if (!rect || data.isEmpty())
        return -1;
    const QRect inner = rect->rect();
    if (pixel.x() >= inner.left() || pixel.x() < rect->outerRect().left() ||
        pixel.y() < inner.top() || pixel.y() > inner.bottom() + 1)
        return -1;
    const int r = int(std::floor(rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y()) + 0.5));
    return r >= 0 && r < data.rows ? r : -1;
}

int cellValuePixelSize(QCustomPlot* plot) {
    if (!plot)
        return 0;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (const auto* values = dynamic_cast<const CellValuesItem*>(plot->item(i)))
            return values->pixelSize();
    return 0;
}

QString heatmapCellText(QCustomPlot* plot, int row, int col) {
    if (!plot)
        return {};
    for (int i = 0; i < plot->itemCount(); ++i)
        if (const auto* values = dynamic_cast<const CellValuesItem*>(plot->item(i))) {
            const HeatmapData& d = values->data();
            if (row < 0 || col < 0 || row >= d.rows || col >= d.cols || values->pixelSize() == 0)
                return {};
            return values->textAt(row, col);
        }
    return {};
}

void resetHeatmapRange(QCustomPlot* plot, const HeatmapData& data) {
    QCPAxisRect* rect = heatmapAxisRect(plot);
    if (!rect)
        return;
    rect->axis(QCPAxis::atBottom)->setRange(-0.5, std::max(1, data.cols) - 0.5);
    rect->axis(QCPAxis::atLeft)->setRange(-0.5, std::max(1, data.rows) - 0.5);
    rect->axis(QCPAxis::atTop)->setRange(rect->axis(QCPAxis::atBottom)->range());
    rect->axis(QCPAxis::atRight)->setRange(rect->axis(QCPAxis::atLeft)->range());
}

void drawHeatmap(QCustomPlot* plot, const HeatmapData& data, const FigureOptions& o) {
    if (!plot)
        return;
    plot->clearItems();
    plot->clearPlottables();
    // Numbers as the cells print them, whatever the system's language: "0.8", never "0,8".
    plot->setLocale(QLocale::c());
    plot->plotLayout()->clear();
    plot->plotLayout()->simplify();
    plot->plotLayout()->setRowSpacing(0);
    plot->plotLayout()->setColumnSpacing(0);
    const FigureColors& colors = o.colors;
    plot->setBackground(QBrush(colors.background));
    const FigurePlan p = planFigure(data, o);

    int row = 0;
    if (o.showTitle) {
        auto* titleEl = new QCPTextElement(plot, p.title, p.fonts.title);
        titleEl->setTextColor(colors.title);
        titleEl->setMargins(QMargins(0, 8, 0, 0));
        plot->plotLayout()->addElement(row++, 0, titleEl);
        if (!p.subtitle.isEmpty()) {
            auto* sub = new QCPTextElement(plot, p.subtitle, p.fonts.subtitle);
            sub->setTextColor(colors.subtitle);
            sub->setMargins(QMargins(0, 2, 0, 6));
            plot->plotLayout()->addElement(row++, 0, sub);
        }
    }

    auto* body = new FigureBody(p.metrics, p.fonts.barTitle, p.barTitle,
                                o.showAxisTitles ? data.colAxis : QString(),
                                o.showAxisTitles && o.showRowLabels ? data.rowAxis : QString(),
                                // Small figures side by side (compare) keep the pixels for cells.
                                bodyPad(o));
    plot->plotLayout()->addElement(row, 0, body);
    const int bodyRow = row++;
    auto* rect = new QCPAxisRect(plot, true);
    QCPAxisRect* bar = nullptr;
    if (o.showColorBar) {
        bar = new QCPAxisRect(plot, false);
        bar->addAxis(QCPAxis::atRight);
    }
    MaskLegendElement* legend = nullptr;
    if (!p.maskLegend.isEmpty())
        legend = new MaskLegendElement(plot, p.maskLegend, p.fonts.note, colors);
    body->setElements(rect, bar, legend);
    rect->setAutoMargins(QCP::msNone);

    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    QCPAxis* x2 = rect->axis(QCPAxis::atTop);
    QCPAxis* y2 = rect->axis(QCPAxis::atRight);
    for (QCPAxis* a : {x, y, x2, y2})
        styleAxis(a, p.fonts.tick, p.fonts.axisTitle, colors);
    for (QCPAxis* a : {x2, y2}) {
        a->setVisible(true);
        a->setTicks(false);
        a->setTickLabels(false);
    }
    if (o.showAxisTitles) {
        x->setLabel(data.colAxis);
        if (o.showRowLabels)
            y->setLabel(data.rowAxis);
    }
    y->setRangeReversed(true);
    y2->setRangeReversed(true);
    x->setTicker(QSharedPointer<QCPAxisTicker>(new TokenTicker(p.colTicks, x)));
    y->setTicker(QSharedPointer<QCPAxisTicker>(new TokenTicker(p.rowTicks, y)));
    if (!p.rowTicksShown)
        y->setTicks(false);

    // The colour map: cell centres at integer coordinates, each cell's colormap position (NaN
    // where masked: transparent over the hatched background). A dimension of size 1 gets two
    // identical half cells (QCPColorMap needs two samples to give a cell its width).
    auto shared = std::make_shared<Shared>();
    shared->data = data;
    shared->gradient = colorGradient(o.colormap);
    shared->positions = colorPositions(data, p.scaling);
    shared->fontScale = o.fontScale > 0 ? o.fontScale : 1.0;
    shared->colors = colors;
    shared->decimals = p.decimals;
    shared->widestValues = p.widestValues;
    shared->showValues = o.showValues;
    shared->largeValues = o.largeValues;

    auto* map = new QCPColorMap(x, y);
    map->setInterpolate(false);
    map->setTightBoundary(false);
    map->setGradient(shared->gradient);
    if (!data.isEmpty()) {
        const int kx = data.cols == 1 ? 2 : data.cols;
        const int ky = data.rows == 1 ? 2 : data.rows;
        map->data()->setSize(kx, ky);
        map->data()->setRange(data.cols == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, data.cols - 1),
                              data.rows == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, data.rows - 1));
        for (int iy = 0; iy < ky; ++iy) {
            const int r = data.rows == 1 ? 0 : iy;
            for (int ix = 0; ix < kx; ++ix) {
                const int c = data.cols == 1 ? 0 : ix;
                map->data()->setCell(ix, iy,
                                     shared->positions[size_t(r) * size_t(data.cols) + size_t(c)]);
            }
        }
    }
    map->setDataRange(QCPRange(0, 1));

    if (bar) {
        bar->setRangeDrag(Qt::Orientations());
        bar->setRangeZoom(Qt::Orientations());
        bar->setBackground(Qt::NoBrush);
        bar->setAutoMargins(QCP::msNone);
        QCPAxis* barAxis = bar->axis(QCPAxis::atRight);
        styleAxis(barAxis, p.fonts.tick, p.fonts.barTitle, colors);
        barAxis->setBasePen(Qt::NoPen);
        barAxis->setTicker(p.bar.ticker);
        barAxis->setRange(p.bar.range);
        barAxis->setLabel(p.barTitle);
        new ColorBarItem(plot, o.colormap, bar, colors.frame);
    }

    if (o.vectorCells) {
        map->setVisible(false);
        rect->setBackground(QBrush(colors.background));
        new VectorCellsItem(plot, shared, rect);
    } else {
        rect->setBackground(hatchBrush(colors));
    }
    new CellValuesItem(plot, shared, rect);
    if (!data.quizHidden.empty())
        new QuizCellsItem(plot, shared, rect);
    if (o.switchedOff && !data.isEmpty())
        crossOutHeatmap(plot, data, colors.background);

    // The body takes the space; the title rows keep their natural height.
    auto* grid = plot->plotLayout();
    for (int r = 0; r < grid->rowCount(); ++r)
        grid->setRowStretchFactor(r, r == bodyRow ? 1000.0 : 0.001);

    resetHeatmapRange(plot, data);
}

void crossOutHeatmap(QCustomPlot* plot, const HeatmapData& data, const QColor& background) {
    QCPAxisRect* rect = heatmapAxisRect(plot);
    if (!rect)
        return;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const double right = data.cols - 0.5, bottom = data.rows - 0.5;
    auto* veil = new QCPItemRect(plot);
    QColor fill = background;
    fill.setAlphaF(0.55f);
    veil->setPen(Qt::NoPen);
    veil->setBrush(fill);
    const QPointF corners[2][2] = {{{-0.5, -0.5}, {right, bottom}},
                                   {{right, -0.5}, {-0.5, bottom}}};
    veil->topLeft->setCoords(corners[0][0]);
    veil->bottomRight->setCoords(corners[0][1]);
    QPen red(QColor(0xd7, 0x30, 0x27), 3.0);  // the red of the head grid's cross
    red.setCapStyle(Qt::FlatCap);
    std::vector<QCPAbstractItem*> items{veil};
    for (const auto& [from, to] : corners) {
        auto* line = new QCPItemLine(plot);
        line->start->setCoords(from);
        line->end->setCoords(to);
        line->setPen(red);
        items.push_back(line);
    }
    for (QCPAbstractItem* item : items) {
        for (QCPItemPosition* p : item->positions())
            p->setAxes(x, y);
        item->setClipAxisRect(rect);
        item->setClipToAxisRect(true);
        item->setSelectable(false);
        item->setLayer(QStringLiteral("overlay"));
        item->setObjectName(QStringLiteral("switchedOff"));
    }
}

}  // namespace attn

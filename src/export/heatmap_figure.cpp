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

struct Shared {
    HeatmapData data;
    QCPColorGradient gradient;
    QCPRange range;
    int decimals = 2;
    int maxChars = 4;
    double fontScale = 1.0;
    FigureColors colors;
};

QColor cellColor(Shared& s, float v) {
    if (std::isinf(v) && v > 0)
        v = float(s.range.upper);
    return QColor::fromRgba(s.gradient.color(double(v), s.range));
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
    std::shared_ptr<Shared> s_;
    QCPAxisRect* rect_;
};

// Every cell as its own rectangle (for SVG and PDF, where QCPColorMap would emit one bitmap).
class VectorCellsItem : public CellsItem {
  public:
    using CellsItem::CellsItem;

  protected:
    void draw(QCPPainter* painter) override {
        const QCPAxis* x = rect_->axis(QCPAxis::atBottom);
        const QCPAxis* y = rect_->axis(QCPAxis::atLeft);
        const HeatmapData& d = s_->data;
        int c0, c1, r0, r1;
        visibleCells(x, d.cols, &c0, &c1);
        visibleCells(y, d.rows, &r0, &r1);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, false);
        for (int r = r0; r <= r1; ++r) {
            for (int c = c0; c <= c1; ++c) {
                QRectF cr = cellRect(x, y, r, c);
                const float v = d.value(r, c);
                if (isMaskedValue(v) || d.isMasked(r, c)) {
                    drawHatch(painter, cr, s_->colors);
                    continue;
                }
                // Overlap the next cell a little so no hairline seams show in viewers.
                if (c < c1)
                    cr.setRight(cr.right() + 0.75);
                if (r < r1)
                    cr.setBottom(cr.bottom() + 0.75);
                painter->setPen(Qt::NoPen);
                painter->setBrush(cellColor(*s_, v));
                painter->drawRect(cr);
            }
        }
        painter->restore();
    }
};

// The numbers in the cells, sized to the cells at draw time (so zooming in reveals them).
class CellValuesItem : public CellsItem {
  public:
    using CellsItem::CellsItem;

  protected:
    void draw(QCPPainter* painter) override {
        const QCPAxis* x = rect_->axis(QCPAxis::atBottom);
        const QCPAxis* y = rect_->axis(QCPAxis::atLeft);
        const HeatmapData& d = s_->data;
        if (d.isEmpty())
            return;
        const double cw = std::abs(x->coordToPixel(1) - x->coordToPixel(0));
        const double ch = std::abs(y->coordToPixel(1) - y->coordToPixel(0));
        const double px =
            std::min({ch * 0.34, cw / (s_->maxChars * 0.62 + 0.9), 16.0 * s_->fontScale});
        if (px < 8.0)
            return;  // too small to read: colours only
        QFont font = baseFont(10);
        font.setPixelSize(int(std::round(px)));
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
                    const QString text = formatCellValue(v, s_->decimals);
                    const QFontMetricsF fm(font);
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
                painter->setPen(textColorOn(cellColor(*s_, v)));
                painter->drawText(cr, Qt::AlignCenter, formatCellValue(v, s_->decimals));
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

// Token labels at integer positions, thinned to every k-th token when they would overlap.
class TokenTicker : public QCPAxisTickerText {
  public:
    TokenTicker(QStringList labels, QCPAxis* axis, double labelExtent)
        : labels_(std::move(labels)), axis_(axis), extent_(labelExtent) {}

  protected:
    double getTickStep(const QCPRange& range) override {
        double pixels = 0;
        if (QCPAxisRect* r = axis_->axisRect())
            pixels = axis_->orientation() == Qt::Horizontal ? r->width() : r->height();
        if (pixels <= 1)
            pixels = 400;
        const double fit = std::max(1.0, pixels / extent_);
        const double need = range.size() / fit;
        for (double step : {1.0, 2.0, 5.0}) {
            if (need <= step)
                return step;
        }
        double mag = 10;
        while (true) {
            for (double m : {1.0, 2.0, 5.0})
                if (need <= m * mag)
                    return m * mag;
            mag *= 10;
        }
    }
    int getSubTickCount(double) override { return 0; }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        const int i = int(std::lround(tick));
        return i >= 0 && i < labels_.size() ? labels_[i] : QString();
    }
    QVector<double> createTickVector(double step, const QCPRange& range) override {
        QVector<double> ticks;
        const double first = std::max(0.0, std::ceil(range.lower / step) * step);
        for (double t = first; t <= range.upper && t < labels_.size(); t += step)
            ticks.append(t);
        return ticks;
    }

  public:
    QString labelAt(int i) const { return i >= 0 && i < labels_.size() ? labels_[i] : QString(); }
    void setLabelExtent(double extent) { extent_ = extent; }
    double labelExtent() const { return extent_; }

  private:
    QStringList labels_;
    QCPAxis* axis_;
    double extent_;
};

// "hatched = masked (-inf)" with a swatch, under the heatmap.
class MaskNoteElement : public QCPLayoutElement {
  public:
    MaskNoteElement(QCustomPlot* plot, const QString& text, const QFont& font,
                    const FigureColors& colors)
        : QCPLayoutElement(plot), text_(text), font_(font), colors_(colors) {
        setMargins(QMargins(0, 4, 0, 6));
    }
    QSize minimumOuterSizeHint() const override {
        const QFontMetricsF fm(font_);
        return QSize(int(fm.horizontalAdvance(text_) + 40),
                     int(std::max(fm.height(), 16.0)) + margins().top() + margins().bottom());
    }
    QSize maximumOuterSizeHint() const override {
        return QSize(QWIDGETSIZE_MAX, minimumOuterSizeHint().height());
    }

  protected:
    void draw(QCPPainter* painter) override {
        const QFontMetricsF fm(font_);
        const double textW = fm.horizontalAdvance(text_);
        const double swatchW = 26, gap = 8;
        const double total = swatchW + gap + textW;
        const double left = mRect.left() + (mRect.width() - total) / 2.0;
        const double h = std::max(14.0, fm.height() - 2);
        const QRectF swatch(left, mRect.center().y() - h / 2.0, swatchW, h);
        painter->save();
        drawHatch(painter, swatch, colors_);
        painter->setPen(QPen(colors_.frame, 0.8));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(swatch);
        painter->setFont(font_);
        painter->setPen(colors_.noteText);
        painter->drawText(QRectF(swatch.right() + gap, mRect.top(), textW + 4, mRect.height()),
                          Qt::AlignLeft | Qt::AlignVCenter, text_);
        painter->restore();
    }

  private:
    QString text_;
    QFont font_;
    FigureColors colors_;
};

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

void styleAxis(QCPAxis* axis, const QFont& tickFont, const QFont& labelFont,
               const FigureColors& colors) {
    axis->setTickLabelFont(tickFont);
    axis->setLabelFont(labelFont);
    axis->setLabelColor(colors.text);
    axis->setTickLabelColor(colors.text);
    axis->setBasePen(QPen(colors.frame, 1));
    axis->setTickPen(QPen(colors.frame, 1));
    axis->setTickLengthIn(0);
    axis->setTickLengthOut(4);
    axis->setSubTicks(false);
    axis->grid()->setVisible(false);
    axis->setPadding(4);
    axis->setLabelPadding(6);
}

// a + (b - a) * t per channel.
QColor mix(const QColor& a, const QColor& b, double t) {
    auto ch = [t](int x, int y) { return std::clamp(int(std::lround(x + (y - x) * t)), 0, 255); };
    return QColor(ch(a.red(), b.red()), ch(a.green(), b.green()), ch(a.blue(), b.blue()));
}

QColor grey(int level) {
    return QColor(level, level, level);
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

bool fitColumnLabels(QCustomPlot* plot, double cellWidth) {
    QCPAxisRect* rect = heatmapAxisRect(plot);
    if (!rect)
        return false;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    auto* ticker = dynamic_cast<TokenTicker*>(x->ticker().data());
    if (!ticker)
        return false;
    if (cellWidth <= 0) {
        const QCPRange r = x->range();
        cellWidth = r.size() > 0 ? rect->width() / r.size() : 0;
        if (cellWidth <= 0)
            return false;
    }
    const QFontMetricsF fm(x->tickLabelFont());
    double widest = 0;
    if (cellWidth >= fm.height()) {  // narrower cells: rotate without measuring every label
        const QCPRange r = x->range();
        const int first = std::max(0, int(std::floor(r.lower)));
        const int last = int(std::ceil(r.upper));
        for (int i = first; i <= last; ++i)
            widest = std::max(widest, fm.horizontalAdvance(ticker->labelAt(i)));
    } else {
        widest = cellWidth + 8;
    }
    // Upright labels need the cell width; at -45 degrees they need about one line height.
    const bool rotate = widest > cellWidth - 8;
    const double rotation = rotate ? -45.0 : 0.0;
    const double extent = rotate ? fm.height() * 1.25 : widest + 12;
    const bool changed =
        x->tickLabelRotation() != rotation || std::abs(ticker->labelExtent() - extent) > 0.5;
    x->setTickLabelRotation(rotation);
    ticker->setLabelExtent(extent);
    return changed;
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

QSize suggestedFigureSize(const HeatmapData& data) {
    const int n = std::max({data.rows, data.cols, 1});
    const double cell = std::clamp(600.0 / n, 12.0, 80.0);
    const int w = std::clamp(int(data.cols * cell + 300), 520, 2000);
    const int h = std::clamp(int(data.rows * cell + 250), 420, 2000);
    return {w, h};
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
    plot->plotLayout()->clear();
    plot->plotLayout()->simplify();
    plot->plotLayout()->setRowSpacing(0);
    plot->plotLayout()->setColumnSpacing(8);
    const FigureColors& colors = o.colors;
    plot->setBackground(QBrush(colors.background));

    const double fs = o.fontScale > 0 ? o.fontScale : 1.0;
    const QSize size =
        o.width > 0 && o.height > 0 ? QSize(o.width, o.height) : suggestedFigureSize(data);
    int row = 0;
    if (o.showTitle) {
        QFont tf = baseFont(14 * fs);
        tf.setBold(true);
        const QString title = o.title.isEmpty() ? data.title : o.title;
        auto* titleEl = new QCPTextElement(plot, title, tf);
        titleEl->setTextColor(colors.title);
        titleEl->setMargins(QMargins(0, 8, 0, 0));
        plot->plotLayout()->addElement(row++, 0, titleEl);
        if (!data.subtitle.isEmpty()) {
            QFont sf = QFontDatabase::systemFont(QFontDatabase::FixedFont);
            sf.setFamily(QFontInfo(sf).family());
            sf.setPointSizeF(9.5 * fs);
            auto* sub = new QCPTextElement(plot, data.subtitle, sf);
            sub->setTextColor(colors.subtitle);
            sub->setMargins(QMargins(0, 2, 0, 6));
            plot->plotLayout()->addElement(row++, 0, sub);
        }
    }

    auto* rect = new QCPAxisRect(plot, true);
    plot->plotLayout()->addElement(row, 0, rect);
    const int rectRow = row++;
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    QCPAxis* x2 = rect->axis(QCPAxis::atTop);
    QCPAxis* y2 = rect->axis(QCPAxis::atRight);

    const int n = std::max(data.rows, data.cols);
    const double tickPt = (n > 48 ? 8 : n > 24 ? 9 : 10.5) * fs;
    const QFont tickFont = baseFont(tickPt);
    QFont labelFont = baseFont(11 * fs);
    labelFont.setBold(true);
    for (QCPAxis* a : {x, y, x2, y2})
        styleAxis(a, tickFont, labelFont, colors);
    for (QCPAxis* a : {x2, y2}) {
        a->setVisible(true);
        a->setTicks(false);
        a->setTickLabels(false);
    }
    x->setLabel(data.colAxis);
    y->setLabel(data.rowAxis);
    y->setRangeReversed(true);
    y2->setRangeReversed(true);

    QStringList colLabels, rowLabels;
    for (const QString& s : data.colLabels)
        colLabels << displayLabel(s);
    for (const QString& s : data.rowLabels)
        rowLabels << displayLabel(s);
    const QFontMetricsF tfm(tickFont);
    x->setTicker(QSharedPointer<QCPAxisTicker>(new TokenTicker(colLabels, x, tfm.height())));
    y->setTicker(QSharedPointer<QCPAxisTicker>(new TokenTicker(rowLabels, y, tfm.height() * 1.15)));
    // Guess the cell width from the figure size until a layout gives the real one.
    fitColumnLabels(plot, std::max(1.0, (size.width() - 260.0) / std::max(1, data.cols)));
    if (data.rows == 1 && data.rowLabels.value(0).isEmpty())
        y->setTicks(false);

    // The colour map: cell centres at integer coordinates, NaN (= -inf) transparent over the
    // hatched background. A dimension of size 1 gets two identical half cells (QCPColorMap
    // needs two samples to give a cell its width).
    const Colormap cm = o.colormap;
    auto shared = std::make_shared<Shared>();
    shared->data = data;
    shared->gradient = colorGradient(cm);
    const auto [lo, hi] = colorRange(data, cm);
    shared->range = QCPRange(lo, hi);
    shared->fontScale = fs;
    shared->colors = colors;
    bool integral = true;
    int maxChars = 1;
    for (float v : data.values) {
        if (std::isfinite(v) && v != std::round(v))
            integral = false;
    }
    shared->decimals = integral ? 0 : 2;
    // The widest cell text decides whether values fit in the cells. Formatting every value
    // costs about 0.1 s for a 1,000 x 1,000 map, which never has room for text anyway; there
    // the texts of the extremes (and of -inf, nan if present) stand in for all of them.
    constexpr size_t kFormatAll = size_t(1) << 16;
    if (data.values.size() <= kFormatAll) {
        for (float v : data.values)
            maxChars = std::max(maxChars, int(formatCellValue(v, shared->decimals).size()));
    } else {
        float lo = std::numeric_limits<float>::max(), hi = -lo;
        std::vector<float> stand;  // the extremes and one of each special value present
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
        for (float v : stand)
            maxChars = std::max(maxChars, int(formatCellValue(v, shared->decimals).size()));
    }
    shared->maxChars = maxChars;

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
                float v = data.value(r, c);
                double z = isMaskedValue(v) || data.isMasked(r, c) ? std::nan("")
                           : std::isinf(v)                         ? hi
                                                                   : double(v);
                map->data()->setCell(ix, iy, z);
            }
        }
    }
    map->setDataRange(shared->range);

    // The colour bar: a narrow axis rect of its own (value axis on the right).
    auto* bar = new QCPAxisRect(plot, false);
    bar->addAxis(QCPAxis::atRight);
    const int barWidth = int(std::round(16 * fs));
    bar->setMinimumSize(barWidth, 40);
    bar->setMaximumSize(barWidth, QWIDGETSIZE_MAX);
    bar->setRangeDrag(Qt::Orientations());
    bar->setRangeZoom(Qt::Orientations());
    bar->setBackground(Qt::NoBrush);
    QCPAxis* barAxis = bar->axis(QCPAxis::atRight);
    styleAxis(barAxis, tickFont, labelFont, colors);
    barAxis->setBasePen(Qt::NoPen);
    barAxis->setRange(shared->range);
    barAxis->setLabel(colorScaleLabel(data.kind));
    barAxis->ticker()->setTickCount(6);
    bar->setAutoMargins(QCP::msLeft | QCP::msRight | QCP::msTop | QCP::msBottom);
    plot->plotLayout()->addElement(rectRow, 1, bar);
    new ColorBarItem(plot, cm, bar, colors.frame);

    auto* group = new QCPMarginGroup(plot);
    rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    bar->setMarginGroup(QCP::msTop | QCP::msBottom, group);

    if (o.vectorCells) {
        map->setVisible(false);
        rect->setBackground(QBrush(colors.background));
        new VectorCellsItem(plot, shared, rect);
    } else {
        rect->setBackground(hatchBrush(colors));
    }
    if (o.showValues)
        new CellValuesItem(plot, shared, rect);

    if (data.maskedCount() > 0) {
        QFont nf = baseFont(10 * fs);
        const bool negInf = std::any_of(data.values.begin(), data.values.end(), isMaskedValue);
        const QString text = negInf ? FigureText::tr("hatched = masked (-inf)")
                                    : FigureText::tr(
                                          "hatched = masked (weight 0: the mask hides "
                                          "this key)");
        auto* note = new MaskNoteElement(plot, text, nf, colors);
        plot->plotLayout()->addElement(row++, 0, note);
    }

    // The heatmap row takes the space; title and note rows keep their natural height.
    auto* grid = plot->plotLayout();
    for (int r = 0; r < grid->rowCount(); ++r)
        grid->setRowStretchFactor(r, r == rectRow ? 1000.0 : 0.001);
    grid->setColumnStretchFactor(0, 1000.0);
    if (grid->columnCount() > 1)
        grid->setColumnStretchFactor(1, 0.001);

    resetHeatmapRange(plot, data);
}

}  // namespace attn

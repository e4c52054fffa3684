#include "export/heatmap_view.h"

#include <qcustomplot.h>
#include <QGraphicsColorizeEffect>
#include <QGridLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPalette>
#include <QToolTip>

#include <cmath>
#include <limits>

namespace attn {

struct HeatmapView::Private {
    QCustomPlot* plot = nullptr;
    QLabel* staleLabel = nullptr;
    QLabel* emptyLabel = nullptr;
    QCPItemRect* highlight = nullptr;  // the hovered cell
    QCPItemRect* outline = nullptr;    // the outlined cell
    HeatmapData data;
    FigureColors colors;  // on screen: from the palette
    Colormap colormap = Colormap::Viridis;
    bool autoColormap = true;
    ColorScale colorScale = ColorScale::Matrix;
    LabelPositions labelPositions = LabelPositions::Auto;
    bool showValues = true;
    int decimals = 2;
    bool showTitle = false;
    bool stale = false;
    bool switchedOff = false;
    double fontScale = 1.0;
    bool presentationCells = false;
    int hoverRow = -1;
    int hoverCol = -1;
    int outlinedRow = -1;
    int outlinedCol = -1;
    QPoint pressPos;
    bool pressed = false;
};

namespace {

// The stale look: the figure desaturated and pulled towards mid-grey. The colorize effect
// screens the grey image with this colour, so on a dark figure a dark tint keeps it dark (mid-grey
// would turn it into a light panel).
QColor staleTint(const FigureColors& colors) {
    return colors.isDark() ? QColor(0x20, 0x20, 0x20) : QColor(0x80, 0x80, 0x80);
}

// Keeps an axis inside [-0.5, n - 0.5] and at least one cell wide.
void clampRange(QCPAxis* axis, int n) {
    const double lo = -0.5, hi = std::max(1, n) - 0.5;
    QCPRange r = axis->range();
    double size = std::min(std::max(r.size(), std::min(1.0, hi - lo)), hi - lo);
    double lower = std::clamp(r.lower, lo, hi - size);
    const QCPRange clamped(lower, lower + size);
    if (std::abs(clamped.lower - r.lower) > 1e-9 || std::abs(clamped.upper - r.upper) > 1e-9)
        axis->setRange(clamped);
}

// A rectangle item over one cell of the figure, on the overlay layer, hidden until placed.
QCPItemRect* cellFrame(QCustomPlot* plot, const QColor& color, double width) {
    QCPAxisRect* rect = heatmapAxisRect(plot);
    auto* item = new QCPItemRect(plot);
    item->setClipAxisRect(rect);
    item->setClipToAxisRect(true);
    item->topLeft->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    item->bottomRight->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    QPen pen(color);
    pen.setWidthF(width);
    pen.setJoinStyle(Qt::MiterJoin);
    item->setPen(pen);
    item->setBrush(Qt::NoBrush);
    item->setSelectable(false);
    item->setVisible(false);
    item->setLayer(QStringLiteral("overlay"));
    return item;
}

void placeOnCell(QCPItemRect* item, int row, int col) {
    item->topLeft->setCoords(col - 0.5, row - 0.5);
    item->bottomRight->setCoords(col + 0.5, row + 0.5);
    item->setVisible(true);
}

}  // namespace

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent), d_(std::make_unique<Private>()) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    d_->plot = new QCustomPlot(this);
    d_->plot->setObjectName(QStringLiteral("heatmapPlot"));
    d_->plot->setMouseTracking(true);
    d_->plot->setMinimumSize(240, 200);
    d_->plot->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    d_->plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    d_->plot->setAccessibleName(tr("Heatmap of the selected step"));
    d_->colors = FigureColors::fromPalette(palette());
    grid->addWidget(d_->plot, 0, 0);

    d_->staleLabel = new QLabel(tr("stale: showing the last valid result"), this);
    d_->staleLabel->setObjectName(QStringLiteral("staleLabel"));
    d_->staleLabel->setStyleSheet(QStringLiteral(
        "QLabel { background: #fff4c2; color: #5a4500; border: 1px solid #d9b84a;"
        " border-radius: 4px; padding: 3px 10px; margin: 6px; font-weight: bold; }"));
    d_->staleLabel->hide();
    grid->addWidget(d_->staleLabel, 0, 0, Qt::AlignTop | Qt::AlignLeft);

    d_->emptyLabel = new QLabel(tr("Type a sentence to see its attention."), this);
    d_->emptyLabel->setObjectName(QStringLiteral("emptyLabel"));
    d_->emptyLabel->setForegroundRole(QPalette::PlaceholderText);  // dim in light and dark
    d_->emptyLabel->setAlignment(Qt::AlignCenter);
    d_->emptyLabel->setWordWrap(true);
    grid->addWidget(d_->emptyLabel, 0, 0, Qt::AlignCenter);

    connect(d_->plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        int r = -1, c = -1;
        const QPoint pos = e->position().toPoint();
        const bool overLabel = rowLabelAt(pos) >= 0;
        d_->plot->setCursor(overLabel ? Qt::PointingHandCursor : Qt::ArrowCursor);
        if (!cellAt(pos, &r, &c)) {
            if (d_->hoverRow >= 0) {
                setHover(-1, -1);
                QToolTip::hideText();
            }
            return;
        }
        setHover(r, c);
        if (!(e->buttons() & Qt::LeftButton))
            QToolTip::showText(e->globalPosition().toPoint(), toolTipForCell(r, c), d_->plot);
    });
    connect(d_->plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        d_->pressPos = e->position().toPoint();
        d_->pressed = e->button() == Qt::LeftButton;
        QToolTip::hideText();
    });
    connect(d_->plot, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        const QPoint pos = e->position().toPoint();
        const bool click = d_->pressed && (pos - d_->pressPos).manhattanLength() < 5;
        d_->pressed = false;
        if (!click)
            return;
        int r, c;
        if (cellAt(pos, &r, &c)) {
            emit cellClicked(r, c, d_->data.value(r, c));
            return;
        }
        const int labelRow = rowLabelAt(pos);
        if (labelRow >= 0 && labelRow == rowLabelAt(d_->pressPos))
            emit rowLabelClicked(labelRow);
    });
    connect(d_->plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { resetZoom(); });
    setData(HeatmapData{});
}

HeatmapView::~HeatmapView() = default;

void HeatmapView::setHover(int row, int col) {
    if (row == d_->hoverRow && col == d_->hoverCol)
        return;
    d_->hoverRow = row;
    d_->hoverCol = col;
    if (d_->highlight) {
        if (row >= 0)
            placeOnCell(d_->highlight, row, col);
        else
            d_->highlight->setVisible(false);
        d_->plot->replot(QCustomPlot::rpQueuedReplot);
    }
    emit cellHovered(row, col,
                     row >= 0 ? d_->data.value(row, col) : std::numeric_limits<float>::quiet_NaN());
}

void HeatmapView::setData(const HeatmapData& data) {
    // Keep the zoom when the new data has the same shape (e.g. stepping between heads).
    QCPRange keepX, keepY;
    bool keep = false;
    if (QCPAxisRect* rect = heatmapAxisRect(d_->plot)) {
        keep = data.rows == d_->data.rows && data.cols == d_->data.cols && !data.isEmpty();
        keepX = rect->axis(QCPAxis::atBottom)->range();
        keepY = rect->axis(QCPAxis::atLeft)->range();
    }
    // The hovered cell belongs to the old picture: drop its frame and say so.
    if (d_->hoverRow >= 0) {
        d_->hoverRow = d_->hoverCol = -1;
        QToolTip::hideText();
        emit cellHovered(-1, -1, std::numeric_limits<float>::quiet_NaN());
    }
    d_->data = data;
    if (d_->autoColormap)
        d_->colormap = defaultColormapFor(data);
    FigureOptions options = figureOptions();
    // On screen only: a file keeps square cells at its own size.
    if (d_->presentationCells) {
        options.maxCellAspect = 1.6;
        options.largeValues = true;
    }
    options.colors = d_->colors;
    options.showTitle = d_->showTitle;
    drawHeatmap(d_->plot, d_->data, options);

    QCPAxisRect* rect = heatmapAxisRect(d_->plot);
    rect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    rect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    rect->setRangeZoomFactor(0.85);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    QCPAxis* x2 = rect->axis(QCPAxis::atTop);
    QCPAxis* y2 = rect->axis(QCPAxis::atRight);
    rect->setRangeDragAxes(x, y);
    rect->setRangeZoomAxes(x, y);
    const int cols = d_->data.cols, rows = d_->data.rows;
    connect(x, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [x, x2, cols](const QCPRange&) {
                clampRange(x, cols);
                x2->setRange(x->range());
            });
    connect(y, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [y, y2, rows](const QCPRange&) {
                clampRange(y, rows);
                y2->setRange(y->range());
            });
    if (keep) {
        x->setRange(keepX);
        y->setRange(keepY);
    }

    if (d_->switchedOff && !d_->data.isEmpty())
        crossOutHeatmap(d_->plot, d_->data, palette().color(QPalette::Window));
    d_->highlight = cellFrame(d_->plot, QColor(0xff, 0x40, 0x81), 2.5);
    d_->outline = cellFrame(d_->plot, palette().color(QPalette::Highlight), 3.0);
    if (d_->outlinedRow >= 0 && d_->outlinedRow < rows && d_->outlinedCol < cols)
        placeOnCell(d_->outline, d_->outlinedRow, d_->outlinedCol);
    else
        d_->outlinedRow = d_->outlinedCol = -1;

    d_->emptyLabel->setVisible(d_->data.isEmpty());
    d_->plot->setVisible(!d_->data.isEmpty());
    d_->plot->replot(QCustomPlot::rpQueuedReplot);
}

const HeatmapData& HeatmapView::data() const {
    return d_->data;
}

void HeatmapView::setColormap(Colormap c) {
    d_->autoColormap = false;
    if (c == d_->colormap)
        return;
    d_->colormap = c;
    redraw();
}

Colormap HeatmapView::colormap() const {
    return d_->colormap;
}

void HeatmapView::setAutoColormap(bool on) {
    if (on == d_->autoColormap)
        return;
    d_->autoColormap = on;
    if (on)
        redraw();
}

bool HeatmapView::autoColormap() const {
    return d_->autoColormap;
}

void HeatmapView::setColorScale(ColorScale scale) {
    if (scale == d_->colorScale)
        return;
    d_->colorScale = scale;
    redraw();
}

ColorScale HeatmapView::colorScale() const {
    return d_->colorScale;
}

void HeatmapView::setLabelPositions(LabelPositions positions) {
    if (positions == d_->labelPositions)
        return;
    d_->labelPositions = positions;
    redraw();
}

LabelPositions HeatmapView::labelPositions() const {
    return d_->labelPositions;
}

void HeatmapView::setShowValues(bool on) {
    if (on == d_->showValues)
        return;
    d_->showValues = on;
    redraw();
}

bool HeatmapView::showValues() const {
    return d_->showValues;
}

void HeatmapView::setDecimals(int decimals) {
    if (decimals == d_->decimals)
        return;
    d_->decimals = decimals;
    redraw();
}

int HeatmapView::decimals() const {
    return d_->decimals;
}

void HeatmapView::setShowTitle(bool on) {
    if (on == d_->showTitle)
        return;
    d_->showTitle = on;
    redraw();
}

bool HeatmapView::showTitle() const {
    return d_->showTitle;
}

void HeatmapView::setFontScale(double scale) {
    if (!(scale > 0) || scale == d_->fontScale)
        return;
    d_->fontScale = scale;
    redraw();
}

double HeatmapView::fontScale() const {
    return d_->fontScale;
}

void HeatmapView::setPresentationCells(bool on) {
    if (on == d_->presentationCells)
        return;
    d_->presentationCells = on;
    redraw();
}

void HeatmapView::setOutlinedCell(int row, int col) {
    if (row < 0 || col < 0 || row >= d_->data.rows || col >= d_->data.cols) {
        clearOutlinedCell();
        return;
    }
    d_->outlinedRow = row;
    d_->outlinedCol = col;
    placeOnCell(d_->outline, row, col);
    d_->plot->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::clearOutlinedCell() {
    if (d_->outlinedRow < 0)
        return;
    d_->outlinedRow = d_->outlinedCol = -1;
    d_->outline->setVisible(false);
    d_->plot->replot(QCustomPlot::rpQueuedReplot);
}

bool HeatmapView::hasOutlinedCell() const {
    return d_->outlinedRow >= 0;
}

FigureColors HeatmapView::figureColors() const {
    return d_->colors;
}

void HeatmapView::redraw() {
    setData(HeatmapData(d_->data));
}

void HeatmapView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (!FigureColors::followPalette(event, palette(), &d_->colors))
        return;
    const FigureColors& colors = d_->colors;
    if (auto* effect = qobject_cast<QGraphicsColorizeEffect*>(d_->plot->graphicsEffect()))
        effect->setColor(staleTint(colors));
    redraw();  // keeps the zoom: same shape
}

FigureOptions HeatmapView::figureOptions() const {
    FigureOptions o;  // o.colors: the print look; o.width, o.height: the export's own size
    o.colormap = d_->colormap;
    o.colorScale = d_->colorScale;
    o.positionsInLabels = d_->labelPositions;
    o.showValues = d_->showValues;
    o.decimals = d_->decimals;
    o.showTitle = true;
    o.fontScale = d_->fontScale;
    return o;
}

void HeatmapView::setEmptyText(const QString& text) {
    d_->emptyLabel->setText(text.isEmpty() ? tr("Type a sentence to see its attention.") : text);
}

QString HeatmapView::emptyText() const {
    return d_->emptyLabel->text();
}

void HeatmapView::setStale(bool stale) {
    if (stale == d_->stale)
        return;
    d_->stale = stale;
    if (stale) {
        auto* effect = new QGraphicsColorizeEffect;
        effect->setColor(staleTint(d_->colors));
        effect->setStrength(0.85);
        d_->plot->setGraphicsEffect(effect);  // the plot owns it
        d_->staleLabel->show();
        d_->staleLabel->raise();
    } else {
        d_->plot->setGraphicsEffect(nullptr);  // deletes the effect
        d_->staleLabel->hide();
    }
}

bool HeatmapView::isStale() const {
    return d_->stale;
}

void HeatmapView::setSwitchedOff(bool off) {
    if (off == d_->switchedOff)
        return;
    d_->switchedOff = off;
    redraw();
}

bool HeatmapView::isSwitchedOff() const {
    return d_->switchedOff;
}

void HeatmapView::resetZoom() {
    resetHeatmapRange(d_->plot, d_->data);
    d_->plot->replot(QCustomPlot::rpQueuedReplot);
}

QCustomPlot* HeatmapView::plot() const {
    return d_->plot;
}

QString HeatmapView::toolTipForCell(int row, int col) const {
    return cellToolTip(d_->data, row, col, std::max(4, d_->decimals));
}

bool HeatmapView::cellAt(const QPoint& plotPos, int* row, int* col) const {
    return heatmapCellAt(d_->plot, d_->data, QPointF(plotPos), row, col);
}

int HeatmapView::rowLabelAt(const QPoint& plotPos) const {
    return heatmapRowLabelAt(d_->plot, d_->data, QPointF(plotPos));
}

QRectF HeatmapView::cellRect(int row, int col) const {
    return heatmapCellRect(d_->plot, row, col);
}

int HeatmapView::valueFontPixelSize() const {
    return cellValuePixelSize(d_->plot);
}

QString HeatmapView::cellText(int row, int col) const {
    return heatmapCellText(d_->plot, row, col);
}

}  // namespace attn

#pragma once
// One heatmap figure in a QCustomPlot: the colour map with crisp cells, token labels on both
// axes, a colour bar, title and PyTorch op, hatched -inf cells and the values in the cells.
// Shared by the on-screen HeatmapView and the PNG/SVG/PDF export, so both look the same.

#include <QColor>
#include <QPointF>
#include <QSize>
#include <QString>

#include "export/heatmap_data.h"

class QCustomPlot;
class QCPColorGradient;
class QCPAxisRect;
class QPainter;
class QRectF;

namespace attn {

struct FigureOptions {
    Colormap colormap = Colormap::Viridis;
    bool showValues = true;  // numbers in the cells when they fit
    bool showTitle = true;   // title and subtitle (op, shape) above the heatmap
    int width = 0;           // figure size in logical pixels; <= 0: suggestedFigureSize()
    int height = 0;
    double scale = 2.0;        // PNG only: device pixels per logical pixel
    QString title;             // replaces data.title when not empty
    bool vectorCells = false;  // each cell its own rectangle (SVG/PDF) instead of one bitmap
    double fontScale = 1.0;    // presentation mode: bigger text
};

// A figure size that gives small matrices roomy cells and caps big ones.
QSize suggestedFigureSize(const HeatmapData& data);

// The QCPColorGradient of a colormap (colormapStops(), NaN transparent, 256 levels).
QCPColorGradient colorGradient(Colormap c);

// Clears `plot` and builds the figure of `data` in it. Safe to call again with new data.
void drawHeatmap(QCustomPlot* plot, const HeatmapData& data, const FigureOptions& options);

// The axis rect holding the cells of a figure drawHeatmap() built (nullptr before).
QCPAxisRect* heatmapAxisRect(QCustomPlot* plot);
// The cell under a widget pixel of a figure; false outside the cells.
bool heatmapCellAt(QCustomPlot* plot, const HeatmapData& data, QPointF pixel, int* row, int* col);
// Turns the column labels 45 degrees when they are wider than a cell (and back), and tells the
// tick thinning how much room a label needs. cellWidth <= 0: measure it from the current
// layout. True when something changed (replot to apply).
bool fitColumnLabels(QCustomPlot* plot, double cellWidth = 0);
// Shows every cell again (undoes zoom and pan).
void resetHeatmapRange(QCustomPlot* plot, const HeatmapData& data);

// The look of a masked (-inf) cell: light grey with diagonal hatch lines, vector-friendly.
void drawMaskHatch(QPainter* painter, const QRectF& rect);

// Black or white, whichever reads better on `background` (WCAG relative luminance).
QColor textColorOn(const QColor& background);

}  // namespace attn

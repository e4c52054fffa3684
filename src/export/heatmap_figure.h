#pragma once
// One heatmap figure in a QCustomPlot: the colour map with crisp cells, token labels on both
// axes, a colour bar, title and PyTorch op, hatched -inf cells and the values in the cells.
// Shared by the on-screen HeatmapView and the PNG/SVG/PDF export, so both look the same; the
// screen draws it in the window's colours (FigureColors::fromPalette), files in print colours.

#include <QColor>
#include <QPointF>
#include <QSize>
#include <QString>

#include "export/heatmap_data.h"

class QCustomPlot;
class QCPColorGradient;
class QCPAxisRect;
class QEvent;
class QPainter;
class QPalette;
class QRectF;

namespace attn {

// The colours a figure is painted in. The defaults are the print look (white background, dark
// text, light-grey hatch for masked cells) that exports use; fromPalette() gives the on-screen
// colours for a window palette: the defaults for a light one, dark colours for a dark one.
struct FigureColors {
    QColor background{0xff, 0xff, 0xff};  // the figure and the margins around the cells
    QColor title{0x11, 0x11, 0x11};
    QColor subtitle{0x55, 0x55, 0x55};  // the PyTorch op and shape under the title
    QColor text{0x22, 0x22, 0x22};      // axis labels and tick labels, colour-bar scale
    QColor noteText{0x33, 0x33, 0x33};  // "hatched = masked" under the heatmap
    QColor frame{0x55, 0x55, 0x55};     // axes, ticks, the colour bar's and swatch's frame
    QColor maskFill{0xe8, 0xe8, 0xe8};  // masked (-inf / hidden) cells ...
    QColor maskLine{0x9a, 0x9a, 0x9a};  // ... and their diagonal hatch lines
    QColor maskText{0x3a, 0x3a, 0x3a};  // "-inf" written on a masked cell

    // Dark figure colours when the palette's window colour is dark (lightness < 128), chosen
    // for contrast with the palette's own background and text; the defaults otherwise.
    static FigureColors fromPalette(const QPalette& palette);
    // For a widget's changeEvent: after a palette or style change, takes the colours of
    // `palette` into *colors and returns true when they differ (the widget then redraws).
    static bool followPalette(const QEvent* event, const QPalette& palette, FigureColors* colors);
    bool isDark() const { return background.lightness() < 128; }
    bool operator==(const FigureColors&) const = default;
};

struct FigureOptions {
    Colormap colormap = Colormap::Viridis;
    ColorScale colorScale = ColorScale::Matrix;
    bool showValues = true;  // numbers in the cells when they fit
    bool showTitle = true;   // title and subtitle (op, shape) above the heatmap
    int width = 0;           // figure size in logical pixels; <= 0: suggestedFigureSize()
    int height = 0;
    double scale = 2.0;        // PNG only: device pixels per logical pixel
    QString title;             // replaces data.title when not empty
    bool vectorCells = false;  // each cell its own rectangle (SVG/PDF) instead of one bitmap
    double fontScale = 1.0;    // presentation mode: bigger text
    FigureColors colors;       // the print look unless set (on screen: from the palette)
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

// The look of a masked (-inf) cell: grey (light in print) with diagonal hatch lines,
// vector-friendly.
void drawMaskHatch(QPainter* painter, const QRectF& rect, const FigureColors& colors = {});

// Black or white, whichever reads better on `background` (WCAG relative luminance).
QColor textColorOn(const QColor& background);

}  // namespace attn

#pragma once
// One heatmap figure in a QCustomPlot: the colour map with crisp cells, token labels on both
// axes, a colour bar, title and PyTorch op, hatched -inf cells and the values in the cells.
// Shared by the on-screen HeatmapView and the PNG/SVG/PDF export, so both look the same; the
// screen draws it in the window's colours (FigureColors::fromPalette), files in print colours.

#include <QColor>
#include <QPointF>
#include <QSize>
#include <QString>
#include <memory>
#include <optional>
#include <utility>

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
    LabelPositions positionsInLabels = LabelPositions::Auto;  // 3·the on token axes
    int labelChars = 14;     // a token label longer than this is elided (displayLabel)
    bool showValues = true;  // numbers in the cells when they fit
    int decimals = 2;  // the numbers' decimals (a matrix of whole numbers, such as a mask: none)
    bool showTitle = true;       // title and subtitle (op, shape) above the heatmap
    bool showColorBar = true;    // the colour bar beside the cells, with the masked-cells legend
    bool showRowLabels = true;   // row tick labels and title (off beside a figure that has them)
    bool showAxisTitles = true;  // "query token", "key token" (off where a caption says them)
    // The value range of the Matrix scale; unset: colorRange(data, colormap). For figures that
    // share one scale (compare view) and the symmetric scale of a difference.
    std::optional<std::pair<double, double>> valueRange;
    QString colorBarLabel;  // replaces the colour bar's title when not empty
    // Small figures whose caption says what the colours and hatching mean (the compare view):
    // the colour bar without its title and without the masked-cells legend under it, so the
    // cells keep the room.
    bool compactColorBar = false;
    // Cells no larger than this many pixels (0: as large as the area allows), so figures side
    // by side can share one cell size and their rows line up.
    double maxCellSize = 0;
    // The cells at the top of the area rather than centred in its height, so figures side by
    // side whose column labels differ in length keep their rows level.
    bool cellsAtTop = false;
    // Figures side by side without colour bars (the compare view in a short panel): a pixel
    // around the cells and their labels instead of a few, so the cells take the rest.
    bool tight = false;
    int width = 0;  // figure size in logical pixels; <= 0: suggestedFigureSize()
    int height = 0;
    double scale = 2.0;  // PNG only: device pixels per logical pixel
    QString title;       // replaces data.title when not empty
    // Put before the title (data's or the one above): whose step it is, for a figure of a
    // trained model ("qwen3-0.6b, layer 5: "); a whole folder of steps shares it.
    QString titlePrefix;
    bool vectorCells = false;  // each cell its own rectangle (SVG/PDF) instead of one bitmap
    double fontScale = 1.0;    // presentation mode: bigger text
    // Presentation mode on a wide screen: square cells may be up to this many times wider
    // than tall, and the numbers in them as large as the cells allow (not capped at 16 px x
    // fontScale), so a 6 x 6 matrix fills a 720-pixel-high projector with numbers a room reads.
    // Only for the numbers: cells too small to hold them even so (46 tokens) stay square.
    double maxCellAspect = 1.0;
    bool largeValues = false;
    FigureColors colors;  // the print look unless set (on screen: from the palette)
    // A switched-off head's pattern (model mode's ablation): veiled and crossed out in red, as
    // the window marks it, so a slide or an exported figure shows what the screen shows.
    bool switchedOff = false;
};

// The smallest pixel size the cells' numbers are drawn at; below it cells show colours only.
inline constexpr int kMinCellValuePixels = 8;
// The smallest pixel size for a figure of font scale `fontScale`: kMinCellValuePixels, and as
// many times more as the text is scaled up (presentation mode, 1.6: 13 px), so numbers a room
// could not read from its seats (8 px digits on a projector) are left out, never drawn tiny.
int leastCellValuePixels(double fontScale);

// Whether a figure of `data` draws square cells: always for token x token steps, and for other
// matrices whose long side is at most 4 times the short one (the book's 6 x 2 and 6 x 3
// projections); longer strips (6 x 768 embeddings) stretch their cells over the area, where
// square cells would leave a sliver.
bool squareCells(const HeatmapData& data);

// The size a file of the figure gets unless the user chooses one: square cells (squareCells)
// big enough for their numbers at a comfortable size when the matrix is small (72 px cells for
// the book's 6 x 6, about 40 px from 16 tokens on), every tick label that fits (column labels
// turned 45 degrees when wider than a cell), the colour bar, title and notes. The cells of big
// matrices shrink so the matrix stays within 1,600 px a side; the figure within 2,000 px.
QSize suggestedFigureSize(const HeatmapData& data, const FigureOptions& options = {});

// What a figure of `data` drawn with `options` needs around square cells of a given size, as
// drawHeatmap lays it out (the column labels turned for that size): for figures laid out
// together, such as the compare view's three, which pick the arrangement and the one cell size
// that fits them all. Measures the labels once; sizeFor() is cheap.
class HeatmapFrame {
  public:
    HeatmapFrame(const HeatmapData& data, const FigureOptions& options);
    // The whole figure (cells, labels, colour bar, titles) when its cells are `cell` pixels.
    QSizeF sizeFor(double cell) const;
    // The pixels a token label takes along its axis: smaller cells show every 2nd, 5th ... label.
    double labelExtent() const;

  private:
    struct Parts;
    std::shared_ptr<const Parts> d_;
};

// The QCPColorGradient of a colormap (colormapStops(), NaN transparent, 256 levels).
QCPColorGradient colorGradient(Colormap c);

// Clears `plot` and builds the figure of `data` in it. Safe to call again with new data. The
// figure lays itself out at every replot for the plot's size: the cells centred in the area,
// square where squareCells() says so, the colour bar beside them, tick labels thinned only
// where neighbours would overlap. Masked cells are hatched in every colour scale; the numbers in
// the cells are always the values themselves.
void drawHeatmap(QCustomPlot* plot, const HeatmapData& data, const FigureOptions& options);

// Marks a figure drawHeatmap() built as a switched-off head's: a veil of `background` over
// every cell and a red cross from corner to corner, on the overlay layer, so the pattern still
// shows beneath and the hover and outline frames drawn after it stay on top.
void crossOutHeatmap(QCustomPlot* plot, const HeatmapData& data, const QColor& background);
// The axis rect holding the cells of a figure drawHeatmap() built (nullptr before).
QCPAxisRect* heatmapAxisRect(QCustomPlot* plot);
// The cell under a widget pixel of a figure; false outside the cells.
bool heatmapCellAt(QCustomPlot* plot, const HeatmapData& data, QPointF pixel, int* row, int* col);
// The pixel rectangle of a cell in the current layout (empty before the first layout).
QRectF heatmapCellRect(QCustomPlot* plot, int row, int col);
// The row whose tick label is under a widget pixel (left of the cells), -1 elsewhere.
int heatmapRowLabelAt(QCustomPlot* plot, const HeatmapData& data, QPointF pixel);
// The pixel size of the numbers in the cells in the current layout and zoom; 0 when they are
// not drawn (switched off, or cells too small for leastCellValuePixels).
int cellValuePixelSize(QCustomPlot* plot);
// The number a cell of a figure prints in the current layout ("0.55", "-inf"); empty when the
// numbers are not drawn, the cell is masked without a value to print, or outside the data.
QString heatmapCellText(QCustomPlot* plot, int row, int col);
// Shows every cell again (undoes zoom and pan).
void resetHeatmapRange(QCustomPlot* plot, const HeatmapData& data);

// The look of a masked (-inf) cell: grey (light in print) with diagonal hatch lines,
// vector-friendly.
void drawMaskHatch(QPainter* painter, const QRectF& rect, const FigureColors& colors = {});

// Black or white, whichever reads better on `background` (WCAG relative luminance).
QColor textColorOn(const QColor& background);

}  // namespace attn

#pragma once
// The on-screen heatmap of one step: the shared figure (drawHeatmap) in the window's colours,
// with hover, click, zoom and pan, an outlined cell and a stale look. QCustomPlot is only
// forward-declared here to keep widget headers light.

#include <QWidget>
#include <memory>

#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"

class QCustomPlot;

namespace attn {

class HeatmapView : public QWidget {
    Q_OBJECT
  public:
    explicit HeatmapView(QWidget* parent = nullptr);
    ~HeatmapView() override;

    // New data drops the hover highlight; the zoom stays when the shape is the same (stepping
    // between heads), and so does the outlined cell while it is inside the new shape.
    void setData(const HeatmapData& data);
    const HeatmapData& data() const;
    void setColormap(Colormap c);   // the user's pick: turns the automatic choice off
    Colormap colormap() const;      // the colormap in use
    void setAutoColormap(bool on);  // follow defaultColormapFor() until the user picks one
    bool autoColormap() const;
    void setColorScale(ColorScale scale);  // Matrix, Row or Log (FigureOptions::colorScale)
    ColorScale colorScale() const;
    void setLabelPositions(LabelPositions positions);  // 3·the on token axes (Auto by default)
    LabelPositions labelPositions() const;
    void setShowValues(bool on);  // numbers in the cells when they fit
    bool showValues() const;
    // The decimals the cells print (FigureOptions::decimals); hovering shows at least the
    // book's four.
    void setDecimals(int decimals);
    int decimals() const;
    // The title and op above the cells; off by default (the window shows them in a caption
    // row). Exports keep their title whatever this says.
    void setShowTitle(bool on);
    bool showTitle() const;
    // What the view says while it has no data (default: "Type a sentence to see its
    // attention."), e.g. why the text cannot be computed.
    void setEmptyText(const QString& text);
    QString emptyText() const;
    void setStale(bool stale);  // greyed, with a "stale" label: the last good result
    bool isStale() const;
    // A switched-off head's pattern (model mode's ablation): veiled and crossed out in red, as
    // its thumbnail and tile are; it still looks, it no longer says anything.
    void setSwitchedOff(bool off);
    bool isSwitchedOff() const;
    void setFontScale(double scale);  // presentation mode: bigger labels and numbers
    double fontScale() const;
    // Presentation mode: wider cells and numbers as large as they allow
    // (FigureOptions::maxCellAspect and largeValues).
    void setPresentationCells(bool on);
    // A cell outlined in the highlight colour (where a derivation's number comes from); it
    // stays until cleared or until new data no longer has the cell.
    void setOutlinedCell(int row, int col);
    void clearOutlinedCell();
    bool hasOutlinedCell() const;
    void resetZoom();
    QCustomPlot* plot() const;  // for tests

    // The options that export the figure as it is shown (colormap, scale, values, font scale,
    // label positions) in the print colours and at the export's own size (width and height 0:
    // suggestedFigureSize), with the title: exports stay white whatever the window's palette.
    FigureOptions figureOptions() const;
    // The colours the figure is drawn in on screen: from the widget's palette.
    FigureColors figureColors() const;
    // What hovering the cell shows, e.g. `row 1 "journey", col 0 "Your" = 0.5517`.
    QString toolTipForCell(int row, int col) const;
    // The cell under a point in plot() coordinates; false outside the cells.
    bool cellAt(const QPoint& plotPos, int* row, int* col) const;
    // The row whose label is under a point in plot() coordinates, -1 elsewhere.
    int rowLabelAt(const QPoint& plotPos) const;
    // The pixel rectangle of a cell in plot() coordinates, as laid out now.
    QRectF cellRect(int row, int col) const;
    // The pixel size the numbers in the cells are drawn at now; 0 when they are not drawn.
    int valueFontPixelSize() const;
    // The number a cell prints now ("0.55"); empty when the numbers are not drawn.
    QString cellText(int row, int col) const;

  signals:
    void cellHovered(int row, int col, float value);  // (-1, -1, NaN) on leaving the cells
    void cellClicked(int row, int col, float value);
    void rowLabelClicked(int row);  // a row's tick label (the query token) was clicked

  protected:
    void changeEvent(QEvent* event) override;  // redraws in the new palette's colours

  private:
    void redraw();
    void setHover(int row, int col);
    struct Private;
    std::unique_ptr<Private> d_;
};

}  // namespace attn

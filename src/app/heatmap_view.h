#pragma once
// The main heatmap of the selected step (QCustomPlot), and the small-multiples grid of heads.
// QCustomPlot is only forward-declared here to keep widget headers light.

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

    void setData(const HeatmapData& data);
    const HeatmapData& data() const;
    void setColormap(Colormap c);   // the user's pick: turns the automatic choice off
    Colormap colormap() const;      // the colormap in use
    void setAutoColormap(bool on);  // follow defaultColormapFor() until the user picks one
    void setShowValues(bool on);    // numbers in the cells when they fit
    void setStale(bool stale);      // greyed, with a "stale" label: the last good result
    bool isStale() const;
    void resetZoom();
    QCustomPlot* plot() const;  // for export and tests
    bool autoColormap() const;
    bool showValues() const;
    void setFontScale(double scale);  // presentation mode: bigger labels and numbers
    // The options that export the figure as it is shown (colormap, values, font scale), in the
    // print colours: exports and copies stay white whatever the window's palette.
    FigureOptions figureOptions() const;
    // The colours the figure is drawn in on screen: from the widget's palette.
    FigureColors figureColors() const;
    // What hovering the cell shows, e.g. `row "journey", col "Your" = 0.551712`.
    QString toolTipForCell(int row, int col) const;
    // The cell under a point in plot() coordinates; false outside the cells.
    bool cellAt(const QPoint& plotPos, int* row, int* col) const;

  signals:
    void cellHovered(int row, int col, float value);
    void cellClicked(int row, int col, float value);

  protected:
    void changeEvent(QEvent* event) override;  // redraws in the new palette's colours

  private:
    void redraw();
    struct Private;
    std::unique_ptr<Private> d_;
};

class HeadGrid : public QWidget {
    Q_OBJECT
  public:
    explicit HeadGrid(QWidget* parent = nullptr);
    ~HeadGrid() override;
    void setHeads(const std::vector<HeatmapData>& heads);  // empty hides the grid content
    void setCurrentHead(int head);
    void setColormap(Colormap c);
    int headCount() const;
    int currentHead() const;
    Colormap colormap() const;
    // The tile of a head in widget coordinates (empty if out of range): for tests and hit tests.
    QRect tileRect(int head) const;
    int headAt(const QPoint& pos) const;  // -1 outside the tiles

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void headClicked(int head);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;  // repaints in the new palette's colours

  private:
    struct Private;
    std::unique_ptr<Private> d_;
};

}  // namespace attn

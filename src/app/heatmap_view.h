#pragma once
// The main heatmap of the selected step (QCustomPlot), and the small-multiples grid of heads.
// QCustomPlot is only forward-declared here to keep widget headers light.

#include <QWidget>
#include <memory>

#include "export/heatmap_data.h"

class QCustomPlot;

namespace attn {

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);
    ~HeatmapView() override;

    void setData(const HeatmapData& data);
    const HeatmapData& data() const;
    void setColormap(Colormap c);
    Colormap colormap() const;
    void setAutoColormap(bool on);   // follow defaultColormapFor() until the user picks one
    void setShowValues(bool on);     // numbers in the cells when they fit
    void setStale(bool stale);       // greyed, with a "stale" label: the last good result
    bool isStale() const;
    void resetZoom();
    QCustomPlot* plot() const;       // for export and tests

signals:
    void cellHovered(int row, int col, float value);
    void cellClicked(int row, int col, float value);

private:
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

signals:
    void headClicked(int head);

private:
    struct Private;
    std::unique_ptr<Private> d_;
};

}  // namespace attn

#pragma once
// Every head of a per-head step as small multiples (one thumbnail per head, one colour scale
// for all so heads compare), painted by one widget so 25 heads stay cheap. setStep pools the
// heads on the thread pool and never blocks the GUI thread.

#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "export/heatmap_data.h"

namespace attn {

struct Trace;

class HeadGrid : public QWidget {
    Q_OBJECT
  public:
    // A thumbnail holds at most this many cells a side (pooledSlice): more than its pixels.
    static constexpr int kThumbnailCells = 112;

    explicit HeadGrid(QWidget* parent = nullptr);
    ~HeadGrid() override;

    // Shows every head of step `stepId` of `trace`, batch entry `batch`: pools each head
    // (pooledSlice, the trace's mask marking hidden weights) on the thread pool and paints the
    // thumbnails there; they appear when ready (tilesReady). Returns at once and keeps showing
    // the previous heads until then. A later setStep, setHeads or clear drops a request still on
    // its way. A step the trace lacks, or one without heads, clears the grid.
    // `colormap` unset: the step's own (autoColormapFor the heads), as the big heatmap picks.
    void setStep(std::shared_ptr<const Trace> trace, const std::string& stepId,
                 const QStringList& labels, int batch, std::optional<Colormap> colormap,
                 ColorScale scale);
    // Shows these heads now (small or already pooled); empty clears the grid.
    void setHeads(const std::vector<HeatmapData>& heads);
    void clear();
    bool isLoading() const;  // a setStep's thumbnails are on their way

    // Heads switched off (DESIGN.md, Asking a model why: ablation): veiled and crossed out in red.
    void setOffHeads(std::vector<int> heads);
    bool isHeadOff(int head) const;

    void setCurrentHead(int head);
    int currentHead() const;
    // The user's colormap, or unset for each step's own; colormap() is the one in effect.
    void setColormap(std::optional<Colormap> c);
    Colormap colormap() const;
    // The colormap "auto" gives these heads: what defaultColormapFor gives them stacked, so
    // every head of a step has the colours the big heatmap gives that step.
    static Colormap autoColormapFor(const std::vector<HeatmapData>& heads);
    void setColorScale(ColorScale scale);
    ColorScale colorScale() const;
    int headCount() const;
    const HeatmapData& headData(int head) const;  // the (pooled) slice a thumbnail shows

    // Geometry in widget coordinates, empty for a head out of range: the head's whole tile
    // (thumbnail and caption), its thumbnail and its caption, and the caption's text ("head 3",
    // "h3" or "3": the longest that fits the tile).
    QRect tileRect(int head) const;
    QRect thumbnailRect(int head) const;
    QRect captionRect(int head) const;
    QString captionText(int head) const;
    int headAt(const QPoint& pos) const;  // -1 outside the tiles

    // The layout follows the widget's size: the columns that give the biggest thumbnails, so
    // a narrow column beside the heatmap gets two or three columns and a strip under it one
    // row. In a scroll area, heightForWidth gives the height that keeps thumbnails at about
    // 72 px.
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void headClicked(int head);         // a click, or Enter on the selected head: open it
    void currentHeadChanged(int head);  // the selection moved (click, arrows, Home, End)
    void tilesReady();                  // a setStep's thumbnails arrived and are shown
    // A right-click (or the menu key) on a head's tile: its owner offers what can be done.
    void headMenuRequested(int head, const QPoint& globalPos);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;  // repaints in the new palette's colours

  private:
    void showTiles(std::vector<HeatmapData> heads, std::vector<QImage> images);
    void repaintThumbnails();
    void relayout();
    struct Private;
    std::unique_ptr<Private> d_;
};

}  // namespace attn

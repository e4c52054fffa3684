#pragma once
// The layers x heads overview of a trained model (BertViz's "model view"): one attention
// thumbnail per head, a row per layer and a column per head, so the patterns of a whole model
// (previous-token diagonals, first-token columns, broad averaging) can be seen at a glance and
// a head opened with a double-click.
//
// Tiles keep at least kMinTile pixels: a large model (GPT-2 XL, 48 x 25) scrolls, with the
// layer and head labels staying in view, and zooms (Ctrl+wheel, + and -, 0 for fit) between
// fitting the view and larger tiles. The app feeds layers as the forward finishes them
// (setArchitecture, then setLayer per layer); layers not computed yet show as empty outlines.
// Each tile's picture is built once from the thumbnails (overviewTileImages); rebuilding all
// of them (a new run, the colour scale switched) runs off the GUI thread.

#include <QImage>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/ablation.h"
#include "engine/head_scores.h"
#include "engine/tensor.h"

class QCheckBox;
class QLabel;
class QToolButton;

namespace attn {

struct DecoderArchitecture;
struct DecoderRun;
class OverviewGrid;
class LatestJob;

class ModelOverview : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kMinTile = 36;   // pixels: below it the grid scrolls instead
    static constexpr int kMaxTile = 320;  // the largest zoom

    explicit ModelOverview(QWidget* parent = nullptr);
    ~ModelOverview() override;

    // No model: an empty view saying so.
    void clear();
    // A new run begins: layers x heads empty tiles, no summaries; keeps the current head when
    // it still exists.
    void setArchitecture(int layers, int heads);
    // The same for a model of `arch`, whose query heads sharing a key/value group are marked as
    // one (a band over their columns, a line between groups) and whose sliding-window layers
    // say their window beside their number.
    void setArchitecture(const DecoderArchitecture& arch);
    // One layer's thumbnails (H, P, P) (DecoderLayerDone::thumbnail): its tiles appear at once.
    // Ignored when the layer or the head count does not fit the architecture.
    void setLayer(int layer, const Tensor& thumbnail);
    // A finished run: its architecture, every layer's thumbnails and its summaries. Layers
    // already shown from the same run (setLayer with its thumbnails) keep their pictures.
    void setRun(std::shared_ptr<const DecoderRun> run);
    // Scores named in the tooltips (entropy, distance, first-token weight, previous-token
    // score, induction score when present). Ignored when the size differs from the grid's.
    void setSummaries(const HeadScores& scores);

    int layers() const { return layers_; }
    int heads() const { return heads_; }
    // The key/value group each head reads (empty when every head has its own), and each layer's
    // sliding window (0 for full attention; empty when every layer is full).
    const std::vector<int>& headGroups() const { return groupOfHead_; }
    const std::vector<int64_t>& layerWindows() const { return windows_; }
    // The label of layer `layer` in the left strip ("layer 3", "layer 3 · window 512").
    QString layerLabel(int layer) const;
    bool hasLayer(int layer) const;  // its thumbnails arrived
    int layersDone() const;
    // Every arrived layer's pictures are built (none is waiting for the worker thread).
    bool tilesReady() const;

    // Heads switched off (DESIGN.md, Asking a model why: ablation): their tiles are crossed out and
    // greyed, and their tooltips say so. Their pictures stay: a switched-off head still looks where
    // it did.
    void setAblated(std::vector<HeadRef> heads);
    bool isAblated(int layer, int head) const;

    // The highlighted tile; (-1, -1) for none. Does not emit signals.
    void setCurrent(int layer, int head);
    int currentLayer() const { return currentLayer_; }
    int currentHead() const { return currentHead_; }

    // Each tile on its own colour scale (0 .. its largest weight) instead of 0 .. 1.
    void setOwnScale(bool on);
    bool ownScale() const { return ownScale_; }

    // 1 = the tiles fit the view (but never smaller than kMinTile); larger values magnify.
    void setZoom(double zoom);
    double zoom() const { return zoom_; }
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    int tileSize() const;             // the side of a tile in pixels now
    void setFontScale(double scale);  // presentation mode

    // A tile's rectangle in this widget's coordinates (outside the widget when scrolled away;
    // empty for a tile that does not exist), and scrolling it into view.
    QRect tileRect(int layer, int head) const;
    void scrollToTile(int layer, int head);
    // What hovering a tile says: layer, head and the scores that are known.
    QString tileToolTip(int layer, int head) const;
    // The line under the grid: the size, how many layers are done, what a click does.
    QString statusText() const;

  signals:
    void tileClicked(int layer, int head);     // a click on a tile
    void tileActivated(int layer, int head);   // double-click, or Enter on the current tile
    void currentChanged(int layer, int head);  // the user moved the selection (click, arrows)
    // A right-click (or the menu key) on a tile: the page offers what can be done to the head.
    void tileMenuRequested(int layer, int head, const QPoint& globalPos);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    friend class OverviewGrid;
    struct Layer {
        Tensor thumbnails;           // (H, P, P); empty until the layer arrives
        std::vector<QImage> images;  // one per head, P x P; empty while being built
        quint64 stamp = 0;           // changes with every new thumbnails of this layer
    };
    void resetLayers(int layers, int heads);
    // The pictures of every arrived layer (all) or of those without any, off the GUI thread.
    void rebuildImages(bool all);
    void moveCurrent(int dLayer, int dHead);
    void selectTile(int layer, int head, bool clicked);
    void updateStatus();
    void updateZoomButtons();

    OverviewGrid* grid_ = nullptr;
    QLabel* status_ = nullptr;
    QWidget* scaleBar_ = nullptr;  // the colour scale: 0 .. 1 or 0 .. tile max
    QCheckBox* ownScaleBox_ = nullptr;
    QToolButton* zoomOutButton_ = nullptr;
    QToolButton* fitButton_ = nullptr;
    QToolButton* zoomInButton_ = nullptr;

    int layers_ = 0;
    int heads_ = 0;
    std::vector<int> groupOfHead_;
    std::vector<int64_t> windows_;
    std::vector<HeadRef> ablated_;
    std::vector<Layer> layerData_;
    quint64 nextStamp_ = 1;
    HeadScores scores_;
    int currentLayer_ = -1;
    int currentHead_ = -1;
    bool ownScale_ = false;
    double zoom_ = 1.0;
    double fontScale_ = 1.0;
    std::unique_ptr<LatestJob> imageJob_;
};

}  // namespace attn

#pragma once
// Model mode's layers x heads overview page (every layer and head at a glance).

#include <QWidget>
#include <functional>

class QLabel;
class QMenu;
class QSpinBox;

namespace attn {

struct DecoderRun;
struct LayerUpdate;
class ModelOverview;
class Workspace;

// The layers x heads overview (with its own tools: each tile on its own scale, zoom, how many
// layers are done). It fills in layer by layer while a forward runs.
class OverviewPage : public QWidget {
    Q_OBJECT
  public:
    OverviewPage(Workspace* workspace, QWidget* parent = nullptr);
    ModelOverview* overview() const { return overview_; }
    void setFontScale(double scale);

    // What a head's context menu offers besides the page's own entries (the head switches).
    void setHeadActions(std::function<void(QMenu*, int layer, int head)> add) {
        headActions_ = std::move(add);
    }

  signals:
    // A tile was double-clicked (or Enter pressed on it): show that head's steps.
    void headOpened(int layer, int head);
    // The user asked to save the overview as a figure.
    void exportRequested();

  private:
    void onLayer(const LayerUpdate& update);
    void onResult();
    void followSelection();

    Workspace* workspace_;
    std::function<void(QMenu*, int, int)> headActions_;
    ModelOverview* overview_ = nullptr;
    quint64 filling_ = 0;  // the generation whose layers are arriving
    const DecoderRun* shownRun_ = nullptr;
};

}  // namespace attn

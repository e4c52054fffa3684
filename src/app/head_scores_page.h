#pragma once
// Model mode's head scores page: the per-head scores that find the interesting heads.

#include <QWidget>
#include <functional>

class QLabel;
class QMenu;
class QSpinBox;

namespace attn {

struct DecoderRun;
class HeadSummaries;
class Workspace;

// Per layer x head scores as small heatmaps and a sortable list: previous-token heads,
// induction heads and attention sinks stand out. A click opens the head's steps.
class HeadScoresPage : public QWidget {
    Q_OBJECT
  public:
    HeadScoresPage(Workspace* workspace, QWidget* parent = nullptr);
    HeadSummaries* summaries() const { return summaries_; }

    // What a head's context menu offers besides the page's own entries (the head switches).
    void setHeadActions(std::function<void(QMenu*, int layer, int head)> add) {
        headActions_ = std::move(add);
    }

  signals:
    void headOpened(int layer, int head);

  private:
    void onResult();

    Workspace* workspace_;
    std::function<void(QMenu*, int, int)> headActions_;
    HeadSummaries* summaries_ = nullptr;
    const DecoderRun* shownRun_ = nullptr;
};

}  // namespace attn

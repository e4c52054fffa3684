#pragma once
// Model mode's head scores page: the per-head scores that find the interesting heads.

#include <QWidget>

class QLabel;
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

  signals:
    void headOpened(int layer, int head);

  private:
    void onResult();

    Workspace* workspace_;
    HeadSummaries* summaries_ = nullptr;
    const DecoderRun* shownRun_ = nullptr;
};

}  // namespace attn

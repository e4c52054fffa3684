#pragma once
// Model mode's head scores page: the per-head scores that find the interesting heads.

#include <QWidget>
#include <cstdint>
#include <functional>

class QLabel;
class QMenu;
class QPushButton;
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
    // The induction test: the text becomes `testTokens()` random tokens of the model said twice
    // (the CLI's --repeat-random), undoably; each press draws other tokens.
    QPushButton* inductionTestButton() const { return testButton_; }
    QSpinBox* testTokens() const { return testTokens_; }
    void runInductionTest();

    // What a head's context menu offers besides the page's own entries (the head switches).
    void setHeadActions(std::function<void(QMenu*, int layer, int head)> add) {
        headActions_ = std::move(add);
    }

  signals:
    void headOpened(int layer, int head);

  private:
    void onResult();
    void fitTestToModel();

    Workspace* workspace_;
    std::function<void(QMenu*, int, int)> headActions_;
    HeadSummaries* summaries_ = nullptr;
    QPushButton* testButton_ = nullptr;
    QSpinBox* testTokens_ = nullptr;
    QLabel* testError_ = nullptr;
    uint64_t testSeed_ = 0;  // the next draw's seed
    const DecoderRun* shownRun_ = nullptr;
};

}  // namespace attn

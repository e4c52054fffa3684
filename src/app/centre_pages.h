#pragma once
// The centre of the window: the selected layer's attention step by step, and in model mode two
// more pages, every layer and head at a glance and the per-head scores. The chapter-3 module has
// only the steps, so its tab bar is hidden there.

#include <QTabWidget>

namespace attn {

class ExportActions;
class HeadScoresPage;
class LogitLensPage;
class OverviewPage;
class StepView;
class Workspace;

class CentrePages : public QTabWidget {
    Q_OBJECT
  public:
    CentrePages(Workspace* workspace, StepView* steps, ExportActions* exports,
                QWidget* parent = nullptr);
    OverviewPage* overviewPage() const { return overview_; }
    HeadScoresPage* headScoresPage() const { return scores_; }
    LogitLensPage* logitLensPage() const { return lens_; }
    // Brings a page forward: "steps", "overview", "scores" or "lens" (the last three in model
    // mode).
    // False for another name.
    bool showPage(const QString& name);
    // The model pages have drawn the shown result (no thumbnails or scores on their way).
    bool isSettled() const;
    void setFontScale(double scale);  // presentation mode

  private:
    void refreshModelMode();

    Workspace* workspace_;
    StepView* steps_;
    OverviewPage* overview_ = nullptr;
    HeadScoresPage* scores_ = nullptr;
    LogitLensPage* lens_ = nullptr;
};

}  // namespace attn

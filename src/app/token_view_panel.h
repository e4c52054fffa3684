#pragma once
// The token view's Lines page: each query token's lines to the keys it attends to, for the
// shown result's weights (cut off the GUI thread), with the head and layer choices.
#include <QString>
#include <QWidget>
#include <memory>

class QCheckBox;
class QLabel;
class QSpinBox;
class QShowEvent;

namespace attn {

class LatestJob;
class StepView;
class TokenView;
class Workspace;

class TokenViewPanel : public QWidget {
    Q_OBJECT
  public:
    TokenViewPanel(Workspace* workspace, QWidget* parent = nullptr);
    ~TokenViewPanel() override;
    TokenView* view() const { return view_; }
    QCheckBox* allHeads() const { return allHeads_; }
    QString stepShown() const { return step_; }  // the weight step drawn
    // The newest weights have been cut off the GUI thread and handed to the view.
    bool isDrawn() const;
    QSpinBox* layerSpin() const { return layer_; }
    void setFontScale(double scale);
    // Withholds the lines of the rows a quiz in `view` hides (when the heatmap shows the
    // weights drawn here), and follows its reveals.
    void followQuiz(const StepView* view);

  protected:
    void showEvent(QShowEvent* event) override;

  public slots:
    // Draws the panel for the shown result when it is on screen (a tab behind another, or a
    // hidden dock, waits): the window calls it when the panel's tab comes to the front.
    void refresh();

  private:
    void refreshLayer();
    void refreshQuiz();
    const StepView* quiz_ = nullptr;
    Workspace* workspace_;
    QCheckBox* allHeads_ = nullptr;
    QLabel* layerLabel_ = nullptr;
    QSpinBox* layer_ = nullptr;
    QLabel* note_ = nullptr;
    TokenView* view_ = nullptr;
    std::unique_ptr<LatestJob> weightsJob_;  // the weights are cut on the thread pool
    QString step_;
    quint64 drawnGeneration_ = 0;  // the result drawn (Workspace::shownGeneration)
    int drawnBatch_ = -1;
};

}  // namespace attn

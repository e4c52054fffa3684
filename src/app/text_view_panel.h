#pragma once
// The Text view dock: the sentence with each token coloured by the attention it gets from a
// clicked token (TextView), for the head shown or the mean of all heads, and "Save image..." for
// slides. The weights are cut from the shown trace off the GUI thread.

#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace attn {

class LatestJob;
class StepView;
class TextView;
class Workspace;

class TextViewPanel : public QWidget {
    Q_OBJECT
  public:
    TextViewPanel(Workspace* workspace, QWidget* parent = nullptr);
    ~TextViewPanel() override;
    TextView* view() const { return view_; }
    QCheckBox* meanOfHeads() const { return mean_; }
    // Model mode: what colours the tokens: the attention from the clicked token, each token's
    // loss (the model's surprise at it), or how that loss changed when heads were switched off.
    enum class Colouring { Attention, Loss, LossChange };
    void setColouring(Colouring c);
    Colouring colouring() const;
    // The newest weights have reached the view.
    bool isDrawn() const;
    void setFontScale(double scale);
    // The rows the quiz of `view` hides are not coloured by (TextView::setQuizRows).
    void followQuiz(const StepView* view);
    // Writes the view as PNG or SVG (by the suffix), in print colours. False when it cannot.
    bool saveImage(const QString& path) const;

  protected:
    void showEvent(QShowEvent* event) override;

  public slots:
    // Draws the panel for the shown result when it is on screen (a hidden tab waits).
    void refresh();

  private:
    void saveWithDialog();
    void showLosses();
    void refreshQuiz();
    const StepView* quiz_ = nullptr;
    Workspace* workspace_;
    QCheckBox* mean_ = nullptr;
    QComboBox* colouring_ = nullptr;
    QLabel* note_ = nullptr;
    QPushButton* save_ = nullptr;
    TextView* view_ = nullptr;
    std::unique_ptr<LatestJob> job_;
    std::unique_ptr<LatestJob> lossJob_;
    const void* lossRun_ = nullptr;  // the run (and baseline) whose losses the view shows
    const void* lossBaseline_ = nullptr;
    quint64 drawnGeneration_ = 0;  // the result whose weights the view holds
    quint64 askedGeneration_ = 0;
    int drawnBatch_ = -1;
    QString step_;
};

}  // namespace attn

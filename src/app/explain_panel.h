#pragma once
// Explain, beside the heatmap: the step in words, and where a clicked cell's number comes from
// (model mode's overview and scores pages are explained too). It refreshes itself from the
// workspace, only while it is on screen.
#include <QString>
#include <QWidget>

class QTextBrowser;

namespace attn {

class StepView;
class Workspace;

class ExplainPanel : public QWidget {
    Q_OBJECT
  public:
    ExplainPanel(Workspace* workspace, QWidget* parent = nullptr);
    QTextBrowser* browser() const { return browser_; }
    QString explanationHtml() const { return explanation_; }
    QString derivationHtml() const { return derivation_; }
    // The centre page shown: "steps" explains the selected step and a clicked cell, "overview"
    // and "scores" (model mode) explain what those pages draw.
    void setPage(const QString& page);
    // A clicked cell's derivation hides what the quiz of `view` still hides (the other cells of
    // the row a softmax or a row sum would list).
    void followQuiz(const StepView* view);

  signals:
    // A cell's derivation was just shown: the window brings this panel to the front.
    void derivationShown();

  private:
    void refresh();
    Workspace* workspace_;
    QString page_ = QStringLiteral("steps");
    const StepView* quiz_ = nullptr;
    QTextBrowser* browser_ = nullptr;
    QString explanation_;
    QString derivation_;
};

}  // namespace attn

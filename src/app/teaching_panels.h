#pragma once
// The teaching panels beside the heatmap, each a widget on the workspace: Explain (the step in
// words, and where a clicked cell's number comes from), the token view and the PyTorch listing
// (the compare view has its own file). Each refreshes itself from the workspace, only while it
// is on screen.

#include <QWidget>
#include <memory>
#include <optional>
#include <string>

#include "app/workspace.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTextBrowser;

namespace attn {

// On screen: shown, and not a tab hidden behind another. Panels draw only then.
bool onScreen(const QWidget* w);

class CompareView;
class LatestJob;
class PyTorchPanel;
class TokenView;
class TraceController;
class Workspace;
struct LessonScreen;

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

  signals:
    // A cell's derivation was just shown: the window brings this panel to the front.
    void derivationShown();

  private:
    void refresh();
    Workspace* workspace_;
    QString page_ = QStringLiteral("steps");
    QTextBrowser* browser_ = nullptr;
    QString explanation_;
    QString derivation_;
};

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

  protected:
    void showEvent(QShowEvent* event) override;

  public slots:
    // Draws the panel for the shown result when it is on screen (a tab behind another, or a
    // hidden dock, waits): the window calls it when the panel's tab comes to the front.
    void refresh();

  private:
    void refreshLayer();
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

class CodePanel : public QWidget {
    Q_OBJECT
  public:
    CodePanel(Workspace* workspace, QWidget* parent = nullptr);
    PyTorchPanel* panel() const { return panel_; }

  signals:
    void updated();  // the listing was regenerated

  protected:
    void showEvent(QShowEvent* event) override;

  public slots:
    // Draws the panel for the shown result when it is on screen (a tab behind another, or a
    // hidden dock, waits): the window calls it when the panel's tab comes to the front.
    void refresh();

  private:
    Workspace* workspace_;
    PyTorchPanel* panel_ = nullptr;
    quint64 generation_ = 0;
    std::string stepId_;  // the step the listing prints last
};

}  // namespace attn

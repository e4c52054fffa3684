#pragma once
// The Attention Lens main window: a composition of panels around one Workspace. Input and model
// on the left; the step view (pipeline strip, heatmap, heads) in the middle; shapes, explanation,
// token view, PyTorch and compare as tabs on the right; the lesson beside them; status, progress
// and Cancel at the bottom. The panels talk to the workspace, not to each other or the window.

#include <QMainWindow>

class QLabel;
class QTabWidget;

namespace attn {

class CodePanel;
class ComparePanel;
class ExplainPanel;
class ExportActions;
class HeadScoresPage;
class HelpActions;
class InputPanel;
class LanguageActions;
class LessonPanel;
class ModelPicker;
class ModulePanel;
class OverviewPage;
class PredictionPanel;
class PresentationController;
class SessionActions;
class ShapesPanel;
class StatusLine;
class StepView;
class ThemeActions;
class TokenViewPanel;
class Workspace;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    struct Options {
        bool useSettings = true;      // restore and save QSettings (off in tests and screenshots)
        bool restoreSettings = true;  // also start from the last settings (not the book example)
    };
    explicit MainWindow(QWidget* parent = nullptr);
    explicit MainWindow(Options options, QWidget* parent = nullptr);
    ~MainWindow() override;

    Workspace* workspace() const { return workspace_; }
    StepView* stepView() const { return stepView_; }
    InputPanel* inputPanel() const { return input_; }
    ModulePanel* modulePanel() const { return module_; }
    ModelPicker* modelPicker() const { return picker_; }
    ShapesPanel* shapesPanel() const { return shapes_; }
    ExplainPanel* explainPanel() const { return explain_; }
    TokenViewPanel* tokenPanel() const { return tokens_; }
    CodePanel* codePanel() const { return code_; }
    ComparePanel* comparePanel() const { return compare_; }
    LessonPanel* lessonPanel() const { return lesson_; }
    SessionActions* sessions() const { return sessions_; }
    ExportActions* exports() const { return exports_; }
    PresentationController* presentation() const { return presentation_; }
    StatusLine* status() const { return status_; }
    // View > Theme, View > Language and the Help menu.
    ThemeActions* themeActions() const { return theme_; }
    LanguageActions* languageActions() const { return language_; }
    HelpActions* helpActions() const { return help_; }
    // Model mode: the centre's pages (layer steps, all layers, head scores) and the
    // next-token predictions under the input.
    QTabWidget* centreTabs() const { return centreTabs_; }
    OverviewPage* overviewPage() const { return overview_; }
    HeadScoresPage* headScoresPage() const { return scores_; }
    PredictionPanel* predictionPanel() const { return predictions_; }
    // Brings a centre page forward: "steps", "overview" or "scores" (the last two in model
    // mode). False for another name.
    bool showPage(const QString& name);
    // Every view has drawn the shown result: no thumbnails, scores, predictions or token
    // lines still on their way (screenshots wait for this).
    bool isSettled() const;
    QDockWidget* dock(const QString& objectName) const;

    // The message beside the control of `field` ("heads", "d_out", "input", ...), empty if none.
    QString fieldError(const QString& field) const;
    // Opens the lesson panel on its first screen and shows it.
    void startLesson();
    // Sizes and places the window for the screen it is on: fresh settings fill most of the
    // screen; a saved geometry larger than the screen is brought inside it.
    void fitToScreen();

  protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    void createDocks();
    void createMenus();
    QAction* dockAction(QDockWidget* dock, const QString& text, const QKeySequence& shortcut);
    void loadFileInteractive(bool weights);
    void openTextInteractive();
    void openModelInteractive();
    void restoreLayout();
    void saveLayout() const;
    // Shows model mode's pages and panels only when a trained model is in use.
    void refreshModelMode();

    Options options_;
    Workspace* workspace_ = nullptr;
    StepView* stepView_ = nullptr;
    InputPanel* input_ = nullptr;
    ModulePanel* module_ = nullptr;
    ModelPicker* picker_ = nullptr;
    ShapesPanel* shapes_ = nullptr;
    ExplainPanel* explain_ = nullptr;
    TokenViewPanel* tokens_ = nullptr;
    CodePanel* code_ = nullptr;
    ComparePanel* compare_ = nullptr;
    LessonPanel* lesson_ = nullptr;
    SessionActions* sessions_ = nullptr;
    ExportActions* exports_ = nullptr;
    PresentationController* presentation_ = nullptr;
    class StatusLine* status_ = nullptr;
    QTabWidget* centreTabs_ = nullptr;
    OverviewPage* overview_ = nullptr;
    HeadScoresPage* scores_ = nullptr;
    PredictionPanel* predictions_ = nullptr;
    QLabel* predictionTitle_ = nullptr;
    ThemeActions* theme_ = nullptr;
    LanguageActions* language_ = nullptr;
    HelpActions* help_ = nullptr;
    bool placed_ = false;
    bool sized_ = false;
};

}  // namespace attn

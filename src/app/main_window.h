#pragma once
// The Attention Lens main window: a composition of panels around one Workspace. Input and model
// on the left; the step view (pipeline strip, heatmap, heads) in the middle; shapes, explanation,
// token view, PyTorch and compare as tabs on the right; the lesson beside them; status, progress
// and Cancel at the bottom. The panels talk to the workspace, not to each other or the window.

#include <QMainWindow>

#include "teach/lesson.h"

class QMenu;
class QTabWidget;

namespace attn {

class CentrePages;
class CodePanel;
class ComparePanel;
class ExplainPanel;
class ExportActions;
class HeadScoresPage;
class HelpActions;
class InputPanel;
class LessonDriver;
class LanguageActions;
class LessonPanel;
class ModelPicker;
class ModulePanel;
class OpenActions;
class OverviewPage;
class PredictionPanel;
class PresentationController;
class SessionActions;
class SettingsColumn;
class ShapesPanel;
class TextViewPanel;
class StatusLine;
class StepView;
class AblationActions;
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
    SettingsColumn* settingsColumn() const { return column_; }
    InputPanel* inputPanel() const;
    ModulePanel* modulePanel() const;
    ModelPicker* modelPicker() const;
    ShapesPanel* shapesPanel() const { return shapes_; }
    ExplainPanel* explainPanel() const { return explain_; }
    TokenViewPanel* tokenPanel() const { return tokens_; }
    CodePanel* codePanel() const { return code_; }
    ComparePanel* comparePanel() const { return compare_; }
    TextViewPanel* textPanel() const { return text_; }
    LessonPanel* lessonPanel() const { return lesson_; }
    SessionActions* sessions() const { return sessions_; }
    OpenActions* opens() const { return opens_; }
    ExportActions* exports() const { return exports_; }
    PresentationController* presentation() const { return presentation_; }
    StatusLine* status() const { return status_; }
    // View > Theme, View > Language and the Help menu.
    ThemeActions* themeActions() const { return theme_; }
    AblationActions* ablationActions() const { return ablation_; }
    LanguageActions* languageActions() const { return language_; }
    HelpActions* helpActions() const { return help_; }
    // Model mode: the centre's pages (layer steps, all layers, head scores) and the
    // next-token predictions under the input.
    CentrePages* centrePages() const { return pages_; }
    OverviewPage* overviewPage() const;
    HeadScoresPage* headScoresPage() const;
    PredictionPanel* predictionPanel() const;
    // Brings a centre page forward: "steps", "overview" or "scores" (the last two in model
    // mode). False for another name.
    bool showPage(const QString& name);
    // Every view has drawn the shown result: no thumbnails, scores, predictions or token
    // lines still on their way (screenshots wait for this).
    bool isSettled() const;
    QDockWidget* dock(const QString& objectName) const;

    // The message beside the control of `field` ("heads", "d_out", "input", ...), empty if none.
    QString fieldError(const QString& field) const;
    // Opens the lesson panel on the first screen of the chapter-3 tour (or of the trained
    // model's) and shows it.
    void startLesson(LessonKind kind = LessonKind::Chapter3);
    // Sizes and places the window for the screen it is on: fresh settings fill most of the
    // screen; a saved geometry larger than the screen is brought inside it. The frame (title
    // bar and borders) counts: it fits the screen's available geometry, a desktop's panels
    // left out.
    void fitToScreen();
    // Restores a saved geometry (a session's or the last run's) so that the whole frame, title
    // bar included, lies on the screen's available area, whatever screen it was saved on.
    // False when the data is not a geometry (nothing changes).
    bool restoreWindowGeometry(const QByteArray& geometry);

  protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    // A window manager frames the window after it is shown, and panels can grow: whenever the
    // frame is new or no longer fits the screen, the window is fitted again.
    bool event(QEvent* event) override;

  private:
    void createDocks();
    void createMenus();
    void createQuizMenu(QMenu* view);
    QAction* dockAction(QDockWidget* dock, const QString& text, const QKeySequence& shortcut);
    // The docks createDocks makes, kept (dock() finds them by object name among these).
    struct Docks {
        QDockWidget* input = nullptr;
        QDockWidget* shapes = nullptr;
        QDockWidget* explain = nullptr;
        QDockWidget* tokens = nullptr;
        QDockWidget* pytorch = nullptr;
        QDockWidget* compare = nullptr;
        QDockWidget* lesson = nullptr;
    } docks_;
    void restoreLayout();
    // The width the right column's tab bar needs for every docked panel's whole title.
    int rightTabsWidth() const;
    void saveLayout() const;

    Options options_;
    Workspace* workspace_ = nullptr;
    StepView* stepView_ = nullptr;
    SettingsColumn* column_ = nullptr;
    OpenActions* opens_ = nullptr;
    CentrePages* pages_ = nullptr;
    ShapesPanel* shapes_ = nullptr;
    ExplainPanel* explain_ = nullptr;
    TokenViewPanel* tokens_ = nullptr;
    CodePanel* code_ = nullptr;
    ComparePanel* compare_ = nullptr;
    TextViewPanel* text_ = nullptr;
    QTabWidget* tokenPages_ = nullptr;  // the token view's lines and coloured text
    LessonPanel* lesson_ = nullptr;
    LessonDriver* lessons_ = nullptr;
    SessionActions* sessions_ = nullptr;
    ExportActions* exports_ = nullptr;
    PresentationController* presentation_ = nullptr;
    class StatusLine* status_ = nullptr;
    ThemeActions* theme_ = nullptr;
    AblationActions* ablation_ = nullptr;
    LanguageActions* language_ = nullptr;
    HelpActions* help_ = nullptr;
    bool placed_ = false;
    bool sized_ = false;
    int compareWidth_ = 0;  // the right column's width before Compare widened it
    QSize decoration_;      // the frame's extra size when the window was last fitted
    bool refitQueued_ = false;
    // Checks again, a few times while the window manager frames the window, that the frame is
    // on the screen: see keepFrameOnScreen().
    void keepFrameOnScreen();
};

}  // namespace attn

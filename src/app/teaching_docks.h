#pragma once
// The teaching layer inside the main window: the Explain, Token view, PyTorch, Compare and Lesson
// docks, the Lesson menu, and the extras of presentation mode (full screen, high contrast, large
// caption, Space/Right and Left/Backspace step through the pipeline with a short fade).
// The main window owns one TeachingDocks; it reads the window's public state and listens to its
// viewChanged()/resultApplied() signals, so the window itself needs only a few hook lines.

#include <QByteArray>
#include <QFont>
#include <QObject>
#include <QPalette>
#include <QPointer>
#include <QString>
#include <memory>
#include <optional>

#include "app/app_types.h"
#include "export/heatmap_data.h"

class QAction;
class QCPItemRect;
class QCheckBox;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QShortcut;
class QTextBrowser;

namespace attn {

class CellFadeAnimator;
class CompareView;
class LessonPanel;
class MainWindow;
class PyTorchPanel;
class TokenView;
class TraceController;
struct LessonScreen;
struct RunSpec;
struct PreparedInput;

class TeachingDocks : public QObject {
    Q_OBJECT
  public:
    // The presets of the Compare dock.
    enum class ComparePreset {
        MaskingMethods,      // weights vs weights_renormalized of the current trace
        MaskNoneCausal,      // the current configuration with no mask vs the causal mask
        WrapperVsMultiHead,  // MultiHeadAttentionWrapper vs MultiHeadAttention
        DOut2Vs768           // d_out 2 vs d_out 768
    };

    // Creates the docks (hidden except Explain) and the menu entries of `window`.
    explicit TeachingDocks(MainWindow* window);
    ~TeachingDocks() override;

    QDockWidget* explainDock() const { return explainDock_; }
    QDockWidget* tokenDock() const { return tokenDock_; }
    QDockWidget* pytorchDock() const { return pytorchDock_; }
    QDockWidget* compareDock() const { return compareDock_; }
    QDockWidget* lessonDock() const { return lessonDock_; }

    // Explain: the step explanation, and the derivation of the last clicked cell.
    QString explanationHtml() const { return explainHtml_; }
    QString derivationHtml() const { return derivationHtml_; }
    QTextBrowser* explainBrowser() const { return explain_; }
    // What a click on the heatmap cell (row, col) does.
    void showCellDerivation(int row, int col);
    // The clicked cell is outlined on the heatmap until the heatmap changes.
    bool hasCellOutline() const;

    TokenView* tokenView() const { return tokenView_; }
    QCheckBox* allHeadsCheck() const { return allHeads_; }
    QString tokenViewStep() const { return tokenStep_; }

    PyTorchPanel* pytorchPanel() const { return pytorch_; }

    CompareView* compareView() const { return compare_; }
    void setComparePreset(ComparePreset preset);
    ComparePreset comparePreset() const;
    QString compareMessage() const;
    TraceController* compareController() const { return compareController_; }

    LessonPanel* lessonPanel() const { return lesson_; }
    // Opens the lesson dock on its first screen and applies it.
    void startLesson();
    // Applies a screen's input, configuration, step and head through the normal controller path.
    void applyLessonScreen(const LessonScreen& screen);

    // Presentation mode, called by MainWindow when F11 toggles.
    void setPresentation(bool on);
    bool isPresenting() const { return presenting_; }
    void presentationNext();
    void presentationPrevious();
    bool isAnimating() const;
    QString presentationCaption() const;

    // The RunSpec and input pytorchCode() needs for a result of the window.
    static void runSpecFor(const AppResult& result, const QString& embeddingsPath,
                           const QString& weightsPath, RunSpec* spec, PreparedInput* input);

  signals:
    // The compare dock shows a new comparison (or its explanation why not).
    void compareUpdated();
    // The PyTorch code was regenerated.
    void pytorchUpdated();

  private:
    void createExplainDock();
    void createTokenDock();
    void createPytorchDock();
    void createCompareDock();
    void createLessonDock();
    void createMenus();
    void createPresentationKeys();

    void onViewChanged();
    void onResultApplied();
    void refreshExplain();
    void refreshTokenView();
    void refreshPytorch();
    void refreshCompare();
    void submitCompare();
    void onCompareResult(const AppResult& result);
    void setCompareMessage(const QString& text);
    void stepBy(int delta);
    void growDock(QDockWidget* dock, double fraction);
    void outlineCell(int row, int col);

    MainWindow* window_;
    QDockWidget* explainDock_ = nullptr;
    QDockWidget* tokenDock_ = nullptr;
    QDockWidget* pytorchDock_ = nullptr;
    QDockWidget* compareDock_ = nullptr;
    QDockWidget* lessonDock_ = nullptr;

    QTextBrowser* explain_ = nullptr;
    QString explainHtml_;
    QString derivationHtml_;
    QString derivedKey_;  // step/head/batch of the derivation shown
    QList<QPointer<QCPItemRect>> outline_;

    TokenView* tokenView_ = nullptr;
    QCheckBox* allHeads_ = nullptr;
    QLabel* tokenNote_ = nullptr;
    QString tokenStep_;

    PyTorchPanel* pytorch_ = nullptr;
    quint64 pytorchGeneration_ = 0;

    CompareView* compare_ = nullptr;
    QComboBox* comparePresetCombo_ = nullptr;
    QLabel* compareNote_ = nullptr;
    TraceController* compareController_ = nullptr;
    std::optional<AppResult> compareResult_;
    quint64 compareForGeneration_ = 0;  // the window's result the comparison was submitted for
    int compareForPreset_ = -1;
    bool compareWaiting_ = false;

    LessonPanel* lesson_ = nullptr;
    QAction* lessonAction_ = nullptr;
    QAction* compareAction_ = nullptr;

    bool presenting_ = false;
    bool wasMaximized_ = false;
    QByteArray geometry_;
    bool lessonWasVisible_ = false;
    bool hadPalette_ = false;
    bool hadFont_ = false;
    QPalette oldPalette_;
    QFont oldFont_;
    CellFadeAnimator* animator_ = nullptr;
    QList<QShortcut*> presentationKeys_;
};

}  // namespace attn

#pragma once
// The Attention Lens main window: Input + Model dock on the left, the pipeline strip, heatmap
// and head grid in the middle, the shape trace on the right, status and progress at the bottom.
// All computing happens in the TraceController's worker thread.

#include <QFont>
#include <QMainWindow>
#include <QPointer>
#include <QString>
#include <map>
#include <memory>
#include <optional>

#include "app/app_types.h"
#include "export/heatmap_data.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;
class QActionGroup;

namespace Ui {
class MainWindow;
}

namespace attn {

class TraceController;
class HeatmapView;
class HeadGrid;
class TokenChips;
class FileActions;
class TeachingDocks;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    struct Options {
        bool useSettings = true;   // restore and save QSettings (off in tests and screenshots)
        bool restoreState = true;  // also restore the last input and model settings
    };
    explicit MainWindow(QWidget* parent = nullptr);
    explicit MainWindow(Options options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Sets every control from `state` and starts a trace.
    void setState(const AppState& state);
    // The state the controls describe now.
    AppState state() const;

    QString currentStep() const { return step_; }
    void selectStep(const QString& id);
    int currentHead() const { return head_; }
    void selectHead(int head);

    // The result shown (the last good one; may be stale). Null before the first success.
    const AppResult* shownResult() const { return shown_ ? &*shown_ : nullptr; }
    quint64 appliedGeneration() const { return appliedGeneration_; }
    bool isStale() const;
    // The message shown beside the control of `field` ("heads", "d_out", ...), empty if none.
    QString fieldError(const QString& field) const;
    QStringList pipelineSteps() const;
    QString stepCaption() const;

    // True while control changes wait for the next event-loop turn to be submitted.
    bool hasPendingChanges() const;
    TraceController* controller() const { return controller_; }
    HeatmapView* heatmapView() const;
    HeadGrid* headGrid() const;
    TokenChips* tokenChips() const;

    // Non-interactive export of the current heatmap: PNG (scale factor), SVG or PDF by
    // extension. Returns false and sets `error` on failure.
    bool exportImage(const QString& path, double scale, QString* error);
    // Loads x or the weights from a file (attn_io). Returns false with a message on failure.
    bool loadEmbeddings(const QString& path, QString* error);
    bool loadWeights(const QString& path, QString* error);
    void setColormapName(const QString& name);  // "auto" or a colormap name
    // The files loaded now (as given to loadEmbeddings/loadWeights), empty if none.
    QString loadedEmbeddingsPath() const { return embeddingsPath_; }
    QString loadedWeightsPath() const { return weightsPath_; }
    // File > Forget loaded files.
    void forgetLoadedFiles() { clearLoaded(); }
    // Sessions and exports (File menu, heatmap context menu).
    FileActions* fileActions() const { return fileActions_; }
    // The teaching docks (Explain, Token view, PyTorch, Compare, Lesson) and presentation extras.
    TeachingDocks* teaching() const { return teaching_; }

  signals:
    // Emitted after the views show the outcome of request `generation` (a new result, or the
    // errors of an invalid configuration with the old result kept stale).
    void resultApplied(quint64 generation);
    // The user changed something a session saves (a control, the step, head, colormap, ...).
    void viewChanged();

  protected:
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void setupControls();
    void setupMenus();
    void setupStatusBar();
    void setupFieldErrors();
    void connectControls();

    void controlsChanged();
    void scheduleSubmit();
    void submitNow();
    void applyPreset(int index);
    void syncPresetCombo();
    void refreshEnabledControls();
    void refreshSourceLabel();
    void writeStateToControls(const AppState& s);

    void onTokens(const TokensUpdate& update);
    void onResult(const AppResult& result);
    void onBusyChanged(bool busy);
    void onProgress(quint64 generation, int done, int total, const QString& stepId);

    void setPipeline(const std::vector<StepInfo>& steps);
    void fitPipelineHeight();
    void fitChipsHeight();
    void fillShapeTable(const std::vector<StepInfo>& steps, int64_t parameterCount,
                        const std::vector<std::pair<std::string, Shape>>& params);
    void updateStepViews();
    void updateCaption(const StepInfo* info);
    void setFieldErrors(const std::vector<ValidationIssue>& issues);
    void setStale(bool stale);
    Colormap effectiveColormap(const HeatmapData& data) const;

    void exportInteractive();
    void copyImage();
    void loadEmbeddingsInteractive();
    void loadWeightsInteractive();
    void loadInteractive(const QString& title, const QString& filter, const QString& field,
                         bool (MainWindow::*load)(const QString&, QString*));
    void clearLoaded();
    void togglePresentation(bool on);
    void about();
    void loadSettings();
    void saveSettings() const;

    std::unique_ptr<Ui::MainWindow> ui;
    Options options_;
    TraceController* controller_ = nullptr;
    QTimer* submitTimer_ = nullptr;
    QTimer* busyTimer_ = nullptr;
    bool updating_ = false;

    InputSource source_ = InputSource::Book;
    std::shared_ptr<const Tensor> fileEmbeddings_;
    QString embeddingsName_;
    QString embeddingsPath_;
    std::shared_ptr<const WeightMap> weights_;
    QString weightsName_;
    QString weightsPath_;
    QString step_ = QStringLiteral("weights");
    int head_ = 0;
    int batchIndex_ = 0;
    QString colormap_ = QStringLiteral("auto");
    int64_t lastTokenCount_ = 6;
    std::vector<StepInfo> plan_;

    std::optional<AppResult> shown_;
    quint64 appliedGeneration_ = 0;
    quint64 requestedGeneration_ = 0;

    struct FieldError {
        QList<QWidget*> controls;
        QLabel* label = nullptr;
    };
    std::map<QString, FieldError> fieldErrors_;

    QLabel* tokensStatus_ = nullptr;
    QLabel* modelStatus_ = nullptr;
    QLabel* timeStatus_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QActionGroup* colormapGroup_ = nullptr;
    FileActions* fileActions_ = nullptr;
    TeachingDocks* teaching_ = nullptr;
    bool headGridWasVisible_ = false;
    QByteArray prePresentationState_;
    std::vector<std::pair<QWidget*, QFont>> presentationFonts_;
};

}  // namespace attn

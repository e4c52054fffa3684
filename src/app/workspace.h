#pragma once
// What the window is about: the settings, the files they name (read once, kept while the user
// types) and the result the views show. Every panel reads it and changes it through it, and
// listens to its signals; what a panel needs of another (an export of the step view's figure,
// the lesson driver's centre page) the main window wires up when it builds them. Changes the
// user makes to the input or the module are undoable; changes of what the views show (step,
// head, colours) are not, as in any viewer.

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <vector>

#include "app/trace_jobs.h"

class QTimer;
class QUndoStack;

namespace attn {

class ModelLoader;
class TraceController;

// The settings and the files and model they name, as one value: what undo restores.
struct WorkspaceState {
    WorkspaceState() = default;
    // Settings and files without a model: a model is only ever set by reading its file.
    WorkspaceState(Settings s, InputFiles f) : settings(std::move(s)), files(std::move(f)) {}

    Settings settings;
    InputFiles files;
    std::shared_ptr<const DecoderModel> model;  // model mode: the model settings.model names
    // io::modelContentSha256 of the model's file or folder (sessions keep it): computed after
    // the model is shown, so empty until then; a session's own while its model is being read.
    QString modelSha256;
};

class Workspace : public QObject {
    Q_OBJECT
  public:
    explicit Workspace(QObject* parent = nullptr);
    ~Workspace() override;

    const Settings& settings() const { return state_.settings; }
    const InputFiles& files() const { return state_.files; }
    // Model mode: the model in use (null in the chapter-3 mode, and while it is being read).
    const std::shared_ptr<const DecoderModel>& model() const { return state_.model; }

    // A user's change of the settings: undoable under the name `what` ("Change d_out"), and
    // recomputed when anything beyond the view changed. Consecutive text edits merge into one
    // undo step. The view fields of `next` are applied too, but undo never moves the view.
    void change(const Settings& next, const QString& what);
    // Replaces settings and files without undo (opening a session, launch options, a lesson
    // screen, presets): the undo history starts again from here.
    void reset(const WorkspaceState& state);
    QUndoStack* undoStack() const { return undo_; }

    // What the views show: no recompute, no undo.
    void selectStep(const QString& id);
    void selectHead(int head);
    void selectBatchEntry(int index);
    void setColormap(const QString& name);  // "auto" or a colormapName()
    void setShowValues(bool on);
    void setDecimals(int decimals);  // clamped to kMinDecimals .. kMaxDecimals
    void setColorScale(ColorScale scale);
    // The heatmap cell the user clicked (whose derivation the Explain panel shows), row and
    // column of the shown step's matrix; (-1, -1) for none. Forgotten when the matrix changes.
    void selectCell(int row, int col);
    int selectedRow() const { return cellRow_; }
    int selectedColumn() const { return cellCol_; }

    // Reads a file as the input (InputSource::File) or as the module's weights, undoably. The
    // file's sizes set d_in and the batch (embeddings) or the context length (the mask buffer
    // of a weights file, unless the user has set the context length: then they must agree).
    // False with the reason in `error` when the file cannot be used; nothing changes then.
    bool openEmbeddings(const QString& path, QString* error);
    bool openWeights(const QString& path, QString* error);
    // Back to typed text and drawn weights (undoable).
    void forgetFiles();

    // Model mode. openModel reads a model file (or a bundled model by name) off the GUI thread;
    // once read it replaces the chapter-3 module (undoably), and until then, or when it cannot
    // be read, everything stays as it was (modelFailed says why). useModuleOfTheChapter goes back
    // to the chapter-3 module (undoably).
    // A single file of a Llama, Qwen or Gemma model needs `configPath`, its config.json; without
    // one, modelConfigNeeded asks for it.
    void openModel(const QString& nameOrPath, const QString& configPath = {});
    void cancelModelLoading();
    bool isLoadingModel() const;
    void useModuleOfTheChapter();
    // Model mode: the text continued by the generated tokens' `bytes` (after the book's sentence
    // too), undoably, with `ids` (the text's tokens and the new ones) kept as its tokens, so the
    // model reads what it generated (Settings::tokenIds).
    void appendToText(std::vector<int64_t> ids, const std::string& bytes, const QString& what);
    // Model mode, DESIGN.md, Asking a model why: ablation (undoable): switch head `head` of layer
    // `layer` off (what it writes is replaced, Settings::ablation) or back on; every head back on;
    // how a head is switched off (zero or its mean).
    void setHeadAblated(int layer, int head, bool off);
    void restoreAllHeads();
    void setAblationMode(AblationMode mode);
    // The block whose attention the step views show (model mode); not undoable, like the step.
    void selectLayer(int layer);
    // The SHA-256 of the model in use (io::modelContentSha256), for sessions; empty for the
    // chapter-3 module and until it is computed, a few seconds after the model is shown.
    QString modelSha256() const { return state_.modelSha256; }
    // Notes on the last change a file made ("The context length is 6, the size of the mask
    // buffer in w.safetensors."), until the next change.
    QStringList fileNotes() const { return fileNotes_; }

    // The last good result (kept, greyed as stale, while the settings cannot run or a newer one
    // computes); null before the first.
    const TraceOutcome* shown() const { return shown_ ? &*shown_ : nullptr; }
    const TraceRun* shownRun() const { return shown_ ? &shown_->run : nullptr; }
    // The generation of the shown result (0 before the first): what a view compares to know
    // whether the result is new, since a later trace may reuse an earlier one's address.
    quint64 shownGeneration() const { return shown_ ? shown_->generation : 0; }
    // The step the views show: settings().step if the shown trace has it, else the weights,
    // else the output. Null before a result.
    const Step* shownStep() const;
    // True when what is shown is not what the settings describe.
    bool isStale() const { return stale_; }
    // The problems of the settings as they are now, each with the field of its control.
    const std::vector<ValidationIssue>& issues() const { return issues_; }
    // The messages for one field ("heads", "d_out", ...), one per line; empty when fine.
    QString issue(const QString& field) const;
    // The newest tokens (they arrive before the trace).
    const InputTokens& tokens() const { return tokens_; }
    // The text the input box shows: the settings' text, or, while token ids given instead of
    // text are the input (Settings::inputIds), what those tokens spell (the text is unread then).
    QString shownText() const;
    // The steps the current settings make, before their result exists (for the pipeline strip
    // and the shape table while typing); empty when the settings cannot run.
    std::vector<StepInfo> plannedSteps() const;

    TraceController* controller() const { return controller_; }
    bool isBusy() const;
    // True while a change waits for the next event-loop turn to be computed.
    bool hasPendingWork() const;
    quint64 latestGeneration() const;
    quint64 appliedGeneration() const { return applied_; }
    void cancel();

  signals:
    // Any settings field changed (view fields included); `before` is what they were.
    void settingsChanged(const attn::Settings& before);
    // The files changed (opened, forgotten, or restored by undo or a session).
    void filesChanged();
    void tokensChanged();
    // The outcome of generation `generation` was applied: a new result, the issues of settings
    // that cannot run (the old result kept, stale), or a cancel.
    void resultApplied(quint64 generation);
    void staleChanged(bool stale);
    void busyChanged(bool busy);
    void progress(int done, int total, const QString& stepId);
    void cellSelected(int row, int col);
    // Model mode: reading a model file (progress, done or failed), and each block of a forward
    // as it finishes (the overview fills in layer by layer).
    void modelLoadingChanged(bool loading);
    void modelLoadProgress(int done, int total, const QString& what);
    void modelFailed(const QString& nameOrPath, const QString& message);
    // The file the user opened needs its config.json (`message` says why); nothing changed.
    void modelConfigNeeded(const QString& nameOrPath, const QString& message);
    void modelChanged();
    // A note about the model in use arrived after its result (fileNotes()).
    void modelNotesChanged();
    void layerComputed(const attn::LayerUpdate& update);

  private:
    friend class SettingsCommand;
    void apply(const WorkspaceState& state, bool keepView);
    void scheduleCompute();
    void computeNow();
    void onOutcome(const TraceOutcome& outcome);
    void onModelFailed(const QString& name, const QString& why);
    void setStale(bool stale);
    void updateView(const Settings& next);

    WorkspaceState state_;
    TraceController* controller_ = nullptr;
    ModelLoader* loader_ = nullptr;
    QString loadingModel_;  // the name or path being read, empty when none
    QUndoStack* undo_ = nullptr;
    QTimer* computeTimer_ = nullptr;
    std::optional<TraceOutcome> shown_;
    std::vector<ValidationIssue> issues_;
    InputTokens tokens_;
    QStringList fileNotes_;
    QString expectedModelSha256_;  // the hash a session recorded for the model being shown
    bool stale_ = false;
    quint64 applied_ = 0;
    int cellRow_ = -1;
    int cellCol_ = -1;
};

// True when `a` and `b` compute the same trace (they may differ in what the views show).
bool sameComputation(const Settings& a, const Settings& b);

}  // namespace attn

#include "app/workspace.h"

#include <QDateTime>
#include <QFileInfo>
#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>
#include <algorithm>

#include "app/model_loader.h"
#include "app/trace_controller.h"
#include "engine/weight_check.h"
#include "io/loaders.h"
#include "pipeline/issue_text.h"
#include "pipeline/step_files.h"

namespace attn {

namespace {

// The settings with what only the views show taken from `view`.
// `s` with the view fields of `view`: every field settings.cpp tags SettingGroup::View.
Settings withView(Settings s, const Settings& view) {
    for (const SettingField& f : settingFields())
        if (f.group == SettingGroup::View)
            f.set(s, f.get(view));  // a value a Settings holds always sets
    return s;
}

bool sameFiles(const WorkspaceState& a, const WorkspaceState& b) {
    return a.files.embeddings == b.files.embeddings && a.files.weights == b.files.weights &&
           a.model == b.model;
}

// Changes of one kind merge into one undo step while they come less than this apart.
constexpr qint64 kTypingMergeMs = 1500;

}  // namespace

bool sameComputation(const Settings& a, const Settings& b) {
    return withView(a, b) == b;
}

// One undoable change of the settings and files. Repeated changes of the same kind in quick
// succession (the keys of one word, the digits of one number) merge into one step.
class SettingsCommand : public QUndoCommand {
  public:
    SettingsCommand(Workspace* w, WorkspaceState before, WorkspaceState after, const QString& what,
                    bool mergeable)
        : QUndoCommand(what),
          w_(w),
          before_(std::move(before)),
          after_(std::move(after)),
          mergeable_(mergeable),
          at_(QDateTime::currentMSecsSinceEpoch()) {}

    void undo() override { w_->apply(before_, true); }
    void redo() override {
        // The first redo is the change itself, already applied by the Workspace.
        if (first_) {
            first_ = false;
            return;
        }
        w_->apply(after_, true);
    }
    int id() const override { return mergeable_ ? 1 : -1; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = static_cast<const SettingsCommand*>(other);
        if (!o->mergeable_ || o->text() != text() || o->at_ - at_ > kTypingMergeMs)
            return false;
        after_ = o->after_;
        at_ = o->at_;
        return true;
    }

  private:
    Workspace* w_;
    WorkspaceState before_, after_;
    bool mergeable_;
    qint64 at_;
    bool first_ = true;
};

Workspace::Workspace(QObject* parent) : QObject(parent) {
    controller_ = new TraceController(this);
    undo_ = new QUndoStack(this);
    computeTimer_ = new QTimer(this);
    computeTimer_->setSingleShot(true);
    computeTimer_->setInterval(0);  // coalesce the changes of one event-loop turn
    connect(computeTimer_, &QTimer::timeout, this, &Workspace::computeNow);
    connect(controller_, &TraceController::tokensReady, this, [this](const TokensUpdate& u) {
        tokens_ = u.input;
        emit tokensChanged();
    });
    connect(controller_, &TraceController::resultReady, this, &Workspace::onOutcome);
    connect(controller_, &TraceController::busyChanged, this, &Workspace::busyChanged);
    connect(controller_, &TraceController::layerReady, this, &Workspace::layerComputed);
    loader_ = new ModelLoader(this);
    connect(loader_, &ModelLoader::loadingChanged, this, &Workspace::modelLoadingChanged);
    connect(loader_, &ModelLoader::progress, this, &Workspace::modelLoadProgress);
    connect(loader_, &ModelLoader::configNeeded, this,
            [this](const QString& name, const QString& why) {
                // Asked of the user only when the user opened the file; a model a session or the
                // command line named without its config is a model that cannot be read.
                if (state_.settings.modelFile == name && !state_.model) {
                    onModelFailed(name, why);
                    return;
                }
                loadingModel_.clear();
                emit modelConfigNeeded(name, why);
            });
    connect(loader_, &ModelLoader::failed, this, &Workspace::onModelFailed);
    connect(loader_, &ModelLoader::loaded, this,
            [this](const QString& name, const QString& configPath,
                   std::shared_ptr<const DecoderModel> model) {
                loadingModel_.clear();
                WorkspaceState next = state_;
                const bool sessionWaiting = state_.settings.modelFile == name && !state_.model;
                // A session remembers the hash of what it was saved with: said when the model's
                // own hash arrives and differs.
                expectedModelSha256_ = sessionWaiting ? state_.modelSha256 : QString();
                next.model = std::move(model);
                next.modelSha256.clear();
                // Switched-off heads belong to the model they were switched off in; a session
                // that names this model brings its own.
                if (!sessionWaiting && name != state_.settings.modelFile)
                    next.settings.ablation = {};
                next.settings.modelFile = name;
                next.settings.modelConfigFile = configPath;
                next.settings.layer =
                    std::clamp(next.settings.layer, 0, int(next.model->arch.layers) - 1);
                const WorkspaceState before = state_;
                apply(next, false);
                if (!sessionWaiting)  // a session or launch that named it is not a user's change
                    undo_->push(new SettingsCommand(
                        this, before, next, tr("Open model %1").arg(QFileInfo(name).fileName()),
                        false));
            });
    connect(loader_, &ModelLoader::hashed, this, [this](const QString& name, const QString& sha) {
        if (state_.settings.modelFile != name || !state_.model)
            return;
        // Not a change the user made: the hash only completes the model in use.
        state_.modelSha256 = sha;
        if (!expectedModelSha256_.isEmpty() && !sha.isEmpty() && expectedModelSha256_ != sha) {
            fileNotes_ << tr("The model %1 has changed since the session was saved; its current "
                             "contents are used.")
                              .arg(name);
            emit modelNotesChanged();
        }
        expectedModelSha256_.clear();
    });
    connect(controller_, &TraceController::progress, this,
            [this](quint64, int done, int total, const QString& id) {
                emit progress(done, total, id);
            });
    scheduleCompute();
}

Workspace::~Workspace() = default;

void Workspace::apply(const WorkspaceState& next, bool keepView) {
    const Settings before = state_.settings;
    const bool filesChanged = !sameFiles(state_, next);
    const bool modelChanged = state_.model != next.model;
    state_.settings = keepView ? withView(next.settings, before) : next.settings;
    // The layer is picked like the step, without an undo step of its own: undoing a change of
    // the text keeps the layer on screen while the model stays the same.
    if (keepView && state_.settings.modelFile == before.modelFile)
        state_.settings.layer = before.layer;
    state_.files = next.files;
    state_.model = next.model;
    state_.modelSha256 = next.modelSha256;
    if (!sameComputation(before, state_.settings) || filesChanged)
        scheduleCompute();
    if (filesChanged)
        emit this->filesChanged();
    if (modelChanged)
        emit this->modelChanged();
    if (!(before == state_.settings))
        emit settingsChanged(before);
}

void Workspace::change(const Settings& next, const QString& what) {
    if (next == state_.settings)
        return;
    if (sameComputation(next, state_.settings)) {
        updateView(next);
        return;
    }
    fileNotes_.clear();
    const WorkspaceState before = state_;
    WorkspaceState after = state_;
    after.settings = next;
    if (next.modelFile != state_.settings.modelFile) {
        // Only openModel reads a model: settings that name another one (or none) drop it.
        after.model.reset();
        after.modelSha256.clear();
    }
    apply(after, false);
    undo_->push(new SettingsCommand(this, before, after, what, true));
}

void Workspace::reset(const WorkspaceState& state) {
    fileNotes_.clear();
    undo_->clear();
    apply(state, false);
}

void Workspace::updateView(const Settings& next) {
    const Settings before = state_.settings;
    state_.settings = withView(state_.settings, next);
    if (before == state_.settings)
        return;
    if (before.step != state_.settings.step || before.head != state_.settings.head ||
        before.batchIndex != state_.settings.batchIndex)
        selectCell(-1, -1);  // another matrix: the clicked cell no longer means anything
    emit settingsChanged(before);
}

void Workspace::selectCell(int row, int col) {
    if (row == cellRow_ && col == cellCol_)
        return;
    cellRow_ = row;
    cellCol_ = col;
    emit cellSelected(row, col);
}

void Workspace::selectStep(const QString& id) {
    Settings s = state_.settings;
    s.step = id;
    updateView(s);
}

void Workspace::selectHead(int head) {
    Settings s = state_.settings;
    s.head = std::max(0, head);
    updateView(s);
}

void Workspace::selectBatchEntry(int index) {
    Settings s = state_.settings;
    s.batchIndex = std::max(0, index);
    updateView(s);
}

void Workspace::setColormap(const QString& name) {
    Settings s = state_.settings;
    s.colormap = parseColormap(name.toStdString()) ? name : QStringLiteral("auto");
    updateView(s);
}

void Workspace::setShowValues(bool on) {
    Settings s = state_.settings;
    s.showValues = on;
    updateView(s);
}

void Workspace::setDecimals(int decimals) {
    Settings s = state_.settings;
    s.decimals = std::clamp(decimals, kMinDecimals, kMaxDecimals);
    updateView(s);
}

void Workspace::setColorScale(ColorScale scale) {
    Settings s = state_.settings;
    s.colorScale = scale;
    updateView(s);
}

bool Workspace::openEmbeddings(const QString& path, QString* error) {
    try {
        WorkspaceState next = state_;
        next.files.embeddings = readEmbeddings(path);
        next.settings.source = InputSource::File;
        next.settings.embeddingsFile = path;
        // The file decides d_in and (for (b, T, d_in)) the batch size.
        fitSettingsToFiles(&next.settings, InputFiles{next.files.embeddings, nullptr},
                           givenSizes(state_.settings, {}));
        const WorkspaceState before = state_;
        apply(next, false);
        fileNotes_.clear();
        undo_->push(new SettingsCommand(this, before, next,
                                        tr("Open %1").arg(QFileInfo(path).fileName()), false));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = errorText(e);
        return false;
    }
}

bool Workspace::openWeights(const QString& path, QString* error) {
    try {
        WorkspaceState next = state_;
        next.files.weights = readWeights(path);
        next.settings.weightsFile = path;
        const QStringList notes =
            fitSettingsToFiles(&next.settings, InputFiles{nullptr, next.files.weights},
                               givenSizes(state_.settings, {}));
        // Weights that do not fit the module are refused, and the ones in use stay.
        if (variantHasWeights(next.settings.config.variant))
            checkWeights(*next.files.weights, next.settings.config,
                         QFileInfo(path).fileName().toStdString());
        const WorkspaceState before = state_;
        apply(next, false);
        fileNotes_ = notes;
        undo_->push(new SettingsCommand(this, before, next,
                                        tr("Open %1").arg(QFileInfo(path).fileName()), false));
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = errorText(e);
        return false;
    }
}

void Workspace::forgetFiles() {
    if (!state_.files.embeddings && !state_.files.weights)
        return;
    WorkspaceState next = state_;
    next.files = {};
    next.settings.embeddingsFile.clear();
    next.settings.weightsFile.clear();
    if (next.settings.source == InputSource::File)
        next.settings.source = InputSource::Text;
    const WorkspaceState before = state_;
    apply(next, false);
    fileNotes_.clear();
    undo_->push(new SettingsCommand(this, before, next, tr("Forget loaded files"), false));
}

const Step* Workspace::shownStep() const {
    const TraceRun* run = shownRun();
    return run ? stepToShow(*run->trace, state_.settings.step.toStdString()) : nullptr;
}

QString Workspace::issue(const QString& field) const {
    QStringList lines;
    for (const ValidationIssue& i : issues_)
        if (QString::fromStdString(i.field) == field)
            lines << QString::fromStdString(i.message);
    return lines.join(QLatin1Char('\n'));
}

std::vector<StepInfo> Workspace::plannedSteps() const {
    const int64_t tokens = std::max<int64_t>(1, tokens_.count());
    if (state_.settings.modelMode())
        return state_.model ? plannedModelSteps(state_.model->arch, state_.settings.layer, tokens,
                                                state_.settings.config.simpleMaskSteps)
                            : std::vector<StepInfo>{};
    if (!validate(state_.settings.config, tokens).empty())
        return {};
    return planSteps(state_.settings.config, tokens);
}

bool Workspace::isBusy() const {
    return controller_->isBusy();
}

bool Workspace::hasPendingWork() const {
    return computeTimer_->isActive();
}

quint64 Workspace::latestGeneration() const {
    return controller_->latestGeneration();
}

void Workspace::cancel() {
    controller_->cancel();
}

void Workspace::scheduleCompute() {
    if (!computeTimer_->isActive())
        computeTimer_->start();
}

void Workspace::computeNow() {
    const Settings& s = state_.settings;
    if (s.modelMode() && (!state_.model || !loadingModel_.isEmpty())) {
        // Named by a session or the command line but not read yet: read it, then compute.
        if (loadingModel_.isEmpty() && !state_.model) {
            loadingModel_ = s.modelFile;
            loader_->load(s.modelFile, s.modelConfigFile);
        }
        return;
    }
    TraceJob job{0, s, state_.files, state_.model, nullptr, nullptr};
    if (s.modelMode() && shown_ && shown_->model == state_.model) {
        job.previousRun = shown_->modelRun;
        job.previousBaseline = shown_->baselineRun;
    }
    controller_->submit(job);
}

void Workspace::onModelFailed(const QString& name, const QString& why) {
    loadingModel_.clear();
    if (state_.settings.modelMode() && !state_.model) {
        // The settings named it (a session, the command line, a lesson) and it cannot be
        // read: the chapter-3 module is shown instead, and the notes say why. Reading it
        // again would only fail again.
        WorkspaceState next = state_;
        next.settings.modelFile.clear();
        next.settings.modelConfigFile.clear();
        next.modelSha256.clear();
        apply(next, false);
        fileNotes_ << tr("The model %1 could not be read, so the chapter-3 module is shown: "
                         "%2")
                          .arg(name, why);
    }
    emit modelFailed(name, why);
    scheduleCompute();  // whatever waited for the model shows what it has
}

void Workspace::openModel(const QString& nameOrPath, const QString& configPath) {
    loadingModel_ = nameOrPath;
    loader_->load(nameOrPath, configPath);
}

void Workspace::cancelModelLoading() {
    if (loadingModel_.isEmpty())
        return;
    loadingModel_.clear();
    loader_->cancel();
    if (state_.settings.modelMode() && !state_.model) {
        // A session's model that is not read: back to the chapter's module.
        WorkspaceState next = state_;
        next.settings.modelFile.clear();
        next.settings.modelConfigFile.clear();
        apply(next, false);
    }
}

bool Workspace::isLoadingModel() const {
    return !loadingModel_.isEmpty();
}

void Workspace::useModuleOfTheChapter() {
    if (!state_.settings.modelMode())
        return;
    cancelModelLoading();
    WorkspaceState next = state_;
    next.settings.modelFile.clear();
    next.settings.modelConfigFile.clear();
    next.settings.ablation = {};
    next.model.reset();
    next.modelSha256.clear();
    const WorkspaceState before = state_;
    apply(next, false);
    undo_->push(new SettingsCommand(this, before, next, tr("Use the chapter's module"), false));
}

namespace {

// The bytes the tokens spell, without what the tokenizer added (<bos>).
std::string spelledBytes(const std::vector<Token>& tokens) {
    std::string spelled;
    for (const Token& t : tokens)
        if (!t.addedByTokenizer)
            spelled += t.bytes;
    return spelled;
}

}  // namespace

QString Workspace::shownText() const {
    const Settings& s = state_.settings;
    if (!s.idsAreInput() || tokens_.tokens.empty())
        return s.inputText();
    const std::string spelled = spelledBytes(tokens_.tokens);
    return QString::fromUtf8(spelled.data(), qsizetype(spelled.size()));
}

void Workspace::appendToText(std::vector<int64_t> ids, const std::string& bytes,
                             const QString& what) {
    Settings s = state_.settings;
    QString text = s.inputText() + QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
    // When the text's tokens are the ids continued, the new text is their bytes and the new
    // ones read as characters together: a character the model spelled in byte tokens over
    // two appends (its first byte U+FFFD until the rest came) comes out whole. Token ids given
    // instead of text are the text too: it continues what they spell, and the ids, kept as its
    // tokens, stop being a separate input (else the text grew and the tokens stayed).
    const std::vector<Token>& now = tokens_.tokens;
    if (!now.empty() && ids.size() >= now.size() &&
        std::equal(now.begin(), now.end(), ids.begin(),
                   [](const Token& t, int64_t id) { return t.id == id; })) {
        std::string spelled = spelledBytes(now);
        if (!s.inputIds.empty() ||
            QString::fromUtf8(spelled.data(), qsizetype(spelled.size())) == s.inputText()) {
            spelled += bytes;
            text = QString::fromUtf8(spelled.data(), qsizetype(spelled.size()));
        }
    }
    s.inputIds.clear();
    s.tokenIds = std::move(ids);
    s.text = text;
    s.source = InputSource::Text;
    change(s, what);
}

void Workspace::setHeadAblated(int layer, int head, bool off) {
    if (!state_.settings.modelMode() || layer < 0 || head < 0)
        return;
    Settings s = state_.settings;
    std::vector<HeadRef>& heads = s.ablation.heads;
    const HeadRef ref{layer, head};
    const auto at = std::lower_bound(heads.begin(), heads.end(), ref);
    const bool isOff = at != heads.end() && *at == ref;
    if (off == isOff)
        return;
    if (off)
        heads.insert(at, ref);
    else
        heads.erase(at);
    change(s, off ? tr("Switch head L%1H%2 off").arg(layer).arg(head)
                  : tr("Switch head L%1H%2 back on").arg(layer).arg(head));
}

void Workspace::restoreAllHeads() {
    Settings s = state_.settings;
    s.ablation.heads.clear();
    change(s, tr("Switch every head back on"));
}

void Workspace::setAblationMode(AblationMode mode) {
    Settings s = state_.settings;
    s.ablation.mode = mode;
    change(s, mode == AblationMode::Mean ? tr("Switch heads off to their mean")
                                         : tr("Switch heads off to zero"));
}

void Workspace::selectLayer(int layer) {
    if (layer == state_.settings.layer || layer < 0)
        return;
    WorkspaceState next = state_;
    next.settings.layer = layer;
    apply(next, false);
}

void Workspace::setStale(bool stale) {
    if (stale == stale_)
        return;
    stale_ = stale;
    emit staleChanged(stale);
}

void Workspace::onOutcome(const TraceOutcome& outcome) {
    applied_ = outcome.generation;
    if (outcome.ok()) {
        issues_.clear();
        shown_ = outcome;
        selectCell(-1, -1);  // new numbers: a derivation of the old ones would mislead
        // The selectors follow the result: a head or batch entry beyond it is brought in range.
        const Config& c = outcome.run.trace->config;
        Settings s = state_.settings;
        s.head = std::clamp(s.head, 0, int(std::max<int64_t>(1, c.effectiveHeads())) - 1);
        s.batchIndex = std::clamp(s.batchIndex, 0, int(std::max<int64_t>(1, c.batch)) - 1);
        updateView(s);
        setStale(false);
    } else {
        if (!outcome.cancelled)
            issues_ = outcome.issues;
        setStale(shown_.has_value());
    }
    emit resultApplied(outcome.generation);
}

}  // namespace attn

#include "app/compare_panel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "app/model_loader.h"
#include "app/model_picker.h"
#include "app/panel_helpers.h"
#include "app/trace_controller.h"
#include "app/workspace.h"
#include "engine/step_ids.h"
#include "export/heatmap_data.h"
#include "pipeline/model_request.h"
#include "pipeline/step_files.h"
#include "teach/compare_view.h"
#include "teach/lesson.h"

namespace attn {

namespace {

QString maskWords(const MaskSpec& m) {
    switch (m.kind) {
        case MaskKind::None:
            return ComparePanel::tr("no mask");
        case MaskKind::Causal:
            return ComparePanel::tr("causal mask");
        case MaskKind::Window:
            return ComparePanel::tr("window mask (K = %1)").arg(m.window);
    }
    return {};
}

// The coreference pair of the Winograd schema: "it" is the animal in one, the street in the
// other, and one word tells them apart.
const char* const kTired = "because it was too tired";
const char* const kWide = "because it was too wide";

// The text of row `i` of a run's input: its token's bytes, or (the book's vectors, an embeddings
// file) its label, without the spaces around it.
QString rowText(const InputTokens& in, size_t i) {
    const std::string& t = i < in.tokens.size() ? in.tokens[i].bytes : in.labels[i];
    return QString::fromStdString(t).trimmed();
}

// How many leading rows two models' inputs share: the same text, token by token.
size_t sharedRows(const InputTokens& a, const InputTokens& b) {
    size_t same = 0;
    while (same < a.labels.size() && same < b.labels.size() && rowText(a, same) == rowText(b, same))
        ++same;
    return same;
}

// What the two models' maps of one text are: the same tokens (B − A cell by cell), as many
// tokens cut differently (B − A compares positions, not tokens), or a different number of
// tokens (side by side), with where the tokens part.
// "head 2", or "head 2 (A) and 1 (B)" when B, another model, has fewer heads.
QString headsText(int headA, int headB) {
    return headA == headB ? ComparePanel::tr("head %1").arg(headA)
                          : ComparePanel::tr("head %1 (A) and %2 (B)").arg(headA).arg(headB);
}

QString compareModelsMessage(const InputTokens& a, const InputTokens& b, const QString& stepId,
                             int headA, int headB, bool shapesMatch) {
    const QString heads = headsText(headA, headB);
    const size_t same = sharedRows(a, b);
    const bool sameTokens = same == a.labels.size() && same == b.labels.size();
    if (sameTokens && shapesMatch)
        return ComparePanel::tr(
                   "Step <b>%1</b>, %2: both cut the text into the same %3 tokens, "
                   "so B − A is cell by cell.")
            .arg(stepId, heads)
            .arg(a.count());
    const QString where =
        same < a.labels.size() && same < b.labels.size()
            ? ComparePanel::tr(
                  " They agree on the first %1 tokens and part at token %1 "
                  "(A \u201c%2\u201d, B \u201c%3\u201d).")
                  .arg(same)
                  .arg(rowText(a, same).toHtmlEscaped(), rowText(b, same).toHtmlEscaped())
            : QString();
    if (shapesMatch)
        return ComparePanel::tr(
                   "Step <b>%1</b>, %2: both cut the text into %3 tokens, but not the same "
                   "ones, so B − A compares positions rather than tokens.%4")
            .arg(stepId, heads)
            .arg(a.count())
            .arg(where);
    return ComparePanel::tr(
               "Step <b>%1</b>, %2: the models' tokenizers cut the text into %3 and "
               "%4 tokens, so their maps stand side by side without a cell-by-cell "
               "difference.%5")
        .arg(stepId, heads)
        .arg(a.count())
        .arg(b.count())
        .arg(where);
}

}  // namespace

ComparePanel::ComparePanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    auto* label = new QLabel(tr("Co&mpare:"), this);
    presetCombo_ = new QComboBox(this);
    presetCombo_->setObjectName(QStringLiteral("comparePreset"));
    presetCombo_->addItem(tr("Masking methods: weights vs weights_renormalized"));
    presetCombo_->addItem(tr("Current vs modified: causal mask vs no mask"));
    presetCombo_->addItem(tr("Current vs modified: multi-head wrapper vs multi-head"));
    presetCombo_->addItem(tr("Current vs modified: d_out 2 vs d_out 768"));
    presetCombo_->addItem(tr("Two sentences: the same module on a second text"));
    presetCombo_->addItem(tr("Two heads of the step shown"));
    presetCombo_->addItem(tr("Two layers of a trained model"));
    presetCombo_->addItem(tr("Key/value groups vs multi-head: one group per head"));
    presetCombo_->addItem(tr("Key/value groups vs multi-query: one group for all heads"));
    presetCombo_->addItem(tr("Rotary with and without RoPE: the same weights"));
    presetCombo_->addItem(tr("Two models: the same text in another model"));
    presetCombo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    presetCombo_->setMinimumContentsLength(16);
    label->setBuddy(presetCombo_);
    bar->addWidget(label);
    bar->addWidget(presetCombo_, 1);
    v->addLayout(bar);
    // What B is, where the preset asks for it.
    auto* second = new QHBoxLayout;
    textB_ = new QLineEdit(this);
    textB_->setObjectName(QStringLiteral("compareTextB"));
    textB_->setPlaceholderText(tr("B's sentence"));
    textB_->setToolTip(tr("The sentence B runs on: the same module or model, the same seeds"));
    headLabel_ = new QLabel(tr("B: &head"), this);
    headB_ = new QSpinBox(this);
    headB_->setObjectName(QStringLiteral("compareHeadB"));
    headB_->setToolTip(tr("The head B shows; A is the head picked above the heatmap"));
    headLabel_->setBuddy(headB_);
    layerLabel_ = new QLabel(tr("B: &layer"), this);
    layerB_ = new QSpinBox(this);
    layerB_->setObjectName(QStringLiteral("compareLayerB"));
    layerB_->setToolTip(tr("The layer B shows; A is the layer picked above the heatmap"));
    layerLabel_->setBuddy(layerB_);
    second->addWidget(textB_, 1);
    second->addWidget(headLabel_);
    second->addWidget(headB_);
    second->addWidget(layerLabel_);
    second->addWidget(layerB_);
    modelLabel_ = new QLabel(tr("B: m&odel"), this);
    modelB_ = new QComboBox(this);
    modelB_->setObjectName(QStringLiteral("compareModelB"));
    modelB_->setToolTip(
        tr("The model B runs the same text through: the chapter-3 module, a "
           "model that ships with the app, or one opened before"));
    modelB_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    modelB_->setMinimumContentsLength(14);
    modelLabel_->setBuddy(modelB_);
    second->addWidget(modelLabel_);
    second->addWidget(modelB_, 1);
    second->addStretch(0);
    v->addLayout(second);
    connect(textB_, &QLineEdit::textEdited, this, [this] {
        textEdited_ = true;
        refresh();
    });
    connect(headB_, &QSpinBox::valueChanged, this, &ComparePanel::refresh);
    connect(layerB_, &QSpinBox::valueChanged, this, &ComparePanel::refresh);
    connect(modelB_, &QComboBox::activated, this, [this] {
        modelChosen_ = true;
        refresh();
    });
    loaderB_ = new ModelLoader(this, ModelLoader::Hashing::None);
    connect(loaderB_, &ModelLoader::loaded, this,
            [this](const QString& name, const QString&, std::shared_ptr<const DecoderModel> m) {
                otherModel_ = std::move(m);
                otherModelName_ = name;
                otherModelError_.clear();
                refresh();
            });
    auto failedB = [this](const QString& name, const QString& why) {
        otherModel_.reset();
        otherModelName_ = name;
        otherModelError_ = why;
        refresh();
    };
    connect(loaderB_, &ModelLoader::failed, this, failedB);
    connect(loaderB_, &ModelLoader::configNeeded, this, failedB);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("compareNote"));
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::RichText);
    v->addWidget(note_);
    view_ = new CompareView(this);
    view_->setObjectName(QStringLiteral("compareView"));
    v->addWidget(view_, 1);

    controller_ = new TraceController(this);
    connect(controller_, &TraceController::resultReady, this, [this](const TraceOutcome& o) {
        waiting_ = false;
        other_ = o;
        refresh();
    });
    connect(presetCombo_, &QComboBox::currentIndexChanged, this, &ComparePanel::refresh);
    connect(presetCombo_, &QComboBox::activated, this, [this] { presetChosen_ = true; });
    connect(workspace_, &Workspace::settingsChanged, this, &ComparePanel::refresh);
    connect(workspace_, &Workspace::resultApplied, this, &ComparePanel::refresh);
}

void ComparePanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // A tab brought forward is laid out after its show event: draw once it has its place.
    QMetaObject::invokeMethod(this, &ComparePanel::refresh, Qt::QueuedConnection);
}

void ComparePanel::setPreset(Preset preset) {
    presetChosen_ = true;
    if (presetCombo_->currentIndex() != int(preset))
        presetCombo_->setCurrentIndex(int(preset));  // refreshes
    else
        refresh();
}

ComparePanel::Preset ComparePanel::preset() const {
    return Preset(std::max(0, presetCombo_->currentIndex()));
}

QString ComparePanel::message() const {
    return note_->text();
}

void ComparePanel::setSecondText(const QString& text) {
    textEdited_ = true;
    textB_->setText(text);
    refresh();
}

QString ComparePanel::secondText() const {
    return textB_->text();
}

void ComparePanel::setSecondHead(int head) {
    headB_->setValue(head);
}

void ComparePanel::setSecondLayer(int layer) {
    layerB_->setValue(layer);
}

QString ComparePanel::pairedSentence(const QString& text) {
    QString paired = text;
    if (text.contains(QLatin1String(kTired)))
        paired.replace(QLatin1String(kTired), QLatin1String(kWide));
    else if (text.contains(QLatin1String(kWide)))
        paired.replace(QLatin1String(kWide), QLatin1String(kTired));
    return paired;
}

QString ComparePanel::requestKey() const {
    QString key = QString::number(int(preset()));
    if (preset() == Preset::TwoSentences)
        key += QLatin1Char('/') + textB_->text();
    if (preset() == Preset::TwoLayers)
        key += QLatin1Char('/') + QString::number(layerB_->value());
    if (preset() == Preset::TwoModels)
        key += QLatin1Char('/') + secondModel() + QLatin1Char('/') +
               QString::number(quintptr(otherModel_.get())) + QLatin1Char('/') +
               QString::number(layerB_->value());
    return key;
}

void ComparePanel::setSecondModel(const QString& nameOrPath) {
    fillModelChoices();
    int i = modelB_->findData(nameOrPath);
    if (i < 0) {
        modelB_->addItem(QFileInfo(nameOrPath).fileName(), nameOrPath);
        i = modelB_->count() - 1;
    }
    modelB_->setCurrentIndex(i);
    modelChosen_ = true;
    refresh();
}

QString ComparePanel::secondModel() const {
    return modelB_->currentData().toString();
}

void ComparePanel::fillModelChoices() {
    // The chapter-3 module, the bundled models and the recent ones, as in the model picker.
    const QString current = modelB_->currentData().toString();
    const QSignalBlocker block(modelB_);
    modelB_->clear();
    modelB_->addItem(tr("Chapter 3 module"), QString());
    const QStringList bundled = bundledModelNames();
    for (const QString& name : bundled)
        modelB_->addItem(name, name);
    for (const QString& path : ModelPicker::recentModels())
        if (QFileInfo(path).exists())
            modelB_->addItem(QFileInfo(path).fileName(), path);
    if (modelChosen_ && !current.isEmpty() && modelB_->findData(current) < 0)
        modelB_->addItem(QFileInfo(current).fileName(), current);  // given by setSecondModel
    int i = modelChosen_ ? modelB_->findData(current) : -1;
    if (i < 0) {
        // Offered first: a model that ships with the app other than A, the two general ones
        // (tiny-shakespeare, then its Llama twin) before tiny-circuit, which is there for one
        // lesson; else the chapter's module.
        const QString a = workspace_->settings().modelFile;
        QStringList order{trainedModelLessonModel(), modernModelLessonModel()};
        for (const QString& name : bundled)
            if (!order.contains(name))
                order << name;
        i = 0;
        for (const QString& name : order) {
            const int k = modelB_->findData(name);
            if (name != a && bundled.contains(name) && k > 0) {
                i = k;
                break;
            }
        }
    }
    modelB_->setCurrentIndex(i);
}

namespace {

// The presets that change the module's options: a trained model runs as it was trained.
bool changesTheModule(ComparePanel::Preset p) {
    using P = ComparePanel::Preset;
    return p == P::MaskNoneCausal || p == P::WrapperVsMultiHead || p == P::DOut2Vs768 ||
           p == P::GroupsVsMultiHead || p == P::GroupsVsMultiQuery || p == P::RopeOnOff;
}

}  // namespace

int ComparePanel::modelBLayers() const {
    if (secondModel().isEmpty())
        return 1;  // the chapter-3 module
    return otherModel_ ? int(otherModel_->arch.layers) : -1;
}

int ComparePanel::modelBHeads() const {
    if (secondModel().isEmpty())
        return int(workspace_->settings().config.heads);
    return otherModel_ ? int(otherModel_->arch.heads) : -1;
}

void ComparePanel::refreshControls() {
    const Settings& s = workspace_->settings();
    // A trained model offers what applies to it; the chapter's options are greyed out.
    if (auto* items = qobject_cast<QStandardItemModel*>(presetCombo_->model()))
        for (int i = 0; i < items->rowCount(); ++i)
            if (changesTheModule(Preset(i)))
                items->item(i)->setEnabled(!s.modelMode());
    {
        const Preset now = preset();
        Preset wanted = now;
        if (!presetChosen_)
            wanted = s.modelMode() ? Preset::TwoLayers : Preset::MaskingMethods;
        else if (s.modelMode() && changesTheModule(now))
            wanted = Preset::TwoLayers;
        if (wanted != now) {
            const QSignalBlocker block(presetCombo_);
            presetCombo_->setCurrentIndex(int(wanted));
        }
    }
    const Preset p = preset();
    const bool twoModels = p == Preset::TwoModels;
    modelLabel_->setVisible(twoModels);
    modelB_->setVisible(twoModels);
    if (twoModels)
        fillModelChoices();  // the recent models may have changed
    textB_->setVisible(p == Preset::TwoSentences);
    headLabel_->setVisible(p == Preset::TwoHeads || twoModels);
    headB_->setVisible(p == Preset::TwoHeads || twoModels);
    layerLabel_->setVisible(p == Preset::TwoLayers || twoModels);
    layerB_->setVisible(p == Preset::TwoLayers || twoModels);
    if (twoModels) {
        // B's layer and head in B's model, A's to start with (or B's last where B has fewer).
        const int layers = modelBLayers(), heads = modelBHeads();
        const QSignalBlocker blockLayer(layerB_), blockHead(headB_);
        layerB_->setRange(0, std::max(0, layers - 1));
        layerB_->setEnabled(layers > 1);
        headB_->setRange(0, std::max(0, heads - 1));
        headB_->setEnabled(heads > 1);
        const QString key = secondModel() + QLatin1Char('/') + QString::number(layers) +
                            QLatin1Char('/') + QString::number(heads);
        if (defaultsFor_ != key && layers > 0 && heads > 0) {
            defaultsFor_ = key;
            layerB_->setValue(std::clamp(s.layer, 0, layers - 1));
            headB_->setValue(std::clamp(s.head, 0, heads - 1));
        }
        return;
    }
    defaultsFor_.clear();
    if (p == Preset::TwoSentences && !textEdited_) {
        // Offered anew for each text until the user types one of their own.
        const QSignalBlocker block(textB_);
        textB_->setText(pairedSentence(s.inputText()));
    }
    const Step* step = workspace_->shownStep();
    const int heads = step ? stepHeadCount(step->info) : 0;
    {
        const QSignalBlocker block(headB_);
        headB_->setRange(0, std::max(0, heads - 1));
        headB_->setEnabled(heads > 1);
        if (heads > 1 && headB_->value() == s.head)
            headB_->setValue((s.head + 1) % heads);  // another head than A's to start with
    }
    const std::shared_ptr<const DecoderModel>& model = workspace_->model();
    {
        const QSignalBlocker block(layerB_);
        const int layers = s.modelMode() && model ? int(model->arch.layers) : 1;
        layerB_->setRange(0, std::max(0, layers - 1));
        layerB_->setEnabled(layers > 1);
        if (layers > 1 && layerB_->value() == s.layer)
            layerB_->setValue((s.layer + 1) % layers);
    }
}

bool ComparePanel::compareHeads(const TraceOutcome& shown) {
    const Step* step = workspace_->shownStep();
    const Settings& s = workspace_->settings();
    const int heads = step ? stepHeadCount(step->info) : 0;
    if (heads < 2) {
        view_->clear();
        setMessage(
            tr("<b>%1</b> is not split into heads. Pick a step with one picture per "
               "head, such as <b>weights</b>, in a configuration with two or more heads.")
                .arg(step ? QString::fromStdString(step->info.id).toHtmlEscaped() : QString()));
        return true;
    }
    const int a = std::clamp(s.head, 0, heads - 1), b = std::clamp(headB_->value(), 0, heads - 1);
    const Trace& t = *shown.run.trace;
    const QStringList labels = rowLabels(shown.run);
    const int batch = stepBatchCount(step->info) > 0 ? s.batchIndex : 0;
    view_->setData(sliceStep(*step, labels, a, batch, t.find(step_id::kMask)), tr("head %1").arg(a),
                   sliceStep(*step, labels, b, batch, t.find(step_id::kMask)),
                   tr("head %1").arg(b));
    setMessage(a == b ? tr("A and B are both head %1: pick another head for B.").arg(a)
                      : tr("Step <b>%1</b>: head %2 and head %3 on the same input, B − A cell "
                           "by cell.")
                            .arg(QString::fromStdString(step->info.id).toHtmlEscaped())
                            .arg(a)
                            .arg(b));
    return true;
}

void ComparePanel::setMessage(const QString& text) {
    note_->setText(text);
    note_->setVisible(!text.isEmpty());
}

void ComparePanel::refresh() {
    if (!onScreen(this))
        return;
    view_->setDecimals(workspace_->settings().decimals);
    refreshControls();
    const TraceOutcome* shown = workspace_->shown();
    if (!shown) {
        view_->clear();
        setMessage(tr("Nothing computed yet."));
        emit updated();
        return;
    }
    const Trace& t = *shown->run.trace;
    const Settings& s = workspace_->settings();
    const Preset p = preset();
    const bool groups = p == Preset::GroupsVsMultiHead || p == Preset::GroupsVsMultiQuery;
    const bool modified = p == Preset::MaskNoneCausal || p == Preset::WrapperVsMultiHead ||
                          p == Preset::DOut2Vs768 || groups || p == Preset::RopeOnOff;
    if (s.modelMode() && modified) {
        // A trained model's attention has one mask and its own weights: changing the module's
        // options would not be the model any more.
        view_->clear();
        setMessage(
            tr("A trained model runs as it was trained, so its options cannot be changed. "
               "Compare its masking methods, two sentences, two heads or two layers; choose "
               "the chapter-3 module to compare masks, modes or seeds."));
        emit updated();
        return;
    }
    if (groups && !variantHasKvGroups(t.config.variant)) {
        view_->clear();
        setMessage(
            tr("Only grouped-query and rotary attention share keys and values among heads. Pick "
               "one of them (After chapter 3 in the Variant list) to compare its key/value "
               "groups with one per head or one for all."));
        emit updated();
        return;
    }
    if (p == Preset::RopeOnOff && t.config.variant != Variant::Rotary) {
        view_->clear();
        setMessage(
            tr("Only rotary attention turns queries and keys by their position. Pick Rotary "
               "(RoPE) in the Variant list to compare it with and without the rotation."));
        emit updated();
        return;
    }
    if (p == Preset::TwoLayers && !s.modelMode()) {
        view_->clear();
        setMessage(
            tr("The chapter-3 module is one layer. Open a trained model (the Model "
               "picker) to compare two of its layers."));
        emit updated();
        return;
    }
    if (p == Preset::TwoHeads) {
        compareHeads(*shown);
        emit updated();
        return;
    }
    if (p == Preset::TwoModels) {
        const QString b = secondModel();
        if (b == s.modelFile) {
            view_->clear();
            setMessage(tr("B is what A shows (%1): pick another model for B.")
                           .arg(b.isEmpty() ? tr("the chapter-3 module")
                                            : QFileInfo(b).fileName().toHtmlEscaped()));
            emit updated();
            return;
        }
        if (!b.isEmpty() && otherModelName_ != b) {
            // B's model is read first, by a loader of its own: A's stays as it is.
            otherModel_.reset();
            otherModelName_ = b;
            otherModelError_.clear();
            loaderB_->load(b);
            view_->clear();
            setMessage(tr("Reading %1 for B\u2026").arg(QFileInfo(b).fileName().toHtmlEscaped()));
            emit updated();
            return;
        }
        if (!b.isEmpty() && !otherModel_) {
            view_->clear();
            setMessage(
                otherModelError_.isEmpty()
                    ? tr("Reading %1 for B\u2026").arg(QFileInfo(b).fileName().toHtmlEscaped())
                    : tr("B's model cannot be read: %1").arg(otherModelError_.toHtmlEscaped()));
            emit updated();
            return;
        }
    }
    const int head = std::max(0, s.head);
    const QStringList labels = rowLabels(shown->run);
    if (preset() == Preset::MaskingMethods) {
        if (!t.find(step_id::kWeights) || !t.find(step_id::kWeightsRenormalized)) {
            view_->clear();
            setMessage(
                tr("This configuration has no mask, so there is only one way to get the "
                   "weights. Choose a causal or window mask (e.g. the causal attention "
                   "variant) to compare the chapter's two masking methods."));
        } else {
            view_->setSteps(t, labels, step_id::kWeights, step_id::kWeightsRenormalized, head,
                            s.batchIndex);
            setMessage(
                tr("Section 3.5.1: masking with -inf before softmax (<b>weights</b>) and "
                   "the simple method (softmax, zero the hidden weights, renormalise the "
                   "rows: <b>weights_renormalized</b>) give the same weights."));
        }
        emit updated();
        return;
    }
    // B runs on a controller of its own: the modified settings, the second sentence or the
    // other layer.
    if (forGeneration_ != shown->generation || forKey_ != requestKey()) {
        submit();
        return;
    }
    if (waiting_)
        return;
    if (!other_ || !other_->ok()) {
        view_->clear();
        QStringList issues;
        if (other_)
            for (const auto& i : other_->issues)
                issues << QString::fromStdString(i.message);
        setMessage(
            tr("The modified configuration cannot be computed: %1")
                .arg(issues.isEmpty() ? tr("cancelled") : issues.join(QStringLiteral("; "))));
        emit updated();
        return;
    }
    const Trace& tb = *other_->run.trace;
    const Step* shownStep = workspace_->shownStep();
    const std::string id = shownStep ? shownStep->info.id : step_id::kWeights;
    const Step* a = t.find(id);
    const Step* b = tb.find(id);
    // The view titles them "A: ..." and "B: ...": name only what differs.
    auto describe = [this](const Config& c) {
        switch (preset()) {
            case Preset::TwoSentences:
            case Preset::TwoHeads:
            case Preset::TwoLayers:
            case Preset::TwoModels:
                break;
            case Preset::MaskNoneCausal:
                return maskWords(c.effectiveMask());
            case Preset::WrapperVsMultiHead:
                return QString::fromStdString(variantClassName(c.variant));
            case Preset::DOut2Vs768:
                return variantHasHeads(c.variant)
                           ? tr("d_out %1, %2 heads").arg(c.dOut).arg(c.heads)
                           : tr("d_out %1").arg(c.dOut);
            case Preset::MaskingMethods:
                break;
            case Preset::GroupsVsMultiHead:
            case Preset::GroupsVsMultiQuery:
                return c.kvGroups == 1 ? tr("1 key/value group (multi-query)")
                       : c.kvGroups == c.heads
                           ? tr("%1 key/value groups (multi-head)").arg(c.kvGroups)
                           : tr("%1 key/value groups").arg(c.kvGroups);
            case Preset::RopeOnOff:
                return c.rope ? tr("with RoPE") : tr("without RoPE");
        }
        return QString();
    };
    QString nameA = tr("current, %1").arg(describe(t.config));
    QString nameB = tr("modified, %1").arg(describe(tb.config));
    if (p == Preset::TwoSentences) {
        nameA = tr("sentence A");
        nameB = tr("sentence B");
    } else if (p == Preset::TwoLayers) {
        nameA = tr("layer %1").arg(s.layer);
        nameB = tr("layer %1").arg(other_->run.settings.layer);
    } else if (p == Preset::TwoModels) {
        auto name = [this](const Settings& x) {
            return x.modelMode()
                       ? tr("%1, layer %2").arg(QFileInfo(x.modelFile).fileName()).arg(x.layer)
                       : tr("chapter-3 module");
        };
        nameA = name(s);
        nameB = name(other_->run.settings);
    }
    const QString stepId = QString::fromStdString(id).toHtmlEscaped();
    if (!a || !b) {
        view_->clear();
        setMessage(tr("<b>%1</b> exists in only one of the two configurations (%2 / %3). Pick a "
                      "step both have, e.g. <b>weights</b>.")
                       .arg(stepId, nameA.toHtmlEscaped(), nameB.toHtmlEscaped()));
        emit updated();
        return;
    }
    const HeatmapData da = sliceStep(*a, labels, head, s.batchIndex, t.find(step_id::kMask));
    // Another model may have fewer heads: B shows its last one then.
    const int headB = p == Preset::TwoModels
                          ? std::clamp(headB_->value(), 0, std::max(1, stepHeadCount(b->info)) - 1)
                          : head;
    const HeatmapData db =
        sliceStep(*b, rowLabels(other_->run), headB, s.batchIndex, tb.find(step_id::kMask));
    // Two tokenizers that cut the text differently: a token x token map is compared on the
    // pieces of text both share.
    const InputTokens& inA = shown->run.input;
    const InputTokens& inB = other_->run.input;
    const size_t same = sharedRows(inA, inB);
    if (p == Preset::TwoModels && !(same == inA.labels.size() && same == inB.labels.size())) {
        if (const auto aligned = alignByText(da, inA.tokens, db, inB.tokens)) {
            view_->setData(aligned->a, nameA, aligned->b, nameB);
            const QString heads = headsText(head, headB);
            setMessage(tr("Step <b>%1</b>, %2: the models' tokenizers cut the text into %3 and "
                          "%4 tokens, so both maps are shown on the %5 pieces of text both cut "
                          "alike: a row is the query at a piece's last token, a column the "
                          "weight on a piece's tokens summed. B − A is piece by piece.")
                           .arg(stepId, heads)
                           .arg(inA.count())
                           .arg(inB.count())
                           .arg(aligned->pieces));
            emit updated();
            return;
        }
    }
    view_->setData(da, nameA, db, nameB);
    if (p == Preset::TwoSentences) {
        const QString words =
            s.source == InputSource::Book
                ? tr(" A is the book's six given vectors; B embeds its text (chapter 2).")
                : QString();
        setMessage(
            view_->shapesMatch()
                ? tr("Step <b>%1</b>, head %2: the same %3 on two sentences of %4 tokens, B − A "
                     "cell by cell.%5")
                      .arg(stepId)
                      .arg(head)
                      .arg(s.modelMode() ? tr("model") : tr("module"))
                      .arg(da.rows)
                      .arg(words)
                : tr("The sentences have %1 and %2 tokens, so their maps stand side by side "
                     "without a cell-by-cell difference; with as many tokens (one word swapped) "
                     "the difference shows what the word changes.%3")
                      .arg(da.rows)
                      .arg(db.rows)
                      .arg(words));
    } else if (p == Preset::TwoModels && (view_->shapesMatch() || da.rows != db.rows)) {
        // Their tokenizers may cut the text differently: the message says whether B − A is
        // token by token, and where the tokens part.
        setMessage(compareModelsMessage(shown->run.input, other_->run.input, stepId, head, headB,
                                        view_->shapesMatch()));
    } else if (!view_->shapesMatch())
        setMessage(tr("<b>%1</b> has a different shape in the two configurations (A %2 × %3, B "
                      "%4 × %5), so there is no cell-by-cell difference. Steps over tokens × "
                      "tokens, such as <b>weights</b>, can be compared.")
                       .arg(stepId)
                       .arg(da.rows)
                       .arg(da.cols)
                       .arg(db.rows)
                       .arg(db.cols));
    else if (p == Preset::GroupsVsMultiHead || p == Preset::GroupsVsMultiQuery)
        // The seed draws the first key/value group alike in A and B: a head that reads group 0
        // in both is the same, which is no sign that the groups change nothing.
        setMessage(tr("Step <b>%1</b>, head %2: B − A cell by cell (same input and seeds). Both "
                      "draw the first key/value group alike, so a head that reads group 0 in A "
                      "and in B is the same in both; the heads that read another group in B "
                      "than in A show what the sharing changes.")
                       .arg(stepId)
                       .arg(head));
    else
        setMessage(tr("Step <b>%1</b>, head %2: B − A cell by cell (same input and seeds).")
                       .arg(stepId)
                       .arg(head));
    emit updated();
}

void ComparePanel::submit() {
    const TraceOutcome* shown = workspace_->shown();
    if (!shown)
        return;
    TraceJob job;
    job.settings = shown->run.settings;
    job.files = workspace_->files();
    job.model = shown->model;
    job.previousRun = shown->modelRun;  // its rows (and whole, for another layer) are reused
    Config& c = job.settings.config;
    if (!job.settings.modelMode())
        c = shown->run.trace->config;  // what actually ran
    switch (preset()) {
        case Preset::TwoSentences:
            job.settings.source = InputSource::Text;
            job.settings.text = textB_->text();
            job.settings.tokenIds.clear();
            break;
        case Preset::TwoLayers:
            job.settings.layer = layerB_->value();
            break;
        case Preset::TwoHeads:
            return;
        case Preset::MaskNoneCausal:
            c.mask = c.effectiveMask().kind == MaskKind::None ? MaskSpec{MaskKind::Causal, 0}
                                                              : MaskSpec{MaskKind::None, 0};
            break;
        case Preset::WrapperVsMultiHead:
            c.variant =
                c.variant == Variant::MultiHead ? Variant::MultiHeadWrapper : Variant::MultiHead;
            // Other parameter names: drawn from the same seed instead.
            job.settings.weightsFile.clear();
            job.files.weights.reset();
            break;
        case Preset::DOut2Vs768:
            c.dOut = c.dOut == 768 ? 2 : 768;
            if (c.variant == Variant::MultiHead)
                while (c.heads > 1 && c.dOut % c.heads != 0)
                    --c.heads;
            job.settings.weightsFile.clear();  // other shapes: drawn from the same seed
            job.files.weights.reset();
            break;
        case Preset::MaskingMethods:
            return;
        case Preset::GroupsVsMultiHead:
        case Preset::GroupsVsMultiQuery: {
            // B changes the groups and keeps everything else; with the groups already at that
            // end, B goes to the other end so that something differs.
            const int64_t target = preset() == Preset::GroupsVsMultiHead ? c.heads : 1;
            const int64_t other = preset() == Preset::GroupsVsMultiHead ? 1 : c.heads;
            c.kvGroups = c.kvGroups == target ? other : target;
            job.settings.weightsFile.clear();  // other key/value shapes: drawn from the seed
            job.files.weights.reset();
            break;
        }
        case Preset::RopeOnOff:
            c.rope = !c.rope;  // the same weights: the rotation draws nothing
            break;
        case Preset::TwoModels:
            job.settings.modelFile = secondModel();
            job.settings.modelConfigFile.clear();
            job.model = otherModel_;
            job.previousRun = nullptr;
            job.settings.source = InputSource::Text;
            job.settings.text = shown->run.settings.inputText();
            job.settings.tokenIds.clear();
            job.settings.inputIds.clear();
            if (otherModel_)
                job.settings.layer =
                    std::clamp(layerB_->value(), 0, int(otherModel_->arch.layers) - 1);
            break;
    }
    forGeneration_ = shown->generation;
    forKey_ = requestKey();
    waiting_ = true;
    other_.reset();
    setMessage(tr("Computing the modified configuration…"));
    controller_->submit(job);
}

}  // namespace attn

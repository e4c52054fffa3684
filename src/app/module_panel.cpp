#include "app/module_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "app/field_errors.h"
#include "app/input_panel.h"
#include "app/setting_controls.h"
#include "app/workspace.h"
#include "engine/decoder_forward.h"

namespace attn {

namespace {

// The window size K a newly picked window mask starts with.
constexpr int kDefaultWindow = 3;

QString variantTitle(Variant v) {
    switch (v) {
        case Variant::Simplified:
            return ModulePanel::tr("Simplified (no weights)");
        case Variant::SelfAttentionV1:
            return ModulePanel::tr("Self-attention v1");
        case Variant::SelfAttention:
            return ModulePanel::tr("Self-attention v2");
        case Variant::Causal:
            return ModulePanel::tr("Causal attention");
        case Variant::MultiHeadWrapper:
            return ModulePanel::tr("Multi-head wrapper");
        case Variant::MultiHead:
            return ModulePanel::tr("Multi-head attention");
        case Variant::GroupedQuery:
            return ModulePanel::tr("Grouped-query attention");
        case Variant::Latent:
            return ModulePanel::tr("Multi-head latent attention");
        case Variant::Rotary:
            return ModulePanel::tr("Rotary (RoPE)");
    }
    return QString::fromStdString(variantName(v));
}

QString joinCounts(const std::vector<int64_t>& counts) {
    QStringList parts;
    for (int64_t h : counts)
        parts << QString::number(h);
    return parts.join(QStringLiteral(", "));
}

template <typename Combo, typename T>
void selectData(Combo* combo, T value) {
    const QSignalBlocker block(combo);
    combo->setCurrentIndex(combo->findData(int(value)));
}

}  // namespace

ModulePanel::ModulePanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    errors_ = new FieldErrors(this);
    build();
    connect(workspace_, &Workspace::settingsChanged, this, &ModulePanel::fromSettings);
    connect(workspace_, &Workspace::filesChanged, this, &ModulePanel::fromSettings);
    connect(workspace_, &Workspace::modelChanged, this, &ModulePanel::fromSettings);
    connect(workspace_, &Workspace::resultApplied, this,
            [this] { errors_->show(workspace_->issues(), InputPanel::fields()); });
    fromSettings();
}

QString ModulePanel::fieldError(const QString& field) const {
    if (field == QLatin1String("general"))
        return general_->isVisibleTo(const_cast<ModulePanel*>(this)) ? general_->text() : QString();
    return errors_->text(field);
}

CappedSpinBox* ModulePanel::sizeSpin(const QString& objectName, const QString& tip) {
    auto* s = new CappedSpinBox(this);
    s->setObjectName(objectName);
    s->setRange(1, int(kMaxDimension));
    s->setToolTip(tip);
    s->setAccessibleDescription(tip);
    const QString field = objectName.left(objectName.size() - 4);  // "d_outSpin" -> "d_out"
    connect(s, &CappedSpinBox::capExceeded, this, [this, field](const QString& typed) {
        errors_->setNote(field, typed.isEmpty()
                                    ? QString()
                                    : tr("%1 is more than this setting takes: at most %L2.")
                                          .arg(typed)
                                          .arg(kMaxDimension));
    });
    return s;
}

QWidget* ModulePanel::addRow(const QString& label, QWidget* field, const QString& errorField,
                             const QList<QWidget*>& outlined) {
    // The field and its error line share one cell, so a hidden error leaves no gap. The cell
    // keeps 2 pixels around the field for the red outline drawn just outside it (with none,
    // the cell cut off its top and left and only a line under the field was left).
    auto* cell = new QWidget(this);
    auto* v = new QVBoxLayout(cell);
    v->setContentsMargins(2, 2, 2, 0);
    v->setSpacing(2);
    v->addWidget(field);
    if (!errorField.isEmpty()) {
        QLabel* error = makeErrorLabel(cell, QStringLiteral("error_") + errorField);
        v->addWidget(error);
        errors_->add(errorField, error, outlined);
    }
    form_->addRow(label, cell);
    return cell;
}

void ModulePanel::build() {
    form_ = new QFormLayout(this);
    form_->setContentsMargins(0, 0, 0, 0);
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form_->setRowWrapPolicy(QFormLayout::DontWrapRows);
    auto pair = [this](QWidget* a, QWidget* b) {
        auto* w = new QWidget(this);
        auto* h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(a, 1);
        h->addWidget(b, 1);
        return w;
    };

    modelNote_ = new QLabel(tr("A trained model: its sizes, read from its file. Each layer's "
                               "attention is the chapter's multi-head attention with these "
                               "weights."),
                            this);
    modelNote_->setObjectName(QStringLiteral("modelNote"));
    modelNote_->setWordWrap(true);
    modelNote_->setForegroundRole(QPalette::PlaceholderText);
    modelNote_->hide();
    form_->addRow(modelNote_);

    variant_ = new QComboBox(this);
    variant_->setObjectName(QStringLiteral("variantCombo"));
    makeCompact(variant_);
    // Two groups, each under a heading that cannot be picked: the chapter's six modules and
    // the attention of today's models that the book's bonus material builds.
    auto heading = [this](const QString& text) {
        variant_->addItem(text, -1);
        auto* model = qobject_cast<QStandardItemModel*>(variant_->model());
        QStandardItem* item = model->item(variant_->count() - 1);
        item->setFlags(Qt::NoItemFlags);
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
    };
    for (Variant v : allVariants()) {
        if (v == allVariants().front())
            heading(tr("Chapter 3"));
        else if (variantIsAfterChapter3(v) && !variantIsAfterChapter3(Variant(int(v) - 1)))
            heading(tr("After chapter 3"));
        variant_->addItem(QStringLiteral("  ") + variantTitle(v), int(v));
        variant_->setItemData(
            variant_->count() - 1,
            QStringLiteral("%1 (%2)").arg(QString::fromStdString(variantClassName(v)),
                                          QString::fromStdString(variantName(v))),
            Qt::ToolTipRole);
    }
    variant_->setToolTip(
        tr("The module: chapter 3's six, each with its own mask as in the book, or the "
           "attention of today's models that the book's bonus material builds"));
    addRow(tr("&Variant"), variant_, QStringLiteral("variant"), {variant_});

    const QString range = tr("1 to %L1").arg(kMaxDimension);
    dIn_ = sizeSpin(QStringLiteral("d_inSpin"),
                    tr("d_in: the size of each token's embedding vector (%1)").arg(range));
    addRow(tr("d_&in"), dIn_, QStringLiteral("d_in"), {dIn_});
    dOut_ = sizeSpin(QStringLiteral("d_outSpin"),
                     tr("d_out: the size of the queries, keys, values and output (%1)").arg(range));
    dOutRow_ = addRow(tr("d_&out"), dOut_, QStringLiteral("d_out"), {dOut_});
    heads_ = sizeSpin(QStringLiteral("headsSpin"), QString());
    addRow(tr("&Heads"), heads_, QStringLiteral("heads"), {heads_});

    kvGroups_ = sizeSpin(QStringLiteral("kv_groupsSpin"), QString());
    kvGroupsRow_ = addRow(tr("&KV groups"), kvGroups_, QStringLiteral("kv_groups"), {kvGroups_});
    latentDim_ = sizeSpin(QStringLiteral("latent_dimSpin"), QString());
    latentDim_->setMinimum(0);  // 0: the book's default
    latentRow_ = addRow(tr("&Latent size"), latentDim_, QStringLiteral("latent_dim"), {latentDim_});
    headDim_ = sizeSpin(QStringLiteral("head_dimSpin"), QString());
    headDim_->setMinimum(0);  // 0: d_in / heads
    headDimRow_ = addRow(tr("Head si&ze"), headDim_, QStringLiteral("head_dim"), {headDim_});
    rope_ = new QCheckBox(tr("&RoPE"), this);
    rope_->setObjectName(QStringLiteral("ropeCheck"));
    rope_->setToolTip(
        tr("Rotate queries and keys by their position (RoPE). Off: the same weights without "
           "the rotation, to compare"));
    qkNorm_ = new QCheckBox(tr("&QK-norm"), this);
    qkNorm_->setObjectName(QStringLiteral("qkNormCheck"));
    qkNorm_->setToolTip(
        tr("RMS-normalise each head's queries and keys before the rotation, as Qwen3 and "
           "Gemma 3 do"));
    {
        auto* w = new QWidget(this);
        auto* h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(rope_, 1);
        h->addWidget(qkNorm_, 1);
        rotaryRow_ = addRow(tr("Rotary"), w, QString(), {});
    }
    ropeBase_ = new QDoubleSpinBox(this);
    ropeBase_->setObjectName(QStringLiteral("rope_baseSpin"));
    ropeBase_->setDecimals(0);
    ropeBase_->setRange(1, 1e9);
    ropeBase_->setSingleStep(10000);
    ropeBase_->setToolTip(
        tr("The RoPE base: pair i turns by base^(-2i/head size) per position. 10,000 in Llama "
           "2, 500,000 in Llama 3, 1,000,000 in Qwen3; a larger base turns the slow pairs "
           "slower, for longer texts"));
    ropeBaseRow_ = addRow(tr("RoPE &base"), ropeBase_, QStringLiteral("rope_base"), {ropeBase_});

    mask_ = new QComboBox(this);
    mask_->setObjectName(QStringLiteral("maskCombo"));
    makeCompact(mask_, 5);
    mask_->addItem(tr("None"), int(MaskKind::None));
    mask_->addItem(tr("Causal"), int(MaskKind::Causal));
    mask_->addItem(tr("Window"), int(MaskKind::Window));
    mask_->setToolTip(
        tr("Which keys a query may not see: none, every later token (causal), or "
           "also those K or more tokens back (window)"));
    window_ = sizeSpin(QStringLiteral("windowSpin"),
                       tr("Window size K: each token sees itself and the K-1 tokens before it "
                          "(%1)")
                           .arg(range));
    window_->setPrefix(tr("K = "));
    {
        // Picking "Window" takes this K: 3 shows a band (K = 1 would leave only the diagonal).
        const QSignalBlocker block(window_);
        window_->setValue(kDefaultWindow);
    }
    addRow(tr("&Mask"), pair(mask_, window_), QStringLiteral("mask"), {mask_, window_});

    dropout_ = new RateSpinBox(this);
    dropout_->setObjectName(QStringLiteral("dropoutSpin"));
    dropout_->setToolTip(
        tr("Dropout rate p: the share of attention weights dropped in training "
           "mode, from 0 up to (not including) 1; kept weights are scaled by "
           "1/(1-p)"));
    mode_ = new QComboBox(this);
    mode_->setObjectName(QStringLiteral("modeCombo"));
    makeCompact(mode_, 5);
    mode_->addItem(tr("train"), int(Mode::Train));
    mode_->addItem(tr("eval"), int(Mode::Eval));
    mode_->setToolTip(
        tr("train: dropout is applied, as in a freshly built PyTorch module; "
           "eval: no dropout"));
    chapterRows_ << addRow(tr("&Dropout"), pair(dropout_, mode_), QStringLiteral("dropout"),
                           {dropout_});

    dropoutRng_ = new QComboBox(this);
    dropoutRng_->setObjectName(QStringLiteral("dropoutRngCombo"));
    makeCompact(dropoutRng_);
    dropoutRng_->addItem(tr("default (Debian's PyTorch, AMD)"), int(DropoutRng::Default));
    dropoutRng_->addItem(tr("mkl (Intel MKL wheels)"), int(DropoutRng::Mkl));
    dropoutRng_->setToolTip(
        tr("Which kernel of PyTorch draws the dropout pattern: default (builds without Intel "
           "MKL, e.g. Debian's python3-torch and AMD CPUs; what the book's notebooks print) or "
           "mkl (PyTorch wheels with MKL on Intel CPUs)"));
    chapterRows_ << addRow(tr("Dropout &RNG"), dropoutRng_, QString(), {});

    seed_ = new SeedEdit(this);
    seed_->setObjectName(QStringLiteral("seedEdit"));
    seed_->setToolTip(
        tr("torch.manual_seed before the module is built: its weights (0 to "
           "2^64-1)"));
    chapterRows_ << addRow(tr("&Weight seed"), seed_, QStringLiteral("seed"), {seed_});
    embeddingSeed_ = new SeedEdit(this);
    embeddingSeed_->setObjectName(QStringLiteral("embeddingSeedEdit"));
    embeddingSeed_->setToolTip(
        tr("torch.manual_seed before the chapter-2 embedding layers: the "
           "input vectors of typed text (0 to 2^64-1)"));
    chapterRows_ << addRow(tr("&Embedding seed"), embeddingSeed_, QStringLiteral("embedding_seed"),
                           {embeddingSeed_});

    positions_ = new QCheckBox(tr("&Positions"), this);
    positions_->setObjectName(QStringLiteral("positionsCheck"));
    positions_->setToolTip(tr("Add the positional embeddings to the token embeddings"));
    qkvBias_ = new QCheckBox(tr("&qkv bias"), this);
    qkvBias_->setObjectName(QStringLiteral("qkvBiasCheck"));
    qkvBias_->setToolTip(tr("Give the query, key and value projections a bias (qkv_bias=True)"));
    chapterRows_ << addRow(tr("Options"), pair(positions_, qkvBias_), QStringLiteral("qkv_bias"),
                           {qkvBias_});

    batch_ = sizeSpin(QStringLiteral("batchSpin"),
                      tr("Batch size b: the input stacked b times, as the chapter stacks two "
                         "(%1)")
                          .arg(range));
    chapterRows_ << addRow(tr("&Batch"), batch_, QStringLiteral("batch"), {batch_});
    contextLength_ = sizeSpin(
        QStringLiteral("context_lengthSpin"),
        tr("The context length: the most tokens the module takes, and the size of its mask "
           "buffer and positional embedding table (%1)")
            .arg(range));
    addRow(tr("&Context length"), contextLength_, QStringLiteral("context_length"),
           {contextLength_});

    general_ = makeErrorLabel(this, QStringLiteral("error_general"));
    form_->addRow(general_);
    errors_->setGeneralLabel(general_);

    connect(variant_, &QComboBox::activated, this, [this](int i) {
        edit(tr("Change the variant"), [&](Settings& s) {
            s.config.variant = Variant(variant_->itemData(i).toInt());
            s.config.mask = defaultMask(s.config.variant);  // each module comes with its own mask
            if (s.config.variant == Variant::Rotary)
                s.config.qkvBias = false;  // Qwen3's class has no biases
        });
    });
    auto spin = [this](CappedSpinBox* box, const QString& what, int64_t Config::*member) {
        connect(box, &QSpinBox::valueChanged, this, [this, what, member](int v) {
            edit(what, [&](Settings& s) { s.config.*member = v; });
        });
    };
    spin(dIn_, tr("Change d_in"), &Config::dIn);
    spin(dOut_, tr("Change d_out"), &Config::dOut);
    spin(heads_, tr("Change the heads"), &Config::heads);
    spin(batch_, tr("Change the batch size"), &Config::batch);
    spin(contextLength_, tr("Change the context length"), &Config::contextLength);
    spin(kvGroups_, tr("Change the key/value groups"), &Config::kvGroups);
    spin(latentDim_, tr("Change the latent size"), &Config::latentDim);
    spin(headDim_, tr("Change the head size"), &Config::headDim);
    connect(rope_, &QCheckBox::clicked, this,
            [this](bool on) { edit(tr("Change RoPE"), [&](Settings& s) { s.config.rope = on; }); });
    connect(qkNorm_, &QCheckBox::clicked, this, [this](bool on) {
        edit(tr("Change QK-norm"), [&](Settings& s) { s.config.qkNorm = on; });
    });
    connect(ropeBase_, &QDoubleSpinBox::valueChanged, this, [this](double b) {
        edit(tr("Change the RoPE base"), [&](Settings& s) { s.config.ropeBase = b; });
    });
    auto maskEdit = [this] {
        edit(tr("Change the mask"), [&](Settings& s) {
            MaskSpec m;
            m.kind = MaskKind(mask_->currentData().toInt());
            if (m.kind == MaskKind::Window)
                m.window = window_->value();
            s.config.mask = m;
        });
    };
    connect(mask_, &QComboBox::activated, this, maskEdit);
    connect(window_, &QSpinBox::valueChanged, this, maskEdit);
    connect(dropout_, &QDoubleSpinBox::valueChanged, this, [this](double p) {
        edit(tr("Change the dropout rate"), [&](Settings& s) { s.config.dropout = p; });
    });
    connect(mode_, &QComboBox::activated, this, [this](int i) {
        edit(tr("Change the mode"),
             [&](Settings& s) { s.config.mode = Mode(mode_->itemData(i).toInt()); });
    });
    connect(dropoutRng_, &QComboBox::activated, this, [this](int i) {
        edit(tr("Change the dropout RNG"), [&](Settings& s) {
            s.config.dropoutRng = DropoutRng(dropoutRng_->itemData(i).toInt());
        });
    });
    connect(seed_, &SeedEdit::seedEdited, this, [this](uint64_t v) {
        edit(tr("Change the weight seed"), [&](Settings& s) { s.config.seed = v; });
    });
    connect(embeddingSeed_, &SeedEdit::seedEdited, this, [this](uint64_t v) {
        edit(tr("Change the embedding seed"), [&](Settings& s) { s.embeddingSeed = v; });
    });
    connect(positions_, &QCheckBox::clicked, this, [this](bool on) {
        edit(tr("Change positions"), [&](Settings& s) { s.positions = on; });
    });
    connect(qkvBias_, &QCheckBox::clicked, this, [this](bool on) {
        edit(tr("Change qkv bias"), [&](Settings& s) { s.config.qkvBias = on; });
    });
}

void ModulePanel::edit(const QString& what, const std::function<void(Settings&)>& change) {
    Settings s = workspace_->settings();
    change(s);
    workspace_->change(s, what);
}

void ModulePanel::fromSettings() {
    const Settings& s = workspace_->settings();
    // In model mode the controls show the file's architecture (read-only): nothing can be set
    // that the model does not have.
    Config c = s.config;
    const auto& model = workspace_->model();
    if (s.modelMode() && model) {
        const DecoderArchitecture& a = model->arch;
        // The layer's attention as the forward builds it (one derivation, by the architecture's
        // features); the bias box shows the model's, which a rotary layer adds with the model.
        c = layerTraceConfig(a, s.layer, 1);
        c.qkvBias = a.qkvBias;
        c.simpleMaskSteps = s.config.simpleMaskSteps;
        modelNote_->setText(
            a.rope ? tr("A trained %1 model: its sizes, read from its files. Layer %2's attention "
                        "is grouped-query attention with RoPE%3, as the book builds it after "
                        "chapter 3, with these weights.")
                         .arg(QString::fromStdString(familyName(a.family)))
                         .arg(s.layer)
                         .arg(a.qkNorm ? tr(" and QK-norm") : QString())
                   : tr("A trained model: its sizes, read from its file. Each layer's attention "
                        "is the chapter's multi-head attention with these weights."));
    }
    selectData(variant_, c.variant);
    auto set = [](QSpinBox* box, int64_t v) {
        const QSignalBlocker block(box);
        box->setValue(int(v));
    };
    set(dIn_, c.dIn);
    set(dOut_, c.dOut);
    set(heads_, c.heads);
    set(batch_, c.batch);
    set(contextLength_, c.contextLength);
    set(kvGroups_, c.kvGroups);
    set(latentDim_, c.latentDim);
    set(headDim_, c.headDim);
    {
        const QSignalBlocker a(rope_), b(qkNorm_), d(ropeBase_);
        rope_->setChecked(c.rope);
        qkNorm_->setChecked(c.qkNorm);
        ropeBase_->setValue(c.ropeBase);
    }
    // The defaults, said with their current values.
    latentDim_->setSpecialValueText(tr("auto (%1)").arg(Config(c).effectiveLatentDim()));
    headDim_->setSpecialValueText(c.heads > 0 && c.dIn % c.heads == 0
                                      ? tr("d_in / heads (%1)").arg(c.dIn / c.heads)
                                      : tr("d_in / heads"));
    const MaskSpec m = c.effectiveMask();
    selectData(mask_, m.kind);
    if (m.kind == MaskKind::Window)
        set(window_, m.window);
    {
        const QSignalBlocker block(dropout_);
        dropout_->setValue(c.dropout);
    }
    selectData(mode_, c.mode);
    selectData(dropoutRng_, c.dropoutRng);
    seed_->setSeed(c.seed);
    embeddingSeed_->setSeed(s.embeddingSeed);
    {
        const QSignalBlocker a(positions_), b(qkvBias_);
        positions_->setChecked(s.positions);
        qkvBias_->setChecked(c.qkvBias);
    }
    refreshEnabled(s);
}

void ModulePanel::refreshEnabled(const Settings& s) {
    modelNote_->setVisible(s.modelMode());
    // A trained model has no dropout, seeds, batch or optional positions to show: those rows
    // leave, the sizes stay (read-only).
    for (QWidget* row : chapterRows_)
        form_->setRowVisible(row, !s.modelMode());
    // A trained model's sizes are the file's: every control is read-only. Back on the chapter's
    // module every control starts enabled again, and only the rules below disable one.
    for (QWidget* w : std::initializer_list<QWidget*>{
             variant_,       dIn_,        dOut_,    heads_,         mask_,      window_,  dropout_,
             mode_,          dropoutRng_, seed_,    embeddingSeed_, positions_, qkvBias_, batch_,
             contextLength_, kvGroups_,   headDim_, rope_,          qkNorm_,    ropeBase_})
        w->setEnabled(!s.modelMode());
    const Variant v = s.config.variant;
    const bool module = !s.modelMode();
    // Rotary attention has no d_out (its queries have heads × head size numbers, its output
    // d_in): the row leaves rather than show a number that is not the module's.
    // A model of today's families shows its groups, head size, QK-norm and RoPE base (read-only).
    const auto& model = workspace_->model();
    const bool rotaryModel = !module && model && model->arch.rope;
    form_->setRowVisible(dOutRow_, (!module && !rotaryModel) || v != Variant::Rotary);
    form_->setRowVisible(kvGroupsRow_, (module && variantHasKvGroups(v)) || rotaryModel);
    form_->setRowVisible(latentRow_, module && v == Variant::Latent);
    form_->setRowVisible(headDimRow_, (module && v == Variant::Rotary) || rotaryModel);
    form_->setRowVisible(rotaryRow_, (module && v == Variant::Rotary) || rotaryModel);
    form_->setRowVisible(ropeBaseRow_, (module && v == Variant::Rotary) || rotaryModel);
    if (s.modelMode())
        return;
    kvGroups_->setToolTip(
        tr("Key/value groups G: each group's keys and values are shared by heads / G query "
           "heads (1 = multi-query attention, G = heads = multi-head attention). For %1 heads: "
           "%2")
            .arg(s.config.heads)
            .arg(joinCounts(validKvGroupCounts(std::max<int64_t>(1, s.config.heads)))));
    latentDim_->setToolTip(
        tr("The latent size: each token's keys and values are rebuilt from this many numbers, "
           "all a key/value cache keeps (0 = auto: max(16, d_out / 8) = %1)")
            .arg(s.config.effectiveLatentDim()));
    headDim_->setToolTip(
        tr("Numbers per head; even, since RoPE turns pairs (0 = d_in / heads). Qwen3 uses 128 "
           "whatever d_in is"));
    ropeBase_->setEnabled(s.config.rope);
    const bool book = s.source == InputSource::Book;
    const bool file = s.source == InputSource::File;
    dIn_->setEnabled(!book && !file);
    const QString dInTip =
        tr("d_in: the size of each token's embedding vector (1 to %L1)").arg(kMaxDimension);
    dIn_->setToolTip(book   ? tr("The book's input vectors are 3-dimensional")
                     : file ? tr("Set by the loaded embeddings file")
                            : dInTip);
    const bool weights = variantHasWeights(v);
    const bool loaded = !s.weightsFile.isEmpty();
    dOut_->setEnabled(variantHasDOut(v));
    seed_->setEnabled(weights && !loaded);
    // Qwen3's class has no biases; a bias set on another variant stays clickable to switch off.
    qkvBias_->setEnabled(weights && v != Variant::SelfAttentionV1 &&
                         (v != Variant::Rotary || s.config.qkvBias));
    heads_->setEnabled(variantHasHeads(v));
    heads_->setToolTip(
        v == Variant::Rotary
            ? tr("The number of query heads (1 to %L1); the key/value groups must divide it")
                  .arg(kMaxDimension)
        : variantHasHeads(v)
            ? tr("The number of heads (1 to %L1). For d_out = %2 the heads must divide it: %3")
                  .arg(kMaxDimension)
                  .arg(s.config.dOut)
                  .arg(joinCounts(validHeadCounts(s.config.dOut)))
            : tr("This variant has a single head"));
    window_->setEnabled(s.config.effectiveMask().kind == MaskKind::Window);
    dropoutRng_->setEnabled(s.config.dropout > 0.0 && s.config.mode == Mode::Train);
    embeddingSeed_->setEnabled(s.source == InputSource::Text);
    positions_->setEnabled(s.source == InputSource::Text);
}

}  // namespace attn

#include "app/input_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>

#include "app/field_errors.h"
#include "app/setting_controls.h"
#include "app/token_chips.h"
#include "app/workspace.h"
#include "pipeline/model_request.h"
#include "pipeline/options.h"
#include "tokenizer/hf_tokenizer.h"

namespace attn {

namespace {

const char* const kBookPreset = "book";
// The tokenizer combo's item for the model's own tokenizer (model mode only).
const int kModelsTokenizer = -1;
const char* const kCustomPreset = "custom";

QString tokenizerTip() {
    return InputPanel::tr(
        "How the text becomes tokens: GPT-2's byte-pair encoding (as tiktoken), words and "
        "punctuation, or single characters");
}

// The preset the settings are, by key ("custom" when none fits). The book's vectors are the
// book example whatever module they go through (the lesson shows several).
QString presetOf(const Settings& s) {
    if (s.source == InputSource::Book)
        return QLatin1String(kBookPreset);
    if (s.source == InputSource::Text)
        for (const SizePreset& p : sizePresets()) {
            Config c = s.config;
            applySizePreset(&c, p);
            if (c == s.config)
                return QLatin1String(p.key);
        }
    return QLatin1String(kCustomPreset);
}

QString presetTitle(const SizePreset& p) {
    return InputPanel::tr("%1 (d %2, %3 heads)").arg(QLatin1String(p.name)).arg(p.d).arg(p.heads);
}

}  // namespace

const QStringList& InputPanel::fields() {
    static const QStringList f = {QStringLiteral("input"), QStringLiteral("embeddings"),
                                  QStringLiteral("weights"), QStringLiteral("tokenizer")};
    return f;
}

InputPanel::InputPanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);

    text_ = new QPlainTextEdit(this);
    text_->setObjectName(QStringLiteral("textEdit"));
    text_->setAccessibleName(tr("Sentence"));
    text_->setPlaceholderText(tr("Type a sentence..."));
    text_->setToolTip(tr("The text to tokenize and embed. Every view follows as you type."));
    text_->setTabChangesFocus(true);
    // About three lines: enough to see a sentence, small enough to leave the heatmap room.
    text_->setFixedHeight(text_->fontMetrics().lineSpacing() * 3 + 14);
    v->addWidget(text_);
    QLabel* inputError = makeErrorLabel(this, QStringLiteral("error_input"));
    v->addWidget(inputError);

    form_ = new QFormLayout;
    QFormLayout* form = form_;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    tokenizer_ = new QComboBox(this);
    tokenizer_->setObjectName(QStringLiteral("tokenizerCombo"));
    makeCompact(tokenizer_);
    tokenizer_->addItem(tr("GPT-2 BPE"), int(TokenizerKind::Gpt2));
    tokenizer_->addItem(tr("Words"), int(TokenizerKind::Words));
    tokenizer_->addItem(tr("Characters"), int(TokenizerKind::Chars));
    tokenizer_->setToolTip(tokenizerTip());
    form->addRow(tr("&Tokenizer"), tokenizer_);
    preset_ = new QComboBox(this);
    preset_->setObjectName(QStringLiteral("presetCombo"));
    makeCompact(preset_);
    preset_->addItem(tr("Book example (6 tokens, 3-d)"), QLatin1String(kBookPreset));
    for (const SizePreset& p : sizePresets())
        preset_->addItem(presetTitle(p), QLatin1String(p.key));
    preset_->addItem(tr("Custom"), QLatin1String(kCustomPreset));
    preset_->setToolTip(
        tr("The chapter's example (its six 3-d vectors and module), or a GPT-2 size for the "
           "text. Custom: your own settings."));
    form->addRow(tr("&Preset"), preset_);
    v->addLayout(form);

    source_ = new QLabel(this);
    source_->setObjectName(QStringLiteral("sourceLabel"));
    source_->setWordWrap(true);
    source_->setForegroundRole(QPalette::PlaceholderText);  // secondary, in light and dark
    v->addWidget(source_);
    notes_ = new QLabel(this);
    notes_->setObjectName(QStringLiteral("fileNotes"));
    notes_->setWordWrap(true);
    notes_->hide();
    v->addWidget(notes_);
    QLabel* embeddingsError = makeErrorLabel(this, QStringLiteral("error_embeddings"));
    QLabel* weightsError = makeErrorLabel(this, QStringLiteral("error_weights"));
    QLabel* tokenizerError = makeErrorLabel(this, QStringLiteral("error_tokenizer"));
    v->addWidget(embeddingsError);
    v->addWidget(weightsError);
    v->addWidget(tokenizerError);

    chips_ = new TokenChips(this);
    chips_->setObjectName(QStringLiteral("tokenChips"));
    chipsScroll_ = new QScrollArea(this);
    chipsScroll_->setObjectName(QStringLiteral("chipsScroll"));
    chipsScroll_->setWidget(chips_);
    chipsScroll_->setWidgetResizable(true);
    chipsScroll_->setFrameShape(QFrame::NoFrame);
    chipsScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    chipsScroll_->viewport()->installEventFilter(this);
    v->addWidget(chipsScroll_);

    errors_ = new FieldErrors(this);
    errors_->add(QStringLiteral("input"), inputError, {text_});
    errors_->add(QStringLiteral("embeddings"), embeddingsError);
    errors_->add(QStringLiteral("weights"), weightsError);
    errors_->add(QStringLiteral("tokenizer"), tokenizerError, {tokenizer_});

    connect(text_, &QPlainTextEdit::textChanged, this, &InputPanel::onTextEdited);
    connect(tokenizer_, &QComboBox::activated, this, &InputPanel::onTokenizer);
    connect(preset_, &QComboBox::activated, this, &InputPanel::onPreset);
    connect(workspace_, &Workspace::settingsChanged, this, &InputPanel::fromSettings);
    // A file that could not be opened (not UTF-8, not an embeddings file) is said until the
    // user does something else: then the message is about the past and goes.
    connect(workspace_, &Workspace::settingsChanged, this, [this] {
        for (const char* field : {"input", "embeddings", "weights"})
            errors_->setNote(QLatin1String(field), QString());
    });
    connect(workspace_, &Workspace::filesChanged, this, &InputPanel::fromSettings);
    connect(workspace_, &Workspace::modelChanged, this, &InputPanel::fromSettings);
    connect(workspace_, &Workspace::tokensChanged, this, &InputPanel::onTokens);
    auto showNotes = [this] {
        const QStringList notes = workspace_->fileNotes();
        notes_->setText(notes.join(QLatin1Char('\n')));
        notes_->setVisible(!notes.isEmpty());
    };
    connect(workspace_, &Workspace::resultApplied, this, [this, showNotes] {
        errors_->show(workspace_->issues());
        showNotes();
    });
    connect(workspace_, &Workspace::modelNotesChanged, this, showNotes);
    fromSettings();
}

QString InputPanel::fieldError(const QString& field) const {
    return errors_->text(field);
}

void InputPanel::setFileError(const QString& field, const QString& text) {
    errors_->setNote(field, text);
}

void InputPanel::focusText() {
    text_->setFocus();
    text_->selectAll();
}

void InputPanel::fromSettings() {
    const Settings& s = workspace_->settings();
    showText();
    // In model mode the tokens are the model's: its tokenizer.json, or GPT-2's for a GPT-2
    // model. The combo says so with an item of its own, which only model mode has.
    const int modelsItem = tokenizer_->findData(kModelsTokenizer);
    if (modelsItem >= 0)
        tokenizer_->removeItem(modelsItem);
    if (s.modelMode()) {
        const auto& model = workspace_->model();
        const HfTokenizer* own = model ? model->tokenizer.get() : nullptr;
        // GPT-2's tokenizer is the model's only for a GPT-2 model; for another family without
        // its tokenizer.json it only stands in, and the control says so.
        const QString standIn = model ? modelTokenizerNote(*model) : QString();
        tokenizer_->addItem(own                 ? tr("The model's (tokenizer.json)")
                            : standIn.isEmpty() ? tr("GPT-2 BPE (the model's)")
                                                : tr("GPT-2 BPE (not the model's)"),
                            kModelsTokenizer);
        tokenizer_->setItemData(
            tokenizer_->count() - 1,
            own ? tr("The model's own tokenizer, from its tokenizer.json (%1), with the special "
                     "tokens it adds")
                      .arg(QString::fromStdString(own->description()))
            : standIn.isEmpty() ? tr("A GPT-2 model reads GPT-2 tokens")
                                : standIn,
            Qt::ToolTipRole);
        tokenizer_->setToolTip(
            tokenizer_->itemData(tokenizer_->count() - 1, Qt::ToolTipRole).toString());
        tokenizer_->setCurrentIndex(tokenizer_->count() - 1);
    } else {
        tokenizer_->setCurrentIndex(tokenizer_->findData(int(s.tokenizer)));
        tokenizer_->setToolTip(tokenizerTip());
    }
    preset_->setCurrentIndex(preset_->findData(presetOf(s)));
    const bool file = s.source == InputSource::File;
    text_->setReadOnly(file);
    text_->setEnabled(!file);
    // A model reads its own tokens; the presets are sizes of the chapter's module.
    tokenizer_->setEnabled(!file && !s.modelMode());
    // The sizes are the model file's (the line under the model picker says them), so a greyed
    // "Custom" would only raise the question of what it means.
    form_->setRowVisible(preset_, !s.modelMode());
    text_->setToolTip(file ? tr("The input is the loaded embeddings file (File > Forget loaded "
                                "files to type again)")
                           : tr("The text to tokenize and embed. Every view follows as you type."));
    source_->setText(
        s.idsAreInput()
            ? sourceText(s) + QLatin1Char(' ') +
                  tr("The tokens were given as ids (--ids, or the induction test); typing a "
                     "text replaces them.")
            : sourceText(s));
}

QString InputPanel::sourceText(const Settings& s) const {
    if (s.modelMode()) {
        const auto& model = workspace_->model();
        if (model && model->arch.rope)
            return tr(
                "x: the model's token embeddings of the text's tokens; positions enter "
                "as the rotation (RoPE) of queries and keys. Weights: the model's.");
        return tr(
            "x: the model's token and position embeddings of the text's GPT-2 tokens. "
            "Weights: the model's.");
    }
    QString x;
    switch (s.source) {
        case InputSource::Book:
            x = tr("x: the book's six 3-d vectors (chapter 3).");
            break;
        case InputSource::Text:
            x = tr("x: chapter-2 embeddings, seed %1%2.")
                    .arg(s.embeddingSeed)
                    .arg(s.positions ? tr(", with positions") : tr(", no positions"));
            break;
        case InputSource::File:
            x = tr("x: loaded from %1.").arg(QFileInfo(s.embeddingsFile).fileName());
            break;
    }
    if (!variantHasWeights(s.config.variant))
        return x + QLatin1Char(' ') + tr("No weights.");
    if (!s.weightsFile.isEmpty())
        return x + QLatin1Char(' ') +
               tr("Weights: loaded from %1.").arg(QFileInfo(s.weightsFile).fileName());
    return x + QLatin1Char(' ') + tr("Weights: torch.manual_seed(%1).").arg(s.config.seed);
}

void InputPanel::showText() {
    // Ids given instead of a text (--ids, the induction test) are the tokens: the box shows what
    // they spell (Workspace::shownText), not a sentence they did not come from.
    const QSignalBlocker block(text_);
    const QString shown = workspace_->shownText();
    if (text_->toPlainText() != shown)
        text_->setPlainText(shown);
}

void InputPanel::onTextEdited() {
    Settings s = workspace_->settings();
    if (s.source == InputSource::File)
        return;
    s.text = text_->toPlainText();
    s.source = InputSource::Text;
    // Token ids given instead of text were what the box showed: the typed text replaces them
    // (they stay its tokens while it is still what they spell).
    if (!s.inputIds.empty()) {
        s.tokenIds = std::move(s.inputIds);
        s.inputIds.clear();
    }
    workspace_->change(s, tr("Typing"));
}

void InputPanel::onTokenizer(int index) {
    Settings s = workspace_->settings();
    s.tokenizer = TokenizerKind(tokenizer_->itemData(index).toInt());
    // A tokenizer is for text: the book example becomes its sentence as typed text.
    if (s.source == InputSource::Book) {
        s.text = s.inputText();
        s.source = InputSource::Text;
    }
    workspace_->change(s, tr("Change the tokenizer"));
}

void InputPanel::onPreset(int index) {
    const QString key = preset_->itemData(index).toString();
    Settings s = workspace_->settings();
    if (key == QLatin1String(kBookPreset)) {
        s.source = InputSource::Book;
        s.config = Settings::bookConfig();
        s.weightsFile.clear();
    } else if (const SizePreset* p = findSizePreset(key)) {
        applySizePreset(&s.config, *p);
        if (s.source == InputSource::Book) {
            s.text = s.inputText();
            s.source = InputSource::Text;
        }
    } else {
        return;  // Custom keeps the settings as they are
    }
    workspace_->change(s, tr("Preset: %1").arg(preset_->itemText(index)));
    fromSettings();  // a preset that changes nothing still shows its name
}

void InputPanel::onTokens() {
    const Settings& s = workspace_->settings();
    if (s.idsAreInput())
        showText();
    if (s.source == InputSource::File)
        chips_->setMessage(tr("(embeddings from a file: no tokens)"));
    else
        chips_->setTokens(workspace_->tokens().tokens);
    fitChipsHeight();
}

void InputPanel::fitChipsHeight() {
    // As tall as the chips need, up to about four rows; then it scrolls. With a trained model
    // it keeps three rows whatever the text: Append, under it, is pressed again and again, and
    // a chip row more must not move the button away from the mouse. The newest token is then
    // scrolled into view.
    const int w = std::max(100, chipsScroll_->viewport()->width());
    const int h = chips_->heightForWidth(w);
    const int row = chips_->fontMetrics().lineSpacing() * 2;
    const int rows4 = row * 4 + 30;
    if (workspace_->settings().modelMode()) {
        chipsScroll_->setFixedHeight(row * 3 + 22);
        QTimer::singleShot(0, this, [this] {
            chipsScroll_->verticalScrollBar()->setValue(
                chipsScroll_->verticalScrollBar()->maximum());
        });
        return;
    }
    chipsScroll_->setFixedHeight(std::clamp(h + 4, 30, rows4));
}

bool InputPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == chipsScroll_->viewport() && event->type() == QEvent::Resize)
        QTimer::singleShot(0, this, &InputPanel::fitChipsHeight);
    return QWidget::eventFilter(watched, event);
}

}  // namespace attn

#pragma once
// Everything a user sets, in one value type: what goes in (text, tokenizer, embeddings, files),
// the chapter-3 module (Config) and what the views show (step, head, colours). The window,
// sessions, QSettings, the app's launch options and the CLI all read and write it through one
// codec, settingFields(): adding a setting means a member here, its entry in settings.cpp and
// its control in the window, nothing else.

#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVariantMap>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ablation.h"
#include "engine/config.h"
#include "engine/facts.h"
#include "engine/step_ids.h"
#include "pipeline/colors.h"
#include "tokenizer/tokenizer.h"

namespace attn {

// Where the input x comes from.
enum class InputSource {
    Book,  // the chapter's six 3-d vectors (bookInputs())
    Text,  // text -> tokenizer -> chapter-2 embeddings (torch.manual_seed(embedding_seed))
    File   // a (T, d_in) or (b, T, d_in) matrix from an embeddings file
};
std::string inputSourceName(InputSource s);  // "book", "text", "file"
std::optional<InputSource> parseInputSource(std::string_view s);

// The decimals a cell may print (Settings::decimals).
inline constexpr int kMinDecimals = 1;
inline constexpr int kMaxDecimals = 4;

struct Settings {
    // What goes in.
    InputSource source = InputSource::Book;
    QString text;  // the typed text, kept while the book example or a file is shown
    // The ids Append built the text from, token by token (GPT-2's, or with a model its own
    // tokenizer's). While they decode to the text (and the tokenizer is GPT-2's or the model's)
    // they are its tokens: tokenizing it again could merge what the model generated (two
    // appended line breaks would become one token, 628) or lose a byte token that is part of a
    // character (the text shows U+FFFD for it, and the ids are compared as characters too).
    // Any other text is tokenized as usual (textTokens).
    std::vector<int64_t> tokenIds;
    // Token ids given instead of text (the CLI's --ids): when there are any, they are the
    // tokens, read by the GPT-2 tokenizer or the model's own, and the text is not used.
    std::vector<int64_t> inputIds;
    TokenizerKind tokenizer = TokenizerKind::Gpt2;
    uint64_t embeddingSeed = 123;
    bool positions = true;
    QString embeddingsFile;  // read for InputSource::File
    QString weightsFile;     // a state_dict file; empty: weights drawn from config.seed

    // The module (defaults: the book's multi-head example).
    Config config = bookConfig();
    // A trained GPT model instead of the chapter-3 module: a model file (.safetensors, .pth,
    // .pt, .bin) or the name of a model that ships with the app ("tiny-shakespeare"); empty for
    // the chapter's module. Its attention of block `layer` is what the step views show.
    QString modelFile;
    // The path of a single weights file's config.json (the CLI's --config); a folder brings
    // its own. (Settings::config is the module's settings; io::ModelConfig a config.json read.)
    QString modelConfigFile;
    int layer = 0;
    // Heads switched off in model mode (DESIGN.md, Asking a model why), with how; ignored by the
    // chapter-3 module.
    HeadAblation ablation;

    // What the views show.
    QString step = QString::fromLatin1(step_id::kWeights);
    int head = 0;
    int batchIndex = 0;
    QString colormap = QStringLiteral("auto");  // "auto" (by step) or a colormapName()
    bool showValues = true;
    // Decimals the cells print (kMinDecimals to kMaxDecimals; the book prints 4); whole-number
    // matrices (masks) print none.
    int decimals = 2;
    ColorScale colorScale = ColorScale::Matrix;

    Settings();
    friend bool operator==(const Settings&, const Settings&) = default;

    // The chapter's example: multi-head, d_in 3, d_out 2, two heads, causal mask, seed 123.
    static Config bookConfig();
    // The text the input uses: the book's sentence for InputSource::Book.
    QString inputText() const;
    // The tokens of inputText() by `tokenizer`, or the ids in tokenIds where they still are
    // the text, or the GPT-2 tokens of inputIds (UserError("ids") for an id GPT-2 has not, or
    // a tokenizer other than GPT-2's, whose ids mean nothing without a text).
    std::vector<Token> textTokens() const;
    bool modelMode() const { return !modelFile.isEmpty(); }
    // True when inputIds are the tokens: a trained model's, or a typed text's (the book's
    // vectors and an embeddings file leave them unread).
    bool idsAreInput() const {
        return !inputIds.empty() && (modelMode() || source == InputSource::Text);
    }
};

// The settings a session or the window starts from: the book example.
Settings bookSettings();

// Which part of the settings a field belongs to. The CLI offers the input and module fields to
// every command, and the view fields to the commands that draw or export a step.
enum class SettingGroup { Input, Module, View };

// One setting: its name in sessions, QSettings and JSON, its command-line option, and how it is
// read from and written to a Settings.
struct SettingField {
    const char* key;        // "d_in"
    const char* option;     // "d-in"; nullptr: no command-line option of its own
    const char* valueName;  // "n"; nullptr: the option is a flag
    const char* help;       // the option's --help text
    SettingGroup group;
    // A flag that turns the setting off (--no-positions); plain flags turn it on (--qkv-bias).
    bool negatedFlag;
    // Whether the setting says something about a run of these settings: what a run's record
    // lists (settingFacts). A chapter-3 module's settings apply to the variants that have them
    // (rope_base to rotary, kv_groups to grouped-query and rotary, no d_out for rotary); in
    // model mode (with config the traced layer's module) the model's architecture tells its
    // sizes, so only what the steps follow (variant, mask, mode, ...) and the model's own
    // settings (model, layer, ablate) apply.
    bool (*applies)(const Settings&);
    // The value: ints as qlonglong, seeds as qulonglong (settingsToMap writes them as text).
    QVariant (*get)(const Settings&);
    // Sets the field from a value: the text of a command-line option, or the JSON/QSettings value
    // get() wrote. Returns what is wrong, empty when set; "{}" in it stands for the setting's
    // name as the reader knows it (settingProblem).
    QString (*set)(Settings&, const QVariant&);
};

// A problem set() returned as a sentence, with `name` ("--d-in", "\"d_in\"") for "{}":
// "--d-in expects a whole number, got \"x\"."
QString settingProblem(const QString& problem, const QString& name);

// Every setting, in the order sessions write them.
const std::vector<SettingField>& settingFields();
const SettingField* findSettingField(QStringView key);
const SettingField* findSettingOption(QStringView option);

// Every field by key: ints as qlonglong, seeds as decimal text (JSON numbers cannot hold 2^64-1
// exactly), the rest as strings, bools and doubles.
QVariantMap settingsToMap(const Settings& settings);

// The input and module fields that apply to `settings` (SettingField::applies), in table order,
// each under its key with its value (seeds as whole numbers): a run's record, made from the one
// table, so a new setting appears in it without an edit elsewhere.
Facts settingFacts(const Settings& settings);

// `base` with the values of `map` applied, key by key. Keys the map lacks keep base's value and
// are listed in *missing (older sessions lack settings that came later); keys it has that no
// field knows are ignored. A value a field cannot take throws UserError("settings", "\"d_in\"
// <problem>").
Settings settingsFromMap(const QVariantMap& map, const Settings& base,
                         QStringList* missing = nullptr);

}  // namespace attn

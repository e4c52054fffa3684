#pragma once
// The settings as command-line options, shared by attention-lens-cli and the app's launch
// options: every option is a settings field (pipeline/settings.h) plus --preset and
// --text-file, which set several fields at once.

#include <QString>
#include <QVariantMap>
#include <initializer_list>
#include <vector>

#include "pipeline/settings.h"

class QCommandLineParser;

namespace attn {

// The GPT-2 sizes the presets offer: d_in = d_out = d, with GPT-2's heads.
struct SizePreset {
    const char* key;   // "gpt2-small"
    const char* name;  // "GPT-2 small"
    int64_t d;
    int64_t heads;
};
const std::vector<SizePreset>& sizePresets();
const SizePreset* findSizePreset(const QString& key);
// GPT-2's context length, the same for every size.
constexpr int64_t kGpt2ContextLength = 1024;
// The module of a GPT-2 size: multi-head attention, d_in = d_out = d, its heads, causal mask,
// GPT-2's context length (a shorter one left by the tour would refuse a longer sentence).
void applySizePreset(Config* config, const SizePreset& preset);

// Registers the options of the fields of `groups`; with SettingGroup::Input also --preset and
// --text-file.
void addSettingOptions(QCommandLineParser& parser, std::initializer_list<SettingGroup> groups);

// The settings the given options set, by setting key, plus "preset" for --preset (a GPT-2
// size or book). --text-file is read here: its text arrives under "text". Options not given are
// not in the map. Throws UserError naming the option and what it accepts.
QVariantMap givenSettings(const QCommandLineParser& parser);
// Throws UserError for given settings that would be ignored, since an option never silently
// does nothing: the chapter-3 module's options (--variant, --seed, --tokenizer, a GPT-2
// --preset, ...) with --model, and --config, --layer, --ablate, --ablate-mode without it.
// givenSettings calls it; --ids with a text is refused there too.
void checkGivenSettingsApply(const QVariantMap& given);

// `base` with the given settings applied, and only those, by the rules a user expects:
// - --preset book is an input: the book's six vectors (d_in 3); a GPT-2 preset sets the module
//   (multi-head, d_in = d_out = its size, its heads, causal) and turns the book example into
//   its sentence as text;
// - --text, --text-file and --embeddings choose the input they name, --ids the text input (the
//   ids are its tokens); --tokenizer on the book example turns it into its sentence as text;
// - --variant without --mask gives the variant's own mask, as each chapter module has one.
// Throws UserError for a value a field cannot take (givenSettings already checked them).
Settings applyGivenSettings(const Settings& base, const QVariantMap& given);

// The option names ("d-in", "preset", ...) the map came from, for messages.
QString optionNameOf(const QString& key);

// Reads a text file as UTF-8 for --text-file and File > Open text: a leading byte-order mark is
// dropped; a file that is not valid UTF-8 is refused with the byte offset of the first bad byte,
// never changed. Throws UserError("input", ...).
QString readUtf8TextFile(const QString& path);

}  // namespace attn

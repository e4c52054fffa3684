#pragma once
// The one path from settings to a trace, for the app's worker thread, the CLI, the PyTorch code
// and the teaching views: read the files a setting names, tokenize, check everything, embed,
// trace. QtCore only; nothing here knows about windows or the command line.

#include <QStringList>
#include <QVariantMap>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/cancel.h"
#include "engine/trace.h"
#include "pipeline/settings.h"
#include "tokenizer/tokenizer.h"

namespace attn {

// The files the settings name, read once: the app keeps them while the user types.
struct InputFiles {
    std::shared_ptr<const Tensor> embeddings;  // Settings::embeddingsFile
    std::shared_ptr<const WeightMap> weights;  // Settings::weightsFile
};

// Reads an embeddings file ((T, d_in) or (b, T, d_in)) or a weights file. Throws
// UserError("embeddings" / "weights", ...).
std::shared_ptr<const Tensor> readEmbeddings(const QString& path);
std::shared_ptr<const WeightMap> readWeights(const QString& path);
// Both, as far as `settings` names them (the embeddings only for InputSource::File).
InputFiles readInputFiles(const Settings& settings);

// What loaded files decide, unless the user gave the setting explicitly:
// - an embeddings file sets d_in to its width, and a (b, T, d_in) file the batch size;
// - a weights file saved from the chapter's modules holds the `mask` buffer (context_length x
//   context_length), whose size sets the context length. When the user gave a different context
//   length, that is an error naming both (UserError("context_length", ...)).
// Returns a note for each setting a file changed, e.g. "The context length is 6, the size of the
// mask buffer in w.safetensors."
struct GivenSizes {
    bool dIn = false;
    bool contextLength = false;
};
// The one rule for which sizes are the user's: those the options name (`given`, by setting key),
// and the context length also when the settings the options apply to (`before`: a session, the
// window's current settings, or the defaults for the CLI) already hold one other than the
// default, since the user or a file chose it there.
GivenSizes givenSizes(const Settings& before, const QVariantMap& given);
QStringList fitSettingsToFiles(Settings* settings, const InputFiles& files, GivenSizes given);

// The tokens of the input and one label per row of x: the token text for typed text, the book's
// words, or the row index for an embeddings file. Cheap: the app shows them before the trace.
struct InputTokens {
    std::vector<Token> tokens;        // empty unless the input is text
    std::vector<std::string> labels;  // one per row of x
    int64_t count() const { return int64_t(labels.size()); }
};
// Throws UserError("input", ...) when the typed text, with context length checked: a text
// that surely has more tokens than the context length is refused (textBeyondContext) before
// the whole of it is tokenized.
InputTokens tokenizeInput(const Settings& settings, const InputFiles& files);

// Throws UserError("input") when `text` surely has more than `contextLength` tokens, found
// without tokenizing all of it: `countTokens` counts the tokens of ever longer beginnings of the
// text (8 bytes per token of the context, then 4 times more each time), each cut at a space
// between two words, where a tokenizer's pre-tokenizer cuts too, until one alone has more
// tokens than the context. A 31 MB text meets a context of 1,024 GPT-2 tokens after its first
// 8 KB. A text that might fit is left to be tokenized whole (at most a third more work).
// `contextIsSetting`: the chapter-3 module's context length, which the user may raise (the
// message says so), not a model's.
void refuseTextBeyondContext(std::string_view text, int64_t contextLength, bool contextIsSetting,
                             const std::function<int64_t(std::string_view)>& countTokens);
// The text of a text file of `bytes` bytes has more than `contextLength` tokens when it has
// more than maxBytesPerToken (the most a token stands for; -1: no bound) times as many bytes:
// then the file is refused before it is read (QString() when it may fit).
QString textFileBeyondContext(const QString& path, int64_t bytes, int64_t contextLength,
                              bool contextIsSetting, int64_t maxBytesPerToken);

// Every problem with running `settings` on `tokens` tokens, each with the field of the control
// it belongs to: the module's validation, no tokens, the book's 3-d vectors, an embeddings file
// whose width or batch does not fit, weights that do not fit the module. Empty when it can run.
std::vector<ValidationIssue> checkSettings(const Settings& settings, const InputFiles& files,
                                           int64_t tokens);

// The input x of the trace: (T, d_in), or (b, T, d_in) from a 3-d embeddings file.
// Throws UserError for the first problem checkSettings finds, Cancelled when cancelled.
Tensor embedInput(const Settings& settings, const InputFiles& files, const InputTokens& tokens,
                  const CancelToken* cancel = nullptr);

// One request's result: the settings it ran with, its input and every step.
struct TraceRun {
    Settings settings;
    InputTokens input;  // the tokens and the row labels
    Tensor x;           // the input matrix as embedInput made it (the step "inputs")
    std::shared_ptr<const Trace> trace;
};
// The labels of the run's rows (its tokens, or "0".."T-1"), as the figures and views take them.
QStringList rowLabels(const TraceRun& run);

}  // namespace attn

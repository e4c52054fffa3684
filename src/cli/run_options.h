#pragma once
// The input and model options shared by attention-lens-cli and the app's launch options
// (SPEC section 6), and the input pipeline they drive: text -> tokens -> embeddings x.

#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "engine/cancel.h"
#include "engine/config.h"
#include "engine/tensor.h"
#include "engine/trace.h"
#include "tokenizer/tokenizer.h"

class QCommandLineParser;

namespace attn {

enum class InputKind { BookPreset, Text, Embeddings };

struct InputSpec {
    InputKind kind = InputKind::BookPreset;
    std::string text;            // UTF-8, for InputKind::Text
    std::string embeddingsPath;  // for InputKind::Embeddings
    TokenizerKind tokenizer = TokenizerKind::Gpt2;
    uint64_t embeddingSeed = 123;
    bool positions = true;
};

struct RunSpec {
    Config config;
    InputSpec input;
    std::optional<std::string> weightsPath;
    bool dInGiven = false;  // --d-in was given; else an embeddings file decides d_in
};

// Registers --preset, --text, --text-file, --embeddings, --tokenizer, --variant, --d-in, --d-out,
// --heads, --mask, --dropout, --mode, --dropout-rng, --seed, --embedding-seed, --no-positions,
// --qkv-bias, --batch, --context-length, --weights.
void addRunOptions(QCommandLineParser& parser);

// Reads them back. Throws EngineError(field, message) naming the option and what is allowed.
// Defaults: the book example (preset book, multi-head, d_in 3, d_out 2, 2 heads, seed 123).
// `bookIsDefaultInput` false: the caller has an input of its own when no input option is given
// (the app: a session file, or the typed text), so --d-in is checked against the book's 3-d
// vectors only when --preset book is given.
RunSpec parseRunOptions(const QCommandLineParser& parser, bool bookIsDefaultInput = true);

struct PreparedInput {
    Tensor inputs;                    // (T, d_in) or (b, T, d_in)
    std::vector<std::string> labels;  // one display label per token
    std::vector<Token> tokens;        // empty unless the input was text
};

// Tokenizes and embeds (or loads) the input of `spec`. Throws EngineError.
PreparedInput prepareInput(const RunSpec& spec, const CancelToken* cancel = nullptr);

// Loads --weights if given (nullopt otherwise) and checks it against the configuration.
std::optional<WeightMap> loadWeights(const RunSpec& spec);

// prepareInput + loadWeights + runTrace.
struct RunResult {
    PreparedInput input;
    Trace trace;
};
RunResult runSpec(const RunSpec& spec, const CancelToken* cancel = nullptr,
                  const ProgressFn& progress = {});

}  // namespace attn

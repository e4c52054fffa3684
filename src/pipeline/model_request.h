#pragma once
// The request path of model mode: a trained GPT-2-architecture model (a user's file or one that
// ships with the app) run over the text's GPT-2 tokens, and one of its blocks shown as the
// chapter-3 multi-head trace, so every step view, export and derivation works on real weights.

#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

#include "engine/decoder_forward.h"
#include "pipeline/request.h"

namespace attn {

// The models that ship with the app, by name ("tiny-shakespeare"), and where they are: the
// folder in ATTN_MODEL_DIR, else share/attention-lens/models beside the program (installed:
// <prefix>/bin/../share/...; build tree: build/src/<program>/../../share/...).
QStringList bundledModelNames();
QString bundledModelDirectory();
// The file or folder a --model value names: a bundled model's file, or the path itself. Throws
// UserError("model", ...) for a name that is neither a file, a folder nor a bundled model.
QString modelFilePath(const QString& nameOrPath);

// The name a model goes by in titles and the status line: a bundled model's name, a folder's
// name, or a file's name without its extension ("qwen3-0.6b" for the folder qwen3-0.6b and
// for qwen3-0.6b.safetensors; QFileInfo::completeBaseName would cut the folder at its dot).
QString modelName(const QString& nameOrPath);

// Reads a model (UserError("model"/"heads"/"tokenizer", ...), Cancelled). `heads` overrides a
// GPT-2 file's; `configPath` gives a single weights file its config.json.
using ModelLoadProgress = std::function<void(int done, int total, const QString& what)>;
std::shared_ptr<const DecoderModel> loadModel(const QString& nameOrPath,
                                              std::optional<int64_t> heads = std::nullopt,
                                              const CancelToken* cancel = nullptr,
                                              const ModelLoadProgress& progress = {},
                                              const QString& configPath = {});

// The tokens `model` reads: by its own tokenizer (with the special tokens its post-processor
// adds, Gemma 3's <bos>) when it has one, else GPT-2's (also when the model is not read yet);
// of the typed text or the book's sentence, or the ids given (Settings::inputIds).
InputTokens modelTokens(const Settings& settings, const DecoderModel* model);
// Which tokenizer cuts the text for `model`: "tokenizer.json" (its own) or "gpt2".
QString modelTokenizerName(const DecoderModel& model);
// What `model` is, as facts: the naming scheme its weights were read with ("names": "hf" or
// "book"), its architecture's facts (architectureFacts: of block `layer` when >= 0), the
// file's weight type ("dtype") and the tokenizer that cuts its text ("tokenizer", as
// modelTokenizerName, and "tokenizer_is_the_models": false when GPT-2's stands in).
Facts modelFacts(const DecoderModel& model, int64_t layer = -1);
// Empty when the tokenizer is the model's (its tokenizer.json, or GPT-2's for a GPT-2 model or
// a file whose metadata says "tokenizer": "gpt2");
// else why GPT-2's stands in and what that means ("qwen3 has no tokenizer.json: GPT-2's
// tokenizer cuts the text, ..."), for the app and the CLI to say.
QString modelTokenizerNote(const DecoderModel& model);
// The most bytes of text one token of the settings' tokenizer (the model's, in model mode) stands
// for, -1 when there is no such bound (words, HfTokenizer::maxTextBytesPerToken), and the
// context length it must fit: what File > Open text checks a file's size against.
int64_t maxTextBytesPerToken(const Settings& settings, const DecoderModel* model);
int64_t contextLengthOf(const Settings& settings, const DecoderModel* model);
// The token `id` is for `model`: its own tokenizer's, else GPT-2's (also without a model).
// Throws std::out_of_range beyond that tokenizer's vocabulary.
Token modelToken(const DecoderModel* model, int64_t id);

// The induction test's ids (the CLI's --repeat-random, the Head scores page's "Test for
// induction"): the model's beginning-of-text token where its tokenizer puts one first (GPT-2's
// <|endoftext|> for a GPT-2 model), then `n` distinct ids drawn with `seed` from every ordinary
// token the model has (no special or added token), said `repeats` times. Throws
// UserError("repeat-random" | "repeats") as repeatedRandomIds does.
std::vector<int64_t> inductionTestIds(const DecoderModel& model, int64_t n, int64_t repeats,
                                      uint64_t seed);
// Every problem with running `model` on the settings' text, each with its control's field:
// no tokens, more tokens than the model's context, a tokenizer other than GPT-2's (for a model
// without its own), ids beyond
// its vocabulary, a layer it does not have, an embeddings file as input.
std::vector<ValidationIssue> checkModelSettings(const Settings& settings, const DecoderModel& model,
                                                const InputTokens& tokens);

// One model-mode result: the forward of every block, and the chapter-3 trace of one.
struct ModelRun {
    Settings settings;
    InputTokens input;
    std::shared_ptr<const DecoderModel> model;
    std::shared_ptr<const DecoderRun> run;
    // With heads switched off (settings.ablation), the same text with every head: what the
    // views show beside the changed numbers ("before"). Null without ablation.
    std::shared_ptr<const DecoderRun> baseline;
};
// Block settings.layer's attention as the chapter-3 multi-head trace (inputs = its LayerNorm1
// output, output = out_proj's), as a TraceRun the step views, exports and PyTorch listing take.
TraceRun layerTraceRun(const ModelRun& run, const CancelToken* cancel = nullptr);

// The same trace with the rest of the block around its attention, so a student sees where
// attention sits: `block_input` (the residual stream entering the block) before the chapter-3
// steps, and after them `residual_after_attention` (x + the attention's output), `norm2`,
// `ff_hidden` (GELU of the first feed-forward layer), `ff_output` and `block_output` (the next
// block's input). Each (1, T, d), ff_hidden (1, T, ff_hidden).
TraceRun layerTraceRunInBlock(const ModelRun& run, const CancelToken* cancel = nullptr);
// The ids of those steps around the attention.
const std::vector<std::string>& blockContextStepIds();
// The steps layerTraceRunInBlock makes for `tokens` tokens of layer `layer` of a model of
// `arch`, before they are computed (the pipeline strip and shape table while typing); with an
// empty `arch` (the model not read yet) only their ids and kinds are meaningful.
std::vector<StepInfo> plannedModelSteps(const DecoderArchitecture& arch, int64_t layer,
                                        int64_t tokens, bool simpleMaskSteps = true);

// The architecture in words, for the picker or the CLI: "gpt2, 4 layers, 4 heads of 32 (d 128),
// context 256, vocabulary 50257, F16"; "qwen3, 28 layers, 16 query heads sharing 8 key/value
// heads of 128 (d 1024), context 40960, vocabulary 151936, BF16"; with the sliding-window
// layers named ("a sliding window of 512 on 15 of 18 layers (full attention: 5, 11, 17)").
QString describeModel(const DecoderModel& model);
// What the model's file says about itself (its safetensors metadata: a model that ships with the
// app gives its description, validation loss against a bigram baseline, and licence), in a
// paragraph; empty when the file says none of that, as most checkpoints do.
QString describeModelOrigin(const DecoderModel& model);
// Only the validation-loss sentence of that ("Validation loss 4.5529 nats per token (a bigram
// model: 5.0167)."), short enough to stay under the picker; empty when the file gives no loss.
QString describeValidationLoss(const DecoderModel& model);
// Every metadata entry of the file, as an HTML table (key, value), for the details dialog;
// empty when the file has none.
QString modelMetadataHtml(const DecoderModel& model);

}  // namespace attn

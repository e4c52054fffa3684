#pragma once
// The forward pass of a DecoderModel over a token sequence, in float32 and eval mode, driven by its
// architecture (DecoderArchitecture) rather than by its family's name. GPT-2 (chapter 4):
//   x = tok_emb[ids] + pos_emb[0..T)
//   per block: x = x + out_proj(MHA(LayerNorm1(x)))   (causal mask, scores / sqrt(hd))
//              x = x + FF(LayerNorm2(x))             (Linear, GELU tanh approximation, Linear)
//   logits = final_norm(x) @ out_head.T               (the token embedding when tied)
// and the later families by the same steps with their features: RMSNorm (Gemma 3's 1 + w, its
// norms after attention and the feed-forward too), no position table but RoPE on queries and
// keys, key/value groups, QK-norm, sliding windows per layer, a gated feed-forward (SwiGLU,
// GeGLU), Gemma 3's embedding and query scales. A run keeps what the app and the CLI show without
// holding every step of every layer: each block's input, the final hidden states, per-head
// summaries and thumbnails, every layer's attention weights when they fit the memory budget, and
// for short texts each block's keys and values. Everything else (one layer's weights, a block's
// full chapter-3 step trace, the tensors around its attention, next-token probabilities at any
// position) is recomputed on demand from those.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/ablation.h"
#include "engine/cancel.h"
#include "engine/decoder_model.h"
#include "engine/trace.h"

namespace attn {

struct DecoderRun;

// Handed to DecoderRequest::progress on the computing thread as soon as a block is finished.
struct DecoderLayerDone {
    int64_t layer = 0;  // 0-based
    int64_t layers = 0;
    // (H, T, T), this layer's slice of DecoderRun::attention: the final values, never written
    // again. Empty when the run does not keep attention (then only the thumbnail exists).
    Tensor attention;
    Tensor thumbnail;  // (H, P, P), this layer's slice of DecoderRun::thumbnails
};
using DecoderProgressFn = std::function<void(const DecoderLayerDone&)>;

// Runs of up to this many tokens keep each block's keys and values (see DecoderRequest).
inline constexpr int64_t kKeysValuesKeptUpTo = 256;

// One activation taken from another run of the same ids' length (activation patching, SPEC
// 15): with head >= 0, that head's context in block `layer` at every position, (T, hd) in
// `values`; else the residual stream entering block `layer` at `position`, (d,).
struct ActivationPatch {
    int64_t layer = -1;
    int64_t head = -1;
    int64_t position = -1;
    std::shared_ptr<const Tensor> values;
    bool empty() const { return layer < 0; }
};

struct DecoderRequest {
    std::shared_ptr<const DecoderModel> model;
    std::vector<int64_t> ids;  // 1 to context_length token ids
    // An earlier run of the same model (typing: one more token). The longest common prefix of
    // the ids is copied from it, since in a causal model no earlier row depends on a later
    // token, and only the rows after it are computed. Used when both runs keep attention;
    // otherwise the run starts from scratch (the result is the same either way).
    std::shared_ptr<const DecoderRun> previous;
    // What the run may hold. Attention (L, H, T, T) is kept only if the whole run fits.
    uint64_t memoryBudgetBytes = uint64_t(2) << 30;
    // Each block's keys and values are kept up to this many tokens, so that typing one more
    // token reuses the whole prefix without recomputing them (their projections would cost a
    // short text's keystroke about 20 ms on GPT-2 small). Beyond it they are recomputed from the
    // block inputs where needed: at 1,024 tokens they would hold 75 MB of GPT-2 small's peak.
    int64_t keysValuesKeptUpTo = kKeysValuesKeptUpTo;
    int64_t thumbnailCells = 64;  // P = min(T, thumbnailCells)
    // Heads to switch off (UserError("ablate") for one the model has not). An earlier run's
    // prefix is reused only under the same ablation, and never with AblationMode::Mean, whose
    // mean over the positions changes every row when a token is added.
    HeadAblation ablation;
    // An activation from another run (after the ablation); a patched run reuses no prefix.
    ActivationPatch patch;
    const CancelToken* cancel = nullptr;
    DecoderProgressFn progress;
};

struct DecoderRun {
    std::shared_ptr<const DecoderModel> model;
    std::vector<int64_t> ids;
    // (L, H, T, T) every layer's attention weights (rows sum to 1, zero above the diagonal), or
    // empty when they do not fit the budget: layerAttention() recomputes one layer.
    Tensor attention;
    Tensor blockInputs;  // (L, T, d): the residual stream entering each block
    // (L, T, d): each block's keys and values, heads side by side (head h: h*hd..), or empty
    // beyond DecoderRequest::keysValuesKeptUpTo tokens.
    Tensor keys;
    Tensor values;
    Tensor finalHidden;  // (T, d): final_norm(x), what the output head multiplies
    // Per layer, head and query row i, of that row's weights w_i0..w_ii:
    Tensor rowEntropy;      // (L, H, T): -sum_j w_ij ln w_ij, in nats
    Tensor rowDistance;     // (L, H, T): sum_j w_ij (i - j), in tokens
    Tensor rowFirstWeight;  // (L, H, T): w_i0, the weight on the first token
    // The same averaged over the rows, (L, H): the layers x heads overview. The first-token
    // weight leaves out row 0, whose only visible key is the first token (always 1 under a
    // causal mask, no sign of a sink); NaN for a one-token text.
    Tensor meanEntropy, meanDistance, meanFirstWeight;
    // (L, H, P, P): each cell the mean of the visible weights (j <= i) in its block of rows and
    // columns, -inf where the block has none. Row and column i fall in cell i * P / T.
    Tensor thumbnails;
    int64_t reusedTokens = 0;  // rows copied from DecoderRequest::previous
    HeadAblation ablation;     // the heads switched off in this run

    int64_t tokens() const { return static_cast<int64_t>(ids.size()); }
    bool attentionKept() const { return !attention.empty(); }
    bool keysValuesKept() const { return !keys.empty(); }
};

// Checks the request (UserError "model", "input" or "memory" naming the problem), then runs
// the forward. Cancelled when the token is set (checked between blocks and inside every long
// loop). Thread-safe: one model serves any number of concurrent runs.
std::shared_ptr<const DecoderRun> runDecoder(const DecoderRequest& request);

// Bytes a run holds (including its largest transient buffers), with or without attention, and
// with the keys and values when `tokens` is at most keysValuesKeptUpTo.
uint64_t estimateDecoderRunBytes(const DecoderArchitecture& arch, int64_t tokens,
                                 int64_t thumbnailCells, bool keepAttention,
                                 int64_t keysValuesKeptUpTo = kKeysValuesKeptUpTo);

// Layer `layer`'s attention weights (H, T, T): a view of run.attention when kept, else
// recomputed from the block's input (and the kept keys and values when there are).
Tensor layerAttention(const DecoderRun& run, int64_t layer, const CancelToken* cancel = nullptr);

struct LayerTraceOptions {
    bool simpleMaskSteps = true;  // also the chapter's simple masking method (3 extra steps)
    uint64_t memoryBudgetBytes = uint64_t(2) << 30;
};

// The module a layer's trace runs: GPT-2's layers are the chapter's `multi-head` attention
// (d_in = d_out = d_model, the model's heads, its qkv bias, causal, eval); the other families'
// are the `rotary` module (their key/value groups, head size, QK-norm and RoPE base, and a
// sliding layer's window as the window:W mask).
Config layerTraceConfig(const DecoderArchitecture& arch, int64_t layer, int64_t tokens);

// Block `layer`'s attention as a step trace. GPT-2: the chapter-3 `multi-head` trace: `inputs` =
// the block's LayerNorm1 output (1, T, d), the module's parameters under their chapter-3 state_dict
// names (W_query.weight ... out_proj.bias: Hugging Face's c_attn columns and c_proj transposed into
// nn.Linear's (out, in)), every step from queries to `output` = out_proj's output. Its config
// says what it is: multi-head, d_in = d_out = d_model, the model's heads, qkv bias as the model
// has it, causal mask, eval mode, the model's context length. The other families: the `rotary`
// steps (DESIGN.md, Modules after chapter 3) of layerTraceConfig on the block's RMSNorm output,
// with the model's weights (W_query, W_key, W_value, out_proj, q_norm/k_norm scaled as the model
// scales them), its RMSNorm epsilon, RoPE scaling, Gemma's score scale and Qwen2's biases
// (ModelLayerExtras). Its ops name the model's own modules (nameModelModules).
Trace layerTrace(const DecoderRun& run, int64_t layer, const CancelToken* cancel = nullptr,
                 ProgressFn progress = {}, const LayerTraceOptions& options = {});

// One naming scheme per trace: the ops of block `layer`'s steps that call a module of the
// chapter-3 class (self.W_query(x), self.q_norm(...), self.out_proj(context)) call the model's own
// instead, by the names it was read with (engine/weight_names.h): model.layers[0].self_attn.q_proj
// for a Hugging Face folder, trf_blocks[0].att.W_query for the book's classes, and Hugging Face
// GPT-2's one c_attn split in three; the layer input is its first norm's module.
void nameModelModules(Trace& trace, const DecoderModel& model, int64_t layer);

// The tensors around block `layer`'s attention, each (T, d) but ffHidden (T, ff_hidden).
struct DecoderBlockContext {
    Tensor residualIn;          // the block's input x
    Tensor norm1;               // LayerNorm1(x): the attention's input
    Tensor context;             // (T, heads * hd): the heads' context side by side, as out_proj
                                // reads it (switched-off heads replaced)
    Tensor attentionProjected;  // out_proj(MHA(norm1)), switched-off heads removed
    Tensor attentionOutput;     // the same after Gemma 3's post-attention norm (else equal)
    Tensor residualMid;         // x + attentionOutput
    Tensor norm2;               // LayerNorm2(residualMid)
    Tensor ffHidden;            // GELU(norm2 @ W1 + b1)
    Tensor ffOutput;            // ffHidden @ W2 + b2
    Tensor residualOut;         // residualMid + ffOutput: the next block's input
};
DecoderBlockContext blockContext(const DecoderRun& run, int64_t layer,
                                 const CancelToken* cancel = nullptr);

struct TokenProbability {
    int64_t id = 0;
    double probability = 0.0;
};

// Throws UserError(field, "Token id N is not in the model's vocabulary (ids 0 to V - 1).")
// unless 0 <= id < vocab.
void checkTokenId(int64_t id, int64_t vocab, const char* field);

// Logits (vocab,) for the token after position `position` (0-based, < T).
Tensor nextTokenLogits(const DecoderRun& run, int64_t position);
// The k most probable next tokens after `position` (softmax over the whole vocabulary, in
// double), most probable first; equal probabilities by lower id.
std::vector<TokenProbability> nextTokens(const DecoderRun& run, int64_t position, int64_t k);
// ln p(token | ids[0..position]).
double nextTokenLogProbability(const DecoderRun& run, int64_t position, int64_t token);
// The same three from one position's logits, so a caller that wants more than one of them
// multiplies by the output head once (with a 151,936-token vocabulary that product is the cost).
std::vector<TokenProbability> topTokens(const Tensor& logits, int64_t k);
double tokenLogProbability(const Tensor& logits, int64_t token);
// 1 + the number of tokens before `token` in topTokens' order (higher logit, or the same logit
// and a lower id).
int64_t tokenRank(const Tensor& logits, int64_t token);
// ln p(ids[i + 1] | ids[0..i]) for i = 0 .. T-2: the mean of their negatives is the text's
// cross-entropy (validation) loss. One product of (T, d) by the output head, in vocabulary
// chunks; cancellable.
std::vector<double> tokenLogProbabilities(const DecoderRun& run,
                                          const CancelToken* cancel = nullptr);

// The logit lens: for each layer l (after its block) and each position i, the k most probable
// tokens of final_norm(h) @ W_out for h the residual stream leaving block l. The last layer's
// are the model's own next-token predictions. [layer][position][rank]; cancellable.
using LogitLens = std::vector<std::vector<std::vector<TokenProbability>>>;
LogitLens logitLens(const DecoderRun& run, int64_t k, const CancelToken* cancel = nullptr);

// How the next token is drawn from a position's logits (DESIGN.md, Asking a model why: sampling).
// The logits are divided by the temperature; only the topK most probable (0: all) and, of those,
// the smallest most-probable set whose probability reaches topP (1: all) stay; one uniform draw
// from the generator picks among them in proportion to their renormalised probabilities.
// Temperature 0 is greedy: the most probable token (the lower id on a tie), drawing nothing.
struct SamplingOptions {
    double temperature = 1.0;
    int64_t topK = 0;
    double topP = 1.0;
};
// Throws UserError("temperature" | "top-k" | "top-p") for a value out of range.
void checkSamplingOptions(const SamplingOptions& options);
struct SampledToken {
    int64_t id = 0;
    double probability = 0.0;       // after temperature and filtering: what the draw used
    double modelProbability = 0.0;  // the model's own (temperature 1, nothing filtered)
};
class TorchGenerator;
SampledToken sampleToken(const Tensor& logits, const SamplingOptions& options,
                         TorchGenerator& generator);

}  // namespace attn

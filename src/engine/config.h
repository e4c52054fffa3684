#pragma once
// The model configuration of one trace, its text forms (as the CLI and sessions spell them) and
// validation with messages a student understands.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

enum class Variant {
    Simplified,
    SelfAttentionV1,
    SelfAttention,
    Causal,
    MultiHeadWrapper,
    MultiHead,
    // After chapter 3: the attention of today's models, as the book's bonus material builds it.
    GroupedQuery,  // ch04/04_gqa GroupedQueryAttention
    Latent,        // ch04/05_mla MultiHeadLatentAttention
    Rotary         // pkg/llms_from_scratch/qwen3.py GroupedQueryAttention with RoPE
};
enum class MaskKind { None, Causal, Window };
enum class Mode { Train, Eval };
enum class DropoutRng { Default, Mkl };

struct MaskSpec {
    MaskKind kind = MaskKind::None;
    int64_t window = 0;  // K for MaskKind::Window: a token sees itself and the K-1 before it
    friend bool operator==(const MaskSpec&, const MaskSpec&) = default;
};

const std::vector<Variant>& allVariants();
std::string variantName(Variant v);       // "multi-head"
std::string variantClassName(Variant v);  // "MultiHeadAttention"
std::optional<Variant> parseVariant(std::string_view s);
std::string maskName(const MaskSpec& m);  // "none", "causal", "window:3"
std::optional<MaskSpec> parseMask(std::string_view s);
std::string modeName(Mode m);
std::optional<Mode> parseMode(std::string_view s);
std::string dropoutRngName(DropoutRng r);
std::optional<DropoutRng> parseDropoutRng(std::string_view s);

// Default mask of a variant, as in the chapter: causal for CausalAttention and both multi-head
// modules, none for the others.
MaskSpec defaultMask(Variant v);
bool variantHasWeights(Variant v);
bool variantHasHeads(Variant v);
// True for the variants of the book's bonus material (section 9.1), false for chapter 3's.
bool variantIsAfterChapter3(Variant v);
// Variants whose keys and values come in groups that query heads share (grouped-query, rotary).
bool variantHasKvGroups(Variant v);
// Variants with a d_out (every one but rotary, whose output has d_in columns, and simplified).
bool variantHasDOut(Variant v);

struct Config {
    Variant variant = Variant::MultiHead;
    int64_t batch = 1;
    int64_t dIn = 3;
    int64_t dOut = 2;
    int64_t heads = 2;
    std::optional<MaskSpec> mask;  // unset: defaultMask(variant)
    double dropout = 0.0;
    Mode mode = Mode::Train;
    DropoutRng dropoutRng = DropoutRng::Default;
    uint64_t seed = 123;  // torch.manual_seed before the module is built
    bool qkvBias = false;
    int64_t contextLength = 1024;
    // Also trace the chapter's simple masking method (weights_unmasked, weights_tril,
    // weights_renormalized) whenever a mask is applied.
    bool simpleMaskSteps = true;
    uint64_t memoryBudgetBytes = uint64_t(2) << 30;
    // After chapter 3 (section 9.1): grouped-query and rotary share each key/value head among
    // heads / kvGroups query heads; latent projects keys and values from a latentDim-sized
    // latent (0: the book's default, max(16, d_out / 8)); rotary's heads have headDim numbers
    // (0: d_in / heads), optionally RMS-normalised (qkNorm) and rotated by RoPE with base
    // ropeBase (rope = false keeps the weights and skips the rotation, for comparing).
    int64_t kvGroups = 1;
    int64_t latentDim = 0;
    int64_t headDim = 0;
    bool qkNorm = false;
    double ropeBase = 10000.0;
    bool rope = true;

    MaskSpec effectiveMask() const { return mask ? *mask : defaultMask(variant); }
    // Head size hd: d_out / h for multi-head, grouped-query and latent, headDim (or d_in / h)
    // for rotary, d_out for the single-head variants (d_in for simplified).
    int64_t headSize() const;
    // The key/value groups: kvGroups for grouped-query and rotary, else one per head.
    int64_t effectiveKvGroups() const;
    int64_t effectiveLatentDim() const;  // latent: latentDim, or max(16, d_out / 8)
    // The width of queries and of context: d_out, or heads * head_dim for rotary.
    int64_t queryWidth() const;
    // The width of the output: d_in for rotary (out_proj maps back), else as today.
    int64_t outputWidth() const;
    bool ropeActive() const { return variant == Variant::Rotary && rope; }
    // Number of heads the trace has (1 for single-head variants).
    int64_t effectiveHeads() const;
    bool dropoutActive() const { return mode == Mode::Train && dropout > 0.0; }
    friend bool operator==(const Config&, const Config&) = default;
};

// The largest d_in, d_out, heads, batch and context length (and window K) a configuration may
// have: the products of sizes in the engine and its memory estimate stay far from overflow.
constexpr int64_t kMaxDimension = int64_t(1) << 20;

// A piece of a message in English with %1, %2, ... standing for its arguments (numbers and
// lists, never words). The engine has no translations: a translated interface looks each piece
// up by its `format` and fills in the same arguments, so every message reads in its language.
struct MessagePart {
    std::string format;
    std::vector<std::string> args;
};

// The English text of `parts`: each format with its arguments filled in, joined as they come
// (a piece carries its own leading space or punctuation).
std::string formatMessage(const std::vector<MessagePart>& parts);

// One problem with a configuration. `field` names the control it belongs to:
// "d_in", "d_out", "heads", "kv_groups", "latent_dim", "head_dim", "rope_base", "qkv_bias",
// "mask", "dropout", "batch", "context_length", "input", "memory", "weights", "embeddings".
// `parts` is what `message` is made of (empty for a message given whole, e.g. one already
// translated).
struct ValidationIssue {
    std::string field;
    std::string message;
    std::vector<MessagePart> parts = {};
};

// Every problem at once, empty when the configuration can run on `tokens` tokens.
std::vector<ValidationIssue> validate(const Config& config, int64_t tokens);

// Head counts h for which d_out % h == 0, ascending.
std::vector<int64_t> validHeadCounts(int64_t dOut);
// Key/value group counts G for which heads % G == 0, ascending (divisors, as validHeadCounts).
std::vector<int64_t> validKvGroupCounts(int64_t heads);

// A problem the user can fix, with what is wrong and what would be right: bad settings, an
// unreadable or malformed file, an output that cannot be written. `field` names the control it
// belongs to, as in ValidationIssue (the CLI prints the message as its one line on stderr).
// A message made of `parts` (MessagePart) reads in the interface's language where it is shown
// (pipeline/issue_text.h's errorText); what() is always its English text.
class UserError : public std::runtime_error {
  public:
    UserError(std::string field, const std::string& message)
        : std::runtime_error(message), field_(std::move(field)) {}
    UserError(std::string field, std::vector<MessagePart> parts)
        : std::runtime_error(formatMessage(parts)),
          field_(std::move(field)),
          parts_(std::move(parts)) {}
    // `cause` under another field, its parts kept.
    UserError(std::string field, const UserError& cause)
        : std::runtime_error(cause.what()), field_(std::move(field)), parts_(cause.parts_) {}
    const std::string& field() const { return field_; }
    // Empty for a message given whole.
    const std::vector<MessagePart>& parts() const { return parts_; }

  private:
    std::string field_;
    std::vector<MessagePart> parts_;
};

// Bytes (float32) of keys and values one token adds to a key/value cache for this module: what
// generating text keeps per token and layer. 2 * G * hd * 4 with key/value groups, the latent's
// size * 4 for latent attention, the inputs themselves for simplified attention (its keys and
// values are x).
uint64_t kvCacheBytesPerToken(const Config& config);
// The same for multi-head attention with the same heads and head size: 2 * h * hd * 4.
uint64_t multiHeadKvCacheBytesPerToken(const Config& config);

// Human readable byte count: "1.5 GiB".
std::string formatBytes(uint64_t bytes);

}  // namespace attn

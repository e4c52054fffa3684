#pragma once
// A decoder-only language model: GPT-2 (the book's chapter-4 GPTModel, or Hugging Face's GPT-2)
// and the families after it (Llama 3, Qwen2, Qwen3, Gemma 3; DESIGN.md, Model families). Its size,
// what its family does differently (as data: which norm, which feed-forward, RoPE or learned
// positions, key/value groups, QK-norm, sliding windows) and its float32 weights. Built once by the
// model readers (io/model_file.h: GPT-2 files and, by way of io/model_config.h, the later
// families), immutable afterwards and shared between threads as std::shared_ptr<const
// DecoderModel>. Weights may point straight into a memory-mapped file; they are never written.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/block_facts.h"
#include "engine/facts.h"
#include "engine/half.h"
#include "engine/rope_spec.h"
#include "engine/tensor.h"

namespace attn {

class HfTokenizer;  // tokenizer/hf_tokenizer.h: the engine only carries it

// Which state_dict names the weights came with.
enum class WeightNames {
    HuggingFace,  // wte.weight, h.0.attn.c_attn.weight, ... (Conv1D weights, x @ W), or a
                  // Hugging Face Llama-style model.layers.0.self_attn.q_proj.weight, ...
    Book          // tok_emb.weight, trf_blocks.0.att.W_query.weight, ... (nn.Linear, x @ W.T)
};

// The published architecture a model follows: config.json's model_type.
enum class Family { Gpt2, Llama, Qwen2, Qwen3, Gemma3 };
std::string familyName(Family family);  // "gpt2" | "llama" | "qwen2" | "qwen3" | "gemma3_text"

std::string weightNamesName(WeightNames names);  // "hf" | "book"
std::string normKindName(NormKind norm);         // "layer_norm" | "rms_norm" | "rms_norm_one_plus"
std::string feedForwardKindName(FeedForwardKind kind);   // "gelu_mlp" | "swiglu" | "geglu"
std::string ropeScalingName(RopeSpec::Scaling scaling);  // "none" | "llama3" | "linear"

// Where the head count came from (the file holds no tensor that says it).
enum class HeadsSource {
    Request,   // asked for (the CLI's --heads)
    Metadata,  // the safetensors __metadata__ entry "heads" or "n_head"
    Default,   // d_model / 64, as every GPT-2 size has it (12, 16, 20, 25 heads)
    Config     // config.json's num_attention_heads (n_head for GPT-2)
};
// "request" | "metadata" | "default" | "config"
std::string headsSourceName(HeadsSource source);

// y = x @ W + b for x of `inFeatures` columns. Hugging Face's Conv1D stores W as (in, out)
// (inputMajor); nn.Linear stores (out, in) and computes x @ W.T. Rows of `weight` may be
// further apart than its width: the query, key and value maps of Hugging Face's c_attn are
// column slices of one (d, 3d) matrix, kept in place.
struct DecoderLinear {
    Tensor weight;    // 2-D, unit column stride; or empty, and then:
    HalfMatrix half;  // the weight in 16 bits, as the file stores it (never with inputMajor)
    Tensor bias;      // (out,), or empty
    bool inputMajor = false;
    int64_t inFeatures() const;
    int64_t outFeatures() const;
    int64_t rowStride() const;  // floats between the rows of weight as stored
};

// A block: x = x + [postAttentionNorm](attn(norm1(x))); x = x +
// [postFeedForwardNorm](FF(norm2(x))). Biases are there where the family has them (GPT-2:
// everywhere; Qwen2: query, key, value).
struct DecoderBlock {
    Tensor norm1Scale, norm1Shift;  // (d,); no shift for an RMSNorm
    DecoderLinear query;            // d -> heads * hd
    DecoderLinear key, value;       // d -> kvHeads * hd
    Tensor queryNorm, keyNorm;      // (hd,) QK-norm weights, or empty
    DecoderLinear outProj;          // heads * hd -> d
    Tensor postAttentionNorm;       // (d,) Gemma 3, or empty
    Tensor norm2Scale, norm2Shift;  // (d,); Gemma 3's pre_feedforward_layernorm
    DecoderLinear ffGate;           // d -> ffHidden, activated (GLU families), or empty
    DecoderLinear ffIn;             // d -> ffHidden: GPT-2's c_fc, a GLU's up projection
    DecoderLinear ffOut;            // ffHidden -> d
    Tensor postFeedForwardNorm;     // (d,) Gemma 3, or empty
};

struct DecoderArchitecture {
    Family family = Family::Gpt2;
    int64_t layers = 0;
    int64_t dModel = 0;
    int64_t heads = 0;    // query heads
    int64_t kvHeads = 0;  // key/value heads (groups); 0 = as many as query heads
    int64_t headDim = 0;  // 0 = dModel / heads
    int64_t vocab = 0;
    int64_t contextLength = 0;
    int64_t ffHidden = 0;  // 4 * d_model in every GPT-2
    bool qkvBias = false;
    bool outputBias = true;  // out_proj and the feed-forward add biases (GPT-2; none after it)
    bool tiedHead = true;    // logits use the token embedding (no separate output head)
    NormKind norm = NormKind::LayerNorm;
    double normEps = 1e-5;
    FeedForwardKind feedForward = FeedForwardKind::Gelu;
    bool qkNorm = false;         // RMSNorm over each head's queries and keys, before RoPE
    bool sandwichNorms = false;  // Gemma 3's norms after attention and after the feed-forward
    bool rope = false;           // rotary positions; else a learned position embedding
    RopeSpec globalRope;         // full-attention layers
    RopeSpec localRope;          // sliding-window layers (Gemma 3's rope_local_base_freq)
    // Per layer, the sliding window (query i sees keys i-W+1..i), 0 for full attention; empty
    // when every layer is full.
    std::vector<int64_t> windows;
    double embeddingScale = 1.0;  // Gemma 3 multiplies the token embeddings by sqrt(d_model)
    // > 0: queries are multiplied by it before q k^T (Gemma 3: query_pre_attn_scalar^-0.5);
    // 0: scores are divided by sqrt(hd), as the chapter does.
    double queryScale = 0.0;

    int64_t headSize() const { return headDim > 0 ? headDim : heads > 0 ? dModel / heads : 0; }
    int64_t keyValueHeads() const { return kvHeads > 0 ? kvHeads : heads; }
    int64_t queryWidth() const { return heads * headSize(); }
    int64_t keyValueWidth() const { return keyValueHeads() * headSize(); }
    // The key/value group query head h reads (repeat_interleave: h / (heads / groups)).
    int64_t groupOfHead(int64_t h) const {
        const int64_t g = keyValueHeads();
        return g > 0 && heads % g == 0 ? h / (heads / g) : h;
    }
    int64_t windowOf(int64_t layer) const {
        return layer >= 0 && layer < static_cast<int64_t>(windows.size())
                   ? windows[static_cast<size_t>(layer)]
                   : 0;
    }
    const RopeSpec& ropeOf(int64_t layer) const {
        return windowOf(layer) > 0 ? localRope : globalRope;
    }
    // Layer `layer`'s block as its steps carry it (StepInfo::block).
    BlockFacts blockFacts(int64_t layer) const;
};

// Everything `arch` says about the attention and the block around it, as facts in a fixed
// order: family, layers, d_model, vocab, context_length, heads, kv_heads, head_groups,
// head_dim, query_width (heads * head_dim, which need not be d_model), qkv_bias, qk_norm,
// query_scale (what the queries are multiplied by: 1/sqrt(head_dim), or Gemma 3's
// 1/sqrt(query_pre_attn_scalar), then also query_pre_attn_scalar), norm, norm_eps,
// sandwich_norms, feed_forward, ff_hidden, positions ("learned" | "rope"; with RoPE
// rope_base, rope_scaling and its factors), windows (per layer, 0 for full attention),
// tied_head, embedding_scale. With `layer` >= 0 the facts are that layer's: its RoPE (Gemma 3's
// sliding layers have their own base) and its window (0 for full attention). Every writer (the
// trace JSON's config, the `model` JSON) tells these, so a new family or feature is told by
// adding it here. The keys the chapter-3 settings also have (heads, head_dim, qkv_bias,
// qk_norm, rope_base, context_length) mean the same there; none means something else.
Facts architectureFacts(const DecoderArchitecture& arch, int64_t layer = -1);

// A GPT-2 architecture of these sizes (LayerNorm, GELU, learned positions, every head its own
// keys and values).
DecoderArchitecture gpt2Architecture(int64_t layers, int64_t dModel, int64_t heads, int64_t vocab,
                                     int64_t contextLength, int64_t ffHidden, bool qkvBias,
                                     bool tiedHead);

struct DecoderModel {
    DecoderArchitecture arch;
    WeightNames names = WeightNames::Book;
    HeadsSource headsSource = HeadsSource::Default;
    std::string dtype;   // the file's weight type: "F32", "F16", "BF16" (mixed: "F16+F32")
    std::string source;  // the file name, for messages
    // The safetensors file's __metadata__ strings as written (a model that ships with the app
    // says there what it was trained on, its validation loss and its licence); empty for
    // torch.save files, which have none.
    std::map<std::string, std::string> metadata;
    // The model's own tokenizer (its folder's tokenizer.json), or null for a GPT-2 model read
    // without one, which reads GPT-2's tokens.
    std::shared_ptr<const HfTokenizer> tokenizer;
    Tensor tokenEmbedding;  // (vocab, d); or empty, and then in 16 bits:
    HalfMatrix tokenEmbeddingHalf;
    Tensor positionEmbedding;  // (context_length, d); empty with RoPE
    std::vector<DecoderBlock> blocks;
    Tensor finalNormScale, finalNormShift;  // (d,); no shift for an RMSNorm
    // (vocab, d) used as x @ outHead.T; the token embedding when tied (its weight or half the
    // same as the embedding's).
    DecoderLinear outHead;
    // Row `id` of the token embedding as float32 (d values).
    void embeddingRow(int64_t id, float* out) const;
    // True when the output head is the token embedding.
    bool headIsEmbedding() const;

    int64_t parameterCount() const;  // a tied head counts once
};

// Throws UserError("model", ...) naming the first weight whose shape disagrees with `arch`,
// or a head count that does not divide d_model (or the query heads into the key/value heads).
void checkDecoderModel(const DecoderModel& model);

}  // namespace attn

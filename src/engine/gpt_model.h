#pragma once
// A GPT-2-architecture language model (the book's chapter-4 GPTModel, or Hugging Face's GPT-2):
// its size and its float32 weights. Built once by the model file reader (io/model_file.h),
// immutable afterwards and shared between threads as std::shared_ptr<const GptModel>. Weights
// may point straight into a memory-mapped file; they are never written.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/tensor.h"

namespace attn {

// Which state_dict names the weights came with.
enum class GptNames {
    HuggingFace,  // wte.weight, h.0.attn.c_attn.weight, ... (Conv1D weights, x @ W)
    Book          // tok_emb.weight, trf_blocks.0.att.W_query.weight, ... (nn.Linear, x @ W.T)
};
std::string gptNamesName(GptNames names);  // "hf" | "book"

// Where the head count came from (the file holds no tensor that says it).
enum class HeadsSource {
    Request,   // asked for (the CLI's --heads)
    Metadata,  // the safetensors __metadata__ entry "heads" or "n_head"
    Default    // d_model / 64, as every GPT-2 size has it (12, 16, 20, 25 heads)
};
std::string headsSourceName(HeadsSource source);  // "request" | "metadata" | "default"

// y = x @ W + b for x of `inFeatures` columns. Hugging Face's Conv1D stores W as (in, out)
// (inputMajor); nn.Linear stores (out, in) and computes x @ W.T. Rows of `weight` may be
// further apart than its width: the query, key and value maps of Hugging Face's c_attn are
// column slices of one (d, 3d) matrix, kept in place.
struct GptLinear {
    Tensor weight;  // 2-D, unit column stride
    Tensor bias;    // (out,), or empty
    bool inputMajor = false;
    int64_t inFeatures() const;
    int64_t outFeatures() const;
    int64_t rowStride() const;  // floats between the rows of weight as stored
};

struct GptBlock {
    Tensor norm1Scale, norm1Shift;  // (d,)
    GptLinear query, key, value;    // d -> d; bias only with qkvBias
    GptLinear outProj;              // d -> d, with bias
    Tensor norm2Scale, norm2Shift;  // (d,)
    GptLinear ffIn;                 // d -> ffHidden, with bias; then GELU
    GptLinear ffOut;                // ffHidden -> d, with bias
};

struct GptArchitecture {
    int64_t layers = 0;
    int64_t dModel = 0;
    int64_t heads = 0;
    int64_t vocab = 0;
    int64_t contextLength = 0;
    int64_t ffHidden = 0;  // 4 * d_model in every GPT-2
    bool qkvBias = false;
    bool tiedHead = true;  // logits use the token embedding (no separate output head)
    int64_t headSize() const { return heads > 0 ? dModel / heads : 0; }
};

struct GptModel {
    GptArchitecture arch;
    GptNames names = GptNames::Book;
    HeadsSource headsSource = HeadsSource::Default;
    std::string dtype;   // the file's weight type: "F32", "F16", "BF16" (mixed: "F16+F32")
    std::string source;  // the file name, for messages
    // The safetensors file's __metadata__ strings as written (a model that ships with the app
    // says there what it was trained on, its validation loss and its licence); empty for
    // torch.save files, which have none.
    std::map<std::string, std::string> metadata;
    Tensor tokenEmbedding;     // (vocab, d)
    Tensor positionEmbedding;  // (context_length, d)
    std::vector<GptBlock> blocks;
    Tensor finalNormScale, finalNormShift;  // (d,)
    Tensor outHead;  // (vocab, d), used as x @ outHead.T; the token embedding when tied

    int64_t parameterCount() const;  // a tied head counts once
};

// Throws UserError("model", ...) naming the first weight whose shape disagrees with `arch`,
// or a head count that does not divide d_model.
void checkGptModel(const GptModel& model);

}  // namespace attn

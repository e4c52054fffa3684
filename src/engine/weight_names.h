#pragma once
// Where a model keeps each weight: one table per family and naming scheme (Hugging Face's names or
// the book's), the one place these names are written. The model readers (io/model_file.cpp for
// GPT-2, io/family_reader.cpp for the families after it) look the weights up by it, the PyTorch
// listing (pipeline/pytorch_code.cpp) reads them by it, and a layer trace names its modules by it,
// so a trace of a Hugging Face folder speaks of model.layers[0].input_layernorm and one of the
// book's classes of trf_blocks[0].norm1.
//
// A new family (or scheme) is a new entry in weight_names.cpp; nothing else spells a weight name.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/decoder_model.h"

namespace attn {

struct WeightNameTable {
    std::string tokenEmbedding;     // the whole name: "model.embed_tokens.weight"
    std::string positionEmbedding;  // a learned position table ("wpe.weight"); "" with RoPE
    std::string blocks;             // the blocks' list: "model.layers" (block n: "model.layers.n.")
    // The parts of a block, relative to it: a linear or norm module's name without its
    // parameters; "" where the family has no such part. A linear's parameters are "weight" and
    // "bias"; a norm's are normScale and normShift.
    std::string attention;           // the attention module: "self_attn"
    std::string feedForward;         // the feed-forward module: "mlp"
    std::string norm1;               // the norm attention reads
    std::string query, key, value;   // separate projections, or "" when fused:
    std::string queryKeyValue;       // Hugging Face GPT-2's Conv1D c_attn: [W_q | W_k | W_v]
    std::string queryNorm, keyNorm;  // QK-norm
    std::string outProj;
    std::string postAttentionNorm;     // Gemma 3's norm of attention's output
    std::string norm2;                 // the norm the feed-forward reads
    std::string gate;                  // a GLU's activated projection; "" for GPT-2's MLP
    std::string up;                    // GPT-2's first layer, a GLU's up projection
    std::string down;                  // the projection back to d_model
    std::string postFeedForwardNorm;   // Gemma 3's norm of the feed-forward's output
    std::string finalNorm;             // a module's name: "model.norm"
    std::string outHead;               // the whole name: "lm_head.weight"
    std::string normScale = "weight";  // "weight", or the book's own norms' "scale"
    std::string normShift;             // a LayerNorm's "bias" (the book's "shift"); "" for RMSNorm
    bool inputMajor = false;  // linears store (in, out) and compute x @ W (Conv1D), else (out, in)
    // Buffers a state_dict holds inside a block that are no weights (GPT-2's causal mask).
    std::vector<std::string> ignoredInBlock;
    // Old Hugging Face checkpoints' RoPE frequencies, which the config defines anyway.
    std::vector<std::string> ignoredSuffixes;

    // "model.layers.3." : the prefix of block n's tensor names.
    std::string blockPrefix(int64_t n) const;
    // "model.layers.3.self_attn.q_proj.weight" for part "self_attn.q_proj", parameter "weight".
    std::string tensor(int64_t n, const std::string& part, const std::string& parameter) const;
    // "model.layers[3].self_attn.q_proj": how PyTorch code reaches the module.
    std::string module(int64_t n, const std::string& part) const;
    // The tensor names of a norm part ({scale} or {scale, shift}).
    std::vector<std::string> normTensors(int64_t n, const std::string& part) const;
};

// The table of `family` read with `names`. Every family has both schemes: Hugging Face's, and the
// book's state_dicts (GPTModel, Llama3Model, Qwen3Model, Gemma3Model).
const WeightNameTable& weightNameTable(Family family, WeightNames names);

}  // namespace attn

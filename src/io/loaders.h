#pragma once
// Reading the user's embeddings and weights files, as the CLI and the GUI do.

#include <optional>
#include <string>
#include <vector>

#include "engine/config.h"
#include "engine/tensor.h"
#include "engine/trace.h"

namespace attn::io {

// .npy, .json or .csv by extension: a (T, d_in) or (b, T, d_in) matrix of finite numbers.
// Throws attn::UserError("embeddings", ...).
Tensor readEmbeddingsFile(const std::string& path);

// .json or .safetensors with PyTorch state_dict names. Throws attn::UserError("weights", ...).
WeightMap readWeightsFile(const std::string& path);

// Everything wrong with `weights` for the module of `config`, one sentence each: missing names,
// unexpected names, wrong shapes (expected and found, with dim names), and a `mask` /
// `heads.N.mask` buffer that is not triu(ones(context_length, context_length), 1). Empty when
// the weights fit.
std::vector<std::string> weightProblems(const WeightMap& weights, const Config& config);
// The size n of the n x n `mask` buffer a state_dict saved from the chapter's modules holds
// (`mask`, or `heads.N.mask` for the wrapper); nullopt when the weights hold none.
std::optional<int64_t> maskBufferSize(const WeightMap& weights);

// Throws attn::UserError("weights", "<source>: <problem>; <problem>") when weightProblems
// finds anything. `source` (usually the file name) may be empty.
void checkWeights(const WeightMap& weights, const Config& config, const std::string& source = "");

}  // namespace attn::io

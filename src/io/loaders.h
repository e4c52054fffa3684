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
// Whether they fit a module is engine/weight_check.h's question.
WeightMap readWeightsFile(const std::string& path);

}  // namespace attn::io

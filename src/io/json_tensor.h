#pragma once
// Tensors and weights stored as JSON nested arrays.

#include <string>
#include <string_view>

#include "engine/tensor.h"
#include "engine/trace.h"

namespace attn::io {

// Nested arrays of numbers ([[0.43, 0.15, 0.89], ...]), or an object whose "embeddings" or
// "inputs" member holds them (the layout of the book reference file). Rejects ragged arrays,
// non-numbers, NaN/Infinity, values beyond float32 and nesting deeper than 8.
// Throws attn::UserError("file", "<source>: ... (line L, column C)").
Tensor parseJsonTensor(std::string_view text, const std::string& source);
Tensor readJsonTensor(const std::string& path);

// {"W_query.weight": [[...]], "W_query.bias": [...], ...}: state_dict names to arrays.
WeightMap parseJsonWeights(std::string_view text, const std::string& source);
WeightMap readJsonWeights(const std::string& path);

}  // namespace attn::io

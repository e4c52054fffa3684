#pragma once
// Split-halves rotary position embedding as the book computes it (compute_rope_params and
// apply_rope in pkg/llms_from_scratch/llama3.py and qwen3.py), in float32. Engine-internal:
// shared by the decoder forward and the `rotary` module's trace.

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/decoder_model.h"
#include "engine/tensor.h"

namespace attn::rope {

// inv_freq_i = 1 / base^(2i / hd) for i < hd / 2, then the spec's scaling (Llama 3's smooth
// band, or a linear division), every operation in float32.
std::vector<float> inverseFrequencies(int64_t hd, const RopeSpec& spec);

// cos and sin (T, hd) of positions 0..T-1: angle = position * inv_freq_i, the hd / 2 angles
// twice (torch.cat([angles, angles])).
std::pair<Tensor, Tensor> tables(int64_t hd, int64_t tokens, const RopeSpec& spec);

// apply_rope on one vector of hd numbers at the position whose cos and sin rows are given:
// y = x * cos + cat(-x2, x1) * sin, x1 and x2 its halves. y may be x.
void rotate(const float* x, const float* cos, const float* sin, int64_t hd, float* y);

}  // namespace attn::rope

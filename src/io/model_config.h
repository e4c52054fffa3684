#pragma once
// A Hugging Face config.json for the decoder families of DESIGN.md, Model families (model_type
// gpt2, llama, qwen2, qwen3, gemma3_text and gemma3), read into a DecoderArchitecture: sizes, and
// what the family does differently (norms, feed-forward, RoPE and its scaling, key/value heads,
// QK-norm, per-layer sliding windows). Every key read is checked; a missing key, an absurd size,
// heads that do not divide or an unknown model_type throw UserError("model", "<source>: ...")
// naming the key and what would be right.

#include <string>
#include <string_view>

#include "engine/decoder_model.h"

namespace attn::io {

struct ModelConfig {
    DecoderArchitecture arch;
    std::string modelType;  // as written: "llama", "gemma3", ...
    // Gemma 3's multimodal checkpoints (model_type gemma3) keep the text model's tensors under
    // this prefix; empty for the others.
    std::string tensorPrefix;
};

ModelConfig parseModelConfig(std::string_view json, const std::string& source);

// "gpt2, llama, qwen2, qwen3, gemma3_text and gemma3", for messages.
std::string supportedModelTypes();

}  // namespace attn::io

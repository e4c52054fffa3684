#pragma once
// How a model's RoPE turns its queries and keys: the base and the frequency scaling (shared by
// the decoder families and a trained layer's trace).

namespace attn {

// Split-halves rotary position embedding (the book's compute_rope_params): inv_freq_i =
// 1 / base^(2i / hd), then adjusted by the scaling, each in float32.
struct RopeSpec {
    enum class Scaling {
        None,
        Llama3,  // Llama 3.1+: long wavelengths divided by factor, a smooth band between
        Linear   // Gemma 3 4B and up: every inverse frequency divided by factor
    };
    double base = 10000.0;
    Scaling scaling = Scaling::None;
    double factor = 1.0;
    double lowFreqFactor = 1.0, highFreqFactor = 4.0;  // Llama3
    double originalContext = 8192.0;                   // Llama3
    bool operator==(const RopeSpec&) const = default;
};

}  // namespace attn

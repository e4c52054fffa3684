#pragma once
// What a trained model's block is made of around its attention, as data: the kinds of norm,
// feed-forward and positions an architecture uses. The model readers fill them in
// (DecoderArchitecture), the forward computes by them, and a model layer's steps carry them
// (StepInfo::block) so that every text about a step names that model's own parts.

#include <cstdint>

namespace attn {

enum class NormKind {
    LayerNorm,      // (x - mean) / sqrt(var + eps) * scale + shift (GPT-2)
    RmsNorm,        // x / sqrt(mean(x^2) + eps) * weight (Llama, Qwen)
    RmsNormOnePlus  // x / sqrt(mean(x^2) + eps) * (1 + weight) (Gemma 3)
};

enum class FeedForwardKind {
    Gelu,    // GELU(x W1 + b1) W2 + b2 (GPT-2)
    SwiGlu,  // (SiLU(x W_gate) * x W_up) W_down (Llama, Qwen)
    GeGlu    // (GELU_tanh(x W_gate) * x W_up) W_down (Gemma 3)
};

enum class PositionKind {
    Learned,  // a position embedding added to the token embedding before block 0 (GPT-2)
    Rope      // no position vector: every layer turns its queries and keys (RoPE)
};

// One layer's block as its texts need it.
struct BlockFacts {
    int64_t layer = 0;
    int64_t dModel = 0;
    int64_t ffHidden = 0;
    NormKind norm = NormKind::LayerNorm;
    FeedForwardKind feedForward = FeedForwardKind::Gelu;
    PositionKind positions = PositionKind::Learned;
    bool qkvBias = false;         // the query, key and value projections add biases (Qwen2)
    bool outputBias = true;       // out_proj and the feed-forward add biases
    bool sandwichNorms = false;   // a norm after attention and after the feed-forward (Gemma 3)
    double embeddingScale = 1.0;  // block 0's input is the token embeddings times this
};

}  // namespace attn

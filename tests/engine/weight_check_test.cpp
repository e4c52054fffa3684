// checkWeights and weightProblems: a state_dict against the module of a config, every problem
// in one line with hints, and the chapter's mask buffer.

#include <gtest/gtest.h>

#include "../io/io_test_util.h"  // expectError
#include "engine/weight_check.h"

namespace attn {
namespace {

using io::test::expectError;

Config causalConfig() {
    Config c;
    c.variant = Variant::Causal;
    c.dIn = 3;
    c.dOut = 2;
    c.heads = 1;
    c.contextLength = 4;
    return c;
}

WeightMap causalWeights() {
    WeightMap w;
    for (const char* m : {"W_query.weight", "W_key.weight", "W_value.weight"})
        w[m] = Tensor({2, 3});
    return w;
}

Tensor triu(int64_t n) {
    Tensor t({n, n});
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = i + 1; j < n; ++j)
            t.mutableData()[i * n + j] = 1.0f;
    return t;
}

TEST(CheckWeights, AcceptsMatchingWeightsAndMask) {
    WeightMap w = causalWeights();
    EXPECT_NO_THROW(checkWeights(w, causalConfig(), "w.json"));
    w["mask"] = triu(4);
    EXPECT_NO_THROW(checkWeights(w, causalConfig(), "w.json"));
    Config wrapper = causalConfig();
    wrapper.variant = Variant::MultiHeadWrapper;
    wrapper.heads = 2;
    WeightMap hw;
    for (int h = 0; h < 2; ++h) {
        for (const char* m : {"W_query.weight", "W_key.weight", "W_value.weight"})
            hw["heads." + std::to_string(h) + "." + m] = Tensor({2, 3});
        hw["heads." + std::to_string(h) + ".mask"] = triu(4);
    }
    EXPECT_TRUE(weightProblems(hw, wrapper).empty());
}

TEST(CheckWeights, MissingName) {
    WeightMap w = causalWeights();
    w.erase("W_key.weight");
    expectError([&] { checkWeights(w, causalConfig(), "weights.safetensors"); }, "weights",
                "weights.safetensors: missing W_key.weight (2, 3)");
}

TEST(CheckWeights, WrongShape) {
    WeightMap w = causalWeights();
    w["W_query.weight"] = Tensor({2, 4});
    expectError([&] { checkWeights(w, causalConfig(), "weights.safetensors"); }, "weights",
                "weights.safetensors: W_query.weight has shape (2, 4) but this model needs (2, 3) "
                "(d_out, d_in)");
}

TEST(CheckWeights, UnexpectedNameWithHints) {
    WeightMap w = causalWeights();
    w["W_query.bias"] = Tensor({2});
    expectError(
        [&] { checkWeights(w, causalConfig(), "w.json"); }, "weights",
        "w.json: unexpected W_query.bias (the file has query/key/value biases: turn on qkv_bias)");
    WeightMap v1 = causalWeights();
    v1["W_query"] = Tensor({3, 2});
    v1["extra"] = Tensor({1});
    expectError(
        [&] { checkWeights(v1, causalConfig()); }, "weights",
        "unexpected W_query, extra (plain W_query, W_key, W_value belong to self-attention-v1)");
    Config biased = causalConfig();
    biased.qkvBias = true;
    expectError(
        [&] { checkWeights(causalWeights(), biased, "w.json"); }, "weights",
        "w.json: missing W_query.bias (2,), W_key.bias (2,), W_value.bias (2,) (turn off qkv_bias "
        "if the module was built without biases)");
}

TEST(CheckWeights, VariantHints) {
    Config simplified = causalConfig();
    simplified.variant = Variant::Simplified;
    expectError(
        [&] { checkWeights(causalWeights(), simplified); }, "weights",
        "unexpected W_key.weight, W_query.weight, W_value.weight (simplified has no weights)");
    Config v1 = causalConfig();
    v1.variant = Variant::SelfAttentionV1;
    expectError([&] { checkWeights(causalWeights(), v1, "w.json"); }, "weights",
                "w.json: missing W_query (3, 2), W_key (3, 2), W_value (3, 2); unexpected "
                "W_key.weight, W_query.weight, W_value.weight (W_query.weight is an nn.Linear "
                "layer: choose self-attention, not self-attention-v1)");
    WeightMap plain;
    for (const char* m : {"W_query", "W_key", "W_value"})
        plain[m] = Tensor({2, 3});
    expectError(
        [&] { checkWeights(plain, v1, "w.json"); }, "weights",
        "w.json: W_query has shape (2, 3) but this model needs (3, 2) (d_in, d_out); W_key "
        "has shape (2, 3) but this model needs (3, 2) (d_in, d_out); W_value has shape (2, 3) "
        "but this model needs (3, 2) (d_in, d_out)");
}

TEST(CheckWeights, SeveralProblemsInOneLine) {
    Config c;  // multi-head, d_in 3, d_out 2
    c.contextLength = 6;
    WeightMap w;
    w["W_query.weight"] = Tensor({2, 3});
    w["W_key.weight"] = Tensor({3, 2});
    w["W_value.weight"] = Tensor({2, 3});
    w["out_proj.weight"] = Tensor({2, 2});
    w["heads.0.W_query.weight"] = Tensor({2, 3});
    expectError(
        [&] { checkWeights(w, c, "w.json"); }, "weights",
        "w.json: missing out_proj.bias (2,); unexpected heads.0.W_query.weight (heads.N names "
        "belong to multi-head-wrapper); W_key.weight has shape (3, 2) but this model needs "
        "(2, 3) (d_out, d_in)");
}

TEST(CheckWeights, MaskBufferIsChecked) {
    WeightMap w = causalWeights();
    w["mask"] = triu(6);
    expectError([&] { checkWeights(w, causalConfig(), "w.safetensors"); }, "weights",
                "w.safetensors: mask has shape (6, 6) but this model needs (4, 4) (context_length, "
                "context_length); set context_length to 6 to match the file");
    Tensor lower = triu(4);
    lower.mutableData()[1 * 4 + 0] = 1.0f;
    w["mask"] = lower;
    expectError(
        [&] { checkWeights(w, causalConfig(), "w.safetensors"); }, "weights",
        "w.safetensors: mask is not the causal mask torch.triu(torch.ones(4, 4), diagonal=1): "
        "element [1][0] is 1, expected 0");
    // SelfAttention_v2 registers no mask buffer.
    Config v2 = causalConfig();
    v2.variant = Variant::SelfAttention;
    w["mask"] = triu(4);
    expectError([&] { checkWeights(w, v2, "w.safetensors"); }, "weights",
                "w.safetensors: unexpected mask");
}

}  // namespace
}  // namespace attn

// The one table of weight names: each family and scheme names its weights as Hugging Face's
// classes and the book's do, and a module's path is how PyTorch code reaches it.
#include <gtest/gtest.h>

#include "engine/weight_names.h"

namespace attn {
namespace {

TEST(WeightNames, HuggingFaceGpt2KeepsQueryKeyAndValueInOneConv1D) {
    const WeightNameTable& t = weightNameTable(Family::Gpt2, WeightNames::HuggingFace);
    EXPECT_EQ(t.tensor(11, t.queryKeyValue, "weight"), "h.11.attn.c_attn.weight");
    EXPECT_TRUE(t.query.empty());
    EXPECT_TRUE(t.inputMajor);
    EXPECT_EQ(t.normTensors(0, t.norm1),
              (std::vector<std::string>{"h.0.ln_1.weight", "h.0.ln_1.bias"}));
    EXPECT_EQ(t.finalNorm, "ln_f");
    EXPECT_EQ(t.positionEmbedding, "wpe.weight");
    EXPECT_EQ(t.module(2, t.up), "h[2].mlp.c_fc");
}

TEST(WeightNames, TheBooksGptModel) {
    const WeightNameTable& t = weightNameTable(Family::Gpt2, WeightNames::Book);
    EXPECT_EQ(t.tensor(0, t.query, "weight"), "trf_blocks.0.att.W_query.weight");
    EXPECT_EQ(t.normTensors(3, t.norm2),
              (std::vector<std::string>{"trf_blocks.3.norm2.scale", "trf_blocks.3.norm2.shift"}));
    EXPECT_EQ(t.tensor(1, t.down, "bias"), "trf_blocks.1.ff.layers.2.bias");
    EXPECT_FALSE(t.inputMajor);
    EXPECT_EQ(t.module(0, t.attention), "trf_blocks[0].att");
}

TEST(WeightNames, HuggingFaceLlamaQwenAndGemma) {
    const WeightNameTable& llama = weightNameTable(Family::Llama, WeightNames::HuggingFace);
    EXPECT_EQ(llama.module(3, llama.query), "model.layers[3].self_attn.q_proj");
    EXPECT_EQ(llama.tensor(3, llama.norm2, llama.normScale),
              "model.layers.3.post_attention_layernorm.weight");
    EXPECT_TRUE(llama.queryNorm.empty());
    EXPECT_TRUE(llama.normShift.empty());  // RMSNorm
    EXPECT_EQ(weightNameTable(Family::Qwen3, WeightNames::HuggingFace).queryNorm,
              "self_attn.q_norm");
    const WeightNameTable& gemma = weightNameTable(Family::Gemma3, WeightNames::HuggingFace);
    // Gemma 3's four norms: the one after attention is not the one before the feed-forward.
    EXPECT_EQ(gemma.postAttentionNorm, "post_attention_layernorm");
    EXPECT_EQ(gemma.norm2, "pre_feedforward_layernorm");
    EXPECT_EQ(gemma.postFeedForwardNorm, "post_feedforward_layernorm");
    EXPECT_EQ(gemma.finalNorm, "model.norm");
}

TEST(WeightNames, TheBooksLlamaQwenAndGemmaClasses) {
    // llama3.py's nn.RMSNorm keeps a weight; qwen3.py's and Gemma 3's own RMSNorm a scale.
    const WeightNameTable& llama = weightNameTable(Family::Llama, WeightNames::Book);
    EXPECT_EQ(llama.tensor(0, llama.norm1, llama.normScale), "trf_blocks.0.norm1.weight");
    EXPECT_EQ(llama.module(0, llama.gate), "trf_blocks[0].ff.fc1");
    const WeightNameTable& qwen = weightNameTable(Family::Qwen3, WeightNames::Book);
    EXPECT_EQ(qwen.tensor(1, qwen.queryNorm, qwen.normScale), "trf_blocks.1.att.q_norm.scale");
    const WeightNameTable& gemma = weightNameTable(Family::Gemma3, WeightNames::Book);
    EXPECT_EQ(gemma.tensor(2, gemma.norm1, gemma.normScale), "blocks.2.input_layernorm.scale");
    EXPECT_EQ(gemma.finalNorm + "." + gemma.normScale, "final_norm.scale");
}

}  // namespace
}  // namespace attn

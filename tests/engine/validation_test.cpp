// Every validation message, word for word: they are what a student reads.

#include <gtest/gtest.h>

#include "engine/config.h"
#include "engine/embeddings.h"
#include "engine/trace.h"

namespace attn {
namespace {

std::string onlyMessage(const Config& c, int64_t tokens, const std::string& field) {
    std::string found;
    for (const auto& issue : validate(c, tokens))
        if (issue.field == field)
            found = issue.message;
    return found;
}

TEST(Validation, DefaultConfigIsValid) {
    EXPECT_TRUE(validate(Config{}, 6).empty());
}

TEST(Validation, HeadsMustDivideDOut) {
    Config c;
    c.dOut = 2;
    c.heads = 3;
    EXPECT_EQ(onlyMessage(c, 6, "heads"),
              "d_out = 2 is not divisible by 3 heads, so the heads cannot share it equally. "
              "Valid head counts for d_out = 2: 1, 2.");
    c.dOut = 768;
    c.heads = 7;
    EXPECT_EQ(
        onlyMessage(c, 6, "heads"),
        "d_out = 768 is not divisible by 7 heads, so the heads cannot share it equally. Valid "
        "head counts for d_out = 768: 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, "
        "256, 384, 768.");
    // The wrapper concatenates whole heads, so any head count works there.
    c.variant = Variant::MultiHeadWrapper;
    EXPECT_TRUE(validate(c, 6).empty());
}

// The options of the variants after chapter 3 say which values would be right.
TEST(Validation, AfterChapter3Options) {
    Config c;
    c.variant = Variant::GroupedQuery;
    c.dOut = 12;
    c.heads = 6;
    c.kvGroups = 4;
    EXPECT_EQ(onlyMessage(c, 6, "kv_groups"),
              "6 heads cannot share 4 key/value groups equally: each group serves heads / groups "
              "query heads. Valid group counts for 6 heads: 1, 2, 3, 6.");
    c.kvGroups = 3;
    EXPECT_TRUE(validate(c, 6).empty());

    c = Config{};
    c.variant = Variant::Rotary;  // d_in 3, 2 heads
    EXPECT_EQ(onlyMessage(c, 6, "head_dim"),
              "d_in = 3 is not divisible by 2 heads, so head_dim cannot default to d_in / heads: "
              "set head_dim (an even number, such as 2 or 4).");
    c.dIn = 8;
    c.heads = 3;  // 8 / 1 = 8 and 8 / 2 = 4 are head sizes RoPE can turn; 8 / 8 = 1 is not
    EXPECT_EQ(onlyMessage(c, 6, "head_dim"),
              "d_in = 8 is not divisible by 3 heads, so head_dim cannot default to d_in / heads: "
              "set head_dim (an even number, such as 2 or 4), or pick heads from 1, 2, 4.");
    c.dIn = 3;
    c.heads = 1;
    EXPECT_EQ(onlyMessage(c, 6, "head_dim"),
              "RoPE rotates pairs of numbers, so the head size must be even; it is 3 (d_in / "
              "heads). Set head_dim to 2 or 4, or switch the rotation off.");
    c.rope = false;
    EXPECT_TRUE(validate(c, 6).empty());  // without the rotation any head size works
    c.rope = true;
    c.headDim = 4;
    c.qkvBias = true;
    EXPECT_EQ(onlyMessage(c, 6, "qkv_bias"),
              "Qwen3's GroupedQueryAttention (rotary) has no biases: switch the query, key and "
              "value bias off.");
    c.qkvBias = false;
    c.ropeBase = 0.0;
    EXPECT_EQ(onlyMessage(c, 6, "rope_base"),
              "The RoPE base must be a positive number, such as 10000 (Llama 2) or 1000000 "
              "(Qwen3).");
    c.ropeBase = 10000.0;
    c.dOut = -5;  // rotary has no d_out: it is not checked
    EXPECT_TRUE(validate(c, 6).empty());

    c = Config{};
    c.variant = Variant::Latent;
    c.latentDim = -1;
    EXPECT_EQ(onlyMessage(c, 6, "latent_dim"),
              "The latent size must be from 1 to 1048576, or 0 for the book's default max(16, "
              "d_out / 8) (it is -1).");
    c.latentDim = 0;
    EXPECT_EQ(c.effectiveLatentDim(), 16);

    // A head size too large for the memory budget is named at its own control.
    Config big;
    big.variant = Variant::Rotary;
    big.dIn = 64;
    big.heads = 4;
    big.headDim = 1000000;
    const std::string m = onlyMessage(big, 6, "head_dim");
    EXPECT_NE(m.find("head_dim = 1000000 takes the most. A head_dim of at most "),
              std::string::npos)
        << m;
    c = Config{};
    c.variant = Variant::Latent;
    c.dOut = 256;
    c.heads = 2;
    EXPECT_EQ(c.effectiveLatentDim(), 32);
}

TEST(Validation, SizesMustBePositive) {
    Config c;
    c.dIn = 0;
    c.dOut = -2;
    c.batch = 0;
    EXPECT_EQ(onlyMessage(c, 6, "d_in"), "d_in (the embedding size) must be at least 1 (it is 0).");
    EXPECT_EQ(onlyMessage(c, 6, "d_out"), "d_out (the output size) must be at least 1 (it is -2).");
    EXPECT_EQ(onlyMessage(c, 6, "batch"), "The batch size must be at least 1 (it is 0).");
    c = Config{};
    c.heads = 0;
    EXPECT_EQ(onlyMessage(c, 6, "heads"), "The number of heads must be at least 1 (it is 0).");
}

// Too many tokens is said at the context length's control, where raising it fixes it (it was
// said under the text, off screen at 1280 x 720, with the context length not outlined).
TEST(Validation, TooManyTokens) {
    Config c;
    c.contextLength = 4;
    EXPECT_EQ(onlyMessage(c, 6, "input"), "");
    EXPECT_EQ(
        onlyMessage(c, 6, "context_length"),
        "The input has 6 tokens, more than the context length of 4. Shorten the text or raise "
        "the context length.");
    EXPECT_EQ(onlyMessage(c, 0, "input"), "There are no tokens: type some text or pick a preset.");
}

TEST(Validation, DropoutRange) {
    Config c;
    c.dropout = 1.0;
    EXPECT_EQ(onlyMessage(c, 6, "dropout"),
              "The dropout rate must be at least 0 and below 1 (it is 1); at 1 every attention "
              "weight would be dropped.");
    c.dropout = -0.1;
    EXPECT_EQ(onlyMessage(c, 6, "dropout"),
              "The dropout rate must be at least 0 and below 1 (it is -0.1); at 1 every attention "
              "weight would be dropped.");
}

TEST(Validation, WindowMustBePositive) {
    Config c;
    c.mask = MaskSpec{MaskKind::Window, 0};
    EXPECT_EQ(onlyMessage(c, 6, "mask"),
              "The window size K must be at least 1 (each token sees itself and the K-1 tokens "
              "before it); it is 0.");
}

TEST(Validation, MemoryBudgetNamesTheEstimate) {
    Config c;
    c.dIn = c.dOut = 768;
    c.heads = 12;
    c.contextLength = 1 << 20;
    // 12 heads x 100,000^2 scores x 4 bytes x several steps is far above 2 GiB.
    // The tokens take the most: the message goes to the text, with the length that fits.
    const std::string m = onlyMessage(c, 100000, "input");
    EXPECT_EQ(m.rfind("This configuration needs about ", 0), 0u) << m;
    EXPECT_NE(m.find("TiB to keep every step, more than the budget of 2.0 GiB; the text's tokens "
                     "= 100000 takes the most. A text of at most "),
              std::string::npos)
        << m;
    EXPECT_GT(estimateTraceBytes(c, 100000), uint64_t(1) << 40);
    const size_t at = m.find("at most ") + 8;
    const int64_t fits = std::stoll(m.substr(at));
    EXPECT_LE(estimateTraceBytes(c, fits), c.memoryBudgetBytes);
    EXPECT_GT(estimateTraceBytes(c, fits + 1), c.memoryBudgetBytes);
}

// d_out = 100,000 on a short sentence: the message names d_out, sits at its control, and says
// which d_out fits (it once said "use fewer tokens, heads or a smaller batch" under the context
// length).
TEST(Validation, MemoryBudgetNamesTheSettingThatTakesTheMost) {
    Config c;
    c.dIn = 768;
    c.dOut = 100000;
    c.heads = 1;
    const std::string m = onlyMessage(c, 10, "d_out");
    EXPECT_NE(m.find("d_out = 100000 takes the most. A d_out of at most "), std::string::npos) << m;
    const int64_t fits = std::stoll(m.substr(m.find("at most ") + 8));
    Config k = c;
    k.dOut = fits;
    EXPECT_LE(estimateTraceBytes(k, 10), c.memoryBudgetBytes);
    k.dOut = fits + 1;
    EXPECT_GT(estimateTraceBytes(k, 10), c.memoryBudgetBytes);
}

TEST(Validation, RunTraceThrowsTheFirstIssue) {
    TraceRequest r;
    r.config.heads = 3;
    r.inputs = bookInputs();
    try {
        runTrace(r);
        FAIL() << "expected an UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(e.field(), "heads");
        EXPECT_NE(std::string(e.what()).find("Valid head counts for d_out = 2: 1, 2."),
                  std::string::npos);
    }
}

TEST(Validation, EmbeddingsOfTheWrongWidth) {
    TraceRequest r;
    r.config.dIn = 4;
    r.inputs = bookInputs();
    try {
        runTrace(r);
        FAIL() << "expected an UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(e.field(), "embeddings");
        EXPECT_STREQ(
            e.what(),
            "The embeddings have 3 numbers per token, but d_in is 4. Expected shape (T, d_in) = "
            "(6, 4).");
    }
}

TEST(Validation, ExplicitWeightsOfTheWrongShape) {
    TraceRequest r;
    r.config.variant = Variant::SelfAttention;
    r.inputs = bookInputs();
    WeightMap w;
    w["W_query.weight"] = Tensor(Shape{2, 3});
    w["W_key.weight"] = Tensor(Shape{3, 2});
    w["W_value.weight"] = Tensor(Shape{2, 3});
    r.weights = &w;
    try {
        runTrace(r);
        FAIL() << "expected an UserError";
    } catch (const UserError& e) {
        EXPECT_EQ(e.field(), "weights");
        EXPECT_STREQ(e.what(), "\"W_key.weight\" has shape (3, 2) but this model needs (2, 3).");
    }
    w.erase("W_value.weight");
    w["W_key.weight"] = Tensor(Shape{2, 3});
    try {
        runTrace(r);
        FAIL() << "expected an UserError";
    } catch (const UserError& e) {
        EXPECT_STREQ(
            e.what(),
            "The weights have no \"W_value.weight\" (shape (2, 3)), which SelfAttention_v2 needs.");
    }
}

TEST(Validation, TextFormsRoundTrip) {
    for (Variant v : allVariants())
        EXPECT_EQ(parseVariant(variantName(v)), v);
    EXPECT_EQ(parseMask("window:3"), (MaskSpec{MaskKind::Window, 3}));
    EXPECT_FALSE(parseMask("window:"));
    EXPECT_FALSE(parseMask("window:3x"));
    EXPECT_FALSE(parseMask("triangle"));
    EXPECT_EQ(maskName(MaskSpec{MaskKind::Window, 5}), "window:5");
    EXPECT_EQ(validHeadCounts(12), (std::vector<int64_t>{1, 2, 3, 4, 6, 12}));
    EXPECT_EQ(formatBytes(1536), "1.5 KiB");
}

TEST(Validation, EmbeddingIdsOutsideTheVocabulary) {
    EmbeddingConfig e;
    try {
        chapterTwoEmbeddings(e, {50257});
        FAIL();
    } catch (const UserError& err) {
        EXPECT_STREQ(err.what(), "Token id 50257 is outside the vocabulary of 50257 tokens.");
    }
}

}  // namespace
}  // namespace attn

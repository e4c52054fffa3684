// SPEC 10 in the engine: heads switched off (zero and mean), the text's loss, the logit lens and
// sampling, on small random models; tests/pipeline/bundled_model_test.cpp checks the same against
// PyTorch on the bundled model.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "engine/ablation.h"
#include "engine/config.h"
#include "engine/generate.h"
#include "engine/rng.h"
#include "model_test_util.h"

namespace attn {
namespace {

using testing::HeadPattern;

std::shared_ptr<DecoderModel> noisyModel() {
    testing::PatternModelSpec s;
    s.layers = 3;
    s.heads = 4;
    s.noise = 1.0f;  // out_proj and the MLP write something, so switching a head off matters
    s.pattern = [](int64_t l, int64_t h) {
        return l == 0 && h == 1 ? HeadPattern::Previous : HeadPattern::Random;
    };
    return testing::patternModel(s);
}

std::shared_ptr<const DecoderRun> runWith(std::shared_ptr<const DecoderModel> model,
                                          std::vector<int64_t> ids, HeadAblation ablation,
                                          std::shared_ptr<const DecoderRun> previous = nullptr) {
    DecoderRequest r;
    r.model = std::move(model);
    r.ids = std::move(ids);
    r.ablation = std::move(ablation);
    r.previous = std::move(previous);
    return runDecoder(r);
}

double maxDiff(const Tensor& a, const Tensor& b) {
    EXPECT_EQ(a.shape(), b.shape());
    double m = 0.0;
    for (int64_t i = 0; i < a.numel() && i < b.numel(); ++i)
        m = std::max(m, std::abs(double(a.data()[i]) - double(b.data()[i])));
    return m;
}

// Zeroing a head's context before out_proj is the same as zeroing its columns of out_proj's
// weight: what the head writes is gone from every later layer and from the prediction, while
// the head's own attention and the layers below it are unchanged.
TEST(Ablation, ZeroIsTheModelWithoutTheHeadsColumnsOfTheOutputProjection) {
    const auto model = noisyModel();
    auto cut = std::make_shared<DecoderModel>(*model);
    DecoderLinear& o = cut->blocks[0].outProj;
    o.weight = o.weight.clone();
    const int64_t d = model->arch.dModel, hd = model->arch.headSize();
    for (int64_t out = 0; out < d; ++out)
        for (int64_t c = 0; c < hd; ++c)
            o.weight.mutableData()[out * d + 1 * hd + c] = 0.0f;
    const auto ids = testing::sequentialIds(12, model->arch.vocab);
    const auto ablated = runWith(model, ids, {{{0, 1}}, AblationMode::Zero});
    const auto reference = runWith(cut, ids, {});
    const auto plain = runWith(model, ids, {});
    EXPECT_LT(maxDiff(ablated->attention, reference->attention), 1e-6);
    EXPECT_LT(maxDiff(ablated->finalHidden, reference->finalHidden), 1e-5);
    EXPECT_EQ(maxDiff(ablated->attention.select(0, 0), plain->attention.select(0, 0)), 0.0);
    EXPECT_GT(maxDiff(ablated->attention.select(0, 1), plain->attention.select(0, 1)), 1e-3);
    EXPECT_EQ(ablated->ablation.heads, (std::vector<HeadRef>{{0, 1}}));
}

// Mean ablation writes the head's average context at every position: on one token that is its
// own context, so nothing changes; on more it is neither the plain run nor zero ablation.
TEST(Ablation, MeanWritesTheHeadsAverageContext) {
    const auto model = noisyModel();
    const HeadAblation mean{{{0, 1}}, AblationMode::Mean};
    const auto one = testing::sequentialIds(1, model->arch.vocab);
    EXPECT_LT(maxDiff(runWith(model, one, mean)->finalHidden, runWith(model, one, {})->finalHidden),
              1e-6);
    const auto ids = testing::sequentialIds(10, model->arch.vocab);
    const auto m = runWith(model, ids, mean);
    EXPECT_GT(maxDiff(m->finalHidden, runWith(model, ids, {})->finalHidden), 1e-3);
    EXPECT_GT(maxDiff(m->finalHidden, runWith(model, ids, {{{0, 1}}})->finalHidden), 1e-3);
}

// The block around an ablated layer (what the block view shows) hands the next block exactly
// the input the run gave it.
TEST(Ablation, TheBlockAroundAnAblatedLayerLeadsToTheNextBlocksInput) {
    const auto model = noisyModel();
    for (AblationMode mode : {AblationMode::Zero, AblationMode::Mean}) {
        const auto r =
            runWith(model, testing::sequentialIds(9, model->arch.vocab), {{{0, 1}, {1, 3}}, mode});
        for (int64_t l = 0; l + 1 < model->arch.layers; ++l)
            EXPECT_LT(maxDiff(blockContext(*r, l).residualOut, r->blockInputs.select(0, l + 1)),
                      1e-5)
                << ablationModeName(mode) << " layer " << l;
    }
}

// Typing under the same zero ablation reuses the prefix with the numbers of a fresh run; a
// run under other heads, or any mean ablation (its mean changes every row), starts afresh.
TEST(Ablation, APrefixIsReusedOnlyUnderTheSameZeroAblation) {
    const auto model = noisyModel();
    auto ids = testing::sequentialIds(8, model->arch.vocab);
    const HeadAblation zero{{{1, 2}}};
    const auto before = runWith(model, ids, zero);
    ids.push_back(5);
    const auto typed = runWith(model, ids, zero, before);
    EXPECT_EQ(typed->reusedTokens, 8);
    EXPECT_LT(maxDiff(typed->finalHidden, runWith(model, ids, zero)->finalHidden), 1e-6);
    EXPECT_EQ(runWith(model, ids, {{{1, 1}}}, before)->reusedTokens, 0);
    EXPECT_EQ(runWith(model, ids, {}, before)->reusedTokens, 0);
    const HeadAblation mean{{{1, 2}}, AblationMode::Mean};
    const auto meanBefore = runWith(model, testing::sequentialIds(8, model->arch.vocab), mean);
    const auto meanTyped = runWith(model, ids, mean, meanBefore);
    EXPECT_EQ(meanTyped->reusedTokens, 0);
    EXPECT_LT(maxDiff(meanTyped->finalHidden, runWith(model, ids, mean)->finalHidden), 1e-6);
}

TEST(Ablation, RefusesAHeadTheModelHasNot) {
    const auto model = noisyModel();
    try {
        runWith(model, {1, 2}, {{{3, 0}}});
        FAIL() << "layer 3 of 3 accepted";
    } catch (const UserError& e) {
        EXPECT_EQ(e.field(), "ablate");
        EXPECT_STREQ(
            e.what(),
            "Head 3.0 does not exist: the model has 3 layers (0 to 2) of 4 heads (0 to 3).");
    }
    EXPECT_THROW(runWith(model, {1, 2}, {{{0, 4}}}), UserError);
}

TEST(Ablation, HeadListsReadAndWriteAsLayerDotHead) {
    EXPECT_EQ(parseHeadList(" 2.3, 0.1,2.3 "), (std::vector<HeadRef>{{0, 1}, {2, 3}}));
    EXPECT_EQ(parseHeadList(""), std::vector<HeadRef>{});
    EXPECT_EQ(headListText({{0, 1}, {2, 3}}), "0.1,2.3");
    for (const char* bad : {"1", "1.", ".2", "1.2,", "a.b", "-1.2", "1.2.3", "1,2"})
        EXPECT_FALSE(parseHeadList(bad)) << bad;
    EXPECT_EQ(parseAblationMode("mean"), AblationMode::Mean);
    EXPECT_FALSE(parseAblationMode("random"));
}

// The loss is the mean of -ln p(next token), each from that position's own prediction.
TEST(TextLoss, EachTokensLossIsItsNextTokenLogProbability) {
    const auto model = noisyModel();
    const auto r = runWith(model, testing::sequentialIds(7, model->arch.vocab), {});
    const std::vector<double> logp = tokenLogProbabilities(*r);
    ASSERT_EQ(logp.size(), 6u);
    for (int64_t i = 0; i < 6; ++i)
        EXPECT_NEAR(logp[size_t(i)], nextTokenLogProbability(*r, i, r->ids[size_t(i + 1)]), 1e-6);
}

// The lens's last layer is the model's own prediction; an earlier layer's is the final norm and
// output head applied to that block's output.
TEST(LogitLens, EachLayerIsTheOutputHeadOnThatBlocksOutput) {
    const auto model = noisyModel();
    const auto r = runWith(model, testing::sequentialIds(11, model->arch.vocab), {});
    const LogitLens lens = logitLens(*r, 3);
    ASSERT_EQ(lens.size(), 3u);
    ASSERT_EQ(lens[0].size(), 11u);
    for (int64_t i = 0; i < 11; ++i) {
        const auto own = nextTokens(*r, i, 3);
        for (size_t k = 0; k < 3; ++k) {
            EXPECT_EQ(lens[2][size_t(i)][k].id, own[k].id);
            EXPECT_NEAR(lens[2][size_t(i)][k].probability, own[k].probability, 1e-6);
        }
    }
    // Layer 0 by hand: LayerNorm (scale 1, shift 0) of block 1's input, times the tied head.
    const int64_t d = model->arch.dModel, V = model->arch.vocab;
    const float* x = r->blockInputs.data() + (1 * 11 + 4) * d;
    double mean = 0, var = 0;
    for (int64_t c = 0; c < d; ++c)
        mean += x[c] / double(d);
    for (int64_t c = 0; c < d; ++c)
        var += (x[c] - mean) * (x[c] - mean) / double(d);
    std::vector<double> logits(size_t(V), 0.0);
    for (int64_t v = 0; v < V; ++v)
        for (int64_t c = 0; c < d; ++c)
            logits[size_t(v)] +=
                (x[c] - mean) / std::sqrt(var + 1e-5) * model->tokenEmbedding.data()[v * d + c];
    const int64_t best = std::max_element(logits.begin(), logits.end()) - logits.begin();
    EXPECT_EQ(lens[0][4][0].id, best);
}

Tensor logitsOf(std::vector<float> v) {
    const int64_t n = int64_t(v.size());
    return Tensor(Shape{n}, std::move(v));
}

TEST(Sampling, TemperatureZeroIsTheMostProbableTokenAndDrawsNothing) {
    TorchGenerator g(1);
    const SampledToken t = sampleToken(logitsOf({0.5f, 2.0f, 2.0f, -1.0f}), {0.0}, g);
    EXPECT_EQ(t.id, 1);  // the lower id of the two maxima
    EXPECT_EQ(t.probability, 1.0);
    EXPECT_NEAR(t.modelProbability,
                std::exp(2.0) / (std::exp(0.5) + 2 * std::exp(2.0) + std::exp(-1.0)), 1e-12);
    TorchGenerator fresh(1);
    EXPECT_EQ(g.random(), fresh.random());
}

// Draws follow the renormalised probabilities of what top-k and top-p keep: over 4,000 draws
// each kept token's share is within 3 % of its probability, and no other token is drawn.
TEST(Sampling, DrawsFollowTheKeptProbabilities) {
    const Tensor z = logitsOf({std::log(0.5f), std::log(0.3f), std::log(0.15f), std::log(0.05f)});
    struct Case {
        SamplingOptions o;
        std::vector<double> expected;
    };
    const std::vector<Case> cases = {
        {{1.0, 0, 1.0}, {0.5, 0.3, 0.15, 0.05}},
        {{1.0, 2, 1.0}, {0.625, 0.375, 0, 0}},
        {{1.0, 0, 0.8}, {0.625, 0.375, 0, 0}},  // 0.5 + 0.3 reaches 0.8
        {{1.0, 0, 0.81}, {0.5 / 0.95, 0.3 / 0.95, 0.15 / 0.95, 0}},
        {{0.5, 0, 1.0}, {0.25 / 0.365, 0.09 / 0.365, 0.0225 / 0.365, 0.0025 / 0.365}},
    };
    for (const Case& c : cases) {
        TorchGenerator g(42);
        std::vector<double> counts(4, 0.0);
        for (int i = 0; i < 4000; ++i) {
            const SampledToken t = sampleToken(z, c.o, g);
            counts[size_t(t.id)] += 1.0 / 4000;
            EXPECT_NEAR(t.probability, c.expected[size_t(t.id)], 1e-6);
        }
        for (size_t k = 0; k < 4; ++k)
            EXPECT_NEAR(counts[k], c.expected[k], c.expected[k] == 0 ? 0.0 : 0.03)
                << "top-k " << c.o.topK << " top-p " << c.o.topP << " token " << k;
    }
}

TEST(Sampling, RefusesOptionsOutOfRange) {
    TorchGenerator g(1);
    const Tensor z = logitsOf({1.0f, 2.0f});
    EXPECT_THROW(sampleToken(z, {-0.1}, g), UserError);
    EXPECT_THROW(sampleToken(z, {1.0, -1}, g), UserError);
    EXPECT_THROW(sampleToken(z, {1.0, 0, 0.0}, g), UserError);
    EXPECT_THROW(sampleToken(z, {1.0, 0, 1.5}, g), UserError);
}

// Greedy generation is the argmax after each step; sampling with one seed gives one text.
TEST(Generate, GreedyIsTheArgmaxEachStepAndASeedGivesOneText) {
    const auto model = noisyModel();
    GenerateRequest g;
    g.model = model;
    g.ids = {3, 10};
    g.maxNew = 5;
    g.sampling.temperature = 0.0;
    const Generated greedy = generate(g);
    ASSERT_EQ(greedy.ids.size(), 7u);
    std::vector<int64_t> ids = g.ids;
    for (int i = 0; i < 5; ++i) {
        const auto r = runWith(model, ids, {});
        ids.push_back(nextTokens(*r, r->tokens() - 1, 1)[0].id);
    }
    EXPECT_EQ(greedy.ids, ids);

    g.sampling = {1.5, 0, 1.0};
    g.seed = 9;
    const Generated a = generate(g);
    EXPECT_EQ(generate(g).ids, a.ids);
    g.seed = 10;
    EXPECT_NE(generate(g).ids, a.ids);
    // The prompt and the new tokens must fit the context.
    g.maxNew = model->arch.contextLength;
    try {
        generate(g);
        FAIL() << "a generation beyond the context was accepted";
    } catch (const UserError& e) {
        EXPECT_EQ(e.field(), "max-new");
    }
}

}  // namespace
}  // namespace attn

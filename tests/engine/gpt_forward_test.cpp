// The GPT forward on small random models built in memory: what a run keeps (summaries,
// thumbnails, attention within or beyond the memory budget), recomputation on demand, progress,
// cancellation, the two weight layouts, and every refusal by its message. The comparison with
// PyTorch is in tests/io/model_fixture_test.cpp (it needs the model files).

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <thread>

#include "../io/io_test_util.h"  // expectError
#include "engine/config.h"
#include "engine/decoder_forward.h"

namespace attn {
namespace {

using io::test::expectError;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

Tensor randomTensor(std::mt19937& gen, const Shape& shape, float scale, float offset = 0.0f) {
    std::normal_distribution<float> n(0.0f, 1.0f);
    std::vector<float> v(static_cast<size_t>(shapeNumel(shape)));
    for (float& x : v)
        x = offset + scale * n(gen);
    return Tensor(shape, std::move(v));
}

struct ModelSpec {
    int64_t layers = 2, d = 16, heads = 4, vocab = 50, context = 32;
    bool qkvBias = true, tied = false;
    // Hugging Face's layout: q, k, v as column slices of one (d, 3d) matrix, Conv1D weights.
    bool inputMajor = false;
    uint32_t seed = 7;
};

// The same random weights whatever the layout, so the two layouts can be compared.
std::shared_ptr<DecoderModel> randomModel(const ModelSpec& s) {
    std::mt19937 gen(s.seed);
    auto m = std::make_shared<DecoderModel>();
    const int64_t d = s.d, F = 4 * d;
    m->arch = gpt2Architecture(s.layers, d, s.heads, s.vocab, s.context, F, s.qkvBias, s.tied);
    m->names = s.inputMajor ? WeightNames::HuggingFace : WeightNames::Book;
    m->dtype = "F32";
    m->source = "random";
    m->tokenEmbedding = randomTensor(gen, {s.vocab, d}, 0.7f);
    m->positionEmbedding = randomTensor(gen, {s.context, d}, 0.3f);
    // nn.Linear (out, in) weights, transposed for the Conv1D layout.
    auto linear = [&](int64_t in, int64_t out, bool bias, float scale) {
        DecoderLinear l;
        const Tensor w = randomTensor(gen, {out, in}, scale);
        l.weight = s.inputMajor ? w.transpose(0, 1).contiguous() : w;
        l.inputMajor = s.inputMajor;
        if (bias)
            l.bias = randomTensor(gen, {out}, 0.1f);
        return l;
    };
    for (int64_t i = 0; i < s.layers; ++i) {
        DecoderBlock b;
        b.norm1Scale = randomTensor(gen, {d}, 0.1f, 1.0f);
        b.norm1Shift = randomTensor(gen, {d}, 0.05f);
        b.query = linear(d, d, s.qkvBias, 0.6f);
        b.key = linear(d, d, s.qkvBias, 0.6f);
        b.value = linear(d, d, s.qkvBias, 0.25f);
        if (s.inputMajor) {
            // One (d, 3d) c_attn holding the three, each a strided view of it.
            Tensor cAttn = Tensor::uninitialized({d, 3 * d});
            Tensor bias = Tensor::uninitialized({3 * d});
            DecoderLinear* parts[] = {&b.query, &b.key, &b.value};
            for (int64_t k = 0; k < 3; ++k)
                for (int64_t r = 0; r < d; ++r) {
                    for (int64_t c = 0; c < d; ++c)
                        cAttn.mutableData()[r * 3 * d + k * d + c] = parts[k]->weight.at({r, c});
                    if (s.qkvBias)
                        bias.mutableData()[k * d + r] = parts[k]->bias.at({r});
                }
            for (int64_t k = 0; k < 3; ++k) {
                parts[k]->weight = cAttn.view({d, 3, d}).select(1, k);
                if (s.qkvBias)
                    parts[k]->bias = bias.view({3, d}).select(0, k);
            }
        }
        b.outProj = linear(d, d, true, 0.25f);
        b.norm2Scale = randomTensor(gen, {d}, 0.1f, 1.0f);
        b.norm2Shift = randomTensor(gen, {d}, 0.05f);
        b.ffIn = linear(d, F, true, 0.25f);
        b.ffOut = linear(F, d, true, 0.12f);
        m->blocks.push_back(b);
    }
    m->finalNormScale = randomTensor(gen, {d}, 0.1f, 1.0f);
    m->finalNormShift = randomTensor(gen, {d}, 0.05f);
    const Tensor head = randomTensor(gen, {s.vocab, d}, 0.5f);
    m->outHead.weight = s.tied ? m->tokenEmbedding : head;
    checkDecoderModel(*m);
    return m;
}

std::vector<int64_t> someIds(int64_t T, int64_t vocab, uint32_t seed = 3) {
    std::mt19937 gen(seed);
    std::vector<int64_t> ids(static_cast<size_t>(T));
    for (int64_t& id : ids)
        id = static_cast<int64_t>(gen() % uint32_t(vocab));
    return ids;
}

void expectNear(const Tensor& a, const Tensor& b, double tol, const std::string& what) {
    ASSERT_EQ(a.shape(), b.shape()) << what;
    const std::vector<float> x = a.toVector(), y = b.toVector();
    for (size_t i = 0; i < x.size(); ++i)
        ASSERT_TRUE(x[i] == y[i] || std::fabs(x[i] - y[i]) <= tol)
            << what << " element " << i << ": " << x[i] << " vs " << y[i];
}

std::shared_ptr<const DecoderRun> run(std::shared_ptr<const DecoderModel> model,
                                      const std::vector<int64_t>& ids, int64_t cells = 64) {
    DecoderRequest r;
    r.model = std::move(model);
    r.ids = ids;
    r.thumbnailCells = cells;
    return runDecoder(r);
}

TEST(GptForward, RowSummariesAreThoseOfTheKeptWeights) {
    const auto model = randomModel({});
    const auto r = run(model, someIds(13, 50));
    const int64_t L = 2, H = 4, T = 13;
    ASSERT_TRUE(r->attentionKept());
    for (int64_t l = 0; l < L; ++l)
        for (int64_t h = 0; h < H; ++h) {
            double meanE = 0, meanD = 0, meanF = 0;
            for (int64_t i = 0; i < T; ++i) {
                double e = 0, dist = 0, sum = 0;
                for (int64_t j = 0; j < T; ++j) {
                    const double w = r->attention.at({l, h, i, j});
                    if (j > i) {
                        ASSERT_EQ(w, 0.0) << "masked weight at " << i << "," << j;
                        continue;
                    }
                    sum += w;
                    if (w > 0)
                        e -= w * std::log(w);
                    dist += w * double(i - j);
                }
                EXPECT_NEAR(sum, 1.0, 1e-6);
                EXPECT_NEAR(r->rowEntropy.at({l, h, i}), e, 1e-5);
                EXPECT_NEAR(r->rowDistance.at({l, h, i}), dist, 1e-5);
                EXPECT_EQ(r->rowFirstWeight.at({l, h, i}), r->attention.at({l, h, i, 0}));
                meanE += e / T;
                meanD += dist / T;
                if (i > 0)  // row 0 sees only the first token: no part of the score
                    meanF += r->attention.at({l, h, i, 0}) / (T - 1);
            }
            EXPECT_NEAR(r->meanEntropy.at({l, h}), meanE, 1e-5);
            EXPECT_NEAR(r->meanDistance.at({l, h}), meanD, 1e-5);
            EXPECT_NEAR(r->meanFirstWeight.at({l, h}), meanF, 1e-6);
        }
    // The first row sees only itself: entropy 0, distance 0, all weight on the first token.
    EXPECT_EQ(r->rowEntropy.at({0, 0, 0}), 0.0f);
    EXPECT_EQ(r->rowDistance.at({0, 0, 0}), 0.0f);
    EXPECT_EQ(r->rowFirstWeight.at({0, 0, 0}), 1.0f);
}

TEST(GptForward, ThumbnailCellsAverageTheVisibleWeightsOfTheirBlock) {
    const auto model = randomModel({});
    const int64_t T = 10, P = 4;
    const auto r = run(model, someIds(T, 50), P);
    ASSERT_EQ(r->thumbnails.shape(), (Shape{2, 4, P, P}));
    // Cells of 10 positions in 4: i * 4 / 10 -> starts 0, 3, 5, 8.
    const int64_t starts[] = {0, 3, 5, 8, 10};
    for (int64_t l = 0; l < 2; ++l)
        for (int64_t h = 0; h < 4; ++h)
            for (int64_t a = 0; a < P; ++a)
                for (int64_t b = 0; b < P; ++b) {
                    double sum = 0;
                    int count = 0;
                    for (int64_t i = starts[a]; i < starts[a + 1]; ++i)
                        for (int64_t j = starts[b]; j < starts[b + 1]; ++j)
                            if (j <= i) {
                                sum += r->attention.at({l, h, i, j});
                                ++count;
                            }
                    const float got = r->thumbnails.at({l, h, a, b});
                    if (count == 0) {
                        EXPECT_EQ(got, kNegInf) << a << "," << b;
                    } else {
                        EXPECT_NEAR(got, sum / count, 1e-6) << a << "," << b;
                    }
                }
    EXPECT_EQ(r->thumbnails.at({0, 0, 0, 3}), kNegInf);  // rows 0-2 see no column 8-9

    // Fewer tokens than cells: one cell per weight, -inf above the diagonal.
    const auto small = run(model, someIds(5, 50), 64);
    ASSERT_EQ(small->thumbnails.shape(), (Shape{2, 4, 5, 5}));
    for (int64_t i = 0; i < 5; ++i)
        for (int64_t j = 0; j < 5; ++j)
            EXPECT_EQ(small->thumbnails.at({1, 2, i, j}),
                      j > i ? kNegInf : small->attention.at({1, 2, i, j}));
}

TEST(GptForward, BeyondTheBudgetAttentionIsNotKeptButRecomputedOnDemand) {
    const auto model = randomModel({});
    const std::vector<int64_t> ids = someIds(20, 50);
    const auto kept = run(model, ids, 6);
    DecoderRequest r;
    r.model = model;
    r.ids = ids;
    r.thumbnailCells = 6;
    r.memoryBudgetBytes = estimateDecoderRunBytes(model->arch, 20, 6, false);
    ASSERT_LT(r.memoryBudgetBytes, estimateDecoderRunBytes(model->arch, 20, 6, true));
    int calls = 0;
    r.progress = [&](const DecoderLayerDone& done) {
        EXPECT_TRUE(done.attention.empty());
        expectNear(done.thumbnail, kept->thumbnails.select(0, done.layer), 1e-6, "thumbnail");
        ++calls;
    };
    // Reuse needs kept attention on both sides, so a previous run changes nothing here.
    r.previous = kept;
    const auto lean = runDecoder(r);
    EXPECT_EQ(calls, 2);
    EXPECT_FALSE(lean->attentionKept());
    EXPECT_EQ(lean->reusedTokens, 0);
    for (int64_t l = 0; l < 2; ++l)
        expectNear(layerAttention(*lean, l), kept->attention.select(0, l), 1e-6, "recomputed");
    expectNear(lean->thumbnails, kept->thumbnails, 1e-6, "thumbnails");
    expectNear(lean->rowEntropy, kept->rowEntropy, 1e-6, "entropy");
    expectNear(lean->meanDistance, kept->meanDistance, 1e-6, "distance");
    expectNear(lean->finalHidden, kept->finalHidden, 0.0, "final hidden");
    EXPECT_TRUE(layerAttention(*kept, 1).sharesStorageWith(kept->attention));
}

// Long texts do not keep each block's keys and values (at 1,024 tokens they are 75 MB of GPT-2
// small's peak); everything that needs them projects them again, with the same numbers, and
// typing one more token still reuses the prefix whichever side kept them.
TEST(GptForward, BeyondTheKeysValuesLimitTheyAreRecomputedWithTheSameNumbers) {
    const auto model = randomModel({});
    const std::vector<int64_t> ids = someIds(20, 50);
    auto prefix = [&](int64_t n) { return std::vector<int64_t>(ids.begin(), ids.begin() + n); };
    auto request = [&](const std::vector<int64_t>& tokens, int64_t keptUpTo,
                       std::shared_ptr<const DecoderRun> previous, uint64_t budget) {
        DecoderRequest r;
        r.model = model;
        r.ids = tokens;
        r.keysValuesKeptUpTo = keptUpTo;
        r.previous = std::move(previous);
        r.memoryBudgetBytes = budget;
        return runDecoder(r);
    };
    const uint64_t roomy = uint64_t(1) << 30;
    const auto full = request(ids, 256, nullptr, roomy);
    ASSERT_TRUE(full->keysValuesKept());
    EXPECT_EQ(full->keys.shape(), (Shape{2, 20, 16}));
    EXPECT_LT(estimateDecoderRunBytes(model->arch, 20, 64, true, 10),
              estimateDecoderRunBytes(model->arch, 20, 64, true, 256));

    const auto lean = request(ids, 10, nullptr, roomy);
    EXPECT_FALSE(lean->keysValuesKept());
    EXPECT_TRUE(lean->keys.empty() && lean->values.empty());
    expectNear(lean->attention, full->attention, 0.0, "attention");
    expectNear(lean->finalHidden, full->finalHidden, 0.0, "final hidden");
    const DecoderBlockContext a = blockContext(*lean, 1), b = blockContext(*full, 1);
    expectNear(a.attentionOutput, b.attentionOutput, 1e-6, "block context");
    // Layer 0's output, recomputed without kept keys and values, is layer 1's input.
    expectNear(blockContext(*lean, 0).residualOut, full->blockInputs.select(0, 1).contiguous(),
               1e-5, "layer 0's output");

    // Typing: a previous run without them (16 tokens), with them (8), and a shorter text that
    // keeps them after a run that did not (12 -> 10, an edit at the end).
    const auto without = request(prefix(16), 10, nullptr, roomy);
    const auto with = request(prefix(8), 10, nullptr, roomy);
    ASSERT_FALSE(without->keysValuesKept());
    ASSERT_TRUE(with->keysValuesKept());
    for (const auto& previous : {without, with}) {
        const auto grown = request(ids, 10, previous, roomy);
        EXPECT_EQ(grown->reusedTokens, previous->tokens());
        expectNear(grown->attention, full->attention, 1e-6, "attention after typing");
        expectNear(grown->finalHidden, full->finalHidden, 1e-5, "final hidden after typing");
    }
    std::vector<int64_t> edited = prefix(10);
    edited.back() = (edited.back() + 1) % 50;
    const auto shrunk = request(edited, 10, request(prefix(12), 10, nullptr, roomy), roomy);
    EXPECT_EQ(shrunk->reusedTokens, 9);
    ASSERT_TRUE(shrunk->keysValuesKept());
    const auto fresh = request(edited, 10, nullptr, roomy);
    // The prefix's 9 rows are one product and the fresh run's 10 another, so the sums may be
    // taken in another order (they are in the AddressSanitizer build): a few units in the last
    // place of keys and values of size about 2.
    expectNear(shrunk->keys, fresh->keys, 1e-5, "keys projected again for the prefix");
    expectNear(shrunk->values, fresh->values, 1e-5, "values projected again for the prefix");
    expectNear(shrunk->attention, fresh->attention, 1e-6, "attention after an edit");

    // Neither attention nor keys and values kept: one layer is recomputed from its input alone.
    const auto bare =
        request(ids, 10, nullptr, estimateDecoderRunBytes(model->arch, 20, 64, false, 10));
    ASSERT_FALSE(bare->attentionKept());
    ASSERT_FALSE(bare->keysValuesKept());
    expectNear(layerAttention(*bare, 1), full->attention.select(0, 1), 1e-6, "recomputed layer");
}

// Past 256 tokens the forward runs the feed-forward a block of rows at a time and keeps no keys
// and values; block 0's output must still be block 1's input, as blockContext computes it on
// all rows at once.
TEST(GptForward, LongTextsGiveEachBlockTheOutputOfTheOneBefore) {
    ModelSpec spec;
    spec.context = 600;
    const auto model = randomModel(spec);
    const auto r = run(model, someIds(600, 50));
    EXPECT_FALSE(r->keysValuesKept());
    const DecoderBlockContext c = blockContext(*r, 0);
    expectNear(c.residualOut, r->blockInputs.select(0, 1).contiguous(), 1e-5, "block 0 output");
}

TEST(GptForward, ProgressHandsOverEachFinishedLayerInOrder) {
    const auto model = randomModel({.layers = 3});
    DecoderRequest r;
    r.model = model;
    r.ids = someIds(9, 50);
    std::vector<Tensor> seen;
    r.progress = [&](const DecoderLayerDone& done) {
        EXPECT_EQ(done.layer, static_cast<int64_t>(seen.size()));
        EXPECT_EQ(done.layers, 3);
        EXPECT_EQ(done.attention.shape(), (Shape{4, 9, 9}));
        EXPECT_EQ(done.thumbnail.shape(), (Shape{4, 9, 9}));
        seen.push_back(done.attention.clone());  // the values at hand-over time
    };
    const auto out = runDecoder(r);
    ASSERT_EQ(seen.size(), 3u);
    for (int64_t l = 0; l < 3; ++l)
        expectNear(seen[size_t(l)], out->attention.select(0, l), 0.0, "final at hand-over");
}

TEST(GptForward, CancelStopsTheRun) {
    const auto model = randomModel({});
    CancelToken token;
    DecoderRequest r;
    r.model = model;
    r.ids = someIds(8, 50);
    r.cancel = &token;
    token.cancel();
    EXPECT_THROW(runDecoder(r), Cancelled);
    token.reset();
    int calls = 0;
    r.progress = [&](const DecoderLayerDone&) {
        ++calls;
        token.cancel();
    };
    EXPECT_THROW(runDecoder(r), Cancelled);
    EXPECT_EQ(calls, 1);  // the next block saw the token
}

TEST(GptForward, BothWeightLayoutsGiveTheSameNumbers) {
    const auto book = randomModel({});
    const auto hf = randomModel({.inputMajor = true});
    EXPECT_EQ(hf->blocks[0].query.rowStride(), 48);
    EXPECT_EQ(hf->blocks[0].key.weight.data() - hf->blocks[0].query.weight.data(), 16);
    const std::vector<int64_t> ids = someIds(17, 50);
    const auto a = run(book, ids), b = run(hf, ids);
    expectNear(a->attention, b->attention, 1e-6, "attention");
    expectNear(a->finalHidden, b->finalHidden, 1e-5, "final hidden");
    const Trace ta = layerTrace(*a, 1), tb = layerTrace(*b, 1);
    for (const char* name : {"W_query.weight", "W_value.bias", "out_proj.weight"})
        expectNear(ta.parameters.at(name), tb.parameters.at(name), 0.0, name);
    expectNear(ta.output(), tb.output(), 1e-5, "trace output");
}

TEST(GptForward, LayerTraceIsTheChapterThreeModuleOfThatBlock) {
    const auto model = randomModel({.qkvBias = false, .tied = true});
    const auto r = run(model, someIds(6, 50));
    const Trace t = layerTrace(*r, 0, nullptr, {}, {.simpleMaskSteps = false});
    EXPECT_EQ(t.config.variant, Variant::MultiHead);
    EXPECT_EQ(t.config.dIn, 16);
    EXPECT_EQ(t.config.heads, 4);
    EXPECT_FALSE(t.config.qkvBias);
    EXPECT_EQ(t.config.contextLength, 32);
    EXPECT_EQ(t.parameters.size(), 5u);  // W_query/W_key/W_value.weight, out_proj.weight/bias
    EXPECT_EQ(t.find("weights_tril"), nullptr);
    EXPECT_EQ(t.steps.front().info.op, "trf_blocks[0].norm1(x)");
    EXPECT_EQ(t.steps.front().info.title,
              "Block 0's LayerNorm1 output: the input of its attention");
    const DecoderBlockContext c = blockContext(*r, 0);
    expectNear(t.steps.front().value.select(0, 0), c.norm1, 0.0, "inputs = norm1");
    expectNear(t.output().select(0, 0), c.attentionOutput, 1e-5, "output = attention output");
    expectNear(t.find("weights")->value.select(0, 0), r->attention.select(0, 0), 1e-6, "weights");
}

TEST(GptForward, NextTokensAreTheMostProbableOfTheWholeVocabulary) {
    const auto model = randomModel({.tied = true});
    const auto r = run(model, someIds(7, 50));
    const std::vector<TokenProbability> all = nextTokens(*r, 3, 1000);
    ASSERT_EQ(all.size(), 50u);
    double sum = 0;
    for (size_t i = 0; i < all.size(); ++i) {
        sum += all[i].probability;
        if (i) {
            EXPECT_GE(all[i - 1].probability, all[i].probability);
        }
    }
    EXPECT_NEAR(sum, 1.0, 1e-9);
    EXPECT_TRUE(nextTokens(*r, 3, 0).empty());
    const auto top = nextTokens(*r, 3, 2);
    EXPECT_EQ(top[0].id, all[0].id);
    EXPECT_NEAR(std::log(top[1].probability), nextTokenLogProbability(*r, 3, top[1].id), 1e-9);
    // Each position's prediction depends only on the tokens up to it.
    std::vector<int64_t> ids = r->ids;
    ids[5] = (ids[5] + 1) % 50;
    const auto changed = run(model, ids);
    EXPECT_EQ(nextTokens(*changed, 3, 1)[0].probability, top[0].probability);
}

TEST(GptForward, RefusesWhatItCannotRun) {
    const auto model = randomModel({});
    DecoderRequest r;
    expectError([&] { runDecoder(r); }, "model", "No model is loaded: open a model file first.");
    r.model = model;
    expectError([&] { runDecoder(r); }, "input", "There are no tokens: type some text.");
    r.ids = someIds(33, 50);
    expectError([&] { runDecoder(r); }, "input",
                "The input has 33 tokens, more than the model's context length of 32. Shorten "
                "the text.");
    r.ids = {1, 2, 50};
    expectError([&] { runDecoder(r); }, "input",
                "Token id 50 (position 2) is not in the model's vocabulary of 50 tokens (ids 0 "
                "to 49).");
    r.ids = {1, 2, -1};
    expectError([&] { runDecoder(r); }, "input",
                "Token id -1 (position 2) is not in the model's vocabulary of 50 tokens (ids 0 "
                "to 49).");
    r.ids = someIds(32, 50);
    r.memoryBudgetBytes = 1000;
    expectError([&] { runDecoder(r); }, "memory",
                "Running this model on 32 tokens needs about " +
                    formatBytes(estimateDecoderRunBytes(model->arch, 32, 64, false)) +
                    " even without keeping the attention weights, more than the budget of 1000 "
                    "bytes. Use fewer tokens.");
    const auto ok = run(model, {4, 5, 6});
    expectError([&] { layerAttention(*ok, 2); }, "layer",
                "Layer 2 does not exist: the model has layers 0 to 1.");
    expectError([&] { layerTrace(*ok, -1); }, "layer",
                "Layer -1 does not exist: the model has layers 0 to 1.");
    expectError([&] { nextTokens(*ok, 3, 5); }, "position",
                "Position 3 is not a token of the text: positions run from 0 to 2.");
    expectError([&] { nextTokenLogProbability(*ok, 0, 50); }, "input",
                "Token id 50 is not in the model's vocabulary (ids 0 to 49).");
    EXPECT_TRUE(tokenLogProbabilities(*run(model, {7})).empty());
}

TEST(GptModelCheck, NamesTheFirstWeightThatDoesNotFit) {
    auto model = randomModel({});
    model->blocks[1].ffIn.bias = Tensor(Shape{63});
    expectError([&] { checkDecoderModel(*model); }, "model",
                "random: block 1 feed-forward in bias has shape (63,) but a model of 2 layers, "
                "d_model 16 and vocabulary 50 needs (64,)");
    model = randomModel({});
    model->arch.heads = 5;
    expectError([&] { checkDecoderModel(*model); }, "heads",
                "d_model = 16 cannot be split into 5 heads of equal size. Valid head counts: 1, "
                "2, 4, 8, 16.");
    model = randomModel({.qkvBias = false});
    model->blocks[0].key.bias = Tensor(Shape{16});
    expectError([&] { checkDecoderModel(*model); }, "model",
                "block 0 key has a bias, but this model has none there");
}

TEST(GptForward, ConcurrentRunsOfOneModelAgree) {
    const auto model = randomModel({.layers = 2, .d = 32, .heads = 2});
    const std::vector<int64_t> ids = someIds(30, 50);
    const auto reference = run(model, ids);
    std::vector<std::shared_ptr<const DecoderRun>> results(4);
    std::vector<std::thread> threads;
    for (size_t k = 0; k < results.size(); ++k)
        threads.emplace_back([&, k] { results[k] = run(model, ids); });
    for (std::thread& t : threads)
        t.join();
    // Bit for bit: buffers are aligned alike in every thread, sums run in a fixed order and
    // products are cut into the same chunks whatever the thread count.
    for (const auto& r : results) {
        expectNear(r->attention, reference->attention, 0.0, "concurrent attention");
        expectNear(r->finalHidden, reference->finalHidden, 0.0, "concurrent final hidden");
    }
}

}  // namespace
}  // namespace attn

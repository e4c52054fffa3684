// Model mode against PyTorch: the small random GPT models of tests/fixtures/models (made by
// tests/fixtures/make_model_fixtures.py with torch 1.13, saved as safetensors F32/F16/BF16 and
// with torch.save, Hugging Face and book names), loaded by io::loadDecoderModel and run by
// attn::runDecoder. Every layer's attention and the next-token probabilities agree to 1e-4; one
// layer's chapter-3 step trace and block context are compared step by step; prefix reuse gives
// the full forward's numbers.

#include <gtest/gtest.h>

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "engine/attribution.h"
#include "engine/composition.h"
#include "engine/decoder_forward.h"
#include "engine/patching.h"
#include "io/model_file.h"

#ifndef ATTN_FIXTURES_DIR
#error "ATTN_FIXTURES_DIR must point at tests/fixtures"
#endif

namespace attn::io {
namespace {

namespace fs = std::filesystem;

fs::path modelDir() {
    return fs::path(ATTN_FIXTURES_DIR) / "models";
}

const std::vector<std::string>& modelFiles() {
    static const std::vector<std::string> files = {
        "hf_tied_f32.safetensors",  "hf_tied_f16.safetensors",
        "hf_tied_bf16.safetensors", "hf_head.bin",
        "book_nobias.pth",          "book_nobias.safetensors",
        "book_checkpoint.pth"};
    return files;
}

QJsonObject readJson(const std::string& modelFile) {
    QFile f(QString::fromStdString((modelDir() / (modelFile + ".json")).string()));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << f.fileName().toStdString();
    return QJsonDocument::fromJson(f.readAll()).object();
}

float jsonFloat(const QJsonValue& v) {
    if (v.isString())
        return v.toString() == "-inf"  ? -std::numeric_limits<float>::infinity()
               : v.toString() == "inf" ? std::numeric_limits<float>::infinity()
                                       : std::numeric_limits<float>::quiet_NaN();
    return static_cast<float>(v.toDouble());
}

struct Reference {
    Shape shape;
    std::vector<float> data;
};

Reference readTensor(const QJsonValue& v) {
    Reference r;
    for (const QJsonValue& d : v.toObject().value("shape").toArray())
        r.shape.push_back(d.toInteger());
    for (const QJsonValue& x : v.toObject().value("data").toArray())
        r.data.push_back(jsonFloat(x));
    return r;
}

// Every element within `tol` (non-finite values exactly); the first difference is reported.
void expectClose(const std::string& where, const Reference& expected, const Tensor& got,
                 double tol) {
    ASSERT_EQ(got.shape(), expected.shape) << where;
    const std::vector<float> g = got.toVector();
    ASSERT_EQ(g.size(), expected.data.size()) << where;
    for (size_t i = 0; i < g.size(); ++i) {
        const float e = expected.data[i];
        const bool ok = std::isfinite(e) ? std::fabs(double(g[i]) - e) <= tol : g[i] == e;
        ASSERT_TRUE(ok) << where << ": element " << i << " is " << g[i] << ", PyTorch " << e;
    }
}

std::vector<int64_t> jsonIds(const QJsonObject& o) {
    std::vector<int64_t> ids;
    for (const QJsonValue& v : o.value("ids").toArray())
        ids.push_back(v.toInteger());
    return ids;
}

std::shared_ptr<const DecoderModel> loadFixture(const std::string& file, const QJsonObject& ref) {
    ModelLoadOptions options;
    if (ref.value("heads_given").toBool())
        options.heads = ref.value("heads").toInteger();
    return loadDecoderModel((modelDir() / file).string(), options);
}

std::shared_ptr<const DecoderRun> runFixture(const std::string& file, const QJsonObject& ref) {
    DecoderRequest request;
    request.model = loadFixture(file, ref);
    request.ids = jsonIds(ref);
    return runDecoder(request);
}

// The fixture that also holds a layer's step trace and block context.
const std::string kTraceFile = "hf_tied_f32.safetensors";

class ModelFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelFixture, ArchitectureIsReadFromTheShapes) {
    const QJsonObject ref = readJson(GetParam());
    const auto model = loadFixture(GetParam(), ref);
    const QJsonObject arch = ref.value("arch").toObject();
    EXPECT_EQ(model->arch.layers, arch.value("layers").toInteger());
    EXPECT_EQ(model->arch.dModel, arch.value("d_model").toInteger());
    EXPECT_EQ(model->arch.heads, arch.value("heads").toInteger());
    EXPECT_EQ(model->arch.vocab, arch.value("vocab").toInteger());
    EXPECT_EQ(model->arch.contextLength, arch.value("context_length").toInteger());
    EXPECT_EQ(model->arch.ffHidden, arch.value("ff_hidden").toInteger());
    EXPECT_EQ(model->arch.qkvBias, arch.value("qkv_bias").toBool());
    EXPECT_EQ(model->arch.tiedHead, arch.value("tied").toBool());
    EXPECT_EQ(weightNamesName(model->names), ref.value("names").toString().toStdString());
    EXPECT_EQ(model->dtype, ref.value("dtype").toString().toStdString());
    EXPECT_EQ(model->headsSource,
              ref.value("heads_given").toBool() ? HeadsSource::Request : HeadsSource::Metadata);
    EXPECT_EQ(model->source, GetParam());
    if (model->arch.tiedHead) {
        EXPECT_TRUE(model->headIsEmbedding());
    }
}

// A safetensors file's __metadata__ is kept as written; torch.save files have none.
TEST(ModelFixtureMetadata, IsTheSafetensorsHeaderAsWritten) {
    const auto hf = loadDecoderModel((modelDir() / "hf_tied_f32.safetensors").string(), {});
    EXPECT_EQ(hf->metadata, (std::map<std::string, std::string>{{"format", "pt"}, {"heads", "4"}}));
    ModelLoadOptions fourHeads;  // a torch.save file cannot say its head count
    fourHeads.heads = 4;
    const auto book = loadDecoderModel((modelDir() / "book_checkpoint.pth").string(), fourHeads);
    EXPECT_TRUE(book->metadata.empty());
}

TEST_P(ModelFixture, AttentionAndNextTokenProbabilitiesMatchPyTorch) {
    const QJsonObject ref = readJson(GetParam());
    DecoderRequest request;
    request.model = loadFixture(GetParam(), ref);
    request.ids = jsonIds(ref);
    const auto run = runDecoder(request);
    ASSERT_TRUE(run->attentionKept());
    expectClose(GetParam() + " attention", readTensor(ref.value("attention")), run->attention,
                1e-4);

    const int64_t T = run->tokens();
    const Tensor logits = nextTokenLogits(*run, T - 1);
    const QJsonArray probs = ref.value("probs_last").toArray();
    ASSERT_EQ(logits.numel(), probs.size());
    double lse = 0.0, mx = -1e300;
    for (int64_t j = 0; j < logits.numel(); ++j)
        mx = std::max(mx, double(logits.data()[j]));
    for (int64_t j = 0; j < logits.numel(); ++j)
        lse += std::exp(double(logits.data()[j]) - mx);
    for (int64_t j = 0; j < logits.numel(); ++j)
        ASSERT_NEAR(std::exp(double(logits.data()[j]) - mx) / lse, probs.at(j).toDouble(), 1e-4)
            << GetParam() << " token " << j;

    const QJsonArray top5 = ref.value("top5").toArray();
    for (int64_t i = 0; i < T; ++i) {
        const std::vector<TokenProbability> ours = nextTokens(*run, i, 5);
        const QJsonArray theirs = top5.at(i).toArray();
        ASSERT_EQ(ours.size(), 5u);
        for (int r = 0; r < 5; ++r) {
            const QJsonArray pair = theirs.at(r).toArray();
            EXPECT_NEAR(ours[size_t(r)].probability, pair.at(1).toDouble(), 1e-4)
                << GetParam() << " position " << i << " rank " << r;
            // Ids agree unless two probabilities are too close to order reliably.
            const double gap =
                r + 1 < 5 ? pair.at(1).toDouble() - theirs.at(r + 1).toArray().at(1).toDouble()
                          : 1.0;
            if (gap > 1e-5) {
                EXPECT_EQ(ours[size_t(r)].id, pair.at(0).toInteger())
                    << GetParam() << " position " << i << " rank " << r;
            }
        }
    }

    const QJsonArray logprob = ref.value("next_logprob").toArray();
    const std::vector<double> all = tokenLogProbabilities(*run);
    ASSERT_EQ(all.size(), size_t(T - 1));
    for (int64_t i = 0; i + 1 < T; ++i) {
        EXPECT_NEAR(all[size_t(i)], logprob.at(i).toDouble(), 1e-4) << GetParam() << " " << i;
        // One row's product and the whole matrix's round differently in the last bits.
        EXPECT_NEAR(nextTokenLogProbability(*run, i, request.ids[size_t(i + 1)]), all[size_t(i)],
                    1e-5);
    }
}

// Typing: a run that reuses the previous run's prefix equals a full forward.
TEST_P(ModelFixture, PrefixReuseEqualsTheFullForward) {
    const QJsonObject ref = readJson(GetParam());
    const auto model = loadFixture(GetParam(), ref);
    const std::vector<int64_t> ids = jsonIds(ref);
    DecoderRequest full;
    full.model = model;
    full.ids = ids;
    full.thumbnailCells = 7;  // cells of several rows, so pooling is exercised too
    const auto expected = runDecoder(full);

    auto compare = [&](const DecoderRun& got, const DecoderRun& want, const std::string& what) {
        const std::pair<const Tensor*, const Tensor*> pairs[] = {
            {&got.attention, &want.attention},
            {&got.blockInputs, &want.blockInputs},
            {&got.keys, &want.keys},
            {&got.values, &want.values},
            {&got.finalHidden, &want.finalHidden},
            {&got.rowEntropy, &want.rowEntropy},
            {&got.rowDistance, &want.rowDistance},
            {&got.rowFirstWeight, &want.rowFirstWeight},
            {&got.meanEntropy, &want.meanEntropy},
            {&got.meanDistance, &want.meanDistance},
            {&got.meanFirstWeight, &want.meanFirstWeight},
            {&got.thumbnails, &want.thumbnails}};
        int k = 0;
        for (const auto& [g, w] : pairs) {
            ASSERT_EQ(g->shape(), w->shape()) << what << " tensor " << k;
            const std::vector<float> a = g->toVector(), b = w->toVector();
            for (size_t i = 0; i < a.size(); ++i)
                ASSERT_TRUE(a[i] == b[i] || std::fabs(a[i] - b[i]) <= 1e-5)
                    << what << " tensor " << k << " element " << i << ": " << a[i] << " vs "
                    << b[i];
            ++k;
        }
    };

    DecoderRequest first = full;
    first.ids.assign(ids.begin(), ids.begin() + 11);
    const auto prefix = runDecoder(first);
    DecoderRequest next = full;
    next.previous = prefix;
    const auto grown = runDecoder(next);
    EXPECT_EQ(grown->reusedTokens, 11);
    compare(*grown, *expected, GetParam() + " grown from 11 tokens");

    // An edit in the middle: rows before it are reused, the rest recomputed.
    DecoderRequest edited = full;
    edited.ids[15] = (edited.ids[15] + 1) % model->arch.vocab;
    const auto editedFull = runDecoder(edited);
    edited.previous = expected;
    const auto editedReused = runDecoder(edited);
    EXPECT_EQ(editedReused->reusedTokens, 15);
    compare(*editedReused, *editedFull, GetParam() + " edited at 15");

    // Deleting the last tokens: everything is reused.
    DecoderRequest shorter = first;
    shorter.previous = expected;
    const auto shrunk = runDecoder(shorter);
    EXPECT_EQ(shrunk->reusedTokens, 11);
    compare(*shrunk, *prefix, GetParam() + " shrunk to 11");
}

INSTANTIATE_TEST_SUITE_P(Models, ModelFixture, ::testing::ValuesIn(modelFiles()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param;
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             return name;
                         });

TEST(ModelFixtureTrace, LayerTraceMatchesTheChapterThreeModuleStepByStep) {
    const QJsonObject ref = readJson(kTraceFile);
    const auto run = runFixture(kTraceFile, ref);
    const int64_t layer = ref.value("trace_layer").toInteger();
    const Trace trace = layerTrace(*run, layer);

    EXPECT_EQ(trace.config.variant, Variant::MultiHead);
    EXPECT_EQ(trace.config.dIn, 32);
    EXPECT_EQ(trace.config.dOut, 32);
    EXPECT_EQ(trace.config.heads, 4);
    EXPECT_TRUE(trace.config.qkvBias);
    EXPECT_EQ(trace.config.mode, Mode::Eval);
    EXPECT_EQ(trace.config.effectiveMask(), (MaskSpec{MaskKind::Causal, 0}));
    EXPECT_EQ(trace.config.contextLength, 24);
    EXPECT_EQ(trace.tokens, 20);
    std::vector<std::string> names;
    for (const auto& [name, t] : trace.parameters)
        names.push_back(name);
    EXPECT_EQ(names, (std::vector<std::string>{"W_key.bias", "W_key.weight", "W_query.bias",
                                               "W_query.weight", "W_value.bias", "W_value.weight",
                                               "out_proj.bias", "out_proj.weight"}));
    EXPECT_EQ(trace.steps.front().info.op, "h[1].ln_1(x)");

    const QJsonArray order = ref.value("trace_step_order").toArray();
    ASSERT_EQ(trace.steps.size(), size_t(order.size()));
    const QJsonObject steps = ref.value("trace_steps").toObject();
    for (qsizetype i = 0; i < order.size(); ++i) {
        const std::string id = order.at(i).toString().toStdString();
        EXPECT_EQ(trace.steps[size_t(i)].info.id, id);
        expectClose("step " + id, readTensor(steps.value(QString::fromStdString(id))),
                    trace.steps[size_t(i)].value, 1e-4);
    }
    // The trace's weights are the run's kept weights of that layer.
    const Step* weights = trace.find("weights");
    ASSERT_NE(weights, nullptr);
    const std::vector<float> a = weights->value.select(0, 0).toVector();
    const std::vector<float> b = layerAttention(*run, layer).toVector();
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
        ASSERT_NEAR(a[i], b[i], 1e-6);
}

TEST(ModelFixtureTrace, BlockContextMatchesPyTorch) {
    const QJsonObject ref = readJson(kTraceFile);
    const auto run = runFixture(kTraceFile, ref);
    const int64_t layer = ref.value("trace_layer").toInteger();
    const DecoderBlockContext c = blockContext(*run, layer);
    const QJsonObject want = ref.value("block_context").toObject();
    const std::pair<const char*, const Tensor*> parts[] = {{"residual_in", &c.residualIn},
                                                           {"norm1", &c.norm1},
                                                           {"attention_output", &c.attentionOutput},
                                                           {"residual_mid", &c.residualMid},
                                                           {"norm2", &c.norm2},
                                                           {"ff_hidden", &c.ffHidden},
                                                           {"ff_output", &c.ffOutput},
                                                           {"residual_out", &c.residualOut}};
    for (const auto& [name, tensor] : parts)
        expectClose(name, readTensor(want.value(name)), *tensor, 1e-4);
    // Block 0's output is block 1's input.
    const std::vector<float> out = blockContext(*run, 0).residualOut.toVector();
    const std::vector<float> next = run->blockInputs.select(0, 1).toVector();
    for (size_t i = 0; i < out.size(); ++i)
        ASSERT_NEAR(out[i], next[i], 1e-5);
}

}  // namespace
}  // namespace attn::io

namespace attn::io {
namespace {

// Every composition score and copying score of a GPT-2 (LayerNorm, folded and centred) and a
// Llama model (RMSNorm, 4 query heads in 2 key/value groups) equal float64 PyTorch's
// (tests/fixtures/make_composition_fixture.py, TransformerLens's definitions); a pair whose later
// head is not in a later layer has no score.
TEST(Composition, ScoresEqualTransformerLensDefinitionsInPyTorch) {
    QFile f(QString::fromStdString((modelDir() / "composition.json").string()));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QJsonObject all = QJsonDocument::fromJson(f.readAll()).object();
    const std::vector<std::pair<std::string, fs::path>> models = {
        {"hf_tied_f32", modelDir() / "hf_tied_f32.safetensors"},
        {"llama", fs::path(ATTN_FIXTURES_DIR) / "families" / "llama"}};
    for (const auto& [name, path] : models) {
        SCOPED_TRACE(name);
        const QJsonObject ref = all.value(QString::fromStdString(name)).toObject();
        const auto model = loadDecoderModel(path.string(), {});
        const CompositionScores s = compositionScores(*model);
        ASSERT_EQ(s.layers, 2);
        ASSERT_EQ(s.heads, 4);
        const int64_t n = 8;
        int compared = 0;
        for (const auto& [key, got] : {std::pair{"q", &s.q}, {"k", &s.k}, {"v", &s.v}}) {
            const QJsonArray rows = ref.value(QLatin1String(key)).toArray();
            ASSERT_EQ(got->size(), size_t(n * n));
            for (int64_t a = 0; a < n; ++a)
                for (int64_t b = 0; b < n; ++b) {
                    const QJsonValue e = rows[a].toArray()[b];
                    const double g = (*got)[size_t(a * n + b)];
                    if (e.isNull()) {
                        EXPECT_TRUE(std::isnan(g)) << key << " " << a << " " << b;
                    } else {
                        EXPECT_NEAR(g, e.toDouble(), 1e-5) << key << " " << a << " " << b;
                        ++compared;
                    }
                }
        }
        EXPECT_EQ(compared, 3 * 16);  // 4 heads of layer 0 into 4 of layer 1, three ways
        const QJsonArray copying = ref.value("copying").toArray();
        ASSERT_EQ(s.copying.size(), size_t(n));
        for (int64_t a = 0; a < n; ++a)
            EXPECT_NEAR(s.copying[size_t(a)], copying[a].toDouble(), 1e-5) << "copying " << a;
        EXPECT_DOUBLE_EQ(s.at(s.k, 0, 1, 1, 2), s.k[size_t(1 * n + 6)]);
        EXPECT_TRUE(std::isnan(s.at(s.k, 1, 0, 0, 1)));
    }
}

}  // namespace
}  // namespace attn::io

namespace attn::io {
namespace {

// Direct logit attribution equals float64 PyTorch's on the GPT-2 fixture (SPEC 15's parts and
// the final LayerNorm linearised; tests/fixtures/make_dla_fixture.py), for a logit and a logit
// difference; on Llama (RMSNorm) and Gemma 3 (its (1 + g) norms, the norm after attention
// linearised, the scaled embeddings) the parts sum to the logit the model computes.
TEST(Attribution, DirectLogitAttributionEqualsPyTorchAndSumsToTheLogit) {
    QFile f(QString::fromStdString((modelDir() / "dla.json").string()));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QJsonObject ref = QJsonDocument::fromJson(f.readAll()).object();
    DecoderRequest request;
    request.model = loadDecoderModel((modelDir() / "hf_tied_f32.safetensors").string(), {});
    request.ids = jsonIds(ref);
    const auto run = runDecoder(request);
    for (const QJsonValue& v : ref.value("cases").toArray()) {
        const QJsonObject c = v.toObject();
        const LogitAttribution a =
            directLogitAttribution(*run, c.value("position").toInteger(),
                                   c.value("target").toInteger(), c.value("other").toInteger());
        SCOPED_TRACE(a.other);
        EXPECT_NEAR(a.embed, c.value("embed").toDouble(), 1e-4);
        EXPECT_NEAR(a.biases, c.value("biases").toDouble(), 1e-4);
        EXPECT_NEAR(a.total, c.value("total").toDouble(), 1e-4);
        for (int l = 0; l < 2; ++l) {
            EXPECT_NEAR(a.mlp[size_t(l)], c.value("mlps").toArray()[l].toDouble(), 1e-4) << l;
            for (int h = 0; h < 4; ++h)
                EXPECT_NEAR(a.head[size_t(l * 4 + h)],
                            c.value("heads").toArray()[l].toArray()[h].toDouble(), 1e-4)
                    << l << " " << h;
        }
    }
    for (const char* family : {"llama", "gemma3"}) {
        SCOPED_TRACE(family);
        DecoderRequest r;
        r.model =
            loadDecoderModel((fs::path(ATTN_FIXTURES_DIR) / "families" / family).string(), {});
        r.ids = {2, 17, 33, 5, 90, 17, 33};
        const auto familyRun = runDecoder(r);
        const Tensor logits = nextTokenLogits(*familyRun, 4);
        const LogitAttribution a = directLogitAttribution(*familyRun, 4, 11, 29);
        EXPECT_NEAR(a.total, double(logits.at({11})) - double(logits.at({29})), 1e-4);
        EXPECT_EQ(a.head.size(), size_t(familyRun->model->arch.layers * 4));
    }
    EXPECT_THROW(directLogitAttribution(*run, 99, 1), UserError);
    EXPECT_THROW(directLogitAttribution(*run, 0, 300), UserError);
}

}  // namespace
}  // namespace attn::io

namespace attn::io {
namespace {

// Activation patching on the GPT-2 fixture: a head's context patched with zeros is that head
// switched off; the residual stream entering block 0 at the one position where the texts differ
// makes the clean run's logits the corrupted one's, at any other position changes nothing; the
// corrupted token's stream entering block 1, and some head, move the metric.
TEST(Patching, APatchTakesTheCorruptedActivationAndNothingElse) {
    const auto model = loadDecoderModel((modelDir() / "hf_tied_f32.safetensors").string(), {});
    const std::vector<int64_t> clean = {64, 11, 65, 13, 66, 26, 67};
    std::vector<int64_t> corrupted = clean;
    corrupted[2] = 70;

    DecoderRequest zeroed;
    zeroed.model = model;
    zeroed.ids = clean;
    zeroed.patch = {1, 2, -1, std::make_shared<Tensor>(Tensor(Shape{7, 8}))};
    DecoderRequest ablated;
    ablated.model = model;
    ablated.ids = clean;
    ablated.ablation.heads = {{1, 2}};
    EXPECT_EQ(nextTokenLogits(*runDecoder(zeroed), 6).toVector(),
              nextTokenLogits(*runDecoder(ablated), 6).toVector());

    for (const PatchMetric& metric : {PatchMetric{PatchMetric::Kind::LogitDifference, 40, 41},
                                      PatchMetric{PatchMetric::Kind::Loss}}) {
        const PatchingResult p = activationPatching(model, clean, corrupted, metric);
        ASSERT_EQ(p.head.size(), 8u);
        ASSERT_EQ(p.resid.size(), 14u);
        EXPECT_NE(p.clean, p.corrupted);
        // (The loss keeps the clean text's next tokens, so only the logits become the
        // corrupted run's.)
        const bool logits = metric.kind == PatchMetric::Kind::LogitDifference;
        for (int64_t t = 0; t < 7; ++t)
            if (t != 2 || logits)
                EXPECT_NEAR(p.resid[size_t(t)], t == 2 ? p.corrupted : p.clean, 1e-5) << t;
        // Block 1 at the positions before the change: the same numbers in both runs.
        EXPECT_NEAR(p.resid[size_t(7 + 0)], p.clean, 1e-5);
        EXPECT_NEAR(p.resid[size_t(7 + 1)], p.clean, 1e-5);
        // The corrupted token's stream entering block 1 moves the metric.
        EXPECT_GT(std::fabs(p.resid[size_t(7 + 2)] - p.clean), 1e-4);
        bool moved = false;
        for (double v : p.head)
            moved = moved || std::fabs(v - p.clean) > 1e-4;
        EXPECT_TRUE(moved);
    }
    EXPECT_THROW(activationPatching(model, clean, {64, 11}, PatchMetric{}), UserError);
    EXPECT_THROW(activationPatching(model, clean, corrupted,
                                    PatchMetric{PatchMetric::Kind::LogitDifference, 1, 300}),
                 UserError);
}

}  // namespace
}  // namespace attn::io

// The decoder families after GPT-2 against PyTorch: the small random llama, qwen2, qwen3 and
// gemma3 models of tests/fixtures/families (made by tests/fixtures/make_family_fixtures.py with
// torch 1.13 and the book's classes: Hugging Face folders in F32 and BF16, one sharded, one in
// the multimodal gemma3 layout, and the book's own state_dicts with a config.json), loaded by
// io::loadDecoderModel and run by attn::runDecoder. Every layer's attention, the next-token
// probabilities and each next token's log-probability agree to 1e-4.

#include <gtest/gtest.h>

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/config.h"
#include "engine/decoder_forward.h"
#include "engine/step_ids.h"
#include "io/model_file.h"

#ifndef ATTN_FIXTURES_DIR
#error "ATTN_FIXTURES_DIR must point at tests/fixtures"
#endif

namespace attn::io {
namespace {

namespace fs = std::filesystem;

fs::path familyDir() {
    return fs::path(ATTN_FIXTURES_DIR) / "families";
}

QJsonObject readReference(const std::string& name) {
    QFile f(QString::fromStdString((familyDir() / (name + ".json")).string()));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << f.fileName().toStdString();
    return QJsonDocument::fromJson(f.readAll()).object();
}

std::vector<int64_t> referenceIds(const QJsonObject& ref) {
    std::vector<int64_t> ids;
    for (const QJsonValue& v : ref.value("ids").toArray())
        ids.push_back(v.toInteger());
    return ids;
}

std::shared_ptr<const DecoderModel> loadReferenceModel(const QJsonObject& ref) {
    ModelLoadOptions options;
    if (ref.contains("config"))
        options.configPath = (familyDir() / ref.value("config").toString().toStdString()).string();
    return loadDecoderModel((familyDir() / ref.value("path").toString().toStdString()).string(),
                            options);
}

// Every element of `got` within `tol` of the reference's "data" (shape checked too).
void expectTensorNear(const std::string& where, const QJsonObject& expected, const Tensor& got,
                      double tol) {
    Shape shape;
    for (const QJsonValue& d : expected.value("shape").toArray())
        shape.push_back(d.toInteger());
    ASSERT_EQ(got.shape(), shape) << where;
    const QJsonArray data = expected.value("data").toArray();
    const std::vector<float> g = got.toVector();
    ASSERT_EQ(g.size(), size_t(data.size())) << where;
    for (size_t i = 0; i < g.size(); ++i)
        ASSERT_NEAR(g[i], data.at(qsizetype(i)).toDouble(), tol) << where << ": element " << i;
}

const std::vector<std::string> kModels = {
    "llama",          "llama_bf16_sharded", "qwen2",      "qwen3",      "qwen3_bf16", "gemma3",
    "gemma3_pattern", "gemma3_multimodal",  "book_llama", "book_qwen3", "book_gemma3"};

class FamilyFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(FamilyFixture, ArchitectureIsTheConfigs) {
    const QJsonObject ref = readReference(GetParam());
    const auto model = loadReferenceModel(ref);
    const DecoderArchitecture& a = model->arch;
    const QJsonObject arch = ref.value("arch").toObject();
    EXPECT_EQ(familyName(a.family), ref.value("family").toString().toStdString());
    EXPECT_EQ(a.layers, arch.value("layers").toInteger());
    EXPECT_EQ(a.dModel, arch.value("d_model").toInteger());
    EXPECT_EQ(a.heads, arch.value("heads").toInteger());
    EXPECT_EQ(a.keyValueHeads(), arch.value("kv_heads").toInteger());
    EXPECT_EQ(a.headSize(), arch.value("head_dim").toInteger());
    EXPECT_EQ(a.vocab, arch.value("vocab").toInteger());
    EXPECT_EQ(a.contextLength, arch.value("context_length").toInteger());
    EXPECT_EQ(a.ffHidden, arch.value("ff_hidden").toInteger());
    EXPECT_EQ(a.tiedHead, arch.value("tied").toBool());
    std::vector<int64_t> windows;
    for (int64_t l = 0; l < a.layers; ++l)
        windows.push_back(a.windowOf(l));
    std::vector<int64_t> expectedWindows;
    for (const QJsonValue& w : arch.value("windows").toArray())
        expectedWindows.push_back(w.toInteger());
    EXPECT_EQ(windows, expectedWindows);
    EXPECT_EQ(weightNamesName(model->names), ref.value("names").toString().toStdString());
    EXPECT_EQ(model->dtype, ref.value("dtype").toString().toStdString());
    EXPECT_EQ(model->headsSource, HeadsSource::Config);
    EXPECT_TRUE(model->positionEmbedding.empty());
    // 16-bit matrices stay in the file; float32 ones are used in place too.
    const bool bf16 = model->dtype == "BF16";
    EXPECT_EQ(!model->tokenEmbeddingHalf.empty(), bf16);
    EXPECT_EQ(!model->blocks[0].query.half.empty(), bf16);
    EXPECT_EQ(!model->blocks[0].ffOut.half.empty(), bf16);
    EXPECT_EQ(model->headIsEmbedding(), a.tiedHead);
}

TEST_P(FamilyFixture, AttentionAndNextTokensMatchTheBooksPyTorch) {
    const QJsonObject ref = readReference(GetParam());
    DecoderRequest request;
    request.model = loadReferenceModel(ref);
    request.ids = referenceIds(ref);
    const auto run = runDecoder(request);
    ASSERT_TRUE(run->attentionKept());
    expectTensorNear(GetParam() + " attention", ref.value("attention").toObject(), run->attention,
                     1e-4);
    const int64_t T = run->tokens();
    const Tensor logits = nextTokenLogits(*run, T - 1);
    const QJsonArray probs = ref.value("probs_last").toArray();
    ASSERT_EQ(logits.numel(), probs.size());
    for (int64_t j = 0; j < logits.numel(); ++j)
        ASSERT_NEAR(std::exp(tokenLogProbability(logits, j)), probs.at(j).toDouble(), 1e-4)
            << GetParam() << " token " << j;
    const QJsonArray logprob = ref.value("next_logprob").toArray();
    const std::vector<double> ours = tokenLogProbabilities(*run);
    ASSERT_EQ(ours.size(), size_t(T - 1));
    for (int64_t i = 0; i + 1 < T; ++i)
        EXPECT_NEAR(ours[size_t(i)], logprob.at(i).toDouble(), 1e-4) << GetParam() << " " << i;
}

// Recomputing a layer (attention not kept, keys and values not kept) and reusing a typed prefix
// give the full forward's numbers: RoPE, QK-norm, groups and windows are applied on every path.
TEST_P(FamilyFixture, RecomputedLayersAndReusedPrefixesEqualTheFullForward) {
    const QJsonObject ref = readReference(GetParam());
    DecoderRequest full;
    full.model = loadReferenceModel(ref);
    full.ids = referenceIds(ref);
    const auto all = runDecoder(full);

    DecoderRequest lean = full;
    lean.keysValuesKeptUpTo = 0;
    lean.memoryBudgetBytes =
        estimateDecoderRunBytes(full.model->arch, int64_t(full.ids.size()), 64, false, 0);
    const auto recomputed = runDecoder(lean);
    ASSERT_FALSE(recomputed->attentionKept());
    ASSERT_FALSE(recomputed->keysValuesKept());
    for (int64_t l = 0; l < full.model->arch.layers; ++l) {
        const Tensor ours = layerAttention(*recomputed, l);
        const Tensor kept = all->attention.select(0, l);
        for (int64_t i = 0; i < ours.numel(); ++i)
            ASSERT_NEAR(ours.flat(i), kept.flat(i), 1e-6) << GetParam() << " layer " << l;
        const DecoderBlockContext c = blockContext(*all, l);
        if (l + 1 < full.model->arch.layers) {
            const Tensor next = all->blockInputs.select(0, l + 1);
            for (int64_t i = 0; i < next.numel(); ++i)
                ASSERT_NEAR(c.residualOut.flat(i), next.flat(i), 1e-5) << GetParam() << " " << l;
        }
    }

    DecoderRequest prefix = full;
    prefix.ids.resize(12);
    DecoderRequest typed = full;
    typed.previous = runDecoder(prefix);
    const auto reused = runDecoder(typed);
    EXPECT_EQ(reused->reusedTokens, 12);
    for (int64_t i = 0; i < reused->attention.numel(); ++i)
        ASSERT_NEAR(reused->attention.flat(i), all->attention.flat(i), 1e-6) << GetParam();
    const Tensor a = nextTokenLogits(*reused, 19), b = nextTokenLogits(*all, 19);
    for (int64_t i = 0; i < a.numel(); ++i)
        ASSERT_NEAR(a.flat(i), b.flat(i), 1e-5) << GetParam();
}

// A layer's trace is the rotary module's steps on the block's RMSNorm output with the model's
// weights: its attention weights are the forward's, and its output is the forward's attention
// output (before Gemma's post-attention norm).
TEST_P(FamilyFixture, LayerTracesAreTheRotaryStepsOfTheForward) {
    const QJsonObject ref = readReference(GetParam());
    DecoderRequest request;
    request.model = loadReferenceModel(ref);
    request.ids = referenceIds(ref);
    const auto run = runDecoder(request);
    const DecoderArchitecture& a = request.model->arch;
    for (int64_t l = 0; l < a.layers; ++l) {
        const Trace t = layerTrace(*run, l);
        EXPECT_EQ(t.config.variant, Variant::Rotary);
        EXPECT_EQ(t.config.effectiveMask().kind,
                  a.windowOf(l) > 0 ? MaskKind::Window : MaskKind::Causal);
        EXPECT_EQ(t.find(step_id::kQueriesNormed) != nullptr, a.qkNorm);
        EXPECT_EQ(t.find(step_id::kKeysRepeated) != nullptr, a.keyValueHeads() < a.heads);
        ASSERT_NE(t.find(step_id::kRopeCos), nullptr);
        const Tensor weights = t.find(step_id::kWeights)->value.select(0, 0);
        const Tensor kept = run->attention.select(0, l);
        ASSERT_EQ(weights.shape(), kept.shape());
        for (int64_t i = 0; i < kept.numel(); ++i)
            ASSERT_NEAR(weights.flat(i), kept.flat(i), 1e-5) << GetParam() << " layer " << l;
        if (!a.sandwichNorms) {
            const Tensor out = t.find(step_id::kOutput)->value.select(0, 0);
            const Tensor forward = blockContext(*run, l).attentionOutput;
            for (int64_t i = 0; i < forward.numel(); ++i)
                ASSERT_NEAR(out.flat(i), forward.flat(i), 1e-4) << GetParam() << " layer " << l;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Families, FamilyFixture, ::testing::ValuesIn(kModels),
                         [](const auto& info) { return info.param; });

// Each query head reads the key/value group repeat_interleave gives it.
TEST(FamilyFixtureGroups, QueryHeadsShareTheirGroupsKeys) {
    const auto model = loadReferenceModel(readReference("llama"));
    EXPECT_EQ(model->arch.groupOfHead(0), 0);
    EXPECT_EQ(model->arch.groupOfHead(1), 0);
    EXPECT_EQ(model->arch.groupOfHead(2), 1);
    EXPECT_EQ(model->arch.groupOfHead(3), 1);
}

}  // namespace
}  // namespace attn::io

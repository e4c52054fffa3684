// SPEC 10 on the bundled models against the numbers tools/check_bundled_model.py computed in
// PyTorch (float64) from the same files: on the repeated random common words, with no head, the
// previous-token head zero-ablated and mean-ablated, the attention of the layer of the best
// induction-score head, the text's loss and each token's, the next-token top 5 and the logit
// lens's top 3 agree to 1e-4; greedy generation is PyTorch's argmax decoding. tiny-shakespeare
// has no induction head (docs/MODEL.md; its fixture's "circuit" holds what it has); tiny-circuit
// has the circuit, and switching its previous-token head off at least halves the induction
// head's stripe.
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>

#include "engine/decoder_forward.h"
#include "engine/generate.h"
#include "pipeline/model_request.h"

namespace attn {
namespace {

// A bundled model's fixture (tiny-shakespeare -> tiny_shakespeare_expected.json).
QJsonObject circuitFixture(const char* model) {
    QString name = QString::fromLatin1(model).replace(QLatin1Char('-'), QLatin1Char('_'));
    QFile f(QStringLiteral(ATTN_FIXTURES_DIR "/model/") + name + QStringLiteral("_expected.json"));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << f.fileName().toStdString();
    return QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("circuit")].toObject();
}

std::vector<int64_t> ids(const QJsonValue& v) {
    std::vector<int64_t> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(x.toInteger());
    return out;
}

HeadRef head(const QJsonValue& v) {
    return {v.toArray()[0].toInteger(), v.toArray()[1].toInteger()};
}

class AblationFixture : public ::testing::TestWithParam<const char*> {
  protected:
    void SetUp() override {
        qputenv("ATTN_MODEL_DIR", ATTN_MODELS_DIR);
        model_ = loadModel(QString::fromLatin1(GetParam()));
        fixture_ = circuitFixture(GetParam());
        ASSERT_FALSE(fixture_.isEmpty());
    }
    std::shared_ptr<const DecoderRun> run(const QString& mode) {
        DecoderRequest r;
        r.model = model_;
        r.ids = ids(fixture_["ids"]);
        if (mode != QLatin1String("none"))
            r.ablation = {{head(fixture_["previous_token_head"])},
                          mode == QLatin1String("mean") ? AblationMode::Mean : AblationMode::Zero};
        return runDecoder(r);
    }
    std::shared_ptr<const DecoderModel> model_;
    QJsonObject fixture_;
};

TEST_P(AblationFixture, TheTextIsTheRepeatedWordsAsTheModelReadsThem) {
    Settings s;
    s.source = InputSource::Text;
    s.text = fixture_["text"].toString();
    EXPECT_EQ(tokenIds(modelTokens(s, model_.get()).tokens), ids(fixture_["ids"]));
    const auto v = ids(fixture_["ids"]);
    ASSERT_EQ(v.size() % 2, 0u);
    EXPECT_TRUE(
        std::equal(v.begin(), v.begin() + long(v.size() / 2), v.begin() + long(v.size() / 2)));
}

TEST_P(AblationFixture, EachAblationGivesPyTorchsNumbers) {
    const HeadRef induction = head(fixture_["induction_head"]);
    for (const QString& mode :
         {QStringLiteral("none"), QStringLiteral("zero"), QStringLiteral("mean")}) {
        SCOPED_TRACE(mode.toStdString());
        const QJsonObject e = fixture_["ablation"].toObject()[mode].toObject();
        const auto r = run(mode);
        const int64_t T = r->tokens(), H = r->model->arch.heads;
        // The induction layer's attention, (H, T, T).
        const Tensor att = layerAttention(*r, induction.layer);
        const QJsonArray heads = e["attention_layer"].toArray();
        double worst = 0;
        for (int64_t h = 0; h < H; ++h)
            for (int64_t i = 0; i < T; ++i)
                for (int64_t j = 0; j < T; ++j)
                    worst = std::max(worst, std::abs(att.data()[(h * T + i) * T + j] -
                                                     heads[int(h)][int(i)][int(j)].toDouble()));
        EXPECT_LT(worst, 1e-4);
        // The loss and each token's.
        const std::vector<double> logp = tokenLogProbabilities(*r);
        const QJsonArray losses = e["token_losses"].toArray();
        ASSERT_EQ(int64_t(losses.size()), T - 1);
        double sum = 0;
        for (int64_t i = 0; i + 1 < T; ++i) {
            EXPECT_NEAR(-logp[size_t(i)], losses[int(i)].toDouble(), 1e-4) << "token " << i + 1;
            sum -= logp[size_t(i)];
        }
        EXPECT_NEAR(sum / double(T - 1), e["loss"].toDouble(), 1e-4);
        // The next tokens after the last.
        const auto next = nextTokens(*r, T - 1, 5);
        const QJsonArray top5 = e["next_top5"].toArray();
        for (int k = 0; k < 5; ++k) {
            EXPECT_EQ(next[size_t(k)].id, top5[k].toObject()["id"].toInteger());
            EXPECT_NEAR(next[size_t(k)].probability, top5[k].toObject()["prob"].toDouble(), 1e-4);
        }
        // The logit lens.
        const LogitLens lens = logitLens(*r, 3);
        const QJsonArray expected = e["logit_lens_top3"].toArray();
        ASSERT_EQ(int64_t(lens.size()), int64_t(expected.size()));
        for (size_t l = 0; l < lens.size(); ++l)
            for (int64_t i = 0; i < T; ++i)
                for (int k = 0; k < 3; ++k) {
                    const QJsonObject x = expected[int(l)][int(i)][k].toObject();
                    // Ranks 2 and 3 may swap where PyTorch's probabilities tie to 1e-6.
                    if (k == 0) {
                        EXPECT_EQ(lens[l][size_t(i)][size_t(k)].id, x["id"].toInteger())
                            << "layer " << l << " position " << i;
                    }
                    EXPECT_NEAR(lens[l][size_t(i)][size_t(k)].probability, x["prob"].toDouble(),
                                1e-4);
                }
    }
}

TEST_P(AblationFixture, GreedyGenerationIsPyTorchsArgmaxDecoding) {
    const QJsonObject g = fixture_["greedy"].toObject();
    const std::vector<int64_t> expected = ids(g["ids"]);
    GenerateRequest r;
    r.model = model_;
    r.maxNew = g["new"].toInt();
    r.ids.assign(expected.begin(), expected.end() - r.maxNew);
    r.sampling.temperature = 0.0;
    EXPECT_EQ(generate(r).ids, expected);
}

// Issue 27's circuit: a previous-token head (at least 0.5 on Sonnet 18) below an induction head
// (at least 0.5 on repeated random common words) that the previous-token head feeds: switching
// it off at least halves the induction head's stripe, in PyTorch's scores and in the app's
// attention on the lesson's text.
// (tiny-shakespeare has no induction head, docs/MODEL.md.)
using CircuitFixture = AblationFixture;

TEST_P(CircuitFixture, SwitchingThePreviousTokenHeadOffAtLeastHalvesTheInductionStripe) {
    const HeadRef prev = head(fixture_["previous_token_head"]);
    const HeadRef induction = head(fixture_["induction_head"]);
    EXPECT_LT(prev.layer, induction.layer);
    EXPECT_GE(fixture_["previous_token_score"].toDouble(), 0.5);
    EXPECT_GE(fixture_["induction_score"].toDouble(), 0.5);
    EXPECT_LE(fixture_["induction_score_ablated"].toDouble(),
              fixture_["induction_score"].toDouble() / 2);
    const auto stripe = [&](const DecoderRun& r) {
        const Tensor att = layerAttention(r, induction.layer);
        const int64_t T = r.tokens(), n = T / 2;
        double sum = 0;
        for (int64_t t = n; t < T; ++t)
            sum += att.data()[(induction.head * T + t) * T + (t - n + 1)];
        return sum / double(n);
    };
    const QJsonObject cases = fixture_["ablation"].toObject();
    const double on = stripe(*run(QStringLiteral("none")));
    const double off = stripe(*run(QStringLiteral("zero")));
    EXPECT_NEAR(on, cases["none"].toObject()["induction_stripe"].toDouble(), 1e-4);
    EXPECT_NEAR(off, cases["zero"].toObject()["induction_stripe"].toDouble(), 1e-4);
    EXPECT_GE(on, 0.5);
    EXPECT_LE(off, on / 2);
}

std::string paramName(const ::testing::TestParamInfo<const char*>& info) {
    std::string name = info.param;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

INSTANTIATE_TEST_SUITE_P(BundledModels, AblationFixture,
                         ::testing::Values("tiny-shakespeare", "tiny-circuit"), paramName);
INSTANTIATE_TEST_SUITE_P(BundledModels, CircuitFixture, ::testing::Values("tiny-circuit"),
                         paramName);

}  // namespace
}  // namespace attn

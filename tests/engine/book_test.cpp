// The numbers printed in chapter 3 (tests/fixtures/reference/book_ch03_given.json), rounded to
// four decimals there, so compared to 5e-5.

#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "engine/embeddings.h"
#include "engine/trace.h"

namespace attn {
namespace {

QJsonObject book() {
    QFile f(QStringLiteral(ATTN_FIXTURES_DIR "/reference/book_ch03_given.json"));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << "missing book reference";
    return QJsonDocument::fromJson(f.readAll()).object();
}

std::vector<float> flatten(const QJsonValue& v) {
    std::vector<float> out;
    if (v.isArray()) {
        for (const QJsonValue& e : v.toArray()) {
            auto inner = flatten(e);
            out.insert(out.end(), inner.begin(), inner.end());
        }
    } else {
        out.push_back(static_cast<float>(v.toDouble()));
    }
    return out;
}

void expectNear(const Tensor& t, const QJsonValue& expected, const char* what, float tol = 5e-5f) {
    const std::vector<float> want = flatten(expected);
    const std::vector<float> got = t.toVector();
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < want.size(); ++i)
        EXPECT_NEAR(got[i], want[i], tol) << what << " [" << i << "]";
}

Trace traceBook(Variant v, uint64_t seed) {
    TraceRequest r;
    r.config.variant = v;
    r.config.dIn = 3;
    r.config.dOut = 2;
    r.config.seed = seed;
    r.inputs = bookInputs();
    return runTrace(r);
}

TEST(Book, InputsAreTheSixVectors) {
    expectNear(bookInputs(), book()["inputs"], "inputs", 0.0f);
    EXPECT_EQ(bookTokens().front(), "Your");
    EXPECT_EQ(bookTokens().back(), "step");
}

TEST(Book, SimplifiedSelfAttention) {
    const QJsonObject ref = book()["simplified"].toObject();
    const Trace t = traceBook(Variant::Simplified, 123);
    expectNear(t.find("scores")->value, ref["scores"], "scores");
    expectNear(t.find("weights")->value, ref["weights"], "weights");
    expectNear(t.find("context")->value, ref["context"], "context");
    EXPECT_EQ(t.parameterCount, 0);
    EXPECT_EQ(t.find("scaled_scores"), nullptr);  // simplified attention does not scale
}

TEST(Book, SelfAttentionV1Seed123) {
    const QJsonObject ref = book()["self_attention_v1_seed123"].toObject();
    const Trace t = traceBook(Variant::SelfAttentionV1, 123);
    expectNear(t.parameters.at("W_query"), ref["W_query"], "W_query");
    expectNear(t.parameters.at("W_key"), ref["W_key"], "W_key");
    expectNear(t.parameters.at("W_value"), ref["W_value"], "W_value");
    expectNear(t.find("queries")->value, ref["queries"], "queries");
    expectNear(t.find("scores")->value, ref["scores"], "scores");
    expectNear(t.find("weights")->value, ref["weights"], "weights");
    expectNear(t.find("context")->value, ref["context"], "context");
    // The book prints the first context vector as tensor([0.2996, 0.8053]).
    EXPECT_NEAR(t.output().at({0, 0, 0}), 0.2996f, 5e-5f);
    EXPECT_NEAR(t.output().at({0, 0, 1}), 0.8053f, 5e-5f);
}

TEST(Book, SelfAttentionV2Seed789FirstRow) {
    // Section 3.4.2: torch.manual_seed(789); sa_v2 = SelfAttention_v2(d_in, d_out)
    const Trace t = traceBook(Variant::SelfAttention, 789);
    EXPECT_NEAR(t.output().at({0, 0, 0}), -0.0739f, 5e-5f);
    EXPECT_NEAR(t.output().at({0, 0, 1}), 0.0713f, 5e-5f);
}

TEST(Book, MultiHeadParameterCountOfGpt2Small) {
    Config c;
    c.variant = Variant::MultiHead;
    c.dIn = c.dOut = 768;
    c.heads = 12;
    EXPECT_EQ(parameterCount(c), 2360064);
}

TEST(Book, CausalWeightsOfTheChapter) {
    // Section 3.5.1: the causal weights' second row is [0.5517, 0.4483, 0, 0, 0, 0] with the
    // weights of SelfAttention_v2 under torch.manual_seed(789).
    Trace t = traceBook(Variant::Causal, 789);
    const Tensor& w = t.find("weights")->value;
    EXPECT_NEAR(w.at({0, 1, 0}), 0.5517f, 5e-5f);
    EXPECT_NEAR(w.at({0, 1, 1}), 0.4483f, 5e-5f);
    for (int j = 2; j < 6; ++j)
        EXPECT_EQ(w.at({0, 1, j}), 0.0f);
}

}  // namespace
}  // namespace attn

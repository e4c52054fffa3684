// The model that ships with the app (resources/models/tiny-shakespeare.safetensors), read by the
// same reader as any user's file and run by the engine, against the numbers its checking script
// (tools/check_bundled_model.py, PyTorch) wrote into tests/fixtures/model/: it loads with its
// metadata, beats the bigram baseline on held-out text, and its heads' previous-token scores on a
// sonnet the plays do not contain are PyTorch's, with one head that puts at least half its weight
// on the token before.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <algorithm>
#include <cmath>

#include "engine/decoder_forward.h"
#include "engine/head_scores.h"
#include "pipeline/model_request.h"

namespace attn {
namespace {

QJsonObject expected() {
    QFile f(QStringLiteral(ATTN_FIXTURES_DIR "/model/tiny_shakespeare_expected.json"));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly));
    return QJsonDocument::fromJson(f.readAll()).object();
}

std::vector<int64_t> idsOf(const QJsonValue& v) {
    std::vector<int64_t> ids;
    for (const QJsonValue& x : v.toArray())
        ids.push_back(x.toInteger());
    return ids;
}

// Found beside the program (this test's build/tests/pipeline -> build/share/attention-lens/models)
// without a QCoreApplication, as the app's launch looks for it before it makes one.
TEST(BundledModels, AreFoundBesideTheProgramWithoutAnApplicationObject) {
    ASSERT_EQ(QCoreApplication::instance(), nullptr);
    const QByteArray saved = qgetenv("ATTN_MODEL_DIR");
    qunsetenv("ATTN_MODEL_DIR");
    const QString dir = bundledModelDirectory();
    const QStringList names = bundledModelNames();
    if (!saved.isEmpty())
        qputenv("ATTN_MODEL_DIR", saved);
    EXPECT_TRUE(dir.endsWith(QStringLiteral("/share/attention-lens/models"))) << dir.toStdString();
    EXPECT_TRUE(names.contains(QStringLiteral("tiny-shakespeare")));
}

std::string describe(const QString& nameOrPath) {
    return describeModel(*loadModel(nameOrPath)).toStdString();
}

// The line under the picker names the family, which query heads share key/value heads, and the
// layers that see only a window.
TEST(ModelDescription, NamesTheFamilyTheSharedKeysAndTheSlidingLayers) {
    const QString families = QStringLiteral(ATTN_FIXTURES_DIR "/families/");
    EXPECT_EQ(describe(families + QStringLiteral("llama")),
              "llama, 2 layers, 4 query heads sharing 2 key/value heads of 8 "
              "(d 32), context 64, vocabulary 300, F32");
    EXPECT_EQ(describe(families + QStringLiteral("qwen3")),
              "qwen3, 2 layers, 4 query heads sharing 2 key/value heads of 16 "
              "(d 32), context 64, vocabulary 300, F32");
    EXPECT_EQ(describe(families + QStringLiteral("gemma3")),
              "gemma3_text, 3 layers, 4 query heads sharing 1 key/value heads of "
              "16 (d 32), context 64, a sliding window of 4 on 2 of 3 layers "
              "(full attention: 2), vocabulary 300, F32");
    qputenv("ATTN_MODEL_DIR", ATTN_MODELS_DIR);
    EXPECT_EQ(describe(QStringLiteral("tiny-shakespeare")),
              "gpt2, 4 layers, 4 heads of 32 (d 128), context 256, vocabulary "
              "50257, F16");
}

// The second bundled model is a Hugging Face folder of today's family: a Llama with grouped-query
// attention (2 key/value groups), RoPE, RMSNorm and SwiGLU, reading GPT-2's tokens (it has no
// tokenizer.json), trained on the same text; its file says its loss, below the bigram model's.
TEST(BundledModels, TheLlamaIsAFolderOfTodaysFamily) {
    qputenv("ATTN_MODEL_DIR", ATTN_MODELS_DIR);
    EXPECT_EQ(bundledModelNames(),
              (QStringList{"tiny-circuit", "tiny-shakespeare", "tiny-shakespeare-llama"}));
    EXPECT_TRUE(QFileInfo(modelFilePath(QStringLiteral("tiny-shakespeare-llama"))).isDir());
    const auto m = loadModel(QStringLiteral("tiny-shakespeare-llama"));
    EXPECT_EQ(m->arch.family, Family::Llama);
    EXPECT_EQ(m->arch.keyValueHeads(), 2);
    EXPECT_TRUE(m->arch.rope);
    EXPECT_EQ(m->arch.feedForward, FeedForwardKind::SwiGlu);
    EXPECT_EQ(m->tokenizer, nullptr);
    EXPECT_EQ(describe(QStringLiteral("tiny-shakespeare-llama")),
              "llama, 4 layers, 4 query heads sharing 2 key/value heads of 32 (d 128), context "
              "256, vocabulary 50257, F16");
    const double loss = std::stod(m->metadata.at("validation_loss"));
    const double bigram = std::stod(m->metadata.at("baseline_bigram_validation_loss"));
    EXPECT_LT(loss, bigram - 0.3);
    EXPECT_LE(QFileInfo(modelFilePath(QStringLiteral("tiny-shakespeare-llama")) +
                        QStringLiteral("/model.safetensors"))
                  .size(),
              16 * 1000 * 1000);
}

// The third bundled model holds issue 27's induction circuit (tests/pipeline/
// ablation_fixture_test.cpp checks the circuit against PyTorch); it still models the plays
// better than the bigram model, and its line under the picker says what it was trained for.
TEST(BundledModels, TheCircuitModelSaysWhatItIsAndBeatsTheBigram) {
    qputenv("ATTN_MODEL_DIR", ATTN_MODELS_DIR);
    const auto m = loadModel(QStringLiteral("tiny-circuit"));
    EXPECT_EQ(m->arch.layers, 2);
    EXPECT_EQ(m->arch.heads, 4);
    const double loss = std::stod(m->metadata.at("validation_loss"));
    const double bigram = std::stod(m->metadata.at("baseline_bigram_validation_loss"));
    EXPECT_LT(loss, bigram);
    const QString description = QString::fromStdString(m->metadata.at("description"));
    EXPECT_TRUE(description.contains(QStringLiteral("said twice"))) << description.toStdString();
    EXPECT_TRUE(description.contains(QStringLiteral("induction head")))
        << description.toStdString();
    const QFileInfo file(modelFilePath(QStringLiteral("tiny-circuit")));
    EXPECT_LE(QFileInfo(file.isDir() ? file.filePath() + QStringLiteral("/model.safetensors")
                                     : file.filePath())
                  .size(),
              16 * 1000 * 1000);
}

class BundledModel : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        qputenv("ATTN_MODEL_DIR", ATTN_MODELS_DIR);
        model_ = loadModel(QStringLiteral("tiny-shakespeare"));
    }
    static void TearDownTestSuite() { model_.reset(); }

    std::shared_ptr<const DecoderRun> run(const std::vector<int64_t>& ids) const {
        DecoderRequest r;
        r.model = model_;
        r.ids = ids;
        return runDecoder(r);
    }

    static std::shared_ptr<const DecoderModel> model_;
};
std::shared_ptr<const DecoderModel> BundledModel::model_;

TEST_F(BundledModel, LoadsAsABundledModelWithItsMetadata) {
    EXPECT_TRUE(bundledModelNames().contains(QStringLiteral("tiny-shakespeare")));
    ASSERT_NE(model_, nullptr);
    const QJsonObject m = expected()["model"].toObject();
    EXPECT_EQ(model_->arch.layers, m["layers"].toInt());
    EXPECT_EQ(model_->arch.heads, m["heads"].toInt());  // 4 heads of 32, from the metadata
    EXPECT_EQ(model_->arch.dModel, m["d_model"].toInt());
    EXPECT_EQ(model_->arch.vocab, 50257);
    EXPECT_EQ(model_->arch.contextLength, m["context_length"].toInt());
    EXPECT_EQ(model_->headsSource, HeadsSource::Metadata);
    const QFileInfo file(modelFilePath(QStringLiteral("tiny-shakespeare")));
    EXPECT_LE(file.size(), 16 * 1024 * 1024);
}

// What the picker shows under the model: the file's own description, validation loss against
// the bigram baseline, and licence, from its metadata.
TEST_F(BundledModel, SaysWhatItIsItsValidationLossAndItsLicence) {
    const QJsonObject o = expected();
    const QString origin = describeModelOrigin(*model_);
    EXPECT_TRUE(origin.startsWith(QString::fromStdString(model_->metadata.at("description"))))
        << origin.toStdString();
    // The metadata's figures are the ones the checking script recomputes from the file alone.
    const QString loss = QString::fromStdString(model_->metadata.at("validation_loss"));
    const QString bigram =
        QString::fromStdString(model_->metadata.at("baseline_bigram_validation_loss"));
    EXPECT_NEAR(loss.toDouble(), o["validation_loss"].toDouble(), 5e-4);
    EXPECT_NEAR(bigram.toDouble(), o["baseline_bigram_validation_loss"].toDouble(), 5e-4);
    EXPECT_TRUE(
        origin.contains(QStringLiteral("Validation loss %1 nats per token (a bigram model: %2).")
                            .arg(loss, bigram)))
        << origin.toStdString();
    EXPECT_TRUE(
        origin.endsWith(QStringLiteral("Licence: CC0-1.0 (weights); the training text is "
                                       "public domain.")))
        << origin.toStdString();
    // In German the figures read with decimal commas, as written otherwise (4,5529).
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    const QString german = describeModelOrigin(*model_);
    QLocale::setDefault(before);
    EXPECT_TRUE(german.contains(QString(loss).replace(QLatin1Char('.'), QLatin1Char(',')) +
                                QStringLiteral(" nats")))
        << german.toStdString();
    EXPECT_FALSE(german.contains(loss)) << german.toStdString();
    // Every entry in the details table, escaped.
    const QString html = modelMetadataHtml(*model_);
    for (const auto& [key, value] : model_->metadata)
        EXPECT_TRUE(html.contains(QString::fromStdString(value).toHtmlEscaped())) << key;
}

TEST_F(BundledModel, BeatsTheBigramBaselineOnHeldOutText) {
    const QJsonObject o = expected();
    EXPECT_LT(o["validation_loss"].toDouble(), o["baseline_bigram_validation_loss"].toDouble());
    // The first context window of the held-out split, through this program's forward.
    const QJsonObject excerpt = o["excerpt"].toObject();
    const std::vector<int64_t> ids = idsOf(excerpt["ids"]);
    ASSERT_GE(ids.size(), 2u);
    const auto r = run(ids);
    double loss = 0;
    for (size_t i = 0; i + 1 < ids.size(); ++i)
        loss -= nextTokenLogProbability(*r, int64_t(i), ids[i + 1]);
    loss /= double(ids.size() - 1);
    EXPECT_NEAR(loss, excerpt["model_loss"].toDouble(), 2e-3);
    EXPECT_LT(loss, excerpt["bigram_loss"].toDouble());
}

TEST_F(BundledModel, PreviousTokenScoresOnASonnetArePyTorchs) {
    const QJsonObject sonnet = expected()["sonnet"].toObject();
    const auto r = run(idsOf(sonnet["ids"]));
    const HeadScores scores = headScores(*r);
    const QJsonArray want = sonnet["previous_token_scores"].toArray();
    ASSERT_EQ(want.size(), model_->arch.layers);
    for (int64_t l = 0; l < model_->arch.layers; ++l)
        for (int64_t h = 0; h < model_->arch.heads; ++h)
            EXPECT_NEAR(scores.at(scores.previousToken, l, h),
                        want[int(l)].toArray()[int(h)].toDouble(), 1e-3)
                << "layer " << l << " head " << h;
    // The strongest head is the fixture's strongest.
    const HeadPick best = strongestPreviousTokenHead(scores);
    ASSERT_TRUE(best.valid());
    double most = 0;
    for (const QJsonValue& row : want)
        for (const QJsonValue& v : row.toArray())
            most = std::max(most, v.toDouble());
    EXPECT_NEAR(best.score, most, 1e-3);
    // A previous-token head, learnt: the mean weight on token i - 1 is at least 0.5 (uniform
    // attention gives 0.029 on this text).
    EXPECT_GE(best.score, 0.5);
}

TEST_F(BundledModel, PredictsTheNextTokensPyTorchDoes) {
    const QJsonObject next = expected()["next_after_prompt"].toObject();
    const std::vector<int64_t> ids = idsOf(next["ids"]);
    const auto r = run(ids);
    const auto top = nextTokens(*r, int64_t(ids.size()) - 1, 5);
    const QJsonArray want = next["top5"].toArray();
    ASSERT_EQ(top.size(), 5u);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(top[size_t(i)].id, want[i].toObject()["id"].toInteger()) << i;
        EXPECT_NEAR(top[size_t(i)].probability, want[i].toObject()["prob"].toDouble(), 1e-4) << i;
    }
}

}  // namespace
}  // namespace attn

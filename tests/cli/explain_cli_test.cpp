// attention-lens-cli explain: the Explain panel's texts for a step and a cell, as text or
// Markdown, in English or German; --all-steps in pipeline order; one line and exit 2 for a step,
// head or cell that does not exist.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "cli/cli_run.h"

namespace {

using attn::test::cli;
using attn::test::CliRun;
using attn::test::expectRefused;

QString text(const CliRun& r) {
    EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_TRUE(r.err.isEmpty()) << r.err.toStdString();
    return QString::fromUtf8(r.out);
}

// The number a derivation's first line ends on: the cell's value ("weights — query "one", key
// "journey" = 0.1964").
double derivedValue(const QString& s) {
    const qsizetype heading = s.indexOf(QLatin1String("Where this number comes from\n"));
    const QString first = s.mid(heading).section(QLatin1Char('\n'), 1, 1);
    return first.section(QLatin1String(" = "), -1).toDouble();
}

// The step ids of `trace` with the same options, in order.
QStringList traceStepIds(const QStringList& options) {
    const CliRun r = cli(QStringList{"trace"} + options);
    EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
    QStringList ids;
    for (const QJsonValue& s : QJsonDocument::fromJson(r.out).object()["steps"].toArray())
        ids << s.toObject()["id"].toString();
    return ids;
}

const QStringList kBook = {"--preset", "book", "--variant", "multi-head",
                           "--heads",  "2",    "--d-out",   "4"};

}  // namespace

TEST(ExplainCli, AStepsTextsAndACellsDerivationEndingOnItsValue) {
    const QString out = text(
        cli(QStringList{"explain", "--step", "weights", "--cell", "4,2", "--head", "1"} + kBook));
    // Title, formula, PyTorch expression and shape line, then the derivation, last.
    const qsizetype title = out.indexOf(QStringLiteral("weights — "));
    const qsizetype formula = out.indexOf(QLatin1String("Formula:"));
    const qsizetype pytorch = out.indexOf(QLatin1String("PyTorch: torch.softmax("));
    const qsizetype shape = out.indexOf(QLatin1String("Shape: (1, 2, 6, 6)"));
    const qsizetype where = out.indexOf(QLatin1String("Where this number comes from"));
    EXPECT_EQ(title, 0) << out.toStdString();
    EXPECT_LT(title, formula);
    EXPECT_LT(formula, pytorch);
    EXPECT_LT(pytorch, shape);
    EXPECT_LT(shape, where);
    // Subscripts stay subscripts on paper: w_ij, not wij.
    EXPECT_TRUE(out.contains(QLatin1String("w_ij = softmax_j(z_i)"))) << out.toStdString();

    // The derivation opens on the cell's value, as the trace holds it, at 4 decimals.
    const CliRun trace = cli(QStringList{"trace"} + kBook);
    ASSERT_EQ(trace.exitCode, 0);
    for (const QJsonValue& s : QJsonDocument::fromJson(trace.out).object()["steps"].toArray()) {
        const QJsonObject step = s.toObject();
        if (step["id"].toString() != QLatin1String("weights"))
            continue;
        // (b, h, T, T) = (1, 2, 6, 6): head 1, query 4, key 2.
        const double value = step["data"].toArray().at(36 + 4 * 6 + 2).toDouble();
        EXPECT_NEAR(derivedValue(out), value, 0.5e-4) << out.toStdString();
        EXPECT_GT(value, 0.0);
    }
}

TEST(ExplainCli, EveryStepInPipelineOrder) {
    const QStringList ids = traceStepIds(kBook);
    ASSERT_GT(ids.size(), 15);
    const QString out = text(cli(QStringList{"explain", "--all-steps"} + kBook));
    qsizetype at = -1;
    for (const QString& id : ids) {
        const qsizetype next = out.indexOf(
            QRegularExpression(QStringLiteral("(^|\\n)%1 — ").arg(QRegularExpression::escape(id))));
        EXPECT_GT(next, at) << id.toStdString() << " missing or out of order";
        at = next;
    }
}

TEST(ExplainCli, AModelLayersStepsWithTheModelsOwnOps) {
    const QStringList options = {"--model", "tiny-shakespeare-llama", "--layer", "1",
                                 "--text",  "Shall I compare"};
    const QStringList ids = traceStepIds(options);
    ASSERT_TRUE(ids.contains(QLatin1String("keys_groups")));
    const QString out = text(cli(QStringList{"explain", "--all-steps"} + options));
    for (const QString& id : ids)
        EXPECT_TRUE(out.contains(id + QStringLiteral(" — "))) << id.toStdString();
    // The Hugging Face folder's own names, as the trace's ops have them.
    EXPECT_TRUE(out.contains(QLatin1String("model.layers[1]"))) << out.toStdString();
}

TEST(ExplainCli, MarkdownAndGerman) {
    const QString md =
        text(cli(QStringList{"explain", "--step", "queries", "--format", "markdown"} + kBook));
    EXPECT_TRUE(md.startsWith(QStringLiteral("### queries — "))) << md.toStdString();
    EXPECT_TRUE(md.contains(QLatin1String("**PyTorch:**"))) << md.toStdString();
    EXPECT_TRUE(md.contains(QLatin1String("q<sub>i</sub>"))) << md.toStdString();

    const QString de =
        text(cli(QStringList{"explain", "--step", "weights", "--lang", "de"} + kBook));
    EXPECT_TRUE(de.contains(QLatin1String("Formel:"))) << de.toStdString();
    EXPECT_FALSE(de.contains(QLatin1String("Formula:"))) << de.toStdString();
    // A cell's tokens stand in German quotation marks.
    const QString cell = text(
        cli(QStringList{"explain", "--step", "weights", "--cell", "3,1", "--lang", "de"} + kBook));
    EXPECT_TRUE(cell.contains(QStringLiteral("Query „with“, Key „journey“"))) << cell.toStdString();
}

TEST(ExplainCli, OneLineForWhatDoesNotExist) {
    expectRefused(QStringList{"explain", "--step", "nope"} + kBook, "no step \"nope\"");
    expectRefused(QStringList{"explain", "--step", "weights", "--cell", "6,0"} + kBook,
                  "--cell 6,0 is outside the heatmap of weights, which has 6 rows and 6 columns");
    expectRefused(
        QStringList{"explain", "--step", "weights", "--cell", "1,1", "--head", "2"} + kBook,
        "--head 2 is out of range");
    expectRefused(QStringList{"explain", "--step", "weights", "--cell", "1"} + kBook,
                  "--cell expects a row and a column from 0, as I,J");
    expectRefused(QStringList{"explain", "--step", "weights", "--head", "1"} + kBook,
                  "give the cell with --cell I,J");
    expectRefused(QStringList{"explain", "--all-steps", "--cell", "1,1"} + kBook,
                  "not --all-steps");
    expectRefused(QStringList{"explain"} + kBook, "--step ID, or --all-steps");
    expectRefused(QStringList{"explain", "--all-steps", "--lang", "fr"} + kBook,
                  "the languages are en and de");
    expectRefused(QStringList{"explain", "--all-steps", "--format", "html"} + kBook,
                  "use text or markdown");
}

// A model layer's `inputs` is its block's first norm, whatever the model names it: the step says
// so as a fact (StepSource::LayerInput), so a Hugging Face Llama's input_layernorm is explained as
// what attention reads, not as token plus position embeddings.
TEST(ExplainCli, AModelLayersInputIsItsFirstNormInEveryNamingScheme) {
    const QString families = QStringLiteral(ATTN_FIXTURES_DIR "/families/");
    for (const QStringList& model : {QStringList{"--model", families + "llama"},
                                     QStringList{"--model", families + "book_llama.pth", "--config",
                                                 families + "book_llama.config.json"},
                                     QStringList{"--model", "tiny-shakespeare"}}) {
        const QString out =
            text(cli(QStringList{"explain", "--step", "inputs", "--ids", "5,6,7"} + model));
        EXPECT_TRUE(out.contains(QLatin1String("what attention reads"))) << out.toStdString();
        EXPECT_FALSE(out.contains(QLatin1String("position embedding"))) << out.toStdString();
    }
}

// Gemma 3 divides its scores by sqrt(query_pre_attn_scalar), which need not be its head size
// (here 24 against 16): the op, the text and a clicked cell's derivation say so, and the
// derivation's value is the cell's.
TEST(ExplainCli, GemmaScalesByItsQueryPreAttnScalarNotItsHeadSize) {
    QTemporaryDir dir;
    const QDir fixture(QStringLiteral(ATTN_FIXTURES_DIR "/families/gemma3"));
    for (const QString& name : fixture.entryList(QDir::Files))
        ASSERT_TRUE(QFile::copy(fixture.filePath(name), dir.filePath(name)));
    QFile config(dir.filePath("config.json"));
    ASSERT_TRUE(config.open(QIODevice::ReadWrite));
    QJsonObject o = QJsonDocument::fromJson(config.readAll()).object();
    ASSERT_EQ(o["query_pre_attn_scalar"].toInt(), 16);
    ASSERT_EQ(o["head_dim"].toInt(), 16);
    o["query_pre_attn_scalar"] = 24;
    config.resize(0);
    config.write(QJsonDocument(o).toJson());
    config.close();
    const QStringList model = {"--model", dir.path(), "--ids", "5,6,7"};

    const CliRun trace = cli(QStringList{"trace"} + model);
    ASSERT_EQ(trace.exitCode, 0) << trace.err.toStdString();
    double value = 0.0;
    for (const QJsonValue& s : QJsonDocument::fromJson(trace.out).object()["steps"].toArray()) {
        const QJsonObject step = s.toObject();
        if (step["id"].toString() != QLatin1String("scaled_scores"))
            continue;
        EXPECT_EQ(step["op"].toString(), "masked_scores / query_pre_attn_scalar**0.5");
        value = step["data"].toArray().at(1 * 3 + 0).toDouble();  // head 0, query 1, key 0
    }
    ASSERT_NE(value, 0.0);

    const QString out =
        text(cli(QStringList{"explain", "--step", "scaled_scores", "--cell", "1,0"} + model));
    EXPECT_TRUE(out.contains(QLatin1String("query_pre_attn_scalar = 24"))) << out.toStdString();
    EXPECT_FALSE(out.contains(QLatin1String("d_k = 16,"))) << out.toStdString();
    EXPECT_TRUE(out.contains(QStringLiteral("/ √24 ="))) << out.toStdString();
    EXPECT_NEAR(derivedValue(out), value, 0.5e-4) << out.toStdString();
}

// The block around a model layer's attention is explained as that model builds it, from the facts
// its steps carry (StepInfo::block): GPT-2's LayerNorms, GELU, biases and position embeddings;
// Llama's and Qwen's RMSNorms, SwiGLU and RoPE; Gemma 3's (1 + weight) RMSNorms around each
// sublayer, GeGLU and scaled embeddings. Every text of the handout, in both languages.
TEST(ExplainCli, EveryFamilysHandoutNamesItsOwnBlock) {
    const QString families = QStringLiteral(ATTN_FIXTURES_DIR "/families/");
    auto handout = [&](const QStringList& model, const char* lang) {
        return text(
            cli(QStringList{"explain", "--all-steps", "--ids", "5,6,7", "--lang", lang} + model));
    };
    struct Case {
        QStringList model;
        QStringList says, neverSays;
    };
    const QStringList gptNever = {"RMSNorm", "SwiGLU", "GeGLU", "W_down"};
    const QStringList ropeNever = {"LayerNorm 1",
                                   "LayerNorm 2",
                                   "final LayerNorm",
                                   "GELU(RMSNorm",
                                   "LN_2",
                                   "b_2",
                                   "four times wider",
                                   "plus the position embeddings",
                                   "wider layer and GELU"};
    const std::vector<Case> cases = {
        {{"--model", "tiny-shakespeare"},
         {"LayerNorm 1: the stream normalised", "LayerNorm 2: the input", "γ ⊙ (x − μ)",
          "GELU(LN_2(x) W_1 + b_1)", "h W_2 + b_2", "plus the position embeddings",
          "a final LayerNorm"},
         gptNever},
        {{"--model", families + "llama"},
         {"RMSNorm 1: the stream normalised", "RMSNorm 2: the input", "γ ⊙ x / √(mean(x^2) + ε)",
          "SiLU(RMSNorm_2(x) W_gate) ⊙ RMSNorm_2(x) W_up", "(SwiGLU)", "h W_down",
          "x + FF(RMSNorm_2(x))", "a final RMSNorm", "no position embeddings"},
         ropeNever},
        {{"--model", families + "qwen2"},
         {"RMSNorm 2: the input", "SwiGLU", "add a bias, as Qwen2's do"},
         ropeNever + QStringList{"none of the projections has a bias"}},
        {{"--model", families + "gemma3"},
         {"RMSNorm 2: the input", "(1 + γ) ⊙ x", "GELU(RMSNorm_2(x) W_gate)", "(GeGLU)",
          "RMSNorm(h W_down)", "x + RMSNorm(MHA(RMSNorm_1(x)))", "times √d_model", "⊙ (1 + g)",
          "softmax_j(score_i / √query_pre_attn_scalar)",
          "multiplies by the scale this model learnt (stored as the scale minus 1)"},
         QStringList(ropeNever).filter(QRegularExpression("^(?!GELU)")) +
             QStringList{"ones at the start", "√d_k)"}},
    };
    for (const Case& c : cases) {
        const QString out = handout(c.model, "en");
        for (const QString& s : c.says)
            EXPECT_TRUE(out.contains(s))
                << c.model.join(' ').toStdString() << ": no \"" << s.toStdString() << "\"";
        for (const QString& s : c.neverSays)
            EXPECT_FALSE(out.contains(s))
                << c.model.join(' ').toStdString() << ": \"" << s.toStdString() << "\"";
    }
    const QString german = handout({"--model", families + "llama"}, "de");
    EXPECT_TRUE(german.contains(QLatin1String("RMSNorm 2"))) << german.toStdString();
    EXPECT_TRUE(german.contains(QLatin1String("SwiGLU"))) << german.toStdString();
    EXPECT_FALSE(german.contains(QLatin1String("LayerNorm 2"))) << german.toStdString();
    EXPECT_FALSE(german.contains(QLatin1String("GELU("))) << german.toStdString();
}

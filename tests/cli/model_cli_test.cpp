// attention-lens-cli with a trained model (--model): the model command's JSON, the same numbers
// through trace, export and the PyTorch listing, and one clear line for every refusal. The
// numbers themselves are checked against PyTorch in tests/engine (fixtures made by
// tests/fixtures/make_model_fixtures.py); here they must agree across the commands.
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <map>

#include "io/npy.h"
#include "pipeline/run_request.h"

#include "cli/cli_run.h"

namespace {

using attn::test::cli;
using attn::test::CliRun;
using attn::test::expectRefused;

QString fixture(const char* name) {
    return QStringLiteral(ATTN_FIXTURES_DIR "/models/") + QLatin1String(name);
}

// The fixtures' vocabularies are a few hundred ids: text of single ASCII characters fits.
const QString kText = QStringLiteral("a,b.c;d");

QJsonObject json(const CliRun& r) {
    EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
    return QJsonDocument::fromJson(r.out).object();
}

}  // namespace

TEST(ModelCli, EveryLayersAttentionAndTheNextTokens) {
    const QJsonObject o = json(cli(
        {"model", "--model", fixture("hf_tied_f32.safetensors"), "--text", kText, "--top-k", "3"}));
    const QJsonObject m = o["model"].toObject();
    EXPECT_EQ(m["layers"].toInt(), 2);
    EXPECT_EQ(m["heads"].toInt(), 4);  // from the file's metadata
    EXPECT_EQ(m["d_model"].toInt(), 32);
    EXPECT_EQ(m["names"].toString(), "hf");
    EXPECT_EQ(m["dtype"].toString(), "F32");
    EXPECT_EQ(o["ids"].toArray(), (QJsonArray{64, 11, 65, 13, 66, 26, 67}));
    EXPECT_EQ(o["tokens"].toArray().first().toString(), "a");
    const QJsonObject att = o["attention"].toObject();
    EXPECT_EQ(att["shape"].toArray(), (QJsonArray{2, 4, 7, 7}));
    const QJsonArray data = att["data"].toArray();
    ASSERT_EQ(data.size(), 2 * 4 * 7 * 7);
    // Causal rows of probabilities.
    for (int r = 0; r < 2 * 4 * 7; ++r) {
        const int i = r % 7;
        double sum = 0;
        for (int j = 0; j < 7; ++j) {
            const double w = data[r * 7 + j].toDouble();
            if (j > i) {
                EXPECT_EQ(w, 0.0);
            }
            sum += w;
        }
        EXPECT_NEAR(sum, 1.0, 1e-5);
    }
    const QJsonArray next = o["next"].toArray();
    ASSERT_EQ(next.size(), 3);
    double previous = 1.0;
    for (const QJsonValue& v : next) {
        const double prob = v.toObject()["prob"].toDouble();
        EXPECT_GT(prob, 0.0);
        EXPECT_LE(prob, previous);
        previous = prob;
    }

    // The same numbers from trace --layer 1, export --step attention and another position.
    const QJsonObject trace = json(cli(
        {"trace", "--model", fixture("hf_tied_f32.safetensors"), "--text", kText, "--layer", "1"}));
    EXPECT_EQ(trace["config"].toObject()["layer"].toInt(), 1);
    // Nothing of the trained model is drawn from a seed: the chapter-3 module's keys are not said.
    EXPECT_FALSE(trace["config"].toObject().contains("seed"));
    EXPECT_FALSE(trace["config"].toObject().contains("dropout_rng"));
    EXPECT_EQ(trace["config"].toObject()["mode"].toString(), "eval");
    QJsonArray weights;
    for (const QJsonValue& s : trace["steps"].toArray())
        if (s.toObject()["id"] == "weights")
            weights = s.toObject()["data"].toArray();
    ASSERT_EQ(weights.size(), 4 * 7 * 7);
    for (int k = 0; k < weights.size(); ++k)
        EXPECT_NEAR(weights[k].toDouble(), data[4 * 49 + k].toDouble(), 1e-6) << k;

    QTemporaryDir dir;
    const QString npy = dir.filePath("attention.npy");
    ASSERT_EQ(cli({"export", "--model", fixture("hf_tied_f32.safetensors"), "--text", kText,
                   "--step", "attention", "--out", npy})
                  .exitCode,
              0);
    const attn::Tensor all = attn::io::readNpy(npy.toStdString());
    ASSERT_EQ(all.shape(), (attn::Shape{2, 4, 7, 7}));
    for (int k = 0; k < data.size(); ++k)
        EXPECT_EQ(all.flat(k), float(data[k].toDouble())) << k;  // shortest float32 text
}

TEST(ModelCli, TheSameModelSavedThreeWaysGivesTheSameNumbers) {
    // The fixtures hold one random model per file; F16 and BF16 are rounded copies of F32, so
    // their numbers are close; the book-named .pth and the checkpoint load like a state_dict.
    const QJsonObject f32 =
        json(cli({"model", "--model", fixture("hf_tied_f32.safetensors"), "--text", kText}));
    const QJsonObject f16 =
        json(cli({"model", "--model", fixture("hf_tied_f16.safetensors"), "--text", kText}));
    EXPECT_EQ(f16["model"].toObject()["dtype"].toString(), "F16");
    const QJsonArray a = f32["attention"].toObject()["data"].toArray();
    const QJsonArray b = f16["attention"].toObject()["data"].toArray();
    ASSERT_EQ(a.size(), b.size());
    double largest = 0;
    for (int k = 0; k < a.size(); ++k)
        largest = std::max(largest, std::abs(a[k].toDouble() - b[k].toDouble()));
    EXPECT_LT(largest, 0.02);
    const QJsonObject book = json(
        cli({"model", "--model", fixture("book_checkpoint.pth"), "--heads", "4", "--text", kText}));
    EXPECT_EQ(book["model"].toObject()["names"].toString(), "book");
}

TEST(ModelCli, BenchAndPyTorchListing) {
    const QJsonObject bench = json(cli({"bench", "--model", fixture("hf_tied_f32.safetensors"),
                                        "--text", kText, "--repeat", "3"}));
    EXPECT_EQ(bench["tokens"].toInt(), 7);
    EXPECT_EQ(bench["repeat"].toInt(), 3);
    EXPECT_TRUE(bench["attention_kept"].toBool());
    EXPECT_GT(bench["median_ms"].toDouble(), 0.0);
    EXPECT_LE(bench["min_ms"].toDouble(), bench["median_ms"].toDouble());

    const CliRun code = cli({"pytorch", "--model", fixture("book_nobias.pth"), "--heads", "4",
                             "--text", kText, "--layer", "2"});
    ASSERT_EQ(code.exitCode, 0) << code.err.toStdString();
    const QString py = QString::fromUtf8(code.out);
    EXPECT_TRUE(py.contains("weights_only=True"));
    EXPECT_TRUE(py.contains("ids = torch.tensor([64, 11, 65, 13, 66, 26, 67])"));
    EXPECT_TRUE(py.contains("if n == 2:"));
    EXPECT_TRUE(py.contains("trf_blocks"));
    const CliRun hf = cli({"pytorch", "--model", fixture("hf_tied_bf16.safetensors"), "--heads",
                           "4", "--text", kText});
    ASSERT_EQ(hf.exitCode, 0) << hf.err.toStdString();
    EXPECT_TRUE(QString::fromUtf8(hf.out).contains("def load_safetensors(path):"));
    EXPECT_FALSE(QString::fromUtf8(hf.out).contains("import safetensors"));
}

// The CLI's layer trace is the app's: the chapter-3 steps inside the rest of the block
// (the app's worker and the CLI both call pipeline/run_request.h's runRequest).
TEST(ModelCli, TraceHasTheBlockAroundTheAttentionAsTheAppDoes) {
    const QString f32 = fixture("hf_tied_f32.safetensors");
    const auto stepsOf = [&](const char* layer) {
        QMap<QString, QJsonArray> steps;
        QStringList ids;
        for (const QJsonValue& v :
             json(cli({"trace", "--model", f32, "--text", kText, "--layer", layer}))["steps"]
                 .toArray()) {
            ids << v.toObject()["id"].toString();
            steps[ids.back()] = v.toObject()["data"].toArray();
        }
        return std::pair{ids, steps};
    };
    const auto [ids, layer0] = stepsOf("0");
    attn::Settings s;
    s.modelFile = f32;
    s.source = attn::InputSource::Text;
    s.text = kText;
    const auto model = attn::loadModel(f32);
    const attn::RequestResult app = attn::runRequestOrThrow({s, {}, model, nullptr, nullptr});
    QStringList appIds;
    for (const attn::Step& step : app.run.trace->steps)
        appIds << QString::fromStdString(step.info.id);
    EXPECT_EQ(ids, appIds);
    ASSERT_EQ(ids.first(), "block_input");
    ASSERT_EQ(ids.last(), "block_output");
    EXPECT_TRUE(ids.contains("ff_hidden"));
    // Layer 0's output is layer 1's input (7 tokens x d_model 32). The step recomputes the block
    // around the attention, the forward computed it once: equal up to float rounding, which
    // differs between builds (an unoptimised sanitizer build sums in another order).
    const auto [ids1, layer1] = stepsOf("1");
    const QJsonArray out0 = layer0["block_output"], in1 = layer1["block_input"];
    ASSERT_EQ(out0.size(), 7 * 32);
    ASSERT_EQ(in1.size(), out0.size());
    double largestChange = 0.0;
    for (int k = 0; k < out0.size(); ++k) {
        EXPECT_NEAR(out0[k].toDouble(), in1[k].toDouble(), 1e-4) << k;
        largestChange = std::max(largestChange,
                                 std::abs(layer0["block_input"][k].toDouble() - in1[k].toDouble()));
    }
    EXPECT_GT(largestChange, 1e-3);  // the block did change the residual stream
}

TEST(ModelCli, RefusalsAreOneLine) {
    const QString f32 = fixture("hf_tied_f32.safetensors");
    expectRefused({"model", "--model", "/nonexistent/gpt2.safetensors", "--text", kText},
                  "No model file or folder /nonexistent/gpt2.safetensors");
    expectRefused({"model", "--model", f32, "--text", "Hello world"},
                  "The token \"Hello\" (id 15496) is beyond the model's vocabulary of 300 tokens.");
    expectRefused({"trace", "--model", f32, "--text", kText, "--layer", "5"},
                  "The model has 2 layers (0 to 1); layer 5 does not exist.");
    expectRefused({"model", "--model", f32, "--text", kText, "--tokenizer", "words"},
                  "--tokenizer does not apply to a trained model (--model)");
    expectRefused({"model", "--model", f32},
                  "Give the text with --text or --text-file, token ids with --ids, or "
                  "--repeat-random N for the induction test.");
    expectRefused({"model", "--model", f32, "--text", kText, "--heads", "3"}, "heads");
    expectRefused({"model", "--model", fixture("hf_tied_bf16.safetensors"), "--text", kText},
                  "give the head count (--heads). Valid head counts: 1, 2, 4, 8, 16, 32.");
    expectRefused(
        {"model", "--model", f32, "--text", QString(30, QLatin1Char('a')).split("").join(',')},
        "more than the model's context length of 24");
    expectRefused(
        {"export", "--model", f32, "--text", kText, "--step", "attention", "--out", "x.csv"},
        "export it to a .npy file");
    expectRefused({"model", "--text", kText}, "Say which model with --model PATH");
}

// The induction test: n random ordinary tokens said R times after the beginning-of-text token
// where the tokenizer puts one; every head's scores with the period and rows they used. A text
// said twice behind other words gets them too; a text that does not repeat gets none.
TEST(ModelCli, RepeatRandomTestsForInductionAndHeadScoresSayTheirPeriod) {
    const QString f32 = fixture("hf_tied_f32.safetensors");
    const QJsonObject o =
        json(cli({"model", "--model", f32, "--repeat-random", "5", "--repeats", "3"}));
    const QJsonArray ids = o["ids"].toArray();
    ASSERT_EQ(ids.size(), 15);  // a GPT-2 vocabulary of 300 has no <|endoftext|>: no prefix
    for (int i = 5; i < 15; ++i)
        EXPECT_EQ(ids[i].toInt(), ids[i - 5].toInt()) << i;
    const QJsonObject h = o["head_scores"].toObject();
    EXPECT_EQ(h["period"].toInt(), 5);
    EXPECT_EQ(h["induction_rows"].toArray(), (QJsonArray{5, 14}));
    EXPECT_EQ(h["induction"].toArray().size(), 2);
    EXPECT_EQ(h["induction"].toArray()[0].toArray().size(), 4);
    EXPECT_EQ(h["previous_token"].toArray().size(), 2);
    EXPECT_EQ(h["first_token"].toArray()[1].toArray().size(), 4);
    // The induction score is the mean weight on i - 4 over rows 5..14.
    const QJsonArray att = o["attention"].toObject()["data"].toArray();
    double sum = 0;
    for (int i = 5; i < 15; ++i)
        sum += att[((1 * 4 + 2) * 15 + i) * 15 + i - 4].toDouble();  // layer 1, head 2
    EXPECT_NEAR(h["induction"].toArray()[1].toArray()[2].toDouble(), sum / 10, 1e-6);
    // The same seed, the same tokens; another seed, others.
    EXPECT_EQ(json(cli({"model", "--model", f32, "--repeat-random", "5", "--repeats", "3"}))["ids"],
              o["ids"]);
    const QJsonArray other =
        json(cli({"model", "--model", f32, "--repeat-random", "5", "--repeat-seed", "7"}))["ids"]
            .toArray();
    EXPECT_EQ(other.size(), 10);
    EXPECT_NE(other.first(), ids.first());

    // Gemma 3's tokenizer puts <bos> first: the test does too, and draws no special token.
    const QJsonObject g =
        json(cli({"model", "--model", QStringLiteral(ATTN_FIXTURES_DIR "/families/gemma3"),
                  "--repeat-random", "8"}));
    EXPECT_EQ(g["ids"].toArray().size(), 17);
    EXPECT_EQ(g["tokens"].toArray()[0].toString(), "<bos>");
    EXPECT_EQ(g["head_scores"].toObject()["period"].toInt(), 8);
    EXPECT_EQ(g["head_scores"].toObject()["induction_rows"].toArray(), (QJsonArray{9, 16}));

    // Ids said twice behind two others are found: period 7 over rows 9 to 15.
    const QJsonObject typed = json(
        cli({"model", "--model", f32, "--ids", "5,6,64,11,65,13,66,26,67,64,11,65,13,66,26,67"}));
    EXPECT_EQ(typed["head_scores"].toObject()["period"].toInt(), 7);
    EXPECT_EQ(typed["head_scores"].toObject()["induction_rows"].toArray(), (QJsonArray{9, 15}));
    const QJsonObject once = json(cli({"model", "--model", f32, "--text", kText}));
    EXPECT_TRUE(once["head_scores"].toObject()["induction"].isNull());
    EXPECT_TRUE(once["head_scores"].toObject()["period"].isNull());

    expectRefused({"model", "--model", f32, "--repeat-random", "5", "--text", kText},
                  "--repeat-random makes the tokens itself");
    expectRefused({"model", "--model", f32, "--repeats", "3", "--text", kText},
                  "--repeats goes with --repeat-random");
    expectRefused({"model", "--model", f32, "--repeat-random", "5", "--repeats", "1"},
                  "said 2 to 64 times, not 1");
    expectRefused({"model", "--model", f32, "--repeat-random", "400"},
                  "needs 1 to 300 distinct tokens");
    expectRefused({"model", "--model", f32, "--repeat-random", "20"},
                  "more than the model's context length of 24");
}

// --composition adds the heads' composition and copying scores (their values are checked
// against PyTorch in tests/io): heads named, (L H) x (L H) matrices with null where the later
// head is not in a later layer.
TEST(ModelCli, CompositionScoresComeWithTheirHeadsNames) {
    const QJsonObject o = json(cli({"model", "--model", fixture("hf_tied_f32.safetensors"),
                                    "--text", kText, "--composition"}));
    const QJsonObject c = o["composition"].toObject();
    EXPECT_EQ(c["heads"].toArray().first().toString(), "L0H0");
    EXPECT_EQ(c["heads"].toArray().last().toString(), "L1H3");
    for (const char* key : {"q", "k", "v"}) {
        const QJsonArray rows = c[QLatin1String(key)].toArray();
        ASSERT_EQ(rows.size(), 8) << key;
        EXPECT_TRUE(rows[1].toArray()[2].isNull()) << key;  // same layer
        EXPECT_TRUE(rows[5].toArray()[1].isNull()) << key;  // backwards
        const double k = rows[1].toArray()[6].toDouble(-1);
        EXPECT_GT(k, 0) << key;
        EXPECT_LE(k, 1) << key;
    }
    EXPECT_EQ(c["copying"].toArray().size(), 2);
    EXPECT_EQ(c["copying"].toArray()[1].toArray().size(), 4);
    EXPECT_FALSE(
        json(cli({"model", "--model", fixture("hf_tied_f32.safetensors"), "--text", kText}))
            .contains("composition"));
}

// --dla: each part's share of a logit (difference) at --position (the values are checked
// against PyTorch in tests/io): its parts sum to the total, the target is an id, A-B, a token
// or "next"; anything else is refused in one line.
TEST(ModelCli, DirectLogitAttributionSumsToItsTotal) {
    const QString f32 = fixture("hf_tied_f32.safetensors");
    const auto dla = [&](const QStringList& extra) {
        return json(cli(QStringList{"model", "--model", f32, "--text", kText} + extra))["dla"]
            .toObject();
    };
    const QJsonObject a = dla({"--dla", "64-65", "--position", "2"});
    EXPECT_EQ(a["target"].toInt(), 64);
    EXPECT_EQ(a["other"].toInt(), 65);
    EXPECT_EQ(a["position"].toInt(), 2);
    double sum = a["embed"].toDouble() + a["biases"].toDouble();
    for (const QJsonValue& row : a["heads"].toArray())
        for (const QJsonValue& v : row.toArray())
            sum += v.toDouble();
    for (const QJsonValue& v : a["mlps"].toArray())
        sum += v.toDouble();
    EXPECT_NEAR(sum, a["total"].toDouble(), 1e-9);
    EXPECT_EQ(a["heads"].toArray().size(), 2);
    EXPECT_TRUE(dla({"--dla", "64"})["other"].isNull());
    EXPECT_EQ(dla({"--dla", "b"})["target"].toInt(), 65);  // a token of the text
    EXPECT_EQ(dla({"--dla", "next", "--position", "1"})["target"].toInt(), 65);  // "a,b": b
    expectRefused({"model", "--model", f32, "--text", kText, "--dla", "a,b"},
                  "is 3 tokens of this model, not one");
    expectRefused({"model", "--model", f32, "--text", kText, "--dla", "400"},
                  "Token id 400 is not in the model's vocabulary (ids 0 to 299).");
    // Too many digits for a number is no id either (it read as 0).
    expectRefused({"model", "--model", f32, "--text", kText, "--dla", "99999999999999999999-1"},
                  "Token id 99999999999999999999 is not in the model's vocabulary");
}

// --patch-from: the metric on the clean and corrupted texts, and with each head and each
// block input at each position patched (the mechanism is checked in tests/io); the block-0 input
// at the one changed position turns the clean logits into the corrupted ones.
TEST(ModelCli, ActivationPatchingMeasuresEachHeadAndPosition) {
    const QString f32 = fixture("hf_tied_f32.safetensors");
    const QJsonObject o =
        json(cli({"model", "--model", f32, "--ids", "64,11,65,13,66,26,67", "--patch-from-ids",
                  "64,11,70,13,66,26,67", "--metric", "40-41"}));
    const QJsonObject p = o["patching"].toObject();
    EXPECT_EQ(p["metric"].toString(), "40-41");
    EXPECT_NE(p["clean"].toDouble(), p["corrupted"].toDouble());
    EXPECT_EQ(p["heads"].toArray().size(), 2);
    EXPECT_EQ(p["heads"].toArray()[0].toArray().size(), 4);
    const QJsonArray resid0 = p["resid"].toArray()[0].toArray();
    ASSERT_EQ(resid0.size(), 7);
    EXPECT_NEAR(resid0[2].toDouble(), p["corrupted"].toDouble(), 1e-5);
    EXPECT_NEAR(resid0[0].toDouble(), p["clean"].toDouble(), 1e-5);
    const QJsonObject loss = json(cli({"model", "--model", f32, "--text", kText, "--patch-from",
                                       "a,b.c;e", "--metric", "loss"}))["patching"]
                                 .toObject();
    EXPECT_EQ(loss["metric"].toString(), "loss");
    EXPECT_EQ(loss["resid"].toArray()[1].toArray().size(), 7);
    expectRefused({"model", "--model", f32, "--text", kText, "--patch-from", "a,b"},
                  "needs --metric A-B");
    expectRefused({"model", "--model", f32, "--text", kText, "--metric", "loss"},
                  "--metric goes with --patch-from");
    expectRefused(
        {"model", "--model", f32, "--text", kText, "--patch-from", "a,b", "--metric", "loss"},
        "The corrupted text has 3 tokens and the clean one 7");
    expectRefused(
        {"model", "--model", f32, "--text", kText, "--patch-from", "a,b.c;e", "--metric", "a-b"},
        "--metric expects two token ids as A-B");
}

TEST(ModelCli, RenderDrawsTheOverviewOfEveryLayerAndHead) {
#ifndef ATTN_HAVE_EXPORT
    GTEST_SKIP() << "built without the GUI libraries: no image export";
#endif
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("overview.svg"));
    const CliRun r = cli({"render", "--model", fixture("hf_tied_f32.safetensors"), "--text", kText,
                          "--overview", "--out", svg});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    EXPECT_TRUE(text.contains("<svg"));
    EXPECT_TRUE(text.contains("hf_tied_f32: attention of every layer and head"));
    EXPECT_TRUE(text.contains("layer"));

    const QString png = dir.filePath(QStringLiteral("own.png"));
    const CliRun own = cli({"render", "--model", fixture("hf_tied_f32.safetensors"), "--text",
                            kText, "--overview", "--own-scale", "--out", png, "--scale", "1"});
    ASSERT_EQ(own.exitCode, 0) << own.err.toStdString();
    QFile p(png);
    ASSERT_TRUE(p.open(QIODevice::ReadOnly));
    EXPECT_TRUE(p.readAll().startsWith("\x89PNG\r\n\x1a\n"));

    expectRefused({"render", "--text", kText, "--overview", "--out", svg}, "name the model");
    expectRefused(
        {"render", "--model", fixture("hf_tied_f32.safetensors"), "--text", kText, "--overview"},
        "Say where to draw the overview");
}

// SPEC 10 on the command line: the text's loss and each token's, heads switched off (the JSON
// says which and how, and every number changes with them), the logit lens, and generate (greedy
// = the top token each step, a seed gives one continuation); refusals are one line.
TEST(ModelCli, LossAblationLogitLensAndGenerate) {
    const QString f32 = fixture("hf_tied_f32.safetensors");
    const QJsonObject plain =
        json(cli({"model", "--model", f32, "--text", kText, "--top-k", "1", "--logit-lens", "2"}));
    const QJsonArray losses = plain["token_losses"].toArray();
    ASSERT_EQ(losses.size(), 6);  // 7 tokens predict 6
    double sum = 0;
    for (const QJsonValue& v : losses)
        sum += v.toDouble();
    EXPECT_NEAR(plain["loss"].toDouble(), sum / 6, 1e-12);
    EXPECT_FALSE(plain.contains("ablated"));
    const QJsonArray lens = plain["logit_lens"].toArray();
    ASSERT_EQ(lens.size(), 2);                            // layers
    ASSERT_EQ(lens[1].toArray().size(), 7);               // positions
    ASSERT_EQ(lens[1].toArray()[6].toArray().size(), 2);  // the top 2
    // The last layer's lens is the model's own prediction.
    EXPECT_EQ(lens[1].toArray()[6].toArray()[0].toObject()["id"],
              plain["next"].toArray()[0].toObject()["id"]);

    const QJsonObject off = json(cli({"model", "--model", f32, "--text", kText, "--top-k", "1",
                                      "--ablate", "0.1, 1.2", "--ablate-mode", "mean"}));
    EXPECT_EQ(off["ablated"].toArray(), (QJsonArray{QJsonArray{0, 1}, QJsonArray{1, 2}}));
    EXPECT_EQ(off["ablate_mode"].toString(), "mean");
    EXPECT_NE(off["loss"].toDouble(), plain["loss"].toDouble());
    // Layer 0's attention (the first 4 x 7 x 7 of the flat data) is computed before any
    // switched-off head writes: unchanged; layer 1's reads what they wrote.
    const QJsonArray a = plain["attention"].toObject()["data"].toArray();
    const QJsonArray b = off["attention"].toObject()["data"].toArray();
    ASSERT_EQ(a.size(), 2 * 4 * 7 * 7);
    ASSERT_EQ(b.size(), a.size());
    double layer0 = 0, layer1 = 0;
    for (int i = 0; i < a.size(); ++i)
        (i < 196 ? layer0 : layer1) += std::abs(a[i].toDouble() - b[i].toDouble());
    EXPECT_EQ(layer0, 0.0);
    EXPECT_GT(layer1, 1e-4);

    const QJsonObject greedy = json(
        cli({"generate", "--model", f32, "--text", kText, "--max-new", "1", "--temperature", "0"}));
    EXPECT_EQ(greedy["generated"].toArray()[0].toObject()["id"],
              plain["next"].toArray()[0].toObject()["id"]);
    EXPECT_EQ(greedy["generated"].toArray()[0].toObject()["prob"].toDouble(), 1.0);
    EXPECT_EQ(greedy["prompt_tokens"].toInt(), 7);
    const QStringList sample = {
        "generate",      "--model", f32,       "--text", kText,           "--max-new", "6",
        "--temperature", "1.2",     "--top-k", "20",     "--sample-seed", "5"};
    const QJsonObject sampled = json(cli(sample));
    EXPECT_EQ(sampled["ids"].toArray().size(), 13);
    EXPECT_EQ(json(cli(sample))["ids"], sampled["ids"]);
    const double p = sampled["generated"].toArray()[0].toObject()["prob"].toDouble();
    EXPECT_GT(p, 0.0);
    EXPECT_LE(p, 1.0);

    expectRefused({"model", "--model", f32, "--text", kText, "--ablate", "2.0"},
                  "Head 2.0 does not exist: the model has 2 layers (0 to 1) of 4 heads (0 to 3).");
    expectRefused({"model", "--model", f32, "--text", kText, "--ablate", "1"},
                  "--ablate expects heads as layer.head separated by commas");
    expectRefused({"model", "--model", f32, "--text", kText, "--ablate-mode", "half"},
                  "Unknown ablation mode \"half\"; use zero or mean");
    expectRefused({"generate", "--model", f32, "--text", kText, "--max-new", "40"},
                  "The prompt has 7 tokens and the model's context is 24, so at most 17 more fit");
    expectRefused({"generate", "--model", f32, "--text", kText, "--temperature", "-1"},
                  "The temperature must be 0");
    expectRefused({"generate", "--model", f32, "--text", kText, "--top-p", "1.5"},
                  "top-p must be above 0 and at most 1");
}

// A layer with a switched-off head, step by step: the head's own weights stay what it computes,
// its columns of `context` are what the forward used (0 here), and `output` is what the block
// adds (x + attn = x + output), as the titles say.
TEST(ModelCli, TheLayerStepsOfASwitchedOffHeadShowWhatTheBlockUses) {
    const QString f32 = fixture("hf_tied_f32.safetensors");
    QMap<QString, QJsonObject> steps;
    for (const QJsonValue& v : json(cli({"trace", "--model", f32, "--text", kText, "--layer", "1",
                                         "--ablate", "1.2"}))["steps"]
                                   .toArray())
        steps[v.toObject()["id"].toString()] = v.toObject();
    const QJsonArray context = steps["context"]["data"].toArray();
    ASSERT_EQ(context.size(), 7 * 32);  // (1, 7, 32): four heads of 8
    for (int i = 0; i < 7; ++i)
        for (int c = 16; c < 24; ++c)
            EXPECT_EQ(context[i * 32 + c].toDouble(), 0.0) << i << " " << c;
    EXPECT_NE(context[0].toDouble(), 0.0);  // head 0 still writes
    EXPECT_TRUE(
        steps["context"]["title"].toString().endsWith("(head 2 switched off: its columns are 0)"))
        << steps["context"]["title"].toString().toStdString();
    const QJsonArray x = steps["block_input"]["data"].toArray();
    const QJsonArray out = steps["output"]["data"].toArray();
    const QJsonArray mid = steps["residual_after_attention"]["data"].toArray();
    ASSERT_EQ(out.size(), x.size());
    for (int k = 0; k < x.size(); ++k)
        EXPECT_NEAR(mid[k].toDouble(), x[k].toDouble() + out[k].toDouble(), 1e-5) << k;
}

// One naming scheme per trace: a model layer's ops call the model's own modules, by the names it
// was read with, from its first norm to the block's output.
TEST(ModelCli, ALayersOpsNameTheModelsOwnModules) {
    auto ops = [](const QStringList& args) {
        const CliRun r = cli(QStringList{"trace"} + args);
        EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
        std::map<QString, QString> byId;
        for (const QJsonValue& s : QJsonDocument::fromJson(r.out).object()["steps"].toArray())
            byId[s.toObject()["id"].toString()] = s.toObject()["op"].toString();
        return byId;
    };
    const QString families = QStringLiteral(ATTN_FIXTURES_DIR "/families/");
    auto llama = ops({"--model", families + "llama", "--layer", "1", "--ids", "5,6,7"});
    EXPECT_EQ(llama["inputs"], "model.layers[1].input_layernorm(x)");
    EXPECT_EQ(llama["queries"], "model.layers[1].self_attn.q_proj(x)");
    EXPECT_EQ(llama["values"], "model.layers[1].self_attn.v_proj(x)");
    EXPECT_EQ(llama["output"], "model.layers[1].self_attn.o_proj(context)");
    EXPECT_EQ(llama["residual_after_attention"],
              "x = x + model.layers[1].self_attn(model.layers[1].input_layernorm(x))");
    EXPECT_EQ(llama["norm2"], "model.layers[1].post_attention_layernorm(x)");
    EXPECT_EQ(llama["ff_hidden"],
              "silu(model.layers[1].mlp.gate_proj(norm2)) * model.layers[1].mlp.up_proj(norm2)");
    EXPECT_EQ(llama["ff_output"], "model.layers[1].mlp.down_proj(ff_hidden)");

    auto qwen = ops({"--model", families + "qwen3", "--ids", "5,6,7"});
    EXPECT_EQ(qwen["queries_normed"].left(33), "model.layers[0].self_attn.q_norm(");

    auto gemma = ops({"--model", families + "gemma3", "--ids", "5,6,7"});
    EXPECT_EQ(gemma["ff_output"],
              "model.layers[0].post_feedforward_layernorm("
              "model.layers[0].mlp.down_proj(ff_hidden))");

    auto book = ops({"--model", families + "book_gemma3.pth", "--config",
                     families + "book_gemma3.config.json", "--ids", "5,6,7"});
    EXPECT_EQ(book["inputs"], "blocks[0].input_layernorm(x)");
    EXPECT_EQ(book["queries"], "blocks[0].att.W_query(x)");
    EXPECT_EQ(book["norm2"], "blocks[0].pre_feedforward_layernorm(x)");

    // Hugging Face's GPT-2 makes the queries, keys and values in one product and splits it.
    auto gpt2 = ops({"--model", fixture("hf_tied_f32.safetensors"), "--text", kText});
    EXPECT_EQ(gpt2["inputs"], "h[0].ln_1(x)");
    EXPECT_EQ(gpt2["keys"], "h[0].attn.c_attn(x).split(d_model, dim=2)[1]");
    EXPECT_EQ(gpt2["output"], "h[0].attn.c_proj(context)");
    EXPECT_EQ(gpt2["ff_hidden"], "gelu(h[0].mlp.c_fc(norm2), approximate=\"tanh\")");
    auto bookGpt2 = ops({"--model", fixture("book_nobias.safetensors"), "--text", kText});
    EXPECT_EQ(bookGpt2["queries"], "trf_blocks[0].att.W_query(x)");
    EXPECT_EQ(bookGpt2["block_output"], "x = x + trf_blocks[0].ff(trf_blocks[0].norm2(x))");
}

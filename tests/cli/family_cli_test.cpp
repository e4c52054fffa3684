// attention-lens-cli with the families after GPT-2 (SPEC 9.4): a model folder with its own
// tokenizer.json, a single file with --config, --ids, the model JSON's family keys, and
// `tokenize --tokenizer` with --no-special-tokens and --jsonl. The fixtures' tokenizers are
// small byte-level and SentencePiece-style files whose ids Hugging Face's tokenizers gave.
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli/cli_run.h"

namespace {

using attn::test::cli;
using attn::test::CliRun;

QString family(const char* name) {
    return QStringLiteral(ATTN_FIXTURES_DIR "/families/") + QLatin1String(name);
}

QJsonObject json(const CliRun& r) {
    EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
    return QJsonDocument::fromJson(r.out).object();
}

QJsonArray ints(std::initializer_list<int> v) {
    QJsonArray a;
    for (int x : v)
        a.append(x);
    return a;
}

const QString kSentence =
    QStringLiteral("The animal didn't cross the street because it was too tired");

}  // namespace

// Hugging Face's ids for the sentence with each fixture tokenizer (node, @anush008/tokenizers).
const QJsonArray kQwenIds = ints({51,  257, 281, 72,  76,  283, 285, 72,  67, 77,  6,  83,  269,
                                  289, 82,  82,  260, 264, 83,  261, 68,  83, 275, 68, 66,  64,
                                  84,  82,  68,  220, 270, 266, 294, 293, 78, 256, 72, 261, 67});
const QJsonArray kGemmaIds =
    ints({2,   287, 293, 295, 274, 269, 273, 261, 272, 260, 264, 269, 264, 274, 291, 280, 260, 263,
          278, 275, 279, 279, 294, 298, 280, 278, 265, 265, 280, 260, 262, 265, 263, 261, 281, 279,
          265, 260, 269, 280, 260, 283, 261, 279, 292, 275, 275, 292, 269, 278, 265, 264});

TEST(FamilyCli, AFolderReadsItsTextWithItsOwnTokenizer) {
    const QJsonObject o = json(cli({"model", "--model", family("qwen3"), "--text", kSentence}));
    EXPECT_EQ(o["ids"].toArray(), kQwenIds);
    const QJsonObject m = o["model"].toObject();
    EXPECT_EQ(m["family"].toString(), "qwen3");
    EXPECT_EQ(m["heads"].toInt(), 4);
    EXPECT_EQ(m["kv_heads"].toInt(), 2);
    EXPECT_EQ(m["head_dim"].toInt(), 16);
    EXPECT_EQ(m["windows"].toArray(), ints({0, 0}));
    EXPECT_EQ(m["head_groups"].toArray(), ints({0, 0, 1, 1}));
    EXPECT_EQ(o["tokens"].toArray().at(2).toString(), " an");  // "Ġan": a space, then "an"
    EXPECT_EQ(o["attention"].toObject()["shape"].toArray(), ints({2, 4, 39, 39}));
    EXPECT_EQ(o["next"].toArray().size(), 5);

    // The same ids given with --ids give the same numbers.
    QStringList ids;
    for (const QJsonValue& v : kQwenIds)
        ids << QString::number(v.toInt());
    const QJsonObject byIds =
        json(cli({"model", "--model", family("qwen3"), "--ids", ids.join(',')}));
    EXPECT_EQ(byIds["attention"], o["attention"]);
    EXPECT_EQ(byIds["next"], o["next"]);
}

TEST(FamilyCli, GemmasTokenizerAddsItsBosAndItsLayersSlide) {
    const QJsonObject o = json(cli({"model", "--model", family("gemma3"), "--text", kSentence}));
    EXPECT_EQ(o["ids"].toArray(), kGemmaIds);
    EXPECT_EQ(o["tokens"].toArray().first().toString(), "<bos>");
    const QJsonObject m = o["model"].toObject();
    EXPECT_EQ(m["family"].toString(), "gemma3_text");
    EXPECT_EQ(m["kv_heads"].toInt(), 1);
    EXPECT_EQ(m["windows"].toArray(), ints({4, 4, 0}));
    // A sliding layer's last row sees only its last 4 keys.
    const QJsonArray data = o["attention"].toObject()["data"].toArray();
    const int T = int(kGemmaIds.size());
    const int lastRow = (T - 1) * T;  // layer 0, head 0, row T-1
    double seen = 0;
    for (int j = 0; j < T; ++j) {
        const double w = data[lastRow + j].toDouble();
        if (j < T - 4)
            EXPECT_EQ(w, 0.0) << j;
        seen += w;
    }
    EXPECT_NEAR(seen, 1.0, 1e-6);
}

TEST(FamilyCli, TheBooksStateDictWithItsConfig) {
    const QJsonObject o = json(cli({"model", "--model", family("book_llama.pth"), "--config",
                                    family("book_llama.config.json"), "--ids", "5,6,7,8"}));
    EXPECT_EQ(o["model"].toObject()["family"].toString(), "llama");
    EXPECT_EQ(o["model"].toObject()["names"].toString(), "book");
    EXPECT_EQ(o["attention"].toObject()["shape"].toArray(), ints({2, 4, 4, 4}));
    // Without its config the file is taken for a GPT-2 model, and refused as one.
    const CliRun r = cli({"model", "--model", family("book_llama.pth"), "--ids", "5,6"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(
        r.err.contains("book_llama.pth: it has no pos_emb.weight, so it is not the book's "
                       "GPTModel; a Llama3Model, Qwen3Model or Gemma3Model state_dict "
                       "needs its config.json (--config)"))
        << r.err.toStdString();
}

TEST(FamilyCli, TokenizeWithAModelsTokenizer) {
    const QJsonObject o =
        json(cli({"tokenize", "--tokenizer", family("gemma3"), "--text", kSentence}));
    EXPECT_EQ(o["ids"].toArray(), kGemmaIds);
    const QJsonObject plain = json(cli({"tokenize", "--tokenizer", family("gemma3/tokenizer.json"),
                                        "--no-special-tokens", "--text", kSentence}));
    QJsonArray withoutBos = kGemmaIds;
    withoutBos.removeFirst();
    EXPECT_EQ(plain["ids"].toArray(), withoutBos);

    QTemporaryDir dir;
    QFile lines(dir.filePath("texts.jsonl"));
    ASSERT_TRUE(lines.open(QIODevice::WriteOnly));
    lines.write("\"" + kSentence.toUtf8() + "\"\n\n\"the end\"\n");
    lines.close();
    const CliRun r = cli({"tokenize", "--tokenizer", family("qwen3"), "--jsonl", lines.fileName()});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QList<QByteArray> out = r.out.trimmed().split('\n');
    ASSERT_EQ(out.size(), 2);
    EXPECT_EQ(QJsonDocument::fromJson(out[0]).object()["ids"].toArray(), kQwenIds);
    EXPECT_EQ(QJsonDocument::fromJson(out[1]).object()["ids"].toArray(),
              ints({83, 257, 220, 268, 67}));
}

TEST(FamilyCli, RefusalsAreOneLine) {
    auto refused = [](const QStringList& args, const QString& message) {
        const CliRun r = cli(args);
        EXPECT_EQ(r.exitCode, 2) << args.join(' ').toStdString();
        EXPECT_EQ(r.err.count('\n'), 1) << r.err.toStdString();
        EXPECT_TRUE(QString::fromUtf8(r.err).contains(message))
            << r.err.toStdString() << "\nexpected: " << message.toStdString();
    };
    refused({"model", "--model", family("qwen3"), "--ids", "1,2,299"},
            "Token id 299 is not in the model's tokenizer (ids 0 to 296).");
    refused({"model", "--model", family("qwen3"), "--ids", "1,x"},
            "token ids (whole numbers from 0)");
    refused({"tokenize", "--tokenizer", family("llama"), "--text", "hi"},
            "llama: the folder has no tokenizer.json, where a Hugging Face model keeps its "
            "tokenizer");
    refused({"tokenize", "--tokenizer", "words", "--no-special-tokens", "--text", "hi"},
            "--no-special-tokens is for a model's tokenizer; words adds none.");
    refused({"tokenize", "--ids", "1"}, "Unknown option");
    refused({"trace", "--tokenizer", "words", "--ids", "1,2"},
            "Token ids need the GPT-2 tokenizer (or a model's own)");
}

TEST(FamilyCli, ALayersTraceAndListingAreTheFamilys) {
    const QJsonObject t =
        json(cli({"trace", "--model", family("gemma3"), "--text", kSentence, "--layer", "0"}));
    QStringList ids;
    for (const QJsonValue& s : t["steps"].toArray())
        ids << s.toObject()["id"].toString();
    for (const char* id :
         {"block_input", "queries_normed", "rope_cos", "keys_groups", "keys_repeated", "mask",
          "weights", "output", "ff_hidden", "block_output"})
        EXPECT_TRUE(ids.contains(QLatin1String(id))) << id;
    EXPECT_EQ(t["config"].toObject()["variant"].toString(), "rotary");
    EXPECT_EQ(t["config"].toObject()["mask"].toString(), "window:4");  // layer 0 slides

    const CliRun listing =
        cli({"pytorch", "--model", family("qwen3"), "--text", kSentence, "--layer", "1"});
    ASSERT_EQ(listing.exitCode, 0) << listing.err.toStdString();
    const QString code = QString::fromUtf8(listing.out);
    EXPECT_TRUE(code.contains("a qwen3 model")) << code.left(300).toStdString();
    EXPECT_TRUE(code.contains("q = rms_norm(q, state[b + \"self_attn.q_norm.weight\"])"));
    EXPECT_TRUE(code.contains("k = k.repeat_interleave(heads // kv_heads, dim=0)"));
    EXPECT_TRUE(code.contains("heads, kv_heads, head_dim, d_model = 4, 2, 16, 32"));
    EXPECT_TRUE(code.contains("if n == 1:"));
}

// attention-lens-cli with the families after GPT-2 (SPEC 9.4): a model folder with its own
// tokenizer.json, a single file with --config, --ids, the model JSON's family keys, and
// `tokenize --tokenizer` with --no-special-tokens and --jsonl. The fixtures' tokenizers are
// small byte-level and SentencePiece-style files whose ids Hugging Face's tokenizers gave.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>

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

// A model layer's trace says what ran: the tokenizer that cut the text (the folder's
// tokenizer.json, or GPT-2's standing in), and the architecture as the model has it, not the
// chapter-3 module's settings: Qwen3's queries 64 wide on a 32-wide model, Qwen2's biases,
// Gemma 3's query_pre_attn_scalar, norms and the layer's own window and RoPE base.
TEST(FamilyCli, ALayersTraceConfigIsTheModelsArchitectureAndTokenizer) {
    const QJsonObject qwen3 =
        json(cli({"trace", "--model", family("qwen3"), "--text", kSentence}))["config"].toObject();
    EXPECT_EQ(qwen3["tokenizer"].toString(), "tokenizer.json");
    EXPECT_TRUE(qwen3["tokenizer_is_the_models"].toBool(false));
    EXPECT_EQ(qwen3["family"].toString(), "qwen3");
    EXPECT_EQ(qwen3["names"].toString(), "hf");
    EXPECT_EQ(qwen3["d_model"].toInt(), 32);
    EXPECT_EQ(qwen3["heads"].toInt(), 4);
    EXPECT_EQ(qwen3["kv_heads"].toInt(), 2);
    EXPECT_EQ(qwen3["head_dim"].toInt(), 16);
    EXPECT_EQ(qwen3["query_width"].toInt(), 64);
    EXPECT_FALSE(qwen3.contains("d_out"));  // the rotary module has none; 32 was wrong
    EXPECT_TRUE(qwen3["qk_norm"].toBool(false));
    EXPECT_FALSE(qwen3["qkv_bias"].toBool(true));
    EXPECT_EQ(qwen3["norm"].toString(), "rms_norm");
    EXPECT_EQ(qwen3["norm_eps"].toDouble(), 1e-6);
    EXPECT_EQ(qwen3["feed_forward"].toString(), "swiglu");
    EXPECT_EQ(qwen3["ff_hidden"].toInt(), 64);
    EXPECT_EQ(qwen3["positions"].toString(), "rope");
    EXPECT_EQ(qwen3["rope_base"].toDouble(), 1e6);
    EXPECT_EQ(qwen3["query_scale"].toDouble(), 0.25);
    EXPECT_EQ(qwen3["context_length"].toInt(), 64);
    EXPECT_EQ(qwen3["vocab"].toInt(), 300);
    EXPECT_EQ(qwen3["variant"].toString(), "rotary");
    EXPECT_EQ(qwen3["mode"].toString(), "eval");
    // Nothing of the chapter-3 module that the model does not have (`positions` is the
    // architecture's, a string, not chapter 3's flag for added position embeddings).
    for (const char* key : {"seed", "dropout_rng", "embedding_seed", "kv_groups",
                            "rope", "latent_dim", "weights_file"})
        EXPECT_FALSE(qwen3.contains(QLatin1String(key))) << key;

    const QJsonObject qwen2 =
        json(cli({"trace", "--model", family("qwen2"), "--ids", "5,6,7"}))["config"].toObject();
    EXPECT_TRUE(qwen2["qkv_bias"].toBool(false));  // its numbers include the biases
    EXPECT_EQ(qwen2["tokenizer"].toString(), "gpt2");
    EXPECT_FALSE(qwen2["tokenizer_is_the_models"].toBool(true));
    EXPECT_EQ(qwen2["ids"].toString(), "5 6 7");

    const CliRun sliding =
        cli({"trace", "--model", family("gemma3"), "--text", kSentence, "--layer", "0"});
    const QJsonObject gemma = json(sliding)["config"].toObject();
    EXPECT_EQ(gemma["tokenizer"].toString(), "tokenizer.json");
    EXPECT_EQ(gemma["query_pre_attn_scalar"].toDouble(), 16.0);
    EXPECT_EQ(gemma["window"].toInt(), 4);
    EXPECT_EQ(gemma["windows"].toArray(), ints({4, 4, 0}));
    EXPECT_EQ(gemma["rope_base"].toDouble(), 10000.0);  // rope_local_base_freq
    EXPECT_EQ(gemma["norm"].toString(), "rms_norm_one_plus");
    EXPECT_EQ(gemma["feed_forward"].toString(), "geglu");
    EXPECT_TRUE(gemma["sandwich_norms"].toBool(false));
    EXPECT_NEAR(gemma["embedding_scale"].toDouble(), std::sqrt(32.0), 1e-12);
    EXPECT_EQ(gemma["mask"].toString(), "window:4");
    const QJsonObject full = json(cli(
        {"trace", "--model", family("gemma3"), "--text", kSentence, "--layer", "2"}))["config"]
                                 .toObject();
    EXPECT_EQ(full["window"].toInt(), 0);
    EXPECT_EQ(full["rope_base"].toDouble(), 1e6);  // rope_theta
    EXPECT_EQ(full["layer"].toInt(), 2);

    // The first line holds the config; no key is written twice.
    const QString line = QString::fromUtf8(sliding.out.left(sliding.out.indexOf('\n')));
    for (const QString& key : gemma.keys())
        EXPECT_EQ(line.count(QLatin1Char('"') + key + QStringLiteral("\": ")), 1)
            << key.toStdString();

    // The bundled Llama has no tokenizer.json: it was trained on GPT-2's tokens, as its file
    // says, so GPT-2's tokenizer is its own.
    const QJsonObject bundled =
        json(cli({"trace", "--model", "tiny-shakespeare-llama", "--text", "To be"}))["config"]
            .toObject();
    EXPECT_EQ(bundled["tokenizer"].toString(), "gpt2");
    EXPECT_TRUE(bundled["tokenizer_is_the_models"].toBool(false));
    EXPECT_EQ(bundled["family"].toString(), "llama");
    EXPECT_EQ(bundled["kv_heads"].toInt(), 2);
    EXPECT_EQ(bundled["ff_hidden"].toInt(), 384);
}

namespace {

void refusedInOneLine(const QStringList& args, const QString& message) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.exitCode, 2) << args.join(' ').toStdString();
    EXPECT_EQ(r.err.count('\n'), 1) << r.err.toStdString();
    EXPECT_TRUE(QString::fromUtf8(r.err).contains(message))
        << r.err.toStdString() << "\nexpected: " << message.toStdString();
}

}  // namespace

// A folder without tokenizer.json runs on GPT-2's tokenizer, and says so: the JSON names the
// tokenizer, stderr has a note, and ids beyond the vocabulary are said to be that.
TEST(FamilyCli, AFolderWithoutItsTokenizerSaysGpt2StandsIn) {
    const CliRun r = cli({"model", "--model", family("llama"), "--ids", "1,2,3"});
    const QJsonObject model = json(r)["model"].toObject();
    EXPECT_EQ(model["tokenizer"].toString(), "gpt2");
    EXPECT_FALSE(model["tokenizer_is_the_models"].toBool(true));
    // Ids given with --ids are the model's own: no tokenizer cut them, nothing to note.
    EXPECT_TRUE(r.err.isEmpty()) << r.err.toStdString();
    const CliRun cut = cli({"model", "--model", family("llama"), "--text", "a"});
    EXPECT_EQ(cut.exitCode, 0) << cut.err.toStdString();
    EXPECT_TRUE(
        cut.err.contains("note: llama is a llama model without its tokenizer.json, so "
                         "GPT-2's tokenizer cuts the text"))
        << cut.err.toStdString();
    const QJsonObject own = json(cli({"model", "--model", family("qwen3"), "--ids", "1,2,3"}));
    EXPECT_EQ(own["model"].toObject()["tokenizer"].toString(), "tokenizer.json");
    EXPECT_TRUE(own["model"].toObject()["tokenizer_is_the_models"].toBool(false));
    // The bundled Llama was trained on GPT-2's tokens, as its file says: GPT-2's is its own.
    const CliRun bundled = cli({"model", "--model", "tiny-shakespeare-llama", "--ids", "1,2,3"});
    EXPECT_TRUE(json(bundled)["model"].toObject()["tokenizer_is_the_models"].toBool(false));
    EXPECT_TRUE(bundled.err.isEmpty()) << bundled.err.toStdString();
    refusedInOneLine({"model", "--model", family("llama"), "--text", kSentence},
                     "is beyond the model's vocabulary of 300 tokens. GPT-2's tokenizer cut the "
                     "text, since the model has no tokenizer.json.");
}

// Options that would be ignored are refused, each in one line.
TEST(FamilyCli, OptionsThatDoNotApplyAreRefused) {
    refusedInOneLine({"model", "--model", family("qwen3"), "--text", kSentence, "--ids", "1,2"},
                     "--ids are the tokens themselves, so --text would not be read");
    refusedInOneLine({"model", "--model", family("qwen3"), "--ids", "1,2", "--heads", "2"},
                     "--heads does not apply to qwen3: a qwen3 model takes its heads from its "
                     "config.json (4). Leave --heads out.");
    refusedInOneLine({"model", "--model", family("qwen3"), "--ids", "1,2", "--variant", "causal"},
                     "--variant does not apply to a trained model (--model)");
    refusedInOneLine({"model", "--model", family("qwen3"), "--ids", "1,2", "--seed", "7"},
                     "--seed does not apply to a trained model (--model)");
    refusedInOneLine({"model", "--model", family("qwen3"), "--ids", "1,,2"},
                     "\"1,,2\" has a comma with no id before or after it");
    refusedInOneLine({"trace", "--text", "hi", "--layer", "1"},
                     "--layer is for a trained model: give the model with --model");
    refusedInOneLine({"model", "--model", family("qwen3"), "--ids", "5", "--position", "1"},
                     "--position 1 is beyond the text's only token (position 0).");
}

// A token that is only part of a character is written as Hugging Face names byte tokens,
// "<0xE2>", never as bare hex ("e2"), which would read as the text "e2".
TEST(FamilyCli, AByteTokenIsNamedByItsBytes) {
    const QJsonObject t = json(cli({"tokenize", "--tokenizer", family("qwen3"), "--text",
                                    QStringLiteral("\u20ac"), "--no-special-tokens"}));
    const QJsonArray hex = t["token_bytes_hex"].toArray();
    ASSERT_EQ(hex.size(), 3);  // E2 82 AC, one byte token each
    EXPECT_EQ(t["tokens"].toArray(), (QJsonArray{"<0xE2>", "<0x82>", "<0xAC>"}));
    const QString id = QString::number(t["ids"].toArray().first().toInt());
    const QJsonObject m = json(cli({"model", "--model", family("qwen3"), "--ids", id}));
    EXPECT_EQ(m["tokens"].toArray(), QJsonArray{"<0xE2>"});
}

// A figure of a model's step names the model (a folder's whole name, dots and all) and layer.
TEST(FamilyCli, RenderNamesTheModelAndLayer) {
    QTemporaryDir dir;
    const QString folder = dir.filePath("qwen3-0.6b");
    ASSERT_TRUE(QDir().mkpath(folder));
    for (const char* f : {"config.json", "model.safetensors", "tokenizer.json"})
        ASSERT_TRUE(QFile::copy(family("qwen3/") + f, folder + "/" + f));
    const QString step = dir.filePath("weights.svg");
    const CliRun r = cli({"render", "--model", folder, "--text", "the animal", "--layer", "1",
                          "--step", "weights", "--out", step});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    QFile svg(step);
    ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
    EXPECT_TRUE(svg.readAll().contains("qwen3-0.6b, layer 1: weights"));
    const QString overview = dir.filePath("overview.svg");
    ASSERT_EQ(
        cli({"render", "--model", folder, "--text", "the animal", "--overview", "--out", overview})
            .exitCode,
        0);
    QFile all(overview);
    ASSERT_TRUE(all.open(QIODevice::ReadOnly));
    EXPECT_TRUE(all.readAll().contains("qwen3-0.6b: attention of every layer and head"));
}

// A text far beyond the context length is refused after its first few KB are tokenized, not
// after all of it (8 MB took seconds and gigabytes).
TEST(FamilyCli, ATextFarBeyondTheContextIsRefusedFromItsBeginning) {
    QTemporaryDir dir;
    QFile text(dir.filePath("long.txt"));
    ASSERT_TRUE(text.open(QIODevice::WriteOnly));
    const QByteArray line = "the animal did not cross the street because it was too tired\n";
    for (int i = 0; i < 8 * 1024 * 1024 / line.size(); ++i)
        text.write(line);
    text.close();
    refusedInOneLine({"model", "--model", family("qwen3"), "--text-file", text.fileName()},
                     "The text is too long for the context length of 64 tokens: its first 4.1 kB "
                     "alone make");
    refusedInOneLine({"trace", "--text-file", text.fileName()},
                     "and the whole text is 8.4 MB. Shorten the text or raise the context "
                     "length.");
}

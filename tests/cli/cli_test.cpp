// attention-lens-cli as a user runs it: exit codes, one-line errors, no partial files, and the
// numbers of the book.

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "cli/cli_run.h"
#include "pipeline/settings.h"

namespace {

using attn::test::cli;
using attn::test::CliRun;

QJsonObject json(const QByteArray& bytes) {
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(bytes, &e);
    EXPECT_EQ(e.error, QJsonParseError::NoError) << e.errorString().toStdString();
    return d.object();
}

// Exit 2, nothing on stdout, exactly one line on stderr, which contains `expected`.
void expectBadInput(const QStringList& args, const QString& expected) {
    const CliRun r = cli(args);
    EXPECT_EQ(r.exitCode, 2) << args.join(' ').toStdString();
    EXPECT_TRUE(r.out.isEmpty()) << args.join(' ').toStdString();
    EXPECT_EQ(r.err.count('\n'), 1) << r.err.toStdString();
    EXPECT_TRUE(r.err.startsWith("attention-lens-cli: ")) << r.err.toStdString();
    EXPECT_TRUE(QString::fromUtf8(r.err).contains(expected))
        << "stderr: " << r.err.toStdString() << "\nexpected to contain: " << expected.toStdString();
}

TEST(Cli, TraceOfTheBooksSelfAttentionV1) {
    const CliRun r =
        cli({"trace", "--preset", "book", "--variant", "self-attention-v1", "--seed", "123"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QJsonObject o = json(r.out);
    EXPECT_EQ(o["config"].toObject()["variant"].toString(), "self-attention-v1");
    EXPECT_EQ(o["parameters"].toInt(), 18);
    EXPECT_EQ(o["tokens"].toArray().first().toString(), "Your");
    const QJsonArray data = o["output"].toObject()["data"].toArray();
    ASSERT_EQ(data.size(), 12);
    // The book: context_vecs[0] = [0.2996, 0.8053]
    EXPECT_NEAR(data[0].toDouble(), 0.2996, 5e-5);
    EXPECT_NEAR(data[1].toDouble(), 0.8053, 5e-5);
    QStringList ids;
    for (const QJsonValue& s : o["steps"].toArray())
        ids << s.toObject()["id"].toString();
    EXPECT_EQ(ids, (QStringList{"inputs", "queries", "keys", "values", "scores", "scaled_scores",
                                "weights", "context", "output"}));
}

// After chapter 3 (section 9.1): the new variants and options on every command, their steps
// under their ids, and their option errors in one line that lists what would be right.
TEST(Cli, TheVariantsAfterChapter3) {
    CliRun r = cli({"trace", "--preset", "book", "--variant", "grouped-query", "--d-out", "4",
                    "--heads", "4", "--kv-groups", "2"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    QJsonObject o = json(r.out);
    EXPECT_EQ(o["config"].toObject()["variant"].toString(), "grouped-query");
    QStringList ids;
    for (const QJsonValue& s : o["steps"].toArray())
        ids << s.toObject()["id"].toString();
    EXPECT_TRUE(ids.contains("keys_groups") && ids.contains("keys_repeated"))
        << ids.join(' ').toStdString();
    // W_key (2, 3) + W_value (2, 3) + W_query (4, 3) + out_proj (4, 4), no biases.
    EXPECT_EQ(o["parameters"].toInt(), 6 + 6 + 12 + 16);

    r = cli({"trace", "--text", "The cat sat", "--variant", "rotary", "--d-in", "8", "--heads", "2",
             "--qk-norm", "--rope-base", "500000"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    ids.clear();
    for (const QJsonValue& s : json(r.out)["steps"].toArray())
        ids << s.toObject()["id"].toString();
    for (const char* id : {"queries_normed", "keys_normed", "rope_cos", "rope_sin",
                           "queries_rotated", "keys_rotated"})
        EXPECT_TRUE(ids.contains(id)) << id;
    r = cli({"trace", "--text", "The cat sat", "--variant", "rotary", "--d-in", "8", "--heads", "2",
             "--no-rope"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_FALSE(r.out.contains("\"rope_cos\""));

    QTemporaryDir dir;
    const QString npy = dir.filePath(QStringLiteral("latent.npy"));
    r = cli({"export", "--preset", "book", "--variant", "latent", "--d-out", "4", "--heads", "2",
             "--latent-dim", "3", "--step", "latent", "--out", npy});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_TRUE(QFile::exists(npy));
    // A group step is picked by query head: heads 2 and 3 read group 1, head 1 group 0.
    const auto groupCsv = [&](const char* head) {
        const QString csv = dir.filePath(QStringLiteral("keys_groups_%1.csv").arg(head));
        const CliRun e = cli({"export", "--preset", "book", "--variant", "grouped-query", "--d-out",
                              "8", "--heads", "4", "--kv-groups", "2", "--step", "keys_groups",
                              "--head", head, "--out", csv});
        EXPECT_EQ(e.exitCode, 0) << e.err.toStdString();
        QFile f(csv);
        EXPECT_TRUE(f.open(QIODevice::ReadOnly));
        return f.readAll();
    };
    EXPECT_EQ(groupCsv("3"), groupCsv("2"));
    EXPECT_NE(groupCsv("3"), groupCsv("1"));
    const QString png = dir.filePath(QStringLiteral("rope.png"));
    r = cli({"render", "--preset", "book", "--variant", "rotary", "--head-dim", "4", "--step",
             "rope_cos", "--out", png});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_TRUE(QFile::exists(png));
    r = cli({"bench", "--preset", "book", "--variant", "grouped-query", "--heads", "2",
             "--kv-groups", "1"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    r = cli({"pytorch", "--preset", "book", "--variant", "latent", "--d-out", "4"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_TRUE(r.out.contains("class MultiHeadLatentAttention(nn.Module):"));

    expectBadInput(
        {"trace", "--variant", "grouped-query", "--d-out", "8", "--heads", "4", "--kv-groups", "3"},
        "Valid group counts for 4 heads: 1, 2, 4.");
    expectBadInput({"trace", "--variant", "rotary"},
                   "d_in = 3 is not divisible by 2 heads, so head_dim cannot default to d_in / "
                   "heads");
    expectBadInput({"trace", "--variant", "rotary", "--heads", "1"},
                   "Set head_dim to 2 or 4, or switch the rotation off.");
    expectBadInput({"trace", "--kv-groups", "0"},
                   "--kv-groups expects a whole number from 1 to 1048576, got \"0\".");
    expectBadInput({"trace", "--latent-dim", "-2"},
                   "--latent-dim expects a whole number from 1 to 1048576, or 0 for the default, "
                   "got \"-2\".");
    expectBadInput({"trace", "--rope-base", "0"}, "--rope-base expects a positive number");
}

TEST(Cli, TraceWritesMaskedCellsAsStrings) {
    const CliRun r = cli({"trace", "--preset", "book"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QJsonObject o = json(r.out);
    for (const QJsonValue& s : o["steps"].toArray()) {
        const QJsonObject step = s.toObject();
        if (step["id"] != "masked_scores")
            continue;
        EXPECT_EQ(step["shape"].toArray(), (QJsonArray{1, 2, 6, 6}));
        EXPECT_EQ(step["dims"].toArray(), (QJsonArray{"b", "h", "T", "T"}));
        const QJsonArray d = step["data"].toArray();
        EXPECT_TRUE(d[0].isDouble());
        EXPECT_EQ(d[1].toString(), "-inf");  // row 0 cannot see token 1
        return;
    }
    FAIL() << "no masked_scores step";
}

TEST(Cli, TraceOutFile) {
    QTemporaryDir dir;
    const QString path = dir.filePath("trace.json");
    const CliRun r =
        cli({"trace", "--text", "Hello world", "--d-in", "8", "--d-out", "4", "--out", path});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_TRUE(r.out.isEmpty());
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QJsonObject o = json(f.readAll());
    EXPECT_EQ(o["tokens"].toArray(), (QJsonArray{"Hello", " world"}));
    EXPECT_EQ(o["config"].toObject()["tokenizer"].toString(), "gpt2");
    EXPECT_EQ(o["config"].toObject()["embedding_seed"].toInt(), 123);
    EXPECT_EQ(o["output"].toObject()["shape"].toArray(), (QJsonArray{1, 2, 4}));
}

// The keys of the first line's "config" object as written, duplicates kept (QJsonObject would
// keep one of each).
QStringList configKeysAsWritten(const QByteArray& out) {
    const QString line = QString::fromUtf8(out.left(out.indexOf('\n')));
    const QString config = line.mid(line.indexOf('{', 1));
    QStringList keys;
    static const QRegularExpression key(QStringLiteral("(?:\\{|, )\"([a-z_0-9]+)\": "));
    for (auto it = key.globalMatch(config); it.hasNext();)
        keys << it.next().captured(1);
    return keys;
}

// The chapter-3 trace's config is the settings that apply to the run's variant, under their
// settings keys: rotary's RoPE base, head size, QK-norm and key/value groups, grouped-query's
// groups, latent's latent size; none of a variant's that another variant has (rotary has no
// d_out, multi-head no RoPE). Read back as settings, it is the module that ran.
TEST(Cli, TheTracesConfigHoldsTheSettingsOfItsVariant) {
    CliRun r = cli({"trace", "--text", "The cat sat", "--variant", "rotary", "--d-in", "8",
                    "--heads", "4", "--kv-groups", "2", "--head-dim", "6", "--qk-norm",
                    "--rope-base", "500000", "--seed", "7"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    QJsonObject c = json(r.out)["config"].toObject();
    EXPECT_EQ(c["variant"].toString(), "rotary");
    EXPECT_EQ(c["rope_base"].toDouble(), 500000.0);
    EXPECT_EQ(c["kv_groups"].toInt(), 2);
    EXPECT_EQ(c["head_dim"].toInt(), 6);
    EXPECT_TRUE(c["qk_norm"].toBool(false));
    EXPECT_TRUE(c["rope"].toBool(false));
    EXPECT_EQ(c["heads"].toInt(), 4);
    EXPECT_EQ(c["seed"].toInt(), 7);
    EXPECT_EQ(c["source"].toString(), "text");
    EXPECT_FALSE(c.contains("d_out"));  // rotary's output is d_in wide; it has no d_out
    EXPECT_FALSE(c.contains("latent_dim"));
    QStringList keys = configKeysAsWritten(r.out);
    EXPECT_EQ(keys.size(), c.size()) << keys.join(' ').toStdString();  // no key twice
    for (const QString& k : keys)
        EXPECT_NE(attn::findSettingField(k), nullptr) << k.toStdString();
    const attn::Settings back = attn::settingsFromMap(c.toVariantMap(), attn::Settings());
    EXPECT_EQ(back.config.variant, attn::Variant::Rotary);
    EXPECT_EQ(back.config.ropeBase, 500000.0);
    EXPECT_EQ(back.config.kvGroups, 2);
    EXPECT_EQ(back.config.headDim, 6);
    EXPECT_TRUE(back.config.qkNorm);
    EXPECT_EQ(back.config.seed, 7u);

    r = cli({"trace", "--preset", "book", "--variant", "grouped-query", "--d-out", "4", "--heads",
             "4", "--kv-groups", "2"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    c = json(r.out)["config"].toObject();
    EXPECT_EQ(c["kv_groups"].toInt(), 2);
    EXPECT_EQ(c["d_out"].toInt(), 4);
    EXPECT_EQ(c["source"].toString(), "book");
    EXPECT_FALSE(c.contains("rope_base"));
    EXPECT_FALSE(c.contains("text"));       // the book's vectors, no text
    EXPECT_FALSE(c.contains("tokenizer"));  // nothing was tokenized

    r = cli({"trace", "--preset", "book", "--variant", "latent", "--d-out", "4", "--heads", "2",
             "--latent-dim", "3"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    c = json(r.out)["config"].toObject();
    EXPECT_EQ(c["latent_dim"].toInt(), 3);
    EXPECT_FALSE(c.contains("kv_groups"));

    r = cli({"trace", "--preset", "book", "--variant", "self-attention"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    c = json(r.out)["config"].toObject();
    EXPECT_FALSE(c.contains("heads"));  // a single head: the heads setting says nothing
    EXPECT_FALSE(c.contains("kv_groups"));
    EXPECT_FALSE(c.contains("rope_base"));
    EXPECT_EQ(c["d_out"].toInt(), 2);
}

// Token ids are the tokens of the chapter-3 trace too (they were left unread, and the book's
// six vectors traced, when no text was given), and its config says so.
TEST(Cli, TokenIdsAreTheTracesTokens) {
    const CliRun r = cli({"trace", "--ids", "464,3797"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QJsonObject o = json(r.out);
    EXPECT_EQ(o["tokens"].toArray(), (QJsonArray{"The", " cat"}));
    const QJsonObject c = o["config"].toObject();
    EXPECT_EQ(c["ids"].toString(), "464 3797");
    EXPECT_EQ(c["tokenizer"].toString(), "gpt2");
    EXPECT_FALSE(c.contains("text"));  // the ids are the input, not a text
    EXPECT_FALSE(c.contains("source"));
}

TEST(Cli, Tokenize) {
    const CliRun r = cli({"tokenize", "--text", "Your journey starts with one step"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QJsonObject o = json(r.out);
    EXPECT_EQ(o["ids"].toArray(), (QJsonArray{7120, 7002, 4940, 351, 530, 2239}));
    EXPECT_EQ(o["tokens"].toArray()[1].toString(), " journey");
    EXPECT_EQ(o["token_bytes_hex"].toArray()[0].toString(), "596f7572");
}

TEST(Cli, Bench) {
    const CliRun r = cli({"bench", "--repeat", "3", "--preset", "book"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QJsonObject o = json(r.out);
    EXPECT_EQ(o["repeat"].toInt(), 3);
    EXPECT_EQ(o["tokens"].toInt(), 6);
    EXPECT_GT(o["median_ms"].toDouble(), 0.0);
    EXPECT_LE(o["min_ms"].toDouble(), o["median_ms"].toDouble());
    EXPECT_GT(o["peak_rss_bytes"].toDouble(), 0.0);
}

// bench reports its own peak: started from a process that has touched 512 MB, it still says
// what it used itself (getrusage's ru_maxrss kept the parent's 512 MB across exec).
TEST(Cli, BenchReportsItsOwnPeakNotItsParents) {
    std::vector<char> ballast(size_t(512) << 20);
    for (size_t i = 0; i < ballast.size(); i += 4096)
        ballast[i] = char(i);
    const CliRun r = cli({"bench", "--repeat", "1", "--preset", "book"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    volatile char keep = ballast[4096];
    (void)keep;
    const double peak = json(r.out)["peak_rss_bytes"].toDouble();
    EXPECT_GT(peak, 1 << 20);
    EXPECT_LT(peak, 400.0 * (1 << 20)) << peak;
}

// --dropout-rng says which kernel each choice reproduces: the book's notebooks print the
// default kernel's pattern; mkl is the kernel of PyTorch wheels with Intel MKL.
TEST(Cli, DropoutRngHelpSaysWhatEachKernelReproduces) {
    const CliRun r = cli({"trace", "--help"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QString help = QString::fromUtf8(r.out).simplified();
    EXPECT_TRUE(
        help.contains("AMD CPUs, and what the book's notebooks print) or mkl (PyTorch "
                      "wheels with Intel MKL on Intel CPUs)."))
        << help.toStdString();
    EXPECT_FALSE(help.contains("as printed in the book"));
}

// bench drops each timed trace before the next one starts, so its peak memory is about one
// trace above a tiny run's, not two.
TEST(Cli, BenchHoldsOneTraceAtATime) {
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer keeps freed memory in quarantine instead of giving it back, so the peak
    // counts every trace the bench made, held or not; the Release run checks this.
    GTEST_SKIP() << "peak memory is not meaningful under AddressSanitizer";
#endif
    const CliRun tiny = cli({"bench", "--repeat", "2", "--preset", "book"});
    ASSERT_EQ(tiny.exitCode, 0) << tiny.err.toStdString();
    const CliRun r =
        cli({"bench", "--repeat", "3", "--variant", "multi-head", "--d-in", "768", "--d-out", "768",
             "--heads", "12", "--text", QStringLiteral(" word").repeated(512)});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QJsonObject o = json(r.out);
    EXPECT_EQ(o["tokens"].toInt(), 512);
    const double trace = o["trace_bytes"].toDouble();
    // Seven 12 x 512 x 512 steps, three of them kept as lower triangles (69 MB), six (512, 768)
    // steps, the mask and the four 768 x 768 parameters (20 MB).
    EXPECT_GT(trace, 85e6);
    EXPECT_LT(trace, 95e6);
    const double base = json(tiny.out)["peak_rss_bytes"].toDouble();
    EXPECT_GT(base, 0.0);
    const double grown = o["peak_rss_bytes"].toDouble() - base;
    EXPECT_GT(grown, 0.5 * trace);
    EXPECT_LT(grown, 1.4 * trace);
}

TEST(Cli, BadInputExitsTwoWithOneLine) {
    expectBadInput({"trace", "--heads", "3"}, "Valid head counts for d_out = 2: 1, 2.");
    // Values no setting can take are refused as the option is read, naming the range.
    expectBadInput({"trace", "--d-out", "0"},
                   "--d-out expects a whole number from 1 to 1048576, got \"0\".");
    expectBadInput({"trace", "--text", "hi", "--d-in", "-4"},
                   "--d-in expects a whole number from 1 to 1048576, got \"-4\".");
    expectBadInput({"trace", "--dropout", "1.0"},
                   "--dropout expects a number from 0 up to (not including) 1, got \"1.0\".");
    expectBadInput({"trace", "--dropout", "-0.1"}, "got \"-0.1\".");
    expectBadInput({"trace", "--dropout", "lots"}, "--dropout expects a number");
    expectBadInput({"trace", "--mask", "window:0"}, "The window size K of --mask must be from 1");
    expectBadInput({"trace", "--mask", "diagonal"},
                   "Unknown mask \"diagonal\"; use none, causal or window:K");
    expectBadInput({"trace", "--variant", "transformer"}, "Unknown variant \"transformer\"");
    expectBadInput({"trace", "--context-length", "4"},
                   "The input has 6 tokens, more than the context length of 4.");
    expectBadInput({"trace", "--text", ""}, "The text has no tokens");
    expectBadInput({"trace", "--seed", "abc"}, "--seed expects a whole number");
    expectBadInput({"trace", "--preset", "book", "--d-in", "5"},
                   "The book's input vectors are 3-dimensional, so d_in must be 3");
    expectBadInput({"trace", "--preset", "book", "--text", "x"}, "Give only one input");
    expectBadInput({"trace", "--embeddings", "/nonexistent/x.npy"}, "/nonexistent/x.npy");
    expectBadInput({"trace", "--weights", "/nonexistent/w.json"}, "/nonexistent/w.json");
    expectBadInput({"trace", "--bogus"}, "Unknown option 'bogus'.");
    // One full stop, whether Qt's message has one or not.
    EXPECT_FALSE(cli({"trace", "--bogus"}).err.contains(".."));
    expectBadInput({"trace", "--seed"}, "Missing value after '--seed'.");
    expectBadInput({"frobnicate"}, "unknown command \"frobnicate\"");
    expectBadInput({"trace", "--d-in", "768", "--d-out", "768", "--heads", "12", "--text",
                    QString("word ").repeated(1000), "--batch", "100"},
                   "This configuration needs about");
    expectBadInput({"export", "--out", "x.txt"}, "use a .csv, .npy, .json or .npz file");
    expectBadInput({"export", "--step", "nope", "--out", "/tmp/x.npy"},
                   "This configuration has no step \"nope\"; its steps are inputs, queries");
    // A head the step does not have is refused, not clamped to the last one.
    expectBadInput({"export", "--step", "weights", "--head", "2", "--out", "/tmp/x.csv"},
                   "--head 2 is out of range: \"weights\" has 2 heads.");
}

TEST(Cli, UnwritableOutputLeavesNoFile) {
    expectBadInput({"trace", "--out", "/nonexistent-dir/trace.json"},
                   "Cannot write /nonexistent-dir/trace.json");
    expectBadInput({"trace", "--out", "/dev/full"}, "Cannot write /dev/full");
    EXPECT_FALSE(QFile::exists("/nonexistent-dir/trace.json"));
}

TEST(Cli, ExportFormats) {
    QTemporaryDir dir;
    const QStringList base = {"export", "--preset", "book", "--variant", "causal"};
    ASSERT_EQ(cli(base + QStringList{"--step", "weights", "--out", dir.filePath("w.npy")}).exitCode,
              0);
    QFile npy(dir.filePath("w.npy"));
    ASSERT_TRUE(npy.open(QIODevice::ReadOnly));
    const QByteArray bytes = npy.readAll();
    EXPECT_TRUE(bytes.startsWith("\x93NUMPY\x01\x00"));
    EXPECT_TRUE(bytes.contains("'shape': (1, 6, 6)"));
    EXPECT_EQ(bytes.size(), 128 + 36 * 4);

    ASSERT_EQ(cli(base + QStringList{"--step", "weights", "--out", dir.filePath("w.csv")}).exitCode,
              0);
    QFile csv(dir.filePath("w.csv"));
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
    EXPECT_TRUE(csv.readLine().startsWith(",Your,journey,starts,with,one,step"));
    EXPECT_TRUE(csv.readLine().startsWith("Your,1,0,0,0,0,0"));

    // A multi-head split step as its heatmap shows it: tokens down, "head.feature" across.
    ASSERT_EQ(cli({"export", "--preset", "book", "--d-out", "4", "--step", "queries_split", "--out",
                   dir.filePath("q.csv")})
                  .exitCode,
              0);
    QFile qcsv(dir.filePath("q.csv"));
    ASSERT_TRUE(qcsv.open(QIODevice::ReadOnly));
    const QList<QByteArray> qlines = qcsv.readAll().split('\n');
    ASSERT_EQ(qlines.size(), 8);  // header, six tokens, and the empty piece after the last \n
    EXPECT_EQ(qlines[0], ",0.0,0.1,1.0,1.1");
    EXPECT_TRUE(qlines[6].startsWith("step,"));
    EXPECT_EQ(qlines[6].split(',').size(), 5);

    ASSERT_EQ(cli(base + QStringList{"--step", "masked_scores", "--out", dir.filePath("s.json")})
                  .exitCode,
              0);
    QFile js(dir.filePath("s.json"));
    ASSERT_TRUE(js.open(QIODevice::ReadOnly));
    EXPECT_EQ(json(js.readAll())["id"].toString(), "masked_scores");

    ASSERT_EQ(cli(base + QStringList{"--out", dir.filePath("all.npz")}).exitCode, 0);
    QFile npz(dir.filePath("all.npz"));
    ASSERT_TRUE(npz.open(QIODevice::ReadOnly));
    const QByteArray z = npz.readAll();
    EXPECT_TRUE(z.startsWith("PK\x03\x04"));
    EXPECT_TRUE(z.contains("weights.npy"));
    EXPECT_TRUE(z.contains("dropout") == false);
}

TEST(Cli, RenderImages) {
#ifndef ATTN_HAVE_EXPORT
    GTEST_SKIP() << "built without the GUI libraries: no image export";
#endif
    QTemporaryDir dir;
    const CliRun png = cli({"render", "--preset", "book", "--variant", "causal", "--step",
                            "weights", "--out", dir.filePath("w.png"), "--scale", "1"});
    ASSERT_EQ(png.exitCode, 0) << png.err.toStdString();
    EXPECT_TRUE(png.err.isEmpty()) << png.err.toStdString();
    QFile f(dir.filePath("w.png"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.readAll().startsWith("\x89PNG\r\n\x1a\n"));

    const CliRun svg = cli({"render", "--preset", "book", "--step", "weights", "--head", "1",
                            "--out", dir.filePath("w.svg")});
    ASSERT_EQ(svg.exitCode, 0) << svg.err.toStdString();
    QFile s(dir.filePath("w.svg"));
    ASSERT_TRUE(s.open(QIODevice::ReadOnly));
    const QByteArray text = s.readAll();
    EXPECT_TRUE(text.contains("<svg"));
    EXPECT_TRUE(text.contains("journey"));  // token labels are text, not pixels

    // Every step, and every head of per-head steps: multi-head with 2 heads on the book.
    const CliRun all =
        cli({"render", "--preset", "book", "--all-steps", dir.filePath("all"), "--format", "svg"});
    ASSERT_EQ(all.exitCode, 0) << all.err.toStdString();
    const QStringList files = QDir(dir.filePath("all")).entryList(QDir::Files, QDir::Name);
    // Named after their place in the pipeline, so a listing by name follows the computation.
    EXPECT_EQ(files.first(), "01_inputs.svg");
    EXPECT_TRUE(files.last().endsWith("_output.svg"));
    EXPECT_EQ(files.filter(QRegularExpression("^\\d\\d_weights_head[01]\\.svg$")).size(), 2);
    EXPECT_EQ(files.filter(QRegularExpression("^\\d\\d_mask\\.svg$")).size(), 1);
    // 11 steps without a head dim (inputs, queries/keys/values and their _split views, mask,
    // context_transposed, context, output) and 11 per-head steps drawn once per head.
    EXPECT_EQ(files.size(), 11 + 11 * 2);

    EXPECT_EQ(cli({"render", "--preset", "book", "--step", "weights", "--head", "2", "--out",
                   dir.filePath("x.png")})
                  .exitCode,
              2);
    EXPECT_FALSE(QFile::exists(dir.filePath("x.png")));
}

TEST(Cli, PytorchCodeNamesTheModuleAndSeeds) {
    const CliRun r =
        cli({"pytorch", "--text", "Hello world", "--variant", "multi-head", "--d-in", "6",
             "--d-out", "4", "--heads", "2", "--seed", "7", "--embedding-seed", "9"});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QString code = QString::fromUtf8(r.out);
    EXPECT_TRUE(code.contains("class MultiHeadAttention(nn.Module):"));
    EXPECT_TRUE(code.contains("ids = torch.tensor([15496, 995])"));
    EXPECT_TRUE(
        code.contains("torch.manual_seed(9)\ntoken_embedding_layer = nn.Embedding(50257, 6)"));
    EXPECT_TRUE(code.contains(
        "torch.manual_seed(7)\nmodule = MultiHeadAttention(6, 4, 1024, 0.0, 2, qkv_bias=False)"));
    EXPECT_TRUE(code.contains("    output = module(x)"));
}

// Runs the generated code where PyTorch is installed and compares `output` with `trace`.
TEST(Cli, PytorchCodeReproducesTheTrace) {
    if (QProcess::execute("/usr/bin/python3", {"-c", "import torch"}) != 0)
        GTEST_SKIP() << "PyTorch is not installed here";
    const QList<QStringList> configs = {
        {"--preset", "book"},
        {"--text", "The cat sat on the mat", "--variant", "multi-head-wrapper", "--heads", "3",
         "--d-in", "5", "--d-out", "2", "--dropout", "0.3", "--batch", "2", "--mask", "window:2"},
        {"--text", "Attention is all you need", "--variant", "causal", "--d-in", "7", "--d-out",
         "3", "--qkv-bias", "--no-positions"},
    };
    for (const QStringList& args : configs) {
        const CliRun code = cli(QStringList{"pytorch"} + args);
        ASSERT_EQ(code.exitCode, 0) << code.err.toStdString();
        QProcess py;
        py.start("/usr/bin/python3", {"-"});
        py.write(code.out + "\nimport json\nprint(json.dumps(output.flatten().tolist()))\n");
        py.closeWriteChannel();
        ASSERT_TRUE(py.waitForFinished(120000));
        const QList<QByteArray> lines = py.readAllStandardOutput().trimmed().split('\n');
        const QJsonArray theirs = QJsonDocument::fromJson(lines.last()).array();
        const CliRun trace = cli(QStringList{"trace"} + args);
        const QJsonArray ours = json(trace.out)["output"].toObject()["data"].toArray();
        ASSERT_EQ(ours.size(), theirs.size()) << args.join(' ').toStdString();
        for (int i = 0; i < ours.size(); ++i)
            EXPECT_NEAR(ours[i].toDouble(), theirs[i].toDouble(), 1e-5)
                << args.join(' ').toStdString() << " " << i;
    }
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

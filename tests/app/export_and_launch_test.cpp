// Image export from the window, launch options, and the real executable with --screenshot.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>

#include "app/launch_options.h"
#include "app_test_util.h"

using namespace attn;
using attn::testing::settle;
using attn::testing::testOptions;

namespace {

QByteArray head(const QString& path, int n) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.read(n);
}

bool parse(const QStringList& args, LaunchOptions* o, QString* err) {
    return parseLaunchOptions(QStringList{QStringLiteral("attention-lens")} + args, o, err);
}

}  // namespace

TEST(Export, WritesValidPngSvgAndPdf) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QString error;

    const QString png = dir.filePath(QStringLiteral("weights.png"));
    ASSERT_TRUE(w.exportImage(png, 2.0, &error)) << error.toStdString();
    EXPECT_EQ(head(png, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    QImage img(png);
    ASSERT_FALSE(img.isNull());
    EXPECT_GT(img.width(), 200);

    const QString svg = dir.filePath(QStringLiteral("weights.svg"));
    ASSERT_TRUE(w.exportImage(svg, 1.0, &error)) << error.toStdString();
    const QByteArray svgHead = head(svg, 4096);
    EXPECT_TRUE(svgHead.contains("<svg")) << svgHead.left(200).toStdString();

    const QString pdf = dir.filePath(QStringLiteral("weights.pdf"));
    ASSERT_TRUE(w.exportImage(pdf, 1.0, &error)) << error.toStdString();
    EXPECT_EQ(head(pdf, 5), QByteArray("%PDF-"));

    // A folder that does not exist: a clear error, no crash, no file.
    const QString bad = dir.filePath(QStringLiteral("missing/dir/x.png"));
    EXPECT_FALSE(w.exportImage(bad, 1.0, &error));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_FALSE(QFile::exists(bad));
}

TEST(LaunchOptions, DefaultsAreTheBookExample) {
    LaunchOptions o;
    QString err;
    ASSERT_TRUE(parse({}, &o, &err)) << err.toStdString();
    EXPECT_FALSE(o.anyStateOption);
    EXPECT_EQ(o.state.source, InputSource::Book);
    EXPECT_EQ(o.state.config.variant, Variant::MultiHead);
    EXPECT_EQ(o.state.config.dIn, 3);
    EXPECT_EQ(o.state.config.dOut, 2);
    EXPECT_EQ(o.state.config.heads, 2);
    EXPECT_EQ(o.state.config.effectiveMask().kind, MaskKind::Causal);
    EXPECT_EQ(o.state.config.seed, 123u);
    EXPECT_EQ(o.state.step, QStringLiteral("weights"));
    EXPECT_TRUE(checkLaunchState(o).isEmpty());
}

TEST(LaunchOptions, ParsesEveryOption) {
    LaunchOptions o;
    QString err;
    ASSERT_TRUE(parse({"--text",           "The quick brown fox",
                       "--tokenizer",      "words",
                       "--variant",        "causal",
                       "--d-in",           "8",
                       "--d-out",          "4",
                       "--heads",          "2",
                       "--mask",           "window:3",
                       "--dropout",        "0.5",
                       "--mode",           "eval",
                       "--dropout-rng",    "mkl",
                       "--seed",           "7",
                       "--embedding-seed", "9",
                       "--no-positions",   "--qkv-bias",
                       "--batch",          "2",
                       "--context-length", "64",
                       "--step",           "scores",
                       "--head",           "0",
                       "--colormap",       "magma",
                       "--screenshot",     "/tmp/x.png"},
                      &o, &err))
        << err.toStdString();
    const Config& c = o.state.config;
    EXPECT_EQ(o.state.source, InputSource::Text);
    EXPECT_EQ(o.state.text, QStringLiteral("The quick brown fox"));
    EXPECT_EQ(o.state.tokenizer, TokenizerKind::Words);
    EXPECT_EQ(c.variant, Variant::Causal);
    EXPECT_EQ(c.dIn, 8);
    EXPECT_EQ(c.dOut, 4);
    EXPECT_EQ(c.effectiveMask(), (MaskSpec{MaskKind::Window, 3}));
    EXPECT_DOUBLE_EQ(c.dropout, 0.5);
    EXPECT_EQ(c.mode, Mode::Eval);
    EXPECT_EQ(c.dropoutRng, DropoutRng::Mkl);
    EXPECT_EQ(c.seed, 7u);
    EXPECT_EQ(o.state.embeddingSeed, 9u);
    EXPECT_FALSE(o.state.positions);
    EXPECT_TRUE(c.qkvBias);
    EXPECT_EQ(c.batch, 2);
    EXPECT_EQ(c.contextLength, 64);
    EXPECT_EQ(o.state.step, QStringLiteral("scores"));
    EXPECT_EQ(o.state.colormap, QStringLiteral("magma"));
    EXPECT_EQ(o.screenshot, QStringLiteral("/tmp/x.png"));
    EXPECT_TRUE(checkLaunchState(o).isEmpty()) << checkLaunchState(o).toStdString();
}

TEST(LaunchOptions, RejectsBadOptionsWithOneLine) {
    const QList<QStringList> bad = {
        {"--variant", "nope"},
        {"--mask", "diagonal"},
        {"--dropout", "1.5"},
        {"--heads", "zero"},
        {"--tokenizer", "bpe"},
        {"--colormap", "jet"},
        {"--bogus"},
        {"--preset", "book", "--text", "x"},
        {"--mode", "test"},
        {"--d-in", "5"},  // the book is 3-d
    };
    for (const QStringList& args : bad) {
        LaunchOptions o;
        QString err;
        EXPECT_FALSE(parse(args, &o, &err)) << args.join(' ').toStdString();
        EXPECT_FALSE(err.isEmpty());
        EXPECT_FALSE(err.contains('\n')) << err.toStdString();
    }
    // Parses, but the configuration cannot run.
    LaunchOptions o;
    QString err;
    ASSERT_TRUE(parse({"--heads", "3"}, &o, &err));
    const QString problem = checkLaunchState(o);
    EXPECT_TRUE(problem.contains(QStringLiteral("heads"))) << problem.toStdString();
    ASSERT_TRUE(parse({"--step", "nope"}, &o, &err));
    EXPECT_TRUE(checkLaunchState(o).contains(QStringLiteral("--step")));
}

TEST(LaunchOptions, AppliedToTheWindow) {
    LaunchOptions o;
    QString err;
    ASSERT_TRUE(parse({"--variant", "causal", "--step", "masked_scores", "--colormap", "cividis"},
                      &o, &err));
    MainWindow w(testOptions());
    w.setState(o.state);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.currentStep(), QStringLiteral("masked_scores"));
    EXPECT_EQ(w.shownResult()->trace->config.variant, Variant::Causal);
    EXPECT_EQ(w.state().colormap, QStringLiteral("cividis"));
}

namespace {

struct RunResult {
    int exitCode = -1;
    QByteArray stderrText;
};

RunResult runApp(const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ATTN_APP_EXE), args);
    RunResult r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.stderrText = p.readAllStandardError();
    return r;
}

}  // namespace

TEST(Executable, ScreenshotWritesPng) {
    QTemporaryDir dir;
    const QString shot = dir.filePath(QStringLiteral("shot.png"));
    const RunResult r = runApp({QStringLiteral("--screenshot"), shot});
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    EXPECT_EQ(head(shot, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    QImage img(shot);
    ASSERT_FALSE(img.isNull());
    EXPECT_EQ(img.width(), 1600);
    EXPECT_EQ(img.height(), 1000);
}

TEST(Executable, ScreenshotWithTextAndGpt2SmallSizes) {
    QTemporaryDir dir;
    const QString shot = dir.filePath(QStringLiteral("fox.png"));
    const RunResult r =
        runApp({"--text", "The quick brown fox jumps over the lazy dog", "--variant", "multi-head",
                "--d-in", "768", "--d-out", "768", "--heads", "12", "--screenshot", shot});
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    EXPECT_FALSE(QImage(shot).isNull());
}

TEST(Executable, BadOptionsExitTwoWithOneLine) {
    QTemporaryDir dir;
    for (const QStringList& args :
         {QStringList{"--heads", "3", "--screenshot", dir.filePath("a.png")},
          QStringList{"--variant", "nope"},
          QStringList{"--screenshot", dir.filePath("no/such/dir/a.png")}}) {
        const RunResult r = runApp(args);
        EXPECT_EQ(r.exitCode, 2) << args.join(' ').toStdString();
        const QByteArray err = r.stderrText.trimmed();
        EXPECT_FALSE(err.isEmpty());
        EXPECT_FALSE(err.contains('\n')) << err.toStdString();
    }
}

TEST(Files, LoadEmbeddingsAndWeights) {
    QTemporaryDir dir;
    const QString emb = dir.filePath(QStringLiteral("x.json"));
    {
        QFile f(emb);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9], [1.0, 1.1, 1.2]]");
    }
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QString error;
    if (!w.loadEmbeddings(emb, &error) && error.contains(QStringLiteral("cannot read files")))
        GTEST_SKIP() << "built without attn_io";
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    ASSERT_TRUE(settle(w));
    ASSERT_NE(w.shownResult(), nullptr);
    EXPECT_EQ(w.state().source, InputSource::File);
    EXPECT_EQ(w.shownResult()->trace->tokens, 4);
    EXPECT_EQ(w.shownResult()->tokenLabels, (QStringList{"0", "1", "2", "3"}));

    // Weights for SelfAttention_v2 (d_in 3 -> d_out 2) with the state_dict names.
    AppState s = w.state();
    s.config.variant = Variant::SelfAttention;
    s.config.mask = defaultMask(Variant::SelfAttention);
    w.setState(s);
    ASSERT_TRUE(settle(w));
    const QString wf = dir.filePath(QStringLiteral("w.json"));
    {
        QFile f(wf);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(
            "{\"W_query.weight\": [[1, 0, 0], [0, 1, 0]],"
            " \"W_key.weight\": [[1, 0, 0], [0, 1, 0]],"
            " \"W_value.weight\": [[0, 0, 1], [1, 0, 0]]}");
    }
    ASSERT_TRUE(w.loadWeights(wf, &error)) << error.toStdString();
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(w.shownResult()->ok());
    const Step* q = w.shownResult()->trace->find("queries");
    ASSERT_NE(q, nullptr);
    EXPECT_FLOAT_EQ(q->value.at({0, 1, 0}), 0.4f);  // x[1] @ W_query^T = (0.4, 0.5)
    EXPECT_FLOAT_EQ(q->value.at({0, 1, 1}), 0.5f);

    // Wrong shapes: a message, nothing loaded.
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    {
        QFile f(bad);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("{\"W_query.weight\": [[1, 0], [0, 1]]}");
    }
    EXPECT_FALSE(w.loadWeights(bad, &error));
    EXPECT_FALSE(error.isEmpty());
}

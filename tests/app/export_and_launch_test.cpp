// Image export from the window, launch options, and the real executable with --screenshot.
#include <gtest/gtest.h>

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>

#include "app/file_actions.h"
#include "app/heatmap_view.h"
#include "app/launch_options.h"
#include "app/session.h"
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

TEST(Export, DarkWindowShowsADarkFigureButExportsAndCopiesTheWhitePrintLook) {
    const attn::testing::ScopedAppPalette dark(attn::testing::darkPalette());
    MainWindow w(testOptions());
    w.resize(1200, 800);
    w.show();
    ASSERT_TRUE(settle(w));
    QCoreApplication::processEvents();
    // On screen: the figure is dark, like the window.
    QCustomPlot* plot = w.heatmapView()->plot();
    plot->replot();
    const QImage screen = plot->grab().toImage();
    EXPECT_EQ(QColor(screen.pixel(3, 3)), QColor(0x1e, 0x1e, 0x1e));

    const QRgb white = qRgb(255, 255, 255);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QString error;
    const QString png = dir.filePath(QStringLiteral("weights.png"));
    ASSERT_TRUE(w.exportImage(png, 1.0, &error)) << error.toStdString();
    const QImage exported(png);
    ASSERT_FALSE(exported.isNull());
    EXPECT_EQ(exported.pixel(3, 3), white);
    EXPECT_EQ(exported.pixel(exported.width() - 4, exported.height() - 4), white);
    const QString svg = dir.filePath(QStringLiteral("weights.svg"));
    ASSERT_TRUE(w.exportImage(svg, 1.0, &error)) << error.toStdString();
    QFile svgFile(svg);
    ASSERT_TRUE(svgFile.open(QIODevice::ReadOnly));
    EXPECT_FALSE(svgFile.readAll().contains("#1e1e1e"));

    QApplication::clipboard()->clear();
    w.findChild<QAction*>(QStringLiteral("actionCopyImage"))->trigger();
    const QImage copied = QApplication::clipboard()->image();
    ASSERT_FALSE(copied.isNull());
    EXPECT_EQ(copied.pixel(3, 3), white);

    // File > Export all steps: the first figure is white too.
    const QString out = dir.filePath(QStringLiteral("all"));
    const auto r = w.fileActions()->exportAllSteps(
        out, QStringLiteral("png"), [](int done, int, const QString&) { return done < 1; });
    ASSERT_EQ(r.files.size(), 1);
    const QImage first(QDir(out).filePath(QDir(out).entryList(QDir::Files).value(0)));
    ASSERT_FALSE(first.isNull());
    EXPECT_EQ(first.pixel(3, 3), white);
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

TEST(LaunchOptions, ParsesASessionFile) {
    LaunchOptions o;
    QString err;
    ASSERT_TRUE(parse({"lessons/chapter3.attnlens"}, &o, &err)) << err.toStdString();
    EXPECT_EQ(o.sessionFile, QStringLiteral("lessons/chapter3.attnlens"));
    EXPECT_FALSE(o.anyStateOption);
    EXPECT_TRUE(o.givenOptions.isEmpty());
    EXPECT_TRUE(o.screenshot.isEmpty());

    // Options around it, in any order.
    ASSERT_TRUE(
        parse({"--heads", "3", "lesson.attnlens", "--step", "scores", "--screenshot", "/tmp/s.png"},
              &o, &err))
        << err.toStdString();
    EXPECT_EQ(o.sessionFile, QStringLiteral("lesson.attnlens"));
    EXPECT_TRUE(o.anyStateOption);
    EXPECT_EQ(o.givenOptions, (QStringList{"heads", "step"}));
    EXPECT_EQ(o.state.config.heads, 3);
    EXPECT_EQ(o.screenshot, QStringLiteral("/tmp/s.png"));

    // Without a session --d-in 8 contradicts the book example; with one, the session's input
    // decides (checkLaunchState checks the result).
    EXPECT_FALSE(parse({"--d-in", "8"}, &o, &err));
    EXPECT_EQ(err, QStringLiteral(
                       "The book preset has 3-dimensional embeddings, so d_in must be 3 (got 8)."));
    ASSERT_TRUE(parse({"lesson.attnlens", "--d-in", "8"}, &o, &err)) << err.toStdString();
    EXPECT_EQ(o.state.config.dIn, 8);

    QString help;
    EXPECT_FALSE(parseLaunchOptions({"attention-lens", "--help"}, &o, &err, &help));
    EXPECT_TRUE(err.isEmpty());
    EXPECT_TRUE(help.contains(QStringLiteral("Usage: attention-lens [options] [SESSION]")))
        << help.toStdString();
    EXPECT_TRUE(help.contains(QStringLiteral("override the session's settings")))
        << help.toStdString();
}

TEST(LaunchOptions, RejectsTwoSessions) {
    LaunchOptions o;
    QString err;
    EXPECT_FALSE(parse({"a.attnlens", "--heads", "2", "b.attnlens"}, &o, &err));
    EXPECT_EQ(err, QStringLiteral("Give at most one session file (.attnlens); got 2: "
                                  "\"a.attnlens\", \"b.attnlens\"."));
}

TEST(LaunchOptions, OptionsOverrideOnlyWhatTheyGive) {
    AppState session;
    session.source = InputSource::Text;
    session.text = QStringLiteral("The cat sat on the mat");
    session.tokenizer = TokenizerKind::Words;
    session.config.variant = Variant::MultiHead;
    session.config.dIn = 16;
    session.config.dOut = 6;
    session.config.heads = 3;
    session.config.mask = MaskSpec{MaskKind::Window, 2};
    session.config.seed = 9;
    session.config.qkvBias = true;
    session.embeddingSeed = 11;
    session.step = QStringLiteral("context");
    session.head = 2;
    session.colormap = QStringLiteral("magma");

    LaunchOptions o;
    QString err;
    ASSERT_TRUE(
        parse({"s.attnlens", "--heads", "2", "--seed", "5", "--colormap", "cividis"}, &o, &err))
        << err.toStdString();
    AppState s = applyLaunchOptions(session, o);
    EXPECT_EQ(s.config.heads, 2);
    EXPECT_EQ(s.config.seed, 5u);
    EXPECT_EQ(s.colormap, QStringLiteral("cividis"));
    // Everything else is the session's, not the app's defaults.
    EXPECT_EQ(s.source, InputSource::Text);
    EXPECT_EQ(s.text, QStringLiteral("The cat sat on the mat"));
    EXPECT_EQ(s.tokenizer, TokenizerKind::Words);
    EXPECT_EQ(s.config.dIn, 16);
    EXPECT_EQ(s.config.dOut, 6);
    EXPECT_EQ(s.config.effectiveMask(), (MaskSpec{MaskKind::Window, 2}));
    EXPECT_TRUE(s.config.qkvBias);
    EXPECT_EQ(s.embeddingSeed, 11u);
    EXPECT_EQ(s.step, QStringLiteral("context"));
    EXPECT_EQ(s.head, 2);

    // A GPT-2 size keeps the session's text; a new variant brings its own mask.
    ASSERT_TRUE(parse({"s.attnlens", "--preset", "gpt2-small"}, &o, &err)) << err.toStdString();
    s = applyLaunchOptions(session, o);
    EXPECT_EQ(s.text, QStringLiteral("The cat sat on the mat"));
    EXPECT_EQ(s.config.dIn, 768);
    EXPECT_EQ(s.config.dOut, 768);
    EXPECT_EQ(s.config.heads, 12);
    EXPECT_EQ(s.config.effectiveMask().kind, MaskKind::Causal);
    ASSERT_TRUE(parse({"s.attnlens", "--variant", "self-attention"}, &o, &err));
    s = applyLaunchOptions(session, o);
    EXPECT_EQ(s.config.variant, Variant::SelfAttention);
    EXPECT_EQ(s.config.effectiveMask().kind, MaskKind::None);
    EXPECT_EQ(s.config.dOut, 6);

    // --preset book makes it the book example again; a d_in the book cannot have is refused.
    ASSERT_TRUE(parse({"s.attnlens", "--preset", "book"}, &o, &err));
    s = applyLaunchOptions(session, o);
    EXPECT_EQ(s.source, InputSource::Book);
    EXPECT_EQ(s.config.dIn, 3);
    AppState book;
    ASSERT_TRUE(parse({"s.attnlens", "--d-in", "8"}, &o, &err));
    o.state = applyLaunchOptions(book, o);
    EXPECT_EQ(
        checkLaunchState(o),
        QStringLiteral("The book preset has 3-dimensional embeddings, so d_in must be 3 (got 8)."));

    // Without a session the options apply to the defaults: the same as o.state.
    ASSERT_TRUE(parse({"--variant", "causal", "--tokenizer", "chars"}, &o, &err));
    s = applyLaunchOptions(AppState(), o);
    EXPECT_EQ(s.source, InputSource::Text);  // a tokenizer is for text
    EXPECT_EQ(s.tokenizer, TokenizerKind::Chars);
    EXPECT_EQ(s.config.variant, Variant::Causal);
    EXPECT_EQ(o.state.source, s.source);
    EXPECT_EQ(o.state.config.variant, s.config.variant);
}

namespace {

struct RunResult {
    int exitCode = -1;
    QByteArray stderrText;
};

// Runs the app with its settings in `configDir` (a temporary one when empty), never the user's.
RunResult runApp(const QStringList& args, const QString& configDir = QString()) {
    QTemporaryDir ownConfig;
    QTemporaryDir runtimeDir;  // as a desktop session has; without it Qt warns on stderr
    QFile::setPermissions(runtimeDir.path(),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtimeDir.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"),
               configDir.isEmpty() ? ownConfig.path() : configDir);
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

TEST(Executable, OptionsBeyondTheControlsLimitsAreRefusedNotChanged) {
    QTemporaryDir dir;
    const QString shot = dir.filePath(QStringLiteral("a.png"));
    RunResult r = runApp({"--batch", "100", "--screenshot", shot});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.stderrText.trimmed(),
              QByteArray("attention-lens: --batch 100 is more than the app's control allows: it "
                         "would become 64."));
    EXPECT_FALSE(QFile::exists(shot));
    r = runApp({"--dropout", "0.125", "--screenshot", shot});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.stderrText.trimmed(),
              QByteArray("attention-lens: --dropout 0.125: the app sets dropout in steps of 0.01 "
                         "up to 0.99, so it would become 0.13."));
}

TEST(LaunchOptions, DescribesTheFirstSettingTheControlsChanged) {
    AppState wanted;
    AppState shown = wanted;
    EXPECT_EQ(describeAdjustedSetting(wanted, shown), QString());
    wanted.config.dIn = 9000;
    shown.config.dIn = 8192;
    EXPECT_EQ(describeAdjustedSetting(wanted, shown),
              QStringLiteral("--d-in 9000 is more than the app's control allows: it would become "
                             "8192."));
    shown.config.dIn = 9000;
    wanted.config.mask = MaskSpec{MaskKind::Window, 70000};
    shown.config.mask = MaskSpec{MaskKind::Window, 65536};
    EXPECT_EQ(describeAdjustedSetting(wanted, shown),
              QStringLiteral("--mask window:70000 is more than the app's control allows: it would "
                             "become window:65536."));
}

namespace {

// The window's screenshot without its status bar, whose timings differ from run to run.
QImage aboveStatusBar(const QString& png) {
    const QImage img(png);
    return img.isNull() ? img : img.copy(0, 0, img.width(), img.height() - 80);
}

}  // namespace

TEST(Executable, ScreenshotOfASessionShowsTheSessionsView) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    Session session;
    session.state.source = InputSource::Text;
    session.state.text = QStringLiteral("The cat sat on the mat");
    session.state.config.variant = Variant::Causal;
    session.state.config.dIn = 4;
    session.state.config.dOut = 4;
    session.state.config.mask = MaskSpec{MaskKind::Window, 2};
    session.state.config.seed = 7;
    session.state.step = QStringLiteral("masked_scores");
    session.state.colormap = QStringLiteral("magma");
    const QString path = dir.filePath(QStringLiteral("lesson.attnlens"));
    writeSession(path, session);

    const QString fromSession = dir.filePath(QStringLiteral("session.png"));
    const QString config = dir.filePath(QStringLiteral("config"));
    RunResult r = runApp({path, QStringLiteral("--screenshot"), fromSession}, config);
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    EXPECT_EQ(head(fromSession, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    const QImage shot = aboveStatusBar(fromSession);
    ASSERT_FALSE(shot.isNull());
    EXPECT_EQ(QImage(fromSession).size(), QSize(1600, 1000));

    // The same view given as options draws the same window; the book example does not.
    const QString fromOptions = dir.filePath(QStringLiteral("options.png"));
    r = runApp({"--text", "The cat sat on the mat", "--variant", "causal", "--d-in", "4", "--d-out",
                "4", "--mask", "window:2", "--seed", "7", "--step", "masked_scores", "--colormap",
                "magma", "--screenshot", fromOptions});
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    EXPECT_TRUE(shot == aboveStatusBar(fromOptions));
    const QString book = dir.filePath(QStringLiteral("book.png"));
    r = runApp({"--screenshot", book});
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    EXPECT_FALSE(shot == aboveStatusBar(book));

    // Options override the session: only the seed changes here.
    const QString overridden = dir.filePath(QStringLiteral("seed8.png"));
    r = runApp({path, "--seed", "8", "--screenshot", overridden}, config);
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    const QString seed8 = dir.filePath(QStringLiteral("options8.png"));
    r = runApp({"--text", "The cat sat on the mat", "--variant", "causal", "--d-in", "4", "--d-out",
                "4", "--mask", "window:2", "--seed", "8", "--step", "masked_scores", "--colormap",
                "magma", "--screenshot", seed8});
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    EXPECT_TRUE(aboveStatusBar(overridden) == aboveStatusBar(seed8));
    EXPECT_FALSE(aboveStatusBar(overridden) == shot);

    // A screenshot leaves the settings alone: the session is not added to the recent list.
    QDirIterator it(config, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        EXPECT_FALSE(head(file, 1 << 20).contains("lesson.attnlens")) << file.toStdString();
    }

    // Options that cannot run with the session's settings: one line, exit 2, no file.
    const QString bad = dir.filePath(QStringLiteral("bad.png"));
    r = runApp({path, "--variant", "multi-head", "--heads", "3", "--screenshot", bad}, config);
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.stderrText.trimmed(),
              QByteArray("attention-lens: heads: d_out = 4 is not divisible by 3 heads, so the "
                         "heads cannot share it equally. Valid head counts for d_out = 4: 1, 2, "
                         "4."));
    EXPECT_FALSE(QFile::exists(bad));
}

TEST(Executable, MissingOrCorruptSessionExitsTwoNamingTheFile) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString corrupt = dir.filePath(QStringLiteral("broken.attnlens"));
    {
        QFile f(corrupt);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"attention-lens-session\", \"version\": ");
    }
    const QString shot = dir.filePath(QStringLiteral("shot.png"));
    RunResult r = runApp({corrupt, "--screenshot", shot});
    EXPECT_EQ(r.exitCode, 2);
    QByteArray err = r.stderrText.trimmed();
    EXPECT_FALSE(err.contains('\n')) << err.toStdString();
    EXPECT_TRUE(
        err.startsWith("attention-lens: broken.attnlens: not a valid Attention Lens "
                       "session ("))
        << err.toStdString();
    EXPECT_FALSE(QFile::exists(shot));

    // Without --screenshot too: no window opens, the process ends at once.
    r = runApp({corrupt});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.stderrText.trimmed().startsWith("attention-lens: broken.attnlens: "))
        << r.stderrText.toStdString();

    const QString missing = dir.filePath(QStringLiteral("missing.attnlens"));
    r = runApp({missing});
    EXPECT_EQ(r.exitCode, 2);
    err = r.stderrText.trimmed();
    EXPECT_FALSE(err.contains('\n')) << err.toStdString();
    EXPECT_TRUE(err.startsWith("attention-lens: Cannot open " + missing.toLocal8Bit() + ": "))
        << err.toStdString();

    r = runApp({missing, corrupt});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.stderrText.trimmed(),
              "attention-lens: Give at most one session file (.attnlens); got 2: \"" +
                  missing.toLocal8Bit() + "\", \"" + corrupt.toLocal8Bit() + "\".");
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

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
#include <QLabel>
#include <QProcess>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QUndoStack>

#include "app/export_actions.h"
#include "app/launch.h"
#include "app/session.h"
#include "app/session_actions.h"
#include "app/step_view.h"
#include "app_test_util.h"
#include "engine/decoder_model.h"
#include "export/heatmap_view.h"
#include "io/safetensors.h"
#include "teach/lesson.h"

using namespace attn;
using attn::testing::change;
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

// The settings the options give over `base`, and the problem with them ("" when none).
Settings launched(const QStringList& args, const Settings& base = Settings(),
                  QString* problem = nullptr) {
    LaunchOptions o;
    QString err;
    EXPECT_TRUE(parse(args, &o, &err)) << err.toStdString();
    const WorkspaceState state = launchState({base, {}}, o, &err);
    if (problem)
        *problem = err;
    else
        EXPECT_TRUE(err.isEmpty()) << err.toStdString();
    return state.settings;
}

bool exportImage(MainWindow& w, const QString& path, double scale, QString* error) {
    FigureOptions o = w.exports()->figureOptions();
    o.scale = scale;
    return w.exports()->exportImage(path, o, error);
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
    ASSERT_TRUE(exportImage(w, png, 2.0, &error)) << error.toStdString();
    EXPECT_EQ(head(png, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    QImage img(png);
    ASSERT_FALSE(img.isNull());
    EXPECT_GT(img.width(), 200);

    const QString svg = dir.filePath(QStringLiteral("weights.svg"));
    ASSERT_TRUE(exportImage(w, svg, 1.0, &error)) << error.toStdString();
    const QByteArray svgHead = head(svg, 4096);
    EXPECT_TRUE(svgHead.contains("<svg")) << svgHead.left(200).toStdString();

    const QString pdf = dir.filePath(QStringLiteral("weights.pdf"));
    ASSERT_TRUE(exportImage(w, pdf, 1.0, &error)) << error.toStdString();
    EXPECT_EQ(head(pdf, 5), QByteArray("%PDF-"));

    // A folder that does not exist: a clear error, no crash, no file.
    const QString bad = dir.filePath(QStringLiteral("missing/dir/x.png"));
    EXPECT_FALSE(exportImage(w, bad, 1.0, &error));
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
    QCustomPlot* plot = w.stepView()->heatmap()->plot();
    plot->replot();
    const QImage screen = plot->grab().toImage();
    EXPECT_EQ(QColor(screen.pixel(3, 3)), QColor(0x1e, 0x1e, 0x1e));

    const QRgb white = qRgb(255, 255, 255);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QString error;
    const QString png = dir.filePath(QStringLiteral("weights.png"));
    ASSERT_TRUE(exportImage(w, png, 1.0, &error)) << error.toStdString();
    const QImage exported(png);
    ASSERT_FALSE(exported.isNull());
    EXPECT_EQ(exported.pixel(3, 3), white);
    EXPECT_EQ(exported.pixel(exported.width() - 4, exported.height() - 4), white);
    const QString svg = dir.filePath(QStringLiteral("weights.svg"));
    ASSERT_TRUE(exportImage(w, svg, 1.0, &error)) << error.toStdString();
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
    const auto r = w.exports()->exportAllSteps(
        out, QStringLiteral("png"), false, [](int done, int, const QString&) { return done < 1; });
    ASSERT_EQ(r.files.size(), 1);
    const QImage first(QDir(out).filePath(QDir(out).entryList(QDir::Files).value(0)));
    ASSERT_FALSE(first.isNull());
    EXPECT_EQ(first.pixel(3, 3), white);
}

TEST(LaunchOptions, DefaultsAreTheBookExample) {
    LaunchOptions o;
    QString err;
    ASSERT_TRUE(parse({}, &o, &err)) << err.toStdString();
    EXPECT_FALSE(o.anySetting());
    EXPECT_EQ(launched({}), Settings());
}

TEST(LaunchOptions, TakesEveryOptionOfTheCli) {
    const Settings s = launched({"--text",           "The quick brown fox",
                                 "--tokenizer",      "words",
                                 "--variant",        "causal",
                                 "--d-in",           "8",
                                 "--d-out",          "4",
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
                                 "--colormap",       "magma",
                                 "--color-scale",    "row",
                                 "--no-values"});
    const Config& c = s.config;
    EXPECT_EQ(s.source, InputSource::Text);
    EXPECT_EQ(s.text, QStringLiteral("The quick brown fox"));
    EXPECT_EQ(s.tokenizer, TokenizerKind::Words);
    EXPECT_EQ(c.variant, Variant::Causal);
    EXPECT_EQ(c.dIn, 8);
    EXPECT_EQ(c.dOut, 4);
    EXPECT_EQ(c.effectiveMask(), (MaskSpec{MaskKind::Window, 3}));
    EXPECT_DOUBLE_EQ(c.dropout, 0.5);
    EXPECT_EQ(c.mode, Mode::Eval);
    EXPECT_EQ(c.dropoutRng, DropoutRng::Mkl);
    EXPECT_EQ(c.seed, 7u);
    EXPECT_EQ(s.embeddingSeed, 9u);
    EXPECT_FALSE(s.positions);
    EXPECT_TRUE(c.qkvBias);
    EXPECT_EQ(c.batch, 2);
    EXPECT_EQ(c.contextLength, 64);
    EXPECT_EQ(s.step, QStringLiteral("scores"));
    EXPECT_EQ(s.colormap, QStringLiteral("magma"));
    EXPECT_EQ(s.colorScale, ColorScale::Row);
    EXPECT_FALSE(s.showValues);
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
        {"--batch", "0"},
    };
    for (const QStringList& args : bad) {
        LaunchOptions o;
        QString err;
        EXPECT_FALSE(parse(args, &o, &err)) << args.join(' ').toStdString();
        EXPECT_FALSE(err.isEmpty());
        EXPECT_FALSE(err.contains('\n')) << err.toStdString();
    }
    // They parse, but what they describe cannot run: said as the CLI says it.
    QString problem;
    launched({"--heads", "3"}, Settings(), &problem);
    EXPECT_EQ(problem, QStringLiteral("d_out = 2 is not divisible by 3 heads, so the heads cannot "
                                      "share it equally. Valid head counts for d_out = 2: 1, 2."));
    launched({"--d-in", "5"}, Settings(), &problem);
    EXPECT_EQ(problem, QStringLiteral("The book's input vectors are 3-dimensional, so d_in must be "
                                      "3 (it is 5)."));
    launched({"--step", "nope"}, Settings(), &problem);
    EXPECT_TRUE(problem.startsWith(
        QStringLiteral("This configuration has no step \"nope\"; its steps are inputs, queries")))
        << problem.toStdString();
    launched({"--step", "weights", "--head", "2"}, Settings(), &problem);
    EXPECT_EQ(problem, QStringLiteral("--head 2 is out of range: \"weights\" has 2 heads."));
    QString why;
    LaunchOptions lesson;
    EXPECT_FALSE(parseLaunchOptions({"attention-lens", "--lesson", "chapter4"}, &lesson, &why));
    EXPECT_EQ(why,
              QStringLiteral(
                  "--lesson expects chapter3, trained-model, after-chapter3, why or copies, got "
                  "\"chapter4\"."));
    ASSERT_TRUE(parseLaunchOptions({"attention-lens", "--lesson", "trained-model"}, &lesson, &why));
    EXPECT_EQ(lesson.lesson, QStringLiteral("trained-model"));
    ASSERT_TRUE(parseLaunchOptions({"attention-lens", "--lesson", "copies"}, &lesson, &why));
    EXPECT_EQ(lessonNamed(lesson.lesson), LessonKind::Copies);
    // A model that is neither a file nor a bundled model: one line, before any window.
    launched({"--model", "no-such-model", "--text", "hi"}, Settings(), &problem);
    EXPECT_TRUE(problem.startsWith(QStringLiteral("No model file or folder no-such-model")))
        << problem.toStdString();
}

// A trained model's heads are its own, not the chapter-3 module's 2: they are checked once the
// model has been read, with the layers.
TEST(LaunchOptions, ATrainedModelsLayersAndHeadsAreCheckedAgainstTheModel) {
    QString problem;
    const Settings s =
        launched({"--model", "tiny-shakespeare", "--text", "hi", "--head", "3", "--layer", "9"},
                 Settings(), &problem);
    EXPECT_TRUE(problem.isEmpty()) << problem.toStdString();
    EXPECT_EQ(s.head, 3);
    EXPECT_EQ(s.layer, 9);
    DecoderArchitecture arch;
    arch.layers = 4;
    arch.heads = 4;
    EXPECT_EQ(launchModelMismatch(arch, 3, 3), QString());
    EXPECT_EQ(launchModelMismatch(arch, -1, -1), QString());
    EXPECT_EQ(
        launchModelMismatch(arch, 4, -1),
        QStringLiteral("--layer 4: the model has 4 layers (0 to 3); layer 4 does not exist."));
    EXPECT_EQ(launchModelMismatch(arch, 0, 7),
              QStringLiteral("--head 7: the model has 4 heads (0 to 3); head 7 does not exist."));
    // The steps too are the model's: a Llama layer has RoPE's and its key/value groups', which a
    // GPT-2 layer has not (before, the launch checked every model against GPT-2's steps).
    EXPECT_TRUE(
        launched({"--model", "tiny-shakespeare-llama", "--text", "hi", "--step", "keys_repeated"},
                 Settings(), &problem)
            .modelMode());
    EXPECT_TRUE(problem.isEmpty()) << problem.toStdString();
    DecoderArchitecture llama = arch;
    llama.family = Family::Llama;
    llama.kvHeads = 2;
    llama.rope = true;
    llama.dModel = 128;
    EXPECT_EQ(launchModelMismatch(llama, 0, 0, QStringLiteral("keys_repeated")), QString());
    arch.dModel = 128;
    EXPECT_TRUE(
        launchModelMismatch(arch, 0, 0, QStringLiteral("keys_repeated"))
            .startsWith(QStringLiteral("This configuration has no step \"keys_repeated\"")));
}

TEST(LaunchOptions, ValuesAreKeptExactlyNothingIsAdjusted) {
    // Batch 100, a dropout rate of 0.125 and 64-bit seeds: the controls hold them as given.
    const Settings s =
        launched({"--batch", "100", "--dropout", "0.125", "--seed", "18446744073709551615"});
    EXPECT_EQ(s.config.batch, 100);
    EXPECT_EQ(s.config.dropout, 0.125);
    EXPECT_EQ(s.config.seed, 18446744073709551615ull);
    MainWindow w(testOptions());
    w.workspace()->reset({s, {}});
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings(), s);
    EXPECT_EQ(w.workspace()->shownRun()->trace->config.batch, 100);
}

TEST(LaunchOptions, ParsesASessionFileAndHelp) {
    LaunchOptions o;
    QString err;
    ASSERT_TRUE(parse({"lessons/chapter3.attnlens"}, &o, &err)) << err.toStdString();
    EXPECT_EQ(o.sessionFile, QStringLiteral("lessons/chapter3.attnlens"));
    EXPECT_FALSE(o.anySetting());
    EXPECT_TRUE(o.screenshot.isEmpty());

    ASSERT_TRUE(
        parse({"--heads", "3", "lesson.attnlens", "--step", "scores", "--screenshot", "/tmp/s.png"},
              &o, &err))
        << err.toStdString();
    EXPECT_EQ(o.sessionFile, QStringLiteral("lesson.attnlens"));
    EXPECT_EQ(o.given.keys(), (QStringList{"heads", "step"}));
    EXPECT_EQ(o.screenshot, QStringLiteral("/tmp/s.png"));

    QString help;
    EXPECT_FALSE(parseLaunchOptions({"attention-lens", "--help"}, &o, &err, &help));
    EXPECT_TRUE(err.isEmpty());
    EXPECT_TRUE(help.contains(QStringLiteral("Usage: attention-lens [options] [SESSION]")))
        << help.toStdString();
    EXPECT_TRUE(help.contains(QStringLiteral("--color-scale <scale>"))) << help.toStdString();
    EXPECT_TRUE(help.contains(QStringLiteral("override the session's settings")));
}

TEST(LaunchOptions, RejectsTwoSessions) {
    LaunchOptions o;
    QString err;
    EXPECT_FALSE(parse({"a.attnlens", "--heads", "2", "b.attnlens"}, &o, &err));
    EXPECT_EQ(err, QStringLiteral("Give at most one session file (.attnlens); got 2: "
                                  "\"a.attnlens\", \"b.attnlens\"."));
}

TEST(LaunchOptions, OptionsOverrideOnlyWhatTheyGive) {
    Settings session;
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

    Settings s =
        launched({"s.attnlens", "--heads", "2", "--seed", "5", "--colormap", "cividis"}, session);
    EXPECT_EQ(s.config.heads, 2);
    EXPECT_EQ(s.config.seed, 5u);
    EXPECT_EQ(s.colormap, QStringLiteral("cividis"));
    Settings rest = s;  // everything else is the session's, not the app's defaults
    rest.config.heads = 3;
    rest.config.seed = 9;
    rest.colormap = QStringLiteral("magma");
    EXPECT_EQ(rest, session);

    // A GPT-2 size keeps the session's text; a new variant brings its own mask.
    s = launched({"s.attnlens", "--preset", "gpt2-small"}, session);
    EXPECT_EQ(s.text, QStringLiteral("The cat sat on the mat"));
    EXPECT_EQ(s.config.dIn, 768);
    EXPECT_EQ(s.config.heads, 12);
    EXPECT_EQ(s.config.effectiveMask().kind, MaskKind::Causal);
    s = launched({"s.attnlens", "--variant", "self-attention"}, session);
    EXPECT_EQ(s.config.variant, Variant::SelfAttention);
    EXPECT_EQ(s.config.effectiveMask().kind, MaskKind::None);
    EXPECT_EQ(s.config.dOut, 6);

    // --preset book makes it the book example again.
    s = launched({"s.attnlens", "--preset", "book"}, session);
    EXPECT_EQ(s.source, InputSource::Book);
    EXPECT_EQ(s.config.dIn, 3);
}

namespace {

struct RunResult {
    int exitCode = -1;
    QByteArray stderrText;
};

// Runs the app with its settings in `configDir` (a temporary one when empty), never the user's,
// on an offscreen screen of `screen` logical pixels (800 x 600 when empty), each `dpr` device
// pixels a side (the platform's scale, as a 4K screen at 200 % gives).
RunResult runApp(const QStringList& args, const QString& configDir = QString(),
                 const QSize& screen = QSize(), double dpr = 1.0) {
    QTemporaryDir ownConfig;
    QTemporaryDir screenDir;
    QTemporaryDir runtimeDir;  // as a desktop session has; without it Qt warns on stderr
    QFile::setPermissions(runtimeDir.path(),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    if (screen.isValid()) {
        // The offscreen platform's screen as a configuration file describes it.
        const QString config = screenDir.filePath(QStringLiteral("screen.json"));
        QFile f(config);
        if (f.open(QIODevice::WriteOnly))
            f.write(QStringLiteral("{\"screens\": [{\"name\": \"S\", \"x\": 0, \"y\": 0, "
                                   "\"width\": %1, \"height\": %2, \"logicalDpi\": 96, "
                                   "\"logicalBaseDpi\": 96, \"dpr\": %3}]}")
                        .arg(screen.width())
                        .arg(screen.height())
                        .arg(dpr)
                        .toUtf8());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"),
                   QStringLiteral("offscreen:configfile=") + config);
    }
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

TEST(Executable, ScreenshotIsTheWindowAsItOpensOnThisScreen) {
    QTemporaryDir dir;
    // Classroom projectors and laptops: the window opens inside the screen and fills most of it.
    for (const QSize screen : {QSize(1280, 720), QSize(1366, 768), QSize(1920, 1080)}) {
        SCOPED_TRACE(screen.width());
        const QString shot = dir.filePath(QStringLiteral("shot%1.png").arg(screen.width()));
        const RunResult r = runApp({QStringLiteral("--screenshot"), shot}, QString(), screen);
        ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
        EXPECT_EQ(head(shot, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
        const QImage img(shot);
        ASSERT_FALSE(img.isNull());
        EXPECT_LE(img.width(), screen.width());
        EXPECT_LE(img.height(), screen.height());
        EXPECT_GE(img.width(), screen.width() * 85 / 100);
        EXPECT_GE(img.height(), screen.height() * 85 / 100);
    }
    // A 4K screen at twice the scale: the logical size is 1920 x 1080, the image twice that.
    const QString hidpi = dir.filePath(QStringLiteral("hidpi.png"));
    const RunResult r =
        runApp({QStringLiteral("--screenshot"), hidpi}, QString(), QSize(1920, 1080), 2.0);
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    const QImage img(hidpi);
    EXPECT_LE(img.width(), 3840);
    EXPECT_GE(img.width(), 3840 * 85 / 100);
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

// --layer and --head of a trained model: the model's own four heads open; a layer it lacks ends
// the program with one line once the model is read, instead of showing another layer.
TEST(Executable, ATrainedModelOpensOnItsOwnHeadsAndRefusesALayerItLacks) {
    QTemporaryDir dir;
    const QString shot = dir.filePath(QStringLiteral("head3.png"));
    const RunResult ok = runApp({"--model", "tiny-shakespeare", "--text", "To be or not to be",
                                 "--layer", "1", "--head", "3", "--screenshot", shot});
    ASSERT_EQ(ok.exitCode, 0) << ok.stderrText.toStdString();
    EXPECT_FALSE(QImage(shot).isNull());
    const RunResult bad = runApp({"--model", "tiny-shakespeare", "--text", "To be", "--layer", "4",
                                  "--screenshot", dir.filePath(QStringLiteral("layer4.png"))});
    EXPECT_EQ(bad.exitCode, 2);
    // The last line but the offscreen platform's warnings, which may come before or, on a busy
    // machine, after it (the window is up by then).
    QList<QByteArray> lines = bad.stderrText.trimmed().split('\n');
    lines.removeIf(
        [](const QByteArray& l) { return l.startsWith("This plugin does not support"); });
    ASSERT_FALSE(lines.isEmpty());
    EXPECT_EQ(lines.last(),
              QByteArray("attention-lens: --layer 4: the model has 4 layers (0 to 3); layer 4 does "
                         "not exist."));
    EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("layer4.png"))));
}

// A screenshot that cannot be taken says why, as the window does next to the text: here a
// GPT-2 id beyond the vocabulary of a folder without tokenizer.json, not "the configuration
// could not be computed".
TEST(Executable, AScreenshotThatCannotBeTakenSaysWhy) {
    QTemporaryDir dir;
    const RunResult bad =
        runApp({"--model", QStringLiteral(ATTN_FIXTURES_DIR "/families/llama"), "--text",
                "The animal", "--screenshot", dir.filePath(QStringLiteral("shot.png"))});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.stderrText.contains(
        "is beyond the model's vocabulary of 300 tokens. GPT-2's tokenizer cut the text"))
        << bad.stderrText.toStdString();
    EXPECT_FALSE(bad.stderrText.contains("could not be computed"));
}

// A text file far beyond a model's context: the launch does not tokenize it on the way to the
// window, and the worker refuses it from its beginning.
TEST(Executable, ATextFarBeyondTheModelsContextIsRefusedFromItsBeginning) {
    QTemporaryDir dir;
    QFile text(dir.filePath(QStringLiteral("long.txt")));
    ASSERT_TRUE(text.open(QIODevice::WriteOnly));
    for (int i = 0; i < 200000; ++i)
        text.write("the animal did not cross the street because it was too tired\n");
    text.close();
    const RunResult bad =
        runApp({"--model", QStringLiteral(ATTN_FIXTURES_DIR "/families/qwen3"), "--text-file",
                text.fileName(), "--screenshot", dir.filePath(QStringLiteral("shot.png"))});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.stderrText.contains(
        "The text is too long for the context length of 64 tokens: its first 4.1 kB alone make"))
        << bad.stderrText.toStdString();
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
    session.settings.source = InputSource::Text;
    session.settings.text = QStringLiteral("The cat sat on the mat");
    session.settings.config.variant = Variant::Causal;
    session.settings.config.dIn = 4;
    session.settings.config.dOut = 4;
    session.settings.config.mask = MaskSpec{MaskKind::Window, 2};
    session.settings.config.seed = 7;
    session.settings.step = QStringLiteral("masked_scores");
    session.settings.colormap = QStringLiteral("magma");
    const QString path = dir.filePath(QStringLiteral("lesson.attnlens"));
    writeSession(path, session);

    const QString fromSession = dir.filePath(QStringLiteral("session.png"));
    const QString config = dir.filePath(QStringLiteral("config"));
    RunResult r = runApp({path, QStringLiteral("--screenshot"), fromSession}, config);
    ASSERT_EQ(r.exitCode, 0) << r.stderrText.toStdString();
    EXPECT_EQ(head(fromSession, 8), QByteArray("\x89PNG\r\n\x1a\n", 8));
    const QImage shot = aboveStatusBar(fromSession);
    ASSERT_FALSE(shot.isNull());

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
              QByteArray("attention-lens: d_out = 4 is not divisible by 3 heads, so the heads "
                         "cannot share it equally. Valid head counts for d_out = 4: 1, 2, 4."));
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
    Workspace* ws = w.workspace();
    QString error;
    ASSERT_TRUE(ws->openEmbeddings(emb, &error)) << error.toStdString();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(ws->settings().source, InputSource::File);
    EXPECT_EQ(ws->shownRun()->trace->tokens, 4);
    EXPECT_EQ(ws->shownRun()->input.labels, (std::vector<std::string>{"0", "1", "2", "3"}));

    // Weights for SelfAttention_v2 (d_in 3 -> d_out 2) with the state_dict names.
    change(w, [](Settings& s) {
        s.config.variant = Variant::SelfAttention;
        s.config.mask = defaultMask(Variant::SelfAttention);
    });
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
    ASSERT_TRUE(ws->openWeights(wf, &error)) << error.toStdString();
    ASSERT_TRUE(settle(w));
    const Step* q = ws->shownRun()->trace->find("queries");
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
    EXPECT_FALSE(ws->openWeights(bad, &error));
    EXPECT_TRUE(error.startsWith(QStringLiteral("bad.json: "))) << error.toStdString();
    EXPECT_EQ(ws->settings().weightsFile, wf);

    // Forget them: typed text and drawn weights again, undoably.
    w.findChild<QAction*>(QStringLiteral("actionForgetFiles"))->trigger();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(ws->settings().source, InputSource::Text);
    EXPECT_TRUE(ws->settings().weightsFile.isEmpty());
    EXPECT_FALSE(w.findChild<QAction*>(QStringLiteral("actionForgetFiles"))->isEnabled());
    ws->undoStack()->undo();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(ws->settings().source, InputSource::File);
    EXPECT_EQ(ws->shownRun()->trace->tokens, 4);
}

TEST(Files, AChapterStateDictSetsTheContextLengthWithANote) {
    QTemporaryDir dir;
    MainWindow w(testOptions());
    w.show();
    change(w, [](Settings& s) {
        s.config.variant = Variant::Causal;
        s.config.mask = defaultMask(Variant::Causal);
    });
    ASSERT_TRUE(settle(w));
    // CausalAttention(3, 2, context_length=6).state_dict(): the weights and the 6 x 6 mask.
    WeightMap sd = w.workspace()->shownRun()->trace->parameters;
    std::vector<float> mask(36, 0.0f);
    for (int i = 0; i < 6; ++i)
        for (int j = i + 1; j < 6; ++j)
            mask[size_t(i * 6 + j)] = 1.0f;
    sd["mask"] = Tensor(Shape{6, 6}, mask);
    const QString path = dir.filePath(QStringLiteral("causal.safetensors"));
    io::writeSafetensors(path.toStdString(), sd);
    QString error;
    ASSERT_TRUE(w.workspace()->openWeights(path, &error)) << error.toStdString();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().config.contextLength, 6);
    EXPECT_EQ(w.findChild<QSpinBox*>("context_lengthSpin")->value(), 6);
    auto* notes = w.findChild<QLabel*>("fileNotes");
    ASSERT_NE(notes, nullptr);
    EXPECT_TRUE(notes->isVisible());
    EXPECT_EQ(notes->text(),
              QStringLiteral("The context length is 6, the size of the mask buffer in "
                             "causal.safetensors."));
}

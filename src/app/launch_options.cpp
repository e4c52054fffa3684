#include "app/launch_options.h"

#include <QCommandLineParser>
#include <cstdint>

#include "cli/run_options.h"
#include "engine/embeddings.h"
#include "engine/trace.h"
#include "export/heatmap_data.h"

namespace attn {

namespace {

// The options that set what the window shows; any of them means "do not restore the last
// settings". --screenshot and SESSION are not among them.
const QStringList& stateOptionNames() {
    static const QStringList names = {
        "preset",  "text",           "text-file", "embeddings",     "weights",      "tokenizer",
        "variant", "d-in",           "d-out",     "heads",          "mask",         "dropout",
        "mode",    "dropout-rng",    "seed",      "embedding-seed", "no-positions", "qkv-bias",
        "batch",   "context-length", "step",      "head",           "colormap"};
    return names;
}

// The whole state a RunSpec describes (every field, given or not). applyLaunchOptions then
// takes from it only what the options gave.
AppState stateFromRunSpec(const RunSpec& spec) {
    AppState s;
    switch (spec.input.kind) {
        case InputKind::BookPreset:
            s.source = InputSource::Book;
            break;
        case InputKind::Text:
            s.source = InputSource::Text;
            s.text = QString::fromStdString(spec.input.text);
            break;
        case InputKind::Embeddings:
            s.source = InputSource::File;
            break;
    }
    s.tokenizer = spec.input.tokenizer;
    s.embeddingSeed = spec.input.embeddingSeed;
    s.positions = spec.input.positions;
    s.config = spec.config;
    return s;
}

// The seed boxes of the window hold 0 .. 2^31-1; say so instead of silently clamping (the CLI
// also takes negative and 64-bit seeds).
QString checkSeed(const QCommandLineParser& p, const char* name, uint64_t seed) {
    if (!p.isSet(QString::fromLatin1(name)) || seed <= uint64_t(INT32_MAX))
        return QString();
    return QStringLiteral(
               "--%1 expects a whole number from 0 to 2147483647 in the app, got \"%2\".")
        .arg(QString::fromLatin1(name), p.value(QString::fromLatin1(name)).trimmed());
}

}  // namespace

bool parseLaunchOptions(const QStringList& arguments, LaunchOptions* out, QString* error,
                        QString* helpText) {
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral(
        "Attention Lens: see transformer attention step by step.\n"
        "SESSION opens a saved session (.attnlens); input, model and view options given with it\n"
        "override the session's settings."));
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    p.addOption(help);
    addRunOptions(p);
    auto opt = [&](const char* name, const char* desc, const char* value) {
        QCommandLineOption o(QString::fromLatin1(name), QString::fromLatin1(desc));
        o.setValueName(QString::fromLatin1(value));
        p.addOption(o);
    };
    opt("step", "Step to show first, e.g. weights.", "id");
    opt("head", "Head to show first.", "h");
    opt("colormap", "auto, viridis, magma, cividis or diverging.", "name");
    opt("screenshot", "Save a screenshot of the window to the file (PNG) and exit.", "file");
    p.addPositionalArgument(
        QStringLiteral("SESSION"),
        QStringLiteral("A saved session (.attnlens) to open. Options given with it override its "
                       "settings."),
        QStringLiteral("[SESSION]"));

    if (!p.parse(arguments)) {
        *error = p.errorText();
        return false;
    }
    if (p.isSet(help)) {
        if (helpText) {
            // Qt names the program "<executable_name>" before QApplication exists, and by its
            // path after: "Usage: attention-lens [options] [SESSION]" either way.
            *helpText = p.helpText();
            const QString usage = QStringLiteral("Usage: ");
            const qsizetype end = helpText->indexOf(QStringLiteral(" [options]"));
            if (helpText->startsWith(usage) && end > usage.size())
                helpText->replace(usage.size(), end - usage.size(),
                                  QStringLiteral("attention-lens"));
        }
        *error = QString();
        return false;
    }
    auto fail = [&](const QString& msg) {
        *error = msg;
        return false;
    };
    const QStringList positional = p.positionalArguments();
    if (positional.size() > 1)
        return fail(QStringLiteral("Give at most one session file (.attnlens); got %1: \"%2\".")
                        .arg(positional.size())
                        .arg(positional.join(QStringLiteral("\", \""))));

    LaunchOptions o;
    o.sessionFile = positional.value(0);
    for (const QString& name : stateOptionNames())
        if (p.isSet(name))
            o.givenOptions << name;
    o.anyStateOption = !o.givenOptions.isEmpty();

    // Without an input option the app's input is the book example, unless a session brings its
    // own or --tokenizer asks for the typed text (see applyLaunchOptions).
    const bool bookIsDefault =
        o.sessionFile.isEmpty() && !(p.isSet("tokenizer") && !p.isSet("preset"));
    RunSpec spec;
    try {
        spec = parseRunOptions(p, bookIsDefault);
    } catch (const EngineError& e) {
        return fail(QString::fromStdString(e.what()));
    }
    // Problems of one option on its own (a size below 1, a dropout rate of 1, a window of 0)
    // are reported now; those of a combination (heads not dividing d_out, too many tokens)
    // by checkLaunchState, once a session may have supplied the rest.
    Config alone = spec.config;
    if (alone.heads >= 1)
        alone.heads = 1;  // divides every d_out
    for (const ValidationIssue& issue : validate(alone, 1))
        if (issue.field != "memory" && issue.field != "input")
            return fail(QString::fromStdString(issue.message));
    for (const QString& problem : {checkSeed(p, "seed", spec.config.seed),
                                   checkSeed(p, "embedding-seed", spec.input.embeddingSeed)})
        if (!problem.isEmpty())
            return fail(problem);

    AppState full = stateFromRunSpec(spec);
    if (spec.input.kind == InputKind::Embeddings)
        o.embeddingsFile = QString::fromStdString(spec.input.embeddingsPath);
    if (spec.weightsPath)
        o.weightsFile = QString::fromStdString(*spec.weightsPath);
    if (p.isSet("step")) {
        full.step = p.value("step");
        o.stepGiven = true;
    }
    if (p.isSet("head")) {
        bool ok = false;
        const int h = p.value("head").toInt(&ok);
        if (!ok || h < 0)
            return fail(QStringLiteral("--head: expected a non-negative integer, got '%1'")
                            .arg(p.value("head")));
        full.head = h;
        o.headGiven = true;
    }
    if (p.isSet("colormap")) {
        const QString name = p.value("colormap");
        Colormap cm;
        if (name != QLatin1String("auto") && !parseColormap(name, &cm))
            return fail(
                QStringLiteral(
                    "--colormap: expected auto, viridis, magma, cividis or diverging, got '%1'")
                    .arg(name));
        full.colormap = name;
    }
    if (p.isSet("screenshot")) {
        o.screenshot = p.value("screenshot");
        if (o.screenshot.isEmpty())
            return fail(QStringLiteral("--screenshot: empty file name"));
    }
    o.state = full;
    o.state = applyLaunchOptions(AppState(), o);
    *out = o;
    return true;
}

AppState applyLaunchOptions(const AppState& base, const LaunchOptions& options) {
    auto given = [&](const char* name) {
        return options.givenOptions.contains(QLatin1String(name));
    };
    const AppState& from = options.state;
    const Config& f = from.config;
    AppState s = base;
    Config& c = s.config;

    const bool input = given("text") || given("text-file") || given("embeddings");
    // --preset book is an input (and the book's d_in of 3); the GPT-2 presets are model sizes
    // for the text (the typed or session text when no input option is given).
    const bool sizePreset = given("preset") && from.source != InputSource::Book;
    if (given("preset") && !sizePreset) {
        s.source = InputSource::Book;
        c.dIn = f.dIn;
    }
    if (sizePreset) {
        c.variant = f.variant;
        c.dIn = f.dIn;
        c.dOut = f.dOut;
        c.heads = f.heads;
        if (!input)
            s.source = InputSource::Text;
    }
    if (given("text") || given("text-file")) {
        s.source = InputSource::Text;
        s.text = from.text;
    }
    if (given("embeddings"))
        s.source = InputSource::File;
    if (given("tokenizer")) {
        s.tokenizer = from.tokenizer;
        // A tokenizer is for text: the book example becomes its sentence as typed text.
        if (s.source == InputSource::Book && !given("preset"))
            s.source = InputSource::Text;
    }
    if (given("variant"))
        c.variant = f.variant;
    if (given("d-in"))
        c.dIn = f.dIn;
    if (given("d-out"))
        c.dOut = f.dOut;
    if (given("heads"))
        c.heads = f.heads;
    if (given("mask"))
        c.mask = f.mask;
    else if (given("variant") || sizePreset)
        c.mask = defaultMask(c.variant);
    if (given("dropout"))
        c.dropout = f.dropout;
    if (given("mode"))
        c.mode = f.mode;
    if (given("dropout-rng"))
        c.dropoutRng = f.dropoutRng;
    if (given("seed"))
        c.seed = f.seed;
    if (given("qkv-bias"))
        c.qkvBias = true;
    if (given("batch"))
        c.batch = f.batch;
    if (given("context-length"))
        c.contextLength = f.contextLength;
    if (given("embedding-seed"))
        s.embeddingSeed = from.embeddingSeed;
    if (given("no-positions"))
        s.positions = false;
    if (given("step"))
        s.step = from.step;
    if (given("head"))
        s.head = from.head;
    if (given("colormap"))
        s.colormap = from.colormap;
    return s;
}

QString checkLaunchState(const LaunchOptions& options) {
    const AppState& s = options.state;
    int64_t tokens = 0;
    if (s.source == InputSource::Book) {
        // As parseRunOptions says it; reached when a session was the base of the options.
        if (s.config.dIn != 3)
            return QStringLiteral(
                       "The book preset has 3-dimensional embeddings, so d_in must be 3 (got %1).")
                .arg(s.config.dIn);
        tokens = int64_t(bookTokens().size());
    } else if (s.source == InputSource::Text) {
        const QByteArray utf8 = s.text.toUtf8();
        tokens = int64_t(
            tokenize(s.tokenizer, std::string_view(utf8.constData(), size_t(utf8.size()))).size());
    } else {
        return QString();  // file input is checked when it is read
    }
    const auto issues = validate(s.config, tokens);
    if (!issues.empty()) {
        const auto& i = issues.front();
        return QString::fromStdString(i.field.empty() ? i.message : i.field + ": " + i.message);
    }
    const auto plan = planSteps(s.config, tokens);
    if (options.stepGiven) {
        bool found = false;
        QStringList ids;
        for (const auto& st : plan) {
            ids << QString::fromStdString(st.id);
            if (QString::fromStdString(st.id) == s.step)
                found = true;
        }
        if (!found)
            return QStringLiteral("--step: '%1' is not a step of this configuration (%2)")
                .arg(s.step, ids.join(QStringLiteral(", ")));
    }
    if (options.headGiven && s.head >= s.config.effectiveHeads())
        return QStringLiteral("--head: %1 is out of range; this configuration has %2 head(s)")
            .arg(s.head)
            .arg(s.config.effectiveHeads());
    return QString();
}

std::vector<AdjustedSetting> adjustedSettings(const AppState& wanted, const AppState& shown) {
    const Config& w = wanted.config;
    const Config& s = shown.config;
    auto number = [](double v) { return QString::number(v, 'g', 10); };
    std::vector<AdjustedSetting> out;
    const struct {
        const char* option;
        double want, got;
    } settings[] = {
        {"d-in", double(w.dIn), double(s.dIn)},
        {"d-out", double(w.dOut), double(s.dOut)},
        {"heads", double(w.heads), double(s.heads)},
        {"batch", double(w.batch), double(s.batch)},
        {"context-length", double(w.contextLength), double(s.contextLength)},
        {"seed", double(w.seed), double(s.seed)},
        {"embedding-seed", double(wanted.embeddingSeed), double(shown.embeddingSeed)},
        {"dropout", w.dropout, s.dropout},
    };
    for (const auto& c : settings)
        if (c.want != c.got)
            out.push_back({QLatin1String(c.option), number(c.want), number(c.got)});
    const MaskSpec wm = w.effectiveMask(), sm = s.effectiveMask();
    if (wm.kind == MaskKind::Window && sm.window != wm.window)
        out.push_back({QStringLiteral("mask"), QStringLiteral("window:%1").arg(wm.window),
                       QStringLiteral("window:%1").arg(sm.window)});
    return out;
}

QString describeAdjustedSetting(const AppState& wanted, const AppState& shown) {
    const std::vector<AdjustedSetting> changed = adjustedSettings(wanted, shown);
    if (changed.empty())
        return {};
    const AdjustedSetting& c = changed.front();
    if (c.option == QLatin1String("dropout"))
        return QStringLiteral(
                   "--dropout %1: the app sets dropout in steps of 0.01 up to 0.99, so it would "
                   "become %2.")
            .arg(c.wanted, c.shown);
    return QStringLiteral("--%1 %2 is more than the app's control allows: it would become %3.")
        .arg(c.option, c.wanted, c.shown);
}

}  // namespace attn

#include "app/launch_options.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <limits>

#include "engine/embeddings.h"
#include "engine/trace.h"
#include "export/heatmap_data.h"

namespace attn {

namespace {

bool parseInt(const QString& text, int64_t lo, int64_t hi, int64_t* out) {
    bool ok = false;
    const qlonglong v = text.toLongLong(&ok);
    if (!ok || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool parseU64(const QString& text, uint64_t* out) {
    bool ok = false;
    const qulonglong v = text.toULongLong(&ok);
    if (!ok)
        return false;
    *out = v;
    return true;
}

}  // namespace

bool parseLaunchOptions(const QStringList& arguments, LaunchOptions* out, QString* error,
                        QString* helpText) {
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Attention Lens: see transformer attention step by step."));
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    p.addOption(help);
    auto opt = [&](const char* name, const char* desc, const char* value = nullptr) {
        QCommandLineOption o(QString::fromLatin1(name), QString::fromLatin1(desc));
        if (value)
            o.setValueName(QString::fromLatin1(value));
        p.addOption(o);
    };
    opt("preset", "Input preset: book, gpt2-small, gpt2-medium, gpt2-large, gpt2-xl.", "NAME");
    opt("text", "Text to tokenize (chapter-2 embeddings).", "T");
    opt("text-file", "Read the text from a UTF-8 file.", "F");
    opt("embeddings", "Load the input x from a .npy, .json or .csv file.", "F");
    opt("weights", "Load the module's weights from a .json or .safetensors file.", "F");
    opt("tokenizer", "gpt2 (default), words or chars.", "KIND");
    opt("variant",
        "simplified, self-attention-v1, self-attention, causal, multi-head-wrapper, multi-head.",
        "V");
    opt("d-in", "Embedding size.", "N");
    opt("d-out", "Output size.", "N");
    opt("heads", "Number of heads.", "N");
    opt("mask", "none, causal or window:K.", "MASK");
    opt("dropout", "Dropout probability p in [0, 1).", "P");
    opt("mode", "train (default) or eval.", "MODE");
    opt("dropout-rng", "default or mkl.", "RNG");
    opt("seed", "Weight seed (torch.manual_seed), default 123.", "S");
    opt("embedding-seed", "Embedding seed, default 123.", "S");
    opt("no-positions", "Do not add position embeddings.");
    opt("qkv-bias", "Use a bias in the query, key and value projections.");
    opt("batch", "Batch size b.", "B");
    opt("context-length", "Context length, default 1024.", "N");
    opt("step", "Step to show first, e.g. weights.", "ID");
    opt("head", "Head to show first.", "H");
    opt("colormap", "auto, viridis, magma, cividis or diverging.", "NAME");
    opt("screenshot", "Save a screenshot of the window to FILE (PNG) and exit.", "FILE");

    if (!p.parse(arguments)) {
        *error = p.errorText();
        return false;
    }
    if (p.isSet(help)) {
        if (helpText) {
            *helpText = p.helpText();
            helpText->replace(QStringLiteral("<executable_name>"),
                              QStringLiteral("attention-lens"));
        }
        *error = QString();
        return false;
    }
    if (!p.positionalArguments().isEmpty()) {
        *error = QStringLiteral("unexpected argument '%1'").arg(p.positionalArguments().first());
        return false;
    }

    LaunchOptions o;
    AppState& s = o.state;
    Config& c = s.config;
    auto fail = [&](const QString& msg) {
        *error = msg;
        return false;
    };
    const QStringList stateOptions = {
        "preset",  "text",           "text-file", "embeddings",     "weights",      "tokenizer",
        "variant", "d-in",           "d-out",     "heads",          "mask",         "dropout",
        "mode",    "dropout-rng",    "seed",      "embedding-seed", "no-positions", "qkv-bias",
        "batch",   "context-length", "step",      "head",           "colormap"};
    for (const QString& name : stateOptions)
        if (p.isSet(name))
            o.anyStateOption = true;

    int sources = int(p.isSet("text")) + int(p.isSet("text-file")) + int(p.isSet("embeddings"));
    if (p.isSet("preset") && p.value("preset") == QLatin1String("book"))
        ++sources;
    if (sources > 1)
        return fail(
            QStringLiteral("give only one of --preset book, --text, --text-file, --embeddings"));

    if (p.isSet("preset")) {
        const QString name = p.value("preset");
        bool found = false;
        for (const Preset& pr : presets()) {
            if (pr.key != name || pr.key == QLatin1String("custom"))
                continue;
            found = true;
            if (pr.book) {
                s.source = InputSource::Book;
            } else {
                s.source = InputSource::Text;
                c.variant = Variant::MultiHead;
                c.dIn = c.dOut = pr.d;
                c.heads = pr.heads;
                c.mask = MaskSpec{MaskKind::Causal, 0};
            }
        }
        if (!found)
            return fail(
                QStringLiteral("--preset: unknown preset '%1' (book, gpt2-small, gpt2-medium, "
                               "gpt2-large, gpt2-xl)")
                    .arg(name));
    }
    if (p.isSet("text")) {
        s.source = InputSource::Text;
        s.text = p.value("text");
    }
    if (p.isSet("text-file")) {
        QFile f(p.value("text-file"));
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("--text-file: cannot read %1: %2")
                            .arg(f.fileName(), f.errorString()));
        s.source = InputSource::Text;
        s.text = QString::fromUtf8(f.readAll());
    }
    if (p.isSet("embeddings")) {
        s.source = InputSource::File;
        o.embeddingsFile = p.value("embeddings");
    }
    if (p.isSet("weights"))
        o.weightsFile = p.value("weights");
    if (p.isSet("tokenizer")) {
        auto k = parseTokenizer(p.value("tokenizer").toStdString());
        if (!k)
            return fail(QStringLiteral("--tokenizer: expected gpt2, words or chars, got '%1'")
                            .arg(p.value("tokenizer")));
        s.tokenizer = *k;
        if (s.source == InputSource::Book && !p.isSet("preset"))
            s.source = InputSource::Text;
    }
    if (p.isSet("variant")) {
        auto v = parseVariant(p.value("variant").toStdString());
        if (!v)
            return fail(
                QStringLiteral("--variant: unknown variant '%1' (simplified, self-attention-v1, "
                               "self-attention, causal, multi-head-wrapper, multi-head)")
                    .arg(p.value("variant")));
        c.variant = *v;
        if (!p.isSet("mask"))
            c.mask = defaultMask(*v);
    }
    const int64_t big = 1 << 20;
    if (p.isSet("d-in") && !parseInt(p.value("d-in"), 1, big, &c.dIn))
        return fail(
            QStringLiteral("--d-in: expected a positive integer, got '%1'").arg(p.value("d-in")));
    if (p.isSet("d-out") && !parseInt(p.value("d-out"), 1, big, &c.dOut))
        return fail(
            QStringLiteral("--d-out: expected a positive integer, got '%1'").arg(p.value("d-out")));
    if (p.isSet("heads") && !parseInt(p.value("heads"), 1, big, &c.heads))
        return fail(
            QStringLiteral("--heads: expected a positive integer, got '%1'").arg(p.value("heads")));
    if (p.isSet("mask")) {
        auto m = parseMask(p.value("mask").toStdString());
        if (!m)
            return fail(QStringLiteral("--mask: expected none, causal or window:K, got '%1'")
                            .arg(p.value("mask")));
        c.mask = *m;
    }
    if (p.isSet("dropout")) {
        bool ok = false;
        const double d = p.value("dropout").toDouble(&ok);
        if (!ok || !(d >= 0.0 && d < 1.0))
            return fail(QStringLiteral("--dropout: expected a probability in [0, 1), got '%1'")
                            .arg(p.value("dropout")));
        c.dropout = d;
    }
    if (p.isSet("mode")) {
        auto m = parseMode(p.value("mode").toStdString());
        if (!m)
            return fail(
                QStringLiteral("--mode: expected train or eval, got '%1'").arg(p.value("mode")));
        c.mode = *m;
    }
    if (p.isSet("dropout-rng")) {
        auto r = parseDropoutRng(p.value("dropout-rng").toStdString());
        if (!r)
            return fail(QStringLiteral("--dropout-rng: expected default or mkl, got '%1'")
                            .arg(p.value("dropout-rng")));
        c.dropoutRng = *r;
    }
    if (p.isSet("seed") && !parseU64(p.value("seed"), &c.seed))
        return fail(QStringLiteral("--seed: expected a non-negative integer, got '%1'")
                        .arg(p.value("seed")));
    if (p.isSet("embedding-seed") && !parseU64(p.value("embedding-seed"), &s.embeddingSeed))
        return fail(QStringLiteral("--embedding-seed: expected a non-negative integer, got '%1'")
                        .arg(p.value("embedding-seed")));
    if (p.isSet("no-positions"))
        s.positions = false;
    if (p.isSet("qkv-bias"))
        c.qkvBias = true;
    if (p.isSet("batch") && !parseInt(p.value("batch"), 1, 4096, &c.batch))
        return fail(
            QStringLiteral("--batch: expected a positive integer, got '%1'").arg(p.value("batch")));
    if (p.isSet("context-length") && !parseInt(p.value("context-length"), 1, big, &c.contextLength))
        return fail(QStringLiteral("--context-length: expected a positive integer, got '%1'")
                        .arg(p.value("context-length")));
    if (p.isSet("step")) {
        s.step = p.value("step");
        o.stepGiven = true;
    }
    if (p.isSet("head")) {
        int64_t h = 0;
        if (!parseInt(p.value("head"), 0, big, &h))
            return fail(QStringLiteral("--head: expected a non-negative integer, got '%1'")
                            .arg(p.value("head")));
        s.head = int(h);
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
        s.colormap = name;
    }
    if (p.isSet("screenshot")) {
        o.screenshot = p.value("screenshot");
        if (o.screenshot.isEmpty())
            return fail(QStringLiteral("--screenshot: empty file name"));
    }
    if (s.source == InputSource::Book && c.dIn != 3)
        return fail(
            QStringLiteral(
                "--d-in: the book example's inputs are 3-dimensional; use --text for d_in = %1")
                .arg(c.dIn));
    *out = o;
    return true;
}

QString checkLaunchState(const LaunchOptions& options) {
    const AppState& s = options.state;
    int64_t tokens = 0;
    if (s.source == InputSource::Book) {
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

}  // namespace attn

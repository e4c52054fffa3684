#include "cli/run_options.h"

#include <QCommandLineParser>
#include <QFile>
#include <limits>

#include "engine/embeddings.h"
#include "io/file_io.h"
#include "io/loaders.h"

namespace attn {

namespace {

[[noreturn]] void bad(const char* field, const QString& message) {
    throw EngineError(field, message.toStdString());
}

int64_t intOption(const QCommandLineParser& p, const char* name, const char* field,
                  int64_t fallback) {
    if (!p.isSet(name))
        return fallback;
    const QString v = p.value(name).trimmed();
    bool ok = false;
    const qlonglong n = v.toLongLong(&ok);
    if (!ok)
        bad(field, QStringLiteral("--%1 expects a whole number, got \"%2\".").arg(name, v));
    return n;
}

// Seeds as torch.manual_seed takes them: 0 .. 2^64-1, negatives wrap like PyTorch's.
uint64_t seedOption(const QCommandLineParser& p, const char* name, uint64_t fallback) {
    if (!p.isSet(name))
        return fallback;
    const QString v = p.value(name).trimmed();
    bool ok = false;
    const qulonglong u = v.toULongLong(&ok);
    if (ok)
        return u;
    const qlonglong s = v.toLongLong(&ok);
    if (ok && s < 0)
        return static_cast<uint64_t>(s);
    bad("seed", QStringLiteral("--%1 expects a whole number from -2^63 to 2^64-1, got \"%2\".")
                    .arg(name, v));
}

}  // namespace

void addRunOptions(QCommandLineParser& p) {
    p.addOptions({
        {"preset",
         "book (the chapter's six 3-d vectors), or a GPT-2 size for the text: gpt2-small, "
         "gpt2-medium, gpt2-large, gpt2-xl.",
         "name"},
        {"text", "Text to tokenize and embed.", "text"},
        {"text-file", "UTF-8 file whose text is tokenized and embedded.", "file"},
        {"embeddings", "Embeddings file (.npy, .json, .csv) of shape (T, d_in) or (b, T, d_in).",
         "file"},
        {"tokenizer", "gpt2 (default), words or chars.", "name"},
        {"variant",
         "simplified, self-attention-v1, self-attention, causal, multi-head-wrapper, "
         "multi-head (default).",
         "name"},
        {"d-in", "Embedding size d_in (default 3).", "n"},
        {"d-out", "Output size d_out (default 2).", "n"},
        {"heads", "Number of heads (default 2).", "n"},
        {"mask", "none, causal or window:K (default: the variant's).", "mask"},
        {"dropout", "Dropout rate p in [0, 1) (default 0).", "p"},
        {"mode", "train (default, as a fresh PyTorch module) or eval.", "mode"},
        {"dropout-rng",
         "default (PyTorch's portable kernel) or mkl (Intel MKL, as printed in the book).", "rng"},
        {"seed", "torch.manual_seed for the weights (default 123).", "s"},
        {"embedding-seed", "torch.manual_seed for the chapter-2 embeddings (default 123).", "s"},
        {"no-positions", "Do not add positional embeddings."},
        {"qkv-bias", "Give the query, key and value projections a bias."},
        {"batch", "Batch size b: the input stacked b times (default 1).", "b"},
        {"context-length", "Context length (default 1024).", "n"},
        {"weights", "Weights file (.json or .safetensors) with PyTorch state_dict names.", "file"},
    });
}

RunSpec parseRunOptions(const QCommandLineParser& p, bool bookIsDefaultInput) {
    RunSpec spec;
    Config& c = spec.config;
    InputSpec& in = spec.input;

    // --preset book is an input; the GPT-2 presets are model sizes for the text (the book's
    // sentence when no text is given).
    struct SizePreset {
        const char* name;
        int64_t d, heads;
    };
    static constexpr SizePreset kSizes[] = {{"gpt2-small", 768, 12},
                                            {"gpt2-medium", 1024, 16},
                                            {"gpt2-large", 1280, 20},
                                            {"gpt2-xl", 1600, 25}};
    const SizePreset* size = nullptr;
    bool bookPreset = false;
    if (p.isSet("preset")) {
        const QString name = p.value("preset");
        for (const SizePreset& sp : kSizes)
            if (name == sp.name)
                size = &sp;
        bookPreset = name == "book";
        if (!bookPreset && !size)
            bad("input", QStringLiteral("Unknown preset \"%1\"; the presets are book, gpt2-small, "
                                        "gpt2-medium, gpt2-large and gpt2-xl.")
                             .arg(name));
    }
    const int sources = int(bookPreset) + int(p.isSet("text")) + int(p.isSet("text-file")) +
                        int(p.isSet("embeddings"));
    if (sources > 1)
        bad("input", "Give only one input: --preset book, --text, --text-file or --embeddings.");
    if (p.isSet("text")) {
        in.kind = InputKind::Text;
        in.text = p.value("text").toStdString();
    } else if (p.isSet("text-file")) {
        in.kind = InputKind::Text;
        QFile f(p.value("text-file"));
        if (!f.open(QIODevice::ReadOnly))
            bad("input",
                QStringLiteral("Cannot read %1: %2").arg(p.value("text-file"), f.errorString()));
        in.text = f.readAll().toStdString();
    } else if (p.isSet("embeddings")) {
        in.kind = InputKind::Embeddings;
        in.embeddingsPath = p.value("embeddings").toStdString();
    } else if (size) {
        in.kind = InputKind::Text;
        in.text = "Your journey starts with one step";
    }
    if (size) {
        c.variant = Variant::MultiHead;
        c.dIn = c.dOut = size->d;
        c.heads = size->heads;
    }
    if (p.isSet("tokenizer")) {
        const auto t = parseTokenizer(p.value("tokenizer").toStdString());
        if (!t)
            bad("tokenizer",
                QStringLiteral("Unknown tokenizer \"%1\"; choose gpt2, words or chars.")
                    .arg(p.value("tokenizer")));
        in.tokenizer = *t;
    }
    if (p.isSet("variant")) {
        const auto v = parseVariant(p.value("variant").toStdString());
        if (!v)
            bad("variant",
                QStringLiteral("Unknown variant \"%1\"; choose simplified, self-attention-v1, "
                               "self-attention, causal, multi-head-wrapper or multi-head.")
                    .arg(p.value("variant")));
        c.variant = *v;
    }
    c.dIn = intOption(p, "d-in", "d_in", c.dIn);
    spec.dInGiven = p.isSet("d-in") || size;
    c.dOut = intOption(p, "d-out", "d_out", c.dOut);
    c.heads = intOption(p, "heads", "heads", c.heads);
    c.batch = intOption(p, "batch", "batch", 1);
    c.contextLength = intOption(p, "context-length", "context_length", 1024);
    if (p.isSet("mask")) {
        const auto m = parseMask(p.value("mask").toStdString());
        if (!m)
            bad("mask", QStringLiteral(
                            "Unknown mask \"%1\"; use none, causal or window:K (K a whole number).")
                            .arg(p.value("mask")));
        c.mask = *m;
    }
    if (p.isSet("dropout")) {
        bool ok = false;
        c.dropout = p.value("dropout").toDouble(&ok);
        if (!ok)
            bad("dropout", QStringLiteral("--dropout expects a number in [0, 1), got \"%1\".")
                               .arg(p.value("dropout")));
    }
    if (p.isSet("mode")) {
        const auto m = parseMode(p.value("mode").toStdString());
        if (!m)
            bad("mode",
                QStringLiteral("Unknown mode \"%1\"; use train or eval.").arg(p.value("mode")));
        c.mode = *m;
    }
    if (p.isSet("dropout-rng")) {
        const auto r = parseDropoutRng(p.value("dropout-rng").toStdString());
        if (!r)
            bad("dropout", QStringLiteral("Unknown dropout RNG \"%1\"; use default or mkl.")
                               .arg(p.value("dropout-rng")));
        c.dropoutRng = *r;
    }
    c.seed = seedOption(p, "seed", 123);
    in.embeddingSeed = seedOption(p, "embedding-seed", 123);
    in.positions = !p.isSet("no-positions");
    c.qkvBias = p.isSet("qkv-bias");
    if (p.isSet("weights"))
        spec.weightsPath = p.value("weights").toStdString();

    if ((bookPreset || (in.kind == InputKind::BookPreset && bookIsDefaultInput)) &&
        p.isSet("d-in") && c.dIn != 3)
        bad("d_in", QStringLiteral(
                        "The book preset has 3-dimensional embeddings, so d_in must be 3 (got %1).")
                        .arg(c.dIn));
    return spec;
}

PreparedInput prepareInput(const RunSpec& spec, const CancelToken* cancel) {
    PreparedInput out;
    const InputSpec& in = spec.input;
    switch (in.kind) {
        case InputKind::BookPreset:
            out.inputs = bookInputs();
            out.labels = bookTokens();
            break;
        case InputKind::Text: {
            out.tokens = tokenize(in.tokenizer, in.text);
            if (out.tokens.empty())
                throw EngineError("input", "The text has no tokens: type a word or two.");
            // Check the configuration before drawing the embedding table, whose cost grows
            // with d_in.
            const auto issues = validate(spec.config, static_cast<int64_t>(out.tokens.size()));
            if (!issues.empty())
                throw EngineError(issues.front().field, issues.front().message);
            for (const Token& t : out.tokens)
                out.labels.push_back(t.display);
            EmbeddingConfig e;
            e.seed = in.embeddingSeed;
            e.dIn = spec.config.dIn;
            e.contextLength = spec.config.contextLength;
            e.positions = in.positions;
            out.inputs = chapterTwoEmbeddings(e, tokenIds(out.tokens), cancel);
            break;
        }
        case InputKind::Embeddings: {
            out.inputs = io::readEmbeddingsFile(in.embeddingsPath);
            const int64_t T = out.inputs.size(-2);
            for (int64_t t = 0; t < T; ++t)
                out.labels.push_back(std::to_string(t));
            break;
        }
    }
    return out;
}

std::optional<WeightMap> loadWeights(const RunSpec& spec) {
    if (!spec.weightsPath)
        return std::nullopt;
    WeightMap w = io::readWeightsFile(*spec.weightsPath);
    io::checkWeights(w, spec.config, io::fileDisplayName(*spec.weightsPath));
    return w;
}

RunResult runSpec(const RunSpec& spec, const CancelToken* cancel, const ProgressFn& progress) {
    RunResult r;
    r.input = prepareInput(spec, cancel);
    Config config = spec.config;
    // An embeddings file decides d_in unless --d-in says otherwise, and a 3-D one the batch size.
    if (spec.input.kind == InputKind::Embeddings) {
        if (!spec.dInGiven)
            config.dIn = r.input.inputs.size(-1);
        if (r.input.inputs.dim() == 3)
            config.batch = r.input.inputs.size(0);
    }
    const std::optional<WeightMap> weights = loadWeights(spec);
    TraceRequest req;
    req.config = config;
    req.inputs = r.input.inputs;
    req.weights = weights ? &*weights : nullptr;
    req.cancel = cancel;
    req.progress = progress;
    r.trace = runTrace(req);
    return r;
}

}  // namespace attn

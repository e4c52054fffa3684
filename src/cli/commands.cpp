#include "cli/commands.h"

#include <QCommandLineParser>
#include <QFile>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "cli/pytorch_code.h"
#include "cli/run_options.h"
#include "io/csv.h"
#include "io/file_io.h"
#include "io/npy.h"
#include "io/text_format.h"
#include "io/trace_json.h"

namespace attn::cli {

namespace {

// Parses `args` (program name first) or throws EngineError with Qt's message.
void parseOrThrow(QCommandLineParser& parser, const QStringList& args, const char* command,
                  const char* description) {
    parser.setApplicationDescription(
        QStringLiteral("attention-lens-cli %1: %2").arg(command, description));
    parser.addHelpOption();
    if (!parser.parse(args))
        throw EngineError("option", parser.errorText().toStdString() + ".");
    if (parser.isSet("help")) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        std::exit(0);
    }
    if (!parser.positionalArguments().isEmpty())
        throw EngineError("option", "Unexpected argument \"" +
                                        parser.positionalArguments().first().toStdString() +
                                        "\"; options start with --.");
}

void writeStdout(std::string_view bytes) {
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    std::fflush(stdout);
}

void writeOutput(const QCommandLineParser& parser, std::string_view bytes) {
    if (parser.isSet("out"))
        io::writeFileAtomically(parser.value("out").toStdString(), bytes);
    else
        writeStdout(bytes);
}

io::JsonConfigExtras extrasFor(const RunSpec& spec) {
    io::JsonConfigExtras e;
    switch (spec.input.kind) {
        case InputKind::BookPreset:
            e.set("input", std::string("book"));
            break;
        case InputKind::Text:
            e.set("input", std::string("text"));
            e.set("text", spec.input.text);
            e.set("tokenizer", tokenizerName(spec.input.tokenizer));
            e.set("embedding_seed", static_cast<int64_t>(spec.input.embeddingSeed));
            e.set("positions", spec.input.positions);
            break;
        case InputKind::Embeddings:
            e.set("input", std::string("embeddings"));
            e.set("embeddings", spec.input.embeddingsPath);
            break;
    }
    if (spec.weightsPath)
        e.set("weights", *spec.weightsPath);
    return e;
}

const Step& requireStep(const Trace& trace, const QString& id) {
    if (const Step* s = trace.find(id.toStdString()))
        return *s;
    std::string ids;
    for (const Step& s : trace.steps)
        ids += (ids.empty() ? "" : ", ") + s.info.id;
    throw EngineError("step", "This configuration has no step \"" + id.toStdString() +
                                  "\". Its steps are: " + ids + ".");
}

}  // namespace

int nonNegativeOption(const QCommandLineParser& p, const char* name, int fallback) {
    if (!p.isSet(name))
        return fallback;
    bool ok = false;
    const int v = p.value(name).toInt(&ok);
    if (!ok || v < 0)
        throw EngineError(name, std::string("--") + name +
                                    " expects a whole number from 0, got \"" +
                                    p.value(name).toStdString() + "\".");
    return v;
}

int tokenizeCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOptions({{"text", "Text to tokenize.", "text"},
                  {"text-file", "UTF-8 file to tokenize.", "file"},
                  {"tokenizer", "gpt2 (default), words or chars.", "name"}});
    parseOrThrow(p, args, "tokenize", "text -> token ids as JSON");
    std::string text;
    if (p.isSet("text") == p.isSet("text-file"))
        throw EngineError("input", "Give the text with --text or --text-file (one of them).");
    if (p.isSet("text")) {
        text = p.value("text").toStdString();
    } else {
        text = io::readFileBytes(p.value("text-file").toStdString());
    }
    TokenizerKind kind = TokenizerKind::Gpt2;
    if (p.isSet("tokenizer")) {
        const auto k = parseTokenizer(p.value("tokenizer").toStdString());
        if (!k)
            throw EngineError("tokenizer", "Unknown tokenizer \"" +
                                               p.value("tokenizer").toStdString() +
                                               "\"; choose gpt2, words or chars.");
        kind = *k;
    }
    const std::vector<Token> tokens = tokenize(kind, text);
    std::string out = "{\"ids\": [";
    for (size_t i = 0; i < tokens.size(); ++i)
        out += (i ? ", " : "") + std::to_string(tokens[i].id);
    out += "], \"tokens\": [";
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (i)
            out += ", ";
        io::appendJsonString(out, tokens[i].display);
    }
    out += "], \"token_bytes_hex\": [";
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (i)
            out += ", ";
        io::appendJsonString(out, bytesToHex(tokens[i].bytes));
    }
    out += "]}\n";
    writeStdout(out);
    return 0;
}

int traceCommand(const QStringList& args) {
    QCommandLineParser p;
    addRunOptions(p);
    p.addOption({"out", "Write the JSON to this file instead of stdout.", "file"});
    parseOrThrow(p, args, "trace", "every step of one forward pass as JSON");
    const RunSpec spec = parseRunOptions(p);
    const RunResult r = runSpec(spec);
    writeOutput(p, io::traceToJson(r.trace, r.input.labels, extrasFor(spec)));
    return 0;
}

int benchCommand(const QStringList& args) {
    QCommandLineParser p;
    addRunOptions(p);
    p.addOption({"repeat", "How many full traces to time (default 10).", "n"});
    parseOrThrow(p, args, "bench", "median and min milliseconds of a full trace");
    int repeat = 10;
    if (p.isSet("repeat")) {
        bool ok = false;
        repeat = p.value("repeat").toInt(&ok);
        if (!ok || repeat < 1 || repeat > 100000)
            throw EngineError("repeat", "--repeat expects a whole number from 1 to 100000, got \"" +
                                            p.value("repeat").toStdString() + "\".");
    }
    const RunSpec spec = parseRunOptions(p);
    RunResult first = runSpec(spec);  // warms caches and validates once
    TraceRequest req;
    req.config = first.trace.config;
    req.inputs = first.input.inputs;
    req.weights = &first.trace.parameters;
    std::vector<double> ms;
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const Trace t = runTrace(req);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    std::string out = "{\"config\": " + io::configToJson(req.config, extrasFor(spec)) +
                      ", \"tokens\": " + std::to_string(first.trace.tokens) +
                      ", \"repeat\": " + std::to_string(repeat) + ", \"median_ms\": ";
    io::appendDouble(out, median);
    out += ", \"min_ms\": ";
    io::appendDouble(out, sorted.front());
    out +=
        ", \"trace_bytes\": " + std::to_string(estimateTraceBytes(req.config, first.trace.tokens)) +
        "}\n";
    writeStdout(out);
    return 0;
}

int exportCommand(const QStringList& args) {
    QCommandLineParser p;
    addRunOptions(p);
    p.addOptions({{"step", "Step id to export (not needed for .npz).", "id"},
                  {"head", "Head for CSV of a per-head step (default 0).", "h"},
                  {"batch-index", "Batch entry for CSV (default 0).", "i"},
                  {"out", "Output file: .csv, .npy, .json, or .npz for every step.", "file"}});
    parseOrThrow(p, args, "export", "a step as CSV, .npy or JSON, or every step as .npz");
    if (!p.isSet("out"))
        throw EngineError("out", "Say where to write with --out F.csv|.npy|.json|.npz.");
    const std::string out = p.value("out").toStdString();
    const std::string ext = io::fileExtension(out);
    if (ext != ".csv" && ext != ".npy" && ext != ".json" && ext != ".npz")
        throw EngineError(
            "out", "Cannot export to \"" + out + "\": use a .csv, .npy, .json or .npz file.");
    if (ext != ".npz" && !p.isSet("step"))
        throw EngineError("step",
                          "Say which step to export with --step ID (or use a .npz file for all).");
    const RunSpec spec = parseRunOptions(p);
    const RunResult r = runSpec(spec);
    if (ext == ".npz") {
        io::writeNpz(out, io::traceTensors(r.trace));
        return 0;
    }
    const Step& step = requireStep(r.trace, p.value("step"));
    if (ext == ".npy") {
        io::writeNpy(out, step.value);
    } else if (ext == ".json") {
        io::writeFileAtomically(out, io::stepToJson(step) + "\n");
    } else {
        io::writeStepCsv(out, step, nonNegativeOption(p, "head", 0),
                         nonNegativeOption(p, "batch-index", 0), r.input.labels);
    }
    return 0;
}

int pytorchCommand(const QStringList& args) {
    QCommandLineParser p;
    addRunOptions(p);
    p.addOption({"out", "Write the Python code to this file instead of stdout.", "file"});
    parseOrThrow(p, args, "pytorch", "Python code that rebuilds the same input and module");
    const RunSpec spec = parseRunOptions(p);
    // Run once: the code is only offered for configurations that are valid.
    const RunResult r = runSpec(spec);
    writeOutput(p, pytorchCode(spec, r.input, r.trace.config));
    return 0;
}

#ifndef ATTN_HAVE_EXPORT
int renderCommand(const QStringList&) {
    throw EngineError("render",
                      "This build has no image export (it was built without the GUI libraries).");
}
#endif

}  // namespace attn::cli

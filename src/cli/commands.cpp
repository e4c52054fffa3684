#include "cli/commands.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "engine/step_ids.h"
#include "io/csv.h"
#include "io/file_io.h"
#include "io/npy.h"
#include "io/text_format.h"
#include "io/tokenizer_file.h"
#include "io/trace_json.h"
#include "pipeline/options.h"
#include "pipeline/pytorch_code.h"
#include "pipeline/step_files.h"

namespace attn::cli {

namespace {

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

}  // namespace

void parseOrThrow(QCommandLineParser& parser, const QStringList& args, const char* command,
                  const char* description) {
    parser.setApplicationDescription(
        QStringLiteral("attention-lens-cli %1: %2").arg(command, description));
    parser.addHelpOption();
    if (!parser.parse(args)) {
        // One sentence: Qt ends some of its messages with a full stop ("Unknown option 'x'.")
        // and others not ("Missing value after '--seed'").
        std::string text = parser.errorText().toStdString();
        if (!text.ends_with('.'))
            text += '.';
        throw UserError("option", text);
    }
    if (parser.isSet("help")) {
        // Qt starts the usage line with the path the program was run by; the line names the
        // program and the command as they are typed (the man page is made from this text).
        QString help = parser.helpText();
        const qsizetype usageEnd = help.indexOf(QLatin1Char('\n'));
        help.replace(0, usageEnd,
                     QStringLiteral("Usage: attention-lens-cli %1 [options]").arg(command));
        std::fputs(qPrintable(help), stdout);
        std::exit(0);
    }
    if (!parser.positionalArguments().isEmpty())
        throw UserError("option", "Unexpected argument \"" +
                                      parser.positionalArguments().first().toStdString() +
                                      "\"; options start with --.");
}

std::string tokenJsonText(const Token& token) {
    if (!token.partialUtf8)
        return token.display;
    static const char* const digits = "0123456789ABCDEF";
    std::string out;
    for (unsigned char b : token.bytes) {
        out += "<0x";
        out += digits[b >> 4];
        out += digits[b & 15];
        out += '>';
    }
    return out;
}

std::vector<std::string>& notes() {
    static std::vector<std::string> all;
    return all;
}

int nonNegativeOption(const QCommandLineParser& p, const char* name, int fallback) {
    if (!p.isSet(name))
        return fallback;
    bool ok = false;
    const int v = p.value(name).toInt(&ok);
    if (!ok || v < 0)
        throw UserError(name, std::string("--") + name + " expects a whole number from 0, got \"" +
                                  p.value(name).toStdString() + "\".");
    return v;
}

CliInput settingsFromOptions(const QCommandLineParser& parser) {
    CliInput in;
    in.given = givenSettings(parser);
    in.settings = applyGivenSettings(Settings(), in.given);
    in.files = readInputFiles(in.settings);
    fitSettingsToFiles(&in.settings, in.files, givenSizes(Settings(), in.given));
    return in;
}

RequestResult traceResultFromOptions(const CliInput& in) {
    Request r{in.settings, in.files, nullptr, nullptr, nullptr};
    if (in.settings.modelMode())
        r.model = modelOfOptions(in);
    return runRequestOrThrow(r);
}

TraceRun traceFromOptions(const CliInput& in) {
    return traceResultFromOptions(in).run;
}

const Step& requireStep(const Trace& trace, const QString& id) {
    if (const Step* s = trace.find(id.toStdString()))
        return *s;
    const ValidationIssue why = *stepProblem(stepInfos(trace), id);
    throw UserError(why.field, why.message);
}

namespace {

// The JSON of section 6 for one text's tokens.
std::string tokensJson(const std::vector<Token>& tokens) {
    std::string out = "{\"ids\": [";
    for (size_t i = 0; i < tokens.size(); ++i)
        out += (i ? ", " : "") + std::to_string(tokens[i].id);
    out += "], \"tokens\": [";
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (i)
            out += ", ";
        io::appendJsonString(out, tokenJsonText(tokens[i]));
    }
    out += "], \"token_bytes_hex\": [";
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (i)
            out += ", ";
        io::appendJsonString(out, bytesToHex(tokens[i].bytes));
    }
    return out + "]}";
}

// One line of a --jsonl file: a JSON string.
std::string jsonlText(const QByteArray& line, qsizetype number, const QString& file) {
    const QJsonDocument doc = QJsonDocument::fromJson("[" + line + "]");
    if (!doc.isArray() || doc.array().size() != 1 || !doc.array().at(0).isString())
        throw UserError("jsonl", QStringLiteral("%1, line %2: each line must be one JSON string "
                                                "(\"text\"), got %3")
                                     .arg(file)
                                     .arg(number)
                                     .arg(QString::fromUtf8(line.left(40)))
                                     .toStdString());
    return doc.array().at(0).toString().toStdString();
}

}  // namespace

int tokenizeCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOptions(
        {{"text", "Text to tokenize.", "text"},
         {"text-file", "UTF-8 file to tokenize.", "file"},
         {"jsonl",
          "Tokenize every line of this file (each a JSON string); one JSON object per "
          "line out.",
          "file"},
         {"tokenizer",
          "gpt2 (default), words, chars, or a model's tokenizer: its tokenizer.json or its "
          "folder.",
          "name|path"},
         {"no-special-tokens",
          "With a model's tokenizer: leave out the special tokens its post-processor adds (such "
          "as Gemma 3's <bos>)."}});
    parseOrThrow(p, args, "tokenize", "text -> token ids as JSON");
    if (int(p.isSet("text")) + int(p.isSet("text-file")) + int(p.isSet("jsonl")) != 1)
        throw UserError("input",
                        "Give the text with --text, --text-file or --jsonl (one of them).");
    std::function<std::vector<Token>(const std::string&)> encode;
    const QString name = p.isSet("tokenizer") ? p.value("tokenizer") : QStringLiteral("gpt2");
    if (const auto kind = parseTokenizer(name.toStdString())) {
        if (p.isSet("no-special-tokens") && *kind != TokenizerKind::Gpt2)
            throw UserError("no-special-tokens",
                            "--no-special-tokens is for a model's tokenizer; " +
                                name.toStdString() + " adds none.");
        encode = [kind = *kind](const std::string& text) { return tokenize(kind, text); };
    } else if (QFileInfo::exists(name)) {
        const auto tokenizer = io::loadTokenizer(name.toStdString());
        const bool special = !p.isSet("no-special-tokens");
        encode = [tokenizer, special](const std::string& text) {
            return tokenizer->encode(text, special);
        };
    } else {
        throw UserError("tokenizer", "Unknown tokenizer \"" + name.toStdString() +
                                         "\"; choose gpt2, words or chars, or give a "
                                         "tokenizer.json or a model folder that has one.");
    }
    if (p.isSet("jsonl")) {
        QFile f(p.value("jsonl"));
        if (!f.open(QIODevice::ReadOnly))
            throw UserError("jsonl", "Cannot read " + p.value("jsonl").toStdString() + ": " +
                                         f.errorString().toStdString());
        qsizetype number = 0;
        std::string out;
        while (!f.atEnd()) {
            const QByteArray line = f.readLine().trimmed();
            ++number;
            if (line.isEmpty())
                continue;
            out += tokensJson(encode(jsonlText(line, number, p.value("jsonl")))) + "\n";
            if (out.size() > (1 << 20)) {
                writeStdout(out);
                out.clear();
            }
        }
        writeStdout(out);
        return 0;
    }
    const std::string text =
        (p.isSet("text") ? p.value("text") : readUtf8TextFile(p.value("text-file"))).toStdString();
    writeStdout(tokensJson(encode(text)) + "\n");
    return 0;
}

int traceCommand(const QStringList& args) {
    QCommandLineParser p;
    addSettingOptions(p, {SettingGroup::Input, SettingGroup::Module});
    p.addOption({"out", "Write the JSON to this file instead of stdout.", "file"});
    parseOrThrow(p, args, "trace", "every step of one forward pass as JSON");
    const CliInput in = settingsFromOptions(p);
    const RequestResult result = traceResultFromOptions(in);
    const TraceRun& run = result.run;
    writeOutput(p, io::traceToJson(*run.trace, run.input.labels,
                                   traceConfigFacts(run.settings, run.trace->config,
                                                    result.model.model.get())));
    return 0;
}

std::string timedRunsJson(int repeat, const std::function<void()>& run) {
    std::vector<double> ms;
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        run();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    std::sort(ms.begin(), ms.end());
    const size_t n = ms.size();
    const double median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2.0;
    std::string out = "\"median_ms\": ";
    io::appendDouble(out, median);
    out += ", \"min_ms\": ";
    io::appendDouble(out, ms.front());
    out += ", \"peak_rss_bytes\": " + std::to_string(io::processPeakResidentBytes());
    return out;
}

int benchCommand(const QStringList& args) {
    QCommandLineParser p;
    addSettingOptions(p, {SettingGroup::Input, SettingGroup::Module});
    p.addOption({"repeat", "How many full traces to time (default 10).", "n"});
    parseOrThrow(p, args, "bench", "median and min milliseconds of a full trace");
    int repeat = 10;
    if (p.isSet("repeat")) {
        bool ok = false;
        repeat = p.value("repeat").toInt(&ok);
        if (!ok || repeat < 1 || repeat > 100000)
            throw UserError("repeat", "--repeat expects a whole number from 1 to 100000, got \"" +
                                          p.value("repeat").toStdString() + "\".");
    }
    const CliInput in = settingsFromOptions(p);
    if (in.settings.modelMode())
        return modelBench(in, repeat);
    TraceRequest req;
    int64_t tokens = 0;
    WeightMap parameters;
    {
        // The first run validates and warms the caches. Only its inputs and parameters stay:
        // holding its steps while the timed runs make theirs would double the peak memory.
        const TraceRun first = runSettings(in.settings, in.files);
        req.config = first.trace->config;
        req.inputs = first.x;
        parameters = first.trace->parameters;
        tokens = first.trace->tokens;
    }
    req.weights = &parameters;
    std::string out = "{\"config\": " + io::factsToJson(traceConfigFacts(in.settings, req.config)) +
                      ", \"tokens\": " + std::to_string(tokens) +
                      ", \"repeat\": " + std::to_string(repeat) + ", " +
                      timedRunsJson(repeat, [&] { (void)runTrace(req); });
    // What each timed trace holds: nothing reads its steps, so the masked ones stay triangles.
    out += ", \"trace_bytes\": " + std::to_string(estimateComputedTraceBytes(req.config, tokens)) +
           "}\n";
    writeStdout(out);
    return 0;
}

int exportCommand(const QStringList& args) {
    QCommandLineParser p;
    addSettingOptions(p, {SettingGroup::Input, SettingGroup::Module});
    p.addOptions({{"step",
                   "Step id to export (not needed for .npz); with --model, attention for every "
                   "layer's weights (L, H, T, T) as .npy.",
                   "id"},
                  {"head", "Head for CSV of a per-head step (default 0).", "h"},
                  {"batch-index", "Batch entry for CSV (default 0).", "i"},
                  {"out", "Output file: .csv, .npy, .json, or .npz for every step.", "file"}});
    parseOrThrow(p, args, "export", "a step as CSV, .npy or JSON, or every step as .npz");
    if (!p.isSet("out"))
        throw UserError("out", "Say where to write with --out F.csv|.npy|.json|.npz.");
    const std::string out = p.value("out").toStdString();
    const std::string ext = io::fileExtension(out);
    if (ext != ".csv" && ext != ".npy" && ext != ".json" && ext != ".npz")
        throw UserError("out",
                        "Cannot export to \"" + out + "\": use a .csv, .npy, .json or .npz file.");
    if (ext != ".npz" && !p.isSet("step"))
        throw UserError("step",
                        "Say which step to export with --step ID (or use a .npz file for all).");
    const CliInput in = settingsFromOptions(p);
    if (in.settings.modelMode() && p.value("step") == QLatin1String("attention")) {
        if (ext != ".npy")
            throw UserError("out",
                            "Every layer's attention is 4-dimensional (L, H, T, T): export "
                            "it to a .npy file.");
        io::writeAttentionNpy(out, *modelFromOptions(in).run);
        return 0;
    }
    const TraceRun run = traceFromOptions(in);
    if (ext == ".npz") {
        io::writeNpz(out, io::traceTensors(*run.trace));
        return 0;
    }
    const Step& step = requireStep(*run.trace, p.value("step"));
    if (ext == ".npy") {
        io::writeNpy(out, step.value);
    } else if (ext == ".json") {
        io::writeFileAtomically(out, io::stepToJson(step) + "\n");
    } else {
        const int head = nonNegativeOption(p, "head", 0);
        if (const auto why = headProblem(head, stepHeadCount(step.info), step.info.id))
            throw UserError(why->field, why->message);
        io::writeStepCsv(out, step, head, nonNegativeOption(p, "batch-index", 0), run.input.labels);
    }
    return 0;
}

int pytorchCommand(const QStringList& args) {
    QCommandLineParser p;
    addSettingOptions(p, {SettingGroup::Input, SettingGroup::Module});
    p.addOption({"out", "Write the Python code to this file instead of stdout.", "file"});
    p.addOption({"step",
                 "Also print this step after the output, under the chapter's name (attn_weights "
                 "for weights), as the app's PyTorch panel does for the step on screen.",
                 "id"});
    parseOrThrow(p, args, "pytorch", "Python code that rebuilds the same input and module");
    const CliInput in = settingsFromOptions(p);
    // Run once: the code is only offered for configurations that are valid.
    if (in.settings.modelMode()) {
        writeOutput(p, pytorchModelListing(modelFromOptions(in)).code);
        return 0;
    }
    const TraceRun run = runSettings(in.settings, in.files);
    const std::string step =
        p.isSet("step") ? requireStep(*run.trace, p.value("step")).info.id : step_id::kOutput;
    writeOutput(p, pytorchListing(run, step).code);
    return 0;
}

#ifndef ATTN_HAVE_EXPORT
int renderCommand(const QStringList&) {
    throw UserError("render",
                    "This build has no image export (it was built without the GUI libraries).");
}

int explainCommand(const QStringList&) {
    throw UserError("explain",
                    "This build has no teaching texts (it was built without the GUI libraries).");
}
#endif

}  // namespace attn::cli

#pragma once
// The subcommands of attention-lens-cli. Each returns the process exit code; bad input throws
// attn::UserError, which main() turns into one line on stderr and exit code 2.

#include <QStringList>
#include <QVariantMap>
#include <functional>
#include <string>
#include <vector>

#include "pipeline/run_request.h"

class QCommandLineParser;

namespace attn::cli {

// Parses `args` (program name first) or throws UserError with Qt's message; prints --help and
// exits 0 for --help.
void parseOrThrow(QCommandLineParser& parser, const QStringList& args, const char* command,
                  const char* description);

// The value of option `name` as a whole number from 0 (`fallback` when not given); throws
// UserError naming the option otherwise.
int nonNegativeOption(const QCommandLineParser& parser, const char* name, int fallback);

// The settings the options describe, with the files they name read and fitted (an embeddings
// file's d_in and batch, a weights file's mask buffer) unless the options say otherwise.
struct CliInput {
    QVariantMap given;  // the settings the options set explicitly
    Settings settings;
    InputFiles files;
};
CliInput settingsFromOptions(const QCommandLineParser& parser);

// The step `id` of the trace, or a UserError listing the steps it has (stepProblem).
const Step& requireStep(const Trace& trace, const QString& id);

// Model mode (--model): the model the options name (with --heads if given), read.
std::shared_ptr<const DecoderModel> modelOfOptions(const CliInput& in);
// Model mode: that model's forward on the text (no layer trace).
ModelRun modelFromOptions(const CliInput& in);
// The trace the options describe, as the app shows it: the chapter-3 module's, or with --model
// block --layer's attention as the chapter-3 trace with the rest of the block around it.
TraceRun traceFromOptions(const CliInput& in);
// The same run with the model it read (result.model.model; null in chapter-3 mode).
RequestResult traceResultFromOptions(const CliInput& in);
// `bench --model`: load time, then the model's forward on the text (every layer's attention kept)
// and the last position's next tokens, timed `repeat` times.
int modelBench(const CliInput& in, int repeat);

// Calls `run` `repeat` times and returns the JSON members
// `"median_ms": M, "min_ms": N, "peak_rss_bytes": B` (B: the process's peak resident memory so
// far, 0 where the system does not say). `run` should drop what it makes before it returns, so
// that one run's memory is held at a time.
std::string timedRunsJson(int repeat, const std::function<void()>& run);

// A token's text in the CLI's JSON: its display text, except for a token that is only part
// of a UTF-8 character, whose bytes are written as Hugging Face names byte tokens, "<0xEC>"
// per byte ("<0xE6><0xB3>"): bare hex ("ec") would read as the text "ec".
std::string tokenJsonText(const Token& token);

// What a command that succeeded must still say (GPT-2's tokenizer standing in for a model's):
// main() prints each as a line "attention-lens-cli: note: ..." on stderr after the output, and
// never beside an error, which stays the one line.
std::vector<std::string>& notes();

int tokenizeCommand(const QStringList& args);
int modelCommand(const QStringList& args);
int generateCommand(const QStringList& args);
int traceCommand(const QStringList& args);
int benchCommand(const QStringList& args);
int exportCommand(const QStringList& args);
int pytorchCommand(const QStringList& args);
int renderCommand(const QStringList& args);   // needs a QApplication (offscreen is fine)
int explainCommand(const QStringList& args);  // likewise (rich text is laid out to convert it)

}  // namespace attn::cli

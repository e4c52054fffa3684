#pragma once
// The subcommands of attention-lens-cli. Each returns the process exit code; bad input throws
// attn::EngineError, which main() turns into one line on stderr and exit code 2.

#include <QStringList>

class QCommandLineParser;

namespace attn::cli {

// The value of option `name` as a whole number from 0 (`fallback` when not given); throws
// EngineError naming the option otherwise.
int nonNegativeOption(const QCommandLineParser& parser, const char* name, int fallback);

int tokenizeCommand(const QStringList& args);
int traceCommand(const QStringList& args);
int benchCommand(const QStringList& args);
int exportCommand(const QStringList& args);
int pytorchCommand(const QStringList& args);
int renderCommand(const QStringList& args);  // needs a QApplication (offscreen is fine)

}  // namespace attn::cli

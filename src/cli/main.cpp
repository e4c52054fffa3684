// attention-lens-cli: the engine without a window. Exit 0 on success, 2 with one line on stderr
// for bad input; never a partial output file.

#include <QCoreApplication>
#ifdef ATTN_HAVE_EXPORT
#include <QApplication>
#endif
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>

#include "cli/commands.h"
#include "engine/cancel.h"
#include "engine/config.h"
#include "pipeline/version.h"

namespace {

// The whole --help; help2man makes the man page from it (and from each command's --help), so
// its headings ("Commands:", "Options:", "Examples:") are the ones help2man turns into sections.
const char* kUsage =
    "Usage: attention-lens-cli <command> [options]\n"
    "Runs the attention engine of Attention Lens without a window: every step of chapter 3's\n"
    "attention modules as JSON, CSV, NumPy files or figures, with the numbers PyTorch gives.\n"
    "\n"
    "Commands:\n"
    "  tokenize   Text -> GPT-2 (or words/chars) token ids as JSON\n"
    "  model      A trained GPT model's attention in every layer and its next tokens\n"
    "  generate   Text a trained model writes, token by token (greedy or sampled)\n"
    "  trace      Every step of one forward pass as JSON\n"
    "  render     A step's heatmap as PNG, SVG or PDF (--all-steps DIR for every step)\n"
    "  export     A step as CSV, .npy or JSON, or every step as .npz\n"
    "  pytorch    Python code that rebuilds the same input and module in PyTorch\n"
    "  explain    What the app's Explain panel says about a step and a cell (--all-steps: all)\n"
    "  bench      Median and min milliseconds of a full trace\n"
    "\n"
    "Options:\n"
    "  -h, --help     Show this help and exit.\n"
    "  --version      Show the version and exit.\n"
    "\n"
    "Run 'attention-lens-cli <command> --help' for the options of a command.\n"
    "\n"
    "Examples:\n"
    "  attention-lens-cli trace --preset book --variant self-attention-v1 --seed 123\n"
    "  attention-lens-cli export --text \"Hello world\" --step weights --out weights.csv\n"
    "  attention-lens-cli render --preset book --all-steps figures/ --format svg\n"
    "\n"
    "Exit status: 0 on success; 2 for bad input, with one line on stderr that says what is\n"
    "wrong and what would be right. No partial output file is ever left behind.\n";

// The CLI speaks in one-line errors of its own; Qt's diagnostics (e.g. about XDG_RUNTIME_DIR on
// a headless machine) would only add noise to stderr.
void quietQtMessages(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtFatalMsg)
        std::fprintf(stderr, "attention-lens-cli: %s\n", qPrintable(message));
}

int fail(const std::string& message) {
    std::fprintf(stderr, "attention-lens-cli: %s\n", message.c_str());
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (std::strcmp(argv[1], "--version") == 0) {
        std::printf("attention-lens-cli %s\n", attn::kVersion);
        return 0;
    }
    const std::string command = argv[1];
    qInstallMessageHandler(quietQtMessages);
    // render draws with QCustomPlot, which needs widgets, and explain lays out rich text;
    // everything else stays windowless.
    std::unique_ptr<QCoreApplication> app;
#ifdef ATTN_HAVE_EXPORT
    if (command == "render" || command == "explain") {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QApplication>(argc, argv);
    }
#endif
    if (!app)
        app = std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName("attention-lens-cli");
    QCoreApplication::setApplicationVersion(QString::fromLatin1(attn::kVersion));
    QStringList args = QCoreApplication::arguments();
    args.removeAt(1);  // the command; QCommandLineParser sees "attention-lens-cli --options"

    try {
        int (*run)(const QStringList&) = nullptr;
        if (command == "tokenize")
            run = attn::cli::tokenizeCommand;
        else if (command == "model")
            run = attn::cli::modelCommand;
        else if (command == "generate")
            run = attn::cli::generateCommand;
        else if (command == "trace")
            run = attn::cli::traceCommand;
        else if (command == "bench")
            run = attn::cli::benchCommand;
        else if (command == "export")
            run = attn::cli::exportCommand;
        else if (command == "pytorch")
            run = attn::cli::pytorchCommand;
        else if (command == "render")
            run = attn::cli::renderCommand;
        else if (command == "explain")
            run = attn::cli::explainCommand;
        if (run) {
            const int code = run(args);
            for (const std::string& note : attn::cli::notes())
                std::fprintf(stderr, "attention-lens-cli: note: %s\n", note.c_str());
            return code;
        }
        return fail("unknown command \"" + command +
                    "\"; the commands are tokenize, model, generate, trace, render, export, "
                    "pytorch, explain, bench.");
    } catch (const attn::UserError& e) {
        return fail(e.what());
    } catch (const attn::Cancelled& e) {
        return fail(e.what());
    } catch (const std::bad_alloc&) {
        return fail("out of memory: this configuration is too large for this machine.");
    } catch (const std::exception& e) {
        return fail(std::string("internal error: ") + e.what());
    }
}

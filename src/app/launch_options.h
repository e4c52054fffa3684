#pragma once
// Command-line options of the desktop app: the CLI's input and model options (SPEC section 6,
// declared and read by cli/run_options), plus --step, --head, --colormap, --screenshot and an
// optional SESSION (.attnlens) to open.

#include <QString>
#include <QStringList>
#include <vector>

#include "app/app_types.h"

namespace attn {

struct LaunchOptions {
    AppState state;               // the app's defaults with the options given applied
    QString sessionFile;          // SESSION: a saved session to open first
    QString screenshot;           // --screenshot FILE
    QString embeddingsFile;       // --embeddings F, for MainWindow::loadEmbeddings
    QString weightsFile;          // --weights F, for MainWindow::loadWeights
    QStringList givenOptions;     // the input/model/view options given, by name ("heads", ...)
    bool anyStateOption = false;  // any input/model/view option given: do not restore settings
    bool stepGiven = false;
    bool headGiven = false;
};

// Parses `arguments` (argv, program name first). On failure returns false and sets `error` to
// one line naming the problem. For --help it returns false with `error` empty and the text to
// print in `helpText`.
bool parseLaunchOptions(const QStringList& arguments, LaunchOptions* out, QString* error,
                        QString* helpText = nullptr);

// `base` with the options given on the command line applied, and only those: how the options
// override an opened session. `options.state` is applyLaunchOptions(AppState{}, options).
AppState applyLaunchOptions(const AppState& base, const LaunchOptions& options);

// Checks the parsed state as the GUI would run it (tokenizes typed text, validates the
// configuration, checks --step/--head against the plan). Returns an empty string when fine.
QString checkLaunchState(const LaunchOptions& options);

// The window's controls have limits of their own (batch at most 64, dropout in steps of 0.01,
// ...). Compares the state asked for with the state the window shows after setState() and
// names the first setting the controls changed, e.g. "--batch 100 is more than the app allows:
// it would become 64." Empty when nothing changed.
QString describeAdjustedSetting(const AppState& wanted, const AppState& shown);

// Every setting the controls changed: its option name ("batch", "context-length", "mask"), the
// value asked for and the value shown, as text.
struct AdjustedSetting {
    QString option, wanted, shown;
};
std::vector<AdjustedSetting> adjustedSettings(const AppState& wanted, const AppState& shown);

}  // namespace attn

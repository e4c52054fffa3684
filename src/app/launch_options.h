#pragma once
// Command-line options of the desktop app. Same names as the CLI (SPEC section 6), plus
// --step, --head, --colormap and --screenshot.

#include <QString>
#include <QStringList>

#include "app/app_types.h"

namespace attn {

struct LaunchOptions {
    AppState state;
    QString screenshot;           // --screenshot FILE
    QString embeddingsFile;       // --embeddings F (needs attn_io)
    QString weightsFile;          // --weights F (needs attn_io)
    bool anyStateOption = false;  // any input/model/view option given: do not restore settings
    bool stepGiven = false;
    bool headGiven = false;
};

// Parses `arguments` (argv, program name first). On failure returns false and sets `error` to
// one line naming the problem. `--help`/`--version` set `exitNow` with the text to print.
bool parseLaunchOptions(const QStringList& arguments, LaunchOptions* out, QString* error,
                        QString* helpText = nullptr);

// Checks the parsed state as the GUI would run it (tokenizes typed text, validates the
// configuration, checks --step/--head against the plan). Returns an empty string when fine.
QString checkLaunchState(const LaunchOptions& options);

}  // namespace attn

#pragma once
// The desktop app's command line: every settings option of the CLI (read by the pipeline's
// option parser, so both programs take the same options), plus --screenshot FILE and an optional
// SESSION (.attnlens) whose settings the options override, --page to open a trained model on its
// overview or head scores, and --theme for this run.

#include <QString>
#include <QStringList>
#include <QVariantMap>

#include "app/workspace.h"

namespace attn {

struct DecoderArchitecture;

struct LaunchOptions {
    QVariantMap given;    // the settings the options set (pipeline/options.h)
    QString sessionFile;  // SESSION
    QString screenshot;   // --screenshot FILE
    QString page;         // --page: "steps", "overview" or "scores" (model mode), empty: steps
    QString theme;        // --theme system|light|dark (this run only); empty: the remembered one
    QString lesson;       // --lesson chapter3|trained-model: start that tour; empty: none
    bool anySetting() const { return !given.isEmpty(); }
};

// Parses `arguments` (argv, program name first). False with one line in `error` on a problem;
// for --help and --version, false with `error` empty and the text to print in `helpText`.
bool parseLaunchOptions(const QStringList& arguments, LaunchOptions* out, QString* error,
                        QString* helpText = nullptr);

// `base` with the options applied and the files they name read; the problems of the result as
// one line, as the CLI says them (no tokens, heads that do not divide d_out, an unknown --step,
// a file that cannot be read). Empty `error` when it can be shown.
WorkspaceState launchState(const WorkspaceState& base, const LaunchOptions& options,
                           QString* error);

// Why a trained model lacks the --layer or --head a launch asked for (-1: not asked), in one
// line; empty when it has both. Known only once the model has been read.
QString launchModelMismatch(const DecoderArchitecture& arch, int layer, int head,
                            const QString& step = {}, bool simpleMaskSteps = true);

}  // namespace attn

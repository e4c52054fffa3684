#include "app/launch.h"

#include <QCommandLineParser>
#include <QFileInfo>

#include "app/theme_actions.h"
#include "pipeline/issue_text.h"
#include "pipeline/options.h"
#include "pipeline/run_request.h"
#include "pipeline/step_files.h"
#include "pipeline/version.h"
#include "teach/lesson.h"

namespace attn {

bool parseLaunchOptions(const QStringList& arguments, LaunchOptions* out, QString* error,
                        QString* helpText) {
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Attention Lens: see transformer attention step by step.\n"
                       "SESSION opens a saved session (.attnlens); input, model and view options "
                       "given with it\noverride the session's settings."));
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    p.addOption(help);
    const QCommandLineOption version(QStringLiteral("version"),
                                     QStringLiteral("Show the version and exit."));
    p.addOption(version);
    addSettingOptions(p, {SettingGroup::Input, SettingGroup::Module, SettingGroup::View});
    p.addOption({QStringLiteral("screenshot"),
                 QStringLiteral("Save a screenshot of the window, as it opens on this screen, to "
                                "the file (PNG) once the first result is shown, and exit."),
                 QStringLiteral("file")});
    p.addOption({QStringLiteral("page"),
                 QStringLiteral("With --model: open on the page <name>: steps (one layer step by "
                                "step, the default), overview (every layer and head), scores "
                                "(the head scores) or lens (the logit lens)."),
                 QStringLiteral("name")});
    p.addOption({QStringLiteral("lesson"),
                 QStringLiteral("Start a guided tour: chapter3 (the chapter-3 tour), "
                                "trained-model (attention in the bundled trained model), "
                                "after-chapter3 (what changed in attention after chapter 3), "
                                "why (asking a trained model why: heads switched off, the logit "
                                "lens, sampling) or copies (how a model copies: the induction "
                                "circuit)."),
                 QStringLiteral("name")});
    p.addOption({QStringLiteral("theme"),
                 QStringLiteral("system, light or dark: the window's theme for this run (View > "
                                "Theme chooses the one the app starts with)."),
                 QStringLiteral("theme")});
    p.addPositionalArgument(QStringLiteral("SESSION"),
                            QStringLiteral("A saved session (.attnlens) to open. Options given "
                                           "with it override its settings."),
                            QStringLiteral("[SESSION]"));
    if (!p.parse(arguments)) {
        *error = p.errorText();
        return false;
    }
    if (p.isSet(version)) {
        if (helpText)
            *helpText = QStringLiteral("attention-lens %1\n").arg(QLatin1String(kVersion));
        error->clear();
        return false;
    }
    if (p.isSet(help)) {
        if (helpText) {
            // Qt names the program by its path once QApplication exists: the usage line always
            // says "attention-lens".
            *helpText = p.helpText();
            const QString usage = QStringLiteral("Usage: ");
            const qsizetype end = helpText->indexOf(QStringLiteral(" [options]"));
            if (helpText->startsWith(usage) && end > usage.size())
                helpText->replace(usage.size(), end - usage.size(),
                                  QStringLiteral("attention-lens"));
        }
        error->clear();
        return false;
    }
    const QStringList positional = p.positionalArguments();
    if (positional.size() > 1) {
        *error = QStringLiteral("Give at most one session file (.attnlens); got %1: \"%2\".")
                     .arg(positional.size())
                     .arg(positional.join(QStringLiteral("\", \"")));
        return false;
    }
    LaunchOptions o;
    o.sessionFile = positional.value(0);
    try {
        o.given = givenSettings(p);
    } catch (const UserError& e) {
        *error = errorText(e);
        return false;
    }
    if (p.isSet(QStringLiteral("screenshot"))) {
        o.screenshot = p.value(QStringLiteral("screenshot"));
        const QFileInfo info(o.screenshot);
        if (o.screenshot.isEmpty()) {
            *error = QStringLiteral("--screenshot: empty file name.");
            return false;
        }
        if (!QFileInfo(info.absolutePath()).isDir() ||
            !QFileInfo(info.absolutePath()).isWritable()) {
            *error =
                QStringLiteral("--screenshot: the folder %1 does not exist or is not writable.")
                    .arg(info.absolutePath());
            return false;
        }
    }
    if (p.isSet(QStringLiteral("page"))) {
        o.page = p.value(QStringLiteral("page"));
        if (!QStringList{"steps", "overview", "scores", "lens"}.contains(o.page)) {
            *error = QStringLiteral("--page expects steps, overview, scores or lens, got \"%1\".")
                         .arg(o.page);
            return false;
        }
        if (o.page != QLatin1String("steps") && !o.given.contains(QStringLiteral("model")) &&
            o.sessionFile.isEmpty()) {
            *error =
                QStringLiteral("--page %1 shows a trained model: give --model too.").arg(o.page);
            return false;
        }
    }
    if (p.isSet(QStringLiteral("lesson"))) {
        o.lesson = p.value(QStringLiteral("lesson"));
        if (!lessonNamed(o.lesson)) {
            *error = QStringLiteral(
                         "--lesson expects chapter3, trained-model, after-chapter3, why or "
                         "copies, got \"%1\".")
                         .arg(o.lesson);
            return false;
        }
    }
    if (p.isSet(QStringLiteral("theme"))) {
        o.theme = p.value(QStringLiteral("theme"));
        Theme theme;
        if (!parseTheme(o.theme, &theme)) {
            *error = QStringLiteral(
                         "--theme: \"%1\" is not a theme; the themes are system, light "
                         "and dark.")
                         .arg(o.theme);
            return false;
        }
    }
    *out = o;
    return true;
}

WorkspaceState launchState(const WorkspaceState& base, const LaunchOptions& options,
                           QString* error) {
    error->clear();
    WorkspaceState state = base;
    try {
        state.settings = applyGivenSettings(base.settings, options.given);
        const auto given = [&](const char* key) {
            return options.given.contains(QLatin1String(key));
        };
        // Files named by the options are read here; those of the base (a session) are already.
        if (given("embeddings_file"))
            state.files.embeddings = readEmbeddings(state.settings.embeddingsFile);
        if (given("weights_file"))
            state.files.weights = readWeights(state.settings.weightsFile);
        if (state.settings.source != InputSource::File)
            state.files.embeddings.reset();
        fitSettingsToFiles(&state.settings, state.files, givenSizes(base.settings, options.given));
    } catch (const UserError& e) {
        *error = errorText(e);
        return base;
    }
    // A trained model is read after the window opens: its problems (too many tokens, a
    // layer it lacks) are shown there, next to their controls. Its steps are known by name.
    const bool model = state.settings.modelMode();
    if (model) {
        try {
            modelFilePath(state.settings.modelFile);  // a file, or the name of a bundled model
        } catch (const UserError& e) {
            *error = errorText(e);
            return base;
        }
    }
    InputTokens tokens;
    try {
        // A text far beyond the context length is refused here, before it is tokenized whole.
        // A model's text is not tokenized here at all: its tokenizer is not read yet, and only
        // the step names matter to the check below, not how many tokens there are.
        if (!model)
            tokens = tokenizeInput(state.settings, state.files);
    } catch (const UserError& e) {
        *error = errorText(e);
        return base;
    }
    const auto issues = model ? std::vector<ValidationIssue>{}
                              : checkSettings(state.settings, state.files, tokens.count());
    if (!issues.empty()) {
        *error = QString::fromStdString(issues.front().message);
        return base;
    }
    const std::vector<StepInfo> plan =
        model ? plannedModelSteps(DecoderArchitecture{}, 0, tokens.count(),
                                  state.settings.config.simpleMaskSteps)
              : planSteps(state.settings.config, tokens.count());
    // The same checks and words as the CLI's (pipeline/run_request.h). A model's heads are
    // checked once it is read (launchModelMismatch).
    std::optional<ValidationIssue> problem;
    const bool stepGiven = options.given.contains(QStringLiteral("step"));
    // A model's steps depend on its family (a Llama layer has RoPE's, a GPT-2 layer has not):
    // they too are checked once it is read.
    if (stepGiven && !model)
        problem = stepProblem(plan, state.settings.step);
    if (!problem && options.given.contains(QStringLiteral("head")) && !model) {
        if (stepGiven) {
            for (const StepInfo& s : plan)
                if (QString::fromStdString(s.id) == state.settings.step)
                    problem = headProblem(state.settings.head, stepHeadCount(s), s.id);
        } else {
            problem = headProblem(state.settings.head, state.settings.config.effectiveHeads());
        }
    }
    if (problem) {
        *error = QString::fromStdString(problem->message);
        return base;
    }
    return state;
}

QString launchModelMismatch(const DecoderArchitecture& arch, int layer, int head,
                            const QString& step, bool simpleMaskSteps) {
    // "--layer 4: the model has 4 layers (0 to 3); layer 4 does not exist."
    const auto lacks = [](const QString& what, int asked, int64_t count) {
        return QStringLiteral("--%1 %2: the model has %3 %1s (0 to %4); %1 %2 does not exist.")
            .arg(what)
            .arg(asked)
            .arg(count)
            .arg(count - 1);
    };
    if (layer >= arch.layers)
        return lacks(QStringLiteral("layer"), layer, arch.layers);
    if (head >= arch.heads)
        return lacks(QStringLiteral("head"), head, arch.heads);
    if (!step.isEmpty())
        if (const auto problem = stepProblem(plannedModelSteps(arch, 0, 1, simpleMaskSteps), step))
            return QString::fromStdString(problem->message);
    return {};
}

}  // namespace attn

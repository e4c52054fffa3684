// attention-lens: the desktop app. The CLI's input, model and view options, --screenshot FILE
// (render the window as it opens on this screen once the first result is shown, save it as PNG
// and exit) and an optional SESSION (.attnlens) to open, which the options override.

#include <QApplication>
#include <QElapsedTimer>
#include <QIcon>
#include <QImageWriter>
#include <QStatusBar>
#include <QTimer>

#include <cstdio>
#include <memory>

#include "app/language_actions.h"
#include "app/launch.h"
#include "app/main_window.h"
#include "app/session_actions.h"
#include "app/theme_actions.h"
#include "app/workspace.h"
#include "pipeline/issue_text.h"
#include "pipeline/version.h"

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "attention-lens: %s\n", message.toLocal8Bit().constData());
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    // Options are checked before the QApplication exists, so a bad option prints exactly one
    // line (the platform plugin may print notes of its own once it starts).
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    attn::LaunchOptions options;
    QString error, help;
    if (!attn::parseLaunchOptions(arguments, &options, &error, &help)) {
        if (!help.isEmpty()) {
            std::fputs(help.toLocal8Bit().constData(), stdout);
            return 0;
        }
        return fail(error);
    }
    const bool screenshot = !options.screenshot.isEmpty();
    // A session is read here too, so a missing or corrupt one is one line and no window; the
    // options are checked as they apply to it.
    attn::WorkspaceState base{attn::Settings(), {}};
    if (!options.sessionFile.isEmpty()) {
        try {
            QStringList notes;
            base = attn::sessionState(attn::readSession(options.sessionFile, nullptr), &notes);
        } catch (const std::exception& e) {
            return fail(attn::errorText(e));
        }
    }
    if (options.sessionFile.isEmpty() || options.anySetting() || screenshot) {
        attn::launchState(base, options, &error);
        if (!error.isEmpty())
            return fail(error);
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Attention Lens"));
    QApplication::setOrganizationName(QStringLiteral("AttentionLens"));
    QApplication::setApplicationVersion(QLatin1String(attn::kVersion));
    QApplication::setApplicationDisplayName(QStringLiteral("Attention Lens"));
    // The window system matches the window to the installed .desktop entry (its name and icon
    // in the task bar) by this id.
    QGuiApplication::setDesktopFileName(QLatin1String(attn::kDesktopId));
    QApplication::setWindowIcon(
        QIcon(QStringLiteral(":/resources/icons/%1.svg").arg(QLatin1String(attn::kDesktopId))));
    // Theme and language before the first widget exists, so the window opens in them: the
    // remembered ones, or --theme for this run.
    attn::Theme theme = attn::rememberedTheme();
    if (!options.theme.isEmpty())
        attn::parseTheme(options.theme, &theme);
    attn::applyTheme(theme);
    attn::installTranslations(attn::rememberedLanguage());

    attn::MainWindow::Options wo;
    wo.useSettings = !screenshot;
    wo.restoreSettings = !options.anySetting() && options.sessionFile.isEmpty();
    attn::MainWindow window(wo);
    attn::Workspace* workspace = window.workspace();
    if (!options.sessionFile.isEmpty()) {
        attn::SessionActions* sessions = window.sessions();
        sessions->setMessageHook([&](const QString&, const QString& text) { error = text; });
        // A screenshot leaves the remembered settings, the recent list among them, as they were.
        const QStringList recent = attn::SessionActions::recentSessions();
        const bool opened = sessions->openSession(options.sessionFile);
        sessions->setMessageHook({});
        if (screenshot) {
            attn::SessionActions::clearRecentSessions();
            for (auto it = recent.crbegin(); it != recent.crend(); ++it)
                attn::SessionActions::addRecentSession(*it);
            window.statusBar()->clearMessage();
        }
        if (!opened)
            return fail(error);
    }
    if (options.anySetting()) {
        const attn::WorkspaceState state =
            attn::launchState({workspace->settings(), workspace->files()}, options, &error);
        if (!error.isEmpty())
            return fail(error);
        workspace->reset(state);
        // A trained model's layers and heads are known once it has been read, after the window
        // opened: a --layer or --head it lacks then ends the program with one line, as any other
        // bad option does (the window would otherwise show the nearest layer without a word).
        // Checked once, on the model the launch named: a model opened later from the window
        // may have fewer layers, and that is no reason to end the program.
        const int layer =
            options.given.contains(QStringLiteral("layer")) ? state.settings.layer : -1;
        const int head = options.given.contains(QStringLiteral("head")) ? state.settings.head : -1;
        const QString step =
            options.given.contains(QStringLiteral("step")) ? state.settings.step : QString();
        const bool simpleMask = state.settings.config.simpleMaskSteps;
        if (state.settings.modelMode() && (layer >= 0 || head >= 0 || !step.isEmpty())) {
            auto check = std::make_shared<QMetaObject::Connection>();
            *check = QObject::connect(workspace, &attn::Workspace::resultApplied, &window, [=] {
                const auto& model = workspace->model();
                if (!model)
                    return;
                QObject::disconnect(*check);
                const QString why =
                    attn::launchModelMismatch(model->arch, layer, head, step, simpleMask);
                if (!why.isEmpty())
                    QApplication::exit(fail(why));
            });
        }
    }

    if (!options.lesson.isEmpty())
        window.startLesson(*attn::lessonNamed(options.lesson));  // checked by parseLaunchOptions
    if (!options.page.isEmpty())
        window.showPage(options.page);

    int exitCode = 0;
    if (screenshot) {
        QObject::connect(workspace, &attn::Workspace::resultApplied, &window, [&](quint64 gen) {
            // Wait for the newest request (the options may have queued more than one).
            if (workspace->hasPendingWork() || gen != workspace->latestGeneration())
                return;
            // Let layouts, plots and the views' background work settle, then grab.
            auto* poll = new QTimer(&window);
            QElapsedTimer waited;
            waited.start();
            poll->start(20);
            QObject::connect(poll, &QTimer::timeout, &window, [&, poll, waited] {
                if (!window.isSettled() && waited.elapsed() < 20000)
                    return;
                poll->stop();
                poll->deleteLater();
                if (!workspace->shownRun()) {
                    // Why, as the window shows it next to its control (a token beyond the
                    // model's vocabulary, a text beyond its context).
                    const auto& issues = workspace->issues();
                    exitCode = fail(issues.empty()
                                        ? QStringLiteral("the configuration could not be computed")
                                        : QString::fromStdString(issues.front().message));
                } else {
                    QCoreApplication::processEvents();  // queued replots
                    QImageWriter writer(options.screenshot, "png");
                    if (!writer.write(window.grab().toImage()))
                        exitCode = fail(QStringLiteral("--screenshot: cannot write %1: %2")
                                            .arg(options.screenshot, writer.errorString()));
                }
                QApplication::exit(exitCode);
            });
        });
        // A model file that cannot be read ends the screenshot with its reason.
        QObject::connect(workspace, &attn::Workspace::modelFailed, &window,
                         [&](const QString&, const QString& why) {
                             exitCode = fail(why);
                             QApplication::exit(exitCode);
                         });
        // Never hang in scripts: give up after 10 minutes.
        QTimer::singleShot(10 * 60 * 1000, &window, [&] {
            exitCode = fail(QStringLiteral("--screenshot: no result after 10 minutes"));
            QApplication::exit(exitCode);
        });
    }
    window.show();
    return QApplication::exec() == 0 ? exitCode : 2;
}

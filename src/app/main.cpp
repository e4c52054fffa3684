// attention-lens: the desktop app. Options as in the CLI (SPEC section 6), plus --step, --head,
// --colormap, --screenshot FILE (render the window once the first result is shown, save it as
// PNG and exit) and an optional SESSION (.attnlens) to open, which the options override.

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QImageWriter>
#include <QPixmap>
#include <QStatusBar>
#include <QTimer>
#include <cstdio>
#include <exception>

#include "app/file_actions.h"
#include "app/launch_options.h"
#include "app/main_window.h"
#include "app/session.h"
#include "app/trace_controller.h"

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "attention-lens: %s\n", message.toLocal8Bit().constData());
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    // Options are checked before the QApplication exists, so a bad option prints exactly one
    // line (the platform plugin may print its own notes once it starts).
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    attn::LaunchOptions options;
    QString error;
    QString help;
    if (!attn::parseLaunchOptions(arguments, &options, &error, &help)) {
        if (!help.isEmpty()) {
            std::fputs(help.toLocal8Bit().constData(), stdout);
            return 0;
        }
        return fail(error);
    }
    const bool screenshot = !options.screenshot.isEmpty();
    // A session is read here too, so a missing or corrupt one is one line and no window. The
    // options are checked as they apply to it; a session on its own opens as the File menu
    // opens it (the window shows any problem of its settings), except for a screenshot.
    attn::LaunchOptions checked = options;
    if (!options.sessionFile.isEmpty()) {
        try {
            checked.state = attn::applyLaunchOptions(
                attn::readSession(options.sessionFile, nullptr).state, options);
        } catch (const std::exception& e) {
            return fail(QString::fromStdString(e.what()));
        }
    }
    if (options.sessionFile.isEmpty() || options.anyStateOption || screenshot) {
        const QString problem = attn::checkLaunchState(checked);
        if (!problem.isEmpty())
            return fail(problem);
    }
    if (screenshot) {
        const QFileInfo info(options.screenshot);
        if (!QFileInfo(info.absolutePath()).isDir())
            return fail(
                QStringLiteral("--screenshot: folder %1 does not exist").arg(info.absolutePath()));
        if (!QFileInfo(info.absolutePath()).isWritable())
            return fail(
                QStringLiteral("--screenshot: folder %1 is not writable").arg(info.absolutePath()));
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Attention Lens"));
    QApplication::setOrganizationName(QStringLiteral("AttentionLens"));
    QApplication::setApplicationVersion(QStringLiteral(ATTN_VERSION));
    QApplication::setApplicationDisplayName(QStringLiteral("Attention Lens"));

    attn::MainWindow::Options wo;
    wo.useSettings = !screenshot;
    wo.restoreState = !options.anyStateOption && options.sessionFile.isEmpty();
    attn::MainWindow window(wo);
    if (!options.sessionFile.isEmpty()) {
        attn::FileActions* files = window.fileActions();
        QString sessionError;
        files->setMessageHook([&](const QString&, const QString& text) { sessionError = text; });
        const QStringList recent = attn::FileActions::recentSessions();
        const bool opened = files->openSession(options.sessionFile);
        files->setMessageHook({});
        if (screenshot) {
            // A screenshot leaves the settings, and so the recent list, alone, and shows the
            // view without the "Opened ..." note in the status bar.
            attn::FileActions::clearRecentSessions();
            for (auto it = recent.crbegin(); it != recent.crend(); ++it)
                attn::FileActions::addRecentSession(*it);
            window.statusBar()->clearMessage();
        }
        if (!opened)
            return fail(sessionError);
    }
    // The options override the session's settings (or the defaults without a session).
    if (options.anyStateOption) {
        const attn::AppState wanted = options.sessionFile.isEmpty()
                                          ? options.state
                                          : attn::applyLaunchOptions(window.state(), options);
        window.setState(wanted);
        const QString adjusted = attn::describeAdjustedSetting(wanted, window.state());
        if (!adjusted.isEmpty())
            return fail(adjusted);
    }

    if (!options.embeddingsFile.isEmpty() && !window.loadEmbeddings(options.embeddingsFile, &error))
        return fail(QStringLiteral("--embeddings: ") + error);
    if (!options.weightsFile.isEmpty() && !window.loadWeights(options.weightsFile, &error))
        return fail(QStringLiteral("--weights: ") + error);

    int exitCode = 0;
    if (screenshot) {
        window.resize(1600, 1000);
        QObject::connect(&window, &attn::MainWindow::resultApplied, &window, [&](quint64 gen) {
            // Wait for the newest request (options may have queued more than one).
            if (window.hasPendingChanges() || gen != window.controller()->latestGeneration())
                return;
            // Let layouts and the plot settle for one event-loop turn, then grab.
            QTimer::singleShot(0, &window, [&] {
                if (!window.shownResult()) {
                    exitCode = fail(QStringLiteral("the configuration could not be computed"));
                } else {
                    QCoreApplication::processEvents();  // queued replots of the plots
                    const QPixmap shot = window.grab();
                    QImageWriter writer(options.screenshot, "png");
                    if (!writer.write(shot.toImage()))
                        exitCode = fail(QStringLiteral("--screenshot: cannot write %1: %2")
                                            .arg(options.screenshot, writer.errorString()));
                }
                QApplication::exit(exitCode);
            });
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

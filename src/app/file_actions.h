#pragma once
// The File menu's sessions and exports, kept out of the main window: open/save sessions
// (.attnlens), the recent list, the window title with its "changed" mark, export of every step
// as images, export of the current step's data (CSV, .npy, JSON) and of the whole trace (.npz),
// and the heatmap's context menu. Every non-interactive function below is what the menu action
// does after its file dialog, so tests drive the same code the user does.

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <functional>

class QAction;
class QFrame;
class QLabel;
class QMenu;
class QWidget;

namespace attn {

class MainWindow;
struct Session;
struct Step;

class FileActions : public QObject {
    Q_OBJECT
  public:
    // Builds the actions; install() puts them into the menus.
    explicit FileActions(MainWindow* window);
    ~FileActions() override;

    // Adds the session and export actions to `fileMenu` around `exportImage`, and gives the
    // heatmap a context menu with the image and data exports and `copyImage`.
    void install(QMenu* fileMenu, QAction* exportImage, QAction* copyImage);
    // A box listing what did not come back when a session opened (hidden when empty).
    QWidget* notesWidget() const;
    // The heatmap's right-click menu (the caller owns it): image export, copy, all steps, data.
    QMenu* createHeatmapMenu(QWidget* parent) const;

    // --- Sessions
    // Reads `path` and restores it. A corrupt or newer file is refused with a message and the
    // window stays exactly as it was (returns false). Missing or changed files are noted.
    bool openSession(const QString& path);
    // Writes the window to `path` (atomically). Returns false after showing the error.
    bool saveSessionTo(const QString& path);
    // The session the window shows (empty path: none) and whether it changed since saved.
    QString sessionPath() const { return sessionPath_; }
    bool isModified() const { return modified_; }
    // Before the window closes or another session replaces this one: when the session has
    // unsaved changes, asks whether to save them (Save / Discard / Cancel). Returns false when
    // the user cancels or saving fails, so the caller keeps the window as it is.
    bool maybeSaveChanges();
    // The notes of the last open (missing files, settings an older file lacked).
    QStringList sessionNotes() const { return notes_; }
    // The window as a session (state, loaded files with their SHA-256, layout).
    Session currentSession() const;

    // Recent sessions, newest first, at most kMaxRecent (QSettings "session/recent").
    static constexpr int kMaxRecent = 8;
    static QStringList recentSessions();
    static void addRecentSession(const QString& path);
    static void clearRecentSessions();

    // --- Exports (of the result shown)
    struct ExportAllResult {
        QStringList files;  // complete files written, in order
        int total = 0;      // files planned
        bool cancelled = false;
        bool ok = false;  // every file written
    };
    // Called before each file and once at the end (done == total); return false to cancel.
    using ProgressFn = std::function<bool(int done, int total, const QString& file)>;
    // One figure per step and head into `dir`, named as `render --all-steps` names them:
    // <step>.<format> or <step>_head<H>.<format>. `format` is svg, png or pdf. Drawn on the GUI
    // thread; events are processed between files through `progress`.
    ExportAllResult exportAllSteps(const QString& dir, const QString& format,
                                   const ProgressFn& progress = {});
    // The file names exportAllSteps writes for the result shown.
    QStringList allStepsFileNames(const QString& format) const;
    // The current step (head and batch entry for CSV) / the whole trace. False after showing
    // the error; the target is then left as it was.
    bool exportStepCsv(const QString& path);
    bool exportStepNpy(const QString& path);
    bool exportStepJson(const QString& path);
    bool exportTraceNpz(const QString& path);

    // Errors go to this instead of a modal message box when set (tests).
    using MessageHook = std::function<void(const QString& title, const QString& text)>;
    void setMessageHook(MessageHook hook) { messageHook_ = std::move(hook); }
    // Answers maybeSaveChanges()' question instead of a dialog when set (tests): returns
    // QMessageBox::Save, Discard or Cancel.
    using QuestionHook = std::function<int(const QString& title, const QString& text)>;
    void setQuestionHook(QuestionHook hook) { questionHook_ = std::move(hook); }

  signals:
    void sessionChanged();  // path or modified flag changed

  private:
    void openInteractive();
    void saveInteractive();
    void saveAsInteractive();
    void exportAllInteractive();
    void exportDataInteractive(const QString& suffix);
    bool writeDataExport(const QString& path, bool haveData, const std::function<void()>& write);
    void rebuildRecentMenu();
    void showHeatmapMenu(const QPoint& pos);
    void refreshModified();
    void setSession(const QString& path);
    void updateTitle();
    void setNotes(const QStringList& notes);
    void showError(const QString& title, const QString& text) const;
    void refreshEnabled();
    QString stateKey() const;
    const Step* currentStep() const;
    QString suggestedDataName(const QString& suffix) const;

    MainWindow* window_;
    QString sessionPath_;
    QString savedKey_;
    bool modified_ = false;
    QStringList notes_;
    MessageHook messageHook_;
    QuestionHook questionHook_;

    QAction* openAction_ = nullptr;
    QAction* saveAction_ = nullptr;
    QAction* saveAsAction_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QAction* exportAllAction_ = nullptr;
    QMenu* dataMenu_ = nullptr;
    QList<QAction*> dataActions_;
    QAction* exportImage_ = nullptr;
    QAction* copyImage_ = nullptr;
    QFrame* notesBox_ = nullptr;
    QLabel* notesLabel_ = nullptr;
};

}  // namespace attn

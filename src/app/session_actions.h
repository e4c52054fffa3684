#pragma once
// The File menu's sessions: open and save (.attnlens), the recent list, the window title with
// its "changed" mark, the question before unsaved changes are lost, and the notes about what did
// not come back when a session opened. Every non-interactive function is what the menu action
// does after its file dialog, so tests drive the same code the user does.

#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>

#include "app/session.h"
#include "app/workspace.h"

class QAction;
class QFrame;
class QLabel;
class QMainWindow;
class QMenu;
class QWidget;

namespace attn {

class SessionActions : public QObject {
    Q_OBJECT
  public:
    SessionActions(Workspace* workspace, QMainWindow* window);

    QAction* openAction() const { return open_; }
    QAction* saveAction() const { return save_; }
    QAction* saveAsAction() const { return saveAs_; }
    QMenu* recentMenu() const { return recent_; }
    // A box listing what did not come back when a session opened (hidden when empty).
    QWidget* notesWidget() const;

    // Reads `path` and shows it. A corrupt or newer file is refused with a message and the
    // window stays exactly as it was (returns false). Missing or changed files are noted.
    bool openSession(const QString& path);
    // Writes the window to `path` (atomically). Returns false after showing the error.
    bool saveSessionTo(const QString& path);
    QString sessionPath() const { return path_; }
    // True when the settings or files differ from the session as saved (undoing back to it
    // clears the mark).
    bool isModified() const;
    // Before the window closes or another session replaces this one: asks whether to save
    // unsaved changes (Save / Discard / Cancel). False when the user cancels or saving fails.
    bool maybeSaveChanges();
    QStringList notes() const { return notes_; }
    // The window as a session (settings, files with their SHA-256, layout).
    Session currentSession() const;

    // Recent sessions, newest first, at most kMaxRecent (QSettings "session/recent").
    static constexpr int kMaxRecent = 8;
    static QStringList recentSessions();
    static void addRecentSession(const QString& path);
    static void clearRecentSessions();

    // Errors go to this instead of a message box when set (tests, the command line).
    using MessageHook = std::function<void(const QString& title, const QString& text)>;
    void setMessageHook(MessageHook hook) { messageHook_ = std::move(hook); }
    // Answers maybeSaveChanges()' question instead of a dialog when set (tests): returns
    // QMessageBox::Save, Discard or Cancel.
    using QuestionHook = std::function<int(const QString& title, const QString& text)>;
    void setQuestionHook(QuestionHook hook) { questionHook_ = std::move(hook); }

  signals:
    void sessionChanged();  // path or modified mark changed
    // An opened session's window geometry, for the window to restore on this screen (the
    // window state, the panels, is restored here after it).
    void windowGeometryOpened(const QByteArray& geometry);

  private:
    void openInteractive();
    void saveInteractive();
    void saveAsInteractive();
    void rebuildRecentMenu();
    void setSession(const QString& path);
    void updateTitle();
    void setNotes(const QStringList& notes);
    void showError(const QString& title, const QString& text) const;
    QString stateKey() const;

    Workspace* workspace_;
    QMainWindow* window_;
    QString path_;
    QString savedKey_;
    QStringList notes_;
    MessageHook messageHook_;
    QuestionHook questionHook_;
    QAction* open_ = nullptr;
    QAction* save_ = nullptr;
    QAction* saveAs_ = nullptr;
    QMenu* recent_ = nullptr;
    QFrame* notesBox_ = nullptr;
    QLabel* notesLabel_ = nullptr;
};

// The settings and files of a session as the workspace takes them: the files it names are read
// again; a missing, changed or unreadable one is named in `notes` (and the input falls back to
// the typed text, the weights to the seed).
WorkspaceState sessionState(const Session& session, QStringList* notes);

}  // namespace attn

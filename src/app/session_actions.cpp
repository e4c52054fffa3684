#include "app/session_actions.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QToolButton>
#include <QUndoStack>

#include "io/file_io.h"
#include "pipeline/issue_text.h"
#include "pipeline/model_request.h"

namespace attn {

namespace {

const char* const kRecentKey = "session/recent";
const char* const kSessionDirKey = "session/dir";

QString what(const std::exception& e) {
    return errorText(e);
}

}  // namespace

WorkspaceState sessionState(const Session& s, QStringList* notes) {
    WorkspaceState state{s.settings, {}};
    Settings& settings = state.settings;
    // A file comes back when it is still there; a changed one is used as it is now.
    // A model may be a folder (a Hugging Face model), and can be gigabytes: its hash is
    // compared once the loader has read it.
    auto usable = [&](const SessionFile& f, const QString& kind, bool isModel = false) {
        if (f.path.isEmpty())
            return false;
        const QFileInfo info(f.path);
        if (!info.isFile() && !(isModel && info.isDir())) {
            *notes << SessionActions::tr("The %1 file %2 is missing; it was not loaded.")
                          .arg(kind, QDir::toNativeSeparators(f.path));
            return false;
        }
        if (!isModel && !f.sha256.isEmpty() &&
            QString::fromStdString(io::fileSha256(f.path.toStdString())) != f.sha256)
            *notes << SessionActions::tr(
                          "The %1 file %2 has changed since the session was "
                          "saved; its current contents are used.")
                          .arg(kind, QDir::toNativeSeparators(f.path));
        return true;
    };
    if (settings.source == InputSource::File) {
        bool ok = usable(s.embeddings, SessionActions::tr("embeddings"));
        if (ok) {
            try {
                state.files.embeddings = readEmbeddings(s.embeddings.path);
            } catch (const std::exception& e) {
                *notes << SessionActions::tr("The embeddings file could not be loaded: %1")
                              .arg(what(e));
                ok = false;
            }
        }
        if (!ok) {
            settings.source = InputSource::Text;
            settings.embeddingsFile.clear();
            *notes << SessionActions::tr(
                "The input falls back to the typed text with chapter-2 embeddings.");
        }
    } else {
        settings.embeddingsFile.clear();
    }
    if (usable(s.weights, SessionActions::tr("weights"))) {
        try {
            state.files.weights = readWeights(s.weights.path);
        } catch (const std::exception& e) {
            *notes << SessionActions::tr(
                          "The weights file could not be loaded (the seed is used instead): %1")
                          .arg(what(e));
        }
    }
    if (!state.files.weights)
        settings.weightsFile.clear();
    // A model file comes back when it is there (the window reads it once the session is open); a
    // bundled model is named, not kept as a file.
    if (settings.modelMode() && !bundledModelNames().contains(settings.modelFile)) {
        if (!usable(s.model, SessionActions::tr("model"), true)) {
            settings.modelFile.clear();
            *notes << SessionActions::tr("The chapter-3 module is shown instead of the model.");
        } else {
            state.modelSha256 = s.model.sha256;
        }
    }
    return state;
}

SessionActions::SessionActions(Workspace* workspace, QMainWindow* window)
    : QObject(window), workspace_(workspace), window_(window) {
    open_ = new QAction(tr("&Open session..."), this);
    open_->setObjectName(QStringLiteral("actionOpenSession"));
    open_->setShortcut(QKeySequence::Open);
    open_->setToolTip(tr("Open a saved session (.attnlens)"));
    connect(open_, &QAction::triggered, this, &SessionActions::openInteractive);

    save_ = new QAction(tr("&Save session"), this);
    save_->setObjectName(QStringLiteral("actionSaveSession"));
    save_->setShortcut(QKeySequence::Save);
    save_->setToolTip(tr("Save the settings, files and layout as a session"));
    connect(save_, &QAction::triggered, this, &SessionActions::saveInteractive);

    saveAs_ = new QAction(tr("Save session &as..."), this);
    saveAs_->setObjectName(QStringLiteral("actionSaveSessionAs"));
    saveAs_->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
    connect(saveAs_, &QAction::triggered, this, &SessionActions::saveAsInteractive);

    recent_ = new QMenu(tr("Open &recent"), window);
    recent_->setObjectName(QStringLiteral("menuRecentSessions"));
    connect(recent_, &QMenu::aboutToShow, this, &SessionActions::rebuildRecentMenu);

    // Notes about the last opened session: non-modal, dismissable.
    notesBox_ = new QFrame(window);
    notesBox_->setObjectName(QStringLiteral("sessionNotes"));
    notesBox_->setFrameShape(QFrame::StyledPanel);
    notesBox_->setStyleSheet(
        QStringLiteral("QFrame#sessionNotes { background: #fff8e1; border: 1px solid #f0c36d; "
                       "border-radius: 3px; }"
                       "QFrame#sessionNotes QLabel { color: #5d4037; }"));
    auto* layout = new QHBoxLayout(notesBox_);
    layout->setContentsMargins(8, 4, 4, 4);
    notesLabel_ = new QLabel(notesBox_);
    notesLabel_->setObjectName(QStringLiteral("sessionNotesLabel"));
    notesLabel_->setWordWrap(true);
    notesLabel_->setTextFormat(Qt::PlainText);
    notesLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(notesLabel_, 1);
    auto* close = new QToolButton(notesBox_);
    close->setText(tr("Dismiss"));
    close->setToolTip(tr("Hide these notes"));
    close->setAutoRaise(true);
    connect(close, &QToolButton::clicked, notesBox_, &QWidget::hide);
    layout->addWidget(close, 0, Qt::AlignTop);
    notesBox_->hide();

    connect(workspace_, &Workspace::settingsChanged, this, &SessionActions::updateTitle);
    connect(workspace_, &Workspace::filesChanged, this, &SessionActions::updateTitle);
    savedKey_ = stateKey();
    updateTitle();
}

QWidget* SessionActions::notesWidget() const {
    return notesBox_;
}

void SessionActions::showError(const QString& title, const QString& text) const {
    window_->statusBar()->showMessage(title, 5000);
    if (messageHook_) {
        messageHook_(title, text);
        return;
    }
    QMessageBox::warning(window_, title, text);
}

Session SessionActions::currentSession() const {
    Session s;
    s.settings = workspace_->settings();
    const InputFiles& files = workspace_->files();
    auto file = [](const QString& path) {
        return SessionFile{QFileInfo(path).absoluteFilePath(),
                           QString::fromStdString(io::fileSha256(path.toStdString()))};
    };
    if (files.embeddings && s.settings.source == InputSource::File)
        s.embeddings = file(s.settings.embeddingsFile);
    if (files.weights)
        s.weights = file(s.settings.weightsFile);
    s.settings.embeddingsFile = s.embeddings.path;
    s.settings.weightsFile = s.weights.path;
    if (s.settings.modelMode() && !bundledModelNames().contains(s.settings.modelFile)) {
        // The hash was taken when the model was read (files can be gigabytes).
        s.model = SessionFile{QFileInfo(s.settings.modelFile).absoluteFilePath(),
                              workspace_->modelSha256()};
        s.settings.modelFile = s.model.path;
    }
    s.windowGeometry = window_->saveGeometry();
    s.windowState = window_->saveState();
    return s;
}

// What "changed since saved" compares: every setting and which files are loaded (not the
// window layout, which moves without changing what the session shows).
QString SessionActions::stateKey() const {
    QVariantMap map = settingsToMap(workspace_->settings());
    map.insert(QStringLiteral("files"), QStringLiteral("%1|%2")
                                            .arg(workspace_->files().embeddings ? 1 : 0)
                                            .arg(workspace_->files().weights ? 1 : 0));
    return QString::fromUtf8(
        QJsonDocument(QJsonObject::fromVariantMap(map)).toJson(QJsonDocument::Compact));
}

bool SessionActions::isModified() const {
    return !path_.isEmpty() && stateKey() != savedKey_;
}

void SessionActions::setSession(const QString& path) {
    path_ = path;
    savedKey_ = stateKey();
    if (!path.isEmpty())
        addRecentSession(path);
    updateTitle();
}

void SessionActions::updateTitle() {
    if (path_.isEmpty()) {
        window_->setWindowTitle(tr("Attention Lens"));
        window_->setWindowModified(false);
    } else {
        window_->setWindowTitle(
            tr("%1[*] - Attention Lens").arg(QFileInfo(path_).completeBaseName()));
        window_->setWindowModified(isModified());
    }
    emit sessionChanged();
}

void SessionActions::setNotes(const QStringList& notes) {
    notes_ = notes;
    QStringList lines;
    for (const QString& n : notes)
        lines << QStringLiteral("\u2022 ") + n;
    notesLabel_->setText(tr("Opened %1 with notes:").arg(QFileInfo(path_).fileName()) +
                         QLatin1Char('\n') + lines.join(QLatin1Char('\n')));
    notesBox_->setVisible(!notes.isEmpty());
}

bool SessionActions::openSession(const QString& path) {
    QStringList missing;
    Session s;
    try {
        s = readSession(path, &missing);  // throws before anything changes
    } catch (const std::exception& e) {
        showError(tr("Cannot open the session"), what(e));
        return false;
    }
    QStringList notes;
    // An older file lacks settings that came later: one line names them all.
    // Files are optional, model mode came later, and appended token ids are only there when
    // Append made the text: none of them missing is worth a note.
    for (const char* key : {"embeddings_file", "weights_file", "model", "layer", "token_ids"})
        missing.removeAll(QLatin1String(key));
    if (missing.size() == 1)
        notes << tr("The session has no \"%1\"; the default is used.").arg(missing.front());
    else if (!missing.isEmpty())
        notes << tr("The session was saved by an older version and lacks %1 settings; they keep "
                    "their defaults: %2.")
                     .arg(missing.size())
                     .arg(missing.join(QStringLiteral(", ")));
    workspace_->reset(sessionState(s, &notes));
    if (!s.windowGeometry.isEmpty())
        emit windowGeometryOpened(s.windowGeometry);
    if (!s.windowState.isEmpty())
        window_->restoreState(s.windowState);
    setSession(QFileInfo(path).absoluteFilePath());
    setNotes(notes);
    const QString name = QFileInfo(path).fileName();
    window_->statusBar()->showMessage(
        notes.isEmpty() ? tr("Opened %1").arg(name)
                        : tr("Opened %1 with notes: see the box above the heatmap.").arg(name),
        8000);
    return true;
}

bool SessionActions::maybeSaveChanges() {
    if (!isModified())
        return true;
    const QString title = tr("Save changes?");
    const QString text =
        tr("The session %1 has changes that are not saved. Save them before it closes?")
            .arg(QFileInfo(path_).fileName());
    int answer = QMessageBox::Cancel;
    if (questionHook_) {
        answer = questionHook_(title, text);
    } else {
        QMessageBox box(QMessageBox::Question, title, text,
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, window_);
        box.setDefaultButton(QMessageBox::Save);
        box.setEscapeButton(QMessageBox::Cancel);
        answer = box.exec();
    }
    if (answer == QMessageBox::Save)
        return saveSessionTo(path_);
    return answer == QMessageBox::Discard;
}

bool SessionActions::saveSessionTo(const QString& path) {
    try {
        writeSession(path, currentSession());
    } catch (const std::exception& e) {
        showError(tr("Cannot save the session"), what(e));
        return false;
    }
    setSession(QFileInfo(path).absoluteFilePath());
    window_->statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

void SessionActions::openInteractive() {
    QSettings settings;
    const QString dir = path_.isEmpty()
                            ? settings.value(kSessionDirKey, QDir::homePath()).toString()
                            : QFileInfo(path_).absolutePath();
    const QString path =
        QFileDialog::getOpenFileName(window_, tr("Open session"), dir,
                                     tr("Attention Lens sessions (*.attnlens);;All files (*)"));
    if (path.isEmpty() || !maybeSaveChanges())
        return;
    settings.setValue(kSessionDirKey, QFileInfo(path).absolutePath());
    openSession(path);
}

void SessionActions::saveInteractive() {
    if (path_.isEmpty()) {
        saveAsInteractive();
        return;
    }
    saveSessionTo(path_);
}

void SessionActions::saveAsInteractive() {
    QSettings settings;
    const QString dir = path_.isEmpty()
                            ? settings.value(kSessionDirKey, QDir::homePath()).toString()
                            : QFileInfo(path_).absolutePath();
    const QString suggested =
        path_.isEmpty() ? QDir(dir).filePath(tr("attention") + QStringLiteral(".attnlens")) : path_;
    QString path = QFileDialog::getSaveFileName(window_, tr("Save session"), suggested,
                                                tr("Attention Lens sessions (*.attnlens)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".attnlens");
    settings.setValue(kSessionDirKey, QFileInfo(path).absolutePath());
    saveSessionTo(path);
}

QStringList SessionActions::recentSessions() {
    QStringList list = QSettings().value(kRecentKey).toStringList();
    list.removeAll(QString());
    while (list.size() > kMaxRecent)
        list.removeLast();
    return list;
}

void SessionActions::addRecentSession(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = recentSessions();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue(kRecentKey, list);
}

void SessionActions::clearRecentSessions() {
    QSettings().remove(kRecentKey);
}

void SessionActions::rebuildRecentMenu() {
    recent_->clear();
    const QStringList list = recentSessions();
    int i = 0;
    for (const QString& path : list) {
        ++i;
        QString name = QFileInfo(path).fileName();
        name.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction* a = recent_->addAction(i < 10 ? QStringLiteral("&%1  %2").arg(i).arg(name) : name);
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setStatusTip(QDir::toNativeSeparators(path));
        a->setData(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (!QFileInfo::exists(path)) {
                showError(tr("Cannot open the session"),
                          tr("%1 no longer exists. It is removed from the recent list.")
                              .arg(QDir::toNativeSeparators(path)));
                QStringList l = recentSessions();
                l.removeAll(path);
                QSettings().setValue(kRecentKey, l);
                return;
            }
            if (maybeSaveChanges())
                openSession(path);
        });
    }
    if (list.isEmpty())
        recent_->addAction(tr("(no recent sessions)"))->setEnabled(false);
    recent_->addSeparator();
    QAction* clear = recent_->addAction(tr("&Clear recent"));
    clear->setObjectName(QStringLiteral("actionClearRecent"));
    clear->setEnabled(!list.isEmpty());
    connect(clear, &QAction::triggered, this, [] { clearRecentSessions(); });
}

}  // namespace attn

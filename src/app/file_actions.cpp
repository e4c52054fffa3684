#include "app/file_actions.h"

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QToolButton>
#include <exception>

#include "app/heatmap_view.h"
#include "app/launch_options.h"
#include "app/main_window.h"
#include "app/session.h"
#include "export/image_export.h"
#include "io/csv.h"
#include "io/file_io.h"
#include "io/npy.h"
#include "io/trace_json.h"

namespace attn {

namespace {

const char* const kRecentKey = "session/recent";
const char* const kSessionDirKey = "session/dir";
const char* const kExportDirKey = "export/dir";
const char* const kAllStepsFormatKey = "export/allStepsFormat";

QString what(const std::exception& e) {
    return QString::fromUtf8(e.what());
}

// The name `render --all-steps` gives a step's figure.
QString stepFileName(const Step& step, int head, const QString& suffix) {
    QString name = QString::fromStdString(step.info.id);
    if (head >= 0)
        name += QStringLiteral("_head%1").arg(head);
    return name + QLatin1Char('.') + suffix;
}

int headCount(const Step& step) {
    const int64_t hd = step.info.headDim();
    return hd >= 0 ? int(step.value.size(hd)) : 0;
}

}  // namespace

FileActions::FileActions(MainWindow* window) : QObject(window), window_(window) {
    openAction_ = new QAction(tr("&Open session..."), this);
    openAction_->setObjectName(QStringLiteral("actionOpenSession"));
    openAction_->setShortcut(QKeySequence::Open);
    openAction_->setToolTip(tr("Open a saved session (.attnlens)"));
    connect(openAction_, &QAction::triggered, this, &FileActions::openInteractive);

    saveAction_ = new QAction(tr("&Save session"), this);
    saveAction_->setObjectName(QStringLiteral("actionSaveSession"));
    saveAction_->setShortcut(QKeySequence::Save);
    connect(saveAction_, &QAction::triggered, this, &FileActions::saveInteractive);

    saveAsAction_ = new QAction(tr("Save session &as..."), this);
    saveAsAction_->setObjectName(QStringLiteral("actionSaveSessionAs"));
    saveAsAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
    connect(saveAsAction_, &QAction::triggered, this, &FileActions::saveAsInteractive);

    recentMenu_ = new QMenu(tr("Open &recent"), window);
    recentMenu_->setObjectName(QStringLiteral("menuRecentSessions"));
    connect(recentMenu_, &QMenu::aboutToShow, this, &FileActions::rebuildRecentMenu);

    exportAllAction_ = new QAction(tr("Export &all steps..."), this);
    exportAllAction_->setObjectName(QStringLiteral("actionExportAllSteps"));
    exportAllAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    exportAllAction_->setToolTip(tr("One image per step and head into a folder"));
    connect(exportAllAction_, &QAction::triggered, this, &FileActions::exportAllInteractive);

    dataMenu_ = new QMenu(tr("Export &data"), window);
    dataMenu_->setObjectName(QStringLiteral("menuExportData"));
    struct DataItem {
        QString text;
        QString suffix;
        QString name;
    };
    const QList<DataItem> items = {
        {tr("Step as &CSV (current head and batch entry)..."), QStringLiteral("csv"),
         QStringLiteral("actionExportStepCsv")},
        {tr("Step as NumPy .&npy..."), QStringLiteral("npy"),
         QStringLiteral("actionExportStepNpy")},
        {tr("Step as &JSON..."), QStringLiteral("json"), QStringLiteral("actionExportStepJson")},
        {tr("Whole trace as NumPy .n&pz..."), QStringLiteral("npz"),
         QStringLiteral("actionExportTraceNpz")},
    };
    for (const DataItem& it : items) {
        QAction* a = dataMenu_->addAction(it.text);
        a->setObjectName(it.name);
        const QString suffix = it.suffix;
        connect(a, &QAction::triggered, this, [this, suffix] { exportDataInteractive(suffix); });
        dataActions_ << a;
        if (suffix == QLatin1String("json"))
            dataMenu_->addSeparator();
    }

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

    connect(window_, &MainWindow::viewChanged, this, &FileActions::refreshModified);
    connect(window_, &MainWindow::resultApplied, this, [this] { refreshEnabled(); });
    savedKey_ = stateKey();
    refreshEnabled();
}

FileActions::~FileActions() = default;

QWidget* FileActions::notesWidget() const {
    return notesBox_;
}

void FileActions::install(QMenu* fileMenu, QAction* exportImage, QAction* copyImage) {
    exportImage_ = exportImage;
    copyImage_ = copyImage;
    QAction* first = fileMenu->actions().value(0);
    fileMenu->insertAction(first, openAction_);
    fileMenu->insertMenu(first, recentMenu_);
    fileMenu->insertAction(first, saveAction_);
    fileMenu->insertAction(first, saveAsAction_);
    fileMenu->insertSeparator(first);
    // The image and data exports after "Export image...".
    const QList<QAction*> actions = fileMenu->actions();
    const int at = int(actions.indexOf(exportImage));
    QAction* after = at >= 0 ? actions.value(at + 1) : nullptr;
    fileMenu->insertAction(after, exportAllAction_);
    fileMenu->insertMenu(after, dataMenu_);
    rebuildRecentMenu();
    // The shortcuts also work when the menu bar is hidden (presentation mode).
    window_->addActions({openAction_, saveAction_, saveAsAction_, exportAllAction_});

    HeatmapView* view = window_->heatmapView();
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, &FileActions::showHeatmapMenu);
    if (QCustomPlot* plot = view->plot()) {
        plot->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(plot, &QWidget::customContextMenuRequested, this, [this, plot](const QPoint& p) {
            showHeatmapMenu(window_->heatmapView()->mapFromGlobal(plot->mapToGlobal(p)));
        });
    }
}

QMenu* FileActions::createHeatmapMenu(QWidget* parent) const {
    auto* menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("heatmapContextMenu"));
    if (exportImage_)
        menu->addAction(exportImage_);
    if (copyImage_)
        menu->addAction(copyImage_);
    menu->addSeparator();
    menu->addAction(exportAllAction_);
    menu->addMenu(dataMenu_);
    return menu;
}

void FileActions::showHeatmapMenu(const QPoint& pos) {
    QMenu* menu = createHeatmapMenu(window_);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(window_->heatmapView()->mapToGlobal(pos));
}

void FileActions::refreshEnabled() {
    const bool have = window_->shownResult() != nullptr;
    exportAllAction_->setEnabled(have);
    dataMenu_->setEnabled(have);
}

void FileActions::showError(const QString& title, const QString& text) const {
    window_->statusBar()->showMessage(title, 5000);
    if (messageHook_) {
        messageHook_(title, text);
        return;
    }
    QMessageBox::warning(window_, title, text);
}

// ---------------------------------------------------------------------------------------------
// Sessions

Session FileActions::currentSession() const {
    Session s;
    s.state = window_->state();
    const QString emb = window_->loadedEmbeddingsPath();
    if (!emb.isEmpty())
        s.embeddings = SessionFile{QFileInfo(emb).absoluteFilePath(), fileSha256(emb)};
    const QString w = window_->loadedWeightsPath();
    if (!w.isEmpty())
        s.weights = SessionFile{QFileInfo(w).absoluteFilePath(), fileSha256(w)};
    s.windowGeometry = window_->saveGeometry();
    s.windowState = window_->saveState();
    return s;
}

// What "changed since saved" compares: the state and which files are loaded (not the layout).
QString FileActions::stateKey() const {
    Session s;
    s.state = window_->state();
    const QString emb = window_->loadedEmbeddingsPath();
    const QString w = window_->loadedWeightsPath();
    if (!emb.isEmpty())
        s.embeddings.path = QFileInfo(emb).absoluteFilePath();
    if (!w.isEmpty())
        s.weights.path = QFileInfo(w).absoluteFilePath();
    return QString::fromUtf8(sessionToJson(s));
}

void FileActions::refreshModified() {
    const bool m = !sessionPath_.isEmpty() && stateKey() != savedKey_;
    if (m == modified_)
        return;
    modified_ = m;
    updateTitle();
    emit sessionChanged();
}

void FileActions::setSession(const QString& path) {
    sessionPath_ = path;
    savedKey_ = stateKey();
    modified_ = false;
    updateTitle();
    if (!path.isEmpty())
        addRecentSession(path);
    emit sessionChanged();
}

void FileActions::updateTitle() {
    if (sessionPath_.isEmpty()) {
        window_->setWindowTitle(tr("Attention Lens"));
        window_->setWindowModified(false);
        return;
    }
    window_->setWindowTitle(
        tr("%1[*] - Attention Lens").arg(QFileInfo(sessionPath_).completeBaseName()));
    window_->setWindowModified(modified_);
}

void FileActions::setNotes(const QStringList& notes) {
    notes_ = notes;
    if (notes.isEmpty()) {
        notesLabel_->clear();
        notesBox_->hide();
        return;
    }
    // An older file lacks many settings: one line names them all instead of one line each.
    static const QRegularExpression missingSetting(
        QStringLiteral("^The session has no \"([^\"]+)\"; the default is used\\.$"));
    QStringList missing, lines;
    for (const QString& n : notes) {
        const QRegularExpressionMatch m = missingSetting.match(n);
        if (m.hasMatch())
            missing << m.captured(1);
        else
            lines << QStringLiteral("\u2022 ") + n;
    }
    if (missing.size() == 1)
        lines.prepend(QStringLiteral("\u2022 ") +
                      notes.filter(QStringLiteral("\"%1\"").arg(missing.front())).value(0));
    else if (!missing.isEmpty())
        lines.prepend(
            QStringLiteral("\u2022 ") +
            tr("The session was saved by an older version and lacks %1 settings; they keep their "
               "defaults: %2.")
                .arg(missing.size())
                .arg(missing.join(QStringLiteral(", "))));
    notesLabel_->setText(tr("Opened %1 with notes:").arg(QFileInfo(sessionPath_).fileName()) +
                         QLatin1Char('\n') + lines.join(QLatin1Char('\n')));
    notesBox_->show();
}

bool FileActions::openSession(const QString& path) {
    QStringList notes;
    Session s;
    try {
        s = readSession(path, &notes);  // throws before anything changes
    } catch (const std::exception& e) {
        showError(tr("Cannot open the session"), what(e));
        return false;
    }

    // Which of the files it names can be loaded again.
    auto check = [&notes](const SessionFile& f, const QString& kind) {
        if (f.path.isEmpty())
            return false;
        if (!QFileInfo(f.path).isFile()) {
            notes << tr("The %1 file %2 is missing; it was not loaded.")
                         .arg(kind, QDir::toNativeSeparators(f.path));
            return false;
        }
        if (!f.sha256.isEmpty() && fileSha256(f.path) != f.sha256)
            notes << tr("The %1 file %2 has changed since the session was saved; its current "
                        "contents are used.")
                         .arg(kind, QDir::toNativeSeparators(f.path));
        return true;
    };
    const bool embeddings = check(s.embeddings, tr("embeddings"));
    const bool weights = check(s.weights, tr("weights"));

    AppState st = s.state;
    // x from the file comes back through loadEmbeddings(); until then (or if it cannot be
    // read) the typed text is the input.
    if (st.source == InputSource::File) {
        st.source = InputSource::Text;
        if (!embeddings)
            notes << tr("The input falls back to the typed text with chapter-2 embeddings.");
    }
    window_->forgetLoadedFiles();
    window_->setState(st);
    // A file edited by hand may ask for more than the controls allow: say what is used instead.
    for (const AdjustedSetting& c : adjustedSettings(st, window_->state()))
        notes << tr("The app's controls cannot hold the session's %1 %2; it uses %3.")
                     .arg(QString(c.option).replace(QLatin1Char('-'), QLatin1Char('_')), c.wanted,
                          c.shown);
    QString error;
    if (embeddings && !window_->loadEmbeddings(s.embeddings.path, &error)) {
        notes << tr("The embeddings file could not be loaded: %1").arg(error);
        if (s.state.source == InputSource::File)
            notes << tr("The input falls back to the typed text with chapter-2 embeddings.");
    }
    if (weights && !window_->loadWeights(s.weights.path, &error))
        notes
            << tr("The weights file could not be loaded (the seed is used instead): %1").arg(error);
    if (!s.windowGeometry.isEmpty())
        window_->restoreGeometry(s.windowGeometry);
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

bool FileActions::maybeSaveChanges() {
    refreshModified();
    if (!modified_)
        return true;
    const QString title = tr("Save changes?");
    const QString text =
        tr("The session %1 has changes that are not saved. Save them before it closes?")
            .arg(QFileInfo(sessionPath_).fileName());
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
        return saveSessionTo(sessionPath_);
    return answer == QMessageBox::Discard;
}

bool FileActions::saveSessionTo(const QString& path) {
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

void FileActions::openInteractive() {
    QSettings settings;
    const QString dir = sessionPath_.isEmpty()
                            ? settings.value(kSessionDirKey, QDir::homePath()).toString()
                            : QFileInfo(sessionPath_).absolutePath();
    const QString path =
        QFileDialog::getOpenFileName(window_, tr("Open session"), dir,
                                     tr("Attention Lens sessions (*.attnlens);;All files (*)"));
    if (path.isEmpty() || !maybeSaveChanges())
        return;
    settings.setValue(kSessionDirKey, QFileInfo(path).absolutePath());
    openSession(path);
}

void FileActions::saveInteractive() {
    if (sessionPath_.isEmpty()) {
        saveAsInteractive();
        return;
    }
    saveSessionTo(sessionPath_);
}

void FileActions::saveAsInteractive() {
    QSettings settings;
    const QString dir = sessionPath_.isEmpty()
                            ? settings.value(kSessionDirKey, QDir::homePath()).toString()
                            : QFileInfo(sessionPath_).absolutePath();
    const QString suggested =
        sessionPath_.isEmpty() ? QDir(dir).filePath(tr("attention") + QStringLiteral(".attnlens"))
                               : sessionPath_;
    QString path = QFileDialog::getSaveFileName(window_, tr("Save session"), suggested,
                                                tr("Attention Lens sessions (*.attnlens)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".attnlens");
    settings.setValue(kSessionDirKey, QFileInfo(path).absolutePath());
    saveSessionTo(path);
}

QStringList FileActions::recentSessions() {
    QStringList list = QSettings().value(kRecentKey).toStringList();
    list.removeAll(QString());
    while (list.size() > kMaxRecent)
        list.removeLast();
    return list;
}

void FileActions::addRecentSession(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = recentSessions();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue(kRecentKey, list);
}

void FileActions::clearRecentSessions() {
    QSettings().remove(kRecentKey);
}

void FileActions::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList list = recentSessions();
    int i = 0;
    for (const QString& path : list) {
        ++i;
        QString name = QFileInfo(path).fileName();
        name.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction* a =
            recentMenu_->addAction(i < 10 ? QStringLiteral("&%1  %2").arg(i).arg(name) : name);
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
    if (list.isEmpty()) {
        QAction* none = recentMenu_->addAction(tr("(no recent sessions)"));
        none->setEnabled(false);
    }
    recentMenu_->addSeparator();
    QAction* clear = recentMenu_->addAction(tr("&Clear recent"));
    clear->setObjectName(QStringLiteral("actionClearRecent"));
    clear->setEnabled(!list.isEmpty());
    connect(clear, &QAction::triggered, this, [] { clearRecentSessions(); });
}

// ---------------------------------------------------------------------------------------------
// Exports

const Step* FileActions::currentStep() const {
    const AppResult* r = window_->shownResult();
    if (!r)
        return nullptr;
    const Trace& t = *r->trace;
    const Step* s = t.find(window_->currentStep().toStdString());
    if (!s)
        s = t.find("weights");
    if (!s && !t.steps.empty())
        s = &t.steps.back();
    return s;
}

QStringList FileActions::allStepsFileNames(const QString& format) const {
    QStringList names;
    const AppResult* r = window_->shownResult();
    if (!r)
        return names;
    for (const Step& step : r->trace->steps) {
        const int heads = headCount(step);
        if (heads == 0)
            names << stepFileName(step, -1, format);
        for (int h = 0; h < heads; ++h)
            names << stepFileName(step, h, format);
    }
    return names;
}

FileActions::ExportAllResult FileActions::exportAllSteps(const QString& dir, const QString& format,
                                                         const ProgressFn& progress) {
    ExportAllResult result;
    const AppResult* shown = window_->shownResult();
    if (!shown) {
        showError(tr("Export failed"), tr("There is nothing to export yet."));
        return result;
    }
    const QString suffix = format.toLower();
    ImageFormat imageFormat;
    if (!imageFormatForPath(QStringLiteral("x.") + suffix, &imageFormat)) {
        showError(tr("Export failed"),
                  tr("Unknown image format \"%1\"; use svg, png or pdf.").arg(format));
        return result;
    }
    if (!QDir().mkpath(dir)) {
        showError(tr("Export failed"),
                  tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(dir)));
        return result;
    }
    // Hold the trace: a new result may arrive while events are processed between files.
    const std::shared_ptr<const Trace> trace = shown->trace;
    const QStringList labels = shown->tokenLabels;
    const AppState st = window_->state();
    FigureOptions base = window_->heatmapView()->figureOptions();
    base.scale = 2.0;
    base.vectorCells = imageFormat != ImageFormat::Png;
    Colormap chosen = Colormap::Viridis;
    const bool autoColormap = !parseColormap(st.colormap, &chosen);
    const Step* mask = trace->find("mask");

    struct Job {
        const Step* step;
        int head;
    };
    std::vector<Job> jobs;
    for (const Step& step : trace->steps) {
        const int heads = headCount(step);
        if (heads == 0)
            jobs.push_back({&step, -1});
        for (int h = 0; h < heads; ++h)
            jobs.push_back({&step, h});
    }
    result.total = int(jobs.size());
    const QDir out(dir);
    for (int i = 0; i < result.total; ++i) {
        const Job& job = jobs[size_t(i)];
        const QString name = stepFileName(*job.step, job.head, suffix);
        if (progress && !progress(i, result.total, name)) {
            result.cancelled = true;
            return result;
        }
        const HeatmapData data =
            sliceStep(*job.step, labels, std::max(job.head, 0), st.batchIndex, mask);
        FigureOptions o = base;
        o.colormap = autoColormap ? defaultColormapFor(data) : chosen;
        const QString path = out.filePath(name);
        try {
            exportHeatmapImage(data, o, path);
        } catch (const std::exception& e) {
            showError(
                tr("Export failed"),
                (result.files.size() == 1 ? tr("Stopped after 1 complete file: %1").arg(what(e))
                                          : tr("Stopped after %1 complete files: %2")
                                                .arg(result.files.size())
                                                .arg(what(e))));
            return result;
        }
        result.files << path;
    }
    if (progress)
        progress(result.total, result.total, QString());
    result.ok = true;
    return result;
}

// Around every data export's writer: refuse when nothing is shown, explain a failure (the
// target is then left as it was), and say where the file went.
bool FileActions::writeDataExport(const QString& path, bool haveData,
                                  const std::function<void()>& write) {
    if (!haveData) {
        showError(tr("Export failed"), tr("There is nothing to export yet."));
        return false;
    }
    try {
        write();
    } catch (const std::exception& e) {
        showError(tr("Export failed"), what(e));
        return false;
    }
    window_->statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool FileActions::exportStepCsv(const QString& path) {
    const Step* step = currentStep();
    const AppResult* r = window_->shownResult();
    return writeDataExport(path, step && r, [&] {
        std::vector<std::string> tokens;
        for (const QString& label : r->tokenLabels)
            tokens.push_back(label.toStdString());
        io::writeStepCsv(path.toStdString(), *step, window_->currentHead(),
                         window_->state().batchIndex, tokens);
    });
}

bool FileActions::exportStepNpy(const QString& path) {
    const Step* step = currentStep();
    return writeDataExport(path, step, [&] { io::writeNpy(path.toStdString(), step->value); });
}

bool FileActions::exportStepJson(const QString& path) {
    const Step* step = currentStep();
    return writeDataExport(path, step, [&] {
        io::writeFileAtomically(path.toStdString(), io::stepToJson(*step) + "\n");
    });
}

bool FileActions::exportTraceNpz(const QString& path) {
    const AppResult* r = window_->shownResult();
    return writeDataExport(path, r,
                           [&] { io::writeNpz(path.toStdString(), io::traceTensors(*r->trace)); });
}

QString FileActions::suggestedDataName(const QString& suffix) const {
    if (suffix == QLatin1String("npz"))
        return QStringLiteral("trace.npz");
    const Step* step = currentStep();
    if (!step)
        return QStringLiteral("step.") + suffix;
    // CSV holds one head; .npy and JSON the whole step.
    const bool oneHead = suffix == QLatin1String("csv") && headCount(*step) > 0;
    return stepFileName(*step, oneHead ? window_->currentHead() : -1, suffix);
}

void FileActions::exportDataInteractive(const QString& suffix) {
    if (!window_->shownResult()) {
        window_->statusBar()->showMessage(tr("Nothing to export yet."), 3000);
        return;
    }
    QSettings settings;
    const QString dir = settings.value(kExportDirKey, QDir::homePath()).toString();
    QString filter;
    if (suffix == QLatin1String("csv"))
        filter = tr("CSV table (*.csv)");
    else if (suffix == QLatin1String("npy"))
        filter = tr("NumPy array (*.npy)");
    else if (suffix == QLatin1String("json"))
        filter = tr("JSON (*.json)");
    else
        filter = tr("NumPy archive (*.npz)");
    QString path = QFileDialog::getSaveFileName(
        window_, tr("Export data"), QDir(dir).filePath(suggestedDataName(suffix)), filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    bool ok = false;
    if (suffix == QLatin1String("csv"))
        ok = exportStepCsv(path);
    else if (suffix == QLatin1String("npy"))
        ok = exportStepNpy(path);
    else if (suffix == QLatin1String("json"))
        ok = exportStepJson(path);
    else
        ok = exportTraceNpz(path);
    if (ok)
        settings.setValue(kExportDirKey, QFileInfo(path).absolutePath());
}

void FileActions::exportAllInteractive() {
    if (!window_->shownResult()) {
        window_->statusBar()->showMessage(tr("Nothing to export yet."), 3000);
        return;
    }
    QSettings settings;
    const QString dir = QFileDialog::getExistingDirectory(
        window_, tr("Export all steps into folder"),
        settings.value(kExportDirKey, QDir::homePath()).toString());
    if (dir.isEmpty())
        return;
    const QStringList formats = {QStringLiteral("svg"), QStringLiteral("png"),
                                 QStringLiteral("pdf")};
    const QStringList labels = {tr("SVG (vector, for the web and slides)"),
                                tr("PNG (bitmap, 2x scale)"), tr("PDF (vector, for print)")};
    const int last = std::max(
        0, int(formats.indexOf(settings.value(kAllStepsFormatKey, formats[0]).toString())));
    bool ok = false;
    const QString picked =
        QInputDialog::getItem(window_, tr("Export all steps"),
                              tr("One file per step and head, as:"), labels, last, false, &ok);
    if (!ok)
        return;
    const QString format = formats.value(int(labels.indexOf(picked)), formats[0]);
    settings.setValue(kExportDirKey, dir);
    settings.setValue(kAllStepsFormatKey, format);

    const int total = int(allStepsFileNames(format).size());
    QProgressDialog dialog(tr("Exporting the steps..."), tr("Cancel"), 0, total, window_);
    dialog.setWindowTitle(tr("Export all steps"));
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(300);
    dialog.setAutoClose(false);
    dialog.setAutoReset(false);
    const ExportAllResult r =
        exportAllSteps(dir, format, [&dialog](int done, int n, const QString& file) {
            dialog.setMaximum(n);
            dialog.setValue(done);
            if (!file.isEmpty())
                dialog.setLabelText(tr("Drawing %1 (%2 of %3)").arg(file).arg(done + 1).arg(n));
            // The figures are drawn on this thread: let the window repaint and Cancel work.
            QCoreApplication::processEvents();
            return !dialog.wasCanceled();
        });
    dialog.close();
    if (r.cancelled)
        window_->statusBar()->showMessage(
            (r.files.size() == 1
                 ? tr("Export cancelled: 1 complete file in %1").arg(QDir::toNativeSeparators(dir))
                 : tr("Export cancelled: %1 complete files in %2")
                       .arg(r.files.size())
                       .arg(QDir::toNativeSeparators(dir))),
            6000);
    else if (r.ok)
        window_->statusBar()->showMessage(
            (r.files.size() == 1 ? tr("Exported 1 file to %1").arg(QDir::toNativeSeparators(dir))
                                 : tr("Exported %1 files to %2")
                                       .arg(r.files.size())
                                       .arg(QDir::toNativeSeparators(dir))),
            6000);
}

}  // namespace attn

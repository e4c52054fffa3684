#include "app/export_actions.h"

#include <QAction>
#include <QApplication>
#include <QButtonGroup>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QVBoxLayout>

#include "app/step_view.h"
#include "app/workspace.h"
#include "engine/decoder_forward.h"
#include "export/model_figure.h"
#include "export/step_figures_run.h"
#include "io/csv.h"
#include "io/file_io.h"
#include "io/npy.h"
#include "io/trace_json.h"
#include "pipeline/latest_job.h"
#include "pipeline/step_files.h"

namespace attn {

namespace {

const char* const kExportDirKey = "export/dir";
const char* const kAllStepsFormatKey = "export/allStepsFormat";
const char* const kScaleKey = "export/scale";

QString what(const std::exception& e) {
    return QString::fromUtf8(e.what());
}

// The size of an exported figure: its own (square cells that hold their numbers, every label
// that fits) or the user's, and for PNG the pixels per figure pixel.
class FigureSizeDialog : public QDialog {
  public:
    FigureSizeDialog(const QSize& automatic, bool png, double scale, QWidget* parent)
        : QDialog(parent) {
        setWindowTitle(ExportActions::tr("Figure size"));
        setObjectName(QStringLiteral("figureSizeDialog"));
        auto* v = new QVBoxLayout(this);
        auto_ = new QRadioButton(ExportActions::tr("&Automatic: %1 × %2 px (square cells that "
                                                   "hold their numbers)")
                                     .arg(automatic.width())
                                     .arg(automatic.height()),
                                 this);
        auto_->setChecked(true);
        v->addWidget(auto_);
        auto* customRow = new QHBoxLayout;
        custom_ = new QRadioButton(ExportActions::tr("&Custom:"), this);
        width_ = new QSpinBox(this);
        height_ = new QSpinBox(this);
        for (QSpinBox* s : {width_, height_}) {
            s->setRange(200, 20000);
            s->setSuffix(ExportActions::tr(" px"));
            s->setEnabled(false);
        }
        width_->setValue(automatic.width());
        height_->setValue(automatic.height());
        width_->setAccessibleName(ExportActions::tr("Width"));
        height_->setAccessibleName(ExportActions::tr("Height"));
        customRow->addWidget(custom_);
        customRow->addWidget(width_);
        customRow->addWidget(new QLabel(QStringLiteral("×"), this));
        customRow->addWidget(height_);
        customRow->addStretch(1);
        v->addLayout(customRow);
        connect(custom_, &QRadioButton::toggled, width_, &QWidget::setEnabled);
        connect(custom_, &QRadioButton::toggled, height_, &QWidget::setEnabled);
        if (png) {
            auto* form = new QFormLayout;
            scale_ = new QDoubleSpinBox(this);
            scale_->setRange(0.5, 8.0);
            scale_->setDecimals(1);
            scale_->setSingleStep(0.5);
            scale_->setValue(scale);
            scale_->setSuffix(QStringLiteral("×"));
            scale_->setToolTip(
                ExportActions::tr("Pixels per figure pixel: 2 for print and "
                                  "high-DPI slides"));
            form->addRow(ExportActions::tr("PNG &resolution:"), scale_);
            v->addLayout(form);
        }
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
        buttons->button(QDialogButtonBox::Ok)->setText(ExportActions::tr("&Export"));
        connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
        connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
        v->addWidget(buttons);
    }
    void apply(FigureOptions* o) const {
        if (custom_->isChecked()) {
            o->width = width_->value();
            o->height = height_->value();
        }
        if (scale_)
            o->scale = scale_->value();
    }
    double scale() const { return scale_ ? scale_->value() : 2.0; }

  private:
    QRadioButton* auto_ = nullptr;
    QRadioButton* custom_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
    QDoubleSpinBox* scale_ = nullptr;
};

// Where and how Export all steps writes: the folder, the file type, and all batch entries.
class ExportAllDialog : public QDialog {
  public:
    ExportAllDialog(const QString& dir, const QString& format, int batch, QWidget* parent)
        : QDialog(parent) {
        setWindowTitle(ExportActions::tr("Export all steps"));
        auto* form = new QFormLayout(this);
        auto* row = new QHBoxLayout;
        setObjectName(QStringLiteral("exportAllDialog"));
        folder_ = new QLineEdit(QDir::toNativeSeparators(dir), this);
        folder_->setObjectName(QStringLiteral("exportFolder"));
        folder_->setMinimumWidth(folder_->fontMetrics().averageCharWidth() * 40);
        auto* browse = new QPushButton(ExportActions::tr("&Browse..."), this);
        row->addWidget(folder_, 1);
        row->addWidget(browse);
        // A row that is a layout gets no buddy from addRow: the label is made here, so its
        // mnemonic works and the & never shows.
        auto* folderLabel = new QLabel(ExportActions::tr("&Folder:"), this);
        folderLabel->setBuddy(folder_);
        form->addRow(folderLabel, row);
        format_ = new QComboBox(this);
        format_->setObjectName(QStringLiteral("exportFormat"));
        format_->addItem(ExportActions::tr("SVG (vector, for the web and slides)"), "svg");
        format_->addItem(ExportActions::tr("PNG (bitmap, 2x resolution)"), "png");
        format_->addItem(ExportActions::tr("PDF (vector, for print)"), "pdf");
        format_->setCurrentIndex(std::max(0, format_->findData(format)));
        form->addRow(ExportActions::tr("File &type:"), format_);
        everyEntry_ = new QCheckBox(
            ExportActions::tr("Every &batch entry (%1), not only the first").arg(batch), this);
        everyEntry_->setObjectName(QStringLiteral("exportEveryBatchEntry"));
        everyEntry_->setEnabled(batch > 1);
        form->addRow(QString(), everyEntry_);
        auto* note = new QLabel(ExportActions::tr("One file per step and head, named as "
                                                  "attention-lens-cli render --all-steps names "
                                                  "them, each at its own size."),
                                this);
        note->setWordWrap(true);
        form->addRow(note);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
        buttons->button(QDialogButtonBox::Ok)->setText(ExportActions::tr("&Export"));
        connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
        connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
        form->addRow(buttons);
        connect(browse, &QPushButton::clicked, this, [this] {
            const QString d = QFileDialog::getExistingDirectory(
                this, ExportActions::tr("Folder for the figures"), folder());
            if (!d.isEmpty())
                folder_->setText(QDir::toNativeSeparators(d));
        });
    }
    QString folder() const { return QDir::fromNativeSeparators(folder_->text().trimmed()); }
    QString format() const { return format_->currentData().toString(); }
    bool everyBatchEntry() const { return everyEntry_->isChecked(); }

  private:
    QLineEdit* folder_ = nullptr;
    QComboBox* format_ = nullptr;
    QCheckBox* everyEntry_ = nullptr;
};

}  // namespace

ExportActions::~ExportActions() = default;

ExportActions::ExportActions(Workspace* workspace, StepView* view, QWidget* window)
    : QObject(window),
      workspace_(workspace),
      view_(view),
      window_(window),
      attentionJob_(std::make_unique<LatestJob>()) {
    exportImage_ = new QAction(tr("&Export image..."), this);
    exportImage_->setObjectName(QStringLiteral("actionExportImage"));
    exportImage_->setShortcut(QKeySequence(tr("Ctrl+E")));
    exportImage_->setToolTip(tr("Save the heatmap as PNG, SVG or PDF"));
    connect(exportImage_, &QAction::triggered, this, &ExportActions::exportImageInteractive);

    copyImage_ = new QAction(tr("&Copy image"), this);
    copyImage_->setObjectName(QStringLiteral("actionCopyImage"));
    copyImage_->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    copyImage_->setToolTip(tr("Copy the heatmap to the clipboard, for slides"));
    connect(copyImage_, &QAction::triggered, this, &ExportActions::copyImage);

    exportAll_ = new QAction(tr("Export &all steps..."), this);
    exportAll_->setObjectName(QStringLiteral("actionExportAllSteps"));
    exportAll_->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    exportAll_->setToolTip(tr("One image per step and head into a folder"));
    connect(exportAll_, &QAction::triggered, this, &ExportActions::exportAllInteractive);

    data_ = new QMenu(tr("Export &data"), window);
    data_->setObjectName(QStringLiteral("menuExportData"));
    const struct {
        QString text;
        const char* suffix;
        const char* name;
    } items[] = {
        {tr("Step as &CSV (the matrix the heatmap shows)..."), "csv", "actionExportStepCsv"},
        {tr("Step as NumPy .&npy..."), "npy", "actionExportStepNpy"},
        {tr("Step as &JSON..."), "json", "actionExportStepJson"},
        {tr("Whole trace as NumPy .n&pz..."), "npz", "actionExportTraceNpz"},
    };
    for (const auto& it : items) {
        QAction* a = data_->addAction(it.text);
        a->setObjectName(QLatin1String(it.name));
        const QString suffix = QLatin1String(it.suffix);
        connect(a, &QAction::triggered, this, [this, suffix] { exportDataInteractive(suffix); });
        if (suffix == QLatin1String("json"))
            data_->addSeparator();
    }
    exportOverview_ = new QAction(tr("Export &overview of all layers..."), this);
    exportOverview_->setObjectName(QStringLiteral("actionExportOverview"));
    exportOverview_->setToolTip(
        tr("The layers x heads overview of the trained model as PNG, SVG or PDF"));
    connect(exportOverview_, &QAction::triggered, this, &ExportActions::exportOverviewInteractive);
    exportAttention_ = data_->addAction(tr("Every layer's &attention as NumPy .npy..."));
    exportAttention_->setObjectName(QStringLiteral("actionExportAttentionNpy"));
    exportAttention_->setToolTip(
        tr("All attention weights of the trained model, shape (layers, heads, T, T)"));
    connect(exportAttention_, &QAction::triggered, this,
            &ExportActions::exportAttentionInteractive);
    connect(workspace_, &Workspace::resultApplied, this, &ExportActions::refreshEnabled);
    connect(workspace_, &Workspace::settingsChanged, this, &ExportActions::refreshEnabled);
    refreshEnabled();
}

void ExportActions::refreshEnabled() {
    const bool have = workspace_->shownRun() != nullptr;
    for (QAction* a : {exportImage_, copyImage_, exportAll_})
        a->setEnabled(have);
    data_->setEnabled(have);
    const TraceOutcome* shown = workspace_->shown();
    const bool model = have && shown->modelRun && workspace_->settings().modelMode();
    exportOverview_->setEnabled(model);
    exportOverview_->setVisible(workspace_->settings().modelMode());
    exportAttention_->setEnabled(model);
    exportAttention_->setVisible(workspace_->settings().modelMode());
}

QMenu* ExportActions::createHeatmapMenu(QWidget* parent) const {
    auto* menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("heatmapContextMenu"));
    menu->addAction(exportImage_);
    menu->addAction(copyImage_);
    menu->addSeparator();
    menu->addAction(exportAll_);
    menu->addMenu(data_);
    return menu;
}

void ExportActions::showError(const QString& title, const QString& text) const {
    showStatus(title, 5000);
    if (messageHook_) {
        messageHook_(title, text);
        return;
    }
    QMessageBox::warning(window_, title, text);
}

void ExportActions::showStatus(const QString& text, int ms) const {
    if (auto* w = qobject_cast<QMainWindow*>(window_))
        w->statusBar()->showMessage(text, ms);
}

FigureOptions ExportActions::figureOptions() const {
    FigureOptions o = view_->exportOptions();
    o.scale = QSettings().value(QLatin1String(kScaleKey), 2.0).toDouble();
    return o;
}

bool ExportActions::exportImage(const QString& path, const FigureOptions& options, QString* error) {
    if (!workspace_->shownRun()) {
        if (error)
            *error = tr("There is nothing to export yet.");
        return false;
    }
    try {
        exportHeatmapImage(view_->shownData(), options, path);
    } catch (const std::exception& e) {
        if (error)
            *error = what(e);
        return false;
    }
    return true;
}

void ExportActions::exportImageInteractive() {
    if (!workspace_->shownRun())
        return;
    QSettings settings;
    const QString dir = settings.value(QLatin1String(kExportDirKey), QDir::homePath()).toString();
    const HeatmapData& data = view_->shownData();
    const QString suggested = QDir(dir).filePath(
        stepFileName(workspace_->shownStep()->info, data.head, -1, QStringLiteral("png")));
    QString selected;
    QString path = QFileDialog::getSaveFileName(
        window_, tr("Export image"), suggested,
        tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"), &selected);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += selected.contains(QLatin1String("svg"))   ? QStringLiteral(".svg")
                : selected.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                          : QStringLiteral(".png");
    FigureOptions options = figureOptions();
    const bool png =
        QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0;
    FigureSizeDialog dialog(suggestedFigureSize(data), png, options.scale, window_);
    if (dialog.exec() != QDialog::Accepted)
        return;
    dialog.apply(&options);
    if (png)
        settings.setValue(QLatin1String(kScaleKey), dialog.scale());
    QString error;
    if (!exportImage(path, options, &error)) {
        showError(tr("Export failed"),
                  tr("The image could not be saved to\n%1\n\n%2").arg(path, error));
        return;
    }
    settings.setValue(QLatin1String(kExportDirKey), QFileInfo(path).absolutePath());
    showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
}

void ExportActions::copyImage() {
    if (!workspace_->shownRun())
        return;
    FigureOptions o = figureOptions();
    o.scale = 2.0;  // pasted into slides and papers
    try {
        QApplication::clipboard()->setImage(renderHeatmapImage(view_->shownData(), o));
        showStatus(tr("Heatmap copied to the clipboard"), 3000);
    } catch (const std::exception& e) {
        showStatus(tr("Copy failed: %1").arg(what(e)), 5000);
    }
}

StepFiguresResult ExportActions::exportAllSteps(const QString& dir, const QString& format,
                                                bool everyBatchEntry,
                                                const StepFiguresProgress& progress) {
    const TraceRun* run = workspace_->shownRun();
    StepFiguresResult result;
    if (!run) {
        result.error = tr("There is nothing to export yet.");
        return result;
    }
    return exportStepFigures(*run->trace, rowLabels(*run),
                             allStepFigures(*run->trace, format.toLower(), everyBatchEntry),
                             allStepsOptions(), chosenColormap(), dir, progress);
}

FigureOptions ExportActions::allStepsOptions() const {
    FigureOptions options = figureOptions();
    options.scale = 2.0;
    return options;
}

std::optional<Colormap> ExportActions::chosenColormap() const {
    return parseColormap(workspace_->settings().colormap.toStdString());
}

void ExportActions::exportAllInteractive() {
    const TraceRun* run = workspace_->shownRun();
    if (!run)
        return;
    QSettings settings;
    ExportAllDialog dialog(
        settings.value(QLatin1String(kExportDirKey), QDir::homePath()).toString(),
        settings.value(QLatin1String(kAllStepsFormatKey), "svg").toString(),
        int(run->trace->config.batch), window_);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString dir = dialog.folder();
    settings.setValue(QLatin1String(kExportDirKey), dir);
    settings.setValue(QLatin1String(kAllStepsFormatKey), dialog.format());

    startExportAllSteps(dir, dialog.format(), dialog.everyBatchEntry());
}

bool ExportActions::isExporting() const {
    return allSteps_ || attentionJob_->busy();
}

bool ExportActions::startExportAllSteps(const QString& dir, const QString& format,
                                        bool everyBatchEntry) {
    const TraceRun* run = workspace_->shownRun();
    if (!run || allSteps_)
        return false;
    allSteps_ = new StepFiguresRun(run->trace, rowLabels(*run),
                                   allStepFigures(*run->trace, format.toLower(), everyBatchEntry),
                                   allStepsOptions(), chosenColormap(), dir, this);
    // Window-modal but not exec(): the window keeps painting while the files are written.
    auto* progress = new QProgressDialog(tr("Exporting the steps..."), tr("Cancel"), 0, 1, window_);
    progress->setWindowTitle(tr("Export all steps"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    connect(progress, &QProgressDialog::canceled, allSteps_, &StepFiguresRun::cancel);
    StepFiguresRun* figures = allSteps_;
    connect(
        allSteps_, &StepFiguresRun::progressed, progress,
        [progress, figures](int done, int n, const QString& file) {
            if (progress->wasCanceled()) {  // cancel() is a slot that emits nothing
                figures->cancel();
                return;
            }
            progress->setMaximum(n);
            progress->setValue(done);
            if (!file.isEmpty())
                progress->setLabelText(tr("Drawing %1 (%2 of %3)").arg(file).arg(done + 1).arg(n));
        });
    connect(allSteps_, &StepFiguresRun::finished, this,
            [this, progress, dir](const StepFiguresResult& r) {
                progress->close();
                progress->deleteLater();
                allSteps_->deleteLater();
                allSteps_ = nullptr;
                const QString where = QDir::toNativeSeparators(dir);
                const QString files = r.files.size() == 1
                                          ? tr("1 complete file")
                                          : tr("%1 complete files").arg(r.files.size());
                if (!r.error.isEmpty())
                    showError(tr("Export failed"), tr("Stopped after %1: %2").arg(files, r.error));
                else if (r.cancelled)
                    showStatus(tr("Export cancelled: %1 in %2").arg(files, where), 6000);
                else
                    showStatus(r.files.size() == 1
                                   ? tr("Exported 1 file to %1").arg(where)
                                   : tr("Exported %1 files to %2").arg(r.files.size()).arg(where),
                               6000);
                emit allStepsExported(r);
            });
    allSteps_->start();
    return true;
}

// Around every data export's writer: refuse when nothing is shown, explain a failure (the
// target is then left as it was), and say where the file went.
bool ExportActions::writeData(const QString& path, bool haveData,
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
    showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
    return true;
}

bool ExportActions::exportStepCsv(const QString& path) {
    const Step* step = workspace_->shownStep();
    const TraceRun* run = workspace_->shownRun();
    const Settings& s = workspace_->settings();
    return writeData(path, step, [&] {
        io::writeStepCsv(path.toStdString(), *step, s.head, s.batchIndex, run->input.labels);
    });
}

bool ExportActions::exportStepNpy(const QString& path) {
    const Step* step = workspace_->shownStep();
    return writeData(path, step, [&] { io::writeNpy(path.toStdString(), step->value); });
}

bool ExportActions::exportStepJson(const QString& path) {
    const Step* step = workspace_->shownStep();
    return writeData(path, step, [&] {
        io::writeFileAtomically(path.toStdString(), io::stepToJson(*step) + "\n");
    });
}

bool ExportActions::exportTraceNpz(const QString& path) {
    const TraceRun* run = workspace_->shownRun();
    return writeData(path, run,
                     [&] { io::writeNpz(path.toStdString(), io::traceTensors(*run->trace)); });
}

bool ExportActions::exportOverview(const QString& path, bool ownScale) {
    const TraceOutcome* shown = workspace_->shown();
    const bool have = shown && shown->modelRun && workspace_->settings().modelMode();
    return writeData(path, have, [&] {
        OverviewFigureOptions o =
            overviewFigureOptions(workspace_->settings(), ownScale, shown->modelRun.get());
        o.scale = QSettings().value(QLatin1String(kScaleKey), 2.0).toDouble();
        exportOverviewFigure(shown->modelRun->thumbnails, o, path);
    });
}

bool ExportActions::exportAttentionNpy(const QString& path) {
    const TraceOutcome* shown = workspace_->shown();
    if (!shown || !shown->modelRun || !workspace_->settings().modelMode()) {
        showError(tr("Export failed"), tr("There is nothing to export yet."));
        return false;
    }
    // Without the kept weights every layer is recomputed (seconds for a long text at GPT-2
    // sizes): off the GUI thread, with a dialog whose Cancel stops it.
    const std::shared_ptr<const DecoderRun> run = shown->modelRun;
    auto* progress =
        new QProgressDialog(tr("Writing every layer's attention..."), tr("Cancel"), 0, 0, window_);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    const auto end = [this, progress](bool ok) {
        QObject::disconnect(progress, nullptr, this, nullptr);  // closing it says "canceled"
        progress->close();
        progress->deleteLater();
        emit attentionExported(ok);
    };
    connect(progress, &QProgressDialog::canceled, this, [this, end] {
        attentionJob_->cancel();
        showStatus(tr("Export cancelled: no file was written"), 4000);
        end(false);
    });
    attentionJob_->setErrorHandler([this, end](const QString& error) {
        showError(tr("Export failed"), error);
        end(false);
    });
    attentionJob_->run(
        [run, path](const CancelToken& cancel) {
            io::writeAttentionNpy(path.toStdString(), *run, &cancel);
            return true;
        },
        [this, path, end](bool) {
            showStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
            end(true);
        });
    return true;
}

QString ExportActions::askSavePath(const QString& title, const QString& name,
                                   const QString& filters) {
    QSettings settings;
    const QString dir = settings.value(QLatin1String(kExportDirKey), QDir::homePath()).toString();
    QString selected;
    QString path =
        QFileDialog::getSaveFileName(window_, title, QDir(dir).filePath(name), filters, &selected);
    if (path.isEmpty())
        return path;
    if (QFileInfo(path).suffix().isEmpty()) {
        // The suffix of the chosen filter, "(*.svg)" -> ".svg".
        const qsizetype star = selected.indexOf(QLatin1String("*."));
        path += star >= 0 ? selected.mid(star + 1).chopped(1) : QFileInfo(name).suffix();
    }
    settings.setValue(QLatin1String(kExportDirKey), QFileInfo(path).absolutePath());
    return path;
}

void ExportActions::exportOverviewInteractive() {
    const QString path =
        askSavePath(tr("Export overview"), QStringLiteral("overview.png"),
                    tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"));
    if (!path.isEmpty())
        exportOverview(path, overviewOwnScale_ && overviewOwnScale_());
}

void ExportActions::exportAttentionInteractive() {
    const QString path = askSavePath(tr("Export every layer's attention"),
                                     QStringLiteral("attention.npy"), tr("NumPy array (*.npy)"));
    if (!path.isEmpty())
        exportAttentionNpy(path);
}

QString ExportActions::suggestedDataName(const QString& suffix) const {
    if (suffix == QLatin1String("npz"))
        return QStringLiteral("trace.npz");
    const Step* step = workspace_->shownStep();
    if (!step)
        return QStringLiteral("step.") + suffix;
    // CSV holds one head; .npy and JSON the whole step.
    const bool oneHead = suffix == QLatin1String("csv") && stepHeadCount(step->info) > 0;
    return stepFileName(step->info, oneHead ? workspace_->settings().head : -1, -1, suffix);
}

void ExportActions::exportDataInteractive(const QString& suffix) {
    if (!workspace_->shownRun())
        return;
    QSettings settings;
    const QString dir = settings.value(QLatin1String(kExportDirKey), QDir::homePath()).toString();
    const QString filter = suffix == QLatin1String("csv")    ? tr("CSV table (*.csv)")
                           : suffix == QLatin1String("npy")  ? tr("NumPy array (*.npy)")
                           : suffix == QLatin1String("json") ? tr("JSON (*.json)")
                                                             : tr("NumPy archive (*.npz)");
    QString path = QFileDialog::getSaveFileName(
        window_, tr("Export data"), QDir(dir).filePath(suggestedDataName(suffix)), filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    const bool ok = suffix == QLatin1String("csv")    ? exportStepCsv(path)
                    : suffix == QLatin1String("npy")  ? exportStepNpy(path)
                    : suffix == QLatin1String("json") ? exportStepJson(path)
                                                      : exportTraceNpz(path);
    if (ok)
        settings.setValue(QLatin1String(kExportDirKey), QFileInfo(path).absolutePath());
}

}  // namespace attn

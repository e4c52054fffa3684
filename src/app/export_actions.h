#pragma once
// Exports of the result shown: the heatmap as PNG/SVG/PDF (at the figure's own size: square
// cells that hold their numbers, or a size the user picks), copied to the clipboard, every step
// into a folder, and the data of a step (CSV, .npy, JSON) or of the whole trace (.npz). Every
// non-interactive function is what the menu action does after its dialog.

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

#include "export/heatmap_figure.h"
#include "export/image_export.h"

class QAction;
class QMenu;
class QWidget;

namespace attn {

class LatestJob;
class StepFiguresRun;
class StepView;
class Workspace;

class ExportActions : public QObject {
    Q_OBJECT
  public:
    ExportActions(Workspace* workspace, StepView* view, QWidget* window);
    ~ExportActions() override;

    QAction* exportImageAction() const { return exportImage_; }
    QAction* copyImageAction() const { return copyImage_; }
    QAction* exportAllAction() const { return exportAll_; }
    QMenu* dataMenu() const { return data_; }
    // Model mode: the layers x heads overview as a figure, every layer's attention as .npy.
    QAction* exportOverviewAction() const { return exportOverview_; }
    QAction* exportAttentionAction() const { return exportAttention_; }
    // Whether the overview figure colours each tile on its own scale (as the overview shows).
    void setOverviewOwnScale(std::function<bool()> ownScale) {
        overviewOwnScale_ = std::move(ownScale);
    }
    // The heatmap's right-click menu (the caller owns it).
    QMenu* createHeatmapMenu(QWidget* parent) const;

    // The figure of the shown step as a file, its type by suffix. `options` from
    // figureOptions() with a size and PNG scale of the user's choice.
    bool exportImage(const QString& path, const FigureOptions& options, QString* error);
    // The options a file gets by default: what the screen shows, in print colours, at the
    // figure's own size, PNG at 2x.
    FigureOptions figureOptions() const;
    // One figure per step and head (and batch entry when asked) into `dir`, named as
    // `render --all-steps` names them, all at once; `progress` runs between files. (The menu's
    // Export all steps writes the same files with startExportAllSteps.)
    StepFiguresResult exportAllSteps(const QString& dir, const QString& format,
                                     bool everyBatchEntry,
                                     const StepFiguresProgress& progress = {});
    // The shown step (CSV: its head and batch entry, as the heatmap shows it) / every step.
    bool exportStepCsv(const QString& path);
    bool exportStepNpy(const QString& path);
    bool exportStepJson(const QString& path);
    bool exportTraceNpz(const QString& path);
    // Model mode: the overview of the shown run (PNG/SVG/PDF by suffix), and every layer's
    // attention weights (L, H, T, T) as float32 .npy; recomputed layer by layer off the GUI
    // thread when the run did not keep them (a progress dialog with Cancel meanwhile).
    bool exportOverview(const QString& path, bool ownScale);
    // Starts writing every layer's attention in the background (false: nothing to export);
    // attentionExported() says how it ended.
    bool exportAttentionNpy(const QString& path);
    // Starts Export all steps in the background, with a progress dialog and Cancel; the event
    // loop keeps running (one file per turn). allStepsExported() says how it ended. False when
    // nothing is shown or an export is already running.
    bool startExportAllSteps(const QString& dir, const QString& format, bool everyBatchEntry);
    bool isExporting() const;

  signals:
    void attentionExported(bool ok);
    void allStepsExported(const attn::StepFiguresResult& result);

  public:

    // Errors go to this instead of a message box when set (tests).
    using MessageHook = std::function<void(const QString& title, const QString& text)>;
    void setMessageHook(MessageHook hook) { messageHook_ = std::move(hook); }

  private:
    // What every Export all steps file is drawn with: figureOptions() at 2x, and the user's
    // colormap (unset: each step's own).
    FigureOptions allStepsOptions() const;
    std::optional<Colormap> chosenColormap() const;
    void exportImageInteractive();
    void copyImage();
    void exportAllInteractive();
    void exportDataInteractive(const QString& suffix);
    void exportOverviewInteractive();
    void exportAttentionInteractive();
    QString askSavePath(const QString& title, const QString& name, const QString& filters);
    bool writeData(const QString& path, bool haveData, const std::function<void()>& write);
    void refreshEnabled();
    void showError(const QString& title, const QString& text) const;
    void showStatus(const QString& text, int ms) const;
    QString suggestedDataName(const QString& suffix) const;

    Workspace* workspace_;
    StepView* view_;
    QWidget* window_;
    MessageHook messageHook_;
    QAction* exportImage_ = nullptr;
    QAction* copyImage_ = nullptr;
    QAction* exportAll_ = nullptr;
    QMenu* data_ = nullptr;
    QAction* exportOverview_ = nullptr;
    QAction* exportAttention_ = nullptr;
    std::function<bool()> overviewOwnScale_;
    std::unique_ptr<LatestJob> attentionJob_;  // every layer's attention, written off the GUI
    StepFiguresRun* allSteps_ = nullptr;       // the running Export all steps, if any
};

}  // namespace attn

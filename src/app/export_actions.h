#pragma once
// Exports of the result shown: the heatmap as PNG/SVG/PDF (at the figure's own size: square
// cells that hold their numbers, or a size the user picks), copied to the clipboard, every step
// into a folder, and the data of a step (CSV, .npy, JSON) or of the whole trace (.npz). Every
// non-interactive function is what the menu action does after its dialog.

#include <QObject>
#include <QString>
#include <functional>

#include "export/heatmap_figure.h"
#include "export/image_export.h"

class QAction;
class QMenu;
class QWidget;

namespace attn {

class StepView;
class Workspace;

class ExportActions : public QObject {
    Q_OBJECT
  public:
    ExportActions(Workspace* workspace, StepView* view, QWidget* window);

    QAction* exportImageAction() const { return exportImage_; }
    QAction* copyImageAction() const { return copyImage_; }
    QAction* exportAllAction() const { return exportAll_; }
    QMenu* dataMenu() const { return data_; }
    // The heatmap's right-click menu (the caller owns it).
    QMenu* createHeatmapMenu(QWidget* parent) const;

    // The figure of the shown step as a file, its type by suffix. `options` from
    // figureOptions() with a size and PNG scale of the user's choice.
    bool exportImage(const QString& path, const FigureOptions& options, QString* error);
    // The options a file gets by default: what the screen shows, in print colours, at the
    // figure's own size, PNG at 2x.
    FigureOptions figureOptions() const;
    // One figure per step and head (and batch entry when asked) into `dir`, named as
    // `render --all-steps` names them. Drawn on the GUI thread; `progress` runs between files.
    StepFiguresResult exportAllSteps(const QString& dir, const QString& format,
                                     bool everyBatchEntry, const StepFiguresProgress& progress = {});
    // The shown step (CSV: its head and batch entry, as the heatmap shows it) / every step.
    bool exportStepCsv(const QString& path);
    bool exportStepNpy(const QString& path);
    bool exportStepJson(const QString& path);
    bool exportTraceNpz(const QString& path);

    // Errors go to this instead of a message box when set (tests).
    using MessageHook = std::function<void(const QString& title, const QString& text)>;
    void setMessageHook(MessageHook hook) { messageHook_ = std::move(hook); }

  private:
    void exportImageInteractive();
    void copyImage();
    void exportAllInteractive();
    void exportDataInteractive(const QString& suffix);
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
};

}  // namespace attn

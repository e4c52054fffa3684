#pragma once
// Export all steps for a window: the same files as exportStepFigures, written without holding
// the event loop. Each step's slice is cut on the thread pool (a LatestJob); the figure is
// drawn on the GUI thread (QCustomPlot is a widget), one file per event-loop turn, so the
// window repaints and Cancel works between files without processEvents.

#include <QObject>
#include <memory>
#include <optional>

#include "export/image_export.h"
#include "pipeline/step_files.h"

namespace attn {

class StepFiguresRun : public QObject {
    Q_OBJECT
  public:
    // `trace` is held until the run ends; `figures` point into it.
    StepFiguresRun(std::shared_ptr<const Trace> trace, QStringList tokens,
                   std::vector<StepFigure> figures, FigureOptions options,
                   std::optional<Colormap> colormap, QString dir, QObject* parent = nullptr);
    ~StepFiguresRun() override;
    // Creates the folder and starts on the first figure (from the event loop).
    void start();
    // Stops before the next file; the files written stay, complete. finished() follows.
    void cancel();
    bool isRunning() const;

  signals:
    // Before each file (done = files written so far, `file` its name).
    void progressed(int done, int total, const QString& file);
    // Once, at the end: what was written, and whether it was cancelled or failed.
    void finished(const attn::StepFiguresResult& result);

  private:
    void next();
    void finish();
    struct Private;
    std::unique_ptr<Private> d_;
};

}  // namespace attn

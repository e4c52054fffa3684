#include "export/step_figures_run.h"

#include <QDir>
#include <QTimer>

#include "engine/step_ids.h"
#include "export/heatmap_data.h"
#include "pipeline/latest_job.h"

namespace attn {

struct StepFiguresRun::Private {
    std::shared_ptr<const Trace> trace;
    QStringList tokens;
    std::vector<StepFigure> figures;
    FigureOptions options;
    std::optional<Colormap> colormap;
    QString dir;
    StepFiguresResult result;
    bool running = false;
    bool cancelled = false;
    LatestJob slices;
};

StepFiguresRun::StepFiguresRun(std::shared_ptr<const Trace> trace, QStringList tokens,
                               std::vector<StepFigure> figures, FigureOptions options,
                               std::optional<Colormap> colormap, QString dir, QObject* parent)
    : QObject(parent), d_(std::make_unique<Private>()) {
    d_->trace = std::move(trace);
    d_->tokens = std::move(tokens);
    d_->figures = std::move(figures);
    d_->options = std::move(options);
    d_->colormap = colormap;
    d_->dir = std::move(dir);
    d_->result.total = int(d_->figures.size());
}

StepFiguresRun::~StepFiguresRun() = default;

bool StepFiguresRun::isRunning() const {
    return d_->running;
}

void StepFiguresRun::start() {
    d_->running = true;
    if (!QDir().mkpath(d_->dir)) {
        d_->result.error = stepFiguresFolderError(d_->dir);
        QTimer::singleShot(0, this, &StepFiguresRun::finish);
        return;
    }
    QTimer::singleShot(0, this, &StepFiguresRun::next);
}

void StepFiguresRun::cancel() {
    if (!d_->running || d_->cancelled)
        return;
    d_->cancelled = true;
    d_->slices.cancel();
    QTimer::singleShot(0, this, &StepFiguresRun::finish);
}

void StepFiguresRun::next() {
    if (d_->cancelled)
        return;
    const int i = int(d_->result.files.size());
    if (i == d_->result.total) {
        finish();
        return;
    }
    const StepFigure figure = d_->figures[size_t(i)];
    emit progressed(i, d_->result.total, figure.fileName);
    if (d_->cancelled)  // cancelled by a slot of progressed()
        return;
    d_->slices.run(
        [trace = d_->trace, tokens = d_->tokens, figure](const CancelToken&) {
            return sliceStep(*figure.step, tokens, std::max(figure.head, 0),
                             std::max(figure.batch, 0), trace->find(step_id::kMask));
        },
        [this, figure](const HeatmapData& data) {
            const QString path = QDir(d_->dir).filePath(figure.fileName);
            try {
                drawStepFigure(data, d_->options, d_->colormap, path);
            } catch (const std::exception& e) {
                d_->result.error = QString::fromUtf8(e.what());
                finish();
                return;
            }
            d_->result.files << path;
            next();  // the next slice is cut in the background; this returns to the event loop
        });
}

void StepFiguresRun::finish() {
    if (!d_->running)
        return;
    d_->running = false;
    d_->result.cancelled = d_->cancelled && d_->result.error.isEmpty();
    if (d_->result.ok())
        emit progressed(d_->result.total, d_->result.total, QString());
    emit finished(d_->result);
}

}  // namespace attn

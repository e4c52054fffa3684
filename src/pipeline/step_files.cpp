#include "pipeline/step_files.h"

#include "engine/step_ids.h"

namespace attn {

int stepHeadCount(const StepInfo& info) {
    const int64_t axis = info.headAxis();
    if (axis < 0 || size_t(axis) >= info.shape.size())
        return 0;
    // A key/value group step is picked by query head, like every other step of its trace.
    return int(info.shape[size_t(axis)] * info.queryHeadsPerIndex());
}

int stepBatchCount(const StepInfo& info) {
    const int64_t axis = info.batchAxis();
    return axis >= 0 && size_t(axis) < info.shape.size() ? int(info.shape[size_t(axis)]) : 0;
}

const Step* stepToShow(const Trace& trace, std::string_view wanted) {
    if (const Step* s = trace.find(wanted))
        return s;
    if (const Step* s = trace.find(step_id::kWeights))
        return s;
    return trace.steps.empty() ? nullptr : &trace.steps.back();
}

QString stepFileName(const StepInfo& info, int head, int batch, const QString& suffix) {
    QString name = QString::fromStdString(info.id);
    if (head >= 0)
        name += QStringLiteral("_head%1").arg(head);
    if (batch >= 0)
        name += QStringLiteral("_batch%1").arg(batch);
    return name + QLatin1Char('.') + suffix;
}

std::vector<StepFigure> allStepFigures(const Trace& trace, const QString& suffix,
                                       bool everyBatchEntry) {
    std::vector<StepFigure> figures;
    // The step's place in the pipeline leads the name ("03_scores_head0.svg"): a folder listed
    // by name reads in the order the computation runs, not alphabetically.
    const int digits = trace.steps.size() >= 100 ? 3 : 2;
    int position = 0;
    for (const Step& step : trace.steps) {
        const QString prefix = QStringLiteral("%1_").arg(++position, digits, 10, QLatin1Char('0'));
        const int heads = stepHeadCount(step.info);
        const int entries = stepBatchCount(step.info);
        // A step without a batch axis (the mask) is the same for every entry: drawn once.
        const bool perEntry = everyBatchEntry && entries > 1;
        for (int b = 0; b < (perEntry ? entries : 1); ++b)
            for (int h = 0; h < std::max(heads, 1); ++h) {
                const int head = heads > 0 ? h : -1;
                const int batch = perEntry ? b : -1;
                figures.push_back(
                    {&step, head, batch, prefix + stepFileName(step.info, head, batch, suffix)});
            }
    }
    return figures;
}

}  // namespace attn

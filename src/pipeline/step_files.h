#pragma once
// Which step a view shows and what the files of an export are called: one rule each for the app
// (File > Export) and the CLI (render, export), so both pick and name the same things.

#include <QString>
#include <string_view>
#include <vector>

#include "engine/trace.h"

namespace attn {

// The number of heads a step is split into (the size of its "h" or "head" dim; for a key/value
// group dim "G", the query heads that read the groups), 0 when the step is not split by head.
int stepHeadCount(const StepInfo& info);
// The number of batch entries a step holds (the size of its "b" dim), 0 without one.
int stepBatchCount(const StepInfo& info);

// The step a view shows when `wanted` is asked for: `wanted` if the trace has it, else the
// attention weights, else the last step (the output). Null only for an empty trace.
const Step* stepToShow(const Trace& trace, std::string_view wanted);

// <step>[_head<H>][_batch<B>].<suffix>: head -1 for a step without heads, batch -1 to leave the
// batch entry out of the name (a batch of one, or only its first entry exported).
QString stepFileName(const StepInfo& info, int head, int batch, const QString& suffix);

// One figure of an "every step" export.
struct StepFigure {
    const Step* step = nullptr;
    int head = -1;   // -1: the step has no heads
    int batch = -1;  // -1: the first (or only) batch entry, not named in the file
    QString fileName;
};
// A figure per step and head (and batch entry, when `everyBatchEntry` and the batch has more
// than one), in trace order, named by the step's place in the trace and stepFileName:
// "01_inputs.svg", "07_weights_head1.svg".
std::vector<StepFigure> allStepFigures(const Trace& trace, const QString& suffix,
                                       bool everyBatchEntry);

}  // namespace attn

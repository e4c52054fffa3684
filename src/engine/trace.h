#pragma once
// The step trace: every intermediate tensor of one forward pass of a chapter-3 module, with its
// SPEC step id, a title, the PyTorch expression that makes it and its named dims.

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cancel.h"
#include "engine/config.h"
#include "engine/tensor.h"

namespace attn {

// Parameters by PyTorch state_dict name ("W_query.weight", "heads.0.W_key.bias", "out_proj.weight",
// plain "W_query" for SelfAttention_v1).
using WeightMap = std::map<std::string, Tensor>;

enum class StepKind {
    Input,       // the embeddings x
    Projection,  // queries/keys/values and their reshapes, context, output: token x feature
    Scores,      // token x token, signed, may hold -inf
    Mask,        // token x token, 1 = hidden
    Weights,     // token x token, rows are probability distributions (or dropped versions)
    DropoutMask  // token x token, 1 = kept, 0 = dropped
};

struct StepInfo {
    std::string id;
    std::string title;              // one line for a student
    std::string op;                 // the PyTorch expression
    Shape shape;                    // PyTorch order, batch first
    std::vector<std::string> dims;  // names, e.g. {"b", "h", "T", "T"}
    StepKind kind = StepKind::Projection;
    std::string viewOf;  // id of the step whose storage this one shares (a view: no copy)
    // Index of the head dimension ("h" or "head"), -1 if the step is not split by head.
    int64_t headDim() const;
    int64_t batchDim() const;  // index of "b", -1 if none
};

struct Step {
    StepInfo info;
    Tensor value;
};

struct Trace {
    Config config;
    std::vector<Step> steps;
    WeightMap parameters;  // what the module holds, by state_dict name
    int64_t parameterCount = 0;
    int64_t tokens = 0;

    const Step* find(std::string_view id) const;
    const Tensor& output() const;  // the final step `output`
};

// The 2-D (rows, cols) matrix of a step for one head and batch entry: the last two dims are rows
// and columns, a 1-D step becomes one row, and head/batch pick along the "h"/"head" and "b" dims
// (clamped to range). A view: no copy.
Tensor stepMatrix(const Step& step, int64_t head, int64_t batch);

// The steps a configuration produces on T tokens, without computing anything: drives the
// pipeline strip and shape table before a result exists, and the memory estimate.
std::vector<StepInfo> planSteps(const Config& config, int64_t tokens);
// Bytes the full trace holds (every step kept; views that share storage count once).
uint64_t estimateTraceBytes(const Config& config, int64_t tokens);
int64_t parameterCount(const Config& config);
// The state_dict names and shapes the module of `config` has.
std::vector<std::pair<std::string, Shape>> parameterShapes(const Config& config);

// done = steps finished so far, total = steps planned.
using ProgressFn = std::function<void(int done, int total, const std::string& stepId)>;

struct TraceRequest {
    Config config;
    Tensor inputs;  // (b, T, d_in), or (T, d_in) which is stacked `batch` times
    const WeightMap* weights = nullptr;  // explicit parameters; else drawn from config.seed
    const CancelToken* cancel = nullptr;
    ProgressFn progress;
};

// Validates (throws EngineError naming the field), then computes every step.
// Throws Cancelled if the token is set.
Trace runTrace(const TraceRequest& request);

}  // namespace attn

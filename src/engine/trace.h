#pragma once
// The step trace: every intermediate tensor of one forward pass of a chapter-3 module, with its
// step id (a fixed name the CLI, exports and tests use), a title, the PyTorch expression that
// makes it and its named dims.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/block_facts.h"
#include "engine/cancel.h"
#include "engine/config.h"
#include "engine/rope_spec.h"
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

// Where a step comes from, as a fact the texts read (never guessed from the op).
enum class StepSource {
    Module,      // the attention module's own computation (chapter 3 and after)
    LayerInput,  // a trained model's layer: `inputs` is its block's first norm, not embeddings
};

struct StepInfo {
    std::string id;
    std::string title;              // one line for a student
    std::string op;                 // the PyTorch expression
    Shape shape;                    // PyTorch order, batch first
    std::vector<std::string> dims;  // names, e.g. {"b", "h", "T", "T"}
    StepKind kind = StepKind::Projection;
    std::string viewOf;  // id of the step whose storage this one shares (a view: no copy)
    StepSource source = StepSource::Module;
    // scaled_scores and weights_unmasked of a model that scales its scores by a size of its own
    // (Gemma 3's query_pre_attn_scalar): the scores are divided by its square root, not by
    // sqrt(d_k) = keys.shape[-1]**0.5; 0 where they are divided by sqrt(d_k).
    double scaleSize = 0.0;
    // Query heads per index of a "G" (key/value group) axis: picking head h shows group
    // h / headsPerGroup, the group that head reads its keys and values from.
    int64_t headsPerGroup = 1;
    // Every step of a trained model's layer: the block it belongs to (its norm, feed-forward,
    // positions), which its texts name; empty for chapter 3's module.
    std::optional<BlockFacts> block;
    // Index of the head axis ("h", "head", or "G" for key/value groups), -1 if the step is not
    // split by head.
    int64_t headAxis() const;
    // True when the head axis is a key/value group axis ("G"), which is picked by query head.
    bool headAxisIsGroups() const;
    // Query heads one index of the head axis stands for: headsPerGroup on a group axis, else 1.
    int64_t queryHeadsPerIndex() const;
    int64_t batchAxis() const;  // index of "b", -1 if none
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

// What a heatmap of a step shows for one head and batch entry (and what its CSV export holds).
// The head (StepInfo::headAxis) and batch entry (StepInfo::batchAxis) are picked, clamped to
// range. If more than two dims remain and tokens lead (the multi-head reshapes, (T, h, hd)),
// they stay: tokens are the rows and the trailing dims sit side by side as columns, exactly as
// .view lays them out. Any other extra leading dim is shown at index 0.
struct StepSlice {
    Tensor values;                  // the picked view: 0-D, 1-D, 2-D, or (T, ...) when merged
    std::vector<std::string> dims;  // the names of values' dims ("dim<i>" where unnamed)
    // The head picked, -1 when no head dim was picked. On a key/value group axis it is the query
    // head, whose group (head / headsPerGroup) the values are.
    int64_t head = -1;
    int64_t batch = -1;     // the batch entry picked, -1 without a "b" dim
    int64_t batchSize = 0;  // size of the "b" dim (0 without one)
    bool merged() const { return values.dim() > 2; }
};
StepSlice sliceStepValues(const Step& step, int64_t head, int64_t batch);

// Row and column labels of that slice as a matrix (stepMatrix): `tokens` on token axes (dims
// named "T"), "1.0" (head 1, feature 0) for the merged columns, indices elsewhere; a 1-D slice
// has one row with an empty label.
struct SliceLabels {
    std::vector<std::string> rows, cols;
};
SliceLabels sliceLabels(const StepSlice& slice, const std::vector<std::string>& tokens);

// The same slice as a (rows, cols) matrix: a 0-D or 1-D slice becomes one row, a merged one
// (T, h, hd) becomes (T, h * hd). No copy unless merging needs one.
Tensor stepMatrix(const Step& step, int64_t head, int64_t batch);
Tensor stepMatrix(const StepSlice& slice);

// The steps a configuration produces on T tokens, without computing anything: drives the
// pipeline strip and shape table before a result exists, and the memory estimate.
std::vector<StepInfo> planSteps(const Config& config, int64_t tokens);
// True for the steps a trace keeps as lower triangles (Tensor::lowerTriangular): masked_scores,
// weights_tril and weights_renormalized, which every mask makes constant above the diagonal.
bool keptAsLowerTriangles(std::string_view stepId);
// Bytes the trace holds once every step has been read (views that share storage count once):
// what the memory budget allows for, since exporting or printing a trace reads every step.
uint64_t estimateTraceBytes(const Config& config, int64_t tokens);
// Bytes the trace holds as runTrace returns it: the same, but with the steps kept as lower
// triangles at T (T + 1) / 2 floats per matrix (until something reads them).
uint64_t estimateComputedTraceBytes(const Config& config, int64_t tokens);
int64_t parameterCount(const Config& config);
// The state_dict names and shapes the module of `config` has.
std::vector<std::pair<std::string, Shape>> parameterShapes(const Config& config);

// done = steps finished so far, total = steps planned.
using ProgressFn = std::function<void(int done, int total, const std::string& stepId)>;

// What a trained model's layer does that the `rotary` module's Config cannot say (layerTrace
// sets it; a chapter-3 or after-chapter-3 module leaves it out).
struct ModelLayerExtras {
    double qkNormEps = 1e-6;  // the model's RMSNorm epsilon for QK-norm
    RopeSpec rope;            // its base and scaling (config.ropeBase is ignored)
    // > 0: scaled scores = scores * this (Gemma 3's query_pre_attn_scalar^-0.5), instead of
    // scores / sqrt(hd).
    double scoreScale = 0.0;
    bool qkvBias = false;  // the weights hold W_query/W_key/W_value biases (Qwen2)
};

struct TraceRequest {
    const ModelLayerExtras* modelLayer = nullptr;
    Config config;
    Tensor inputs;  // (b, T, d_in), or (T, d_in) which is stacked `batch` times
    const WeightMap* weights = nullptr;  // explicit parameters; else drawn from config.seed
    const CancelToken* cancel = nullptr;
    ProgressFn progress;
};

// Validates (throws UserError naming the field), then computes every step.
// Throws Cancelled if the token is set.
Trace runTrace(const TraceRequest& request);

}  // namespace attn

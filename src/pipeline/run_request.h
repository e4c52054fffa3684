#pragma once
// The one request function: settings (and the files and model they name, already read) to a
// trace, for the app's worker thread and every CLI command. Chapter-3 mode tokenizes, checks,
// embeds and traces the module; model mode runs the model's forward (reusing an earlier run of
// the same model) and shows one block's attention as the chapter-3 trace, with the rest of the
// block around it. What the caller wants to hear on the way comes through callbacks.

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "pipeline/model_request.h"
#include "pipeline/request.h"

namespace attn {

struct Request {
    Settings settings;
    InputFiles files;
    // Model mode: the model settings.model names, read (loadModel), and an earlier run of it,
    // whose rows a longer text reuses and which a change of layer only reuses whole.
    std::shared_ptr<const DecoderModel> model;
    std::shared_ptr<const DecoderRun> previousRun;
    // The earlier request's baseline (ModelRun::baseline), reused while the text is the same.
    std::shared_ptr<const DecoderRun> previousBaseline;
};

// How many threads the engine may use: as the caller set them, or fitted to the work (a
// keystroke's small trace on one thread, since waking a team costs more than it saves there;
// a model's forward or a big trace on every core).
enum class ThreadUse { AsSet, FitToWork };

struct RequestHooks {
    const CancelToken* cancel = nullptr;
    // The tokens, as soon as they are known (before the checks and the trace).
    std::function<void(const InputTokens&)> tokens;
    ProgressFn steps;          // chapter-3 mode: each step as it is computed
    DecoderProgressFn layers;  // model mode: each block as it finishes
    ThreadUse threads = ThreadUse::AsSet;
    // Model mode: also the layer's trace (false: the forward alone, for `model` and `bench`).
    bool layerTrace = true;
};

// Exactly one of: a run (run.trace set; in model mode without layerTrace, model.run set), or
// issues, each with the field of its control (settings that cannot run, a file that does not fit,
// a run beyond the memory budget). Cancelled is thrown.
struct RequestResult {
    TraceRun run;
    ModelRun model;  // model mode
    std::vector<ValidationIssue> issues;
    double traceMs = 0.0;  // the trace alone (model mode: the forward and the layer's trace)
};
RequestResult runRequest(const Request& request, const RequestHooks& hooks = {});
// The same for a caller that stops at the first problem: throws UserError for it.
RequestResult runRequestOrThrow(const Request& request, const RequestHooks& hooks = {});
// A chapter-3 run of `settings` (runRequestOrThrow's run). Throws UserError, Cancelled.
TraceRun runSettings(const Settings& settings, const InputFiles& files,
                     const CancelToken* cancel = nullptr);

// The "config" of a run's record (the trace JSON, bench): the settings that apply to it
// (settingFacts of `settings` with the module `traced` that ran: in model mode the traced
// layer's, so its variant and mask), and in model mode (`model` set) the model's facts
// (modelFacts of settings.layer: its architecture and the tokenizer that cut the text).
Facts traceConfigFacts(const Settings& settings, const Config& traced,
                       const DecoderModel* model = nullptr);

// The user's checks of a step and a head (command-line --step and --head, for the CLI and the
// app's launch), in one wording: "This configuration has no step "x"; its steps are a, b." and
// "--head 4 is out of range: "weights" has 2 heads."
std::optional<ValidationIssue> stepProblem(const std::vector<StepInfo>& steps, const QString& id);
// `heads`: the step's (stepId) or, with an empty stepId, the configuration's.
std::optional<ValidationIssue> headProblem(int head, int64_t heads, const std::string& stepId = {});
std::vector<StepInfo> stepInfos(const Trace& trace);

}  // namespace attn

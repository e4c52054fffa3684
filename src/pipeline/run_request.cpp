#include "pipeline/run_request.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <algorithm>
#include "pipeline/issue_text.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace attn {

namespace {

// Small traces (typing a sentence) run on the calling thread alone: waking a team of OpenMP
// threads costs more than it saves there, and on a busy machine spinning threads make each
// keystroke several times slower. Big ones (hundreds of tokens at GPT-2 sizes) use every core.
void fitThreadsToTrace(const Config& c, int64_t tokens) {
#ifdef _OPENMP
    const double t = double(std::max<int64_t>(1, tokens));
    const double b = double(std::max<int64_t>(1, c.batch));
    const double flops =
        2.0 * b * t * double(c.dIn) * double(c.dOut) * 4.0 + 4.0 * b * t * t * double(c.dOut);
    omp_set_num_threads(flops < 2e8 ? 1 : std::max(1, omp_get_num_procs()));
#else
    (void)c;
    (void)tokens;
#endif
}

// A trained model's forward is big enough that every core pays off, even for a short text.
void useEveryCore() {
#ifdef _OPENMP
    omp_set_num_threads(std::max(1, omp_get_num_procs()));
#endif
}

double msSince(const QElapsedTimer& timer) {
    return double(timer.nsecsElapsed()) / 1e6;
}

void runChapterThree(const Request& request, const RequestHooks& hooks, RequestResult& out) {
    const Settings& s = request.settings;
    TraceRun& run = out.run;
    run.settings = s;
    run.input = tokenizeInput(s, request.files);
    if (hooks.tokens)
        hooks.tokens(run.input);
    out.issues = checkSettings(s, request.files, run.input.count());
    if (!out.issues.empty())
        return;
    if (hooks.threads == ThreadUse::FitToWork)
        fitThreadsToTrace(s.config, run.input.count());
    run.x = embedInput(s, request.files, run.input, hooks.cancel);
    TraceRequest trace;
    trace.config = s.config;
    trace.inputs = run.x;
    trace.weights = variantHasWeights(s.config.variant) ? request.files.weights.get() : nullptr;
    trace.cancel = hooks.cancel;
    trace.progress = hooks.steps;
    QElapsedTimer timer;
    timer.start();
    run.trace = std::make_shared<const Trace>(runTrace(trace));
    out.traceMs = msSince(timer);
}

// The run of `ids` with every head, for ablated settings: an earlier run that is one (the run
// shown before the first head was switched off, or the last baseline), else computed, reusing
// what of the last baseline's rows it can.
std::shared_ptr<const DecoderRun> baselineRun(const Request& request, const ModelRun& m,
                                              const std::vector<int64_t>& ids,
                                              const RequestHooks& hooks) {
    std::shared_ptr<const DecoderRun> reusable;
    for (const auto& c : {request.previousBaseline, request.previousRun}) {
        if (!c || c->model != m.model || !c->ablation.empty())
            continue;
        if (c->ids == ids)
            return c;
        if (!reusable)
            reusable = c;
    }
    DecoderRequest r;
    r.model = m.model;
    r.ids = ids;
    r.previous = reusable;
    r.memoryBudgetBytes = m.settings.config.memoryBudgetBytes;
    r.cancel = hooks.cancel;
    return runDecoder(r);
}

void runModelMode(const Request& request, const RequestHooks& hooks, RequestResult& out) {
    const Settings& s = request.settings;
    if (!request.model) {
        out.issues.push_back(
            {"model", QCoreApplication::translate("attn::Request", "The model is not loaded yet.")
                          .toStdString()});
        return;
    }
    ModelRun& m = out.model;
    m.settings = s;
    m.model = request.model;
    m.input = modelTokens(s, m.model.get());
    if (hooks.tokens)
        hooks.tokens(m.input);
    out.issues = checkModelSettings(s, *m.model, m.input);
    if (!out.issues.empty())
        return;
    QElapsedTimer timer;
    timer.start();
    const std::vector<int64_t> ids = tokenIds(m.input.tokens);
    const auto& previous = request.previousRun;
    const bool sameModel = previous && previous->model == m.model;
    if (sameModel && previous->ids == ids && previous->ablation == s.ablation) {
        m.run = previous;  // the same text: only the layer (or the view) changed
    } else {
        if (hooks.threads == ThreadUse::FitToWork)
            useEveryCore();
        DecoderRequest r;
        r.model = m.model;
        r.ids = ids;
        r.previous = sameModel ? previous : nullptr;
        r.memoryBudgetBytes = s.config.memoryBudgetBytes;
        r.ablation = s.ablation;
        r.cancel = hooks.cancel;
        r.progress = hooks.layers;
        m.run = runDecoder(r);
    }
    if (!s.ablation.empty())
        m.baseline = baselineRun(request, m, ids, hooks);
    if (hooks.layerTrace)
        out.run = layerTraceRunInBlock(m, hooks.cancel);
    out.traceMs = msSince(timer);
}

}  // namespace

RequestResult runRequest(const Request& request, const RequestHooks& hooks) {
    RequestResult out;
    try {
        if (request.settings.modelMode())
            runModelMode(request, hooks, out);
        else
            runChapterThree(request, hooks, out);
    } catch (const UserError& e) {
        out.issues.push_back(issueOf(e));
    }
    if (!out.issues.empty()) {
        out.run.trace.reset();
        out.model.run.reset();
    }
    return out;
}

RequestResult runRequestOrThrow(const Request& request, const RequestHooks& hooks) {
    RequestResult out = runRequest(request, hooks);
    if (!out.issues.empty()) {
        // The English of a message in parts: a caller that throws is the CLI.
        const ValidationIssue& first = out.issues.front();
        if (!first.parts.empty())
            throw UserError(first.field, first.parts);
        throw UserError(first.field, first.message);
    }
    return out;
}

TraceRun runSettings(const Settings& settings, const InputFiles& files, const CancelToken* cancel) {
    RequestHooks hooks;
    hooks.cancel = cancel;
    return runRequestOrThrow(Request{settings, files, nullptr, nullptr, nullptr}, hooks).run;
}

Facts traceConfigFacts(const Settings& settings, const Config& traced, const DecoderModel* model) {
    Settings ran = settings;
    ran.config = traced;
    Facts facts = settingFacts(ran);
    if (model && settings.modelMode())
        for (Fact& f : modelFacts(*model, settings.layer))
            facts.push_back(std::move(f));
    return facts;
}

std::vector<StepInfo> stepInfos(const Trace& trace) {
    std::vector<StepInfo> infos;
    infos.reserve(trace.steps.size());
    for (const Step& s : trace.steps)
        infos.push_back(s.info);
    return infos;
}

std::optional<ValidationIssue> stepProblem(const std::vector<StepInfo>& steps, const QString& id) {
    const std::string wanted = id.toStdString();
    std::string ids;
    for (const StepInfo& s : steps) {
        if (s.id == wanted)
            return std::nullopt;
        ids += (ids.empty() ? "" : ", ") + s.id;
    }
    return ValidationIssue{
        "step", "This configuration has no step \"" + wanted + "\"; its steps are " + ids + "."};
}

std::optional<ValidationIssue> headProblem(int head, int64_t heads, const std::string& stepId) {
    if (heads <= 0 || head < heads)
        return std::nullopt;
    const std::string where =
        stepId.empty() ? "this configuration has " : "\"" + stepId + "\" has ";
    return ValidationIssue{"head", "--head " + std::to_string(head) + " is out of range: " + where +
                                       std::to_string(heads) + (heads == 1 ? " head." : " heads.")};
}

}  // namespace attn

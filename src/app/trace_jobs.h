#pragma once
// The values that cross between the GUI thread and the trace worker: a job (settings and the
// files they name, already read), its tokens as soon as they are known, and its outcome. All
// copyable and owning or sharing immutable data, so they can cross threads.

#include <QMetaType>
#include <QtGlobal>
#include <vector>

#include "pipeline/run_request.h"

namespace attn {

// One request for the worker. The worker never reads widgets.
struct TraceJob {
    quint64 generation = 0;
    Settings settings;
    InputFiles files;
    // Model mode: the model settings.model names, loaded (ModelLoader), and the last run of it,
    // whose rows a longer text reuses and which a change of layer reuses whole.
    std::shared_ptr<const DecoderModel> model;
    std::shared_ptr<const DecoderRun> previousRun;
    std::shared_ptr<const DecoderRun> previousBaseline;
};

// The tokens of a job, sent before its trace so the token chips follow typing at once.
struct TokensUpdate {
    quint64 generation = 0;
    InputTokens input;
};

// What the worker sends back: exactly one of a run (success), issues (settings that cannot run,
// each with the field of its control) or cancelled.
struct TraceOutcome {
    quint64 generation = 0;
    Settings settings;  // what was asked for
    TraceRun run;       // run.trace set on success
    std::vector<ValidationIssue> issues;
    bool cancelled = false;
    double elapsedMs = 0.0;  // tokenize + embed + trace
    double traceMs = 0.0;    // the trace alone (model mode: the forward and the layer's trace)
    // Model mode: the forward of every block; run.trace is block settings.layer's chapter-3 view
    // with the residual stream, LayerNorm 2 and feed-forward around it.
    std::shared_ptr<const DecoderModel> model;
    std::shared_ptr<const DecoderRun> modelRun;
    // With heads switched off, the same text with every head (ModelRun::baseline); else null.
    std::shared_ptr<const DecoderRun> baselineRun;

    bool ok() const { return run.trace != nullptr; }
};

// A block of a model-mode job done: its pooled attention (H, P, P), for an overview that fills
// in layer by layer while a long text computes.
struct LayerUpdate {
    quint64 generation = 0;
    int64_t layer = 0;
    int64_t layers = 0;
    Tensor thumbnail;
};

}  // namespace attn

Q_DECLARE_METATYPE(attn::TraceJob)
Q_DECLARE_METATYPE(attn::TraceOutcome)
Q_DECLARE_METATYPE(attn::TokensUpdate)
Q_DECLARE_METATYPE(attn::LayerUpdate)

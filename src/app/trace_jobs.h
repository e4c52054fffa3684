#pragma once
// The values that cross between the GUI thread and the trace worker: a job (settings and the
// files they name, already read), its tokens as soon as they are known, and its outcome. All
// copyable and owning or sharing immutable data, so they can cross threads.

#include <QMetaType>
#include <QtGlobal>
#include <vector>

#include "pipeline/request.h"

namespace attn {

// One request for the worker. The worker never reads widgets.
struct TraceJob {
    quint64 generation = 0;
    Settings settings;
    InputFiles files;
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
    double traceMs = 0.0;    // the trace alone

    bool ok() const { return run.trace != nullptr; }
};

}  // namespace attn

Q_DECLARE_METATYPE(attn::TraceJob)
Q_DECLARE_METATYPE(attn::TraceOutcome)
Q_DECLARE_METATYPE(attn::TokensUpdate)

#include "app/trace_controller.h"

#include <QElapsedTimer>
#include <QThreadPool>

#include "engine/trace.h"

namespace attn {

namespace {

void registerTypes() {
    static const bool once = [] {
        qRegisterMetaType<attn::TraceJob>();
        qRegisterMetaType<attn::TraceOutcome>();
        qRegisterMetaType<attn::TokensUpdate>();
        qRegisterMetaType<attn::LayerUpdate>();
        return true;
    }();
    (void)once;
}

double msSince(const QElapsedTimer& timer) {
    return double(timer.nsecsElapsed()) / 1e6;
}

}  // namespace

TraceOutcome processTraceJob(const TraceJob& job, const JobReports& reports,
                             const std::function<void(TokensUpdate)>& tokens,
                             const std::function<void(int, int, QString)>& progress,
                             const std::function<void(LayerUpdate)>& layerDone) {
    QElapsedTimer timer;
    timer.start();
    TraceOutcome out;
    out.generation = job.generation;
    out.settings = job.settings;
    const CancelToken& cancel = reports.cancel();
    if (cancel.cancelled()) {  // cancelled by the user before it started
        out.cancelled = true;
        return out;
    }
    try {
        const quint64 gen = job.generation;
        QElapsedTimer throttle;
        throttle.start();
        RequestHooks hooks;
        hooks.cancel = &cancel;
        hooks.threads = ThreadUse::FitToWork;
        hooks.tokens = [&](const InputTokens& in) { tokens(TokensUpdate{gen, in}); };
        hooks.steps = [&](int done, int total, const std::string& stepId) {
            // Throttled: at most one report every 40 ms, plus the last one.
            if (done < total && throttle.elapsed() < 40)
                return;
            throttle.restart();
            progress(done, total, QString::fromStdString(stepId));
        };
        hooks.layers = [&](const DecoderLayerDone& done) {
            layerDone(LayerUpdate{gen, done.layer, done.layers, done.thumbnail});
        };
        RequestResult result = runRequest(
            Request{job.settings, job.files, job.model, job.previousRun, job.previousBaseline},
            hooks);
        out.run = std::move(result.run);
        out.issues = std::move(result.issues);
        out.traceMs = result.traceMs;
        if (out.ok()) {
            out.model = result.model.model;
            out.modelRun = std::move(result.model.run);
            out.baselineRun = std::move(result.model.baseline);
        }
    } catch (const Cancelled&) {
        out.cancelled = true;
        out.run.trace.reset();
    } catch (const std::bad_alloc&) {
        out.issues.push_back({"memory", "Not enough memory for this configuration."});
    } catch (const std::exception& e) {
        // A bug, not bad input: shown as a general problem rather than taking the app down.
        out.issues.push_back({"", std::string("Internal error: ") + e.what()});
    }
    out.elapsedMs = msSince(timer);
    return out;
}

TraceController::TraceController(QObject* parent) : QObject(parent) {
    registerTypes();
    // A big trace leaves hundreds of megabytes of buffers the engine keeps for the next one
    // (engine/tensor.h). While the user keeps changing things they make each trace faster; once
    // nothing has happened for two seconds they go back to the system (the cache is shared and
    // thread-safe, so any pool thread may do it).
    releaseTimer_.setSingleShot(true);
    releaseTimer_.setInterval(2000);
    connect(&releaseTimer_, &QTimer::timeout, this,
            [] { QThreadPool::globalInstance()->start([] { releaseCachedBuffers(); }); });
}

TraceController::~TraceController() = default;

quint64 TraceController::submit(TraceJob job) {
    releaseTimer_.stop();
    job.generation = job_.generation() + 1;
    // Reports run here, on the GUI thread, only while this job is the newest; the controller
    // owns the LatestJob, so it is alive whenever they run.
    const quint64 gen = job_.run(
        [this, job = std::move(job)](const JobReports& r) {
            const quint64 g = job.generation;
            return processTraceJob(
                job, r,
                [this, &r](TokensUpdate u) { r.report([this, u] { emit tokensReady(u); }); },
                [this, &r, g](int done, int total, QString id) {
                    r.report([this, g, done, total, id] { emit progress(g, done, total, id); });
                },
                [this, &r](LayerUpdate u) { r.report([this, u] { emit layerReady(u); }); });
        },
        [this](const TraceOutcome& outcome) { onFinished(outcome); });
    if (!busy_) {
        busy_ = true;
        emit busyChanged(true);
    }
    return gen;
}

void TraceController::cancel() {
    job_.cancelRunning();
}

void TraceController::onFinished(const TraceOutcome& result) {
    busy_ = false;
    releaseTimer_.start();
    emit busyChanged(false);
    emit resultReady(result);
}

}  // namespace attn

#include "app/trace_controller.h"

#include <QElapsedTimer>

#include "engine/trace.h"

#ifdef _OPENMP
#include <omp.h>
#endif

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

// Small traces (typing a sentence) run on the worker thread alone: waking a team of OpenMP
// threads costs more than it saves there, and on a busy machine spinning threads make each
// keystroke several times slower. Big ones (hundreds of tokens at GPT-2 sizes) use every core.
void chooseThreadCount(const Config& c, int64_t tokens) {
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

}  // namespace

TraceWorker::TraceWorker(std::shared_ptr<const std::atomic<quint64>> latest, Sink sink)
    : latest_(std::move(latest)), sink_(std::move(sink)) {}

void TraceWorker::process(const TraceJob& job, const std::shared_ptr<CancelToken>& cancel) const {
    // Skip jobs that a newer one has replaced while they sat in the queue.
    if (job.generation != latest_->load())
        return;

    QElapsedTimer timer;
    timer.start();
    TraceOutcome out;
    out.generation = job.generation;
    out.settings = job.settings;
    if (cancel->cancelled()) {  // cancelled by the user before it started
        out.cancelled = true;
        sink_.finished(std::move(out));
        return;
    }
    try {
        if (job.settings.modelMode()) {
            processModel(job, cancel, out);
            out.elapsedMs = msSince(timer);
            sink_.finished(std::move(out));
            return;
        }
        TraceRun& run = out.run;
        run.settings = job.settings;
        run.input = tokenizeInput(job.settings, job.files);
        sink_.tokens(TokensUpdate{job.generation, run.input});
        out.issues = checkSettings(job.settings, job.files, run.input.count());
        if (!out.issues.empty()) {
            out.elapsedMs = msSince(timer);
            sink_.finished(std::move(out));
            return;
        }
        chooseThreadCount(job.settings.config, run.input.count());
        run.inputs = embedInput(job.settings, job.files, run.input, cancel.get());

        QElapsedTimer throttle;
        throttle.start();
        const quint64 gen = job.generation;
        TraceRequest request;
        request.config = job.settings.config;
        request.inputs = run.inputs;
        request.weights =
            variantHasWeights(job.settings.config.variant) ? job.files.weights.get() : nullptr;
        request.cancel = cancel.get();
        request.progress = [this, gen, &throttle](int done, int total, const std::string& stepId) {
            // Throttled: at most one report every 40 ms, plus the last one.
            if (done < total && throttle.elapsed() < 40)
                return;
            throttle.restart();
            sink_.progress(gen, done, total, QString::fromStdString(stepId));
        };
        QElapsedTimer traceTimer;
        traceTimer.start();
        run.trace = std::make_shared<const Trace>(runTrace(request));
        out.traceMs = msSince(traceTimer);
    } catch (const Cancelled&) {
        out.cancelled = true;
        out.run.trace.reset();
    } catch (const UserError& e) {
        out.issues.push_back({e.field(), e.what()});
    } catch (const std::bad_alloc&) {
        out.issues.push_back({"memory", "Not enough memory for this configuration."});
    } catch (const std::exception& e) {
        // A bug, not bad input: shown as a general problem rather than taking the app down.
        out.issues.push_back({"", std::string("Internal error: ") + e.what()});
    }
    out.elapsedMs = msSince(timer);
    sink_.finished(std::move(out));
}

void TraceWorker::processModel(const TraceJob& job, const std::shared_ptr<CancelToken>& cancel,
                               TraceOutcome& out) const {
    const Settings& s = job.settings;
    if (!job.model) {
        out.issues.push_back({"model", "The model is not loaded yet."});
        return;
    }
    ModelRun m;
    m.settings = s;
    m.model = job.model;
    m.input = modelTokens(s);
    sink_.tokens(TokensUpdate{job.generation, m.input});
    out.issues = checkModelSettings(s, *job.model, m.input);
    if (!out.issues.empty())
        return;
    QElapsedTimer timer;
    timer.start();
    const std::vector<int64_t> ids = tokenIds(m.input.tokens);
    const auto& previous = job.previousRun;
    if (previous && previous->model == job.model && previous->ids == ids) {
        m.run = previous;  // the same text: only the layer (or the view) changed
    } else {
        useEveryCore();
        GptRequest r;
        r.model = job.model;
        r.ids = ids;
        r.previous = previous && previous->model == job.model ? previous : nullptr;
        r.memoryBudgetBytes = s.config.memoryBudgetBytes;
        r.cancel = cancel.get();
        const quint64 gen = job.generation;
        r.progress = [this, gen](const GptLayerDone& done) {
            sink_.layerDone(LayerUpdate{gen, done.layer, done.layers, done.thumbnail});
        };
        m.run = runGpt(r);
    }
    out.run = layerTraceRunInBlock(m, cancel.get());
    out.traceMs = msSince(timer);
    out.model = job.model;
    out.modelRun = m.run;
}

TraceController::TraceController(QObject* parent)
    : QObject(parent),
      latest_(std::make_shared<std::atomic<quint64>>(0)),
      current_(std::make_shared<CancelToken>()) {
    registerTypes();
    // The worker's reports come back through inbox_ and run here on the GUI thread, where
    // anything no longer the newest generation is dropped.
    TraceWorker::Sink sink;
    sink.tokens = [this](TokensUpdate u) {
        inbox_.post([this, u = std::move(u)] {
            if (u.generation == latest_->load())
                emit tokensReady(u);
        });
    };
    sink.progress = [this](quint64 gen, int done, int total, QString id) {
        inbox_.post([this, gen, done, total, id = std::move(id)] {
            if (gen == latest_->load())
                emit progress(gen, done, total, id);
        });
    };
    sink.finished = [this](TraceOutcome r) {
        inbox_.post([this, r = std::move(r)] { onFinished(r); });
    };
    sink.layerDone = [this](LayerUpdate u) {
        inbox_.post([this, u = std::move(u)] {
            if (u.generation == latest_->load())
                emit layerReady(u);
        });
    };
    worker_ = std::make_unique<const TraceWorker>(latest_, std::move(sink));

    workerInbox_ = new ThreadInbox;
    workerInbox_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, workerInbox_, &QObject::deleteLater);
    // Runs on the worker thread as it ends; the destructor takes the edge after wait().
    connect(
        &thread_, &QThread::finished, this, [this] { handOff(&thread_); }, Qt::DirectConnection);
    thread_.setObjectName(QStringLiteral("attn-trace-worker"));
    thread_.start();

    // A big trace leaves hundreds of megabytes of buffers the engine keeps for the next one
    // (engine/tensor.h). While the user keeps changing things they make each trace faster; once
    // nothing has happened for two seconds they go back to the system, on the worker thread.
    releaseTimer_.setSingleShot(true);
    releaseTimer_.setInterval(2000);
    connect(&releaseTimer_, &QTimer::timeout, this,
            [this] { workerInbox_->post([] { releaseCachedBuffers(); }); });
}

TraceController::~TraceController() {
    current_->cancel();
    latest_->store(latest_->load() + 1);  // everything queued is now stale
    thread_.quit();
    thread_.wait();
    takeOver(&thread_);  // everything the worker thread did happened before this point
}

quint64 TraceController::submit(TraceJob job) {
    releaseTimer_.stop();
    current_->cancel();
    current_ = std::make_shared<CancelToken>();
    const quint64 gen = latest_->load() + 1;
    latest_->store(gen);
    job.generation = gen;
    auto token = current_;
    const TraceWorker* w = worker_.get();
    workerInbox_->post([w, job = std::move(job), token] { w->process(job, token); });
    if (!busy_) {
        busy_ = true;
        emit busyChanged(true);
    }
    return gen;
}

void TraceController::cancel() {
    current_->cancel();
}

void TraceController::onFinished(const TraceOutcome& result) {
    if (result.generation != latest_->load()) {
        ++dropped_;
        return;
    }
    busy_ = false;
    releaseTimer_.start();
    emit busyChanged(false);
    emit resultReady(result);
}

}  // namespace attn

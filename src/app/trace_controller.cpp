#include "app/trace_controller.h"

#include <QElapsedTimer>

#include "engine/embeddings.h"
#include "engine/trace.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace attn {

namespace {

void registerTypes() {
    static const bool once = [] {
        qRegisterMetaType<attn::AppRequest>();
        qRegisterMetaType<attn::AppResult>();
        qRegisterMetaType<attn::TokensUpdate>();
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

std::vector<Token> bookChipTokens() {
    // The chapter's sentence through GPT-2 BPE: six tokens, one per book vector.
    std::vector<Token> tokens;
    try {
        tokens = tokenize(TokenizerKind::Gpt2, "Your journey starts with one step");
    } catch (...) {
    }
    const auto& words = bookTokens();
    if (tokens.size() != words.size()) {
        tokens.clear();
        for (size_t i = 0; i < words.size(); ++i) {
            Token t;
            t.id = int64_t(i);
            t.bytes = words[i];
            t.display = words[i];
            tokens.push_back(t);
        }
    }
    return tokens;
}

}  // namespace

TraceWorker::TraceWorker(std::shared_ptr<const std::atomic<quint64>> latest, Sink sink)
    : latest_(std::move(latest)), sink_(std::move(sink)) {}

void TraceWorker::process(const AppRequest& req, const std::shared_ptr<CancelToken>& cancel) const {
    // Skip requests that a newer one has replaced while they sat in the queue.
    if (req.generation != latest_->load())
        return;

    QElapsedTimer timer;
    timer.start();
    AppResult res;
    res.generation = req.generation;
    res.request = req;
    if (cancel->cancelled()) {  // cancelled by the user before it started
        res.cancelled = true;
        sink_.finished(std::move(res));
        return;
    }
    try {
        Tensor inputs;
        int64_t tokensCount = 0;
        switch (req.source) {
            case InputSource::Book: {
                res.tokens = bookChipTokens();
                inputs = bookInputs();
                for (const auto& w : bookTokens())
                    res.tokenLabels << QString::fromStdString(w);
                tokensCount = inputs.size(-2);
                sink_.tokens(TokensUpdate{req.generation, res.tokens, true});
                break;
            }
            case InputSource::Text: {
                const QByteArray utf8 = req.text.toUtf8();
                res.tokens = tokenize(req.tokenizer,
                                      std::string_view(utf8.constData(), size_t(utf8.size())));
                for (const auto& t : res.tokens)
                    res.tokenLabels << axisLabelForToken(t);
                tokensCount = int64_t(res.tokens.size());
                sink_.tokens(TokensUpdate{req.generation, res.tokens, false});
                break;
            }
            case InputSource::File: {
                if (!req.fileEmbeddings)
                    throw EngineError("embeddings", "No embeddings file is loaded.");
                inputs = *req.fileEmbeddings;
                tokensCount = inputs.dim() >= 2 ? inputs.size(-2) : 0;
                for (int64_t i = 0; i < tokensCount; ++i)
                    res.tokenLabels << QString::number(i);
                sink_.tokens(TokensUpdate{req.generation, {}, false});
                break;
            }
        }

        res.issues = validate(req.config, tokensCount);
        if (req.source != InputSource::Text && inputs.dim() >= 1 &&
            inputs.size(-1) != req.config.dIn) {
            res.issues.push_back(
                {"d_in",
                 QStringLiteral("The input has %1-dimensional embeddings, so d_in must be %1.")
                     .arg(inputs.size(-1))
                     .toStdString()});
        }
        if (!res.issues.empty()) {
            res.elapsedMs = double(timer.nsecsElapsed()) / 1e6;
            sink_.finished(std::move(res));
            return;
        }
        throwIfCancelled(cancel.get());
        chooseThreadCount(req.config, tokensCount);

        if (req.source == InputSource::Text) {
            EmbeddingConfig ec;
            ec.seed = req.embeddingSeed;
            ec.dIn = req.config.dIn;
            ec.contextLength = req.config.contextLength;
            ec.positions = req.positions;
            std::vector<int64_t> ids = tokenIds(res.tokens);
            inputs = chapterTwoEmbeddings(ec, ids, cancel.get());
        }
        throwIfCancelled(cancel.get());

        QElapsedTimer throttle;
        throttle.start();
        const quint64 gen = req.generation;
        TraceRequest tr;
        tr.config = req.config;
        tr.inputs = inputs;
        tr.weights = req.weights.get();
        tr.cancel = cancel.get();
        tr.progress = [this, gen, &throttle](int done, int total, const std::string& stepId) {
            // Throttled: at most one signal every 40 ms, plus the last one.
            if (done < total && throttle.elapsed() < 40)
                return;
            throttle.restart();
            sink_.progress(gen, done, total, QString::fromStdString(stepId));
        };
        QElapsedTimer traceTimer;
        traceTimer.start();
        auto trace = std::make_shared<Trace>(runTrace(tr));
        res.traceMs = double(traceTimer.nsecsElapsed()) / 1e6;
        res.trace = std::move(trace);
    } catch (const Cancelled&) {
        res.cancelled = true;
    } catch (const EngineError& e) {
        res.issues.push_back({e.field(), e.what()});
    } catch (const std::bad_alloc&) {
        res.issues.push_back({"memory", "Not enough memory for this configuration."});
    } catch (const std::exception& e) {
        res.issues.push_back({"", e.what()});
    }
    res.elapsedMs = double(timer.nsecsElapsed()) / 1e6;
    sink_.finished(std::move(res));
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
    sink.finished = [this](AppResult r) {
        inbox_.post([this, r = std::move(r)] { onFinished(r); });
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

quint64 TraceController::submit(AppRequest request) {
    releaseTimer_.stop();
    current_->cancel();
    current_ = std::make_shared<CancelToken>();
    const quint64 gen = latest_->load() + 1;
    latest_->store(gen);
    request.generation = gen;
    auto token = current_;
    const TraceWorker* w = worker_.get();
    workerInbox_->post([w, request = std::move(request), token] { w->process(request, token); });
    emit started(gen);
    if (!busy_) {
        busy_ = true;
        emit busyChanged(true);
    }
    return gen;
}

void TraceController::cancel() {
    current_->cancel();
}

void TraceController::onFinished(const AppResult& result) {
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

#pragma once
// Runs traces off the GUI thread. The controller owns a QThread and a TraceWorker moved to it.
// Every submit() bumps the generation and cancels the running request through its CancelToken;
// the worker skips requests that are already stale when it reaches them, and the controller
// drops any result whose generation is not the newest. The GUI thread never computes a trace.

#include <QObject>
#include <QThread>
#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

#include "app/thread_inbox.h"
#include "app/trace_jobs.h"
#include "engine/cancel.h"

namespace attn {

// Computes requests; lives on the worker thread (its process() is only ever called there) and
// reports through the callbacks of its Sink, which hand the values back to the GUI thread.
class TraceWorker {
  public:
    struct Sink {
        std::function<void(TokensUpdate)> tokens;
        std::function<void(quint64 generation, int done, int total, QString stepId)> progress;
        std::function<void(TraceOutcome)> finished;
        std::function<void(LayerUpdate)> layerDone;  // model mode, each block as it finishes
    };
    TraceWorker(std::shared_ptr<const std::atomic<quint64>> latest, Sink sink);
    // The pipeline's steps one by one (tokenize, check, embed, trace), so the tokens can be
    // reported before the trace and invalid settings come back as every issue at once.
    void process(const TraceJob& job, const std::shared_ptr<CancelToken>& cancel) const;

  private:
    // Model mode: the forward (or the previous run, when only the layer changed) and the layer's
    // trace in its block.
    void processModel(const TraceJob& job, const std::shared_ptr<CancelToken>& cancel,
                      TraceOutcome& out) const;
    std::shared_ptr<const std::atomic<quint64>> latest_;
    Sink sink_;
};

class TraceController : public QObject {
    Q_OBJECT
  public:
    explicit TraceController(QObject* parent = nullptr);
    ~TraceController() override;

    // Queues `job` (its generation is assigned here) and cancels whatever runs. Returns the
    // generation of the job.
    quint64 submit(TraceJob job);
    // Cancels the newest request; the worker answers with a cancelled result.
    void cancel();
    quint64 latestGeneration() const { return latest_->load(); }
    bool isBusy() const { return busy_; }
    // Requests the worker skipped or whose results were dropped as stale (for tests/bench).
    int droppedResults() const { return dropped_; }

  signals:
    void tokensReady(const attn::TokensUpdate& update);  // newest generation only
    void progress(quint64 generation, int done, int total, const QString& stepId);
    void resultReady(const attn::TraceOutcome& outcome);  // newest generation only
    void layerReady(const attn::LayerUpdate& update);     // newest generation only
    void busyChanged(bool busy);

  private:
    void onFinished(const TraceOutcome& outcome);

    // Declared before the thread so that it outlives it: the worker posts its reports here.
    ThreadInbox inbox_;
    QThread thread_;
    ThreadInbox* workerInbox_ = nullptr;  // lives on thread_, deleted there when it finishes
    std::unique_ptr<const TraceWorker> worker_;
    // Idle for a moment after a result: hand the engine's kept buffers back to the system.
    QTimer releaseTimer_;
    std::shared_ptr<std::atomic<quint64>> latest_;
    std::shared_ptr<CancelToken> current_;
    bool busy_ = false;
    int dropped_ = 0;
};

}  // namespace attn

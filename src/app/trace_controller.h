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

#include "app/app_types.h"
#include "app/thread_inbox.h"
#include "engine/cancel.h"

namespace attn {

// Computes requests; lives on the worker thread (its process() is only ever called there) and
// reports through the callbacks of its Sink, which hand the values back to the GUI thread.
class TraceWorker {
  public:
    struct Sink {
        std::function<void(TokensUpdate)> tokens;
        std::function<void(quint64 generation, int done, int total, QString stepId)> progress;
        std::function<void(AppResult)> finished;
    };
    TraceWorker(std::shared_ptr<const std::atomic<quint64>> latest, Sink sink);
    void process(const AppRequest& request, const std::shared_ptr<CancelToken>& cancel) const;

  private:
    std::shared_ptr<const std::atomic<quint64>> latest_;
    Sink sink_;
};

class TraceController : public QObject {
    Q_OBJECT
  public:
    explicit TraceController(QObject* parent = nullptr);
    ~TraceController() override;

    // Queues `request` (its generation is assigned here) and cancels whatever runs. Returns the
    // generation of the request.
    quint64 submit(AppRequest request);
    // Cancels the newest request; the worker answers with a cancelled result.
    void cancel();
    quint64 latestGeneration() const { return latest_->load(); }
    bool isBusy() const { return busy_; }
    // Requests the worker skipped or whose results were dropped as stale (for tests/bench).
    int droppedResults() const { return dropped_; }

  signals:
    void started(quint64 generation);
    void tokensReady(const attn::TokensUpdate& update);  // newest generation only
    void progress(quint64 generation, int done, int total, const QString& stepId);
    void resultReady(const attn::AppResult& result);  // newest generation only
    void busyChanged(bool busy);

  private:
    void onFinished(const AppResult& result);

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

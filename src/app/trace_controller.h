#pragma once
// Runs traces off the GUI thread, on a thread of their own (a LatestJob, the app's one way of
// running work in the background). Every submit() makes the request the newest and cancels the
// running one through its CancelToken; a request replaced while it waits never runs, and only
// the newest request's tokens, progress, blocks and result are emitted. The GUI thread never
// computes a trace.

#include <QObject>
#include <QTimer>

#include "app/trace_jobs.h"
#include "pipeline/latest_job.h"

namespace attn {

// One job on the worker thread: the one request function (pipeline/run_request.h), its tokens,
// progress and blocks reported as they come. Never throws: invalid settings come back as every
// issue at once, cancelling as a cancelled outcome.
TraceOutcome processTraceJob(const TraceJob& job, const JobReports& reports,
                             const std::function<void(TokensUpdate)>& tokens,
                             const std::function<void(int done, int total, QString stepId)>& progress,
                             const std::function<void(LayerUpdate)>& layerDone);

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
    quint64 latestGeneration() const { return job_.generation(); }
    bool isBusy() const { return busy_; }
    // Results dropped as stale (for tests/bench).
    int droppedResults() const { return job_.droppedResults(); }

  signals:
    void tokensReady(const attn::TokensUpdate& update);  // newest generation only
    void progress(quint64 generation, int done, int total, const QString& stepId);
    void resultReady(const attn::TraceOutcome& outcome);  // newest generation only
    void layerReady(const attn::LayerUpdate& update);     // newest generation only
    void busyChanged(bool busy);

  private:
    void onFinished(const TraceOutcome& outcome);

    LatestJob job_{JobThread::Own};
    // Idle for a moment after a result: hand the engine's kept buffers back to the system.
    QTimer releaseTimer_;
    bool busy_ = false;
};

}  // namespace attn

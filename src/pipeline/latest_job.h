#pragma once
// The one way the app runs work in the background: work whose result matters only while it is
// the newest request. The owner asks again whenever its input changes (a keystroke, another
// step, a new run), and only the answer to the latest question reaches the screen.
//
// - One job runs at a time. A newer request cancels the running job's token (the engine polls
//   it), replaces the one waiting, and makes every earlier result stale: stale results, and
//   stale reports of progress, are dropped on arrival.
// - The work gets values and a CancelToken (or JobReports, to report progress on the way) and
//   returns a value. Results and reports arrive on the thread that made the LatestJob, from its
//   event loop, never inside run().
// - Destroying the LatestJob while a job runs is safe: the job is cancelled and its result
//   never delivered. (Qt 6.4's QFuture::then(context) is unsafe when the context dies while the
//   job runs, so no continuation is ever attached to an object that can die.)
// - Every hand-over between threads is stated for ThreadSanitizer (pipeline/thread_inbox.h).

#include <QString>
#include <QtGlobal>
#include <any>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "engine/cancel.h"

class QThreadPool;

namespace attn {

// Given to a job's work: its cancel token, and a way to report on the way.
class JobReports {
  public:
    const CancelToken& cancel() const { return *cancel_; }
    // Runs `fn` on the LatestJob's thread, from its event loop, if this job is still the newest
    // request when it arrives. Thread-safe; reports arrive in order, before the result.
    void report(std::function<void()> fn) const;

    struct Link;  // not part of the interface
    JobReports(std::shared_ptr<Link> link, quint64 generation, const CancelToken* cancel)
        : link_(std::move(link)), generation_(generation), cancel_(cancel) {}

  private:
    std::shared_ptr<Link> link_;
    quint64 generation_;
    const CancelToken* cancel_;
};

// Where a LatestJob's work runs: on Qt's shared thread pool (short jobs: a figure's slice, a
// score), or on a thread of its own, so a long job (a trace, a model's file) never holds up the
// short ones nor waits for them.
enum class JobThread { Shared, Own };

class LatestJob {
  public:
    explicit LatestJob(JobThread thread = JobThread::Shared);
    ~LatestJob();
    LatestJob(const LatestJob&) = delete;
    LatestJob& operator=(const LatestJob&) = delete;

    // Runs work(const CancelToken&) or work(const JobReports&) -> Result in the background,
    // then done(Result) on this object's thread if no newer run() or cancel() came in between.
    // When work throws (other than attn::Cancelled), the error handler gets the message
    // instead. Returns the request's generation (the newest is generation()).
    template <class Work, class Done>
    quint64 run(Work work, Done done) {
        if constexpr (std::is_invocable_v<Work&, const CancelToken&>) {
            using Result = std::invoke_result_t<Work&, const CancelToken&>;
            return runAny(
                [work = std::move(work)](const JobReports& r) mutable {
                    return std::any(work(r.cancel()));
                },
                [done = std::move(done)](std::any value) mutable {
                    done(std::any_cast<Result>(std::move(value)));
                });
        } else {
            using Result = std::invoke_result_t<Work&, const JobReports&>;
            return runAny(
                [work = std::move(work)](const JobReports& r) mutable { return std::any(work(r)); },
                [done = std::move(done)](std::any value) mutable {
                    done(std::any_cast<Result>(std::move(value)));
                });
        }
    }
    // Makes the running and waiting jobs' results stale (and cancels the running one).
    void cancel();
    // Cancels the newest job's token but keeps it the newest: its outcome still lands (a job
    // that catches Cancelled can say it was cancelled).
    void cancelRunning();
    // The newest request's generation (0 before the first).
    quint64 generation() const { return generation_; }
    // The newest request has not been answered yet.
    bool busy() const;
    // Results dropped because a newer request came in while their job ran.
    int droppedResults() const { return dropped_; }
    void setErrorHandler(std::function<void(const QString&)> handler) {
        errorHandler_ = std::move(handler);
    }

    // Not part of the interface: what a job carries and what it gives back.
    struct Job;
    struct Outcome;
    void land(quint64 generation, Outcome outcome);

  private:
    quint64 runAny(std::function<std::any(const JobReports&)> work,
                   std::function<void(std::any)> done);
    void start(std::shared_ptr<Job> job);

    std::shared_ptr<JobReports::Link> link_;
    std::unique_ptr<QThreadPool> ownPool_;  // JobThread::Own
    quint64 generation_ = 0;
    std::shared_ptr<Job> running_;
    std::shared_ptr<Job> waiting_;
    int dropped_ = 0;
    std::function<void(const QString&)> errorHandler_;
};

}  // namespace attn

#pragma once
// Work for a widget on Qt's thread pool whose result matters only while it is the newest
// request: the widget asks again whenever its input changes (a new run, another position),
// and only the answer to the latest question may reach the screen.
//
// One job runs at a time. A newer request cancels the running job's token (the engine polls
// it), replaces the one waiting, and makes every earlier result stale: stale results are
// dropped on arrival. Results arrive on the thread that made the LatestJob, from its event
// loop (never inside run()). The worker gets and returns values only. Destroying the LatestJob
// while a job runs is safe: a small receiver object stays behind until the job lands and then
// deletes itself (Qt 6.4's QFuture::then(context) is unsafe when the context dies while the
// job runs, so no continuation is ever attached to an object that can die).

#include <QString>
#include <any>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "engine/cancel.h"

namespace attn {

class LatestJob {
  public:
    LatestJob();
    ~LatestJob();
    LatestJob(const LatestJob&) = delete;
    LatestJob& operator=(const LatestJob&) = delete;

    // Runs work(const CancelToken&) -> Result on the thread pool, then done(Result) on this
    // object's thread if no newer run() or cancel() came in between. When work throws
    // (other than attn::Cancelled), the error handler gets the message instead.
    template <class Work, class Done>
    void run(Work work, Done done) {
        using Result = std::invoke_result_t<Work&, const CancelToken&>;
        runAny([work = std::move(work)](
                   const CancelToken& cancel) mutable { return std::any(work(cancel)); },
               [done = std::move(done)](std::any value) mutable {
                   done(std::any_cast<Result>(std::move(value)));
               });
    }
    // Makes the running and waiting jobs' results stale (and cancels the running one).
    void cancel();
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
    void land(quint64 generation, const std::function<void(std::any)>& done, Outcome outcome);

  private:
    void runAny(std::function<std::any(const CancelToken&)> work,
                std::function<void(std::any)> done);
    void start(std::shared_ptr<Job> job);

    class Receiver;
    Receiver* receiver_ = nullptr;
    quint64 generation_ = 0;
    quint64 runningGeneration_ = 0;
    bool running_ = false;
    std::shared_ptr<CancelToken> runningCancel_;
    std::shared_ptr<Job> waiting_;
    int dropped_ = 0;
    std::function<void(const QString&)> errorHandler_;
};

}  // namespace attn

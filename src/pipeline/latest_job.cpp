#include "pipeline/latest_job.h"

#include <QRunnable>
#include <QThreadPool>
#include <exception>
#include <new>

#include "pipeline/issue_text.h"
#include "pipeline/thread_inbox.h"

namespace attn {

namespace {

// The address ThreadSanitizer's edge from a job's owner to the pool thread that runs it is
// stated on.
const char kTaskHandOff = 0;

}  // namespace

// What the work and the owner share: the inbox on the owner's thread that results and reports
// are posted to, and the owner while it lives (read and written on the owner's thread only).
// The inbox outlives its LatestJob while a job of the shared pool runs, and deletes itself
// when that job lands.
struct JobReports::Link {
    ThreadInbox* receiver = nullptr;
    LatestJob* owner = nullptr;
};

struct LatestJob::Job {
    quint64 generation = 0;
    std::function<std::any(const JobReports&)> work;
    std::function<void(std::any)> done;
    std::shared_ptr<CancelToken> cancel = std::make_shared<CancelToken>();
};

struct LatestJob::Outcome {
    std::any value;
    bool ok = false;
    QString error;  // empty when cancelled
};

void JobReports::report(std::function<void()> fn) const {
    link_->receiver->post([link = link_, generation = generation_, fn = std::move(fn)] {
        if (link->owner && link->owner->generation() == generation)
            fn();
    });
}

LatestJob::LatestJob(JobThread thread) : link_(std::make_shared<JobReports::Link>()) {
    link_->receiver = new ThreadInbox;
    link_->owner = this;
    if (thread == JobThread::Own) {
        ownPool_ = std::make_unique<QThreadPool>();
        ownPool_->setMaxThreadCount(1);
        ownPool_->setExpiryTimeout(-1);  // one thread for the owner's life, not one per job
    }
}

LatestJob::~LatestJob() {
    link_->owner = nullptr;
    waiting_.reset();
    if (running_)
        running_->cancel->cancel();
    if (ownPool_) {
        // The job stops at its next cancel check; what it posted dies with the inbox.
        ownPool_->waitForDone();
        takeOver(ownPool_.get());
        ownPool_.reset();
        delete link_->receiver;
    } else if (!running_) {
        delete link_->receiver;
    }
    // Else the shared pool's job lands on the inbox left behind, which then deletes itself.
}

quint64 LatestJob::runAny(std::function<std::any(const JobReports&)> work,
                          std::function<void(std::any)> done) {
    auto job = std::make_shared<Job>();
    job->generation = ++generation_;
    job->work = std::move(work);
    job->done = std::move(done);
    if (running_) {
        running_->cancel->cancel();
        waiting_ = std::move(job);
    } else {
        start(std::move(job));
    }
    return generation_;
}

void LatestJob::start(std::shared_ptr<Job> job) {
    running_ = job;
    QThreadPool* pool = ownPool_ ? ownPool_.get() : QThreadPool::globalInstance();
    // Only the work, the token and the link cross to the pool; done() stays here in running_.
    std::function<void()> task = [link = link_, generation = job->generation,
                                  work = std::move(job->work), cancel = job->cancel,
                                  pool]() mutable {
        // Everything the owner did before handing the task over. The key is not one of the
        // task's captures: reading those is what the edge must come before.
        takeOver(&kTaskHandOff);
        {
            Outcome o;
            try {
                o.value = work(JobReports(link, generation, cancel.get()));
                o.ok = true;
            } catch (const Cancelled&) {
            } catch (const std::bad_alloc&) {
                o.error = QStringLiteral("Not enough memory.");
            } catch (const std::exception& e) {
                o.error = errorText(e);
            }
            work = nullptr;  // what it captured goes before the hand-over below
            link->receiver->post([link, generation, o = std::move(o)]() mutable {
                if (link->owner)
                    link->owner->land(generation, std::move(o));
                else
                    link->receiver->deleteLater();
            });
        }
        handOff(pool);  // for the owner's destructor, after waitForDone
    };
    // The task and the runnable that carries it are complete before the hand-over; the pool
    // queues the runnable inside Qt, out of sight of ThreadSanitizer, which is why the edge is
    // stated here and taken first thing there.
    QRunnable* runnable = QRunnable::create(std::move(task));
    handOff(&kTaskHandOff);
    pool->start(runnable);
}

void LatestJob::land(quint64 generation, Outcome outcome) {
    const std::shared_ptr<Job> job = std::exchange(running_, nullptr);
    if (generation != generation_) {
        ++dropped_;
    } else if (outcome.ok) {
        job->done(std::move(outcome.value));
    } else if (!outcome.error.isEmpty() && errorHandler_) {
        errorHandler_(outcome.error);
    }
    // done() may have asked again (and started that job already).
    if (waiting_ && !running_)
        start(std::exchange(waiting_, nullptr));
}

void LatestJob::cancel() {
    ++generation_;
    waiting_.reset();
    if (running_)
        running_->cancel->cancel();
}

void LatestJob::cancelRunning() {
    if (waiting_)
        waiting_->cancel->cancel();
    else if (running_ && running_->generation == generation_)
        running_->cancel->cancel();
}

bool LatestJob::busy() const {
    return waiting_ != nullptr || (running_ && running_->generation == generation_);
}

}  // namespace attn

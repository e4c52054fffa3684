#include "teach/latest_job.h"

#include <QMetaObject>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace attn {

struct LatestJob::Job {
    quint64 generation = 0;
    std::function<std::any(const CancelToken&)> work;
    std::function<void(std::any)> done;
    std::shared_ptr<CancelToken> cancel = std::make_shared<CancelToken>();
};

struct LatestJob::Outcome {
    std::any value;
    bool ok = false;
    QString error;  // empty when cancelled
};

// Lives on the LatestJob's thread; results are posted to it. Outlives its LatestJob while a
// job runs (owner is then null) and deletes itself when that job lands.
class LatestJob::Receiver : public QObject {
  public:
    LatestJob* owner = nullptr;
};

LatestJob::LatestJob() : receiver_(new Receiver) {
    receiver_->owner = this;
}

LatestJob::~LatestJob() {
    if (running_) {
        runningCancel_->cancel();
        receiver_->owner = nullptr;
    } else {
        delete receiver_;
    }
}

void LatestJob::runAny(std::function<std::any(const CancelToken&)> work,
                       std::function<void(std::any)> done) {
    auto job = std::make_shared<Job>();
    job->generation = ++generation_;
    job->work = std::move(work);
    job->done = std::move(done);
    if (running_) {
        runningCancel_->cancel();
        waiting_ = std::move(job);
        return;
    }
    start(std::move(job));
}

void LatestJob::start(std::shared_ptr<Job> job) {
    running_ = true;
    runningGeneration_ = job->generation;
    runningCancel_ = job->cancel;
    Receiver* receiver = receiver_;
    auto run = [work = std::move(job->work), cancel = job->cancel]() mutable {
        Outcome o;
        try {
            o.value = work(*cancel);
            o.ok = true;
        } catch (const Cancelled&) {
        } catch (const std::exception& e) {
            o.error = QString::fromUtf8(e.what());
        }
        return o;
    };
    // The continuation runs on the worker thread (no context object that could die); posting
    // to the receiver, which is alive until this job lands, is thread-safe.
    QtConcurrent::run(std::move(run))
        .then([receiver, generation = job->generation,
               done = std::move(job->done)](Outcome outcome) mutable {
            QMetaObject::invokeMethod(
                receiver,
                [receiver, generation, done = std::move(done),
                 outcome = std::move(outcome)]() mutable {
                    if (receiver->owner)
                        receiver->owner->land(generation, done, std::move(outcome));
                    else
                        receiver->deleteLater();
                },
                Qt::QueuedConnection);
        });
}

void LatestJob::land(quint64 generation, const std::function<void(std::any)>& done,
                     Outcome outcome) {
    running_ = false;
    runningCancel_.reset();
    if (generation != generation_) {
        ++dropped_;
    } else if (outcome.ok) {
        done(std::move(outcome.value));
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
    if (runningCancel_)
        runningCancel_->cancel();
}

bool LatestJob::busy() const {
    return waiting_ != nullptr || (running_ && runningGeneration_ == generation_);
}

}  // namespace attn

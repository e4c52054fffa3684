// LatestJob, the one way the app runs work in the background: results arrive from the event
// loop, only the newest request's; a newer request cancels the running job and replaces the
// waiting one; reports arrive in order before the result and only while the job is the newest;
// errors reach the handler; a LatestJob destroyed while its job runs (on the shared pool or a
// thread of its own) neither crashes nor delivers.

#include <gtest/gtest.h>
#include <QCoreApplication>
#include <QTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "pipeline/latest_job.h"

namespace attn {
namespace {

// A job that runs until released (or cancelled), so a test controls when it ends.
struct Gate {
    std::atomic<bool> open{false};
    std::atomic<bool> started{false};
    std::atomic<bool> sawCancel{false};
    void wait(const CancelToken& cancel) {
        started = true;
        while (!open) {
            if (cancel.cancelled())
                sawCancel = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
};

TEST(LatestJob, DeliversFromTheEventLoop) {
    LatestJob job;
    int got = 0;
    job.run([](const CancelToken&) { return 42; }, [&](int v) { got = v; });
    EXPECT_TRUE(job.busy());
    EXPECT_EQ(got, 0);  // never inside run(), even when the work is instant
    QTRY_COMPARE(got, 42);
    EXPECT_FALSE(job.busy());
    EXPECT_EQ(job.droppedResults(), 0);
}

TEST(LatestJob, OnlyTheNewestRequestIsAnswered) {
    LatestJob job;
    Gate gate;
    std::atomic<int> secondRan{0};
    std::vector<int> got;
    job.run(
        [&](const CancelToken& c) {
            gate.wait(c);
            return 1;
        },
        [&](int v) { got.push_back(v); });
    QTRY_VERIFY(gate.started);
    job.run(
        [&](const CancelToken&) {
            ++secondRan;
            return 2;
        },
        [&](int v) { got.push_back(v); });
    job.run([](const CancelToken&) { return 3; }, [&](int v) { got.push_back(v); });
    QTRY_VERIFY(gate.sawCancel);  // the running job was told to stop
    gate.open = true;
    QTRY_VERIFY(!job.busy());
    EXPECT_EQ(got, std::vector<int>{3});
    EXPECT_EQ(secondRan, 0);  // replaced while it waited: never ran
    EXPECT_EQ(job.droppedResults(), 1);
}

TEST(LatestJob, CancelDropsTheAnswerAndErrorsReachTheHandler) {
    LatestJob job;
    QString error;
    job.setErrorHandler([&](const QString& e) { error = e; });
    bool delivered = false;
    job.run([](const CancelToken&) { return 1; }, [&](int) { delivered = true; });
    job.cancel();
    EXPECT_FALSE(job.busy());
    QTRY_COMPARE(job.droppedResults(), 1);
    EXPECT_FALSE(delivered);
    job.run([](const CancelToken&) -> int { throw std::runtime_error("no such layer"); },
            [&](int) { delivered = true; });
    QTRY_COMPARE(error, QStringLiteral("no such layer"));
    EXPECT_FALSE(delivered);
    // A job that gives up because it was cancelled is no error.
    error.clear();
    job.run([](const CancelToken&) -> int { throw Cancelled(); }, [&](int) { delivered = true; });
    QTRY_VERIFY(!job.busy());  // false only once the outcome has landed
    EXPECT_TRUE(error.isEmpty());
    EXPECT_FALSE(delivered);
}

TEST(LatestJob, DestroyedWhileItsJobRuns) {
    Gate gate;
    std::atomic<bool> finished{false};
    bool delivered = false;
    {
        LatestJob job;
        job.run(
            [&](const CancelToken& c) {
                gate.wait(c);
                finished = true;
                return 1;
            },
            [&](int) { delivered = true; });
        QTRY_VERIFY(gate.started);
    }
    QTRY_VERIFY(gate.sawCancel);  // destroying the LatestJob cancels its job
    gate.open = true;
    QTRY_VERIFY(finished);
    // The result is posted to the receiver left behind, which drops it and deletes itself.
    QTest::qWait(20);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_FALSE(delivered);
}

TEST(LatestJob, ReportsArriveInOrderBeforeTheResultAndOnlyWhileNewest) {
    for (const JobThread thread : {JobThread::Shared, JobThread::Own}) {
        LatestJob job(thread);
        std::vector<int> seen;
        const quint64 first = job.run(
            [&](const JobReports& r) {
                for (int i = 1; i <= 3; ++i)
                    r.report([&seen, i] { seen.push_back(i); });
                return 10;
            },
            [&](int v) { seen.push_back(v); });
        EXPECT_EQ(first, job.generation());
        QTRY_VERIFY(!job.busy());
        EXPECT_EQ(seen, (std::vector<int>{1, 2, 3, 10}));

        // A report of a job that is no longer the newest is dropped, like its result.
        Gate gate;
        seen.clear();
        job.run(
            [&](const JobReports& r) {
                gate.wait(r.cancel());
                r.report([&seen] { seen.push_back(-1); });
                return -2;
            },
            [&](int v) { seen.push_back(v); });
        QTRY_VERIFY(gate.started);
        job.run([](const CancelToken&) { return 7; }, [&](int v) { seen.push_back(v); });
        gate.open = true;
        QTRY_VERIFY(!job.busy());
        EXPECT_EQ(seen, std::vector<int>{7});
    }
}

TEST(LatestJob, CancelRunningStillDeliversTheJobsOwnAnswer) {
    LatestJob job(JobThread::Own);
    Gate gate;
    QString said;
    job.run(
        [&](const CancelToken& c) {
            gate.wait(c);
            return c.cancelled() ? QStringLiteral("cancelled") : QStringLiteral("done");
        },
        [&](const QString& v) { said = v; });
    QTRY_VERIFY(gate.started);
    job.cancelRunning();
    QTRY_VERIFY(gate.sawCancel);
    gate.open = true;
    QTRY_COMPARE(said, QStringLiteral("cancelled"));
    EXPECT_EQ(job.droppedResults(), 0);
}

TEST(LatestJob, OwnThreadDestroyedWhileItsJobRunsAndReports) {
    Gate gate;
    std::atomic<int> reportsMade{0};
    int reportsSeen = 0;
    bool delivered = false;
    {
        LatestJob job(JobThread::Own);
        job.run(
            [&](const JobReports& r) {
                r.report([&reportsSeen] { ++reportsSeen; });
                ++reportsMade;
                gate.wait(r.cancel());
                r.report([&reportsSeen] { ++reportsSeen; });
                ++reportsMade;
                return 1;
            },
            [&](int) { delivered = true; });
        QTRY_COMPARE(reportsSeen, 1);  // the job is the newest: its first report arrives
        gate.open = true;  // the destructor waits for the job: let it end
    }
    EXPECT_EQ(reportsMade, 2);
    QTest::qWait(20);
    EXPECT_EQ(reportsSeen, 1);  // its later report and its result reached no one
    EXPECT_FALSE(delivered);
}

}  // namespace
}  // namespace attn

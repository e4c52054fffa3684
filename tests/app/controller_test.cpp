// TraceController on its own: generations, stale requests skipped, cancellation, errors.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include "app/trace_controller.h"
#include "engine/tensor.h"

using namespace attn;

namespace {

TraceJob textRequest(const QString& text, int64_t d = 3, int64_t dOut = 2, int64_t heads = 2) {
    TraceJob job;
    job.settings.source = InputSource::Text;
    job.settings.text = text;
    job.settings.config.dIn = d;
    job.settings.config.dOut = dOut;
    job.settings.config.heads = heads;
    return job;
}

// Waits until the controller has delivered a result for its newest generation.
bool waitNewest(TraceController& c, QSignalSpy& spy, int timeoutMs = 60000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        for (const auto& args : spy)
            if (args.at(0).value<TraceOutcome>().generation == c.latestGeneration())
                return true;
        spy.wait(500);
    }
    return false;
}

}  // namespace

TEST(TraceController, ComputesOffTheGuiThread) {
    TraceController c;
    QSignalSpy spy(&c, &TraceController::resultReady);
    const quint64 gen = c.submit(textRequest(QStringLiteral("Hello world")));
    EXPECT_EQ(gen, 1u);
    EXPECT_TRUE(c.isBusy());
    ASSERT_TRUE(waitNewest(c, spy));
    const TraceOutcome r = spy.last().at(0).value<TraceOutcome>();
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.generation, gen);
    EXPECT_EQ(r.run.input.tokens.size(), 2u);
    EXPECT_EQ(r.run.trace->tokens, 2);
    EXPECT_EQ(r.run.input.labels, (std::vector<std::string>{"Hello", " world"}));
    EXPECT_FALSE(c.isBusy());
}

TEST(TraceController, OnlyTheNewestOfManyQueuedRequestsIsDelivered) {
    TraceController c;
    QSignalSpy spy(&c, &TraceController::resultReady);
    // No event processing between submits: the worker finds 19 stale requests in its queue.
    for (int i = 0; i < 20; ++i)
        c.submit(textRequest(QStringLiteral("token %1").arg(i), 768, 768, 12));
    ASSERT_TRUE(waitNewest(c, spy));
    QCoreApplication::processEvents();
    ASSERT_EQ(spy.count(), 1);
    const TraceOutcome r = spy.at(0).at(0).value<TraceOutcome>();
    EXPECT_EQ(r.generation, 20u);
    EXPECT_EQ(r.settings.text, QStringLiteral("token 19"));
    ASSERT_TRUE(r.ok());
}

TEST(TraceController, CancelStopsTheRunningRequest) {
    TraceController c;
    QSignalSpy spy(&c, &TraceController::resultReady);
    QString text;
    for (int i = 0; i < 400; ++i)
        text += QStringLiteral("word ");
    c.submit(textRequest(text, 1600, 1600, 25));
    QThread::msleep(20);  // let it start (the result is the same if it has not)
    c.cancel();
    ASSERT_TRUE(waitNewest(c, spy));
    const TraceOutcome r = spy.last().at(0).value<TraceOutcome>();
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.ok());
    EXPECT_FALSE(c.isBusy());
}

TEST(TraceController, InvalidConfigurationComesBackAsIssues) {
    TraceController c;
    QSignalSpy spy(&c, &TraceController::resultReady);
    c.submit(textRequest(QStringLiteral("a b c"), 3, 2, 3));
    ASSERT_TRUE(waitNewest(c, spy));
    const TraceOutcome r = spy.last().at(0).value<TraceOutcome>();
    EXPECT_FALSE(r.ok());
    ASSERT_FALSE(r.issues.empty());
    EXPECT_EQ(r.issues.front().field, "heads");
}

TEST(TraceController, TokensArriveBeforeTheResult) {
    TraceController c;
    QSignalSpy tokens(&c, &TraceController::tokensReady);
    QSignalSpy results(&c, &TraceController::resultReady);
    c.submit(textRequest(QStringLiteral("one two three")));
    ASSERT_TRUE(waitNewest(c, results));
    ASSERT_GE(tokens.count(), 1);
    EXPECT_EQ(tokens.last().at(0).value<TokensUpdate>().input.tokens.size(), 3u);
}

TEST(TraceController, KeptBuffersGoBackToTheSystemWhenIdle) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer build: the engine keeps no buffers";
#endif
    releaseCachedBuffers();
    TraceController c;
    QSignalSpy spy(&c, &TraceController::resultReady);
    QString text;
    for (int i = 0; i < 600; ++i)
        text += QStringLiteral("word ");
    // 600 tokens, 12 heads: each T x T step is 600 * 600 * 12 floats, 16.5 MiB.
    c.submit(textRequest(text, 768, 768, 12));
    ASSERT_TRUE(waitNewest(c, spy));
    ASSERT_TRUE(spy.last().at(0).value<TraceOutcome>().ok());
    spy.clear();  // the last reference to the trace (the worker keeps none): its buffers are kept
    EXPECT_GE(cachedBufferBytes(), size_t(16) << 20);
    QElapsedTimer t;
    t.start();
    while (cachedBufferBytes() != 0 && t.elapsed() < 30000)
        QTest::qWait(50);
    EXPECT_EQ(cachedBufferBytes(), 0u);
}

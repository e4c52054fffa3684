// Stress: thousands of random configuration changes pushed through the controller as fast as
// possible end with exactly the newest request's result, and memory does not grow with them.

#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <random>

#include "app/trace_controller.h"

using namespace attn;

namespace {

// Resident memory of this process in KiB (Linux), 0 where unknown.
long residentKiB() {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    return 0;
}

// A random but valid configuration; about one in five is invalid on purpose (a head count that
// does not divide d_out), which must come back as an error result, not a crash.
TraceJob randomRequest(std::mt19937& gen, int i) {
    std::uniform_int_distribution<int> pick(0, 1 << 20);
    TraceJob job;
    Settings& r = job.settings;
    r.source = pick(gen) % 3 == 0 ? InputSource::Book : InputSource::Text;
    r.text = QStringLiteral("stress %1 %2").arg(i).arg(pick(gen) % 1000);
    r.tokenizer = static_cast<TokenizerKind>(pick(gen) % 3);
    Config& c = r.config;
    c.variant = allVariants()[static_cast<size_t>(pick(gen) % 6)];
    c.dIn = r.source == InputSource::Book ? 3 : 1 + pick(gen) % 24;
    c.dOut = 1 + pick(gen) % 16;
    c.heads = 1 + pick(gen) % 4;
    const int m = pick(gen) % 3;
    c.mask = m == 0   ? MaskSpec{MaskKind::None, 0}
             : m == 1 ? MaskSpec{MaskKind::Causal, 0}
                      : MaskSpec{MaskKind::Window, 1 + pick(gen) % 4};
    c.dropout = (pick(gen) % 4) * 0.2;
    c.mode = pick(gen) % 2 ? Mode::Train : Mode::Eval;
    c.seed = static_cast<uint64_t>(pick(gen));
    c.batch = 1 + pick(gen) % 2;
    r.embeddingSeed = static_cast<uint64_t>(pick(gen) % 4);  // few seeds: the caches stay small
    return job;
}

bool waitFor(QSignalSpy& spy, quint64 generation) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 120000) {
        for (const auto& args : spy)
            if (args.at(0).value<TraceOutcome>().generation == generation)
                return true;
        spy.wait(200);
    }
    return false;
}

}  // namespace

TEST(Stress, TenThousandChangesEndWithTheNewestResult) {
    TraceController c;
    QSignalSpy spy(&c, &TraceController::resultReady);
    std::mt19937 gen(2024);
    // Warm up the caches and allocator, then measure memory across the storm.
    for (int i = 0; i < 200; ++i)
        c.submit(randomRequest(gen, i));
    ASSERT_TRUE(waitFor(spy, c.latestGeneration()));
    spy.clear();
    const long before = residentKiB();

    TraceJob last;
    for (int i = 0; i < 10000; ++i) {
        last = randomRequest(gen, i);
        c.submit(last);
        if (i % 500 == 0)
            QCoreApplication::processEvents();  // let some results arrive mid-storm
    }
    const quint64 newest = c.latestGeneration();
    ASSERT_TRUE(waitFor(spy, newest));
    QCoreApplication::processEvents();

    // Only the newest generation is delivered at the end, and it is the last request's.
    const TraceOutcome r = spy.last().at(0).value<TraceOutcome>();
    EXPECT_EQ(r.generation, newest);
    EXPECT_EQ(r.settings.text, last.settings.text);
    EXPECT_EQ(r.settings.config.variant, last.settings.config.variant);
    EXPECT_EQ(r.settings.config.seed, last.settings.config.seed);
    for (const auto& args : spy)
        EXPECT_LE(args.at(0).value<TraceOutcome>().generation, newest);
    if (r.ok()) {
        EXPECT_EQ(r.run.trace->config.dOut, last.settings.config.dOut);
    } else {
        EXPECT_FALSE(r.issues.empty());
    }

    // Flat memory: the storm may not leave more than a few MiB behind (results are dropped).
    spy.clear();
    const long after = residentKiB();
    ASSERT_GT(before, 0) << "no VmRSS in /proc/self/status";
    EXPECT_LT(after - before, 64 * 1024) << "RSS grew from " << before << " to " << after << " KiB";
}

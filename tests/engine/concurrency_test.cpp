// The engine from several threads at once, as the app's worker and the compare view use it:
// shared caches (parameters, embedding rows, generator checkpoints) must give every thread the
// same numbers as a lone caller, and cancelling one trace must not disturb the others.
// Run under ThreadSanitizer by scripts/tsan.sh.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include "engine/embeddings.h"
#include "engine/trace.h"

namespace attn {
namespace {

// Eigen splits a product among OpenMP threads differently when called from a thread of one's
// own, which may change the last bit of a sum: equal means equal to float rounding here.
bool sameNumbers(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::fabs(a[i] - b[i]) > 1e-6f * std::max(1.0f, std::fabs(b[i])))
            return false;
    return true;
}

TEST(Concurrency, ParallelTracesAgreeWithASerialOne) {
    EmbeddingConfig e;
    e.seed = 4242;
    e.dIn = 32;
    const std::vector<int64_t> ids = {464, 2068, 7586, 21831, 18045, 625, 262, 16931, 3290};
    TraceRequest r;
    r.config.variant = Variant::MultiHead;
    r.config.dIn = 32;
    r.config.dOut = 16;
    r.config.heads = 4;
    r.config.seed = 4242;
    r.config.dropout = 0.1;
    r.inputs = chapterTwoEmbeddings(e, ids);
    const std::vector<float> expected = runTrace(r).output().toVector();

    // Fresh seeds per thread round make the caches fill concurrently, not just be read.
    std::atomic<int> mismatches{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int round = 0; round < 3; ++round) {
                EmbeddingConfig mine = e;
                mine.seed = 9000 + static_cast<uint64_t>(round);
                chapterTwoEmbeddings(mine, {ids[static_cast<size_t>(t)], 50256});
                TraceRequest req = r;
                req.inputs = chapterTwoEmbeddings(e, ids);
                if (!sameNumbers(runTrace(req).output().toVector(), expected))
                    ++mismatches;
            }
        });
    for (auto& th : threads)
        th.join();
    EXPECT_EQ(mismatches.load(), 0);
}

TEST(Concurrency, CancellingOneTraceLeavesTheOthersAlone) {
    TraceRequest r;
    r.config.variant = Variant::MultiHeadWrapper;
    r.config.dIn = 8;
    r.config.dOut = 4;
    r.config.heads = 3;
    std::vector<float> x(64 * 8);
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = static_cast<float>(i % 13) / 13.0f;
    r.inputs = Tensor(Shape{64, 8}, x);
    const std::vector<float> expected = runTrace(r).output().toVector();

    CancelToken cancelled;
    cancelled.cancel();
    std::atomic<int> threw{0}, good{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            TraceRequest req = r;
            if (t % 2 == 0) {
                req.cancel = &cancelled;
                try {
                    runTrace(req);
                } catch (const Cancelled&) {
                    ++threw;
                }
            } else if (sameNumbers(runTrace(req).output().toVector(), expected)) {
                ++good;
            }
        });
    for (auto& th : threads)
        th.join();
    EXPECT_EQ(threw.load(), 2);
    EXPECT_EQ(good.load(), 2);
}

}  // namespace
}  // namespace attn

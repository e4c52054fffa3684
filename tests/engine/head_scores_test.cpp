// The head scores on attention tensors made by hand (whose scores are known exactly), and on
// small models whose heads were built to attend to the previous token, themselves or the
// first token.

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "engine/config.h"
#include "engine/head_scores.h"
#include "engine/model_test_util.h"

namespace attn {
namespace {

// (H, T, T) causal attention from a function of (head, query, key) that need not be
// normalised: each row is divided by its sum over the visible keys.
template <class F>
Tensor handAttention(int64_t H, int64_t T, F weight) {
    Tensor t({H, T, T});
    for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < T; ++i) {
            double sum = 0;
            for (int64_t j = 0; j <= i; ++j)
                sum += weight(h, i, j);
            for (int64_t j = 0; j <= i; ++j)
                t.mutableData()[(h * T + i) * T + j] = float(weight(h, i, j) / sum);
        }
    return t;
}

TEST(HeadScores, PreviousTokenScoreOfHandMadeHeads) {
    // Head 0: all on the previous token; head 1: on itself; head 2: evenly (row i gives
    // 1 / (i + 1) to each key); head 3: 0.75 on the previous token, the rest on itself.
    const int64_t T = 5;
    const Tensor a = handAttention(4, T, [](int64_t h, int64_t i, int64_t j) {
        switch (h) {
            case 0:
                return i == 0 ? double(j == 0) : double(j == i - 1);
            case 1:
                return double(j == i);
            case 2:
                return 1.0;
            default:
                return i == 0 ? 1.0 : (j == i - 1 ? 0.75 : j == i ? 0.25 : 0.0);
        }
    });
    const std::vector<double> s = previousTokenScores(a);
    ASSERT_EQ(s.size(), 4u);
    EXPECT_DOUBLE_EQ(s[0], 1.0);
    EXPECT_DOUBLE_EQ(s[1], 0.0);
    // Rows 1..4: 1/2, 1/3, 1/4, 1/5.
    EXPECT_NEAR(s[2], (1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5) / 4, 1e-7);
    EXPECT_NEAR(s[3], 0.75, 1e-7);
}

TEST(HeadScores, PreviousTokenScoreNeedsTwoTokens) {
    const std::vector<double> s = previousTokenScores(Tensor({2, 1, 1}, {1.0f, 1.0f}));
    ASSERT_EQ(s.size(), 2u);
    EXPECT_TRUE(std::isnan(s[0]));
    EXPECT_THROW(previousTokenScores(Tensor({2, 3})), UserError);
}

TEST(HeadScores, InductionScoreLooksAfterThePreviousOccurrence) {
    // A text of period 4 repeated: T = 8. Head 0 is a perfect induction head: row i >= 4
    // attends to i - 3 (the token after the previous occurrence of token i). Head 1 attends
    // to the previous token; head 2 gives 0.5 to i - 3 and 0.5 to itself.
    const int64_t T = 8, period = 4;
    const Tensor a = handAttention(3, T, [](int64_t h, int64_t i, int64_t j) {
        if (i < period)
            return double(j == 0);
        if (h == 0)
            return double(j == i - period + 1);
        if (h == 1)
            return double(j == i - 1);
        return j == i - period + 1 || j == i ? 0.5 : 0.0;
    });
    const std::vector<double> s = inductionScores(a, period);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_DOUBLE_EQ(s[0], 1.0);
    EXPECT_DOUBLE_EQ(s[1], 0.0);
    EXPECT_DOUBLE_EQ(s[2], 0.5);
    // A prefix in front (e.g. a start token) leaves the last `period` rows as the second half.
    const Tensor withPrefix = handAttention(1, T + 1, [](int64_t, int64_t i, int64_t j) {
        return i >= 1 + period ? double(j == i - period + 1) : double(j == 0);
    });
    EXPECT_DOUBLE_EQ(inductionScores(withPrefix, period)[0], 1.0);
    // Too short for two periods, or no period: unknown.
    EXPECT_TRUE(std::isnan(inductionScores(a, 5)[0]));
    EXPECT_TRUE(std::isnan(inductionScores(a, 0)[0]));
}

TEST(HeadScores, HighestScoreSkipsUnknownAndPrefersTheLowerHeadOnTies) {
    const double nan = kNoScore;
    // 2 layers x 3 heads.
    const HeadPick p = highestScore({0.2, nan, 0.9, 0.9, 0.1, nan}, 3);
    EXPECT_EQ(p.layer, 0);
    EXPECT_EQ(p.head, 2);
    EXPECT_DOUBLE_EQ(p.score, 0.9);
    const HeadPick q = highestScore({0.2, nan, 0.3, 0.95, 0.1, nan}, 3);
    EXPECT_EQ(q.layer, 1);
    EXPECT_EQ(q.head, 0);
    EXPECT_FALSE(highestScore({nan, nan}, 2).valid());
    EXPECT_FALSE(highestScore({0.5}, 0).valid());
}

TEST(HeadScores, RepeatedRandomTokensRepeatDistinctIds) {
    const std::vector<int64_t> ids = repeatedRandomTokens(20, 50257, 9);
    ASSERT_EQ(ids.size(), 40u);
    std::set<int64_t> firstHalf(ids.begin(), ids.begin() + 20);
    EXPECT_EQ(firstHalf.size(), 20u);
    for (size_t i = 0; i < 20; ++i) {
        EXPECT_EQ(ids[i], ids[i + 20]);
        EXPECT_GE(ids[i], 0);
        EXPECT_LT(ids[i], 50257);
    }
    EXPECT_EQ(ids, repeatedRandomTokens(20, 50257, 9));
    EXPECT_NE(ids, repeatedRandomTokens(20, 50257, 10));
    // Every id of a vocabulary as small as the half is used once.
    const std::vector<int64_t> all = repeatedRandomTokens(5, 5, 1);
    EXPECT_EQ(std::set<int64_t>(all.begin(), all.end()).size(), 5u);
    EXPECT_THROW(repeatedRandomTokens(6, 5, 1), UserError);
    EXPECT_THROW(repeatedRandomTokens(0, 5, 1), UserError);
}

using testing::designedSpec;

TEST(HeadScores, DesignedModelShowsItsPreviousTokenHead) {
    const auto model = testing::patternModel(designedSpec());
    const auto run = testing::runModel(model, testing::sequentialIds(12, 64));
    ASSERT_TRUE(run->attentionKept());
    const HeadScores s = headScores(*run);
    ASSERT_EQ(s.layers, 2);
    ASSERT_EQ(s.heads, 4);
    EXPECT_GT(s.at(s.previousToken, 1, 2), 0.99);
    EXPECT_GT(s.at(s.firstWeight, 0, 1), 0.99);
    EXPECT_NEAR(s.at(s.distance, 1, 2), 11.0 / 12.0, 0.01);  // row 0 has distance 0
    EXPECT_LT(s.at(s.distance, 1, 0), 0.01);
    EXPECT_LT(s.at(s.entropy, 1, 0), 0.01);
    const HeadPick best = strongestPreviousTokenHead(s);
    EXPECT_EQ(best.layer, 1);
    EXPECT_EQ(best.head, 2);
    EXPECT_DOUBLE_EQ(best.score, s.at(s.previousToken, 1, 2));
    // A uniform head: exactly the mean of 1 / (i + 1) over rows 1..11.
    double even = 0;
    for (int i = 1; i < 12; ++i)
        even += 1.0 / (i + 1);
    EXPECT_NEAR(s.at(s.previousToken, 0, 0), even / 11, 1e-6);
}

// Row 0 sees only the first token, so its weight there is always 1 under a causal mask: the
// first-token score is the mean over rows 1..T-1. A head that looks at itself scores 0, not 1/T.
TEST(HeadScores, TheFirstTokenScoreLeavesOutRowZero) {
    const auto model = testing::patternModel(designedSpec());
    const int64_t T = 12;
    const auto run = testing::runModel(model, testing::sequentialIds(T, 64));
    ASSERT_TRUE(run->attentionKept());
    const HeadScores s = headScores(*run);
    for (int64_t l = 0; l < 2; ++l)
        for (int64_t h = 0; h < 4; ++h) {
            double sum = 0;
            for (int64_t i = 1; i < T; ++i)
                sum += run->attention.at({l, h, i, 0});
            EXPECT_NEAR(s.at(s.firstWeight, l, h), sum / double(T - 1), 1e-6) << l << "," << h;
        }
    EXPECT_LT(s.at(s.firstWeight, 1, 0), 0.01);  // the head on its own token
    EXPECT_GT(s.at(s.firstWeight, 0, 1), 0.99);  // the head on the first token
    // One token: no row but row 0, no score.
    const HeadScores one = headScores(*testing::runModel(model, testing::sequentialIds(1, 64)));
    EXPECT_TRUE(std::isnan(one.at(one.firstWeight, 0, 1)));
}

TEST(HeadScores, RecomputedLayersGiveTheSameScores) {
    const auto model = testing::patternModel(designedSpec());
    const auto kept = testing::runModel(model, testing::sequentialIds(10, 64), true);
    const auto recomputed = testing::runModel(model, testing::sequentialIds(10, 64), false);
    ASSERT_TRUE(kept->attentionKept());
    ASSERT_FALSE(recomputed->attentionKept());
    const HeadScores a = headScores(*kept), b = headScores(*recomputed);
    ASSERT_EQ(a.previousToken.size(), 8u);
    for (size_t i = 0; i < a.previousToken.size(); ++i)
        EXPECT_NEAR(a.previousToken[i], b.previousToken[i], 1e-6) << i;
    const std::vector<double> ia = runInductionScores(*kept, 5),
                              ib = runInductionScores(*recomputed, 5);
    ASSERT_EQ(ia.size(), 8u);
    for (size_t i = 0; i < ia.size(); ++i)
        EXPECT_NEAR(ia[i], ib[i], 1e-6) << i;
    // runSummaries knows no previous-token score yet.
    const HeadScores summaries = runSummaries(*kept);
    EXPECT_TRUE(std::isnan(summaries.previousToken[0]));
    EXPECT_EQ(summaries.entropy, a.entropy);
}

// A text said twice gets induction scores with the others (the Head scores page shows them),
// the same as runInductionScores with its half as the period, kept attention or not; any other
// text gets none.
TEST(HeadScores, ATextSaidTwiceGetsInductionScores) {
    EXPECT_EQ(findRepeat({1, 2, 3, 1, 2, 3}), (RepeatSpan{3, 3, 6}));
    EXPECT_EQ(findRepeat({1, 2, 1, 2}), (RepeatSpan{2, 2, 4}));  // a whole text said twice
    EXPECT_FALSE(findRepeat({1, 2, 1, 3}).found());
    EXPECT_FALSE(findRepeat({1, 1}).found());           // too short to say which token came after
    EXPECT_FALSE(findRepeat({1, 2, 3, 1, 2}).found());  // two tokens again: a chance pair
    const auto model = testing::patternModel(designedSpec());
    std::vector<int64_t> ids = testing::sequentialIds(6, 64);
    ids.insert(ids.end(), ids.begin(), ids.end());
    for (const bool keep : {true, false}) {
        SCOPED_TRACE(keep);
        const auto run = testing::runModel(model, ids, keep);
        const HeadScores s = headScores(*run);
        const std::vector<double> expected = runInductionScores(*run, 6);
        ASSERT_EQ(s.induction.size(), 8u);
        for (size_t i = 0; i < expected.size(); ++i)
            EXPECT_DOUBLE_EQ(s.induction[i], expected[i]) << i;
        // The previous-token scores are still every layer's, beside them.
        ASSERT_EQ(s.previousToken.size(), 8u);
        EXPECT_GT(s.at(s.previousToken, 1, 2), 0.99);
    }
    EXPECT_TRUE(
        headScores(*testing::runModel(model, testing::sequentialIds(12, 64))).induction.empty());
}

// A sentence typed twice is found whatever comes before it, and without its first token when
// that one tokenizes differently the second time ("The" then " The"); a text said three times
// repeats with its own length; a chance pair of tokens is no repeat.
TEST(HeadScores, ARepeatIsFoundInsideAnyText) {
    // <bos> The cat sat on the mat . ␣The cat sat on the mat .
    const std::vector<int64_t> typed = {2, 10, 11, 12, 13, 14, 15, 16, 20, 11, 12, 13, 14, 15, 16};
    EXPECT_EQ(findRepeat(typed), (RepeatSpan{7, 9, 15}));
    // A prefix, then a random half said twice.
    EXPECT_EQ(findRepeat({7, 7, 1, 2, 3, 4, 1, 2, 3, 4}), (RepeatSpan{4, 6, 10}));
    // Three times: period 3 over six rows, not period 6 over three.
    EXPECT_EQ(findRepeat({1, 2, 3, 1, 2, 3, 1, 2, 3}), (RepeatSpan{3, 3, 9}));
    // "of the" twice in a sentence is a chance pair.
    EXPECT_FALSE(findRepeat({5, 6, 7, 8, 9, 5, 6, 1}).found());

    // The induction score is measured on the repeat's rows only: row i on i - period + 1.
    const int64_t T = 15;
    Tensor a({1, T, T});
    for (int64_t i = 0; i < T; ++i)
        a.mutableData()[i * T + std::max<int64_t>(0, i - 6)] = 1.0f;  // every row on i - 6
    EXPECT_DOUBLE_EQ(inductionScores(a, findRepeat(typed))[0], 1.0);
    // For period 6 the token after the previous occurrence is i - 5, which it misses: 0.
    EXPECT_DOUBLE_EQ(inductionScores(a, RepeatSpan{6, 6, 12})[0], 0.0);
    EXPECT_TRUE(std::isnan(inductionScores(a, RepeatSpan{})[0]));
}

TEST(HeadScores, CancelledComputationThrows) {
    const auto model = testing::patternModel(designedSpec());
    const auto run = testing::runModel(model, testing::sequentialIds(8, 64), false);
    CancelToken cancel;
    cancel.cancel();
    EXPECT_THROW(headScores(*run, &cancel), Cancelled);
}

}  // namespace
}  // namespace attn

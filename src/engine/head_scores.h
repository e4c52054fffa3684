#pragma once
// Scores that make a trained model's interesting heads easy to find, per layer and head:
//  - mean row entropy (nats): low = the head focuses on few tokens;
//  - mean attention distance (tokens): near 1 = the head looks at the previous token, near 0 =
//    at the token itself, large = far back (often the first token);
//  - mean weight on the first token: high = an "attention sink";
//  - previous-token score: the mean, over rows i >= 1, of the weight on token i - 1;
//  - induction score, for a text that repeats itself (findRepeat: a random half said twice, or
//    a sentence typed twice): the mean, over the positions i of the repeat, of the weight on
//    the token right after the previous occurrence of token i (position i - period + 1). An
//    induction head scores near 1 there while a previous-token head scores near 0.
// Qt-free, so the CLI, the lesson and the widgets share one definition.

#include <cstdint>
#include <limits>
#include <vector>

#include "engine/cancel.h"
#include "engine/tensor.h"

namespace attn {

struct DecoderRun;

inline constexpr double kNoScore = std::numeric_limits<double>::quiet_NaN();

// Where a text repeats itself: each token at rows [first, end) is the token `period` before it,
// the longest such run in the text. A row i of the run has an earlier occurrence at i - period,
// and the token that followed it is at i - period + 1.
struct RepeatSpan {
    int64_t period = 0;  // 0: no repeat
    int64_t first = 0;
    int64_t end = 0;
    bool found() const { return period > 0; }
    int64_t length() const { return end - first; }
    friend bool operator==(const RepeatSpan&, const RepeatSpan&) = default;
};

// Per layer x head scores, each row-major (L, H) (index layer * heads + head). A score that is
// not known (not computed yet, or undefined: the previous-token score of a one-token text) is
// NaN; a vector that was not computed at all is empty.
struct HeadScores {
    int64_t layers = 0;
    int64_t heads = 0;
    std::vector<double> entropy;
    std::vector<double> distance;
    std::vector<double> firstWeight;
    std::vector<double> previousToken;
    std::vector<double> induction;
    RepeatSpan repeat;  // the rows induction was measured on (not found: no induction)

    bool empty() const { return layers == 0 || heads == 0; }
    int64_t index(int64_t layer, int64_t head) const { return layer * heads + head; }
    // The score at (layer, head) of `scores`, NaN when out of range or not computed.
    double at(const std::vector<double>& scores, int64_t layer, int64_t head) const;
};

// The summaries a run keeps (meanEntropy, meanDistance, meanFirstWeight); previousToken is
// sized (L, H) and all NaN, induction empty. Cheap: no attention is read.
HeadScores runSummaries(const DecoderRun& run);

// Previous-token scores (H,) of one layer's attention (H, T, T). NaN for T < 2.
std::vector<double> previousTokenScores(const Tensor& layerAttention);
// Induction scores (H,) of one layer's attention (H, T, T) on the rows of `repeat`: the mean over
// its rows i of the weight on i - period + 1. NaN when the repeat is not found or does not fit.
std::vector<double> inductionScores(const Tensor& layerAttention, const RepeatSpan& repeat);
// The same for a text whose last `period` tokens repeat the `period` before them.
std::vector<double> inductionScores(const Tensor& layerAttention, int64_t period);

// The longest run of tokens that each equal the token `period` before them, over every period
// from 2 to T / 2 (the shorter period on a tie: a text said three times repeats with its own
// length, not twice it). What counts as a repeat: a run of 3 or more tokens, or a whole text of
// 4 or more said twice. A typed sentence said twice is found whatever comes before it, and
// without its first token when that one tokenizes differently the second time ("The" and
// " The"). Not found: a RepeatSpan with period 0.
RepeatSpan findRepeat(const std::vector<int64_t>& ids);
// runSummaries plus every head's previous-token score and, for a text that repeats itself
// (findRepeat), every head's induction score on the repeat, from run.attention when kept, else
// recomputing each layer (layerAttention: costly, call it off the GUI thread). Cancellable.
HeadScores headScores(const DecoderRun& run, const CancelToken* cancel = nullptr);
// Every head's induction score (L * H, row-major) for a run of repeatedRandomTokens-like text.
std::vector<double> runInductionScores(const DecoderRun& run, int64_t period,
                                       const CancelToken* cancel = nullptr);

struct HeadPick {
    int64_t layer = -1;
    int64_t head = -1;
    double score = kNoScore;
    bool valid() const { return layer >= 0; }
};
// The head with the highest finite score in (L * H) `scores` (ties: the lower layer, then the
// lower head); invalid when no score is finite or heads < 1.
HeadPick highestScore(const std::vector<double>& scores, int64_t heads);
// The head that most attends to the previous token: highestScore of scores.previousToken.
HeadPick strongestPreviousTokenHead(const HeadScores& scores);

// A text to find induction heads with: `half` distinct ids drawn from [0, vocab) (seeded,
// reproducible), then the same ids again: 2 * half ids. Its induction period is `half`.
// Throws UserError("input", ...) when half < 1 or vocab < half.
std::vector<int64_t> repeatedRandomTokens(int64_t half, int64_t vocab, uint64_t seed = 0);
// The same drawn from `pool` (distinct ids), said `repeats` times: n * repeats ids, period n.
// repeatedRandomTokens(half, vocab, seed) is this with the pool 0 .. vocab - 1 and 2 repeats.
// Throws UserError("repeat-random", ...) when n < 1 or the pool has fewer than n ids, and
// UserError("repeats", ...) when repeats < 2.
std::vector<int64_t> repeatedRandomIds(int64_t n, int64_t repeats, std::vector<int64_t> pool,
                                       uint64_t seed);

}  // namespace attn

#pragma once
// Scores that make a trained model's interesting heads easy to find, per layer and head:
//  - mean row entropy (nats): low = the head focuses on few tokens;
//  - mean attention distance (tokens): near 1 = the head looks at the previous token, near 0 =
//    at the token itself, large = far back (often the first token);
//  - mean weight on the first token: high = an "attention sink";
//  - previous-token score: the mean, over rows i >= 1, of the weight on token i - 1;
//  - induction score, for a text made of a random half repeated twice: the mean, over the
//    positions i of the second half, of the weight on the token right after the previous
//    occurrence of token i (position i - period + 1). An induction head scores near 1 there
//    while a previous-token head scores near 0.
// Qt-free, so the CLI, the lesson and the widgets share one definition.

#include <cstdint>
#include <limits>
#include <vector>

#include "engine/cancel.h"
#include "engine/tensor.h"

namespace attn {

struct DecoderRun;

inline constexpr double kNoScore = std::numeric_limits<double>::quiet_NaN();

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
// Induction scores (H,) of one layer's attention (H, T, T) for a text whose last `period`
// tokens repeat the `period` before them: the mean over the last `period` rows i of the weight
// on i - period + 1. NaN when the text is shorter than 2 * period or period < 1.
std::vector<double> inductionScores(const Tensor& layerAttention, int64_t period);

// The period of a text said twice: T / 2 when its ids are one half repeated (T >= 4), else 0.
int64_t repeatPeriod(const std::vector<int64_t>& ids);
// runSummaries plus every head's previous-token score and, for a text said twice
// (repeatPeriod), every head's induction score, from run.attention when kept, else recomputing
// each layer (layerAttention: costly, call it off the GUI thread). Cancellable.
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

}  // namespace attn

#include "engine/head_scores.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>

#include "engine/config.h"
#include "engine/decoder_forward.h"

namespace attn {

namespace {

std::vector<double> toDoubles(const Tensor& t) {
    if (t.empty())
        return {};
    const std::vector<float> v = t.toVector();
    return std::vector<double>(v.begin(), v.end());
}

// The mean over rows i in [firstRow, endRow) of w[h][i][i - back], per head, of an (H, T, T)
// tensor; endRow -1 is T.
std::vector<double> meanDiagonal(const Tensor& layerAttention, int64_t firstRow, int64_t back,
                                 int64_t endRow = -1) {
    if (layerAttention.dim() != 3 || layerAttention.size(1) != layerAttention.size(2))
        throw UserError("attention", "A layer's attention must be (H, T, T), not " +
                                         shapeToString(layerAttention.shape()) + ".");
    const int64_t H = layerAttention.size(0), T = layerAttention.size(1);
    if (endRow < 0)
        endRow = T;
    std::vector<double> out(static_cast<size_t>(H), kNoScore);
    if (firstRow < 0 || back < 0 || back > firstRow || firstRow >= endRow || endRow > T)
        return out;
    const Tensor a = layerAttention.contiguous();
    for (int64_t h = 0; h < H; ++h) {
        const float* w = a.data() + h * T * T;
        double sum = 0.0;
        for (int64_t i = firstRow; i < endRow; ++i)
            sum += w[i * T + i - back];
        out[static_cast<size_t>(h)] = sum / static_cast<double>(endRow - firstRow);
    }
    return out;
}

// Calls `perLayer` with layerAttention(run, l) for every layer l in order (each computed again
// when the run kept no attention, which is the cost: one pass serves every score).
template <class PerLayer>
void forEachLayer(const DecoderRun& run, const CancelToken* cancel, PerLayer perLayer) {
    const int64_t L = run.model ? run.model->arch.layers : 0;
    for (int64_t l = 0; l < L; ++l) {
        throwIfCancelled(cancel);
        perLayer(layerAttention(run, l, cancel));
    }
}

void append(std::vector<double>& out, const std::vector<double>& layer) {
    out.insert(out.end(), layer.begin(), layer.end());
}

}  // namespace

double HeadScores::at(const std::vector<double>& scores, int64_t layer, int64_t head) const {
    if (layer < 0 || head < 0 || layer >= layers || head >= heads)
        return kNoScore;
    const auto i = static_cast<size_t>(index(layer, head));
    return i < scores.size() ? scores[i] : kNoScore;
}

HeadScores runSummaries(const DecoderRun& run) {
    HeadScores s;
    if (!run.model)
        return s;
    s.layers = run.model->arch.layers;
    s.heads = run.model->arch.heads;
    s.entropy = toDoubles(run.meanEntropy);
    s.distance = toDoubles(run.meanDistance);
    s.firstWeight = toDoubles(run.meanFirstWeight);
    s.previousToken.assign(static_cast<size_t>(s.layers * s.heads), kNoScore);
    return s;
}

std::vector<double> previousTokenScores(const Tensor& layerAttention) {
    return meanDiagonal(layerAttention, 1, 1);
}

std::vector<double> inductionScores(const Tensor& layerAttention, const RepeatSpan& repeat) {
    if (!repeat.found() || repeat.first < repeat.period)
        return meanDiagonal(layerAttention, 0, 0, 0);  // all NaN, after the shape check
    // Row i looks back to the previous occurrence i - period and one token further on.
    return meanDiagonal(layerAttention, repeat.first, repeat.period - 1, repeat.end);
}

std::vector<double> inductionScores(const Tensor& layerAttention, int64_t period) {
    const int64_t T = layerAttention.dim() == 3 ? layerAttention.size(1) : 0;
    if (period < 1 || 2 * period > T)
        return inductionScores(layerAttention, RepeatSpan{});
    return inductionScores(layerAttention, RepeatSpan{period, T - period, T});
}

RepeatSpan findRepeat(const std::vector<int64_t>& ids) {
    const auto T = static_cast<int64_t>(ids.size());
    RepeatSpan best;
    for (int64_t p = 2; 2 * p <= T; ++p) {
        int64_t runStart = p;
        for (int64_t i = p; i <= T; ++i) {
            if (i < T && ids[size_t(i)] == ids[size_t(i - p)])
                continue;
            // Rows [runStart, i) match; a longer run wins, a tie keeps the shorter period.
            if (i - runStart > best.length())
                best = {p, runStart, i};
            runStart = i + 1;
        }
    }
    const bool wholeTextTwice = best.found() && best.first == best.period && best.end == T &&
                                T == 2 * best.period && T >= 4;
    if (best.length() < 3 && !wholeTextTwice)
        return {};
    return best;
}

HeadScores headScores(const DecoderRun& run, const CancelToken* cancel) {
    HeadScores s = runSummaries(run);
    if (s.empty())
        return s;
    s.repeat = findRepeat(run.ids);
    s.previousToken.clear();
    forEachLayer(run, cancel, [&](const Tensor& a) {
        append(s.previousToken, previousTokenScores(a));
        if (s.repeat.found())
            append(s.induction, inductionScores(a, s.repeat));
    });
    return s;
}

std::vector<double> runInductionScores(const DecoderRun& run, int64_t period,
                                       const CancelToken* cancel) {
    std::vector<double> out;
    forEachLayer(run, cancel, [&](const Tensor& a) { append(out, inductionScores(a, period)); });
    return out;
}

HeadPick highestScore(const std::vector<double>& scores, int64_t heads) {
    HeadPick best;
    if (heads < 1)
        return best;
    for (size_t i = 0; i < scores.size(); ++i) {
        // Strictly greater: the first of equal scores, i.e. the lower layer and head, stays.
        if (std::isfinite(scores[i]) && (!best.valid() || scores[i] > best.score)) {
            best.layer = static_cast<int64_t>(i) / heads;
            best.head = static_cast<int64_t>(i) % heads;
            best.score = scores[i];
        }
    }
    return best;
}

HeadPick strongestPreviousTokenHead(const HeadScores& scores) {
    return highestScore(scores.previousToken, scores.heads);
}

std::vector<int64_t> repeatedRandomTokens(int64_t half, int64_t vocab, uint64_t seed) {
    if (half < 1 || vocab < half)
        throw UserError("input", "A repeated random text needs 1 to " + std::to_string(vocab) +
                                     " distinct tokens per half, not " + std::to_string(half) +
                                     ".");
    std::vector<int64_t> pool(static_cast<size_t>(vocab));
    std::iota(pool.begin(), pool.end(), int64_t{0});
    return repeatedRandomIds(half, 2, std::move(pool), seed);
}

std::vector<int64_t> repeatedRandomIds(int64_t n, int64_t repeats, std::vector<int64_t> pool,
                                       uint64_t seed) {
    const auto size = static_cast<int64_t>(pool.size());
    if (n < 1 || n > size)
        throw UserError("repeat-random", "A repeated random text needs 1 to " +
                                             std::to_string(size) +
                                             " distinct tokens (the ids it draws from), not " +
                                             std::to_string(n) + ".");
    if (repeats < 2 || repeats > 64)
        throw UserError("repeats", "The random tokens must be said 2 to 64 times, not " +
                                       std::to_string(repeats) + ".");
    // A partial Fisher-Yates shuffle: distinct ids, so each token of a repeat has exactly one
    // occurrence a period before it.
    std::mt19937_64 gen(seed);
    std::vector<int64_t> ids(static_cast<size_t>(n * repeats));
    for (int64_t i = 0; i < n; ++i) {
        std::uniform_int_distribution<int64_t> pick(i, size - 1);
        std::swap(pool[static_cast<size_t>(i)], pool[static_cast<size_t>(pick(gen))]);
        for (int64_t r = 0; r < repeats; ++r)
            ids[static_cast<size_t>(r * n + i)] = pool[static_cast<size_t>(i)];
    }
    return ids;
}

}  // namespace attn

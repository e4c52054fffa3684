#include "engine/decoder_forward.h"

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <tuple>

#include "engine/config.h"
#include "engine/half.h"
#include "engine/kernels.h"
#include "engine/rng.h"
#include "engine/rope.h"
#include "engine/step_ids.h"
#include "engine/weight_names.h"

namespace attn {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// Query rows per attention task: the block's scores (64 x T) stay in cache from the product
// through softmax to the context product.
constexpr int64_t kRowBlock = 64;
// Rows per pass of the feed-forward, which works on each row alone: its hidden layer (4 d wide,
// and twice that for a gated feed-forward's gate and up projections)
// would otherwise be the largest working buffer (12.6 MB at GPT-2 small's T = 1,024) of a
// forward whose peak memory has a budget.
constexpr int64_t kFeedForwardRows = 256;
// Multiply-adds below which attention runs on one thread.
constexpr int64_t kParallelWork = int64_t(1) << 21;

kernels::LinearJob linearJob(const DecoderLinear& l, const float* x, int64_t rows, int64_t xStride,
                             float* y, int64_t yStride) {
    kernels::LinearJob j;
    j.x = x;
    j.rows = rows;
    j.in = l.inFeatures();
    j.xStride = xStride;
    if (l.half.empty()) {
        j.weight = l.weight.data();
    } else {
        j.weight16 = l.half.data;
        j.weightIsBf16 = l.half.bf16;
    }
    j.weightStride = l.rowStride();
    j.inputMajor = l.inputMajor;
    j.bias = l.bias.empty() ? nullptr : l.bias.data();
    j.y = y;
    j.out = l.outFeatures();
    j.yStride = yStride;
    return j;
}

void runLinear(const DecoderLinear& l, const float* x, int64_t rows, float* y,
               const CancelToken* cancel) {
    const kernels::LinearJob j = linearJob(l, x, rows, l.inFeatures(), y, l.outFeatures());
    kernels::linear({&j, 1}, cancel);
}

// First index of each of P cells over T positions (cell of i = i * P / T), and T at the end.
std::vector<int64_t> cellStarts(int64_t T, int64_t P) {
    std::vector<int64_t> s(static_cast<size_t>(P + 1));
    for (int64_t c = 0; c <= P; ++c)
        s[static_cast<size_t>(c)] = (c * T + P - 1) / P;
    return s;
}

// Sums row i's visible weights w[0..i] by column cell into out[0..P).
void poolRow(const float* w, int64_t i, const std::vector<int64_t>& starts, float* out) {
    const int64_t P = static_cast<int64_t>(starts.size()) - 1;
    for (int64_t c = 0; c < P; ++c) {
        const int64_t j0 = starts[static_cast<size_t>(c)];
        const int64_t j1 = std::min(starts[static_cast<size_t>(c + 1)], i + 1);
        float sum = 0.0f;
        for (int64_t j = j0; j < j1; ++j)
            sum += w[j];
        out[c] = sum;
    }
}

// Where one layer's causal attention reads its inputs and writes its results, for query rows
// r0..T-1 of every head. Queries and context hold only those rows; keys and values hold rows
// 0..T-1. Any result pointer may be null when it is not wanted.
struct AttentionIo {
    int64_t heads = 0, headSize = 0, tokens = 0, firstRow = 0;
    int64_t headsPerGroup = 1;  // query head h reads key/value head h / headsPerGroup
    int64_t window = 0;         // > 0: row i sees keys i - window + 1 .. i
    bool divideScores = true;   // scores / sqrt(hd); false when the queries come pre-scaled
    const float* q = nullptr;   // row i at q + (i - firstRow) * qStride, head h at + h * hd
    int64_t qStride = 0;
    const float* k = nullptr;  // row j at k + j * kvStride, key/value head g at + g * hd
    const float* v = nullptr;
    int64_t kvStride = 0;
    float* context = nullptr;  // like q
    int64_t contextStride = 0;
    float* weights = nullptr;     // (H, T, T): full rows, zero above the diagonal
    float* rowEntropy = nullptr;  // (H, T)
    float* rowDistance = nullptr;
    float* rowFirstWeight = nullptr;
    float* rowPool = nullptr;  // (H, T, P) column-cell sums of each row, with poolStarts
    const std::vector<int64_t>* poolStarts = nullptr;
};

// scores = q k^T, masked above the diagonal (and before the sliding window), / sqrt(hd) (the
// chapter divides by keys.shape[-1]**0.5, a Python float, as a float32 scalar), softmax,
// context = weights @ v. Only the visible part of each row is computed: its masked entries are
// exactly 0 in PyTorch too. Tasks are (head, block of 64 rows), largest (last rows) first.
void causalAttention(const AttentionIo& io, const CancelToken* cancel) {
    const int64_t H = io.heads, hd = io.headSize, T = io.tokens, r0 = io.firstRow;
    if (r0 >= T)
        return;
    const int64_t blocks = (T - r0 + kRowBlock - 1) / kRowBlock;
    const int64_t tasks = H * blocks;
    [[maybe_unused]] const int64_t work = H * (T - r0) * T * hd;  // read by the OpenMP pragma
    const float root = static_cast<float>(std::pow(static_cast<double>(hd), 0.5));
    const int64_t P = io.poolStarts ? static_cast<int64_t>(io.poolStarts->size()) - 1 : 0;
#pragma omp parallel if (work > kParallelWork)
    {
        // Aligned like every tensor, so each row is computed the same way in every run.
        Eigen::ArrayXf scores(kRowBlock * T);
        Eigen::ArrayXf scratch(io.weights ? 0 : kRowBlock * T);
#pragma omp for schedule(dynamic, 1)
        for (int64_t t = 0; t < tasks; ++t) {
            if (cancel && cancel->cancelled())
                continue;  // cannot leave an OpenMP loop early: skip the rest
            const int64_t h = t % H;
            const int64_t block = blocks - 1 - t / H;
            const int64_t i0 = r0 + block * kRowBlock;
            const int64_t i1 = std::min(T, i0 + kRowBlock);
            const int64_t rows = i1 - i0, cols = i1;
            const float* q = io.q + (i0 - r0) * io.qStride + h * hd;
            const float* k = io.k + (h / io.headsPerGroup) * hd;
            const float* v = io.v + (h / io.headsPerGroup) * hd;
            kernels::LinearJob qk;  // scores = q @ k.T: the keys in nn.Linear's place
            qk.x = q;
            qk.rows = rows;
            qk.in = hd;
            qk.xStride = io.qStride;
            qk.weight = k;
            qk.weightStride = io.kvStride;
            qk.y = scores.data();
            qk.out = cols;
            qk.yStride = T;
            kernels::product(qk);
            float* w0 = io.weights ? io.weights + (h * T + i0) * T : scratch.data();
            for (int64_t r = 0; r < rows; ++r) {
                const int64_t i = i0 + r;
                // Keys j0..i are visible: j0 > 0 only inside a sliding window.
                const int64_t j0 = io.window > 0 ? std::max<int64_t>(0, i - io.window + 1) : 0;
                float* s = scores.data() + r * T + j0;
                float* w = w0 + r * T;
                const int64_t n = i + 1 - j0;
                if (io.divideScores)
                    for (int64_t j = 0; j < n; ++j)
                        s[j] = s[j] / root;
                std::fill(w, w + j0, 0.0f);
                const float logSum = kernels::softmaxRow(s, w + j0, n);
                std::fill(w + i + 1, w + (io.weights ? T : cols), 0.0f);
                w += j0;
                // The summaries reuse the row of scores as scratch. Entropy: -sum w ln w with
                // ln w_j = s_j - logSum, as sum w_j (logSum - s_j), every term >= 0.
                if (io.rowEntropy) {
                    for (int64_t j = 0; j < n; ++j)
                        s[j] = w[j] * (logSum - s[j]);
                    io.rowEntropy[h * T + i] = kernels::rowSum(s, n);
                }
                if (io.rowDistance) {
                    for (int64_t j = 0; j < n; ++j)
                        s[j] = w[j] * static_cast<float>(i - j0 - j);
                    io.rowDistance[h * T + i] = kernels::rowSum(s, n);
                }
                w -= j0;
                if (io.rowFirstWeight)
                    io.rowFirstWeight[h * T + i] = w[0];
                if (io.rowPool)
                    poolRow(w, i, *io.poolStarts, io.rowPool + (h * T + i) * P);
            }
            if (io.context) {
                kernels::LinearJob wv;  // context = weights @ v: the values input-major
                wv.x = w0;
                wv.rows = rows;
                wv.in = cols;
                wv.xStride = T;
                wv.weight = v;
                wv.weightStride = io.kvStride;
                wv.inputMajor = true;
                wv.y = io.context + (i0 - r0) * io.contextStride + h * hd;
                wv.out = hd;
                wv.yStride = io.contextStride;
                kernels::product(wv);
            }
        }
    }
    throwIfCancelled(cancel);
}

// Replaces the context columns of layer `layer`'s ablated heads in rows 0..rows-1 (the whole
// text for AblationMode::Mean, whose mean is over every position).
void ablateContext(const HeadAblation& ablation, int64_t layer, int64_t hd, float* context,
                   int64_t rows, int64_t stride) {
    for (const HeadRef& r : ablation.heads) {
        if (r.layer != layer)
            continue;
        float* c0 = context + r.head * hd;
        std::vector<double> mean(static_cast<size_t>(hd), 0.0);
        if (ablation.mode == AblationMode::Mean && rows > 0) {
            for (int64_t i = 0; i < rows; ++i)
                for (int64_t c = 0; c < hd; ++c)
                    mean[size_t(c)] += c0[i * stride + c];
            for (double& v : mean)
                v /= static_cast<double>(rows);
        }
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t c = 0; c < hd; ++c)
                c0[i * stride + c] = static_cast<float>(mean[size_t(c)]);
    }
}

// x += y over n values.
void addInPlace(float* x, const float* y, int64_t n) {
    Eigen::Map<Eigen::ArrayXf>(x, n) += Eigen::Map<const Eigen::ArrayXf>(y, n);
}

std::string withThousands(int64_t v) {
    std::string s = std::to_string(v);
    for (int64_t at = static_cast<int64_t>(s.size()) - 3; at > 0; at -= 3)
        s.insert(static_cast<size_t>(at), ",");
    return s;
}

const DecoderModel& modelOf(const DecoderRun& run) {
    if (!run.model)
        throw UserError("model", "The run has no model.");
    return *run.model;
}

void checkLayer(const DecoderRun& run, int64_t layer) {
    const int64_t L = modelOf(run).arch.layers;
    if (layer < 0 || layer >= L)
        throw UserError("layer", "Layer " + std::to_string(layer) + " does not exist: the " +
                                     "model has layers 0 to " + std::to_string(L - 1) + ".");
}

void checkPosition(const DecoderRun& run, int64_t position) {
    if (position < 0 || position >= run.tokens())
        throw UserError("position", "Position " + std::to_string(position) +
                                        " is not a token of the text: positions run from 0 "
                                        "to " +
                                        std::to_string(run.tokens() - 1) + ".");
}

// The model's norm (LayerNorm, or an RMSNorm) over `rows` rows of d from x into y.
void normInto(const DecoderArchitecture& a, const float* x, int64_t rows, int64_t d,
              const Tensor& scale, const Tensor& shift, float* y) {
    if (a.norm == NormKind::LayerNorm)
        kernels::layerNorm(x, rows, d, d, scale.data(), shift.data(), y, d);
    else
        kernels::rmsNorm(x, rows, d, d, scale.data(), a.norm == NormKind::RmsNormOnePlus,
                         static_cast<float>(a.normEps), y, d);
}

Tensor normRows(const DecoderArchitecture& a, const float* x, int64_t rows, int64_t d,
                const Tensor& scale, const Tensor& shift) {
    Tensor y = Tensor::uninitialized(Shape{rows, d});
    normInto(a, x, rows, d, scale, shift, y.mutableData());
    return y;
}

// The cos and sin tables (T, hd) of a run's positions, for full and for sliding-window layers
// (Gemma 3 gives those their own base); empty without RoPE.
class RopeTables {
  public:
    RopeTables() = default;
    RopeTables(const DecoderArchitecture& a, int64_t tokens) {
        if (!a.rope)
            return;
        global_ = rope::tables(a.headSize(), tokens, a.globalRope);
        const bool anyLocal =
            std::any_of(a.windows.begin(), a.windows.end(), [](int64_t w) { return w > 0; });
        if (anyLocal)
            local_ = a.localRope == a.globalRope ? global_
                                                 : rope::tables(a.headSize(), tokens, a.localRope);
    }
    const std::pair<Tensor, Tensor>& of(const DecoderArchitecture& a, int64_t layer) const {
        return a.windowOf(layer) > 0 ? local_ : global_;
    }

  private:
    std::pair<Tensor, Tensor> global_, local_;
};

// What happens to projected queries or keys before q k^T, in place on `rows` rows of `heads`
// heads side by side, for positions first..: the family's QK-norm (each head's hd numbers),
// RoPE, and for queries the family's query scale.
void finishHeads(const DecoderArchitecture& a, float* x, int64_t rows, int64_t heads,
                 const Tensor& norm, const std::pair<Tensor, Tensor>& rope, int64_t first,
                 bool queries) {
    const int64_t hd = a.headSize(), width = heads * hd;
    if (!norm.empty())
        kernels::rmsNorm(x, rows * heads, hd, hd, norm.data(), a.norm == NormKind::RmsNormOnePlus,
                         static_cast<float>(a.normEps), x, hd);
    if (a.rope) {
        const float* cos = rope.first.data();
        const float* sin = rope.second.data();
#pragma omp parallel for if (rows * width > 262144)
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t h = 0; h < heads; ++h) {
                float* v = x + r * width + h * hd;
                rope::rotate(v, cos + (first + r) * hd, sin + (first + r) * hd, hd, v);
            }
    }
    if (queries && a.queryScale > 0.0)
        Eigen::Map<Eigen::ArrayXf>(x, rows * width) *= static_cast<float>(a.queryScale);
}

// Block b's queries (rows, H * hd) of its norm1 output `norm1` (rows, d) at positions first..,
// ready for q k^T.
Tensor blockQueries(const DecoderArchitecture& a, const DecoderBlock& b, const float* norm1,
                    int64_t rows, int64_t first, const std::pair<Tensor, Tensor>& rope,
                    const CancelToken* cancel) {
    Tensor q = Tensor::uninitialized(Shape{rows, a.queryWidth()});
    runLinear(b.query, norm1, rows, q.mutableData(), cancel);
    finishHeads(a, q.mutableData(), rows, a.heads, b.queryNorm, rope, first, true);
    return q;
}

// Block b's keys k and values v (rows, G * hd) of its norm1 output `norm1` (rows, d) at
// positions first.., the keys ready for q k^T.
void projectKeysValues(const DecoderArchitecture& a, const DecoderBlock& b, const float* norm1,
                       int64_t rows, int64_t first, const std::pair<Tensor, Tensor>& rope, float* k,
                       float* v, const CancelToken* cancel) {
    const int64_t d = a.dModel, kv = a.keyValueWidth();
    const std::array<kernels::LinearJob, 2> jobs = {linearJob(b.key, norm1, rows, d, k, kv),
                                                    linearJob(b.value, norm1, rows, d, v, kv)};
    kernels::linear(jobs, cancel);
    finishHeads(a, k, rows, a.keyValueHeads(), b.keyNorm, rope, first, false);
}

// Layer `layer`'s keys and values, (T, G * hd) each: the run's when it keeps them, else
// projected again from the block's norm1 output `norm1` (T, d).
struct LayerKeysValues {
    Tensor keys, values;
};
LayerKeysValues layerKeysValues(const DecoderRun& run, int64_t layer, const float* norm1,
                                const std::pair<Tensor, Tensor>& rope, const CancelToken* cancel) {
    if (run.keysValuesKept())
        return {run.keys.select(0, layer), run.values.select(0, layer)};
    const DecoderArchitecture& a = modelOf(run).arch;
    const int64_t T = run.tokens(), kv = a.keyValueWidth();
    LayerKeysValues out{Tensor::uninitialized(Shape{T, kv}), Tensor::uninitialized(Shape{T, kv})};
    projectKeysValues(a, run.model->blocks[static_cast<size_t>(layer)], norm1, T, 0, rope,
                      out.keys.mutableData(), out.values.mutableData(), cancel);
    return out;
}

// Layer `layer`'s attention over T tokens as the model computes it (heads, groups, window,
// scaling) reading queries q and keys and values k, v in the model's widths; the caller says
// where results go.
AttentionIo attentionIo(const DecoderArchitecture& a, int64_t layer, int64_t tokens, const float* q,
                        const float* k, const float* v) {
    AttentionIo io;
    io.heads = a.heads;
    io.headSize = a.headSize();
    io.headsPerGroup = a.heads / a.keyValueHeads();
    io.window = a.windowOf(layer);
    io.divideScores = a.queryScale <= 0.0;
    io.tokens = tokens;
    io.q = q;
    io.qStride = a.queryWidth();
    io.k = k;
    io.v = v;
    io.kvStride = a.keyValueWidth();
    return io;
}

// Attention of every row of layer `layer` from queries q (T, H * hd) and that layer's keys and
// values.
AttentionIo layerIo(const DecoderRun& run, int64_t layer, const Tensor& q,
                    const LayerKeysValues& kv) {
    return attentionIo(run.model->arch, layer, run.tokens(), q.data(), kv.keys.data(),
                       kv.values.data());
}

// The feed-forward on `rows` rows of its input h (rows, d), into y (rows, d), its hidden layer
// in `hidden` (and a gated one's up projection in `up`), each (rows, ffHidden).
void feedForward(const DecoderArchitecture& a, const DecoderBlock& b, const float* h, int64_t rows,
                 float* hidden, float* up, float* y, const CancelToken* cancel) {
    const int64_t F = a.ffHidden, d = a.dModel;
    if (a.feedForward == FeedForwardKind::Gelu) {
        runLinear(b.ffIn, h, rows, hidden, cancel);
        kernels::geluTanh(hidden, rows * F);
    } else {
        const std::array<kernels::LinearJob, 2> jobs = {linearJob(b.ffGate, h, rows, d, hidden, F),
                                                        linearJob(b.ffIn, h, rows, d, up, F)};
        kernels::linear(jobs, cancel);
        if (a.feedForward == FeedForwardKind::SwiGlu)
            kernels::siluTimes(hidden, up, rows * F);
        else
            kernels::geluTanhTimes(hidden, up, rows * F);
    }
    runLinear(b.ffOut, hidden, rows, y, cancel);
}

// Gemma 3's norm of a sublayer's output before it joins the residual stream, in place.
void postNorm(const DecoderArchitecture& a, const Tensor& weight, float* x, int64_t rows) {
    if (!weight.empty())
        normInto(a, x, rows, a.dModel, weight, Tensor(), x);
}

// The output head on `rows` final hidden states, vocabulary entries c0..c0+width: logits y
// (rows, width).
kernels::LinearJob headJob(const DecoderModel& m, const float* x, int64_t rows, int64_t c0,
                           int64_t width, float* y) {
    kernels::LinearJob j;
    j.x = x;
    j.rows = rows;
    j.in = m.arch.dModel;
    j.xStride = m.arch.dModel;
    if (m.outHead.half.empty()) {
        j.weight = m.outHead.weight.data() + c0 * m.arch.dModel;
    } else {
        j.weight16 = m.outHead.half.data + c0 * m.arch.dModel;
        j.weightIsBf16 = m.outHead.half.bf16;
    }
    j.weightStride = m.arch.dModel;
    j.y = y;
    j.out = width;
    j.yStride = width;
    return j;
}

class Forward {
  public:
    explicit Forward(const DecoderRequest& r) : req_(r) {}

    std::shared_ptr<const DecoderRun> run() {
        if (!req_.model)
            throw UserError("model", "No model is loaded: open a model file first.");
        const DecoderModel& m = *req_.model;
        const DecoderArchitecture& a = m.arch;
        const int64_t T = static_cast<int64_t>(req_.ids.size());
        checkInput(m, T);
        checkAblation(a, req_.ablation);
        checkPatch(a, req_.patch, T);
        const int64_t cells = std::max<int64_t>(1, req_.thumbnailCells);
        const int64_t kvUpTo = req_.keysValuesKeptUpTo;
        const bool keep =
            estimateDecoderRunBytes(a, T, cells, true, kvUpTo) <= req_.memoryBudgetBytes;
        if (!keep && estimateDecoderRunBytes(a, T, cells, false, kvUpTo) > req_.memoryBudgetBytes)
            throw UserError("memory",
                            "Running this model on " + std::to_string(T) + " tokens needs about " +
                                formatBytes(estimateDecoderRunBytes(a, T, cells, false, kvUpTo)) +
                                " even without keeping the attention weights, more than the "
                                "budget of " +
                                formatBytes(req_.memoryBudgetBytes) + ". Use fewer tokens.");

        const int64_t L = a.layers, H = a.heads, d = a.dModel, P = std::min(T, cells);
        const int64_t kv = a.keyValueWidth();
        auto run = std::make_shared<DecoderRun>();
        run->model = req_.model;
        run->ids = req_.ids;
        run->ablation = req_.ablation;
        if (keep)
            run->attention = Tensor::uninitialized(Shape{L, H, T, T});
        run->blockInputs = Tensor::uninitialized(Shape{L, T, d});
        if (T <= kvUpTo) {
            run->keys = Tensor::uninitialized(Shape{L, T, kv});
            run->values = Tensor::uninitialized(Shape{L, T, kv});
        } else {
            keys_ = Tensor::uninitialized(Shape{T, kv});
            values_ = Tensor::uninitialized(Shape{T, kv});
        }
        rope_ = RopeTables(a, T);
        run->finalHidden = Tensor::uninitialized(Shape{T, d});
        run->rowEntropy = Tensor::uninitialized(Shape{L, H, T});
        run->rowDistance = Tensor::uninitialized(Shape{L, H, T});
        run->rowFirstWeight = Tensor::uninitialized(Shape{L, H, T});
        run->meanEntropy = Tensor::uninitialized(Shape{L, H});
        run->meanDistance = Tensor::uninitialized(Shape{L, H});
        run->meanFirstWeight = Tensor::uninitialized(Shape{L, H});
        run->thumbnails = Tensor::uninitialized(Shape{L, H, P, P});

        const DecoderRun* prev = req_.previous.get();
        int64_t reused = 0;
        const bool rowsIndependent =
            req_.ablation.empty() || req_.ablation.mode == AblationMode::Zero;
        if (keep && prev && prev->model == req_.model && prev->attentionKept() &&
            prev->ablation.heads == req_.ablation.heads && rowsIndependent && req_.patch.empty()) {
            const size_t n = std::min(prev->ids.size(), req_.ids.size());
            while (reused < static_cast<int64_t>(n) &&
                   prev->ids[static_cast<size_t>(reused)] == req_.ids[static_cast<size_t>(reused)])
                ++reused;
            copyPrefix(*prev, *run, reused);
            prefixKeysValuesCopied_ = prev->keysValuesKept() && run->keysValuesKept();
        }
        run->reusedTokens = reused;

        starts_ = cellStarts(T, P);
        rowPool_ = Tensor::uninitialized(Shape{H, T, P});
        const int64_t n = T - reused;
        if (n > 0)
            embed(m, *run, reused);
        for (int64_t l = 0; l < L; ++l) {
            throwIfCancelled(req_.cancel);
            if (n > 0)
                block(m, *run, l, reused);
            finishLayer(*run, l, reused);
            if (req_.progress) {
                DecoderLayerDone done;
                done.layer = l;
                done.layers = L;
                if (keep)
                    done.attention = run->attention.select(0, l);
                done.thumbnail = run->thumbnails.select(0, l);
                req_.progress(done);
            }
        }
        if (n > 0)
            normInto(a, x_.data(), n, d, m.finalNormScale, m.finalNormShift,
                     run->finalHidden.mutableData() + reused * d);
        return run;
    }

  private:
    void checkInput(const DecoderModel& m, int64_t T) {
        if (T == 0)
            throw UserError("input", "There are no tokens: type some text.");
        if (T > m.arch.contextLength)
            throw UserError("input", "The input has " + std::to_string(T) +
                                         " tokens, more than the model's context length of " +
                                         std::to_string(m.arch.contextLength) +
                                         ". Shorten the text.");
        for (size_t i = 0; i < req_.ids.size(); ++i)
            if (req_.ids[i] < 0 || req_.ids[i] >= m.arch.vocab)
                throw UserError("input", "Token id " + std::to_string(req_.ids[i]) + " (position " +
                                             std::to_string(i) +
                                             ") is not in the model's vocabulary of " +
                                             withThousands(m.arch.vocab) + " tokens (ids 0 to " +
                                             std::to_string(m.arch.vocab - 1) + ").");
    }

    // A patch names a block, head and position the model and text have, with as many values
    // as it replaces.
    static void checkPatch(const DecoderArchitecture& a, const ActivationPatch& p, int64_t T) {
        if (p.empty())
            return;
        const bool head = p.head >= 0;
        const int64_t expected = head ? T * a.headSize() : a.dModel;
        if (p.layer >= a.layers || p.head >= a.heads ||
            (!head && (p.position < 0 || p.position >= T)) || !p.values ||
            p.values->numel() != expected)
            throw UserError("patch", "An activation patch must name a block (0 to " +
                                         std::to_string(a.layers - 1) +
                                         ") and a head or a "
                                         "position of the text, with " +
                                         std::to_string(expected) + " values.");
    }

    static void checkAblation(const DecoderArchitecture& a, const HeadAblation& ablation) {
        for (const HeadRef& r : ablation.heads)
            if (r.layer < 0 || r.layer >= a.layers || r.head < 0 || r.head >= a.heads)
                throw UserError("ablate",
                                "Head " + std::to_string(r.layer) + "." + std::to_string(r.head) +
                                    " does not exist: the model has " + std::to_string(a.layers) +
                                    " layers (0 to " + std::to_string(a.layers - 1) + ") of " +
                                    std::to_string(a.heads) + " heads (0 to " +
                                    std::to_string(a.heads - 1) + ").");
    }

    // Rows 0..reused-1 of every kept tensor, from a run of the same model on the same prefix.
    static void copyPrefix(const DecoderRun& prev, DecoderRun& run, int64_t reused) {
        if (reused == 0)
            return;
        const DecoderArchitecture& a = run.model->arch;
        const int64_t L = a.layers, H = a.heads, d = a.dModel, kv = a.keyValueWidth();
        const int64_t T = run.tokens(), Tp = prev.tokens();
        for (int64_t l = 0; l < L; ++l) {
            std::copy_n(prev.blockInputs.data() + l * Tp * d, reused * d,
                        run.blockInputs.mutableData() + l * T * d);
            if (prev.keysValuesKept() && run.keysValuesKept())
                for (const auto& [src, dst] :
                     {std::pair{&prev.keys, &run.keys}, {&prev.values, &run.values}})
                    std::copy_n(src->data() + l * Tp * kv, reused * kv,
                                dst->mutableData() + l * T * kv);
            for (int64_t h = 0; h < H; ++h) {
                const int64_t lh = l * H + h;
                for (const auto& [src, dst] : {std::pair{&prev.rowEntropy, &run.rowEntropy},
                                               {&prev.rowDistance, &run.rowDistance},
                                               {&prev.rowFirstWeight, &run.rowFirstWeight}})
                    std::copy_n(src->data() + lh * Tp, reused, dst->mutableData() + lh * T);
                for (int64_t i = 0; i < reused; ++i) {
                    const float* s = prev.attention.data() + (lh * Tp + i) * Tp;
                    float* o = run.attention.mutableData() + (lh * T + i) * T;
                    std::copy_n(s, i + 1, o);
                    std::fill(o + i + 1, o + T, 0.0f);
                }
            }
        }
        std::copy_n(prev.finalHidden.data(), reused * d, run.finalHidden.mutableData());
    }

    void embed(const DecoderModel& m, const DecoderRun& run, int64_t first) {
        const int64_t d = m.arch.dModel, T = run.tokens(), n = T - first;
        x_ = Tensor::uninitialized(Shape{n, d});
        const float scale = static_cast<float>(m.arch.embeddingScale);
        for (int64_t r = 0; r < n; ++r) {
            const int64_t i = first + r;
            float* x = x_.mutableData() + r * d;
            m.embeddingRow(run.ids[static_cast<size_t>(i)], x);
            if (m.arch.rope) {
                // Gemma 3 scales by sqrt(d_model) as a float32 number; the others by 1.
                if (scale != 1.0f)
                    for (int64_t c = 0; c < d; ++c)
                        x[c] *= scale;
            } else {
                const float* pos = m.positionEmbedding.data() + i * d;
                for (int64_t c = 0; c < d; ++c)
                    x[c] += pos[c];
            }
        }
        const int64_t F = m.arch.ffHidden, rows = std::min(n, kFeedForwardRows);
        norm_ = Tensor::uninitialized(Shape{n, d});
        queries_ = Tensor::uninitialized(Shape{n, m.arch.queryWidth()});
        context_ = Tensor::uninitialized(Shape{n, m.arch.queryWidth()});
        hidden_ = Tensor::uninitialized(Shape{rows, F});
        if (m.arch.feedForward != FeedForwardKind::Gelu)
            up_ = Tensor::uninitialized(Shape{rows, F});
    }

    // Block l on rows first..T-1: x = x + attn(norm1(x)); x = x + FF(norm2(x)), with Gemma 3's
    // norms after each.
    void block(const DecoderModel& m, DecoderRun& run, int64_t l, int64_t first) {
        const DecoderBlock& b = m.blocks[static_cast<size_t>(l)];
        const DecoderArchitecture& a = m.arch;
        const int64_t T = run.tokens(), n = T - first, d = a.dModel, H = a.heads;
        const int64_t kv = a.keyValueWidth(), qw = a.queryWidth();
        const CancelToken* cancel = req_.cancel;
        const std::pair<Tensor, Tensor>& rope = rope_.of(a, l);
        float* x = x_.mutableData();
        const ActivationPatch& patch = req_.patch;
        if (patch.layer == l && patch.head < 0 && patch.position >= first)
            std::copy_n(patch.values->data(), d, x + (patch.position - first) * d);
        std::copy_n(x, n * d, run.blockInputs.mutableData() + (l * T + first) * d);
        float* h = norm_.mutableData();
        normInto(a, x, n, d, b.norm1Scale, b.norm1Shift, h);
        float* k = run.keysValuesKept() ? run.keys.mutableData() + l * T * kv : keys_.mutableData();
        float* v =
            run.keysValuesKept() ? run.values.mutableData() + l * T * kv : values_.mutableData();
        if (first > 0 && !prefixKeysValuesCopied_) {
            // The prefix's rows came from the previous run without its keys and values: project
            // them again from its copied block inputs.
            const Tensor prefix = normRows(a, run.blockInputs.data() + l * T * d, first, d,
                                           b.norm1Scale, b.norm1Shift);
            projectKeysValues(a, b, prefix.data(), first, 0, rope, k, v, cancel);
        }
        const std::array<kernels::LinearJob, 3> qkv = {
            linearJob(b.query, h, n, d, queries_.mutableData(), qw),
            linearJob(b.key, h, n, d, k + first * kv, kv),
            linearJob(b.value, h, n, d, v + first * kv, kv)};
        kernels::linear(qkv, cancel);
        finishHeads(a, queries_.mutableData(), n, H, b.queryNorm, rope, first, true);
        finishHeads(a, k + first * kv, n, a.keyValueHeads(), b.keyNorm, rope, first, false);

        AttentionIo io = attentionIo(a, l, T, queries_.data(), k, v);
        io.firstRow = first;
        io.context = context_.mutableData();
        io.contextStride = qw;
        if (run.attentionKept())
            io.weights = run.attention.mutableData() + l * H * T * T;
        io.rowEntropy = run.rowEntropy.mutableData() + l * H * T;
        io.rowDistance = run.rowDistance.mutableData() + l * H * T;
        io.rowFirstWeight = run.rowFirstWeight.mutableData() + l * H * T;
        io.rowPool = rowPool_.mutableData();
        io.poolStarts = &starts_;
        causalAttention(io, cancel);
        // Mean ablation never reuses a prefix (see DecoderRequest), so n is then the whole text.
        ablateContext(req_.ablation, l, a.headSize(), context_.mutableData(), n, qw);
        if (patch.layer == l && patch.head >= 0) {
            const int64_t hd = a.headSize();
            for (int64_t r = 0; r < n; ++r)
                std::copy_n(patch.values->data() + (first + r) * hd, hd,
                            context_.mutableData() + r * qw + patch.head * hd);
        }

        runLinear(b.outProj, context_.data(), n, h, cancel);
        postNorm(a, b.postAttentionNorm, h, n);
        addInPlace(x, h, n * d);
        normInto(a, x, n, d, b.norm2Scale, b.norm2Shift, h);
        for (int64_t r0 = 0; r0 < n; r0 += kFeedForwardRows) {
            const int64_t rows = std::min(kFeedForwardRows, n - r0);
            feedForward(a, b, h + r0 * d, rows, hidden_.mutableData(),
                        up_.empty() ? nullptr : up_.mutableData(), h + r0 * d, cancel);
        }
        postNorm(a, b.postFeedForwardNorm, h, n);
        addInPlace(x, h, n * d);
    }

    // Thumbnails and row means of layer l; rows below `first` come from the kept attention
    // (copied from the previous run), the others were pooled as they were computed.
    void finishLayer(DecoderRun& run, int64_t l, int64_t first) {
        const int64_t H = run.model->arch.heads, T = run.tokens();
        const int64_t P = static_cast<int64_t>(starts_.size()) - 1;
        float* pool = rowPool_.mutableData();
        for (int64_t h = 0; h < H; ++h) {
            for (int64_t i = 0; i < first; ++i)
                poolRow(run.attention.data() + ((l * H + h) * T + i) * T, i, starts_,
                        pool + (h * T + i) * P);
            float* thumb = run.thumbnails.mutableData() + (l * H + h) * P * P;
            for (int64_t ra = 0; ra < P; ++ra) {
                const int64_t i0 = starts_[static_cast<size_t>(ra)];
                const int64_t i1 = starts_[static_cast<size_t>(ra + 1)];
                for (int64_t cb = 0; cb < P; ++cb) {
                    const int64_t j0 = starts_[static_cast<size_t>(cb)];
                    const int64_t j1 = starts_[static_cast<size_t>(cb + 1)];
                    double sum = 0.0;
                    int64_t count = 0;
                    for (int64_t i = i0; i < i1; ++i) {
                        const int64_t visible = std::min(j1, i + 1) - j0;
                        if (visible <= 0)
                            continue;
                        count += visible;
                        sum += pool[(h * T + i) * P + cb];
                    }
                    thumb[ra * P + cb] =
                        count ? static_cast<float>(sum / static_cast<double>(count)) : kNegInf;
                }
            }
            const int64_t lh = l * H + h;
            // Row 0 sees only the first token: its weight there says nothing, so the first-token
            // score starts at row 1.
            for (const auto& [rows, mean, from] :
                 {std::tuple{&run.rowEntropy, &run.meanEntropy, int64_t{0}},
                  {&run.rowDistance, &run.meanDistance, int64_t{0}},
                  {&run.rowFirstWeight, &run.meanFirstWeight, int64_t{1}}}) {
                double sum = 0.0;
                for (int64_t i = from; i < T; ++i)
                    sum += rows->data()[lh * T + i];
                mean->mutableData()[lh] =
                    T > from ? static_cast<float>(sum / static_cast<double>(T - from))
                             : std::numeric_limits<float>::quiet_NaN();
            }
        }
    }

    const DecoderRequest& req_;
    Tensor x_, norm_, queries_, context_, hidden_, up_;
    RopeTables rope_;
    Tensor keys_, values_;  // one block's keys and values when the run does not keep them
    bool prefixKeysValuesCopied_ = false;
    Tensor rowPool_;
    std::vector<int64_t> starts_;
};

}  // namespace

uint64_t estimateDecoderRunBytes(const DecoderArchitecture& a, int64_t tokens,
                                 int64_t thumbnailCells, bool keepAttention,
                                 int64_t keysValuesKeptUpTo) {
    // Doubles, so absurd sizes saturate instead of overflowing.
    const double L = double(a.layers), H = double(a.heads), d = double(a.dModel),
                 T = double(tokens), F = double(a.ffHidden), kv = double(a.keyValueWidth()),
                 q = double(a.queryWidth());
    const double P = std::min(T, double(std::max<int64_t>(1, thumbnailCells)));
    // Block inputs and final hidden states; keys and values (kept per layer, or one layer's
    // worth while computing); the summaries and thumbnails.
    const double keysValues = tokens <= keysValuesKeptUpTo ? 2 * L * T * kv : 2 * T * kv;
    double floats = L * T * d + keysValues + T * d + 3 * L * H * T + 3 * L * H + L * H * P * P;
    if (keepAttention)
        floats += L * H * T * T;
    // Working buffers: x, the norm, queries, context, the feed-forward hidden layer (and a
    // gated one's up projection), the pooled rows, each thread's scores (two threads' worth),
    // and the RoPE tables.
    const double hiddenLayers = a.feedForward == FeedForwardKind::Gelu ? 1 : 2;
    floats += T * (2 * d + 2 * q) + hiddenLayers * std::min(T, double(kFeedForwardRows)) * F +
              H * T * P + 4 * double(kRowBlock) * T + (a.rope ? 4 * T * a.headSize() : 0);
    const double bytes = 4.0 * floats;
    return bytes >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(bytes);
}

std::shared_ptr<const DecoderRun> runDecoder(const DecoderRequest& request) {
    return Forward(request).run();
}

Tensor layerAttention(const DecoderRun& run, int64_t layer, const CancelToken* cancel) {
    checkLayer(run, layer);
    if (run.attentionKept())
        return run.attention.select(0, layer);
    const DecoderModel& m = modelOf(run);
    const DecoderArchitecture& a = m.arch;
    const DecoderBlock& b = m.blocks[static_cast<size_t>(layer)];
    const int64_t T = run.tokens(), d = a.dModel, H = a.heads;
    const Tensor norm1 =
        normRows(a, run.blockInputs.data() + layer * T * d, T, d, b.norm1Scale, b.norm1Shift);
    const RopeTables tables(a, T);
    const auto& rope = tables.of(a, layer);
    const Tensor q = blockQueries(a, b, norm1.data(), T, 0, rope, cancel);
    const LayerKeysValues kv = layerKeysValues(run, layer, norm1.data(), rope, cancel);
    Tensor weights = Tensor::uninitialized(Shape{H, T, T});
    AttentionIo io = layerIo(run, layer, q, kv);
    io.weights = weights.mutableData();
    causalAttention(io, cancel);
    return weights;
}

DecoderBlockContext blockContext(const DecoderRun& run, int64_t layer, const CancelToken* cancel) {
    checkLayer(run, layer);
    const DecoderModel& m = modelOf(run);
    const DecoderArchitecture& a = m.arch;
    const DecoderBlock& b = m.blocks[static_cast<size_t>(layer)];
    const int64_t T = run.tokens(), d = a.dModel, F = a.ffHidden;
    DecoderBlockContext c;
    c.residualIn = run.blockInputs.select(0, layer);
    c.norm1 = normRows(a, c.residualIn.data(), T, d, b.norm1Scale, b.norm1Shift);
    const RopeTables tables(a, T);
    const auto& rope = tables.of(a, layer);
    const Tensor q = blockQueries(a, b, c.norm1.data(), T, 0, rope, cancel);
    const LayerKeysValues kv = layerKeysValues(run, layer, c.norm1.data(), rope, cancel);
    c.context = Tensor::uninitialized(Shape{T, a.queryWidth()});
    AttentionIo io = layerIo(run, layer, q, kv);
    io.context = c.context.mutableData();
    io.contextStride = a.queryWidth();
    causalAttention(io, cancel);
    ablateContext(run.ablation, layer, a.headSize(), c.context.mutableData(), T, a.queryWidth());
    c.attentionOutput = Tensor::uninitialized(Shape{T, d});
    runLinear(b.outProj, c.context.data(), T, c.attentionOutput.mutableData(), cancel);
    c.attentionProjected =
        b.postAttentionNorm.empty() ? c.attentionOutput : c.attentionOutput.clone();
    postNorm(a, b.postAttentionNorm, c.attentionOutput.mutableData(), T);
    c.residualMid = c.residualIn.clone();
    addInPlace(c.residualMid.mutableData(), c.attentionOutput.data(), T * d);
    c.norm2 = normRows(a, c.residualMid.data(), T, d, b.norm2Scale, b.norm2Shift);
    c.ffHidden = Tensor::uninitialized(Shape{T, F});
    Tensor up =
        a.feedForward == FeedForwardKind::Gelu ? Tensor() : Tensor::uninitialized(Shape{T, F});
    c.ffOutput = Tensor::uninitialized(Shape{T, d});
    feedForward(a, b, c.norm2.data(), T, c.ffHidden.mutableData(),
                up.empty() ? nullptr : up.mutableData(), c.ffOutput.mutableData(), cancel);
    postNorm(a, b.postFeedForwardNorm, c.ffOutput.mutableData(), T);
    c.residualOut = c.residualMid.clone();
    addInPlace(c.residualOut.mutableData(), c.ffOutput.data(), T * d);
    return c;
}

Config layerTraceConfig(const DecoderArchitecture& a, int64_t layer, int64_t tokens) {
    Config c;
    c.batch = 1;
    c.dIn = a.dModel;
    c.heads = std::max<int64_t>(1, a.heads);
    c.dropout = 0.0;
    c.mode = Mode::Eval;
    c.contextLength = std::max<int64_t>(tokens, a.contextLength);
    // Learned positions: chapter 3's multi-head attention as it is; RoPE: the module of the
    // later variants, with the architecture's groups, head size, QK-norm and window.
    if (!a.rope) {
        c.variant = Variant::MultiHead;
        c.dOut = a.dModel;
        c.mask = MaskSpec{MaskKind::Causal, 0};
        c.qkvBias = a.qkvBias;
        return c;
    }
    c.variant = Variant::Rotary;
    c.dOut = a.dModel;
    c.kvGroups = a.keyValueHeads();
    c.headDim = a.headSize();
    c.qkNorm = a.qkNorm;
    c.rope = true;
    c.ropeBase = a.ropeOf(layer).base;
    const int64_t window = a.windowOf(layer);
    c.mask = window > 0 ? MaskSpec{MaskKind::Window, window} : MaskSpec{MaskKind::Causal, 0};
    return c;
}

Trace layerTrace(const DecoderRun& run, int64_t layer, const CancelToken* cancel,
                 ProgressFn progress, const LayerTraceOptions& options) {
    checkLayer(run, layer);
    const DecoderModel& m = modelOf(run);
    const DecoderArchitecture& a = m.arch;
    const DecoderBlock& b = m.blocks[static_cast<size_t>(layer)];
    const int64_t T = run.tokens(), d = a.dModel;
    // nn.Linear keeps (out, in); Conv1D's (in, out) is transposed into that layout, and 16-bit
    // weights are converted (one layer's).
    auto linearWeight = [](const DecoderLinear& l) {
        if (!l.half.empty()) {
            Tensor t = Tensor::uninitialized(Shape{l.half.rows, l.half.cols});
            halfsToFloats(l.half.data, l.half.rows * l.half.cols, l.half.bf16, t.mutableData());
            return t;
        }
        return l.inputMajor ? l.weight.transpose(0, 1).contiguous() : l.weight.contiguous();
    };
    WeightMap weights;
    const std::pair<const char*, const DecoderLinear*> maps[] = {
        {"W_query", &b.query}, {"W_key", &b.key}, {"W_value", &b.value}, {"out_proj", &b.outProj}};
    for (const auto& [name, l] : maps) {
        weights[std::string(name) + ".weight"] = linearWeight(*l);
        if (!l->bias.empty())
            weights[std::string(name) + ".bias"] = l->bias;
    }
    // Gemma 3 multiplies by (1 + weight): the trace's RMSNorm multiplies by its scale.
    auto normScale = [&](const Tensor& w) {
        if (a.norm != NormKind::RmsNormOnePlus)
            return w;
        Tensor t = w.clone();
        for (int64_t i = 0; i < t.numel(); ++i)
            t.mutableData()[i] += 1.0f;
        return t;
    };
    if (a.qkNorm) {
        weights["q_norm.scale"] = normScale(b.queryNorm);
        weights["k_norm.scale"] = normScale(b.keyNorm);
    }
    ModelLayerExtras extras;
    extras.qkNormEps = a.normEps;
    extras.rope = a.ropeOf(layer);
    extras.scoreScale = a.queryScale;
    TraceRequest r;
    r.config = layerTraceConfig(a, layer, T);
    r.config.simpleMaskSteps = options.simpleMaskSteps;
    r.config.memoryBudgetBytes = options.memoryBudgetBytes;
    // Chapter 3's multi-head module takes its biases from its config; the later module's layer
    // set-up (RoPE, QK-norm, the score scale) comes with the model.
    if (r.config.variant != Variant::MultiHead) {
        extras.qkvBias = a.qkvBias;
        r.modelLayer = &extras;
    }
    r.inputs = normRows(a, run.blockInputs.data() + layer * T * d, T, d, b.norm1Scale, b.norm1Shift)
                   .view({1, T, d});
    r.weights = &weights;
    r.cancel = cancel;
    r.progress = std::move(progress);
    Trace trace = runTrace(r);
    // The planned title speaks of token embeddings; here the input is the block's first norm.
    if (!trace.steps.empty() && trace.steps.front().info.id == step_id::kInputs) {
        StepInfo& info = trace.steps.front().info;
        const std::string n = std::to_string(layer);
        info.source = StepSource::LayerInput;
        info.title = a.norm == NormKind::LayerNorm
                         ? "Block " + n + "'s LayerNorm1 output: the input of its attention"
                         : "Block " + n + "'s RMSNorm output: the input of its attention";
    }
    for (Step& s : trace.steps)
        s.info.block = a.blockFacts(layer);
    nameModelModules(trace, m, layer);
    // Gemma 3 scales by its config's query_pre_attn_scalar, which need not be its head size:
    // the steps say so, and the texts and derivations read it from them.
    if (a.queryScale > 0.0) {
        const double size = 1.0 / (a.queryScale * a.queryScale);
        const std::string chapter = "keys.shape[-1]**0.5", model = "query_pre_attn_scalar**0.5";
        for (Step& s : trace.steps) {
            if (s.info.id != step_id::kScaledScores && s.info.id != step_id::kWeightsUnmasked)
                continue;
            s.info.scaleSize = size;
            if (const size_t at = s.info.op.find(chapter); at != std::string::npos)
                s.info.op.replace(at, chapter.size(), model);
            if (s.info.id == step_id::kScaledScores)
                s.info.title =
                    "Scaled scores: divided by sqrt(query_pre_attn_scalar), the model's own "
                    "scale, so softmax does not saturate";
        }
    }
    return trace;
}

void nameModelModules(Trace& trace, const DecoderModel& m, int64_t layer) {
    const WeightNameTable& t = weightNameTable(m.arch.family, m.names);
    // The chapter-3 class's modules, as the plan writes them, and the model's own.
    std::vector<std::pair<std::string, std::string>> modules = {
        {"self.out_proj", t.module(layer, t.outProj)}};
    if (!t.queryNorm.empty()) {
        modules.push_back({"self.q_norm", t.module(layer, t.queryNorm)});
        modules.push_back({"self.k_norm", t.module(layer, t.keyNorm)});
    }
    if (t.queryKeyValue.empty()) {
        modules.push_back({"self.W_query", t.module(layer, t.query)});
        modules.push_back({"self.W_key", t.module(layer, t.key)});
        modules.push_back({"self.W_value", t.module(layer, t.value)});
    }
    // Hugging Face's GPT-2 makes the three in one product, split as GPT2Attention does.
    const std::string fused = t.module(layer, t.queryKeyValue) + "(x).split(d_model, dim=2)";
    for (Step& s : trace.steps) {
        std::string& op = s.info.op;
        if (s.info.id == step_id::kInputs && s.info.source == StepSource::LayerInput) {
            op = t.module(layer, t.norm1) + "(x)";
            continue;
        }
        if (!t.queryKeyValue.empty()) {
            const std::pair<const char*, const char*> parts[] = {
                {step_id::kQueries, "[0]"}, {step_id::kKeys, "[1]"}, {step_id::kValues, "[2]"}};
            for (const auto& [id, index] : parts)
                if (s.info.id == id)
                    op = fused + index;
        }
        for (const auto& [from, to] : modules)
            if (op.starts_with(from + "("))
                op = to + op.substr(from.size());
    }
}

Tensor nextTokenLogits(const DecoderRun& run, int64_t position) {
    checkPosition(run, position);
    const DecoderModel& m = modelOf(run);
    const int64_t d = m.arch.dModel, V = m.arch.vocab;
    Tensor logits = Tensor::uninitialized(Shape{V});
    const kernels::LinearJob j =
        headJob(m, run.finalHidden.data() + position * d, 1, 0, V, logits.mutableData());
    kernels::linear({&j, 1});
    return logits;
}

namespace {

// ln sum_j exp(z_j), in double.
double logSumExp(const float* z, int64_t n) {
    const float mx = *std::max_element(z, z + n);
    double sum = 0.0;
    for (int64_t j = 0; j < n; ++j)
        sum += std::exp(static_cast<double>(z[j]) - mx);
    return mx + std::log(sum);
}

}  // namespace

namespace {

std::vector<TokenProbability> topOf(const float* z, int64_t V, int64_t k) {
    k = std::clamp<int64_t>(k, 0, V);
    std::vector<int64_t> order(static_cast<size_t>(V));
    std::iota(order.begin(), order.end(), int64_t(0));
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [&](int64_t a, int64_t b) { return z[a] != z[b] ? z[a] > z[b] : a < b; });
    const double lse = logSumExp(z, V);
    std::vector<TokenProbability> out;
    for (int64_t i = 0; i < k; ++i) {
        const int64_t id = order[static_cast<size_t>(i)];
        out.push_back({id, std::exp(static_cast<double>(z[id]) - lse)});
    }
    return out;
}

}  // namespace

std::vector<TokenProbability> topTokens(const Tensor& logits, int64_t k) {
    return topOf(logits.data(), logits.numel(), k);
}

std::vector<TokenProbability> nextTokens(const DecoderRun& run, int64_t position, int64_t k) {
    return topTokens(nextTokenLogits(run, position), k);
}

double nextTokenLogProbability(const DecoderRun& run, int64_t position, int64_t token) {
    return tokenLogProbability(nextTokenLogits(run, position), token);
}

int64_t tokenRank(const Tensor& logits, int64_t token) {
    const float* l = logits.data();
    const float mine = l[token];
    int64_t before = 0;
    for (int64_t i = 0; i < logits.numel(); ++i)
        before += l[i] > mine || (l[i] == mine && i < token);
    return before + 1;
}

void checkTokenId(int64_t id, int64_t vocab, const char* field) {
    if (id < 0 || id >= vocab)
        throw UserError(field, "Token id " + std::to_string(id) +
                                   " is not in the model's vocabulary (ids 0 to " +
                                   std::to_string(vocab - 1) + ").");
}

double tokenLogProbability(const Tensor& logits, int64_t token) {
    checkTokenId(token, logits.numel(), "input");
    return static_cast<double>(logits.data()[token]) - logSumExp(logits.data(), logits.numel());
}

std::vector<double> tokenLogProbabilities(const DecoderRun& run, const CancelToken* cancel) {
    const DecoderModel& m = modelOf(run);
    const int64_t n = run.tokens() - 1, V = m.arch.vocab;
    if (n <= 0)
        return {};
    // Vocabulary chunks: the (n, chunk) logits stay small, and each chunk updates every row's
    // running maximum and sum of exponentials (the streaming form of log-sum-exp).
    constexpr int64_t kChunk = 4096;
    std::vector<double> maxima(static_cast<size_t>(n), -std::numeric_limits<double>::infinity());
    std::vector<double> sums(static_cast<size_t>(n), 0.0);
    std::vector<double> target(static_cast<size_t>(n), 0.0);
    Tensor logits = Tensor::uninitialized(Shape{n, std::min(kChunk, V)});
    for (int64_t c0 = 0; c0 < V; c0 += kChunk) {
        const int64_t width = std::min(kChunk, V - c0);
        const kernels::LinearJob j =
            headJob(m, run.finalHidden.data(), n, c0, width, logits.mutableData());
        kernels::linear({&j, 1}, cancel);
#pragma omp parallel for if (n * width > 262144)
        for (int64_t i = 0; i < n; ++i) {
            const float* z = logits.data() + i * width;
            const double mx = std::max<double>(maxima[size_t(i)], *std::max_element(z, z + width));
            double s = sums[size_t(i)] * std::exp(maxima[size_t(i)] - mx);
            for (int64_t c = 0; c < width; ++c)
                s += std::exp(static_cast<double>(z[c]) - mx);
            maxima[size_t(i)] = mx;
            sums[size_t(i)] = s;
            const int64_t next = run.ids[size_t(i + 1)] - c0;
            if (next >= 0 && next < width)
                target[size_t(i)] = z[next];
        }
    }
    std::vector<double> out(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        out[size_t(i)] = target[size_t(i)] - (maxima[size_t(i)] + std::log(sums[size_t(i)]));
    return out;
}

LogitLens logitLens(const DecoderRun& run, int64_t k, const CancelToken* cancel) {
    const DecoderModel& m = modelOf(run);
    const DecoderArchitecture& a = m.arch;
    const int64_t L = a.layers, T = run.tokens(), d = a.dModel, V = a.vocab;
    // Positions per product with the output head: its (rows, V) logits stay a few MB even with
    // a 262,144-token vocabulary.
    constexpr int64_t kRows = 8;
    LogitLens out(static_cast<size_t>(L));
    Tensor logits = Tensor::uninitialized(Shape{std::min(kRows, T), V});
    for (int64_t l = 0; l < L; ++l) {
        throwIfCancelled(cancel);
        // The last block's output through the final norm is what the run already holds.
        const Tensor hidden = l + 1 < L ? normRows(a, run.blockInputs.data() + (l + 1) * T * d, T,
                                                   d, m.finalNormScale, m.finalNormShift)
                                        : run.finalHidden;
        auto& layer = out[static_cast<size_t>(l)];
        layer.resize(static_cast<size_t>(T));
        for (int64_t r0 = 0; r0 < T; r0 += kRows) {
            const int64_t rows = std::min(kRows, T - r0);
            const kernels::LinearJob j =
                headJob(m, hidden.data() + r0 * d, rows, 0, V, logits.mutableData());
            kernels::linear({&j, 1}, cancel);
            for (int64_t i = 0; i < rows; ++i)
                layer[static_cast<size_t>(r0 + i)] = topOf(logits.data() + i * V, V, k);
        }
    }
    return out;
}

void checkSamplingOptions(const SamplingOptions& o) {
    if (!(o.temperature >= 0.0) || !std::isfinite(o.temperature))
        throw UserError("temperature",
                        "The temperature must be 0 (always the most probable "
                        "token) or more; 1 samples the model's own "
                        "probabilities.");
    if (o.topK < 0)
        throw UserError("top-k", "top-k must be 0 (every token) or a whole number from 1.");
    if (!(o.topP > 0.0 && o.topP <= 1.0))
        throw UserError("top-p", "top-p must be above 0 and at most 1 (1 keeps every token).");
}

SampledToken sampleToken(const Tensor& logits, const SamplingOptions& o,
                         TorchGenerator& generator) {
    checkSamplingOptions(o);
    const float* z = logits.data();
    const int64_t V = logits.numel();
    const double lse = logSumExp(z, V);
    SampledToken out;
    if (o.temperature == 0.0) {
        out.id = std::max_element(z, z + V) - z;  // the first maximum: the lower id
        out.probability = 1.0;
        out.modelProbability = std::exp(static_cast<double>(z[out.id]) - lse);
        return out;
    }
    // Candidates by probability, most probable first (equal logits: lower id first).
    std::vector<int64_t> order(static_cast<size_t>(V));
    std::iota(order.begin(), order.end(), int64_t(0));
    const int64_t k = o.topK > 0 ? std::min(o.topK, V) : V;
    const auto before = [&](int64_t x, int64_t y) { return z[x] != z[y] ? z[x] > z[y] : x < y; };
    std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
    order.resize(static_cast<size_t>(k));
    const double mx = z[order.front()];
    std::vector<double> p(order.size());
    double sum = 0.0;
    for (size_t i = 0; i < order.size(); ++i)
        sum += p[i] = std::exp((static_cast<double>(z[order[i]]) - mx) / o.temperature);
    // Top-p: the smallest prefix whose share reaches topP (at least one token).
    size_t keep = order.size();
    if (o.topP < 1.0) {
        double cumulative = 0.0;
        for (size_t i = 0; i < order.size(); ++i) {
            cumulative += p[i] / sum;
            if (cumulative >= o.topP) {
                keep = i + 1;
                break;
            }
        }
    }
    const double kept = std::accumulate(p.begin(), p.begin() + static_cast<long>(keep), 0.0);
    const double u = generator.uniformDouble() * kept;
    double cumulative = 0.0;
    size_t chosen = keep - 1;  // rounding can leave u at the very top
    for (size_t i = 0; i < keep; ++i) {
        cumulative += p[i];
        if (u < cumulative) {
            chosen = i;
            break;
        }
    }
    out.id = order[chosen];
    out.probability = p[chosen] / kept;
    out.modelProbability = std::exp(static_cast<double>(z[out.id]) - lse);
    return out;
}

}  // namespace attn

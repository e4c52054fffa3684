// The forward pass of the chapter-3 modules and the later ones (grouped-query, latent, rotary),
// keeping every intermediate tensor.
// float32 throughout, like the chapter's PyTorch code on CPU.

#include "engine/trace.h"

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <list>
#include <map>
#include <mutex>
#include <tuple>

#include "engine/kernels.h"
#include "engine/rng.h"
#include "engine/rope.h"
#include "engine/step_ids.h"

namespace attn {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMat>;
using MutMap = Eigen::Map<RowMat>;
using StridedConstMap = Eigen::Map<const RowMat, 0, Eigen::OuterStride<>>;
using StridedMap = Eigen::Map<RowMat, 0, Eigen::OuterStride<>>;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// y (n, out) = x (n, in) @ W^T + bias: nn.Linear with weight (out, in), as one job.
kernels::LinearJob linearJob(const float* x, int64_t n, int64_t in, const Tensor& weight,
                             const Tensor* bias, float* y, int64_t out) {
    kernels::LinearJob j;
    j.x = x;
    j.rows = n;
    j.in = in;
    j.xStride = in;
    j.weight = weight.data();
    j.weightStride = in;
    j.bias = bias ? bias->data() : nullptr;
    j.y = y;
    j.out = out;
    j.yStride = out;
    return j;
}

using kernels::softmaxRow;

// One attention "group": a (batch, head) pair whose queries, keys and values are T x dk / dv
// strided slices of the projection outputs.
struct Group {
    const float* q;
    const float* k;
    const float* v;
    int64_t qStride;  // row strides
    int64_t kStride;
    int64_t vStride;
    float* ctx;
    int64_t ctxStride;
};

// Where each (batch entry, head) matrix of a (b, T, heads * hd) or (b, heads, T, hd) tensor
// starts, and its row stride: the first layout is a projection's, the second one the steps
// after QK-norm and RoPE write.
struct HeadLayout {
    const float* base = nullptr;
    int64_t batchStride = 0, headStride = 0, rowStride = 0;
    const float* at(int64_t b, int64_t h) const { return base + b * batchStride + h * headStride; }
    static HeadLayout projection(const Tensor& t, int64_t heads, int64_t hd) {
        const int64_t T = t.size(1), width = heads * hd;
        return {t.data(), T * width, hd, width};
    }
    static HeadLayout byHead(const Tensor& t) {  // (b, heads, T, hd), contiguous
        return {t.data(), t.size(1) * t.size(2) * t.size(3), t.size(2) * t.size(3), t.size(3)};
    }
};

class TraceBuilder {
  public:
    explicit TraceBuilder(const TraceRequest& r) : req_(r), c_(r.config) {}

    Trace run() {
        prepareInputs();
        const int64_t T = T_;
        {
            const auto issues = validate(c_, T);
            if (!issues.empty())
                throw UserError(issues.front().field, issues.front().message);
        }
        plan_ = planSteps(c_, T);
        total_ = static_cast<int>(plan_.size());
        Trace trace;
        trace.config = c_;
        trace.tokens = T;
        makeParameters(trace.parameters);
        trace.parameterCount = parameterCount(c_);
        storeStep(step_id::kInputs, x_);

        switch (c_.variant) {
            case Variant::Simplified:
                runSimplified();
                break;
            case Variant::SelfAttentionV1:
            case Variant::SelfAttention:
            case Variant::Causal:
                runSingleHead(trace.parameters);
                break;
            case Variant::MultiHeadWrapper:
                runWrapper(trace.parameters);
                break;
            case Variant::MultiHead:
                runMultiHead(trace.parameters);
                break;
            case Variant::GroupedQuery:
            case Variant::Latent:
            case Variant::Rotary:
                runAfterChapter3(trace.parameters);
                break;
        }

        for (const StepInfo& info : plan_) {
            auto it = values_.find(info.id);
            if (it == values_.end())
                throw std::logic_error("engine computed no step " + info.id);
            if (it->second.shape() != info.shape)
                throw std::logic_error("engine step " + info.id + " has shape " +
                                       shapeToString(it->second.shape()) + ", planned " +
                                       shapeToString(info.shape));
            trace.steps.push_back(Step{info, it->second});
        }
        return trace;
    }

  private:
    void prepareInputs() {
        const Tensor& in = req_.inputs;
        if (in.empty() || in.numel() == 0)
            throw UserError("input", "There are no tokens: type some text or pick a preset.");
        if (in.dim() == 2) {
            T_ = in.size(0);
            if (in.size(1) != c_.dIn)
                throw UserError("embeddings",
                                "The embeddings have " + std::to_string(in.size(1)) +
                                    " numbers per token, but d_in is " + std::to_string(c_.dIn) +
                                    ". Expected shape (T, d_in) = (" + std::to_string(T_) + ", " +
                                    std::to_string(c_.dIn) + ").");
        } else if (in.dim() == 3) {
            T_ = in.size(1);
            if (in.size(0) != c_.batch || in.size(2) != c_.dIn)
                throw UserError("embeddings",
                                "The embeddings have shape " + shapeToString(in.shape()) +
                                    ", but this model expects (b, T, d_in) = (" +
                                    std::to_string(c_.batch) + ", " + std::to_string(T_) + ", " +
                                    std::to_string(c_.dIn) + ").");
        } else {
            throw UserError("embeddings", "The embeddings have shape " + shapeToString(in.shape()) +
                                              "; expected (T, d_in) or (b, T, d_in).");
        }
        if (c_.batch < 1 || c_.batch > (1 << 20)) {
            const auto issues = validate(c_, T_);
            if (!issues.empty())
                throw UserError(issues.front().field, issues.front().message);
        }
        if (in.dim() == 3) {
            x_ = in.contiguous();
        } else {
            // The chapter stacks the same input `batch` times: torch.stack((x, x)).
            const std::vector<float> one = in.toVector();
            std::vector<float> all;
            all.reserve(one.size() * static_cast<size_t>(c_.batch));
            for (int64_t b = 0; b < c_.batch; ++b)
                all.insert(all.end(), one.begin(), one.end());
            x_ = Tensor(Shape{c_.batch, T_, c_.dIn}, std::move(all));
        }
    }

    // Parameters in the order the module's constructor creates them, drawn from
    // torch.manual_seed(seed) unless given explicitly.
    void makeParameters(WeightMap& params) {
        const auto shapes = parameterShapes(c_);
        // Draw as the module's constructor does even when weights are given: PyTorch code that
        // loads a state_dict after torch.manual_seed(seed) has the generator in this state when
        // dropout draws. The draws for GPT-2-sized modules take milliseconds, so the last few
        // parameter sets are cached (a keystroke changes the text, not the module).
        // Without dropout the generator is never used again, so explicit weights need no draws
        // (a GPT-2 XL layer trace would otherwise draw 10 million numbers for nothing).
        const bool drawsNeeded = !req_.weights || c_.dropoutActive();
        if (drawsNeeded && !cachedParameters(params)) {
            TorchGenerator gen(c_.seed);
            for (size_t i = 0; i < shapes.size(); ++i) {
                const auto& [name, shape] = shapes[i];
                Tensor t = Tensor::uninitialized(shape);
                if (c_.variant == Variant::SelfAttentionV1) {
                    gen.rand(t.mutableData(), t.numel());  // nn.Parameter(torch.rand(d_in, d_out))
                } else if (name.ends_with(".weight")) {
                    const bool hasBias =
                        i + 1 < shapes.size() && shapes[i + 1].first.ends_with(".bias");
                    Tensor bias;
                    if (hasBias)
                        bias = Tensor::uninitialized(shapes[i + 1].second);
                    linearInit(gen, shape[1], shape[0], t.mutableData(),
                               hasBias ? bias.mutableData() : nullptr);
                    if (hasBias)
                        params[shapes[i + 1].first] = bias;
                } else if (name.ends_with(".scale")) {
                    std::fill_n(t.mutableData(), t.numel(), 1.0f);  // RMSNorm: ones, no draws
                } else {
                    continue;  // a bias, drawn with its weight
                }
                params[name] = t;
            }
            rngAfterInit_ = gen;
            storeParameters(params);
        }
        if (!req_.weights)
            return;
        for (const auto& [name, shape] : shapes) {
            auto it = req_.weights->find(name);
            if (it == req_.weights->end())
                throw UserError("weights", "The weights have no \"" + name + "\" (shape " +
                                               shapeToString(shape) + "), which " +
                                               variantClassName(c_.variant) + " needs.");
            if (it->second.shape() != shape)
                throw UserError("weights",
                                "\"" + name + "\" has shape " + shapeToString(it->second.shape()) +
                                    " but this model needs " + shapeToString(shape) + ".");
            params[name] = it->second.contiguous();
        }
        // A trained Qwen2 layer's query, key and value biases, which the rotary module has not.
        if (req_.modelLayer && req_.modelLayer->qkvBias)
            for (const char* bias : {"W_query.bias", "W_key.bias", "W_value.bias"}) {
                auto it = req_.weights->find(bias);
                if (it == req_.weights->end())
                    throw UserError("weights", std::string("The weights have no \"") + bias +
                                                   "\", which this model's attention needs.");
                params[bias] = it->second.contiguous();
            }
    }

    // What the drawn parameters depend on: the variant, its sizes and the seed.
    using ParamKey = std::tuple<Variant, int64_t, int64_t, int64_t, bool, uint64_t, int64_t,
                                int64_t, int64_t, bool>;
    struct ParamEntry {
        ParamKey key;
        WeightMap params;
        TorchGenerator after;
    };
    static std::mutex& cacheMutex() {
        static std::mutex m;
        return m;
    }
    static std::list<ParamEntry>& cache() {
        static std::list<ParamEntry> c;
        return c;
    }
    ParamKey paramKey() const {
        return {c_.variant,
                c_.dIn,
                c_.dOut,
                c_.effectiveHeads(),
                c_.qkvBias,
                c_.seed,
                c_.effectiveKvGroups(),
                c_.variant == Variant::Latent ? c_.effectiveLatentDim() : 0,
                c_.headSize(),
                c_.qkNorm};
    }
    bool cachedParameters(WeightMap& params) {
        std::lock_guard lock(cacheMutex());
        auto& c = cache();
        for (auto it = c.begin(); it != c.end(); ++it)
            if (it->key == paramKey()) {
                c.splice(c.begin(), c, it);  // most recently used first
                params = c.front().params;   // tensors share storage; parameters are never written
                rngAfterInit_ = c.front().after;
                return true;
            }
        return false;
    }
    void storeParameters(const WeightMap& params) {
        std::lock_guard lock(cacheMutex());
        auto& c = cache();
        c.push_front(ParamEntry{paramKey(), params, rngAfterInit_});
        while (c.size() > 4)
            c.pop_back();
    }

    bool cancelled() const { return req_.cancel && req_.cancel->cancelled(); }

    void storeStep(const std::string& id, Tensor value) {
        values_[id] = std::move(value);
        ++stepsStored_;
        throwIfCancelled(req_.cancel);
        if (req_.progress)
            req_.progress(stepsStored_, total_, id);
    }

    // The job that makes y (n, d_out) from x with the module's projection `prefix`.
    kernels::LinearJob projectionJob(const WeightMap& p, const std::string& prefix, const float* x,
                                     int64_t n, float* y) const {
        if (c_.variant == Variant::SelfAttentionV1) {
            // queries = x @ W_query, W (d_in, d_out)
            kernels::LinearJob j = linearJob(x, n, c_.dIn, p.at(prefix), nullptr, y, c_.dOut);
            j.inputMajor = true;
            j.weightStride = c_.dOut;
            return j;
        }
        return namedLinear(p, prefix, x, n, c_.dIn, y, c_.dOut);
    }

    Tensor maskTensor() const {
        const MaskSpec m = c_.effectiveMask();
        Tensor mask(Shape{T_, T_});
        float* d = mask.mutableData();
        for (int64_t i = 0; i < T_; ++i)
            for (int64_t j = 0; j < T_; ++j) {
                const bool hidden = j > i || (m.kind == MaskKind::Window && j <= i - m.window);
                d[i * T_ + j] = hidden ? 1.0f : 0.0f;
            }
        return mask;
    }

    // scores -> mask -> masked -> scaled -> softmax -> (simple method) -> dropout -> context, for
    // all groups at once; `dropoutCalls` splits the dropout draws as the module's forward does
    // (one nn.Dropout call per CausalAttention head in the wrapper).
    void attend(const std::vector<Group>& groups, int64_t dk, const Shape& ttShape,
                int dropoutCalls, bool scale) {
        const int64_t G = static_cast<int64_t>(groups.size());
        const int64_t TT = T_ * T_;
        const int64_t dv = groups.empty() ? 0 : vCols_;

        // scores = q @ k^T: per group a product with the keys in nn.Linear's (out, in) place.
        Tensor scores = Tensor::uninitialized(ttShape);
        float* s = scores.mutableData();
        std::vector<kernels::LinearJob> jobs(groups.size());
        for (int64_t g = 0; g < G; ++g) {
            const Group& gr = groups[static_cast<size_t>(g)];
            kernels::LinearJob& j = jobs[static_cast<size_t>(g)];
            j.x = gr.q;
            j.rows = T_;
            j.in = dk;
            j.xStride = gr.qStride;
            j.weight = gr.k;
            j.weightStride = gr.kStride;
            j.y = s + g * TT;
            j.out = T_;
            j.yStride = T_;
        }
        kernels::linear(jobs, req_.cancel);
        storeStep(step_id::kScores, scores);

        const MaskSpec m = c_.effectiveMask();
        const bool masked = m.kind != MaskKind::None;
        const bool simple = masked && c_.simpleMaskSteps;
        Tensor mask, maskedScores, scaledScores, unmasked, tril, renorm;
        // Every mask hides everything above the diagonal, so the steps that are constant there
        // (masked scores: -inf; the simple method's masked and renormalised weights: 0) keep
        // only their lower triangles. `weights` stays whole: the context product reads it.
        if (masked) {
            mask = maskTensor();
            storeStep(step_id::kMask, mask);
            maskedScores = Tensor::lowerTriangular(ttShape, kNegInf);
        }
        if (scale)
            scaledScores = Tensor::uninitialized(ttShape);
        Tensor weights = Tensor::uninitialized(ttShape);
        if (simple) {
            unmasked = Tensor::uninitialized(ttShape);
            tril = Tensor::lowerTriangular(ttShape, 0.0f);
            renorm = Tensor::lowerTriangular(ttShape, 0.0f);
        }
        // The chapter divides by keys.shape[-1]**0.5, a Python float (d_k ** 0.5 in double);
        // PyTorch then divides the float32 scores by it as a float32 scalar.
        const float root = static_cast<float>(std::pow(static_cast<double>(dk), 0.5));
        // A trained Gemma 3 layer scales by query_pre_attn_scalar^-0.5 instead.
        const float factor =
            static_cast<float>(req_.modelLayer ? req_.modelLayer->scoreScale : 0.0);
        const float* md = masked ? mask.data() : nullptr;
        const int64_t rows = G * T_;
        // One pass per row through every elementwise step, while the row is in cache:
        //   masked = masked_fill(scores, mask, -inf); scaled = masked / sqrt(d_k);
        //   weights = softmax(scaled); and the simple method: unmasked = softmax(scores /
        //   sqrt(d_k)), tril = unmasked * (1 - mask), renormalized = tril / rowsum(tril).
#pragma omp parallel if (rows * T_ > 65536)
        {
            std::vector<float> tmp(static_cast<size_t>(T_));
            std::vector<float> maskedRow(static_cast<size_t>(T_));
            std::vector<float> trilRow(static_cast<size_t>(T_));
#pragma omp for schedule(static, 64)
            for (int64_t row = 0; row < rows; ++row) {
                if (cancelled())
                    continue;  // a relaxed atomic load: cheap next to a row
                const int64_t off = row * T_;
                const int64_t i = row % T_, matrix = row / T_;
                const float* mrow = masked ? md + i * T_ : nullptr;
                const float* in = s + off;
                if (masked) {
                    float* o = maskedRow.data();
                    for (int64_t j = 0; j < T_; ++j)
                        o[j] = mrow[j] != 0.0f ? kNegInf : in[j];
                    std::copy_n(o, i + 1, maskedScores.lowerRow(matrix, i));
                    in = o;
                }
                if (scale) {
                    float* o = scaledScores.mutableData() + off;
                    if (factor > 0.0f)
                        for (int64_t j = 0; j < T_; ++j)
                            o[j] = in[j] * factor;
                    else
                        for (int64_t j = 0; j < T_; ++j)
                            o[j] = in[j] / root;
                    in = o;
                }
                softmaxRow(in, weights.mutableData() + off, T_);
                if (simple) {
                    const float* raw = s + off;
                    if (scale) {
                        for (int64_t j = 0; j < T_; ++j)
                            tmp[static_cast<size_t>(j)] =
                                factor > 0.0f ? raw[j] * factor : raw[j] / root;
                        raw = tmp.data();
                    }
                    float* u = unmasked.mutableData() + off;
                    softmaxRow(raw, u, T_);
                    // The sum runs over the whole row as the chapter's t.sum(dim=-1) does
                    // (the hidden entries add exact zeros).
                    float* t = trilRow.data();
                    float sum = 0.0f;
                    for (int64_t j = 0; j < T_; ++j) {
                        t[j] = u[j] * (1.0f - mrow[j]);
                        sum += t[j];
                    }
                    std::copy_n(t, i + 1, tril.lowerRow(matrix, i));
                    float* r = renorm.lowerRow(matrix, i);
                    for (int64_t j = 0; j <= i; ++j)
                        r[j] = t[j] / sum;
                }
            }
        }
        throwIfCancelled(req_.cancel);
        if (masked)
            storeStep(step_id::kMaskedScores, maskedScores);
        if (scale)
            storeStep(step_id::kScaledScores, scaledScores);
        storeStep(step_id::kWeights, weights);
        if (simple) {
            storeStep(step_id::kWeightsUnmasked, unmasked);
            storeStep(step_id::kWeightsTril, tril);
            storeStep(step_id::kWeightsRenormalized, renorm);
        }

        Tensor used = weights;
        if (c_.dropoutActive()) {
            Tensor keep = Tensor::uninitialized(ttShape);
            const int64_t n = G * TT;
            const int64_t perCall = n / dropoutCalls;
            for (int call = 0; call < dropoutCalls; ++call)
                dropoutKeepMask(rngAfterInit_, c_.dropout, c_.dropoutRng == DropoutRng::Mkl,
                                keep.mutableData() + call * perCall, perCall);
            storeStep(step_id::kDropoutMask, keep);
            Tensor dropped = Tensor::uninitialized(ttShape);
            // PyTorch: noise.div_(1 - p) in float32, then input * noise.
            const float scaleKeep = 1.0f / static_cast<float>(1.0 - c_.dropout);
            const float* w = weights.data();
            const float* kp = keep.data();
            float* o = dropped.mutableData();
            for (int64_t k = 0; k < n; ++k)
                o[k] = w[k] * (kp[k] * scaleKeep);
            storeStep(step_id::kDroppedWeights, dropped);
            used = dropped;
        }

        // context = weights @ values: the values are an input-major (T, dv) weight.
        const float* wd = used.data();
        for (int64_t g = 0; g < G; ++g) {
            const Group& gr = groups[static_cast<size_t>(g)];
            kernels::LinearJob& j = jobs[static_cast<size_t>(g)];
            j.x = wd + g * TT;
            j.rows = T_;
            j.in = T_;
            j.xStride = T_;
            j.weight = gr.v;
            j.weightStride = gr.vStride;
            j.inputMajor = true;
            j.y = gr.ctx;
            j.out = dv;
            j.yStride = gr.ctxStride;
        }
        kernels::linear(jobs, req_.cancel);
    }

    void runSimplified() {
        const int64_t d = c_.dIn;
        vCols_ = d;
        Tensor context = Tensor::uninitialized(Shape{c_.batch, T_, d});
        std::vector<Group> groups;
        for (int64_t b = 0; b < c_.batch; ++b) {
            const float* xb = x_.data() + b * T_ * d;
            groups.push_back({xb, xb, xb, d, d, d, context.mutableData() + b * T_ * d, d});
        }
        attend(groups, d, {c_.batch, T_, T_}, 1, false);
        storeStep(step_id::kContext, context);
        storeStep(step_id::kOutput, context);
    }

    // queries, keys, values (b, T, d_out), in the order the chapter lists them.
    std::array<Tensor, 3> projectQkv(const WeightMap& p) {
        const int64_t n = c_.batch * T_;
        std::array<Tensor, 3> qkv;
        const char* mats[] = {"W_query", "W_key", "W_value"};
        const char* ids[] = {step_id::kQueries, step_id::kKeys, step_id::kValues};
        std::array<kernels::LinearJob, 3> jobs;
        for (int m = 0; m < 3; ++m) {
            qkv[m] = Tensor::uninitialized(Shape{c_.batch, T_, c_.dOut});
            jobs[m] = projectionJob(p, mats[m], x_.data(), n, qkv[m].mutableData());
        }
        // One parallel region for the three products: more chunks to share between the cores.
        kernels::linear(jobs, req_.cancel);
        for (int m = 0; m < 3; ++m)
            storeStep(ids[m], qkv[m]);
        return qkv;
    }

    void runSingleHead(const WeightMap& p) {
        const auto [q, k, v] = projectQkv(p);
        vCols_ = c_.dOut;
        Tensor context = Tensor::uninitialized(Shape{c_.batch, T_, c_.dOut});
        std::vector<Group> groups;
        const int64_t stride = T_ * c_.dOut;
        for (int64_t b = 0; b < c_.batch; ++b)
            groups.push_back({q.data() + b * stride, k.data() + b * stride, v.data() + b * stride,
                              c_.dOut, c_.dOut, c_.dOut, context.mutableData() + b * stride,
                              c_.dOut});
        attend(groups, c_.dOut, {c_.batch, T_, T_}, 1, true);
        storeStep(step_id::kContext, context);
        storeStep(step_id::kOutput, context);
    }

    void runWrapper(const WeightMap& p) {
        const int64_t H = c_.heads, B = c_.batch, n = B * T_, dO = c_.dOut;
        Tensor qkv[3];
        const char* mats[] = {"W_query", "W_key", "W_value"};
        const char* ids[] = {step_id::kQueries, step_id::kKeys, step_id::kValues};
        for (int m = 0; m < 3; ++m) {
            qkv[m] = Tensor::uninitialized(Shape{H, B, T_, dO});
            std::vector<kernels::LinearJob> jobs;
            for (int64_t h = 0; h < H; ++h)
                jobs.push_back(projectionJob(p, "heads." + std::to_string(h) + "." + mats[m],
                                             x_.data(), n, qkv[m].mutableData() + h * n * dO));
            kernels::linear(jobs, req_.cancel);
            storeStep(ids[m], qkv[m]);
        }
        vCols_ = dO;
        Tensor context = Tensor::uninitialized(Shape{H, B, T_, dO});
        std::vector<Group> groups;
        for (int64_t h = 0; h < H; ++h)
            for (int64_t b = 0; b < B; ++b) {
                const int64_t off = (h * B + b) * T_ * dO;
                groups.push_back({qkv[0].data() + off, qkv[1].data() + off, qkv[2].data() + off, dO,
                                  dO, dO, context.mutableData() + off, dO});
            }
        attend(groups, dO, {H, B, T_, T_}, static_cast<int>(H), true);
        storeStep(step_id::kContext, context);
        // torch.cat([head(x) for head in self.heads], dim=-1)
        Tensor out = Tensor::uninitialized(Shape{B, T_, H * dO});
        float* o = out.mutableData();
        const float* cd = context.data();
        for (int64_t h = 0; h < H; ++h)
            for (int64_t bt = 0; bt < n; ++bt)
                std::copy_n(cd + (h * n + bt) * dO, dO, o + bt * H * dO + h * dO);
        storeStep(step_id::kOutput, out);
    }

    void runMultiHead(const WeightMap& p) {
        const int64_t B = c_.batch, H = c_.heads, dO = c_.dOut, hd = dO / H, n = B * T_;
        const auto [q, k, v] = projectQkv(p);
        // .view shares storage; .transpose(1, 2) only swaps strides.
        const Shape split{B, T_, H, hd};
        storeStep(step_id::kQueriesSplit, q.view(split));
        storeStep(step_id::kKeysSplit, k.view(split));
        storeStep(step_id::kValuesSplit, v.view(split));
        storeStep(step_id::kQueriesHeads, q.view(split).transpose(1, 2));
        storeStep(step_id::kKeysHeads, k.view(split).transpose(1, 2));
        storeStep(step_id::kValuesHeads, v.view(split).transpose(1, 2));

        // Context is written straight into the (b, T, h, hd) layout that .contiguous() would
        // produce, so context_heads is a strided view and context a free reshape.
        vCols_ = hd;
        Tensor ctxBuffer = Tensor::uninitialized(Shape{B, T_, H, hd});
        std::vector<Group> groups;
        for (int64_t b = 0; b < B; ++b)
            for (int64_t h = 0; h < H; ++h) {
                const int64_t off = b * T_ * dO + h * hd;
                groups.push_back({q.data() + off, k.data() + off, v.data() + off, dO, dO, dO,
                                  ctxBuffer.mutableData() + off, dO});
            }
        attend(groups, hd, {B, H, T_, T_}, 1, true);
        storeStep(step_id::kContextHeads, ctxBuffer.transpose(1, 2));
        storeStep(step_id::kContextTransposed, ctxBuffer);
        const Tensor context = ctxBuffer.view({B, T_, dO});
        storeStep(step_id::kContext, context);
        Tensor out = Tensor::uninitialized(Shape{B, T_, dO});
        const kernels::LinearJob job = linearJob(context.data(), n, dO, p.at("out_proj.weight"),
                                                 &p.at("out_proj.bias"), out.mutableData(), dO);
        kernels::linear({&job, 1}, req_.cancel);
        storeStep(step_id::kOutput, out);
    }

    // y (n, out) = x (n, in) @ W^T + b with the module's linear layer `prefix` (bias if it has).
    static kernels::LinearJob namedLinear(const WeightMap& p, const std::string& prefix,
                                          const float* x, int64_t n, int64_t in, float* y,
                                          int64_t out) {
        auto bias = p.find(prefix + ".bias");
        return linearJob(x, n, in, p.at(prefix + ".weight"),
                         bias == p.end() ? nullptr : &bias->second, y, out);
    }

    // RMSNorm over each head's hd numbers (the book's RMSNorm, eps 1e-6, computed in float32):
    // x * rsqrt(mean(x^2) + eps) * scale, from `in` into (b, heads, T, hd).
    Tensor rmsNormHeads(const HeadLayout& in, int64_t heads, int64_t hd, const Tensor& scale) {
        const float eps = static_cast<float>(req_.modelLayer ? req_.modelLayer->qkNormEps : 1e-6);
        Tensor out = Tensor::uninitialized(Shape{c_.batch, heads, T_, hd});
        float* o = out.mutableData();
        const float* g = scale.data();
        for (int64_t b = 0; b < c_.batch; ++b)
            for (int64_t h = 0; h < heads; ++h)
                for (int64_t t = 0; t < T_; ++t) {
                    const float* x = in.at(b, h) + t * in.rowStride;
                    float sum = 0.0f;
                    for (int64_t j = 0; j < hd; ++j)
                        sum += x[j] * x[j];
                    const float inv = 1.0f / std::sqrt(sum / static_cast<float>(hd) + eps);
                    float* y = o + ((b * heads + h) * T_ + t) * hd;
                    for (int64_t j = 0; j < hd; ++j)
                        y[j] = (x[j] * inv) * g[j];
                }
        return out;
    }

    // compute_rope_params for the first T positions.
    std::pair<Tensor, Tensor> ropeTables(int64_t hd) const {
        RopeSpec spec;
        spec.base = c_.ropeBase;
        return rope::tables(hd, T_, req_.modelLayer ? req_.modelLayer->rope : spec);
    }

    // apply_rope: x * cos + cat(-x2, x1) * sin over each head's hd numbers (x1 the first half,
    // x2 the second), from `in` into (b, heads, T, hd).
    Tensor rotate(const HeadLayout& in, int64_t heads, int64_t hd, const Tensor& cos,
                  const Tensor& sin) {
        Tensor out = Tensor::uninitialized(Shape{c_.batch, heads, T_, hd});
        float* o = out.mutableData();
        for (int64_t b = 0; b < c_.batch; ++b)
            for (int64_t h = 0; h < heads; ++h)
                for (int64_t t = 0; t < T_; ++t)
                    rope::rotate(in.at(b, h) + t * in.rowStride, cos.data() + t * hd,
                                 sin.data() + t * hd, hd, o + ((b * heads + h) * T_ + t) * hd);
        return out;
    }

    // grouped-query, latent and rotary (section 9.1).
    void runAfterChapter3(const WeightMap& p) {
        const Variant v = c_.variant;
        const bool grouped = variantHasKvGroups(v);
        const int64_t B = c_.batch, H = c_.effectiveHeads(), hd = c_.headSize(), n = B * T_;
        const int64_t G = grouped ? c_.effectiveKvGroups() : H, perGroup = H / G;
        const int64_t qWidth = c_.queryWidth(), kvWidth = G * hd;
        Tensor q = Tensor::uninitialized(Shape{B, T_, qWidth});
        Tensor k = Tensor::uninitialized(Shape{B, T_, kvWidth});
        Tensor val = Tensor::uninitialized(Shape{B, T_, kvWidth});
        if (v == Variant::Latent) {
            const int64_t L = c_.effectiveLatentDim();
            Tensor latent = Tensor::uninitialized(Shape{B, T_, L});
            const std::array<kernels::LinearJob, 2> first = {
                namedLinear(p, "W_query", x_.data(), n, c_.dIn, q.mutableData(), qWidth),
                namedLinear(p, "W_DKV", x_.data(), n, c_.dIn, latent.mutableData(), L)};
            kernels::linear(first, req_.cancel);
            storeStep(step_id::kQueries, q);
            storeStep(step_id::kLatent, latent);
            const std::array<kernels::LinearJob, 2> up = {
                namedLinear(p, "W_UK", latent.data(), n, L, k.mutableData(), kvWidth),
                namedLinear(p, "W_UV", latent.data(), n, L, val.mutableData(), kvWidth)};
            kernels::linear(up, req_.cancel);
        } else {
            const std::array<kernels::LinearJob, 3> jobs = {
                namedLinear(p, "W_query", x_.data(), n, c_.dIn, q.mutableData(), qWidth),
                namedLinear(p, "W_key", x_.data(), n, c_.dIn, k.mutableData(), kvWidth),
                namedLinear(p, "W_value", x_.data(), n, c_.dIn, val.mutableData(), kvWidth)};
            kernels::linear(jobs, req_.cancel);
            storeStep(step_id::kQueries, q);
        }
        storeStep(step_id::kKeys, k);
        storeStep(step_id::kValues, val);
        storeStep(step_id::kQueriesSplit, q.view({B, T_, H, hd}));
        storeStep(step_id::kKeysSplit, k.view({B, T_, G, hd}));
        storeStep(step_id::kValuesSplit, val.view({B, T_, G, hd}));
        storeStep(step_id::kQueriesHeads, q.view({B, T_, H, hd}).transpose(1, 2));
        Tensor keys = k.view({B, T_, G, hd}).transpose(1, 2);
        const Tensor values = val.view({B, T_, G, hd}).transpose(1, 2);
        storeStep(grouped ? step_id::kKeysGroups : step_id::kKeysHeads, keys);
        storeStep(grouped ? step_id::kValuesGroups : step_id::kValuesHeads, values);

        HeadLayout qLay = HeadLayout::projection(q, H, hd);
        HeadLayout kLay = HeadLayout::projection(k, G, hd);
        const HeadLayout vLay = HeadLayout::projection(val, G, hd);
        Tensor qNow, kNow;  // the latest (b, heads, T, hd) queries and keys the module made
        if (v == Variant::Rotary && c_.qkNorm) {
            qNow = rmsNormHeads(qLay, H, hd, p.at("q_norm.scale"));
            storeStep(step_id::kQueriesNormed, qNow);
            kNow = rmsNormHeads(kLay, G, hd, p.at("k_norm.scale"));
            storeStep(step_id::kKeysNormed, kNow);
            qLay = HeadLayout::byHead(qNow);
            kLay = HeadLayout::byHead(kNow);
            keys = kNow;
        }
        if (c_.ropeActive()) {
            const auto [cos, sin] = ropeTables(hd);
            storeStep(step_id::kRopeCos, cos);
            storeStep(step_id::kRopeSin, sin);
            qNow = rotate(qLay, H, hd, cos, sin);
            storeStep(step_id::kQueriesRotated, qNow);
            kNow = rotate(kLay, G, hd, cos, sin);
            storeStep(step_id::kKeysRotated, kNow);
            qLay = HeadLayout::byHead(qNow);
            kLay = HeadLayout::byHead(kNow);
            keys = kNow;
        }
        if (grouped) {
            // repeat_interleave(group_size, dim=1) as a view: head h reads group h / group_size.
            storeStep(step_id::kKeysRepeated, keys.repeatInterleave(1, perGroup));
            storeStep(step_id::kValuesRepeated, values.repeatInterleave(1, perGroup));
        }

        vCols_ = hd;
        Tensor ctxBuffer = Tensor::uninitialized(Shape{B, T_, H, hd});
        std::vector<Group> groups;
        for (int64_t b = 0; b < B; ++b)
            for (int64_t h = 0; h < H; ++h)
                groups.push_back({qLay.at(b, h), kLay.at(b, h / perGroup), vLay.at(b, h / perGroup),
                                  qLay.rowStride, kLay.rowStride, vLay.rowStride,
                                  ctxBuffer.mutableData() + b * T_ * qWidth + h * hd, qWidth});
        attend(groups, hd, {B, H, T_, T_}, 1, true);
        storeStep(step_id::kContextHeads, ctxBuffer.transpose(1, 2));
        storeStep(step_id::kContextTransposed, ctxBuffer);
        const Tensor context = ctxBuffer.view({B, T_, qWidth});
        storeStep(step_id::kContext, context);
        const int64_t outWidth = c_.outputWidth();
        Tensor out = Tensor::uninitialized(Shape{B, T_, outWidth});
        const kernels::LinearJob job =
            namedLinear(p, "out_proj", context.data(), n, qWidth, out.mutableData(), outWidth);
        kernels::linear({&job, 1}, req_.cancel);
        storeStep(step_id::kOutput, out);
    }

    const TraceRequest& req_;
    Config c_;
    Tensor x_;
    int64_t T_ = 0;
    int64_t vCols_ = 0;
    TorchGenerator rngAfterInit_{0};
    std::vector<StepInfo> plan_;
    std::map<std::string, Tensor> values_;
    int stepsStored_ = 0;
    int total_ = 0;
};

}  // namespace

const Step* Trace::find(std::string_view id) const {
    for (const Step& s : steps)
        if (s.info.id == id)
            return &s;
    return nullptr;
}

const Tensor& Trace::output() const {
    static const Tensor empty;
    const Step* s = find(step_id::kOutput);
    return s ? s->value : empty;
}

StepSlice sliceStepValues(const Step& step, int64_t head, int64_t batch) {
    StepSlice out;
    Tensor t = step.value;
    std::vector<std::string> dims = step.info.dims;
    if (dims.size() != size_t(t.dim())) {  // unnamed dims: keep what fits, name the rest
        dims.resize(size_t(t.dim()));
        for (size_t i = 0; i < dims.size(); ++i)
            if (dims[i].empty())
                dims[i] = "dim" + std::to_string(i);
    }
    if (t.empty() || t.numel() == 0) {
        out.values = t;
        out.dims = dims;
        return out;
    }
    StepInfo named = step.info;
    named.dims = dims;
    if (const int64_t hd = named.headAxis(); hd >= 0) {
        // A key/value group axis shows the group the picked query head reads; the head stays
        // the query head, so it is the same head on every step.
        const int64_t perIndex = named.queryHeadsPerIndex();
        out.head = std::clamp<int64_t>(head, 0, t.size(hd) * perIndex - 1);
        t = t.select(hd, out.head / perIndex);
        dims.erase(dims.begin() + hd);
    }
    named.dims = dims;
    if (const int64_t bd = named.batchAxis(); bd >= 0) {
        out.batchSize = t.size(bd);
        out.batch = std::clamp<int64_t>(batch, 0, t.size(bd) - 1);
        t = t.select(bd, out.batch);
        dims.erase(dims.begin() + bd);
    }
    while (t.dim() > 2 && dims.front() != "T") {
        t = t.select(0, 0);
        dims.erase(dims.begin());
    }
    out.values = t;
    out.dims = std::move(dims);
    return out;
}

SliceLabels sliceLabels(const StepSlice& slice, const std::vector<std::string>& tokens) {
    const Tensor& t = slice.values;
    const auto& dims = slice.dims;
    auto label = [&](const std::string& dim, int64_t i) {
        return dim == "T" && size_t(i) < tokens.size() ? tokens[size_t(i)] : std::to_string(i);
    };
    SliceLabels out;
    if (t.empty() || t.numel() == 0)
        return out;
    if (t.dim() == 0) {
        out.rows = {"0"};
        out.cols = {"0"};
        return out;
    }
    if (t.dim() == 1) {
        out.rows = {""};
        for (int64_t j = 0; j < t.size(0); ++j)
            out.cols.push_back(label(dims[0], j));
        return out;
    }
    for (int64_t i = 0; i < t.size(0); ++i)
        out.rows.push_back(label(dims[0], i));
    if (t.dim() == 2) {
        for (int64_t j = 0; j < t.size(1); ++j)
            out.cols.push_back(label(dims[1], j));
        return out;
    }
    // Merged trailing dims: the multi-index of each column, e.g. "1.0" = head 1, feature 0.
    const int64_t cols = t.numel() / t.size(0);
    for (int64_t c = 0; c < cols; ++c) {
        std::string name;
        int64_t rest = c;
        for (int64_t k = t.dim() - 1; k >= 1; --k) {
            const std::string part = std::to_string(rest % t.size(k));
            name = k == t.dim() - 1 ? part : part + "." + name;
            rest /= t.size(k);
        }
        out.cols.push_back(std::move(name));
    }
    return out;
}

Tensor stepMatrix(const Step& step, int64_t head, int64_t batch) {
    return stepMatrix(sliceStepValues(step, head, batch));
}

Tensor stepMatrix(const StepSlice& slice) {
    const Tensor& t = slice.values;
    if (t.empty())
        return t;
    if (t.dim() == 0)
        return t.contiguous().view({1, 1});
    if (t.dim() == 1)
        return t.view({1, t.size(0)});
    if (t.dim() == 2)
        return t;
    return t.contiguous().view({t.size(0), t.numel() / t.size(0)});  // (T, h, hd) -> (T, h * hd)
}

Trace runTrace(const TraceRequest& request) {
    return TraceBuilder(request).run();
}

}  // namespace attn

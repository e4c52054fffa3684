#include "engine/kernels.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace attn::kernels {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using StridedConstMap = Eigen::Map<const RowMat, 0, Eigen::OuterStride<>>;
using StridedMap = Eigen::Map<RowMat, 0, Eigen::OuterStride<>>;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// Multiply-adds below which a product runs on one thread: waking the second one costs more.
constexpr int64_t kParallelWork = int64_t(1) << 21;
// Multiply-adds per chunk at most (a quarter of a millisecond on one core): enough chunks to
// share between the cores, and a cancel request is seen within a few milliseconds even inside
// the largest products.
constexpr int64_t kChunkWork = int64_t(1) << 23;
// Columns per chunk at least: each chunk packs all of x again, so narrow chunks waste time.
constexpr int64_t kMinChunkColumns = 64;

// Every product is split between threads here (or runs inside a parallel loop), never by
// Eigen itself: Eigen's own split changes its blocking with the number of threads and with it
// the last bits of the results, so the same input would not always give the same numbers.
const bool kEigenSingleThreaded = [] {
    Eigen::setNbThreads(1);
    return true;
}();

struct Chunk {
    const LinearJob* job;
    int64_t c0, c1;
};

void runChunk(const Chunk& c) {
    const LinearJob& j = *c.job;
    const int64_t cols = c.c1 - c.c0;
    StridedMap y(j.y + c.c0, j.rows, cols, Eigen::OuterStride<>(j.yStride));
    const StridedConstMap x(j.x, j.rows, j.in, Eigen::OuterStride<>(j.xStride));
    if (j.inputMajor)
        y.noalias() =
            x * StridedConstMap(j.weight + c.c0, j.in, cols, Eigen::OuterStride<>(j.weightStride));
    else
        y.noalias() = x * StridedConstMap(j.weight + c.c0 * j.weightStride, cols, j.in,
                                          Eigen::OuterStride<>(j.weightStride))
                              .transpose();
    if (j.bias)
        y.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(j.bias + c.c0, cols);
}

int maxThreads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

}  // namespace

void linear(std::span<const LinearJob> jobs, const CancelToken* cancel) {
    // Chunks depend on the sizes only, never on the number of threads, so every run computes
    // each output column the same way. Each is a whole number of 16-column SIMD panels unless
    // the job is narrower.
    std::vector<Chunk> chunks;
    int64_t work = 0;
    for (const LinearJob& j : jobs) {
        const int64_t jobWork = j.rows * j.in * j.out;
        work += jobWork;
        const int64_t n = std::max<int64_t>((jobWork + kChunkWork - 1) / kChunkWork, 1);
        int64_t width = (j.out + n - 1) / n;
        width = std::max<int64_t>((width + 15) / 16 * 16, kMinChunkColumns);
        for (int64_t c0 = 0; c0 < j.out; c0 += width)
            chunks.push_back({&j, c0, std::min(j.out, c0 + width)});
    }
    const int64_t count = static_cast<int64_t>(chunks.size());
    const int threads = work > kParallelWork ? maxThreads() : 1;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1 && count > 1)
    for (int64_t i = 0; i < count; ++i) {
        if (cancel && cancel->cancelled())
            continue;  // cannot leave an OpenMP loop early: skip the rest
        runChunk(chunks[static_cast<size_t>(i)]);
    }
    throwIfCancelled(cancel);
}

float rowSum(const float* x, int64_t n) {
    // Sixteen running sums, element j in sum j % 16, added up in a fixed order. The compiler
    // vectorises the lanes with unaligned loads; Eigen's sum() instead starts its vector part at
    // the first aligned element, so its rounding would depend on where the row lies in memory.
    float lane[16] = {};
    int64_t j = 0;
    for (; j + 16 <= n; j += 16)
        for (int k = 0; k < 16; ++k)
            lane[k] += x[j + k];
    for (int k = 0; j < n; ++j, ++k)
        lane[k] += x[j];
    for (int w = 8; w >= 1; w /= 2)
        for (int k = 0; k < w; ++k)
            lane[k] += lane[k + w];
    return lane[0];
}

void softmaxRow(const float* in, float* out, int64_t n) {
    using Arr = Eigen::Map<const Eigen::ArrayXf>;
    const Arr z(in, n);
    Eigen::Map<Eigen::ArrayXf> o(out, n);
    const float mx = z.maxCoeff();
    o = (z - mx).exp();
    // Eigen's exp clamps its argument, so exp(-inf) is a denormal, not 0: zero masked keys.
    for (int64_t j = 0; j < n; ++j)
        if (in[j] == kNegInf)
            out[j] = 0.0f;
    o *= 1.0f / rowSum(out, n);
}

void layerNorm(const float* x, int64_t rows, int64_t d, int64_t xStride, const float* scale,
               const float* shift, float* y, int64_t yStride) {
    const Eigen::Map<const Eigen::ArrayXf> g(scale, d), b(shift, d);
#pragma omp parallel for if (rows * d > 262144)
    for (int64_t r = 0; r < rows; ++r) {
        const Eigen::Map<const Eigen::ArrayXf> xr(x + r * xStride, d);
        // Mean and variance in double: PyTorch's float32 reductions are more exact than a
        // plain float loop, and double stays within their rounding.
        const double mean = xr.cast<double>().mean();
        const double var = (xr.cast<double>() - mean).square().mean();
        const float m = static_cast<float>(mean);
        const float inv = 1.0f / std::sqrt(static_cast<float>(var) + 1e-5f);
        Eigen::Map<Eigen::ArrayXf>(y + r * yStride, d) = (xr - m) * inv * g + b;
    }
}

void geluTanh(float* x, int64_t n) {
    // The book's constant: torch.sqrt(torch.tensor(2.0 / torch.pi)), a float32 square root.
    const float c = std::sqrt(static_cast<float>(2.0 / std::numbers::pi));
    constexpr int64_t kBlock = 4096;
#pragma omp parallel for if (n > 262144)
    for (int64_t b = 0; b < n; b += kBlock) {
        Eigen::Map<Eigen::ArrayXf> v(x + b, std::min(kBlock, n - b));
        v = 0.5f * v * (1.0f + (c * (v + 0.044715f * v.cube())).tanh());
    }
}

}  // namespace attn::kernels

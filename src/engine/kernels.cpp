#include "engine/kernels.h"

#include "engine/half.h"
#include "engine/tensor.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>
#include <numbers>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
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
    bool microKernel;         // by the AVX2 micro-kernel below (else by Eigen)
    const float* packedRows;  // x packed for it, or nullptr to read x's rows in place
    int64_t c0, c1;
};

// Grows on demand, one per thread (each chunk runs on one thread), 64-byte aligned.
class Scratch {
  public:
    float* get(size_t n) {
        if (n > size_) {
            std::free(data_);
            size_ = std::max(n, size_ * 2);
            data_ = static_cast<float*>(std::aligned_alloc(64, (size_ * 4 + 63) / 64 * 64));
            if (!data_) {
                size_ = 0;
                throw std::bad_alloc();
            }
        }
        return data_;
    }
    ~Scratch() { std::free(data_); }

  private:
    float* data_ = nullptr;
    size_t size_ = 0;
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ATTN_PACKED_GEMM 1
// Compiled for AVX2 and FMA whatever the build's target (portable and sanitizer builds too, so
// their tests run it), used when the processor has them.
#define ATTN_AVX2 __attribute__((target("avx2,fma")))
const bool kHasAvx2Fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");

// A product of packed panels, as BLIS and OpenBLAS compute it, for x86-64 with AVX2 and FMA:
// on the thin products of attention (64 to 1,024 rows by 768 or 3,072) Eigen's general kernel
// reached about 70% of what OpenBLAS does on one core.
//   x is packed once per product into panels of 6 rows (shared by every chunk and thread);
//   per chunk and block of kKc along the inner dimension, the chunk's weights are packed into
//   panels of 16 columns, and for each block of kMc rows (kept in L2) and each 16-column panel
//   (16 KB, kept in L1) the 6 x 16 micro-kernel runs down the block's row panels.
constexpr int64_t kMr = 6, kNr = 16, kKc = 256, kMc = 120;

int64_t roundUp(int64_t v, int64_t m) {
    return (v + m - 1) / m * m;
}

bool usesPacking(const LinearJob& j) {
    // A few rows (typing one more token, one position's logits) read every weight once: there
    // is nothing to gain from packing, and Eigen's matrix-vector product streams them well.
    return kHasAvx2Fma && j.rows >= kMr && j.in > 0;
}

// Packed x: for each block of kKc columns of x (k0 = 0, kKc, ...), the 6-row panels one after
// another, each holding for every k the 6 values of its rows (zero past the last row).
size_t packedRowsSize(const LinearJob& j) {
    return static_cast<size_t>(roundUp(j.rows, kMr) * j.in);
}

ATTN_AVX2 void packRowPanel(const LinearJob& j, int64_t panel, float* out) {
    const int64_t rowsPadded = roundUp(j.rows, kMr);
    const int64_t r0 = panel * kMr, h = std::min(kMr, j.rows - r0);
    for (int64_t k0 = 0; k0 < j.in; k0 += kKc) {
        const int64_t kc = std::min(kKc, j.in - k0);
        float* dst = out + rowsPadded * k0 + r0 * kc;
        for (int64_t r = 0; r < kMr; ++r) {
            if (r < h) {
                const float* src = j.x + (r0 + r) * j.xStride + k0;
                for (int64_t k = 0; k < kc; ++k)
                    dst[k * kMr + r] = src[k];
            } else {
                for (int64_t k = 0; k < kc; ++k)
                    dst[k * kMr + r] = 0.0f;
            }
        }
    }
}

// Eight rows of 8 floats (rows `stride` apart) transposed: out[k * outStride + n] = in[n][k].
ATTN_AVX2 void transpose8x8(const float* in, int64_t stride, float* out, int64_t outStride) {
    const __m256 r0 = _mm256_loadu_ps(in), r1 = _mm256_loadu_ps(in + stride),
                 r2 = _mm256_loadu_ps(in + 2 * stride), r3 = _mm256_loadu_ps(in + 3 * stride),
                 r4 = _mm256_loadu_ps(in + 4 * stride), r5 = _mm256_loadu_ps(in + 5 * stride),
                 r6 = _mm256_loadu_ps(in + 6 * stride), r7 = _mm256_loadu_ps(in + 7 * stride);
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1),
                 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3),
                 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
                 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE),
                 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE),
                 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE),
                 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    _mm256_store_ps(out, _mm256_permute2f128_ps(u0, u4, 0x20));
    _mm256_store_ps(out + outStride, _mm256_permute2f128_ps(u1, u5, 0x20));
    _mm256_store_ps(out + 2 * outStride, _mm256_permute2f128_ps(u2, u6, 0x20));
    _mm256_store_ps(out + 3 * outStride, _mm256_permute2f128_ps(u3, u7, 0x20));
    _mm256_store_ps(out + 4 * outStride, _mm256_permute2f128_ps(u0, u4, 0x31));
    _mm256_store_ps(out + 5 * outStride, _mm256_permute2f128_ps(u1, u5, 0x31));
    _mm256_store_ps(out + 6 * outStride, _mm256_permute2f128_ps(u2, u6, 0x31));
    _mm256_store_ps(out + 7 * outStride, _mm256_permute2f128_ps(u3, u7, 0x31));
}

// Weights of columns c0..c0+nc, depth k0..k0+kc, as panels of 16 columns: panel p holds, for
// each k, the 16 values of columns 16p..16p+15 (zero past nc). `out` is 32-byte aligned.
ATTN_AVX2 void packWeights(const LinearJob& j, int64_t k0, int64_t kc, int64_t c0, int64_t nc,
                           float* out) {
    for (int64_t n0 = 0; n0 < nc; n0 += kNr) {
        float* panel = out + n0 * kc;
        const int64_t w = std::min(kNr, nc - n0);
        if (j.inputMajor) {
            // W is (in, out): each k reads 16 neighbours.
            for (int64_t k = 0; k < kc; ++k) {
                const float* src = j.weight + (k0 + k) * j.weightStride + c0 + n0;
                float* dst = panel + k * kNr;
                if (w == kNr) {
                    _mm256_store_ps(dst, _mm256_loadu_ps(src));
                    _mm256_store_ps(dst + 8, _mm256_loadu_ps(src + 8));
                    continue;
                }
                for (int64_t n = 0; n < kNr; ++n)
                    dst[n] = n < w ? src[n] : 0.0f;
            }
            continue;
        }
        // W is (out, in): each column is a row of W, transposed into the panel eight by eight.
        const float* src = j.weight + (c0 + n0) * j.weightStride + k0;
        int64_t k = 0;
        if (w == kNr)
            for (; k + 8 <= kc; k += 8)
                for (int64_t half = 0; half < 2; ++half)
                    transpose8x8(src + half * 8 * j.weightStride + k, j.weightStride,
                                 panel + k * kNr + half * 8, kNr);
        for (; k < kc; ++k)
            for (int64_t n = 0; n < kNr; ++n)
                panel[k * kNr + n] = n < w ? src[n * j.weightStride + k] : 0.0f;
    }
}

// c (rows x cols, at most 6 x 16, row stride ldc) = (or +=) a . b-panel over kc, where a is a
// packed 6-row panel, or (Packed = false) x's rows in place, `lda` floats apart.
template <bool Packed>
ATTN_AVX2 void microKernel(int64_t kc, const float* a, int64_t lda, const float* b, float* c,
                           int64_t ldc, int64_t rows, int64_t cols, bool accumulate) {
    // In place, rows past the matrix read its first row again; their results are dropped.
    const float* ar[kMr];
    for (int64_t r = 0; r < kMr; ++r)
        ar[r] = Packed ? a + r : a + (r < rows ? r * lda : 0);
    const int64_t step = Packed ? kMr : 1;
    __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00,
           c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
#pragma GCC unroll 4
    for (int64_t k = 0; k < kc; ++k) {
        const __m256 b0 = _mm256_load_ps(b);
        const __m256 b1 = _mm256_load_ps(b + 8);
        const int64_t at = k * step;
        __m256 x = _mm256_broadcast_ss(ar[0] + at);
        c00 = _mm256_fmadd_ps(x, b0, c00);
        c01 = _mm256_fmadd_ps(x, b1, c01);
        x = _mm256_broadcast_ss(ar[1] + at);
        c10 = _mm256_fmadd_ps(x, b0, c10);
        c11 = _mm256_fmadd_ps(x, b1, c11);
        x = _mm256_broadcast_ss(ar[2] + at);
        c20 = _mm256_fmadd_ps(x, b0, c20);
        c21 = _mm256_fmadd_ps(x, b1, c21);
        x = _mm256_broadcast_ss(ar[3] + at);
        c30 = _mm256_fmadd_ps(x, b0, c30);
        c31 = _mm256_fmadd_ps(x, b1, c31);
        x = _mm256_broadcast_ss(ar[4] + at);
        c40 = _mm256_fmadd_ps(x, b0, c40);
        c41 = _mm256_fmadd_ps(x, b1, c41);
        x = _mm256_broadcast_ss(ar[5] + at);
        c50 = _mm256_fmadd_ps(x, b0, c50);
        c51 = _mm256_fmadd_ps(x, b1, c51);
        b += kNr;
    }
    const __m256 acc[6][2] = {{c00, c01}, {c10, c11}, {c20, c21},
                              {c30, c31}, {c40, c41}, {c50, c51}};
    if (rows == kMr && cols == kNr) {
        for (int r = 0; r < kMr; ++r) {
            float* row = c + r * ldc;
            if (accumulate) {
                _mm256_storeu_ps(row, _mm256_add_ps(_mm256_loadu_ps(row), acc[r][0]));
                _mm256_storeu_ps(row + 8, _mm256_add_ps(_mm256_loadu_ps(row + 8), acc[r][1]));
            } else {
                _mm256_storeu_ps(row, acc[r][0]);
                _mm256_storeu_ps(row + 8, acc[r][1]);
            }
        }
        return;
    }
    alignas(32) float tile[kMr][kNr];
    for (int r = 0; r < kMr; ++r) {
        _mm256_store_ps(tile[r], acc[r][0]);
        _mm256_store_ps(tile[r] + 8, acc[r][1]);
    }
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t n = 0; n < cols; ++n)
            c[r * ldc + n] = accumulate ? c[r * ldc + n] + tile[r][n] : tile[r][n];
}

// Columns c0..c1 of job j; `a` is x packed (packRowPanel), or nullptr to read x in place.
ATTN_AVX2 void packedProduct(const LinearJob& j, const float* a, int64_t c0, int64_t c1) {
    thread_local Scratch weightPanels;
    const int64_t nc = c1 - c0, rowsPadded = roundUp(j.rows, kMr);
    float* b = weightPanels.get(static_cast<size_t>(kKc * roundUp(nc, kNr)));
    for (int64_t k0 = 0; k0 < j.in; k0 += kKc) {
        const int64_t kc = std::min(kKc, j.in - k0);
        packWeights(j, k0, kc, c0, nc, b);
        // Blocks of kMc rows, so a block's row panels (120 KB) stay in L2 for every column panel.
        for (int64_t m0 = 0; m0 < j.rows; m0 += kMc)
            for (int64_t n0 = 0; n0 < nc; n0 += kNr)
                for (int64_t r0 = m0; r0 < std::min(j.rows, m0 + kMc); r0 += kMr) {
                    float* c = j.y + r0 * j.yStride + c0 + n0;
                    const int64_t rows = std::min(kMr, j.rows - r0), cols = std::min(kNr, nc - n0);
                    if (a)
                        microKernel<true>(kc, a + rowsPadded * k0 + r0 * kc, 0, b + n0 * kc, c,
                                          j.yStride, rows, cols, k0 > 0);
                    else
                        microKernel<false>(kc, j.x + r0 * j.xStride + k0, j.xStride, b + n0 * kc, c,
                                           j.yStride, rows, cols, k0 > 0);
                }
    }
}
#endif

void runFloatChunk(const Chunk& c);

// A chunk of a job whose weights are 16-bit: the weights of its columns converted into float32
// (c1 - c0 rows of nn.Linear's (out, in), or those columns of Conv1D's (in, out)), then the
// float32 chunk on them.
void runHalfChunk(const Chunk& c) {
    thread_local Scratch converted;
    const LinearJob& j = *c.job;
    const int64_t nc = c.c1 - c.c0;
    float* w = converted.get(static_cast<size_t>(nc * j.in));
    LinearJob f = j;
    if (j.inputMajor) {
        for (int64_t k = 0; k < j.in; ++k)
            halfsToFloats(j.weight16 + k * j.weightStride + c.c0, nc, j.weightIsBf16, w + k * nc);
    } else {
        for (int64_t r = 0; r < nc; ++r)
            halfsToFloats(j.weight16 + (c.c0 + r) * j.weightStride, j.in, j.weightIsBf16,
                          w + r * j.in);
    }
    f.weight = w;
    f.weight16 = nullptr;
    f.weightStride = j.inputMajor ? nc : j.in;
    f.out = nc;
    f.y = j.y + c.c0;
    f.bias = j.bias ? j.bias + c.c0 : nullptr;
    Chunk fc = c;
    fc.job = &f;
    fc.c0 = 0;
    fc.c1 = nc;
    runFloatChunk(fc);
}

void runChunk(const Chunk& c) {
    if (c.job->weight16)
        runHalfChunk(c);
    else
        runFloatChunk(c);
}

void runFloatChunk(const Chunk& c) {
    const LinearJob& j = *c.job;
    const int64_t cols = c.c1 - c.c0;
    StridedMap y(j.y + c.c0, j.rows, cols, Eigen::OuterStride<>(j.yStride));
#ifdef ATTN_PACKED_GEMM
    if (c.microKernel) {
        packedProduct(j, c.packedRows, c.c0, c.c1);
    } else
#endif
    {
        const StridedConstMap x(j.x, j.rows, j.in, Eigen::OuterStride<>(j.xStride));
        if (j.inputMajor)
            y.noalias() = x * StridedConstMap(j.weight + c.c0, j.in, cols,
                                              Eigen::OuterStride<>(j.weightStride));
        else
            y.noalias() = x * StridedConstMap(j.weight + c.c0 * j.weightStride, cols, j.in,
                                              Eigen::OuterStride<>(j.weightStride))
                                  .transpose();
    }
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
    // x packed once per distinct x (the three projections of q, k and v share theirs), as
    // (job, first panel task) pairs; the tasks pack one 6-row panel each.
    std::vector<Tensor> packed;
    std::vector<std::pair<const LinearJob*, float*>> toPack;
    for (const LinearJob& j : jobs) {
        // Reading a weight from memory costs about as much as 8 multiply-adds: with a few rows
        // (typing one more token) the product is a stream over the weights, worth both cores.
        const int64_t jobWork = (j.rows + 8) * j.in * j.out;
        work += jobWork;
        const int64_t n = std::max<int64_t>((jobWork + kChunkWork - 1) / kChunkWork, 1);
        int64_t width = (j.out + n - 1) / n;
        width = std::max<int64_t>((width + 15) / 16 * 16, kMinChunkColumns);
        bool micro = false;
        const float* packedRows = nullptr;
#ifdef ATTN_PACKED_GEMM
        micro = usesPacking(j);
        // Packing pays when several chunks share x; one chunk (the context product of a head,
        // 64 columns) reads x's rows in place, without a copy the size of the weights.
        if (micro && width < j.out) {
            for (const auto& [other, buffer] : toPack)
                if (other->x == j.x && other->rows == j.rows && other->in == j.in &&
                    other->xStride == j.xStride)
                    packedRows = buffer;
            if (!packedRows) {
                packed.push_back(Tensor::uninitialized({int64_t(packedRowsSize(j))}));
                float* buffer = packed.back().mutableData();
                toPack.emplace_back(&j, buffer);
                packedRows = buffer;
            }
        }
#endif
        for (int64_t c0 = 0; c0 < j.out; c0 += width)
            chunks.push_back({&j, micro, packedRows, c0, std::min(j.out, c0 + width)});
    }
    std::vector<std::pair<size_t, int64_t>> panels;  // (toPack index, panel)
#ifdef ATTN_PACKED_GEMM
    for (size_t i = 0; i < toPack.size(); ++i)
        for (int64_t p = 0; p * kMr < toPack[i].first->rows; ++p)
            panels.emplace_back(i, p);
#endif
    const int64_t panelCount = static_cast<int64_t>(panels.size());
    const int64_t count = static_cast<int64_t>(chunks.size());
    [[maybe_unused]] const int threads = work > kParallelWork ? maxThreads() : 1;  // by OpenMP
    throwIfCancelled(cancel);
#pragma omp parallel num_threads(threads) if (threads > 1 && count > 1)
    {
#ifdef ATTN_PACKED_GEMM
#pragma omp for schedule(static)
        for (int64_t i = 0; i < panelCount; ++i) {
            const auto& [job, panel] = panels[static_cast<size_t>(i)];
            packRowPanel(*toPack[job].first, panel, toPack[job].second);
        }
#else
        (void)panelCount;
#endif
#pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < count; ++i) {
            if (cancel && cancel->cancelled())
                continue;  // cannot leave an OpenMP loop early: skip the rest
            runChunk(chunks[static_cast<size_t>(i)]);
        }
    }
    throwIfCancelled(cancel);
}

void product(const LinearJob& job) {
    bool micro = false;
#ifdef ATTN_PACKED_GEMM
    micro = usesPacking(job);
#endif
    runChunk({&job, micro, nullptr, 0, job.out});
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

float softmaxRow(const float* in, float* out, int64_t n) {
    using Arr = Eigen::Map<const Eigen::ArrayXf>;
    const Arr z(in, n);
    Eigen::Map<Eigen::ArrayXf> o(out, n);
    const float mx = z.maxCoeff();
    o = (z - mx).exp();
    // Eigen's exp clamps its argument, so exp(-inf) is a denormal, not 0: zero masked keys.
    for (int64_t j = 0; j < n; ++j)
        if (in[j] == kNegInf)
            out[j] = 0.0f;
    const float sum = rowSum(out, n);
    o *= 1.0f / sum;
    return mx + std::log(sum);
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

void rmsNorm(const float* x, int64_t rows, int64_t d, int64_t xStride, const float* weight,
             bool onePlus, float eps, float* y, int64_t yStride) {
    Eigen::ArrayXf g = Eigen::Map<const Eigen::ArrayXf>(weight, d);
    if (onePlus)
        g += 1.0f;
#pragma omp parallel for if (rows * d > 262144)
    for (int64_t r = 0; r < rows; ++r) {
        const Eigen::Map<const Eigen::ArrayXf> xr(x + r * xStride, d);
        const double meanSquare = xr.cast<double>().square().mean();
        const float inv = 1.0f / std::sqrt(static_cast<float>(meanSquare) + eps);
        Eigen::Map<Eigen::ArrayXf>(y + r * yStride, d) = (xr * inv) * g;
    }
}

namespace {

// f(gate) * up in blocks, both cores on long runs.
template <typename F>
void gatedTimes(float* gate, const float* up, int64_t n, F f) {
    constexpr int64_t kBlock = 4096;
#pragma omp parallel for if (n > 262144)
    for (int64_t b = 0; b < n; b += kBlock) {
        const int64_t m = std::min(kBlock, n - b);
        Eigen::Map<Eigen::ArrayXf> v(gate + b, m);
        v = f(v) * Eigen::Map<const Eigen::ArrayXf>(up + b, m);
    }
}

}  // namespace

void siluTimes(float* gate, const float* up, int64_t n) {
    gatedTimes(gate, up, n, [](const Eigen::Map<Eigen::ArrayXf>& v) {
        return (v / (1.0f + (-v).exp())).eval();
    });
}

void geluTanhTimes(float* gate, const float* up, int64_t n) {
    // PyTorch's gelu(approximate="tanh") constant: sqrt(2 / pi) in float32.
    const float c = std::sqrt(static_cast<float>(2.0 / std::numbers::pi));
    gatedTimes(gate, up, n, [c](const Eigen::Map<Eigen::ArrayXf>& v) {
        return (0.5f * v * (1.0f + (c * (v + 0.044715f * v.cube())).tanh())).eval();
    });
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

#pragma once
// Numeric building blocks shared by the chapter-3 trace and the GPT forward: affine maps
// (nn.Linear and Hugging Face's Conv1D), softmax rows, LayerNorm and GELU. Engine-internal: the
// GUI never includes this header.

#include <cstdint>
#include <span>

#include "engine/cancel.h"

namespace attn::kernels {

// One affine map y (n, out) = x (n, in) @ W + bias, every matrix row-major with its own row
// stride (so a job can read or write a column slice of a wider matrix).
// inputMajor = false: W is stored (out, in), as nn.Linear keeps it, and y = x @ W.T.
// inputMajor = true: W is stored (in, out), as Hugging Face's Conv1D keeps it, and y = x @ W.
struct LinearJob {
    const float* x = nullptr;
    int64_t rows = 0;  // n
    int64_t in = 0;
    int64_t xStride = 0;
    const float* weight = nullptr;
    // Or W in 16 bits as a file stores it (bfloat16 when weightIsBf16, else IEEE half): each
    // chunk converts the part it reads into float32 first.
    const uint16_t* weight16 = nullptr;
    bool weightIsBf16 = true;
    int64_t weightStride = 0;  // values between the rows of W as stored
    bool inputMajor = false;
    const float* bias = nullptr;  // (out,), or nullptr
    float* y = nullptr;
    int64_t out = 0;
    int64_t yStride = 0;
};

// Runs every job. Their output columns are cut into chunks that the OpenMP threads share, each
// chunk one single-threaded product: for the thin products of a trace (64 to 1,024 rows) that
// keeps both cores busy where Eigen's own split of a row-major product often leaves one idle.
// The chunks depend only on the sizes, so results are the same whatever the thread count.
// The cancel token is checked between chunks; throws Cancelled.
void linear(std::span<const LinearJob> jobs, const CancelToken* cancel = nullptr);

// One job on the calling thread (for code that is already parallel, such as attention's
// per-head loop), computed as linear() computes a chunk.
void product(const LinearJob& job);

// The sum of n floats, rounded the same wherever they lie in memory.
float rowSum(const float* x, int64_t n);

// softmax(z)_j = exp(z_j - max z) / sum_k exp(z_k - max z), over one row of n, into `out`.
// -inf entries (masked keys) become exactly 0, as in PyTorch. Returns ln sum_k exp(z_k), so
// ln softmax(z)_j = z_j - that (the entropy of a row needs no logarithm per element).
float softmaxRow(const float* in, float* out, int64_t n);

// LayerNorm over each row of x (rows, d): (x - mean) / sqrt(var + eps) * scale + shift, with the
// biased variance (PyTorch's nn.LayerNorm and the book's LayerNorm, eps = 1e-5). Rows of x and
// y are `xStride` and `yStride` floats apart; y may be x.
void layerNorm(const float* x, int64_t rows, int64_t d, int64_t xStride, const float* scale,
               const float* shift, float* y, int64_t yStride);

// RMSNorm over each row of x (rows, d): x / sqrt(mean(x^2) + eps) * weight, or * (1 + weight)
// with `onePlus` (Gemma 3 stores its norm weights centred on 0). The mean in double, as for
// layerNorm. y may be x.
void rmsNorm(const float* x, int64_t rows, int64_t d, int64_t xStride, const float* weight,
             bool onePlus, float eps, float* y, int64_t yStride);

// The gated feed-forward's middle, in place over n values: gate = act(gate) * up, with act
// SiLU (x / (1 + exp(-x)), Llama and Qwen) or the tanh GELU (Gemma 3).
void siluTimes(float* gate, const float* up, int64_t n);
void geluTanhTimes(float* gate, const float* up, int64_t n);

// GELU with the tanh approximation, in place over n values:
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
void geluTanh(float* x, int64_t n);

}  // namespace attn::kernels

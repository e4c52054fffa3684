#pragma once
// PyTorch's CPU random generator, reproduced so that the same seed gives the same weights,
// embeddings and dropout masks as the chapter's code on CPU.

#include <cstdint>
#include <optional>
#include <random>

namespace attn {

class TorchGenerator {
  public:
    // torch.manual_seed(s): an mt19937 seeded with the low 32 bits of s.
    explicit TorchGenerator(uint64_t seed) : engine_(static_cast<uint32_t>(seed)) {}
    // A generator whose next draw is the next draw of `engine` (no cached normal).
    explicit TorchGenerator(const std::mt19937& engine) : engine_(engine) {}

    uint32_t random() { return static_cast<uint32_t>(engine_()); }
    // Two draws, the first one in the high half (at::detail::make64BitsFrom32Bits).
    uint64_t random64() {
        const uint64_t hi = random();
        const uint64_t lo = random();
        return (hi << 32) | lo;
    }
    // Skip n 32-bit draws.
    void discard(uint64_t n) { engine_.discard(n); }

    // float32 tensor.uniform_(from, to): one draw per element, row-major.
    void uniform(float* out, int64_t n, float from, float to);
    // torch.rand(n)
    void rand(float* out, int64_t n) { uniform(out, n, 0.0f, 1.0f); }
    // float32 tensor.normal_(mean, std) (nn.Embedding's init).
    void normal(float* out, int64_t n, float mean = 0.0f, float std = 1.0f);
    // U[0,1) double from one 64-bit draw (53 bits), as at::uniform_real_distribution<double>.
    double uniformDouble();
    // One Box-Muller normal in double precision, with PyTorch's cached second value.
    double normalDouble(double mean, double std);

  private:
    std::mt19937 engine_;
    std::optional<double> nextDoubleNormal_;
};

// PyTorch's normal_fill_16 on 16 uniforms in place (mean 0, std 1): the first 8 give the
// radius, the next 8 the angle.
void normalFill16(float* data, float mean = 0.0f, float std = 1.0f);

// nn.Linear(in, out) initialisation: weight (out, in) ~ U(-b, b) then bias (out) ~ U(-b, b),
// b = 1/sqrt(in), computed exactly as torch.nn.init does (kaiming_uniform_ with a = sqrt(5)).
void linearInit(TorchGenerator& gen, int64_t in, int64_t out, float* weight, float* bias);
float kaimingUniformBound(int64_t fanIn);
float linearBiasBound(int64_t fanIn);

// The dropout keep mask of nn.Dropout(p) in training mode, n elements row-major, 1 = kept.
// Default: PyTorch's portable kernel (two draws per element), used on AMD and non-MKL builds; the
// book's printed dropout example matches it. Mkl: Intel MKL's MCG31 stream seeded by one draw, as
// the PyTorch wheels with MKL use on Intel CPUs: one 32-bit draw r seeds x0 = r mod (2^31 - 1),
// element k is kept if x_k / m < 1 - p, and x_{k+1} = 1132489760 * x_k mod m.
void dropoutKeepMask(TorchGenerator& gen, double p, bool mkl, float* keep, int64_t n);

}  // namespace attn

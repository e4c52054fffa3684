#include "engine/rng.h"

#include <cmath>
#include <numbers>

namespace attn {

// at::uniform_real_distribution<float>: x = (r & (2^24 - 1)) * 2^-24, value = x * (to - from) +
// from, which PyTorch's compiler contracts into one fused multiply-add.
void TorchGenerator::uniform(float* out, int64_t n, float from, float to) {
    const float range = to - from;
    for (int64_t i = 0; i < n; ++i) {
        const float x = static_cast<float>(random() & 0xFFFFFFu) * (1.0f / 16777216.0f);
        out[i] = std::fmaf(x, range, from);
    }
}

// at::uniform_real_distribution<double>: 53 random bits of one 64-bit draw.
double TorchGenerator::uniformDouble() {
    return static_cast<double>(random64() & ((uint64_t(1) << 53) - 1)) * 0x1.0p-53;
}

// at::normal_distribution<double>: Box-Muller on two uniforms; the sine half is cached in the
// generator and returned by the next call (torch.manual_seed clears it).
double TorchGenerator::normalDouble(double mean, double std) {
    if (nextDoubleNormal_) {
        const double z = *nextDoubleNormal_;
        nextDoubleNormal_.reset();
        return z * std + mean;
    }
    const double u1 = uniformDouble();
    const double u2 = uniformDouble();
    const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
    const double theta = 2.0 * std::numbers::pi * u1;
    nextDoubleNormal_ = r * std::sin(theta);
    return r * std::cos(theta) * std + mean;
}

//   z_j = sqrt(-2 ln(1 - u_j)) cos(2 pi u_{j+8}),  z_{j+8} = same radius * sin(...)
void normalFill16(float* data, float mean, float std) {
    for (int j = 0; j < 8; ++j) {
        const float u1 = 1.0f - data[j];  // [0, 1) -> (0, 1] for the log
        const float u2 = data[j + 8];
        const float radius = std::sqrt(-2.0f * std::log(u1));
        // PyTorch's AVX2 kernel (x86) forms the angle in float32: float(2 pi) * u2.
        const float theta = static_cast<float>(2.0 * std::numbers::pi) * u2;
        data[j] = radius * std::cos(theta) * std + mean;
        data[j + 8] = radius * std::sin(theta) * std + mean;
    }
}

// float32 normal_: under 16 elements one double Box-Muller value at a time; from 16 elements all
// uniforms first, then blocks of 16, the last 16 redone from fresh draws when n % 16 != 0.
void TorchGenerator::normal(float* out, int64_t n, float mean, float std) {
    if (n < 16) {
        for (int64_t i = 0; i < n; ++i)
            out[i] = static_cast<float>(normalDouble(mean, std));
        return;
    }
    uniform(out, n, 0.0f, 1.0f);
    for (int64_t i = 0; i + 16 <= n; i += 16)
        normalFill16(out + i, mean, std);
    if (n % 16 != 0) {
        float* tail = out + n - 16;
        uniform(tail, 16, 0.0f, 1.0f);
        normalFill16(tail, mean, std);
    }
}

// torch.nn.init.kaiming_uniform_(w, a=sqrt(5)) computes, in Python doubles:
//   gain = sqrt(2 / (1 + a**2)); std = gain / sqrt(fan_in); bound = sqrt(3) * std
// a**2 is 5.000000000000001 in doubles, so follow the same arithmetic rather than 1/sqrt(fan_in).
float kaimingUniformBound(int64_t fanIn) {
    const double a = std::sqrt(5.0);
    const double gain = std::sqrt(2.0 / (1.0 + a * a));
    const double std = gain / std::sqrt(static_cast<double>(fanIn));
    return static_cast<float>(std::sqrt(3.0) * std);
}

// nn.Linear.reset_parameters: bound = 1 / math.sqrt(fan_in) for the bias.
float linearBiasBound(int64_t fanIn) {
    return fanIn > 0 ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(fanIn))) : 0.0f;
}

void linearInit(TorchGenerator& gen, int64_t in, int64_t out, float* weight, float* bias) {
    const float wb = kaimingUniformBound(in);
    gen.uniform(weight, in * out, -wb, wb);
    if (bias) {
        const float bb = linearBiasBound(in);
        gen.uniform(bias, out, -bb, bb);
    }
}

void dropoutKeepMask(TorchGenerator& gen, double p, bool mkl, float* keep, int64_t n) {
    const double q = 1.0 - p;  // probability to keep: noise.bernoulli_(1 - p)
    if (!mkl) {
        // bernoulli_distribution<double>: keep if U53(random64()) < q.
        for (int64_t i = 0; i < n; ++i)
            keep[i] = gen.uniformDouble() < q ? 1.0f : 0.0f;
        return;
    }
    // MKL's VSL_BRNG_MCG31 seeded by one 32-bit draw: x0 = seed mod m (0 -> 1),
    // x_{k+1} = a x_k mod m, u_k = x_k / m; viRngBernoulli(ICDF) keeps when u_k < q.
    constexpr uint64_t m = 2147483647u;  // 2^31 - 1
    constexpr uint64_t a = 1132489760u;
    uint64_t x = static_cast<uint64_t>(gen.random()) % m;
    if (x == 0)
        x = 1;
    for (int64_t i = 0; i < n; ++i) {
        const double u = static_cast<double>(x) / static_cast<double>(m);
        keep[i] = u < q ? 1.0f : 0.0f;
        x = (a * x) % m;
    }
}

}  // namespace attn

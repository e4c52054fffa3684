#include "engine/rope.h"

#include <cmath>
#include <numbers>

namespace attn::rope {

std::vector<float> inverseFrequencies(int64_t hd, const RopeSpec& spec) {
    const int64_t half = hd / 2;
    std::vector<float> inv(static_cast<size_t>(half));
    const float base = static_cast<float>(spec.base);
    for (int64_t i = 0; i < half; ++i)
        inv[size_t(i)] = 1.0f / std::pow(base, static_cast<float>(2 * i) / static_cast<float>(hd));
    const float factor = static_cast<float>(spec.factor);
    if (spec.scaling == RopeSpec::Scaling::Linear) {
        for (float& f : inv)
            f = f / factor;
    } else if (spec.scaling == RopeSpec::Scaling::Llama3) {
        // Wavelengths longer than the original context / low_freq_factor are divided by
        // factor, shorter than original / high_freq_factor kept, and the band between blended.
        const float original = static_cast<float>(spec.originalContext);
        const float low = static_cast<float>(spec.lowFreqFactor);
        const float high = static_cast<float>(spec.highFreqFactor);
        const double lowWavelength = spec.originalContext / spec.lowFreqFactor;
        const double highWavelength = spec.originalContext / spec.highFreqFactor;
        const float twoPi = static_cast<float>(2.0 * std::numbers::pi);
        for (float& f : inv) {
            const float wavelength = twoPi / f;
            const float smooth = (original / wavelength - low) / (high - low);
            if (wavelength > lowWavelength)
                f = f / factor;
            else if (wavelength >= highWavelength)
                f = (1.0f - smooth) * (f / factor) + smooth * f;
        }
    }
    return inv;
}

std::pair<Tensor, Tensor> tables(int64_t hd, int64_t tokens, const RopeSpec& spec) {
    const std::vector<float> inv = inverseFrequencies(hd, spec);
    const int64_t half = hd / 2;
    Tensor cos = Tensor::uninitialized(Shape{tokens, hd});
    Tensor sin = Tensor::uninitialized(Shape{tokens, hd});
    float* c = cos.mutableData();
    float* s = sin.mutableData();
    for (int64_t t = 0; t < tokens; ++t)
        for (int64_t i = 0; i < half; ++i) {
            const float angle = static_cast<float>(t) * inv[size_t(i)];
            c[t * hd + i] = c[t * hd + i + half] = std::cos(angle);
            s[t * hd + i] = s[t * hd + i + half] = std::sin(angle);
        }
    return {cos, sin};
}

void rotate(const float* x, const float* cos, const float* sin, int64_t hd, float* y) {
    const int64_t half = hd / 2;
    for (int64_t j = 0; j < half; ++j) {
        const float x1 = x[j], x2 = x[j + half];
        // Each output is x * cos + rotated * sin, rounded as PyTorch rounds the two products.
        const float a1 = x1 * cos[j], r1 = -x2 * sin[j];
        const float a2 = x2 * cos[j + half], r2 = x1 * sin[j + half];
        y[j] = a1 + r1;
        y[j + half] = a2 + r2;
    }
}

}  // namespace attn::rope

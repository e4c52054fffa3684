#include "engine/half.h"

#include <bit>
#include <cmath>

namespace attn {

float halfToFloat(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h >> 15) << 31;
    uint32_t exponent = (h >> 10) & 0x1F;
    uint32_t mantissa = h & 0x3FF;
    if (exponent == 0) {
        // Zero or subnormal: mantissa * 2^-24, exact in float32.
        float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 0x1F)
        return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

float bfloat16ToFloat(uint16_t bits) {
    return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

void halfsToFloats(const uint16_t* in, int64_t n, bool bf16, float* out) {
    if (bf16) {
        // A shift, which the compiler vectorizes.
        for (int64_t i = 0; i < n; ++i)
            out[i] = std::bit_cast<float>(static_cast<uint32_t>(in[i]) << 16);
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        out[i] = halfToFloat(in[i]);
}

}  // namespace attn

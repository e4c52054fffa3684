#pragma once
// IEEE half (float16) and bfloat16 to float32. Both are exact: every half and bfloat16 value,
// subnormals included, is representable as a float32.

#include <cstdint>

namespace attn::io {

float halfToFloat(uint16_t bits);
float bfloat16ToFloat(uint16_t bits);

}  // namespace attn::io

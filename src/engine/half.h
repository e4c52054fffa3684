#pragma once
// IEEE half (float16) and bfloat16 to float32. Both are exact: every half and bfloat16 value,
// subnormals included, is representable as a float32.

#include <cstdint>
#include <memory>

namespace attn {

float halfToFloat(uint16_t bits);
float bfloat16ToFloat(uint16_t bits);

// n 16-bit values (bfloat16 when `bf16`, else IEEE half) as float32 into out.
void halfsToFloats(const uint16_t* in, int64_t n, bool bf16, float* out);

// A weight matrix as a file stores it in 16 bits (F16 or BF16), left where it is (in the
// memory-mapped file): a BF16 model is not copied into twice its size of float32. Products
// convert the rows they read (kernels::LinearJob::half), an embedding lookup its one row.
struct HalfMatrix {
    const uint16_t* data = nullptr;  // row-major, rows `cols` values apart
    int64_t rows = 0, cols = 0;
    bool bf16 = true;
    std::shared_ptr<const void> owner;  // keeps `data` valid

    bool empty() const { return data == nullptr; }
    void rowToFloat(int64_t row, float* out) const {
        halfsToFloats(data + row * cols, cols, bf16, out);
    }
};

}  // namespace attn

#include "io/stored_tensor.h"

#include <algorithm>
#include <bit>

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "engine/config.h"
#include "engine/half.h"
#include "io/little_endian.h"

namespace attn::io {

namespace {

bool rowMajor(const StoredTensor& s) {
    int64_t expected = 1;
    for (size_t i = s.shape.size(); i-- > 0;) {
        if (s.shape[i] != 1 && s.strides[i] != expected)
            return false;
        expected *= s.shape[i];
    }
    return true;
}

float element(const std::string& dtype, const char* p) {
    if (dtype == "F32")
        return loadLe<float>(p);
    if (dtype == "F16")
        return halfToFloat(loadLe<uint16_t>(p));
    return bfloat16ToFloat(loadLe<uint16_t>(p));
}

}  // namespace

int dtypeSize(const std::string& dtype) {
    static const std::map<std::string, int, std::less<>> sizes = {
        {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1},
        {"I16", 2},  {"U16", 2}, {"F16", 2}, {"BF16", 2},    {"I32", 4},
        {"U32", 4},  {"F32", 4}, {"F64", 8}, {"I64", 8},     {"U64", 8}};
    auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

bool isFloatDtype(const std::string& dtype) {
    return dtype == "F32" || dtype == "F16" || dtype == "BF16";
}

bool asHalfMatrix(const StoredTensor& s, HalfMatrix* out) {
    if constexpr (std::endian::native != std::endian::little)
        return false;  // the file's little-endian values would need swapping
    if ((s.dtype != "F16" && s.dtype != "BF16") || s.shape.size() != 2 || !rowMajor(s) ||
        reinterpret_cast<uintptr_t>(s.data) % alignof(uint16_t) != 0)
        return false;
    out->data = reinterpret_cast<const uint16_t*>(s.data);
    out->rows = s.shape[0];
    out->cols = s.shape[1];
    out->bf16 = s.dtype == "BF16";
    out->owner = s.owner;
    return true;
}

int64_t firstNonFinite(const HalfMatrix& m) {
    // Infinity and NaN have every exponent bit set.
    const uint16_t mask = m.bf16 ? 0x7F80 : 0x7C00;
    const int64_t n = m.rows * m.cols;
    bool any = false;
    constexpr int64_t kBlock = 1 << 16;
    for (int64_t b = 0; b < n && !any; b += kBlock) {
        const int64_t e = std::min(n, b + kBlock);
        for (int64_t i = b; i < e; ++i)
            any |= (m.data[i] & mask) == mask;
    }
    if (!any)
        return -1;
    for (int64_t i = 0; i < n; ++i)
        if ((m.data[i] & mask) == mask)
            return i;
    return -1;
}

namespace {

// The row-major index `linear` of `shape` as "(3, 7)".
std::string indexText(const Shape& shape, int64_t linear) {
    std::vector<int64_t> index(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        index[d] = linear % shape[d];
        linear /= shape[d];
    }
    return shapeToString(index);
}

[[noreturn]] void notFinite(const std::string& source, const std::string& name, float value,
                            const Shape& shape, int64_t at) {
    throw UserError("model", source + ": " + name + " holds " +
                                 (std::isnan(value) ? "nan"
                                  : value > 0       ? "inf"
                                                    : "-inf") +
                                 " at index " + indexText(shape, at) +
                                 "; a model's weights are finite numbers (the file is corrupt, or "
                                 "was saved from a training run that diverged)");
}

}  // namespace

Tensor finiteFloat32(const StoredTensor& stored, const std::string& name,
                     const std::string& source) {
    Tensor t = toFloat32(stored);
    const int64_t bad = firstNonFinite(t);
    if (bad >= 0)
        notFinite(source, name, t.flat(bad), t.shape(), bad);
    return t;
}

void checkFinite(const HalfMatrix& m, const std::string& name, const std::string& source) {
    const int64_t bad = firstNonFinite(m);
    if (bad >= 0) {
        float value = 0;
        halfsToFloats(m.data + bad, 1, m.bf16, &value);
        notFinite(source, name, value, Shape{m.rows, m.cols}, bad);
    }
}

Tensor toFloat32(const StoredTensor& s) {
    if (!isFloatDtype(s.dtype))
        throw std::invalid_argument("toFloat32: " + s.dtype + " is not a float type");
    const int64_t n = shapeNumel(s.shape);
    const bool contiguous = rowMajor(s);
    if (s.dtype == "F32" && contiguous && n > 0 &&
        reinterpret_cast<uintptr_t>(s.data) % alignof(float) == 0) {
        // The aliasing constructor: shares ownership of the file, points at the tensor.
        std::shared_ptr<float[]> view(s.owner, reinterpret_cast<float*>(const_cast<char*>(s.data)));
        return Tensor::wrap(std::move(view), s.shape);
    }
    Tensor out = Tensor::uninitialized(s.shape);
    float* o = out.mutableData();
    const int64_t item = s.dtype == "F32" ? 4 : 2;
    if (contiguous) {
        if (s.dtype == "F32") {
            if (n > 0)
                std::memcpy(o, s.data, static_cast<size_t>(n) * 4);
        } else if (s.dtype == "F16") {
            for (int64_t i = 0; i < n; ++i)
                o[i] = halfToFloat(loadLe<uint16_t>(s.data + 2 * i));
        } else {
            for (int64_t i = 0; i < n; ++i)
                o[i] = bfloat16ToFloat(loadLe<uint16_t>(s.data + 2 * i));
        }
        return out;
    }
    // Any other layout (a transposed view saved as is): walk the index like an odometer.
    std::vector<int64_t> index(s.shape.size(), 0);
    int64_t offset = 0;
    for (int64_t k = 0; k < n; ++k) {
        o[k] = element(s.dtype, s.data + offset * item);
        for (size_t d = s.shape.size(); d-- > 0;) {
            if (++index[d] < s.shape[d]) {
                offset += s.strides[d];
                break;
            }
            offset -= (s.shape[d] - 1) * s.strides[d];
            index[d] = 0;
        }
    }
    return out;
}

int64_t firstNonFinite(const Tensor& t) {
    const Tensor c = t.contiguous();
    const float* p = c.data();
    const int64_t n = c.numel();
    // Blocks of 4096: the common all-finite case runs as a vectorised test per block.
    constexpr int64_t kBlock = 4096;
    for (int64_t b = 0; b < n; b += kBlock) {
        const int64_t e = std::min(n, b + kBlock);
        bool finite = true;
        for (int64_t i = b; i < e; ++i)
            finite &= std::isfinite(p[i]);
        if (finite)
            continue;
        for (int64_t i = b; i < e; ++i)
            if (!std::isfinite(p[i]))
                return i;
    }
    return -1;
}

}  // namespace attn::io

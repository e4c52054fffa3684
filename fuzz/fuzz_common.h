#pragma once
// Shared by the fuzz targets: the only exception the libraries may throw on bad input is
// attn::UserError. Anything else escaping is reported as a crash (abort with the type and
// message), like a sanitizer report.

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>

#include "engine/config.h"

namespace attn::fuzz {

[[noreturn]] inline void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "FUZZ BUG: %s: %s\n", what, detail.c_str());
    std::fflush(stderr);
    std::abort();
}

// Runs f; UserError is expected, any other exception aborts.
template <typename F>
bool expectOnlyUserError(const char* what, F&& f) {
    try {
        f();
        return true;
    } catch (const attn::UserError&) {
        return false;
    } catch (const std::exception& e) {
        fail(what, std::string("unexpected exception ") + typeid(e).name() + ": " + e.what());
    } catch (...) {
        fail(what, "unexpected non-std exception");
    }
}

inline void check(bool ok, const char* what, const std::string& detail = {}) {
    if (!ok)
        fail(what, detail);
}

}  // namespace attn::fuzz

#include <cstring>
#include <vector>

#include "engine/tensor.h"

namespace attn::fuzz {

// Reads every element (so ASan sees a bad buffer) and checks the shape agrees with the data.
inline std::vector<float> touch(const attn::Tensor& t, const char* what) {
    int64_t n = 1;
    for (int64_t d : t.shape()) {
        check(d >= 0, what, "negative dimension in " + attn::shapeToString(t.shape()));
        n *= d;
    }
    check(n == t.numel(), what, "numel disagrees with shape");
    std::vector<float> v = t.toVector();
    check(static_cast<int64_t>(v.size()) == n, what, "toVector() size disagrees with shape");
    return v;
}

// Same shape and bit-identical values (NaN payloads included).
inline bool sameBits(const attn::Tensor& a, const attn::Tensor& b) {
    if (a.shape() != b.shape())
        return false;
    const std::vector<float> x = a.toVector(), y = b.toVector();
    return x.size() == y.size() &&
           (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0);
}

}  // namespace attn::fuzz

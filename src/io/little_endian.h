#pragma once
// Little-endian loads and stores for the binary formats (.npy, ZIP, safetensors, pickle).
// The formats are little-endian and so is every machine the app builds for.

#include <bit>
#include <cstring>
#include <string>

namespace attn::io {

static_assert(std::endian::native == std::endian::little,
              "the file readers copy little-endian data as is");

template <typename T>
T loadLe(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <typename T>
void storeLe(std::string& out, T v) {
    char buf[sizeof v];
    std::memcpy(buf, &v, sizeof v);
    out.append(buf, sizeof v);
}

}  // namespace attn::io

// fuzz_npz: parseNpz on arbitrary bytes (ZIP structure, local/central headers, CRCs and the
// .npy members). Only attn::UserError may escape; parsed arrays must be readable and survive
// npzBytes -> parseNpz unchanged.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>

#include "fuzz_common.h"
#include "io/npy.h"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    io::NamedTensors arrays;
    if (!fuzz::expectOnlyUserError("parseNpz", [&] { arrays = io::parseNpz(bytes, "fuzz.npz"); }))
        return 0;
    std::set<std::string> names;
    for (const auto& [name, t] : arrays) {
        fuzz::touch(t, "parseNpz");
        names.insert(name);
    }
    std::string again;
    // npzBytes refuses empty or duplicate names with UserError("output").
    if (!fuzz::expectOnlyUserError("npzBytes", [&] { again = io::npzBytes(arrays); }))
        return 0;
    io::NamedTensors back;
    if (!fuzz::expectOnlyUserError("parseNpz(npzBytes)",
                                     [&] { back = io::parseNpz(again, "again.npz"); }))
        fuzz::fail("npz round trip", "npzBytes() output rejected by parseNpz()");
    fuzz::check(back.size() == arrays.size(), "npz round trip", "array count changed");
    for (size_t i = 0; i < back.size(); ++i) {
        fuzz::check(back[i].first == arrays[i].first, "npz round trip",
                    "name changed: " + arrays[i].first);
        fuzz::check(fuzz::sameBits(back[i].second, arrays[i].second), "npz round trip",
                    "values changed: " + arrays[i].first);
    }
    return 0;
}

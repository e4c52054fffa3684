// fuzz_npy: parseNpy on arbitrary bytes. Only attn::UserError may escape; a parsed tensor
// must be readable in full and survive npyBytes -> parseNpy unchanged.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"
#include "io/npy.h"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    Tensor t;
    if (!fuzz::expectOnlyUserError("parseNpy", [&] { t = io::parseNpy(bytes, "fuzz.npy"); }))
        return 0;
    fuzz::touch(t, "parseNpy");
    std::string again;
    fuzz::expectOnlyUserError("npyBytes", [&] { again = io::npyBytes(t); });
    Tensor back;
    if (!fuzz::expectOnlyUserError("parseNpy(npyBytes)",
                                     [&] { back = io::parseNpy(again, "again.npy"); }))
        fuzz::fail("npy round trip", "npyBytes() output rejected by parseNpy()");
    fuzz::check(fuzz::sameBits(t, back), "npy round trip", "values or shape changed");
    return 0;
}

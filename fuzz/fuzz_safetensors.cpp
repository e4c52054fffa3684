// fuzz_safetensors: parseSafetensors on arbitrary bytes, then checkWeights against a few
// configurations. Only attn::UserError may escape; tensors must be readable and survive
// safetensorsBytes -> parseSafetensors unchanged.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"
#include "io/loaders.h"
#include "io/safetensors.h"
#include "tokenizer/utf8.h"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    io::SafetensorsFile f;
    if (!fuzz::expectOnlyUserError("parseSafetensors",
                                     [&] { f = io::parseSafetensors(bytes, "fuzz.safetensors"); }))
        return 0;
    for (const auto& [name, t] : f.tensors)
        fuzz::touch(t, "parseSafetensors");

    for (Variant v : {Variant::SelfAttentionV1, Variant::Causal, Variant::MultiHeadWrapper,
                      Variant::MultiHead}) {
        Config c;
        c.variant = v;
        c.contextLength = 6;
        fuzz::expectOnlyUserError("weightProblems",
                                    [&] { (void)io::weightProblems(f.tensors, c); });
        fuzz::expectOnlyUserError("checkWeights",
                                    [&] { io::checkWeights(f.tensors, c, "fuzz.safetensors"); });
    }

    // fuzz_safetensors-1 (fixed in a6ed989): names that are not UTF-8 used to load and then
    // change on writing. parseSafetensors now rejects a header that is not UTF-8.
    for (const auto& [name, t] : f.tensors)
        fuzz::check(utf8::isValid(name), "parseSafetensors", "accepted a name that is not UTF-8");

    std::string again;
    if (!fuzz::expectOnlyUserError("safetensorsBytes",
                                     [&] { again = io::safetensorsBytes(f.tensors, f.metadata); }))
        return 0;
    io::SafetensorsFile back;
    if (!fuzz::expectOnlyUserError("parseSafetensors(safetensorsBytes)", [&] {
            back = io::parseSafetensors(again, "again.safetensors");
        }))
        fuzz::fail("safetensors round trip", "safetensorsBytes() output rejected");
    fuzz::check(back.tensors.size() == f.tensors.size(), "safetensors round trip",
                "tensor count changed");
    fuzz::check(back.metadata == f.metadata, "safetensors round trip", "metadata changed");
    for (const auto& [name, t] : f.tensors) {
        const auto it = back.tensors.find(name);
        fuzz::check(it != back.tensors.end(), "safetensors round trip", "lost " + name);
        fuzz::check(fuzz::sameBits(it->second, t), "safetensors round trip",
                    "values changed: " + name);
    }
    return 0;
}

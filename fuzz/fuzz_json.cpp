// fuzz_json: parseJsonTensor and parseJsonWeights on arbitrary text, then checkWeights.
// Only attn::UserError may escape; parsed tensors must be readable and hold finite values.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"
#include "io/json_tensor.h"
#include "io/loaders.h"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Tensor t;
    if (fuzz::expectOnlyUserError("parseJsonTensor",
                                    [&] { t = io::parseJsonTensor(text, "fuzz.json"); })) {
        for (float x : fuzz::touch(t, "parseJsonTensor"))
            fuzz::check(std::isfinite(x), "parseJsonTensor", "non-finite value accepted");
    }
    WeightMap w;
    if (fuzz::expectOnlyUserError("parseJsonWeights",
                                    [&] { w = io::parseJsonWeights(text, "fuzz.json"); })) {
        for (const auto& [name, v] : w)
            for (float x : fuzz::touch(v, "parseJsonWeights"))
                fuzz::check(std::isfinite(x), "parseJsonWeights",
                            "non-finite value accepted in " + name);
        for (Variant var : {Variant::SelfAttentionV1, Variant::SelfAttention,
                            Variant::MultiHeadWrapper, Variant::MultiHead}) {
            Config c;
            c.variant = var;
            c.contextLength = 6;
            c.qkvBias = true;
            fuzz::expectOnlyUserError("checkWeights",
                                        [&] { io::checkWeights(w, c, "fuzz.json"); });
        }
    }
    return 0;
}

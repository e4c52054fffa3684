// fuzz_model_config: io::parseModelConfig on arbitrary bytes (a model folder's config.json).
// Only UserError may escape, and an accepted config must describe a model the forward can run:
// sizes from 1, query heads a multiple of the key/value heads, an even head size, one window
// per layer (or none), positive finite RoPE bases, epsilon and scales.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"
#include "io/model_config.h"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    io::ModelConfig config;
    if (!fuzz::expectOnlyUserError("parseModelConfig",
                                   [&] { config = io::parseModelConfig(text, "config.json"); }))
        return 0;
    const DecoderArchitecture& a = config.arch;
    fuzz::check(
        a.layers >= 1 && a.dModel >= 1 && a.heads >= 1 && a.vocab >= 1 && a.contextLength >= 1,
        "a size below 1 was accepted");
    if (a.family == Family::Gpt2) {
        fuzz::check(a.dModel % a.heads == 0, "GPT-2 heads that do not divide d_model");
        return 0;
    }
    fuzz::check(a.ffHidden >= 1, "no feed-forward units");
    fuzz::check(a.keyValueHeads() >= 1 && a.heads % a.keyValueHeads() == 0,
                "key/value heads that do not divide the query heads");
    fuzz::check(a.headSize() >= 2 && a.headSize() % 2 == 0, "a head size RoPE cannot turn");
    fuzz::check(a.windows.empty() || int64_t(a.windows.size()) == a.layers,
                "windows for some layers only");
    for (int64_t w : a.windows)
        fuzz::check(w >= 0, "a negative window");
    for (const RopeSpec* r : {&a.globalRope, &a.localRope})
        fuzz::check(
            std::isfinite(r->base) && r->base > 0 && std::isfinite(r->factor) && r->factor > 0,
            "a RoPE base or factor that is not a positive number");
    fuzz::check(a.normEps > 0 && a.normEps <= 0.1, "an epsilon out of range");
    fuzz::check(a.queryScale >= 0 && std::isfinite(a.queryScale), "a query scale out of range");
    return 0;
}

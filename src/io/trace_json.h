#pragma once
// The `trace` output of the CLI:
// {"config": {...}, "tokens": [...], "parameters": N,
//  "steps": [{"id", "title", "op", "shape", "dims", "data"}], "output": {"shape", "data"}}
// `data` is flat and row-major; numbers are the shortest text that reads back as the same
// float32; non-finite values are the strings "-inf", "inf" and "nan".

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/trace.h"

namespace attn::io {

// uint64_t holds seeds above 2^63 exactly; pass integers with an explicit type (int64_t{5}).
using JsonScalar = std::variant<std::string, int64_t, uint64_t, double, bool>;

// Facts about the input that the engine Config does not hold (tokenizer, embedding_seed,
// positions, input source, ...), written into "config" after the model keys, in order.
struct JsonConfigExtras {
    std::vector<std::pair<std::string, JsonScalar>> entries;
    // Keys of the Config's own that say nothing about this run and are left out (a trained
    // model's weights come from its file, so its "seed" and "dropout_rng" would mislead).
    std::vector<std::string> omitted;

    // Replaces an entry of the same key, else appends.
    JsonConfigExtras& set(const std::string& key, JsonScalar value);
};

// The "config" object: variant, d_in, d_out, heads, mask, dropout, mode, dropout_rng, seed,
// qkv_bias, batch, context_length (less the extras' `omitted` keys), then the extras (an extra
// that repeats one of these keys is left out, so the object never has duplicate keys).
std::string configToJson(const Config& config, const JsonConfigExtras& extras = {});
std::string traceToJson(const Trace& trace, const std::vector<std::string>& tokens,
                        const JsonConfigExtras& extras = {});
// One element of "steps".
std::string stepToJson(const Step& step);
void appendStepJson(std::string& out, const Step& step);
// [1.5,-inf,"nan"]: the values of any tensor, row-major.
void appendTensorData(std::string& out, const Tensor& tensor);

}  // namespace attn::io

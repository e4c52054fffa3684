#pragma once
// The `trace` output of the CLI:
// {"config": {...}, "tokens": [...], "parameters": N,
//  "steps": [{"id", "title", "op", "shape", "dims", "data"}], "output": {"shape", "data"}}
// `data` is flat and row-major; numbers are the shortest text that reads back as the same
// float32; non-finite values are the strings "-inf", "inf" and "nan".

#include <string>
#include <vector>

#include "engine/facts.h"
#include "engine/trace.h"

namespace attn::io {

// A JSON object of `facts`, in their order: {"key": value, ...}. Strings are escaped, doubles
// written as the shortest text that reads back the same (non-finite ones as "inf", "-inf",
// "nan"), lists as arrays. The writer knows no key: the settings table and the architecture
// say what a run's "config" holds (traceConfigFacts in pipeline/run_request.h).
std::string factsToJson(const Facts& facts);
// The whole trace, with `config` as its "config" object.
std::string traceToJson(const Trace& trace, const std::vector<std::string>& tokens,
                        const Facts& config = {});
// One element of "steps".
std::string stepToJson(const Step& step);
void appendStepJson(std::string& out, const Step& step);
// [1.5,-inf,"nan"]: the values of any tensor, row-major.
void appendTensorData(std::string& out, const Tensor& tensor);

}  // namespace attn::io

#pragma once
// Python source that rebuilds the same input and module in PyTorch (chapter-style classes, the
// same manual seeds) and leaves the module's result in a variable named `output`.

#include <string>

#include "cli/run_options.h"

namespace attn {

// `config` is the configuration the trace actually ran with (batch and d_in may come from an
// embeddings file).
std::string pytorchCode(const RunSpec& spec, const PreparedInput& input, const Config& config);

}  // namespace attn

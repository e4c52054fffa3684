#pragma once
// Whether a state_dict fits a chapter-3 module: the parameters the module's config needs
// (engine/plan's parameterShapes) against the ones a file holds, and the chapter's `mask`
// buffer. A question about the engine's modules, asked of whatever a file reader brings.

#include <optional>
#include <string>
#include <vector>

#include "engine/config.h"
#include "engine/trace.h"

namespace attn {

// Everything wrong with `weights` for the module of `config`, one sentence each: missing names,
// unexpected names, wrong shapes (expected and found, with dim names), and a `mask` /
// `heads.N.mask` buffer that is not triu(ones(context_length, context_length), 1). Empty when
// the weights fit.
std::vector<std::string> weightProblems(const WeightMap& weights, const Config& config);
// The same problems as pieces (see MessagePart), for an interface that translates them.
std::vector<std::vector<MessagePart>> weightProblemParts(const WeightMap& weights,
                                                         const Config& config);
// The size n of the n x n `mask` buffer a state_dict saved from the chapter's modules holds
// (`mask`, or `heads.N.mask` for the wrapper); nullopt when the weights hold none.
std::optional<int64_t> maskBufferSize(const WeightMap& weights);

// Throws attn::UserError("weights", "<source>: <problem>; <problem>") when weightProblems
// finds anything. `source` (usually the file name) may be empty.
void checkWeights(const WeightMap& weights, const Config& config, const std::string& source = "");

}  // namespace attn

#pragma once
// Generating text from a decoder model (DESIGN.md, Asking a model why: sampling): one token at a
// time, each run reusing the previous run's rows (a causal model's earlier rows do not change),
// each token drawn from the last position's logits by sampleToken with one generator seeded once,
// so the same seed, prompt and options give the same tokens.

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/decoder_forward.h"

namespace attn {

struct GenerateRequest {
    std::shared_ptr<const DecoderModel> model;
    std::vector<int64_t> ids;  // the prompt: at least one token
    int64_t maxNew = 1;        // tokens to generate; prompt + maxNew must fit the context
    SamplingOptions sampling;
    uint64_t seed = 123;    // torch.manual_seed-style: the generator's seed
    HeadAblation ablation;  // heads switched off while generating
    uint64_t memoryBudgetBytes = uint64_t(2) << 30;
    const CancelToken* cancel = nullptr;
    // Called on the computing thread after each token, with it and how many are done.
    std::function<void(const SampledToken& token, int64_t done)> progress;
};

struct Generated {
    std::vector<int64_t> ids;          // the prompt and the generated tokens
    std::vector<SampledToken> tokens;  // the generated tokens, in order
};

// Throws UserError("max-new" | "temperature" | "top-k" | "top-p" | "input" | "ablate") before
// computing anything, and Cancelled when the token is set.
Generated generate(const GenerateRequest& request);

}  // namespace attn

#include "engine/generate.h"

#include "engine/config.h"
#include "engine/rng.h"

namespace attn {

Generated generate(const GenerateRequest& request) {
    if (!request.model)
        throw UserError("model", "No model is loaded: open a model file first.");
    checkSamplingOptions(request.sampling);
    const int64_t context = request.model->arch.contextLength;
    const int64_t prompt = static_cast<int64_t>(request.ids.size());
    if (request.maxNew < 1)
        throw UserError("max-new", "Say how many tokens to generate: a whole number from 1.");
    if (prompt + request.maxNew > context)
        throw UserError("max-new", "The prompt has " + std::to_string(prompt) +
                                       " tokens and the model's "
                                       "context is " +
                                       std::to_string(context) + ", so at most " +
                                       std::to_string(std::max<int64_t>(0, context - prompt)) +
                                       " more fit; generate fewer or shorten the text.");
    TorchGenerator generator(request.seed);
    Generated out;
    out.ids = request.ids;
    std::shared_ptr<const DecoderRun> previous;
    for (int64_t n = 0; n < request.maxNew; ++n) {
        DecoderRequest r;
        r.model = request.model;
        r.ids = out.ids;
        r.previous = previous;
        r.ablation = request.ablation;
        r.memoryBudgetBytes = request.memoryBudgetBytes;
        r.cancel = request.cancel;
        previous = runDecoder(r);
        const SampledToken t = sampleToken(nextTokenLogits(*previous, previous->tokens() - 1),
                                           request.sampling, generator);
        out.ids.push_back(t.id);
        out.tokens.push_back(t);
        if (request.progress)
            request.progress(t, n + 1);
    }
    return out;
}

}  // namespace attn

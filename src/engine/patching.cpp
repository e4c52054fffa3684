#include "engine/patching.h"

#include <string>

#include "engine/config.h"
#include "engine/decoder_forward.h"
#include "engine/decoder_model.h"

namespace attn {

namespace {

double measure(const DecoderRun& run, const PatchMetric& metric) {
    if (metric.kind == PatchMetric::Kind::Loss) {
        const std::vector<double> logp = tokenLogProbabilities(run);
        double sum = 0.0;
        for (double v : logp)
            sum -= v;
        return logp.empty() ? 0.0 : sum / double(logp.size());
    }
    const Tensor logits = nextTokenLogits(run, run.tokens() - 1);
    return double(logits.at({metric.a})) - double(logits.at({metric.b}));
}

}  // namespace

PatchingResult activationPatching(const std::shared_ptr<const DecoderModel>& model,
                                  const std::vector<int64_t>& clean,
                                  const std::vector<int64_t>& corrupted, const PatchMetric& metric,
                                  const HeadAblation& ablation, const CancelToken* cancel) {
    const DecoderArchitecture& a = model->arch;
    if (clean.size() != corrupted.size())
        throw UserError("patch-from", "The corrupted text has " + std::to_string(corrupted.size()) +
                                          " tokens and the clean one " +
                                          std::to_string(clean.size()) +
                                          ": patching takes each position from the same "
                                          "position, so both need the same number.");
    if (metric.kind == PatchMetric::Kind::LogitDifference)
        for (int64_t id : {metric.a, metric.b})
            checkTokenId(id, a.vocab, "metric");
    const auto run = [&](const std::vector<int64_t>& ids, ActivationPatch patch = {}) {
        DecoderRequest r;
        r.model = model;
        r.ids = ids;
        r.ablation = ablation;
        r.patch = std::move(patch);
        r.cancel = cancel;
        return runDecoder(r);
    };
    const int64_t L = a.layers, H = a.heads, T = int64_t(clean.size()), hd = a.headSize();
    const int64_t d = a.dModel, qw = a.queryWidth();
    PatchingResult p;
    p.layers = L;
    p.heads = H;
    p.tokens = T;
    const auto cleanRun = run(clean);
    const auto corruptedRun = run(corrupted);
    p.clean = measure(*cleanRun, metric);
    p.corrupted = measure(*corruptedRun, metric);
    p.head.resize(size_t(L * H));
    p.resid.resize(size_t(L * T));
    const Tensor inputs = corruptedRun->blockInputs.contiguous();
    for (int64_t l = 0; l < L; ++l) {
        throwIfCancelled(cancel);
        const Tensor context = blockContext(*corruptedRun, l, cancel).context.contiguous();
        for (int64_t h = 0; h < H; ++h) {
            auto values = std::make_shared<Tensor>(Tensor::uninitialized(Shape{T, hd}));
            for (int64_t t = 0; t < T; ++t)
                std::copy_n(context.data() + t * qw + h * hd, hd, values->mutableData() + t * hd);
            p.head[size_t(l * H + h)] = measure(*run(clean, {l, h, -1, values}), metric);
        }
        for (int64_t t = 0; t < T; ++t) {
            auto values = std::make_shared<Tensor>(Tensor::uninitialized(Shape{d}));
            std::copy_n(inputs.data() + (l * T + t) * d, d, values->mutableData());
            p.resid[size_t(l * T + t)] = measure(*run(clean, {l, -1, t, values}), metric);
        }
    }
    return p;
}

}  // namespace attn

// fuzz_model: loadDecoderModel on arbitrary bytes (safetensors or a torch.save archive, told apart
// by content), then, for a model that loads, a short forward and everything computed on demand.
// Only attn::UserError may escape; a loaded model must pass checkDecoderModel, and its attention
// rows must be distributions over the visible tokens whenever the numbers stay finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/decoder_forward.h"
#include "fuzz_common.h"
#include "io/model_file.h"

using namespace attn;

namespace {

void exercise(const std::shared_ptr<const DecoderModel>& model) {
    fuzz::expectOnlyUserError("checkDecoderModel", [&] { checkDecoderModel(*model); });
    // Big vocabularies or contexts come with big files; the fuzzer's inputs keep them small.
    DecoderRequest r;
    r.model = model;
    const int64_t T = std::min<int64_t>(model->arch.contextLength, 3);
    for (int64_t i = 0; i < T; ++i)
        r.ids.push_back((i * 7) % model->arch.vocab);
    r.memoryBudgetBytes = uint64_t(64) << 20;
    std::shared_ptr<const DecoderRun> run;
    if (!fuzz::expectOnlyUserError("runDecoder", [&] { run = runDecoder(r); }))
        return;
    if (run->attentionKept()) {
        const std::vector<float> w = fuzz::touch(run->attention, "runDecoder attention");
        for (int64_t row = 0; row * T < static_cast<int64_t>(w.size()); ++row) {
            double sum = 0.0;
            bool finite = true;
            for (int64_t j = 0; j < T; ++j) {
                const float v = w[static_cast<size_t>(row * T + j)];
                finite = finite && std::isfinite(v);
                sum += v;
                if (j > row % T)
                    fuzz::check(v == 0.0f || !std::isfinite(v), "runDecoder",
                                "a weight above the diagonal is not 0");
            }
            if (finite)
                fuzz::check(std::fabs(sum - 1.0) < 1e-3, "runDecoder", "a row does not sum to 1");
        }
    }
    fuzz::expectOnlyUserError("layerTrace", [&] { (void)layerTrace(*run, 0); });
    fuzz::expectOnlyUserError("blockContext", [&] { (void)blockContext(*run, 0); });
    fuzz::expectOnlyUserError("nextTokens", [&] { (void)nextTokens(*run, T - 1, 3); });
    fuzz::expectOnlyUserError("tokenLogProbabilities", [&] { (void)tokenLogProbabilities(*run); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const io::SharedBytes bytes =
        io::sharedBytes(std::string(reinterpret_cast<const char*>(data), size));
    std::shared_ptr<const DecoderModel> model;
    bool needsHeads = false;
    const bool loaded = fuzz::expectOnlyUserError("loadDecoderModel", [&] {
        try {
            model = io::loadDecoderModel(bytes, "fuzz.model");
        } catch (const UserError& e) {
            // The file cannot say its head count and d_model is no multiple of 64: ask for 1.
            needsHeads = std::string(e.what()).find("(--heads)") != std::string::npos;
            throw;
        }
    });
    if (!loaded && needsHeads) {
        io::ModelLoadOptions o;
        o.heads = 1;
        if (!fuzz::expectOnlyUserError("loadDecoderModel(heads 1)", [&] {
                model = io::loadDecoderModel(bytes, "fuzz.model", o);
            }))
            return 0;
    } else if (!loaded) {
        return 0;
    }
    exercise(model);
    return 0;
}

#pragma once
// Activation patching (SPEC 15): which heads and which positions of the residual stream carry
// what makes a clean text's answer differ from a corrupted one's. Two texts of the same length
// run; then the clean one again with one activation taken from the corrupted run: a head's
// context at every position (before the output projection, where ablation acts), or the
// residual stream entering a block at one position. Where the metric moves from its clean value
// to its corrupted one, that activation carries the difference. Qt-free.

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/ablation.h"
#include "engine/cancel.h"

namespace attn {

struct DecoderModel;

// What is measured on a run: the logit of `a` minus that of `b` after the last token, or the
// text's mean next-token loss (nats).
struct PatchMetric {
    enum class Kind { LogitDifference, Loss } kind = Kind::LogitDifference;
    int64_t a = 0;
    int64_t b = 0;
};

struct PatchingResult {
    int64_t layers = 0, heads = 0, tokens = 0;
    double clean = 0.0;
    double corrupted = 0.0;
    std::vector<double> head;   // (L * H): the clean run with that head's context patched
    std::vector<double> resid;  // (L * T): with block l's input at position t patched
};

// Throws UserError("patch-from", ...) when the texts differ in length, UserError("metric", ...)
// for a token outside the vocabulary. Runs the model 2 + L (H + T) times: off the GUI thread.
PatchingResult activationPatching(const std::shared_ptr<const DecoderModel>& model,
                                  const std::vector<int64_t>& clean,
                                  const std::vector<int64_t>& corrupted, const PatchMetric& metric,
                                  const HeadAblation& ablation = {},
                                  const CancelToken* cancel = nullptr);

}  // namespace attn

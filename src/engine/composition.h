#pragma once
// How the heads of a trained model feed each other, read from its weights alone: Elhage et
// al. (2021)'s composition scores and each head's copying score, as TransformerLens computes
// them (HookedTransformer.all_composition_scores, with fold_ln, center_writing_weights and
// center_unembed):
//  - a norm is folded into the weights that read it (W <- diag(scale) W; for a LayerNorm the
//    rows then lose their mean over d_model, since the norm centres its input), and a
//    LayerNorm model's writing weights (W_O, W_E) are centred over d_model;
//  - OV = W_V W_O and QK = W_Q W_K^T (d_model x d_model, row vectors: x W) of each head, a
//    query head reading its key/value group's W_K and W_V;
//  - head a of layer la composes into head b of a later layer: Q |OV_a QK_b|_F / (|OV_a|_F
//    |QK_b|_F) (a writes what b's queries read), K the same with QK_b^T (b's keys), V with OV_b
//    (b's values);
//  - copying: the OV circuit W_E OV W_U (vocab x vocab, the final norm folded into W_U, W_U
//    centred over the vocabulary): Re(Σ λ) / Σ |λ| of its eigenvalues, near 1 for a head that
//    copies the token it attends to.
// RoPE, QK-norm and Gemma 3's norms after attention are not in these linear maps, as in
// TransformerLens. Qt-free.

#include <cstdint>
#include <vector>

#include "engine/cancel.h"

namespace attn {

struct DecoderModel;

struct CompositionScores {
    int64_t layers = 0;
    int64_t heads = 0;
    // (L * H) x (L * H), row-major [earlier head][later head], a head's index layer * H + head;
    // NaN unless the later head's layer comes after the earlier one's.
    std::vector<double> q, k, v;
    std::vector<double> copying;  // (L * H)
    double at(const std::vector<double>& scores, int64_t fromLayer, int64_t fromHead,
              int64_t toLayer, int64_t toHead) const;
};

// Costs about (L H)^2 / 2 products of (hd x d) by (d x hd) and one (d x vocab) by (vocab x d):
// call it off the GUI thread. Cancellable.
CompositionScores compositionScores(const DecoderModel& model, const CancelToken* cancel = nullptr);

}  // namespace attn

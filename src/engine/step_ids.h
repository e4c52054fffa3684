#pragma once
// The ids of a trace's steps, as the product specification names them and the CLI's --step
// takes them: one name per id. Code that means a step writes its constant, never the literal.

namespace attn::step_id {

// The chapter-3 module's steps, in the order a trace holds them.
inline constexpr const char kInputs[] = "inputs";
inline constexpr const char kQueries[] = "queries";
inline constexpr const char kKeys[] = "keys";
inline constexpr const char kValues[] = "values";
inline constexpr const char kQueriesSplit[] = "queries_split";
inline constexpr const char kKeysSplit[] = "keys_split";
inline constexpr const char kValuesSplit[] = "values_split";
inline constexpr const char kQueriesHeads[] = "queries_heads";
inline constexpr const char kKeysHeads[] = "keys_heads";
inline constexpr const char kValuesHeads[] = "values_heads";
// After chapter 3 (section 9.1): the latent of multi-head latent attention, the key/value groups
// and their repetition for every query head, QK-norm and the RoPE rotation.
inline constexpr const char kLatent[] = "latent";
inline constexpr const char kKeysGroups[] = "keys_groups";
inline constexpr const char kValuesGroups[] = "values_groups";
inline constexpr const char kQueriesNormed[] = "queries_normed";
inline constexpr const char kKeysNormed[] = "keys_normed";
inline constexpr const char kRopeCos[] = "rope_cos";
inline constexpr const char kRopeSin[] = "rope_sin";
inline constexpr const char kQueriesRotated[] = "queries_rotated";
inline constexpr const char kKeysRotated[] = "keys_rotated";
inline constexpr const char kKeysRepeated[] = "keys_repeated";
inline constexpr const char kValuesRepeated[] = "values_repeated";
inline constexpr const char kScores[] = "scores";
inline constexpr const char kMask[] = "mask";
inline constexpr const char kMaskedScores[] = "masked_scores";
inline constexpr const char kScaledScores[] = "scaled_scores";
inline constexpr const char kWeights[] = "weights";
inline constexpr const char kWeightsUnmasked[] = "weights_unmasked";
inline constexpr const char kWeightsTril[] = "weights_tril";
inline constexpr const char kWeightsRenormalized[] = "weights_renormalized";
inline constexpr const char kDropoutMask[] = "dropout_mask";
inline constexpr const char kDroppedWeights[] = "dropped_weights";
inline constexpr const char kContextHeads[] = "context_heads";
inline constexpr const char kContextTransposed[] = "context_transposed";
inline constexpr const char kContext[] = "context";
inline constexpr const char kOutput[] = "output";

// Model mode's steps around one block's attention.
inline constexpr const char kBlockInput[] = "block_input";
inline constexpr const char kResidualAfterAttention[] = "residual_after_attention";
inline constexpr const char kNorm2[] = "norm2";
inline constexpr const char kFfHidden[] = "ff_hidden";
inline constexpr const char kFfOutput[] = "ff_output";
inline constexpr const char kBlockOutput[] = "block_output";

}  // namespace attn::step_id

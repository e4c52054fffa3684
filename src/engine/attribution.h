#pragma once
// Direct logit attribution: which parts of a trained model write a logit (or the difference of
// two) at a position, and how much each writes (SPEC 15). The residual stream entering the
// final norm is a sum of parts: the embeddings, each head's context through its rows of the
// output projection, each feed-forward's output, and the attention output biases. The final
// norm is linearised at the position (its 1 / sigma or 1 / rms as the forward computed it; a
// LayerNorm also centres each part), so each part's write times the target's unembedding
// column is its share, and the shares with the final norm's shift (in `biases`) sum to the
// logit the model computes. Gemma 3's norm after attention is linearised the same way at its
// own input, so the heads of a layer sum to what the layer writes. Qt-free.

#include <cstdint>
#include <vector>

#include "engine/cancel.h"

namespace attn {

struct DecoderRun;

struct LogitAttribution {
    int64_t position = 0;
    int64_t target = 0;  // the token whose logit is attributed
    int64_t other = -1;  // with another token: the logit of `target` minus that of `other`
    int64_t layers = 0;
    int64_t heads = 0;
    double embed = 0.0;        // token (and position) embeddings
    std::vector<double> head;  // (L * H), row-major: each head's context through W_O
    std::vector<double> mlp;   // (L,): each feed-forward's output with its biases
    double biases = 0.0;       // the attention output biases and the final norm's shift
    double total = 0.0;        // the sum of every part: the logit (difference)
};

// Throws UserError("position", ...) beyond the text and UserError("dla", ...) for a token
// outside the vocabulary. Recomputes each layer's block (blockContext): off the GUI thread.
LogitAttribution directLogitAttribution(const DecoderRun& run, int64_t position, int64_t target,
                                        int64_t other = -1, const CancelToken* cancel = nullptr);

}  // namespace attn

#include "engine/decoder_model.h"

#include <algorithm>
#include <cmath>

#include "engine/config.h"

namespace attn {

std::string weightNamesName(WeightNames names) {
    return names == WeightNames::HuggingFace ? "hf" : "book";
}

std::string familyName(Family family) {
    switch (family) {
        case Family::Gpt2:
            return "gpt2";
        case Family::Llama:
            return "llama";
        case Family::Qwen2:
            return "qwen2";
        case Family::Qwen3:
            return "qwen3";
        case Family::Gemma3:
            return "gemma3_text";
    }
    return "?";
}

std::string normKindName(NormKind norm) {
    switch (norm) {
        case NormKind::LayerNorm:
            return "layer_norm";
        case NormKind::RmsNorm:
            return "rms_norm";
        case NormKind::RmsNormOnePlus:
            return "rms_norm_one_plus";
    }
    return "?";
}

std::string feedForwardKindName(FeedForwardKind kind) {
    switch (kind) {
        case FeedForwardKind::Gelu:
            return "gelu_mlp";
        case FeedForwardKind::SwiGlu:
            return "swiglu";
        case FeedForwardKind::GeGlu:
            return "geglu";
    }
    return "?";
}

std::string ropeScalingName(RopeSpec::Scaling scaling) {
    switch (scaling) {
        case RopeSpec::Scaling::None:
            return "none";
        case RopeSpec::Scaling::Llama3:
            return "llama3";
        case RopeSpec::Scaling::Linear:
            return "linear";
    }
    return "?";
}

Facts architectureFacts(const DecoderArchitecture& a, int64_t layer) {
    Facts f;
    auto add = [&f](const char* key, FactValue value) { f.push_back({key, std::move(value)}); };
    std::vector<int64_t> groups, windows;
    for (int64_t h = 0; h < a.heads; ++h)
        groups.push_back(a.groupOfHead(h));
    for (int64_t l = 0; l < a.layers; ++l)
        windows.push_back(a.windowOf(l));
    add("family", familyName(a.family));
    add("layers", a.layers);
    add("d_model", a.dModel);
    add("vocab", a.vocab);
    add("context_length", a.contextLength);
    add("heads", a.heads);
    add("kv_heads", a.keyValueHeads());
    add("head_groups", std::move(groups));
    add("head_dim", a.headSize());
    add("query_width", a.queryWidth());
    add("qkv_bias", a.qkvBias);
    add("qk_norm", a.qkNorm);
    if (a.queryScale > 0.0) {
        add("query_scale", a.queryScale);
        // The config gives the scalar (a whole number in every published model); its inverse
        // square root is what the architecture keeps, so the square is rounded back to it.
        const double scalar = 1.0 / (a.queryScale * a.queryScale);
        const double whole = std::round(scalar);
        add("query_pre_attn_scalar", std::abs(scalar - whole) <= 1e-9 * whole ? whole : scalar);
    } else {
        const int64_t hd = a.headSize();
        add("query_scale", hd > 0 ? 1.0 / std::sqrt(static_cast<double>(hd)) : 1.0);
    }
    add("norm", normKindName(a.norm));
    add("norm_eps", a.normEps);
    add("sandwich_norms", a.sandwichNorms);
    add("feed_forward", feedForwardKindName(a.feedForward));
    add("ff_hidden", a.ffHidden);
    add("positions", std::string(a.rope ? "rope" : "learned"));
    if (a.rope) {
        const RopeSpec& r = layer >= 0 ? a.ropeOf(layer) : a.globalRope;
        add("rope_base", r.base);
        add("rope_scaling", ropeScalingName(r.scaling));
        if (r.scaling != RopeSpec::Scaling::None)
            add("rope_factor", r.factor);
        if (r.scaling == RopeSpec::Scaling::Llama3) {
            add("rope_low_freq_factor", r.lowFreqFactor);
            add("rope_high_freq_factor", r.highFreqFactor);
            add("rope_original_context", r.originalContext);
        }
    }
    if (layer >= 0)
        add("window", a.windowOf(layer));
    add("windows", std::move(windows));
    add("tied_head", a.tiedHead);
    add("embedding_scale", a.embeddingScale);
    return f;
}

std::string headsSourceName(HeadsSource source) {
    switch (source) {
        case HeadsSource::Request:
            return "request";
        case HeadsSource::Metadata:
            return "metadata";
        case HeadsSource::Default:
            return "default";
        case HeadsSource::Config:
            return "config";
    }
    return "?";
}

DecoderArchitecture gpt2Architecture(int64_t layers, int64_t dModel, int64_t heads, int64_t vocab,
                                     int64_t contextLength, int64_t ffHidden, bool qkvBias,
                                     bool tiedHead) {
    DecoderArchitecture a;
    a.layers = layers;
    a.dModel = dModel;
    a.heads = heads;
    a.vocab = vocab;
    a.contextLength = contextLength;
    a.ffHidden = ffHidden;
    a.qkvBias = qkvBias;
    a.tiedHead = tiedHead;
    return a;
}

BlockFacts DecoderArchitecture::blockFacts(int64_t layer) const {
    BlockFacts f;
    f.layer = layer;
    f.dModel = dModel;
    f.ffHidden = ffHidden;
    f.norm = norm;
    f.feedForward = feedForward;
    f.positions = rope ? PositionKind::Rope : PositionKind::Learned;
    f.qkvBias = qkvBias;
    f.outputBias = outputBias;
    f.sandwichNorms = sandwichNorms;
    f.embeddingScale = embeddingScale;
    return f;
}

int64_t DecoderLinear::inFeatures() const {
    if (!half.empty())
        return half.cols;
    return weight.dim() == 2 ? weight.size(inputMajor ? 0 : 1) : 0;
}

int64_t DecoderLinear::outFeatures() const {
    if (!half.empty())
        return half.rows;
    return weight.dim() == 2 ? weight.size(inputMajor ? 1 : 0) : 0;
}

int64_t DecoderLinear::rowStride() const {
    if (!half.empty())
        return half.cols;
    return weight.dim() == 2 ? weight.strides()[0] : 0;
}

void DecoderModel::embeddingRow(int64_t id, float* out) const {
    if (!tokenEmbeddingHalf.empty()) {
        tokenEmbeddingHalf.rowToFloat(id, out);
        return;
    }
    const int64_t d = arch.dModel;
    std::copy_n(tokenEmbedding.data() + id * d, d, out);
}

bool DecoderModel::headIsEmbedding() const {
    if (!outHead.half.empty())
        return outHead.half.data == tokenEmbeddingHalf.data;
    return !tokenEmbedding.empty() && outHead.weight.sharesStorageWith(tokenEmbedding);
}

int64_t DecoderModel::parameterCount() const {
    // An empty Tensor is a weight the family has not (its numel() would be a scalar's 1).
    auto n = [](const Tensor& t) { return t.empty() ? int64_t(0) : t.numel(); };
    auto halfCount = [](const HalfMatrix& h) { return h.rows * h.cols; };
    auto linear = [&](const DecoderLinear& l) {
        return n(l.weight) + halfCount(l.half) + n(l.bias);
    };
    int64_t total = n(tokenEmbedding) + halfCount(tokenEmbeddingHalf) + n(positionEmbedding) +
                    n(finalNormScale) + n(finalNormShift);
    if (!headIsEmbedding())
        total += linear(outHead);
    for (const DecoderBlock& b : blocks)
        total += n(b.norm1Scale) + n(b.norm1Shift) + linear(b.query) + linear(b.key) +
                 linear(b.value) + n(b.queryNorm) + n(b.keyNorm) + linear(b.outProj) +
                 n(b.postAttentionNorm) + n(b.norm2Scale) + n(b.norm2Shift) + linear(b.ffGate) +
                 linear(b.ffIn) + linear(b.ffOut) + n(b.postFeedForwardNorm);
    return total;
}

void checkDecoderModel(const DecoderModel& m) {
    const DecoderArchitecture& a = m.arch;
    auto fail = [&](const std::string& what, const Shape& found, const Shape& expected) {
        throw UserError("model", m.source + (m.source.empty() ? "" : ": ") + what + " has shape " +
                                     shapeToString(found) + " but a model of " +
                                     std::to_string(a.layers) + " layers, d_model " +
                                     std::to_string(a.dModel) + " and vocabulary " +
                                     std::to_string(a.vocab) + " needs " + shapeToString(expected));
    };
    if (a.layers < 1 || a.dModel < 1 || a.vocab < 1 || a.contextLength < 1 || a.ffHidden < 1)
        throw UserError("model",
                        "A model needs at least one layer, token, position and "
                        "feature; this one has " +
                            std::to_string(a.layers) + " layers, d_model " +
                            std::to_string(a.dModel) + ", vocabulary " + std::to_string(a.vocab) +
                            ", context length " + std::to_string(a.contextLength) + ".");
    // Without a head size of its own (GPT-2), a model cuts d_model into its heads.
    const bool headsCutDModel = a.headDim == 0;
    if (headsCutDModel && (a.heads < 1 || a.dModel % a.heads != 0)) {
        std::string valid;
        for (int64_t h : validHeadCounts(a.dModel))
            valid += (valid.empty() ? "" : ", ") + std::to_string(h);
        throw UserError("heads", "d_model = " + std::to_string(a.dModel) +
                                     " cannot be split into " + std::to_string(a.heads) +
                                     " heads of equal size. Valid head counts: " + valid + ".");
    }
    const int64_t H = a.heads, G = a.keyValueHeads(), hd = a.headSize();
    if (H < 1 || G < 1 || H % G != 0 || hd < 1 || (a.rope && hd % 2 != 0))
        throw UserError("model", m.source + (m.source.empty() ? "" : ": ") + std::to_string(H) +
                                     " query heads, " + std::to_string(G) +
                                     " key/value heads and head size " + std::to_string(hd) +
                                     " do not fit together: the key/value heads must divide the "
                                     "query heads" +
                                     (a.rope ? ", and RoPE needs an even head size" : "") + ".");
    if (!a.windows.empty() && static_cast<int64_t>(a.windows.size()) != a.layers)
        throw UserError("model", "The model lists " + std::to_string(a.windows.size()) +
                                     " sliding windows for its " + std::to_string(a.layers) +
                                     " layers; it needs one per layer (0 for full attention).");
    auto expect = [&](const std::string& what, const Tensor& t, const Shape& shape) {
        if (t.shape() != shape)
            fail(what, t.shape(), shape);
    };
    auto expectContiguous = [&](const std::string& what, const Tensor& t, const Shape& shape) {
        expect(what, t, shape);
        if (!t.isContiguous())
            throw UserError("model", what + " is not stored row by row");
    };
    // A vector that is there exactly when `wanted`.
    auto expectOptional = [&](const std::string& what, const Tensor& t, int64_t n, bool wanted) {
        if (wanted)
            expectContiguous(what, t, {n});
        else if (!t.empty())
            throw UserError("model", what + " is there, but this model's family has none");
    };
    auto expectLinear = [&](const std::string& what, const DecoderLinear& l, int64_t in,
                            int64_t out, bool bias) {
        const Shape shape = l.inputMajor ? Shape{in, out} : Shape{out, in};
        if (!l.half.empty()) {
            if (l.inputMajor || l.half.rows != out || l.half.cols != in || !l.weight.empty())
                fail(what + " weight", {l.half.rows, l.half.cols}, shape);
        } else {
            expect(what + " weight", l.weight, shape);
            if (l.weight.strides()[1] != 1 || l.rowStride() < l.weight.size(1))
                throw UserError("model", what + " weight is not laid out row by row");
        }
        if (bias)
            expectContiguous(what + " bias", l.bias, {out});
        else if (!l.bias.empty())
            throw UserError("model", what + " has a bias, but this model has none there");
    };
    const int64_t d = a.dModel, F = a.ffHidden;
    const bool layerNorm = a.norm == NormKind::LayerNorm;
    const bool glu = a.feedForward != FeedForwardKind::Gelu;
    if (m.tokenEmbeddingHalf.empty())
        expectContiguous("the token embedding", m.tokenEmbedding, {a.vocab, d});
    else if (m.tokenEmbeddingHalf.rows != a.vocab || m.tokenEmbeddingHalf.cols != d)
        fail("the token embedding", {m.tokenEmbeddingHalf.rows, m.tokenEmbeddingHalf.cols},
             {a.vocab, d});
    if (a.rope)
        expectOptional("the position embedding", m.positionEmbedding, 0, false);
    else
        expectContiguous("the position embedding", m.positionEmbedding, {a.contextLength, d});
    expectLinear("the output head", m.outHead, d, a.vocab, false);
    expectContiguous("the final norm scale", m.finalNormScale, {d});
    expectOptional("the final norm shift", m.finalNormShift, d, layerNorm);
    if (static_cast<int64_t>(m.blocks.size()) != a.layers)
        throw UserError("model", "The model has " + std::to_string(m.blocks.size()) +
                                     " blocks but says it has " + std::to_string(a.layers) +
                                     " layers.");
    for (size_t i = 0; i < m.blocks.size(); ++i) {
        const DecoderBlock& b = m.blocks[i];
        const std::string p = "block " + std::to_string(i) + " ";
        expectContiguous(p + "norm1 scale", b.norm1Scale, {d});
        expectOptional(p + "norm1 shift", b.norm1Shift, d, layerNorm);
        expectContiguous(p + "norm2 scale", b.norm2Scale, {d});
        expectOptional(p + "norm2 shift", b.norm2Shift, d, layerNorm);
        expectLinear(p + "query", b.query, d, H * hd, a.qkvBias);
        expectLinear(p + "key", b.key, d, G * hd, a.qkvBias);
        expectLinear(p + "value", b.value, d, G * hd, a.qkvBias);
        expectOptional(p + "query norm", b.queryNorm, hd, a.qkNorm);
        expectOptional(p + "key norm", b.keyNorm, hd, a.qkNorm);
        expectLinear(p + "out_proj", b.outProj, H * hd, d, a.outputBias);
        expectOptional(p + "post-attention norm", b.postAttentionNorm, d, a.sandwichNorms);
        if (glu)
            expectLinear(p + "feed-forward gate", b.ffGate, d, F, false);
        else if (!b.ffGate.weight.empty())
            throw UserError("model", p + "has a feed-forward gate, but GPT-2's has none");
        expectLinear(p + "feed-forward in", b.ffIn, d, F, a.outputBias);
        expectLinear(p + "feed-forward out", b.ffOut, F, d, a.outputBias);
        expectOptional(p + "post-feed-forward norm", b.postFeedForwardNorm, d, a.sandwichNorms);
    }
}

}  // namespace attn

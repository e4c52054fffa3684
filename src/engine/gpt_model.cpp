#include "engine/gpt_model.h"

#include "engine/config.h"

namespace attn {

std::string gptNamesName(GptNames names) {
    return names == GptNames::HuggingFace ? "hf" : "book";
}

std::string headsSourceName(HeadsSource source) {
    switch (source) {
        case HeadsSource::Request:
            return "request";
        case HeadsSource::Metadata:
            return "metadata";
        case HeadsSource::Default:
            return "default";
    }
    return "?";
}

int64_t GptLinear::inFeatures() const {
    return weight.dim() == 2 ? weight.size(inputMajor ? 0 : 1) : 0;
}

int64_t GptLinear::outFeatures() const {
    return weight.dim() == 2 ? weight.size(inputMajor ? 1 : 0) : 0;
}

int64_t GptLinear::rowStride() const {
    return weight.dim() == 2 ? weight.strides()[0] : 0;
}

int64_t GptModel::parameterCount() const {
    int64_t n = tokenEmbedding.numel() + positionEmbedding.numel() + finalNormScale.numel() +
                finalNormShift.numel();
    if (!outHead.sharesStorageWith(tokenEmbedding))
        n += outHead.numel();
    auto linear = [](const GptLinear& l) { return l.weight.numel() + l.bias.numel(); };
    for (const GptBlock& b : blocks)
        n += b.norm1Scale.numel() + b.norm1Shift.numel() + linear(b.query) + linear(b.key) +
             linear(b.value) + linear(b.outProj) + b.norm2Scale.numel() + b.norm2Shift.numel() +
             linear(b.ffIn) + linear(b.ffOut);
    return n;
}

void checkGptModel(const GptModel& m) {
    const GptArchitecture& a = m.arch;
    auto fail = [&](const std::string& what, const Shape& found, const Shape& expected) {
        throw UserError("model",
                          m.source + (m.source.empty() ? "" : ": ") + what + " has shape " +
                              shapeToString(found) + " but a model of " + std::to_string(a.layers) +
                              " layers, d_model " + std::to_string(a.dModel) + " and vocabulary " +
                              std::to_string(a.vocab) + " needs " + shapeToString(expected));
    };
    if (a.layers < 1 || a.dModel < 1 || a.vocab < 1 || a.contextLength < 1 || a.ffHidden < 1)
        throw UserError("model",
                          "A model needs at least one layer, token, position and "
                          "feature; this one has " +
                              std::to_string(a.layers) + " layers, d_model " +
                              std::to_string(a.dModel) + ", vocabulary " + std::to_string(a.vocab) +
                              ", context length " + std::to_string(a.contextLength) + ".");
    if (a.heads < 1 || a.dModel % a.heads != 0) {
        std::string valid;
        for (int64_t h : validHeadCounts(a.dModel))
            valid += (valid.empty() ? "" : ", ") + std::to_string(h);
        throw UserError("heads", "d_model = " + std::to_string(a.dModel) +
                                       " cannot be split into " + std::to_string(a.heads) +
                                       " heads of equal size. Valid head counts: " + valid + ".");
    }
    auto expect = [&](const std::string& what, const Tensor& t, const Shape& shape) {
        if (t.shape() != shape)
            fail(what, t.shape(), shape);
    };
    auto expectContiguous = [&](const std::string& what, const Tensor& t, const Shape& shape) {
        expect(what, t, shape);
        if (!t.isContiguous())
            throw UserError("model", what + " is not stored row by row");
    };
    auto expectLinear = [&](const std::string& what, const GptLinear& l, int64_t in, int64_t out,
                            bool bias) {
        const Shape shape = l.inputMajor ? Shape{in, out} : Shape{out, in};
        expect(what + " weight", l.weight, shape);
        if (l.weight.strides()[1] != 1 || l.rowStride() < l.weight.size(1))
            throw UserError("model", what + " weight is not laid out row by row");
        if (bias)
            expectContiguous(what + " bias", l.bias, {out});
        else if (!l.bias.empty())
            throw UserError("model", what + " has a bias, but this model has none there");
    };
    const int64_t d = a.dModel;
    expectContiguous("the token embedding", m.tokenEmbedding, {a.vocab, d});
    expectContiguous("the position embedding", m.positionEmbedding, {a.contextLength, d});
    expectContiguous("the output head", m.outHead, {a.vocab, d});
    expectContiguous("the final norm scale", m.finalNormScale, {d});
    expectContiguous("the final norm shift", m.finalNormShift, {d});
    if (static_cast<int64_t>(m.blocks.size()) != a.layers)
        throw UserError("model", "The model has " + std::to_string(m.blocks.size()) +
                                       " blocks but says it has " + std::to_string(a.layers) +
                                       " layers.");
    for (size_t i = 0; i < m.blocks.size(); ++i) {
        const GptBlock& b = m.blocks[i];
        const std::string p = "block " + std::to_string(i) + " ";
        expectContiguous(p + "norm1 scale", b.norm1Scale, {d});
        expectContiguous(p + "norm1 shift", b.norm1Shift, {d});
        expectContiguous(p + "norm2 scale", b.norm2Scale, {d});
        expectContiguous(p + "norm2 shift", b.norm2Shift, {d});
        expectLinear(p + "query", b.query, d, d, a.qkvBias);
        expectLinear(p + "key", b.key, d, d, a.qkvBias);
        expectLinear(p + "value", b.value, d, d, a.qkvBias);
        expectLinear(p + "out_proj", b.outProj, d, d, true);
        expectLinear(p + "feed-forward in", b.ffIn, d, a.ffHidden, true);
        expectLinear(p + "feed-forward out", b.ffOut, a.ffHidden, d, true);
    }
}

}  // namespace attn

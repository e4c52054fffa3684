#pragma once
// Small GPT models whose heads do what a test says: attend to the previous token, to
// themselves, to the first token, evenly, or at random. Built by hand from the positions:
// the position embedding of token i is a spike in residual dimension i, so after LayerNorm a
// query that copies dimensions 0..hd-1 and a key that copies them shifted by one meet exactly
// at key j = i - 1. Every other weight is zero unless `noise` asks for random ones, so with
// noise 0 every layer sees the same input (out_proj and the MLP add nothing).

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "engine/decoder_forward.h"
#include "engine/decoder_model.h"

namespace attn::testing {

enum class HeadPattern { Uniform, Previous, Self, First, Random };

struct PatternModelSpec {
    int64_t layers = 2, heads = 4, headSize = 16, vocab = 64, context = 16;
    float sharpness = 3.0f;  // weight of the designed query and key maps
    float noise = 0.0f;      // random weights added everywhere (realistic-looking pictures)
    uint32_t seed = 5;
    std::function<HeadPattern(int64_t layer, int64_t head)> pattern;
};

inline Tensor filledTensor(const Shape& shape, float value = 0.0f) {
    return Tensor(shape, std::vector<float>(size_t(shapeNumel(shape)), value));
}

inline std::shared_ptr<DecoderModel> patternModel(const PatternModelSpec& s) {
    if (s.context > s.headSize)
        throw std::invalid_argument("the positions must fit in one head's dimensions");
    const int64_t d = s.heads * s.headSize, F = 4 * d, hd = s.headSize;
    std::mt19937 gen(s.seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    auto noisy = [&](const Shape& shape, float scale) {
        Tensor t = filledTensor(shape);
        if (scale != 0.0f)
            for (int64_t i = 0; i < t.numel(); ++i)
                t.mutableData()[i] = scale * normal(gen);
        return t;
    };
    auto linear = [&](int64_t in, int64_t out, float scale) {
        DecoderLinear l;
        l.weight = noisy({out, in}, scale);  // nn.Linear (out, in)
        l.bias = filledTensor({out});
        return l;
    };

    auto m = std::make_shared<DecoderModel>();
    m->arch = gpt2Architecture(s.layers, d, s.heads, s.vocab, s.context, F, true, true);
    m->names = WeightNames::Book;
    m->dtype = "F32";
    m->source = "pattern";
    // Token identity lives in the dimensions after the positions, small beside them.
    m->tokenEmbedding = filledTensor({s.vocab, d});
    for (int64_t v = 0; v < s.vocab; ++v)
        for (int64_t k = s.context; k < d; ++k)
            m->tokenEmbedding.mutableData()[v * d + k] = 0.3f * normal(gen);
    m->positionEmbedding = filledTensor({s.context, d});
    for (int64_t i = 0; i < s.context; ++i)
        m->positionEmbedding.mutableData()[i * d + i] = 4.0f;

    const float w = s.sharpness;
    for (int64_t l = 0; l < s.layers; ++l) {
        DecoderBlock b;
        b.norm1Scale = filledTensor({d}, 1.0f);
        b.norm1Shift = filledTensor({d});
        b.query = linear(d, d, s.noise / 8);
        b.key = linear(d, d, s.noise / 8);
        b.value = linear(d, d, s.noise / 4);
        float* q = b.query.weight.mutableData();
        float* k = b.key.weight.mutableData();
        for (int64_t h = 0; h < s.heads; ++h) {
            const int64_t o = h * hd;  // the head's first output dimension
            switch (s.pattern ? s.pattern(l, h) : HeadPattern::Uniform) {
                case HeadPattern::Previous:
                    for (int64_t c = 0; c < hd; ++c) {
                        q[(o + c) * d + c] += w;
                        if (c >= 1)
                            k[(o + c) * d + c - 1] += w;
                    }
                    break;
                case HeadPattern::Self:
                    for (int64_t c = 0; c < hd; ++c) {
                        q[(o + c) * d + c] += w;
                        k[(o + c) * d + c] += w;
                    }
                    break;
                case HeadPattern::First:
                    b.query.bias.mutableData()[o] = 3.0f * w;
                    k[o * d + 0] += w;
                    break;
                case HeadPattern::Random:
                    for (int64_t c = 0; c < hd; ++c)
                        for (int64_t in = 0; in < d; ++in) {
                            q[(o + c) * d + in] += 0.3f * w * normal(gen);
                            k[(o + c) * d + in] += 0.3f * w * normal(gen);
                        }
                    break;
                case HeadPattern::Uniform:
                    break;
            }
        }
        b.outProj = linear(d, d, s.noise / 8);
        b.norm2Scale = filledTensor({d}, 1.0f);
        b.norm2Shift = filledTensor({d});
        b.ffIn = linear(d, F, s.noise / 8);
        b.ffOut = linear(F, d, s.noise / 16);
        m->blocks.push_back(b);
    }
    m->finalNormScale = filledTensor({d}, 1.0f);
    m->finalNormShift = filledTensor({d});
    m->outHead.weight = m->tokenEmbedding;  // tied, as GPT-2
    checkDecoderModel(*m);
    return m;
}

inline std::vector<int64_t> sequentialIds(int64_t T, int64_t vocab, int64_t first = 3) {
    std::vector<int64_t> ids;
    for (int64_t i = 0; i < T; ++i)
        ids.push_back((first + 7 * i) % vocab);
    return ids;
}

inline std::shared_ptr<const DecoderRun> runModel(std::shared_ptr<const DecoderModel> model,
                                                  std::vector<int64_t> ids,
                                                  bool keepAttention = true, int64_t cells = 64) {
    DecoderRequest r;
    r.model = std::move(model);
    r.ids = std::move(ids);
    r.thumbnailCells = cells;
    if (!keepAttention)
        r.memoryBudgetBytes =
            estimateDecoderRunBytes(r.model->arch, int64_t(r.ids.size()), cells, false);
    return runDecoder(r);
}

// Layer 1 head 2 attends to the previous token, layer 0 head 1 to the first token and layer 1
// head 0 to itself; the other heads of the 2 x 4 model spread evenly.
inline PatternModelSpec designedSpec() {
    PatternModelSpec s;
    s.pattern = [](int64_t l, int64_t h) {
        if (l == 1 && h == 2)
            return HeadPattern::Previous;
        if (l == 0 && h == 1)
            return HeadPattern::First;
        if (l == 1 && h == 0)
            return HeadPattern::Self;
        return HeadPattern::Uniform;
    };
    return s;
}

// A GPT-2-small-shaped (12 x 12) run of 16 tokens mixing every pattern, a little noisy: what
// the screenshots show.
inline std::shared_ptr<const DecoderRun> screenshotRun() {
    PatternModelSpec spec;
    spec.layers = 12;
    spec.heads = 12;
    spec.noise = 0.3f;
    spec.pattern = [](int64_t l, int64_t h) {
        const HeadPattern kinds[] = {HeadPattern::Random, HeadPattern::Previous,
                                     HeadPattern::First,  HeadPattern::Random,
                                     HeadPattern::Self,   HeadPattern::Uniform};
        return kinds[(l * 5 + h * 3) % 6];
    };
    return runModel(patternModel(spec), sequentialIds(16, 64));
}

}  // namespace attn::testing

#include "engine/attribution.h"

#include <cmath>
#include <string>

#include "engine/config.h"
#include "engine/decoder_forward.h"
#include "engine/decoder_model.h"

namespace attn {

namespace {

std::vector<double> rowOf(const Tensor& t, int64_t row) {
    const Tensor c = t.contiguous();
    const int64_t d = c.size(-1);
    const float* p = c.data() + row * d;
    return std::vector<double>(p, p + d);
}

std::vector<double> vectorOf(const Tensor& t) {
    return rowOf(t.contiguous().view({1, t.numel()}), 0);
}

// The unembedding direction: W_U's column for `target`, minus `other`'s.
std::vector<double> direction(const DecoderModel& m, int64_t target, int64_t other) {
    const int64_t d = m.arch.dModel;
    std::vector<float> row(static_cast<size_t>(d));
    std::vector<double> u(static_cast<size_t>(d), 0.0);
    const auto add = [&](int64_t id, double sign) {
        const DecoderLinear& h = m.outHead;
        if (!h.half.empty()) {
            h.half.rowToFloat(id, row.data());
        } else {
            const float* w = h.weight.data() + id * h.rowStride();
            std::copy(w, w + d, row.begin());
        }
        for (int64_t j = 0; j < d; ++j)
            u[size_t(j)] += sign * row[size_t(j)];
    };
    add(target, 1.0);
    if (other >= 0)
        add(other, -1.0);
    return u;
}

double rms(const std::vector<double>& x, double eps) {
    double s = 0.0;
    for (double v : x)
        s += v * v;
    return std::sqrt(s / double(x.size()) + eps);
}

}  // namespace

LogitAttribution directLogitAttribution(const DecoderRun& run, int64_t position, int64_t target,
                                        int64_t other, const CancelToken* cancel) {
    const DecoderModel& m = *run.model;
    const DecoderArchitecture& a = m.arch;
    const int64_t T = run.tokens(), d = a.dModel, H = a.heads, hd = a.headSize();
    if (position < 0 || position >= T)
        throw UserError("position", "Position " + std::to_string(position) +
                                        " is not in the text: it has positions 0 to " +
                                        std::to_string(T - 1) + ".");
    checkTokenId(target, a.vocab, "dla");
    if (other != -1)  // -1: no second token, the logit itself
        checkTokenId(other, a.vocab, "dla");
    LogitAttribution r;
    r.position = position;
    r.target = target;
    r.other = other;
    r.layers = a.layers;
    r.heads = H;
    r.head.assign(size_t(a.layers * H), 0.0);
    r.mlp.assign(size_t(a.layers), 0.0);

    // The parts of the residual stream at `position`, each a d-vector, in the order they add up.
    std::vector<std::vector<double>> parts;
    std::vector<double*> shareOf;  // where each part's share goes
    std::vector<double> finalX;
    const Tensor blockInputs = run.blockInputs.contiguous();
    {
        const float* x0 = blockInputs.data() + position * d;  // layer 0's input: the embeddings
        parts.emplace_back(x0, x0 + d);
        shareOf.push_back(&r.embed);
    }
    std::vector<double> attentionBias(static_cast<size_t>(d), 0.0);
    for (int64_t l = 0; l < a.layers; ++l) {
        throwIfCancelled(cancel);
        const DecoderBlock& b = m.blocks[size_t(l)];
        const DecoderBlockContext c = blockContext(run, l, cancel);
        const std::vector<double> ctx = rowOf(c.context, position);
        const std::vector<double> written = rowOf(c.attentionOutput, position);
        // Gemma 3's norm after attention, linearised at its input: (1 + g) / rms.
        std::vector<double> postScale(static_cast<size_t>(d), 1.0);
        if (!b.postAttentionNorm.empty()) {
            const double r0 = rms(rowOf(c.attentionProjected, position), a.normEps);
            const std::vector<double> g = vectorOf(b.postAttentionNorm);
            for (int64_t j = 0; j < d; ++j)
                postScale[size_t(j)] =
                    (a.norm == NormKind::RmsNormOnePlus ? 1.0 + g[size_t(j)] : g[size_t(j)]) / r0;
        }
        std::vector<double> headsSum(static_cast<size_t>(d), 0.0);
        const DecoderLinear& o = b.outProj;
        const int64_t qw = a.queryWidth();
        std::vector<std::vector<double>> writes(static_cast<size_t>(H),
                                                std::vector<double>(static_cast<size_t>(d)));
        // out_proj: y_j = sum_i ctx_i W[i, j]; column j is read (and converted, for a 16-bit
        // weight) once for every head.
        std::vector<float> column(static_cast<size_t>(qw));
        for (int64_t j = 0; j < d; ++j) {
            if (!o.half.empty()) {
                o.half.rowToFloat(j, column.data());
            } else {
                const float* wt = o.weight.data();
                const int64_t st = o.rowStride();
                for (int64_t i = 0; i < qw; ++i)
                    column[size_t(i)] = o.inputMajor ? wt[i * st + j] : wt[j * st + i];
            }
            for (int64_t h = 0; h < H; ++h) {
                double s = 0.0;
                for (int64_t i = h * hd; i < (h + 1) * hd; ++i)
                    s += ctx[size_t(i)] * column[size_t(i)];
                const double w = s * postScale[size_t(j)];
                writes[size_t(h)][size_t(j)] = w;
                headsSum[size_t(j)] += w;
            }
        }
        for (int64_t h = 0; h < H; ++h) {
            parts.push_back(std::move(writes[size_t(h)]));
            shareOf.push_back(&r.head[size_t(l * H + h)]);
        }
        // What the layer writes beyond its heads: out_proj's bias (GPT-2), else rounding.
        for (int64_t j = 0; j < d; ++j)
            attentionBias[size_t(j)] += written[size_t(j)] - headsSum[size_t(j)];
        parts.push_back(rowOf(c.ffOutput, position));
        shareOf.push_back(&r.mlp[size_t(l)]);
        if (l + 1 == a.layers)
            finalX = rowOf(c.residualOut, position);
    }
    parts.push_back(attentionBias);
    shareOf.push_back(&r.biases);
    if (a.layers == 0)
        finalX = parts.front();

    // The final norm, linearised at the position's residual stream.
    const std::vector<double> u = direction(m, target, other);
    std::vector<double> gu(static_cast<size_t>(d));
    const std::vector<double> g = vectorOf(m.finalNormScale);
    for (int64_t j = 0; j < d; ++j)
        gu[size_t(j)] =
            (a.norm == NormKind::RmsNormOnePlus ? 1.0 + g[size_t(j)] : g[size_t(j)]) * u[size_t(j)];
    const bool layerNorm = a.norm == NormKind::LayerNorm;
    double divisor = 0.0;
    if (layerNorm) {
        double mean = 0.0, var = 0.0;
        for (double v : finalX)
            mean += v;
        mean /= double(d);
        for (double v : finalX)
            var += (v - mean) * (v - mean);
        divisor = std::sqrt(var / double(d) + a.normEps);
    } else {
        divisor = rms(finalX, a.normEps);
    }
    for (size_t p = 0; p < parts.size(); ++p) {
        const std::vector<double>& c = parts[p];
        double mean = 0.0;
        if (layerNorm) {
            for (double v : c)
                mean += v;
            mean /= double(d);
        }
        double share = 0.0;
        for (int64_t j = 0; j < d; ++j)
            share += (c[size_t(j)] - mean) * gu[size_t(j)];
        *shareOf[p] += share / divisor;
    }
    if (!m.finalNormShift.empty()) {
        const std::vector<double> shift = vectorOf(m.finalNormShift);
        for (int64_t j = 0; j < d; ++j)
            r.biases += shift[size_t(j)] * u[size_t(j)];
    }
    r.total = r.embed + r.biases;
    for (double v : r.head)
        r.total += v;
    for (double v : r.mlp)
        r.total += v;
    return r;
}

}  // namespace attn

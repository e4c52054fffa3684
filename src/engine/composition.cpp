#include "engine/composition.h"

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

#include "engine/decoder_model.h"

namespace attn {

namespace {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

// A linear map as an (in, out) matrix: x @ W.
Matrix inputMajor(const DecoderLinear& l) {
    const int64_t in = l.inFeatures(), out = l.outFeatures();
    Matrix m(in, out);
    if (!l.half.empty()) {  // (out, in), row by row
        std::vector<float> row(static_cast<size_t>(l.half.cols));
        for (int64_t o = 0; o < out; ++o) {
            l.half.rowToFloat(o, row.data());
            for (int64_t i = 0; i < in; ++i)
                m(i, o) = row[size_t(i)];
        }
        return m;
    }
    const float* w = l.weight.data();
    const int64_t stride = l.rowStride();
    for (int64_t i = 0; i < in; ++i)
        for (int64_t o = 0; o < out; ++o)
            m(i, o) = l.inputMajor ? w[i * stride + o] : w[o * stride + i];
    return m;
}

Vector vectorOf(const Tensor& t) {
    Vector v(t.numel());
    const Tensor c = t.contiguous();
    for (int64_t i = 0; i < t.numel(); ++i)
        v(i) = c.data()[i];
    return v;
}

// The scale a norm multiplies by: its weight, or 1 + weight for Gemma 3's.
Vector normScale(const Tensor& weight, NormKind norm) {
    Vector s = vectorOf(weight);
    if (norm == NormKind::RmsNormOnePlus)
        s.array() += 1.0;
    return s;
}

// A reading weight (d, n) with its norm folded in: rows scaled, and centred for a LayerNorm.
Matrix folded(Matrix w, const Vector& scale, NormKind norm) {
    w = scale.asDiagonal() * w;
    if (norm == NormKind::LayerNorm)
        w.rowwise() -= w.colwise().mean();
    return w;
}

// The token embedding (vocab, d).
Matrix embedding(const DecoderModel& m) {
    const int64_t d = m.arch.dModel, vocab = m.arch.vocab;
    Matrix e(vocab, d);
    std::vector<float> row(static_cast<size_t>(d));
    for (int64_t id = 0; id < vocab; ++id) {
        m.embeddingRow(id, row.data());
        for (int64_t j = 0; j < d; ++j)
            e(id, j) = row[size_t(j)];
    }
    return e;
}

// Per head, the low-rank factors: QK = Q K^T and OV = V O, each factor (d, hd) or (hd, d).
struct HeadMaps {
    Matrix q, k, v, o;  // (d, hd), (d, hd), (d, hd), (hd, d)
};

// |A B^T|_F^2 for (d, r) A and B without forming the d x d product: trace((A^T A)(B^T B)).
double productNormSquared(const Matrix& gramA, const Matrix& gramB) {
    return (gramA.cwiseProduct(gramB.transpose())).sum();
}

}  // namespace

double CompositionScores::at(const std::vector<double>& scores, int64_t fromLayer, int64_t fromHead,
                             int64_t toLayer, int64_t toHead) const {
    const int64_t n = layers * heads;
    const int64_t a = fromLayer * heads + fromHead, b = toLayer * heads + toHead;
    if (fromHead < 0 || toHead < 0 || fromHead >= heads || toHead >= heads || a < 0 || b < 0 ||
        a >= n || b >= n || size_t(a * n + b) >= scores.size())
        return std::numeric_limits<double>::quiet_NaN();
    return scores[size_t(a * n + b)];
}

CompositionScores compositionScores(const DecoderModel& model, const CancelToken* cancel) {
    const DecoderArchitecture& a = model.arch;
    CompositionScores s;
    s.layers = a.layers;
    s.heads = a.heads;
    const int64_t H = a.heads, hd = a.headSize(), n = a.layers * a.heads;
    const bool layerNorm = a.norm == NormKind::LayerNorm;
    std::vector<HeadMaps> maps(static_cast<size_t>(n));
    for (int64_t l = 0; l < a.layers; ++l) {
        throwIfCancelled(cancel);
        const DecoderBlock& b = model.blocks[size_t(l)];
        const Vector scale = normScale(b.norm1Scale, a.norm);
        const Matrix wq = folded(inputMajor(b.query), scale, a.norm);
        const Matrix wk = folded(inputMajor(b.key), scale, a.norm);
        const Matrix wv = folded(inputMajor(b.value), scale, a.norm);
        Matrix wo = inputMajor(b.outProj);  // (heads * hd, d)
        if (layerNorm)
            wo.colwise() -= wo.rowwise().mean();
        for (int64_t h = 0; h < H; ++h) {
            const int64_t g = a.groupOfHead(h);
            HeadMaps& m = maps[size_t(l * H + h)];
            m.q = wq.middleCols(h * hd, hd);
            m.k = wk.middleCols(g * hd, hd);
            m.v = wv.middleCols(g * hd, hd);
            m.o = wo.middleRows(h * hd, hd);
        }
    }
    // With QK = Q K^T and OV = V O: |OV_a QK_b|^2 = |(V_a)(O_a Q_b)(K_b^T)|^2
    // = trace(Gv_a M Gk_b M^T) for M = O_a Q_b and the Gram matrices G = X^T X (hd x hd).
    const auto count = static_cast<size_t>(n);
    std::vector<Matrix> gq(count), gk(count), gv(count), go(count);
    std::vector<double> qkNorm(count), ovNorm(count);
    for (int64_t i = 0; i < n; ++i) {
        const HeadMaps& m = maps[size_t(i)];
        gq[size_t(i)] = m.q.transpose() * m.q;
        gk[size_t(i)] = m.k.transpose() * m.k;
        gv[size_t(i)] = m.v.transpose() * m.v;
        go[size_t(i)] = m.o * m.o.transpose();
        qkNorm[size_t(i)] = std::sqrt(productNormSquared(gq[size_t(i)], gk[size_t(i)]));
        ovNorm[size_t(i)] = std::sqrt(productNormSquared(gv[size_t(i)], go[size_t(i)]));
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    s.q.assign(size_t(n * n), nan);
    s.k.assign(size_t(n * n), nan);
    s.v.assign(size_t(n * n), nan);
    for (int64_t i = 0; i < n; ++i) {
        throwIfCancelled(cancel);
        const HeadMaps& from = maps[size_t(i)];
        for (int64_t j = (i / H + 1) * H; j < n; ++j) {
            const HeadMaps& to = maps[size_t(j)];
            // Q: V_a (O_a Q_b) K_b^T; K: V_a (O_a K_b) Q_b^T; V: V_a (O_a V_b) O_b.
            const Matrix mq = from.o * to.q, mk = from.o * to.k, mv = from.o * to.v;
            const auto norm = [&](const Matrix& mid, const Matrix& gramRight) {
                return std::sqrt(
                    std::max(0.0, (gv[size_t(i)] * mid * gramRight * mid.transpose()).trace()));
            };
            const size_t at = size_t(i * n + j);
            s.q[at] = norm(mq, gk[size_t(j)]) / (ovNorm[size_t(i)] * qkNorm[size_t(j)]);
            s.k[at] = norm(mk, gq[size_t(j)]) / (ovNorm[size_t(i)] * qkNorm[size_t(j)]);
            s.v[at] = norm(mv, go[size_t(j)]) / (ovNorm[size_t(i)] * ovNorm[size_t(j)]);
        }
    }
    // Copying: the nonzero eigenvalues of W_E V O W_U are those of O (W_U W_E) V (hd x hd).
    throwIfCancelled(cancel);
    Matrix e = embedding(model);  // (vocab, d)
    if (layerNorm)
        e.colwise() -= e.rowwise().mean();
    Matrix unembed = inputMajor(model.outHead);  // (d, vocab)
    unembed = folded(unembed, normScale(model.finalNormScale, a.norm), a.norm);
    unembed.colwise() -= unembed.rowwise().mean();
    throwIfCancelled(cancel);
    const Matrix ue = unembed * e;  // (d, d)
    s.copying.assign(size_t(n), nan);
    for (int64_t i = 0; i < n; ++i) {
        const HeadMaps& m = maps[size_t(i)];
        const Matrix small = m.o * ue * m.v;
        const Eigen::VectorXcd lambda = small.eigenvalues();
        const double magnitude = lambda.cwiseAbs().sum();
        if (magnitude > 0)
            s.copying[size_t(i)] = lambda.sum().real() / magnitude;
    }
    return s;
}

}  // namespace attn

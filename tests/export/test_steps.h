#pragma once
// Hand-built trace steps for the figure tests (no engine computation involved), and helpers
// that show widgets and send them mouse events.

#include <gtest/gtest.h>

#include <QStringList>

#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QMouseEvent>
#include <QTest>
#include <QWidget>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/dark_palette.h"
#include "engine/tensor.h"
#include "engine/trace.h"
#include "export/heatmap_data.h"

namespace attn::testing {

inline constexpr float kNegInf = -std::numeric_limits<float>::infinity();

inline Step makeStep(const std::string& id, StepKind kind, std::vector<std::string> dims,
                     Shape shape, std::vector<float> values, const std::string& op = "") {
    Step s;
    s.info.id = id;
    s.info.title = id;
    s.info.op = op;
    s.info.shape = shape;
    s.info.dims = std::move(dims);
    s.info.kind = kind;
    s.value = Tensor(std::move(shape), std::move(values));
    return s;
}

inline QStringList bookTokens() {
    return {"Your", "journey", "starts", "with", "one", "step"};
}

// The chapter's causal attention weights (rows sum to 1, zeros above the diagonal).
inline std::vector<float> causalWeights() {
    return {1.0000f,   0,         0,       0,       0,       0,  //
            0.551712f, 0.448288f, 0,       0,       0,       0,  //
            0.3800f,   0.3097f,   0.3103f, 0,       0,       0,  //
            0.2758f,   0.2460f,   0.2462f, 0.2320f, 0,       0,  //
            0.2175f,   0.1983f,   0.1984f, 0.1888f, 0.1970f, 0,  //
            0.1935f,   0.1663f,   0.1666f, 0.1542f, 0.1666f, 0.1528f};
}

// Masked scores: -inf above the diagonal, signed values below.
inline std::vector<float> maskedScores() {
    std::vector<float> v(36);
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c)
            v[r * 6 + c] = c > r ? kNegInf : 0.25f * float(r - 2 * c) + 0.1f;
    return v;
}

inline std::vector<float> causalMask() {
    std::vector<float> v(36);
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c)
            v[r * 6 + c] = c > r ? 1.0f : 0.0f;
    return v;
}

inline Step weightsStep() {
    return makeStep("weights", StepKind::Weights, {"b", "T", "T"}, {1, 6, 6}, causalWeights(),
                    "torch.softmax(scaled_scores, dim=-1)");
}

inline Step maskStep() {
    return makeStep("mask", StepKind::Mask, {"T", "T"}, {6, 6}, causalMask(),
                    "torch.triu(torch.ones(T, T), diagonal=1)");
}

// The book's causal weights as the views show them: the mask's zeros hidden.
inline HeatmapData bookWeightsData() {
    const Step mask = maskStep();
    return sliceStep(weightsStep(), bookTokens(), 0, 0, &mask);
}

// A (T, T) causal mask: 1 above the diagonal (hidden).
inline Step causalMaskStep(int T) {
    std::vector<float> v(size_t(T) * size_t(T));
    for (int r = 0; r < T; ++r)
        for (int c = 0; c < T; ++c)
            v[size_t(r) * size_t(T) + size_t(c)] = c > r ? 1.0f : 0.0f;
    return makeStep("mask", StepKind::Mask, {"T", "T"}, {T, T}, std::move(v));
}

// Causal attention weights of T tokens and `heads` heads, (1, heads, T, T) (or (1, T, T) for
// one head): softmax of random scores (fixed seed, standard deviation `spread`) over the
// visible keys, 0 above the diagonal. A small spread gives rows of about 1/(row + 1) each.
inline Step randomCausalWeightsStep(int T, int heads = 1, unsigned seed = 7, float spread = 1.5f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> score(0.0f, spread);
    std::vector<float> v;
    v.reserve(size_t(heads) * size_t(T) * size_t(T));
    for (int h = 0; h < heads; ++h)
        for (int r = 0; r < T; ++r) {
            std::vector<float> e(size_t(T), 0.0f);
            float sum = 0;
            for (int c = 0; c <= r; ++c)
                sum += e[size_t(c)] = std::exp(score(rng));
            for (int c = 0; c < T; ++c)
                v.push_back(e[size_t(c)] / sum);
        }
    if (heads == 1)
        return makeStep("weights", StepKind::Weights, {"b", "T", "T"}, {1, T, T}, std::move(v),
                        "torch.softmax(scaled_scores, dim=-1)");
    return makeStep("weights", StepKind::Weights, {"b", "h", "T", "T"}, {1, heads, T, T},
                    std::move(v), "torch.softmax(scaled_scores, dim=-1)");
}

// T tokens of running text as GPT-2 gives them (leading spaces), with repeats ("the").
inline QStringList sentenceTokens(int T) {
    static const char* words[] = {"The",   " cat", " sat", " on",  " the", " mat",
                                  " and",  " the", " dog", " saw", " it",  ".",
                                  " Then", " it",  " ran", " off", " to",  " the"};
    QStringList out;
    for (int i = 0; i < T; ++i)
        out << QString::fromUtf8(words[i % 18]);
    return out;
}

// Shows `w` at `size` on the offscreen screen and lets it lay itself out.
inline void showAt(QWidget& w, QSize size) {
    w.resize(size);
    w.show();
    // A widget that never appears would make every measurement of its layout meaningless.
    EXPECT_TRUE(QTest::qWaitForWindowExposed(&w)) << "the widget was never shown";
    QCoreApplication::processEvents();
}

inline void sendMouse(QWidget* w, QEvent::Type type, QPoint pos, Qt::MouseButton button,
                      Qt::MouseButtons buttons) {
    QMouseEvent e(type, QPointF(pos), QPointF(w->mapToGlobal(pos)), button, buttons,
                  Qt::NoModifier);
    QCoreApplication::sendEvent(w, &e);
}

// Figures to look at: PNGs in the build tree (tests/export/png).
inline QString pngPath(const QString& name) {
    QDir().mkpath(QStringLiteral(ATTN_EXPORT_PNG_DIR));
    return QStringLiteral(ATTN_EXPORT_PNG_DIR) + QLatin1Char('/') + name;
}
inline bool savePng(QWidget* w, const QString& name) {
    QCoreApplication::processEvents();  // queued replots first
    return w->grab().save(pngPath(name));
}
inline bool savePng(const QImage& image, const QString& name) {
    return image.save(pngPath(name));
}

}  // namespace attn::testing

#pragma once
// Hand-built trace steps for the figure tests: no engine computation involved.

#include <QPalette>
#include <QStringList>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "engine/tensor.h"
#include "engine/trace.h"

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

// A dark desktop palette like KDE Breeze Dark or the dark Fusion the screenshots use.
inline QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xd9));
    return p;
}

}  // namespace attn::testing

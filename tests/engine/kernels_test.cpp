// The shared numeric kernels against plain loops in double: affine maps of every shape class
// the packed micro-kernel treats differently (rows below, at and past its 6-row panels, column
// counts off its 16-column panels, inner sizes past its 256-deep blocks, strided rows, both
// weight layouts, several jobs sharing x, chunks), softmax, LayerNorm, GELU and row sums.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "engine/kernels.h"

namespace attn::kernels {
namespace {

std::vector<float> randomValues(size_t n, uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v)
        x = u(gen);
    return v;
}

struct Case {
    int64_t rows, in, out;
    bool inputMajor;
    bool bias;
    int64_t pad;  // extra floats at the end of every row of x, W and y (strided rows)
};

class LinearShapes : public ::testing::TestWithParam<Case> {};

TEST_P(LinearShapes, MatchesAPlainLoop) {
    const Case c = GetParam();
    const int64_t xStride = c.in + c.pad;
    const int64_t wRows = c.inputMajor ? c.in : c.out, wCols = c.inputMajor ? c.out : c.in;
    const int64_t wStride = wCols + c.pad, yStride = c.out + c.pad;
    const std::vector<float> x = randomValues(size_t(c.rows * xStride), 1);
    const std::vector<float> w = randomValues(size_t(wRows * wStride), 2);
    const std::vector<float> bias = randomValues(size_t(c.out), 3);
    std::vector<float> y(size_t(c.rows * yStride), 12345.0f);
    LinearJob j;
    j.x = x.data();
    j.rows = c.rows;
    j.in = c.in;
    j.xStride = xStride;
    j.weight = w.data();
    j.weightStride = wStride;
    j.inputMajor = c.inputMajor;
    j.bias = c.bias ? bias.data() : nullptr;
    j.y = y.data();
    j.out = c.out;
    j.yStride = yStride;
    linear({&j, 1});
    for (int64_t r = 0; r < c.rows; ++r) {
        for (int64_t o = 0; o < c.out; ++o) {
            double want = c.bias ? bias[size_t(o)] : 0.0;
            for (int64_t k = 0; k < c.in; ++k)
                want += double(x[size_t(r * xStride + k)]) *
                        (c.inputMajor ? w[size_t(k * wStride + o)] : w[size_t(o * wStride + k)]);
            ASSERT_NEAR(y[size_t(r * yStride + o)], want, 1e-4 * (1.0 + std::sqrt(double(c.in))))
                << "row " << r << " column " << o;
        }
        for (int64_t p = c.out; p < yStride; ++p)  // the padding is left alone
            ASSERT_EQ(y[size_t(r * yStride + p)], 12345.0f);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, LinearShapes,
    ::testing::Values(Case{1, 7, 5, false, true, 0},       // one row: the matrix-vector path
                      Case{5, 33, 20, true, false, 3},     // below one 6-row panel
                      Case{6, 16, 16, false, false, 0},    // exactly one panel
                      Case{13, 300, 37, false, true, 5},   // 256-deep block + rest, ragged edges
                      Case{64, 768, 200, false, true, 0},  // several chunks sharing packed x
                      Case{64, 768, 200, true, true, 2},   // the same, Conv1D layout, strided
                      Case{70, 520, 64, true, false, 0},   // one chunk: x read in place
                      Case{130, 96, 130, false, true, 1},  // more rows than one L2 block
                      Case{3, 0, 4, false, true, 0}));     // no inner dimension: y = bias

TEST(Kernels, JobsSharingXAreEachRight) {
    const int64_t rows = 40, in = 96, out = 80;
    const std::vector<float> x = randomValues(size_t(rows * in), 4);
    std::vector<std::vector<float>> w, y;
    std::vector<LinearJob> jobs(3);
    for (int m = 0; m < 3; ++m) {
        w.push_back(randomValues(size_t(out * in), 10 + m));
        y.emplace_back(size_t(rows * out));
    }
    for (int m = 0; m < 3; ++m) {
        LinearJob& j = jobs[size_t(m)];
        j.x = x.data();
        j.rows = rows;
        j.in = in;
        j.xStride = in;
        j.weight = w[size_t(m)].data();
        j.weightStride = in;
        j.y = y[size_t(m)].data();
        j.out = out;
        j.yStride = out;
    }
    linear(jobs);
    for (int m = 0; m < 3; ++m)
        for (int64_t r = 0; r < rows; r += 7)
            for (int64_t o = 0; o < out; o += 5) {
                double want = 0;
                for (int64_t k = 0; k < in; ++k)
                    want += double(x[size_t(r * in + k)]) * w[size_t(m)][size_t(o * in + k)];
                ASSERT_NEAR(y[size_t(m)][size_t(r * out + o)], want, 1e-4) << m;
            }
}

TEST(Kernels, CancelledBeforeTheProductThrows) {
    std::vector<float> x(64 * 64, 1.0f), w(64 * 64, 1.0f), y(64 * 64);
    LinearJob j;
    j.x = x.data();
    j.rows = j.in = j.out = j.xStride = j.weightStride = j.yStride = 64;
    j.weight = w.data();
    j.y = y.data();
    CancelToken token;
    token.cancel();
    EXPECT_THROW(linear({&j, 1}, &token), Cancelled);
}

TEST(Kernels, SoftmaxLayerNormGeluAndSums) {
    const float inf = std::numeric_limits<float>::infinity();
    const float z[] = {1.0f, -inf, 2.0f, 0.5f};
    float p[4];
    softmaxRow(z, p, 4);
    const double e = std::exp(1.0) + std::exp(2.0) + std::exp(0.5);
    EXPECT_NEAR(p[0], std::exp(1.0) / e, 1e-7);
    EXPECT_EQ(p[1], 0.0f);  // masked: exactly 0
    EXPECT_NEAR(p[2], std::exp(2.0) / e, 1e-7);

    const std::vector<float> v = randomValues(37, 5);
    double sum = 0;
    for (float f : v)
        sum += f;
    EXPECT_NEAR(rowSum(v.data(), 37), sum, 1e-5);
    EXPECT_EQ(rowSum(v.data(), 0), 0.0f);

    const float x[] = {1.0f, 2.0f, 4.0f, 9.0f}, g[] = {1.0f, 2.0f, 1.0f, 1.0f},
                b[] = {0.0f, 0.0f, 1.0f, 0.0f};
    float y[4];
    layerNorm(x, 1, 4, 4, g, b, y, 4);
    const double mean = 4.0, var = (9.0 + 4.0 + 0.0 + 25.0) / 4.0;  // biased
    for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(y[i], g[i] * (x[i] - mean) / std::sqrt(var + 1e-5) + b[i], 1e-6);

    std::vector<float> a = {-3.0f, -0.5f, 0.0f, 0.7f, 2.0f, 12.0f};
    const std::vector<float> in = a;
    geluTanh(a.data(), int64_t(a.size()));
    const double c = std::sqrt(2.0 / std::numbers::pi);
    for (size_t i = 0; i < a.size(); ++i) {
        const double t = in[i];
        EXPECT_NEAR(a[i], 0.5 * t * (1.0 + std::tanh(c * (t + 0.044715 * t * t * t))), 1e-6);
    }
}

}  // namespace
}  // namespace attn::kernels

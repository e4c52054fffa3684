// The shape of a trace: the step ids and shapes of every variant, views that share storage,
// the simple masking method, dropout, cancellation and progress.

#include <gtest/gtest.h>

#include <cmath>

#include "engine/embeddings.h"
#include "engine/rng.h"
#include "engine/trace.h"

namespace attn {
namespace {

Trace run(Config c, Tensor inputs = bookInputs(), const CancelToken* cancel = nullptr,
          ProgressFn progress = {}) {
    TraceRequest r;
    r.config = c;
    r.inputs = std::move(inputs);
    r.cancel = cancel;
    r.progress = std::move(progress);
    return runTrace(r);
}

// A configuration of `v` that runs on the book's 3-d embeddings with 2 heads: rotary's head
// size cannot default to d_in / heads = 1.5, so it gets 2, with QK-norm for its extra steps.
Config variantConfig(Variant v) {
    Config c;
    c.variant = v;
    if (v == Variant::Rotary) {
        c.headDim = 2;
        c.qkNorm = true;
    }
    return c;
}

std::vector<std::string> ids(const Trace& t) {
    std::vector<std::string> out;
    for (const Step& s : t.steps)
        out.push_back(s.info.id);
    return out;
}

TEST(TraceStructure, MultiHeadStepsAndShapes) {
    Config c;  // multi-head, d_in 3, d_out 2, 2 heads, causal
    c.batch = 2;
    const Trace t = run(c);
    EXPECT_EQ(ids(t), (std::vector<std::string>{"inputs",        "queries",
                                                "keys",          "values",
                                                "queries_split", "keys_split",
                                                "values_split",  "queries_heads",
                                                "keys_heads",    "values_heads",
                                                "scores",        "mask",
                                                "masked_scores", "scaled_scores",
                                                "weights",       "weights_unmasked",
                                                "weights_tril",  "weights_renormalized",
                                                "context_heads", "context_transposed",
                                                "context",       "output"}));
    EXPECT_EQ(t.find("inputs")->value.shape(), (Shape{2, 6, 3}));
    EXPECT_EQ(t.find("queries_split")->value.shape(), (Shape{2, 6, 2, 1}));
    EXPECT_EQ(t.find("queries_heads")->value.shape(), (Shape{2, 2, 6, 1}));
    EXPECT_EQ(t.find("weights")->value.shape(), (Shape{2, 2, 6, 6}));
    EXPECT_EQ(t.find("weights")->info.dims, (std::vector<std::string>{"b", "h", "T", "T"}));
    EXPECT_EQ(t.find("mask")->value.shape(), (Shape{6, 6}));
    EXPECT_EQ(t.find("context_transposed")->value.shape(), (Shape{2, 6, 2, 1}));
    EXPECT_EQ(t.find("output")->value.shape(), (Shape{2, 6, 2}));
    EXPECT_EQ(t.find("weights")->info.op, "torch.softmax(scaled_scores, dim=-1)");
    EXPECT_EQ(t.parameterCount, 3 * 6 + 4 + 2);
}

TEST(TraceStructure, ReshapesShareStorage) {
    const Trace t = run(Config{});
    const Tensor& q = t.find("queries")->value;
    EXPECT_TRUE(t.find("queries_split")->value.sharesStorageWith(q));
    EXPECT_TRUE(t.find("queries_heads")->value.sharesStorageWith(q));
    EXPECT_FALSE(t.find("queries_heads")->value.isContiguous());
    EXPECT_TRUE(t.find("context")->value.sharesStorageWith(t.find("context_heads")->value));
    // queries_heads[b, h, t, i] == queries[b, t, h * hd + i]
    EXPECT_EQ(t.find("queries_heads")->value.at({0, 1, 4, 0}), q.at({0, 4, 1}));
    EXPECT_EQ(t.find("context_heads")->value.at({0, 1, 3, 0}),
              t.find("context")->value.at({0, 3, 1}));
}

TEST(TraceStructure, PlanMatchesTraceForEveryVariant) {
    for (Variant v : allVariants()) {
        for (const char* mask : {"none", "causal", "window:2"}) {
            Config c = variantConfig(v);
            c.mask = parseMask(mask);
            c.dropout = 0.25;
            c.heads = 2;
            c.batch = 2;
            const Trace t = run(c);
            const auto plan = planSteps(c, 6);
            ASSERT_EQ(plan.size(), t.steps.size()) << variantName(v) << " " << mask;
            for (size_t i = 0; i < plan.size(); ++i) {
                EXPECT_EQ(plan[i].id, t.steps[i].info.id);
                EXPECT_EQ(plan[i].shape, t.steps[i].value.shape()) << plan[i].id;
            }
            EXPECT_EQ(t.steps.back().info.id, "output");
            EXPECT_EQ(t.find("mask") != nullptr, std::string(mask) != "none");
            EXPECT_NE(t.find("dropout_mask"), nullptr);
        }
    }
}

// Grouped-query attention with 4 heads and 2 key/value groups (section 9.1): two key groups,
// repeated into four heads as views of the keys' storage (no copy), head h reading group h / 2,
// and picking a head on a group step shows that head's group.
TEST(TraceStructure, GroupedQueryRepeatsTheGroupsAsViews) {
    Config c;
    c.variant = Variant::GroupedQuery;
    c.dOut = 8;
    c.heads = 4;
    c.kvGroups = 2;
    c.batch = 2;
    const Trace t = run(c);
    EXPECT_EQ(ids(t), (std::vector<std::string>{"inputs",        "queries",
                                                "keys",          "values",
                                                "queries_split", "keys_split",
                                                "values_split",  "queries_heads",
                                                "keys_groups",   "values_groups",
                                                "keys_repeated", "values_repeated",
                                                "scores",        "mask",
                                                "masked_scores", "scaled_scores",
                                                "weights",       "weights_unmasked",
                                                "weights_tril",  "weights_renormalized",
                                                "context_heads", "context_transposed",
                                                "context",       "output"}));
    EXPECT_EQ(t.find("keys")->value.shape(), (Shape{2, 6, 4}));  // G * hd = 2 * 2
    EXPECT_EQ(t.find("keys_groups")->info.dims, (std::vector<std::string>{"b", "G", "T", "hd"}));
    const Step& groups = *t.find("keys_groups");
    const Step& repeated = *t.find("keys_repeated");
    EXPECT_EQ(repeated.value.shape(), (Shape{2, 4, 6, 2}));
    EXPECT_TRUE(repeated.value.sharesStorageWith(t.find("keys")->value));
    EXPECT_TRUE(t.find("values_repeated")->value.sharesStorageWith(t.find("values")->value));
    EXPECT_EQ(repeated.info.viewOf, "keys");
    for (int64_t b = 0; b < 2; ++b)
        for (int64_t h = 0; h < 4; ++h)
            for (int64_t i = 0; i < 6; ++i)
                for (int64_t d = 0; d < 2; ++d)
                    EXPECT_EQ(repeated.value.at({b, h, i, d}), groups.value.at({b, h / 2, i, d}));
    // Heads 2 and 3 share group 1: picking head 3 shows group 1, and the head stays 3.
    const StepSlice slice = sliceStepValues(groups, 3, 0);
    EXPECT_EQ(slice.head, 3);
    EXPECT_EQ(slice.values, groups.value.select(0, 0).select(0, 1));
    // The estimate counts the repeated keys and values once: as the keys and values.
    EXPECT_EQ(estimateTraceBytes(c, 6), [&] {
        uint64_t bytes = 0;
        for (const Step& s : t.steps)
            if (s.info.viewOf.empty())
                bytes += uint64_t(s.value.numel()) * 4;
        for (const auto& [name, p] : t.parameters)
            bytes += uint64_t(p.numel()) * 4;
        return bytes;
    }());
}

// RoPE makes a score depend on the distance between the query and the key, not on where they
// are: with the same embedding at every position, scores[i][j] = scores[i + 1][j + 1]. Without
// the rotation (same weights) every score of a row is the same.
TEST(TraceStructure, RotaryScoresDependOnTheDistance) {
    Config c;
    c.variant = Variant::Rotary;
    c.dIn = 8;
    c.heads = 2;
    c.kvGroups = 1;
    c.mask = MaskSpec{MaskKind::None, 0};
    std::vector<float> same;
    for (int i = 0; i < 7; ++i)
        for (int d = 0; d < 8; ++d)
            same.push_back(0.1f * float(d + 1) - 0.35f);
    const Tensor x(Shape{7, 8}, same);
    const Trace rotated = run(c, x);
    c.rope = false;
    const Trace plain = run(c, x);
    EXPECT_EQ(rotated.parameters.at("W_query.weight"), plain.parameters.at("W_query.weight"));
    EXPECT_EQ(plain.find("rope_cos"), nullptr);
    const Tensor& s = rotated.find("scores")->value;
    const Tensor& p = plain.find("scores")->value;
    bool differs = false;
    for (int64_t h = 0; h < 2; ++h)
        for (int64_t i = 0; i + 1 < 7; ++i)
            for (int64_t j = 0; j + 1 < 7; ++j) {
                EXPECT_NEAR(s.at({0, h, i, j}), s.at({0, h, i + 1, j + 1}), 1e-5);
                EXPECT_NEAR(p.at({0, h, i, j}), p.at({0, h, 0, 0}), 1e-6);
                differs |= std::fabs(s.at({0, h, i, j}) - s.at({0, h, i, 0})) > 1e-3f;
            }
    EXPECT_TRUE(differs) << "the rotation changed no score";
    // cos and sin of position 0 are 1 and 0: the first token is not turned.
    EXPECT_EQ(rotated.find("rope_cos")->value.at({0, 3}), 1.0f);
    EXPECT_EQ(rotated.find("rope_sin")->value.at({0, 3}), 0.0f);
    EXPECT_EQ(rotated.find("queries_rotated")->value.at({0, 1, 0, 2}),
              rotated.find("queries_heads")->value.at({0, 1, 0, 2}));
}

TEST(TraceStructure, WrapperHasALeadingHeadDim) {
    Config c;
    c.variant = Variant::MultiHeadWrapper;
    c.heads = 3;
    const Trace t = run(c);
    EXPECT_EQ(t.find("queries")->value.shape(), (Shape{3, 1, 6, 2}));
    EXPECT_EQ(t.find("weights")->info.dims, (std::vector<std::string>{"head", "b", "T", "T"}));
    EXPECT_EQ(t.find("output")->value.shape(), (Shape{1, 6, 6}));
    // torch.cat(dim=-1): head 1's context sits in columns 2..3 of the output.
    EXPECT_EQ(t.output().at({0, 4, 3}), t.find("context")->value.at({1, 0, 4, 1}));
    EXPECT_EQ(t.find("weights")->info.headAxis(), 0);
}

TEST(TraceStructure, CausalMaskHidesTheFuture) {
    Config c;
    c.variant = Variant::Causal;
    const Trace t = run(c);
    const Tensor& m = t.find("mask")->value;
    const Tensor& ms = t.find("masked_scores")->value;
    const Tensor& w = t.find("weights")->value;
    for (int i = 0; i < 6; ++i) {
        float sum = 0.0f;
        for (int j = 0; j < 6; ++j) {
            EXPECT_EQ(m.at({i, j}), j > i ? 1.0f : 0.0f);
            if (j > i) {
                EXPECT_EQ(ms.at({0, i, j}), -INFINITY);
                EXPECT_EQ(w.at({0, i, j}), 0.0f);
            }
            sum += w.at({0, i, j});
        }
        EXPECT_NEAR(sum, 1.0f, 1e-6f);
    }
    EXPECT_EQ(w.at({0, 0, 0}), 1.0f);  // the first token can only see itself
}

TEST(TraceStructure, WindowMaskKeepsTheLastK) {
    Config c;
    c.variant = Variant::SelfAttention;
    c.mask = MaskSpec{MaskKind::Window, 2};
    const Trace t = run(c);
    const Tensor& m = t.find("mask")->value;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            EXPECT_EQ(m.at({i, j}), (j == i || j == i - 1) ? 0.0f : 1.0f) << i << j;
    EXPECT_EQ(
        t.find("mask")->info.op,
        "torch.triu(torch.ones(T, T), diagonal=1) + torch.tril(torch.ones(T, T), diagonal=-2)");
}

TEST(TraceStructure, SimpleMaskingMethodEqualsWeights) {
    for (Variant v : allVariants()) {
        Config c = variantConfig(v);
        c.mask = MaskSpec{MaskKind::Causal, 0};
        const Trace t = run(c);
        const std::vector<float> w = t.find("weights")->value.toVector();
        const std::vector<float> r = t.find("weights_renormalized")->value.toVector();
        ASSERT_EQ(w.size(), r.size());
        for (size_t i = 0; i < w.size(); ++i)
            EXPECT_NEAR(w[i], r[i], 1e-6f) << variantName(v) << i;
    }
}

// The steps every mask makes constant above the diagonal are kept as lower triangles (half the
// memory of a T x T step), and read like the full matrices: -inf or 0 above the diagonal, the
// computed values below, for the causal and the window mask alike. The memory estimate counts
// exactly what the trace holds.
TEST(TraceStructure, MaskedStepsAreKeptAsLowerTriangles) {
    for (const MaskSpec& mask : {MaskSpec{MaskKind::Causal, 0}, MaskSpec{MaskKind::Window, 2}}) {
        Config c;  // multi-head, 2 heads
        c.batch = 2;
        c.mask = mask;
        const Trace t = run(c);
        const int64_t T = t.tokens, matrices = 2 * 2;
        uint64_t held = 0;
        for (const Step& s : t.steps) {
            if (!s.info.viewOf.empty())
                continue;
            const size_t full = size_t(s.value.numel()) * sizeof(float);
            if (keptAsLowerTriangles(s.info.id))
                EXPECT_EQ(s.value.storageBytes(), size_t(matrices * T * (T + 1) / 2) * 4)
                    << s.info.id;
            else
                EXPECT_EQ(s.value.storageBytes(), full) << s.info.id;
            held += s.value.storageBytes();
        }
        for (const auto& [name, p] : t.parameters)
            held += p.storageBytes();
        EXPECT_EQ(estimateComputedTraceBytes(c, T), held);
        EXPECT_TRUE(keptAsLowerTriangles("masked_scores"));
        EXPECT_FALSE(keptAsLowerTriangles("weights"));  // the context product reads it whole

        const Tensor& scores = t.find("scores")->value;
        const Tensor& maskT = t.find("mask")->value;
        const Tensor& masked = t.find("masked_scores")->value;
        const Tensor& unmasked = t.find("weights_unmasked")->value;
        const Tensor& tril = t.find("weights_tril")->value;
        for (int64_t b = 0; b < 2; ++b)
            for (int64_t h = 0; h < 2; ++h)
                for (int64_t i = 0; i < T; ++i)
                    for (int64_t j = 0; j < T; ++j) {
                        const bool hidden = maskT.at({i, j}) != 0.0f;
                        EXPECT_EQ(masked.at({b, h, i, j}),
                                  hidden ? -INFINITY : scores.at({b, h, i, j}));
                        EXPECT_EQ(tril.at({b, h, i, j}), hidden ? 0.0f : unmasked.at({b, h, i, j}));
                    }
        // Read once, they hold the full matrices from then on: every step read, the trace holds
        // what the memory budget counts.
        EXPECT_EQ(masked.storageBytes(), size_t(masked.numel()) * 4);
        uint64_t read = 0;
        for (const Step& s : t.steps)
            if (s.info.viewOf.empty())
                read += s.value.toVector().size() * sizeof(float);
        for (const auto& [name, p] : t.parameters)
            read += p.storageBytes();
        EXPECT_EQ(estimateTraceBytes(c, T), read);
    }
}

TEST(TraceStructure, DropoutKeepsAndScales) {
    Config c;
    c.variant = Variant::Causal;
    c.dropout = 0.5;
    const Trace t = run(c);
    const Tensor& keep = t.find("dropout_mask")->value;
    const Tensor& w = t.find("weights")->value;
    const Tensor& d = t.find("dropped_weights")->value;
    for (int64_t k = 0; k < keep.numel(); ++k) {
        ASSERT_TRUE(keep.flat(k) == 0.0f || keep.flat(k) == 1.0f);
        EXPECT_FLOAT_EQ(d.flat(k), keep.flat(k) * w.flat(k) * 2.0f);
    }
    c.mode = Mode::Eval;  // dropout is off outside training
    EXPECT_EQ(run(c).find("dropout_mask"), nullptr);
}

TEST(TraceStructure, DefaultDropoutMatchesTheBooksPrintout) {
    // Section 3.5.2: torch.manual_seed(123); torch.nn.Dropout(0.5)(torch.ones(6, 6)) as printed
    // in the book. PyTorch 1.13 on this AMD machine prints the same: the book's numbers come
    // from the portable kernel.
    TorchGenerator gen(123);
    std::vector<float> keep(36);
    dropoutKeepMask(gen, 0.5, false, keep.data(), 36);
    const std::vector<float> book = {2, 2, 0, 2, 2, 0,  //
                                     0, 0, 0, 2, 0, 2,  //
                                     2, 2, 2, 2, 0, 2,  //
                                     0, 2, 2, 0, 0, 2,  //
                                     0, 2, 0, 2, 0, 2,  //
                                     0, 2, 2, 2, 2, 0};
    for (int i = 0; i < 36; ++i)
        EXPECT_EQ(keep[i] * 2.0f, book[i]) << i;
}

TEST(TraceStructure, MklDropoutFollowsTheMcg31Recurrence) {
    // One 32-bit draw seeds x0 = r mod (2^31 - 1); element k is kept when x_k / m < 1 - p and
    // x_{k+1} = 1132489760 x_k mod m.
    TorchGenerator seedSource(7);
    uint64_t x = seedSource.random() % 2147483647u;
    TorchGenerator gen(7);
    std::vector<float> keep(50);
    dropoutKeepMask(gen, 0.3, true, keep.data(), 50);
    for (int k = 0; k < 50; ++k) {
        EXPECT_EQ(keep[k], static_cast<double>(x) / 2147483647.0 < 0.7 ? 1.0f : 0.0f) << k;
        x = (1132489760u * x) % 2147483647u;
    }
    EXPECT_EQ(gen.random(), seedSource.random());  // exactly one draw consumed
}

TEST(TraceStructure, CancelStopsBetweenSteps) {
    CancelToken token;
    int calls = 0;
    EXPECT_THROW(run(Config{}, bookInputs(), &token,
                     [&](int done, int, const std::string&) {
                         ++calls;
                         if (done == 3)
                             token.cancel();
                     }),
                 Cancelled);
    EXPECT_EQ(calls, 3);
}

TEST(TraceStructure, ProgressCountsEveryStep) {
    std::vector<std::string> seen;
    int total = 0;
    const Trace t =
        run(Config{}, bookInputs(), nullptr, [&](int done, int all, const std::string& id) {
            EXPECT_EQ(done, static_cast<int>(seen.size()) + 1);
            seen.push_back(id);
            total = all;
        });
    EXPECT_EQ(seen, ids(t));
    EXPECT_EQ(total, static_cast<int>(t.steps.size()));
}

TEST(TraceStructure, TransposeAndSelectViews) {
    Tensor a(Shape{2, 3}, {1, 2, 3, 4, 5, 6});
    const Tensor t = a.transpose(0, 1);
    EXPECT_EQ(t.shape(), (Shape{3, 2}));
    EXPECT_EQ(t.toVector(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    EXPECT_EQ(a.select(0, 1).toVector(), (std::vector<float>{4, 5, 6}));
    EXPECT_EQ(t.select(1, 1).toVector(), (std::vector<float>{4, 5, 6}));
    EXPECT_THROW(t.view({6}), std::invalid_argument);
    EXPECT_EQ(shapeToString({1, 6, 3}), "(1, 6, 3)");
}

}  // namespace
}  // namespace attn

namespace attn {
namespace {

TEST(TraceStructure, StepMatrixPicksHeadAndBatch) {
    Config c;
    c.batch = 2;
    c.heads = 2;
    const Trace t = run(c);
    const Step& w = *t.find("weights");  // (b, h, T, T)
    const Tensor m = stepMatrix(w, 1, 1);
    EXPECT_EQ(m.shape(), (Shape{6, 6}));
    EXPECT_EQ(m.at({3, 2}), w.value.at({1, 1, 3, 2}));
    EXPECT_EQ(stepMatrix(w, 9, 9).at({3, 2}), w.value.at({1, 1, 3, 2}));  // clamped
    EXPECT_EQ(stepMatrix(*t.find("mask"), 1, 1).shape(), (Shape{6, 6}));
}

TEST(TraceStructure, SplitStepsKeepTokensAsRowsWithHeadsSideBySide) {
    Config c;
    c.batch = 2;
    c.heads = 2;
    c.dOut = 4;  // head_dim 2
    const Trace t = run(c);
    // (b, T, h, hd): h is a feature axis here, so the head argument is ignored and the columns
    // are (head, feature) pairs in .view's order, labelled "head.feature".
    const Step& split = *t.find("queries_split");
    const StepSlice slice = sliceStepValues(split, 1, 1);
    EXPECT_EQ(slice.head, -1);
    EXPECT_EQ(slice.batch, 1);
    EXPECT_EQ(slice.batchSize, 2);
    EXPECT_EQ(slice.dims, (std::vector<std::string>{"T", "h", "hd"}));
    const Tensor m = stepMatrix(slice);
    ASSERT_EQ(m.shape(), (Shape{6, 4}));
    for (int64_t tok = 0; tok < 6; ++tok)
        for (int64_t col = 0; col < 4; ++col)
            EXPECT_EQ(m.at({tok, col}), split.value.at({1, tok, col / 2, col % 2}));
    const SliceLabels labels =
        sliceLabels(slice, {"Your", " journey", " starts", " with", " one", " step"});
    EXPECT_EQ(labels.rows.front(), "Your");
    EXPECT_EQ(labels.rows.back(), " step");
    EXPECT_EQ(labels.cols, (std::vector<std::string>{"0.0", "0.1", "1.0", "1.1"}));

    // (b, h, T, hd) after the transpose: one head's (T, hd) matrix.
    const Step& q = *t.find("queries_heads");
    const StepSlice head1 = sliceStepValues(q, 1, 0);
    EXPECT_EQ(head1.head, 1);
    const Tensor qm = stepMatrix(head1);
    ASSERT_EQ(qm.shape(), (Shape{6, 2}));
    EXPECT_EQ(qm.at({4, 1}), q.value.at({0, 1, 4, 1}));
    EXPECT_EQ(sliceLabels(head1, {}).cols, (std::vector<std::string>{"0", "1"}));
    EXPECT_EQ(sliceLabels(head1, {}).rows.at(5), "5");  // no token labels given
}

}  // namespace
}  // namespace attn

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"
#include "test_steps.h"

using namespace attn;
using namespace attn::testing;

namespace {

std::vector<float> iota(int n, float start = 0) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        v[size_t(i)] = start + float(i);
    return v;
}

}  // namespace

TEST(SliceStep, WeightsBatchOfOne) {
    const HeatmapData d = sliceStep(weightsStep(), bookTokens(), 0, 0);
    ASSERT_EQ(d.rows, 6);
    ASSERT_EQ(d.cols, 6);
    EXPECT_EQ(d.values, causalWeights());
    EXPECT_EQ(d.rowLabels, bookTokens());
    EXPECT_EQ(d.colLabels, bookTokens());
    EXPECT_EQ(d.rowAxis, "query token");
    EXPECT_EQ(d.colAxis, "key token");
    EXPECT_TRUE(d.rowsAreTokens);
    EXPECT_TRUE(d.colsAreTokens);
    EXPECT_EQ(d.head, -1);
    EXPECT_EQ(d.batch, 0);
    EXPECT_EQ(d.kind, StepKind::Weights);
    EXPECT_EQ(d.stepId, "weights");
    EXPECT_EQ(d.title, "weights");  // a batch of one is not worth a mention
    EXPECT_TRUE(d.subtitle.contains("torch.softmax(scaled_scores, dim=-1)"));
    EXPECT_TRUE(d.subtitle.contains("(1, 6, 6)"));
    EXPECT_FLOAT_EQ(d.value(1, 0), 0.551712f);
    EXPECT_EQ(d.maskedCount(), 0);
    EXPECT_FALSE(d.signedValues());
    EXPECT_EQ(defaultColormapFor(d), Colormap::Viridis);
}

TEST(SliceStep, PicksHeadAndBatchOfMultiHead) {
    // (b, h, T, T) = (2, 2, 6, 6): value = 1000*b + 100*h + 10*row + col.
    std::vector<float> v;
    for (int b = 0; b < 2; ++b)
        for (int h = 0; h < 2; ++h)
            for (int r = 0; r < 6; ++r)
                for (int c = 0; c < 6; ++c)
                    v.push_back(float(1000 * b + 100 * h + 10 * r + c));
    const Step s = makeStep("weights", StepKind::Weights, {"b", "h", "T", "T"}, {2, 2, 6, 6}, v);
    HeatmapData d = sliceStep(s, bookTokens(), 1, 0);
    EXPECT_EQ(d.head, 1);
    EXPECT_EQ(d.batch, 0);
    EXPECT_FLOAT_EQ(d.value(0, 0), 100.f);
    EXPECT_FLOAT_EQ(d.value(3, 5), 135.f);
    EXPECT_EQ(d.title, "weights  (head 1, batch 0)");

    d = sliceStep(s, bookTokens(), 0, 1);
    EXPECT_EQ(d.head, 0);
    EXPECT_EQ(d.batch, 1);
    EXPECT_FLOAT_EQ(d.value(2, 4), 1024.f);

    // Out of range is clamped.
    d = sliceStep(s, bookTokens(), 7, -3);
    EXPECT_EQ(d.head, 1);
    EXPECT_EQ(d.batch, 0);
    EXPECT_FLOAT_EQ(d.value(5, 5), 155.f);
}

TEST(SliceStep, WrapperHeadDimComesFirst) {
    // (head, b, T, T) = (2, 1, 3, 3) of MultiHeadAttentionWrapper.
    std::vector<float> v = iota(18);
    const Step s = makeStep("weights", StepKind::Weights, {"head", "b", "T", "T"}, {2, 1, 3, 3}, v);
    const HeatmapData d = sliceStep(s, {"a", "b", "c"}, 1, 0);
    EXPECT_EQ(d.head, 1);
    ASSERT_EQ(d.rows, 3);
    ASSERT_EQ(d.cols, 3);
    EXPECT_EQ(d.values, std::vector<float>(v.begin() + 9, v.end()));
    EXPECT_EQ(d.colLabels, QStringList({"a", "b", "c"}));
    EXPECT_EQ(d.title, "weights  (head 1)");
}

TEST(SliceStep, MaskIgnoresHeadAndBatch) {
    const HeatmapData d = sliceStep(maskStep(), bookTokens(), 3, 2);
    ASSERT_EQ(d.rows, 6);
    ASSERT_EQ(d.cols, 6);
    EXPECT_EQ(d.values, causalMask());
    EXPECT_EQ(d.head, -1);
    EXPECT_EQ(d.batch, 0);
    EXPECT_EQ(d.kind, StepKind::Mask);
    EXPECT_EQ(d.rowAxis, "query token");
    EXPECT_EQ(d.colAxis, "key token");
    EXPECT_EQ(d.title, "mask");
    const auto [lo, hi] = colorRange(d, Colormap::Viridis);
    EXPECT_EQ(lo, 0.0);
    EXPECT_EQ(hi, 1.0);
}

TEST(SliceStep, ProjectionRowsAreTokensColumnsAreFeatures) {
    const std::vector<float> v = {0.2309f, 1.0966f, 0.4306f, 1.4551f, 0.4300f, 1.4343f,
                                  0.2355f, 0.7990f, 0.2983f, 0.6565f, 0.2568f, 1.0533f};
    const Step s =
        makeStep("queries", StepKind::Projection, {"b", "T", "d_out"}, {1, 6, 2}, v, "x @ W_query");
    const HeatmapData d = sliceStep(s, bookTokens(), 0, 0);
    ASSERT_EQ(d.rows, 6);
    ASSERT_EQ(d.cols, 2);
    EXPECT_EQ(d.values, v);
    EXPECT_EQ(d.rowLabels, bookTokens());
    EXPECT_EQ(d.colLabels, QStringList({"0", "1"}));
    EXPECT_EQ(d.rowAxis, "token");
    EXPECT_EQ(d.colAxis, "d_out");
    EXPECT_TRUE(d.rowsAreTokens);
    EXPECT_FALSE(d.colsAreTokens);
    EXPECT_EQ(d.subtitle, "x @ W_query   shape (1, 6, 2)");
}

TEST(SliceStep, SplitHeadsReshapeLaysHeadsSideBySide) {
    // queries_split (b, T, h, hd) = (1, 3, 2, 2): h is a feature axis here.
    const Step s = makeStep("queries_split", StepKind::Projection, {"b", "T", "h", "hd"},
                            {1, 3, 2, 2}, iota(12), "queries.view(b, T, h, hd)");
    const HeatmapData d = sliceStep(s, {"x", "y", "z"}, 1, 0);
    ASSERT_EQ(d.rows, 3);
    ASSERT_EQ(d.cols, 4);
    EXPECT_EQ(d.values, iota(12));
    EXPECT_EQ(d.head, -1);
    EXPECT_EQ(d.colLabels, QStringList({"0.0", "0.1", "1.0", "1.1"}));
    EXPECT_EQ(d.rowLabels, QStringList({"x", "y", "z"}));
}

TEST(SliceStep, OneDimensionalStepIsOneRow) {
    const Step s = makeStep("bias", StepKind::Projection, {"d_out"}, {4}, {1, -2, 3, -4});
    const HeatmapData d = sliceStep(s, {}, 0, 0);
    EXPECT_EQ(d.rows, 1);
    EXPECT_EQ(d.cols, 4);
    EXPECT_EQ(d.colAxis, "d_out");
    EXPECT_TRUE(d.signedValues());
    EXPECT_EQ(defaultColormapFor(d), Colormap::Diverging);
    const auto [lo, hi] = colorRange(d, Colormap::Diverging);
    EXPECT_EQ(lo, -4.0);
    EXPECT_EQ(hi, 4.0);
}

TEST(SliceStep, MaskedScoresAndHiddenWeights) {
    const Step scores = makeStep("masked_scores", StepKind::Scores, {"b", "T", "T"}, {1, 6, 6},
                                 maskedScores(), "scores.masked_fill(mask.bool(), -torch.inf)");
    const HeatmapData s = sliceStep(scores, bookTokens(), 0, 0);
    EXPECT_EQ(s.maskedCount(), 15);
    EXPECT_TRUE(s.isMasked(0, 1));
    EXPECT_FALSE(s.isMasked(1, 0));
    EXPECT_EQ(defaultColormapFor(s), Colormap::Diverging);

    // Weights with the mask: the zeros the mask made are hidden, the values kept.
    const Step mask = maskStep();
    const HeatmapData w = sliceStep(weightsStep(), bookTokens(), 0, 0, &mask);
    EXPECT_EQ(w.maskedCount(), 15);
    EXPECT_TRUE(w.isMasked(0, 5));
    EXPECT_FALSE(w.isMasked(5, 0));
    EXPECT_FLOAT_EQ(w.value(0, 5), 0.0f);
    // Without the mask the same weights are just numbers.
    EXPECT_EQ(sliceStep(weightsStep(), bookTokens(), 0, 0).maskedCount(), 0);
}

TEST(SliceStep, MissingTokensFallBackToIndices) {
    const HeatmapData d = sliceStep(weightsStep(), {"Your", "journey"}, 0, 0);
    EXPECT_EQ(d.rowLabels, QStringList({"Your", "journey", "2", "3", "4", "5"}));
}

TEST(CellText, ToolTipsNameRowColumnAndExactValue) {
    const HeatmapData d = sliceStep(weightsStep(), bookTokens(), 0, 0);
    // Every value with the book's four decimals: weights, scores and projections alike.
    EXPECT_EQ(cellToolTip(d, 1, 0), "row 1 \"journey\", col 0 \"Your\" = 0.5517");
    EXPECT_EQ(cellToolTip(d, 0, 0), "row 0 \"Your\", col 0 \"Your\" = 1.0000");
    EXPECT_EQ(cellToolTip(d, 1, 0, 2), "row 1 \"journey\", col 0 \"Your\" = 0.55");
    EXPECT_EQ(cellToolTip(d, 6, 0), "");

    const Step scores =
        makeStep("masked_scores", StepKind::Scores, {"b", "T", "T"}, {1, 6, 6}, maskedScores());
    const HeatmapData s = sliceStep(scores, bookTokens(), 0, 0);
    EXPECT_EQ(cellToolTip(s, 0, 1),
              "row 0 \"Your\", col 1 \"journey\" = masked (-inf): this key is hidden from this "
              "query");

    const Step mask = maskStep();
    const HeatmapData w = sliceStep(weightsStep(), bookTokens(), 0, 0, &mask);
    EXPECT_EQ(cellToolTip(w, 0, 1),
              "row 0 \"Your\", col 1 \"journey\" = 0.0000 (masked: this key is hidden from this "
              "query)");
    // A mask holds whole numbers: no decimals.
    EXPECT_EQ(cellToolTip(sliceStep(mask, bookTokens(), 0, 0), 0, 1),
              "row 0 \"Your\", col 1 \"journey\" = 1");

    const Step q = makeStep("queries", StepKind::Projection, {"b", "T", "d_out"}, {1, 2, 2},
                            {0.5f, -1.25f, 2, 3});
    EXPECT_EQ(cellToolTip(sliceStep(q, {"a", "b"}, 0, 0), 0, 1), "row 0 \"a\", col 1 = -1.2500");
    // Repeated tokens are told apart by position; GPT-2's leading space is shown in the quotes.
    const Step rep =
        makeStep("weights", StepKind::Weights, {"T", "T"}, {3, 3}, std::vector<float>(9, 1.0f / 3));
    const HeatmapData r = sliceStep(rep, {"the", " cat", " the"}, 0, 0);
    EXPECT_EQ(cellToolTip(r, 2, 1), "row 2 \" the\", col 1 \" cat\" = 0.3333");
    // A merged feature axis says which head and feature a column is.
    const Step split = makeStep("queries_split", StepKind::Projection, {"b", "T", "h", "hd"},
                                {1, 1, 2, 2}, {1, 2, 3, 4});
    EXPECT_EQ(cellToolTip(sliceStep(split, {"x"}, 0, 0), 0, 2),
              "row 0 \"x\", col 2 (1.0) = 3.0000");
}

TEST(CellText, ValueFormatting) {
    EXPECT_EQ(formatCellValue(0.551712f), "0.55");
    EXPECT_EQ(formatCellValue(-0.001f), "0.00");  // no "-0.00"
    EXPECT_EQ(formatCellValue(-1.234f), "-1.23");
    EXPECT_EQ(formatCellValue(kNegInf), "-inf");
    EXPECT_EQ(formatCellValue(12345.f), "1.23e+04");
    EXPECT_EQ(formatCellValue(1.0f, 0), "1");
    EXPECT_EQ(formatExactValue(0.551712f), "0.5517");
    EXPECT_EQ(formatExactValue(1.5f), "1.5000");  // a score keeps its zeros
    EXPECT_EQ(formatExactValue(-0.00001f), "0.0000");
    EXPECT_EQ(formatExactValue(0.551712f, 3), "0.552");
    EXPECT_EQ(formatExactValue(2.5e6f), "2.5e+06");
    EXPECT_EQ(displayLabel(" journey"), "journey");
    // Whitespace-only tokens stay visible; a label is never blank.
    EXPECT_EQ(displayLabel(" "), QString(QChar(0x00B7)));
    EXPECT_EQ(displayLabel("  "), QString(2, QChar(0x00B7)));
    EXPECT_EQ(displayLabel("\n"), QString(QChar(0x21B5)));
    EXPECT_EQ(displayLabel("\n\n"), QString(2, QChar(0x21B5)));
    EXPECT_EQ(displayLabel("\t"), QString(QChar(0x21E5)));
    EXPECT_EQ(displayLabel(" \n"), QString(QChar(0x00B7)) + QChar(0x21B5));
    EXPECT_EQ(displayLabel(""), QString(QChar(0x2205)));
    EXPECT_EQ(displayLabel(".\n"), ".");        // trimmed like " journey"
    EXPECT_EQ(displayLabel("e4 bd"), "e4 bd");  // the bytes of a partial UTF-8 token
    // Another control character (a vocabulary has them, GPT-2's form feed is 200) is written as
    // its escape, as the next-token list writes it: it drew as a box, or as a space's dot.
    EXPECT_EQ(displayLabel("\x0c"), "\\x0c");
    EXPECT_EQ(displayLabel(" \x1b"), "\\x1b");
    EXPECT_EQ(displayLabel("a\x7f"), "a\\x7f");
    EXPECT_EQ(displayLabel("abcdefghijklmnopqrstuvwxyz", 10), "abcdefghi" + QString(QChar(0x2026)));
}

TEST(Colormaps, EndpointsArePublishedColours) {
    struct Case {
        Colormap c;
        const char* first;
        const char* last;
    };
    // matplotlib's first and last table entries (viridis #440154..#fde725 etc.); ColorBrewer RdBu.
    const Case cases[] = {{Colormap::Viridis, "#440154", "#fde725"},
                          {Colormap::Magma, "#000004", "#fcfdbf"},
                          {Colormap::Cividis, "#00224e", "#fee838"},
                          {Colormap::Diverging, "#053061", "#67001f"}};
    for (const Case& k : cases) {
        SCOPED_TRACE(colormapName(k.c));
        EXPECT_EQ(colormapColor(k.c, 0.0).name(), k.first);
        EXPECT_EQ(colormapColor(k.c, 1.0).name(), k.last);
        // The figure's gradient has the same endpoints.
        QCPColorGradient g = colorGradient(k.c);
        EXPECT_EQ(QColor(g.color(0.0, QCPRange(0, 1))).name(), k.first);
        EXPECT_EQ(QColor(g.color(1.0, QCPRange(0, 1))).name(), k.last);
        EXPECT_GE(colormapStops(k.c).size(), 11u);
    }
    EXPECT_EQ(colormapStops(Colormap::Viridis).size(), 256u);
    // Diverging is white in the middle and centred on 0 by a symmetric range.
    EXPECT_EQ(colormapColor(Colormap::Diverging, 0.5).name(), "#f7f7f7");
    QCPColorGradient g = colorGradient(Colormap::Diverging);
    const QColor mid(g.color(0.0, QCPRange(-3, 3)));
    EXPECT_GT(mid.red(), 240);
    EXPECT_GT(mid.green(), 240);
    EXPECT_GT(mid.blue(), 240);
    // Monotone lightness for the sequential maps (perceptually uniform: dark to light).
    for (Colormap c : {Colormap::Viridis, Colormap::Magma, Colormap::Cividis}) {
        EXPECT_LT(colormapColor(c, 0.0).lightness(), colormapColor(c, 0.5).lightness());
        EXPECT_LT(colormapColor(c, 0.5).lightness(), colormapColor(c, 1.0).lightness());
    }
}

TEST(Colormaps, NamesRoundTrip) {
    for (Colormap c : allColormaps()) {
        const std::optional<Colormap> back = parseColormap(colormapName(c));
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(*back, c);
        EXPECT_FALSE(colormapDisplayName(c).isEmpty());
    }
    EXPECT_FALSE(parseColormap("jet").has_value());
}

TEST(Colormaps, ColorRangeRules) {
    HeatmapData d = sliceStep(weightsStep(), bookTokens(), 0, 0);
    auto [lo, hi] = colorRange(d, Colormap::Viridis);
    EXPECT_EQ(lo, 0.0);
    EXPECT_EQ(hi, 1.0);
    std::tie(lo, hi) = colorRange(d, Colormap::Diverging);
    EXPECT_EQ(lo, -1.0);
    EXPECT_EQ(hi, 1.0);
    const Step scores =
        makeStep("masked_scores", StepKind::Scores, {"b", "T", "T"}, {1, 6, 6}, maskedScores());
    std::tie(lo, hi) = colorRange(sliceStep(scores, bookTokens(), 0, 0), Colormap::Viridis);
    EXPECT_FLOAT_EQ(float(lo), -1.15f);  // -inf ignored: min at (5, 5), max at (5, 0)
    EXPECT_FLOAT_EQ(float(hi), 1.35f);
}

TEST(Colormaps, TextColourFollowsLuminance) {
    EXPECT_EQ(textColorOn(QColor("#440154")), QColor(Qt::white));
    EXPECT_EQ(textColorOn(QColor("#fde725")), QColor(Qt::black));
    EXPECT_EQ(textColorOn(QColor("#f7f7f7")), QColor(Qt::black));
    EXPECT_EQ(textColorOn(QColor("#053061")), QColor(Qt::white));
}

TEST(PooledSlice, MeansOfBlocksLeaveOutWhatTheMaskHid) {
    // Two heads of the chapter's causal weights (head 1 at half strength), pooled 6x6 -> 3x3.
    std::vector<float> values = causalWeights();
    for (float v : causalWeights())
        values.push_back(0.5f * v);
    const Step weights = makeStep("weights", StepKind::Weights, {"b", "h", "T", "T"}, {1, 2, 6, 6},
                                  values, "torch.softmax(scaled_scores, dim=-1)");
    const Step mask = maskStep();
    const HeatmapData d = pooledSlice(weights, bookTokens(), 1, 0, &mask, 3);
    ASSERT_EQ(d.rows, 3);
    ASSERT_EQ(d.cols, 3);
    EXPECT_EQ(d.head, 1);
    // Block rows 0-1 x cols 0-1: (0,1) is hidden by the mask, the mean is of the other three.
    EXPECT_FLOAT_EQ(d.value(0, 0), 0.5f * (1.0f + 0.551712f + 0.448288f) / 3.0f);
    // Block rows 0-1 x cols 2-3: all hidden, so masked.
    EXPECT_TRUE(d.isMasked(0, 1));
    // Block rows 4-5 x cols 4-5: (4,5) hidden.
    EXPECT_FLOAT_EQ(d.value(2, 2), 0.5f * (0.1970f + 0.1666f + 0.1528f) / 3.0f);
    EXPECT_EQ(d.rowLabels, QStringList({"Your", "starts", "one"}));
    EXPECT_EQ(d.colLabels, QStringList({"Your", "starts", "one"}));
    EXPECT_TRUE(d.rowsAreTokens);

    // Without the mask the zeros count; a slice that fits is sliceStep's.
    EXPECT_FLOAT_EQ(pooledSlice(weights, bookTokens(), 0, 0, nullptr, 3).value(0, 0),
                    (1.0f + 0.551712f + 0.448288f) / 4.0f);
    const HeatmapData full = pooledSlice(weights, bookTokens(), 0, 0, &mask, 6);
    EXPECT_EQ(full.rows, 6);
    EXPECT_EQ(full.values, sliceStep(weights, bookTokens(), 0, 0, &mask).values);
}

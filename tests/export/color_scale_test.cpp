// The colour scales: Matrix (one range), Row (each row its own min..max), Log (decades), where
// each applies, what the colour bar says, and the colours drawn for known values.
#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "export/heatmap_figure.h"
#include "test_steps.h"

using namespace attn;
using namespace attn::testing;

namespace {

HeatmapData matrix(int rows, int cols, std::vector<float> values, StepKind kind) {
    HeatmapData d;
    d.rows = rows;
    d.cols = cols;
    d.values = std::move(values);
    d.kind = kind;
    for (int r = 0; r < rows; ++r)
        d.rowLabels << QString::number(r);
    for (int c = 0; c < cols; ++c)
        d.colLabels << QString::number(c);
    return d;
}

// The colour drawn at a cell's centre (numbers off) and the colour bar's title.
struct Drawn {
    QImage image;
    QString barTitle;
    QColor at(QCustomPlot& plot, int row, int col) const {
        return QColor(image.pixel(heatmapCellRect(&plot, row, col).center().toPoint()));
    }
};

Drawn draw(QCustomPlot& plot, const HeatmapData& d, ColorScale scale,
           Colormap colormap = Colormap::Viridis) {
    FigureOptions o;
    o.colorScale = scale;
    o.colormap = colormap;
    o.showValues = false;
    plot.resize(700, 560);
    drawHeatmap(&plot, d, o);
    Drawn out;
    out.image = plot.toPixmap(700, 560, 1.0).toImage();
    out.barTitle = plot.axisRect(1)->axis(QCPAxis::atRight)->label();
    return out;
}

QString gradientColour(Colormap c, double t) {
    QCPColorGradient g = colorGradient(c);
    return QColor(g.color(t, QCPRange(0, 1))).name();
}

}  // namespace

TEST(ColorScaling, RowSpansEachRowsOwnRange) {
    const float inf = kNegInf;
    // Row 0: 0.1 .. 0.3; row 1: one value left after the mask; row 2: signed.
    const HeatmapData d =
        matrix(3, 3, {0.1f, 0.2f, 0.3f, 0.5f, inf, inf, -2.0f, 0.0f, 1.0f}, StepKind::Scores);
    const ColorScaling s = colorScaling(d, Colormap::Viridis, ColorScale::Row);
    EXPECT_EQ(s.scale, ColorScale::Row);
    EXPECT_TRUE(s.fallback.isEmpty());
    EXPECT_NEAR(s.position(0.1f, 0), 0.0, 1e-6);
    EXPECT_NEAR(s.position(0.2f, 0), 0.5, 1e-6);
    EXPECT_NEAR(s.position(0.3f, 0), 1.0, 1e-6);
    EXPECT_NEAR(s.position(0.5f, 1), 1.0, 1e-6);  // a single value is the row's maximum
    EXPECT_NEAR(s.position(-2.0f, 2), 0.0, 1e-6);
    EXPECT_NEAR(s.position(0.0f, 2), 2.0 / 3.0, 1e-6);
    const std::vector<float> t = colorPositions(d, s);
    EXPECT_TRUE(std::isnan(t[4]));  // -inf: masked
    EXPECT_NEAR(t[1], 0.5, 1e-6);

    // With the diverging map each row is symmetric, so 0 stays white.
    const ColorScaling sym = colorScaling(d, Colormap::Diverging, ColorScale::Row);
    EXPECT_TRUE(sym.symmetric);
    EXPECT_NEAR(sym.position(0.0f, 2), 0.5, 1e-6);
    EXPECT_NEAR(sym.position(1.0f, 2), 0.75, 1e-6);
    EXPECT_NEAR(sym.position(-2.0f, 2), 0.0, 1e-6);
    EXPECT_NEAR(sym.position(0.3f, 0), 1.0, 1e-6);
}

TEST(ColorScaling, LogSpansWholeDecadesAboveAFloor) {
    const HeatmapData d = matrix(1, 5, {1.0f, 0.1f, 0.01f, 0.001f, 0.0f}, StepKind::Weights);
    const ColorScaling s = colorScaling(d, Colormap::Viridis, ColorScale::Log);
    EXPECT_EQ(s.scale, ColorScale::Log);
    EXPECT_DOUBLE_EQ(s.lower, -3.0);
    EXPECT_DOUBLE_EQ(s.upper, 0.0);
    EXPECT_NEAR(s.position(1.0f, 0), 1.0, 1e-6);
    EXPECT_NEAR(s.position(0.1f, 0), 2.0 / 3.0, 1e-6);
    EXPECT_NEAR(s.position(0.01f, 0), 1.0 / 3.0, 1e-6);
    EXPECT_NEAR(s.position(0.001f, 0), 0.0, 1e-6);
    EXPECT_NEAR(s.position(0.0f, 0), 0.0, 1e-6);  // zero: the bottom colour

    // The floor is 1e-4 of the largest value: smaller values sit at the bottom.
    const HeatmapData tiny = matrix(1, 3, {0.5f, 1e-7f, 0.05f}, StepKind::Weights);
    const ColorScaling t = colorScaling(tiny, Colormap::Viridis, ColorScale::Log);
    EXPECT_DOUBLE_EQ(t.lower, -5.0);  // floor 5e-5 -> the decade 1e-5
    EXPECT_DOUBLE_EQ(t.upper, 0.0);
    EXPECT_NEAR(t.position(1e-7f, 0), 0.0, 1e-6);
    EXPECT_NEAR(t.position(0.05f, 0), (std::log10(0.05) + 5) / 5, 1e-6);
}

TEST(ColorScaling, SignedStepsAndMasksFallBackToOneScale) {
    const HeatmapData scores = matrix(1, 3, {-1.0f, 0.5f, 2.0f}, StepKind::Scores);
    const ColorScaling s = colorScaling(scores, Colormap::Diverging, ColorScale::Log);
    EXPECT_EQ(s.scale, ColorScale::Matrix);
    EXPECT_EQ(s.requested, ColorScale::Log);
    EXPECT_FALSE(s.fallback.isEmpty());
    EXPECT_DOUBLE_EQ(s.lower, -2.0);  // the diverging map's symmetric range
    EXPECT_DOUBLE_EQ(s.upper, 2.0);

    const HeatmapData mask = sliceStep(maskStep(), bookTokens(), 0, 0);
    for (ColorScale requested : {ColorScale::Row, ColorScale::Log}) {
        const ColorScaling m = colorScaling(mask, Colormap::Viridis, requested);
        EXPECT_EQ(m.scale, ColorScale::Matrix);
        EXPECT_FALSE(m.fallback.isEmpty());
    }
    // A range the caller gives replaces colorRange for Matrix.
    const ColorScaling given =
        colorScaling(scores, Colormap::Viridis, ColorScale::Matrix, std::make_pair(-4.0, 4.0));
    EXPECT_NEAR(given.position(2.0f, 0), 0.75, 1e-6);
}

TEST(ColorScaling, RowScaleGivesALongCausalMapContrastInEveryRow) {
    const int T = 1000;
    const Step mask = causalMaskStep(T);
    // Rows spread over their keys: about 1/(row + 1) each, give or take 30%.
    const HeatmapData d =
        sliceStep(randomCausalWeightsStep(T, 1, 7, 0.3f), sentenceTokens(T), 0, 0, &mask);
    const std::vector<float> matrixT =
        colorPositions(d, colorScaling(d, Colormap::Viridis, ColorScale::Matrix));
    const std::vector<float> rowT =
        colorPositions(d, colorScaling(d, Colormap::Viridis, ColorScale::Row));
    // Matrix: almost every visible cell of rows 100 on is within 5% of the bottom colour.
    int dark = 0, visible = 0;
    std::vector<float> rowPositions;
    for (int r = 100; r < T; ++r)
        for (int c = 0; c <= r; ++c) {
            const size_t i = size_t(r) * T + size_t(c);
            ++visible;
            dark += matrixT[i] < 0.05f;
            rowPositions.push_back(rowT[i]);
        }
    EXPECT_GT(dark, visible * 95 / 100);
    // Row: spread over the whole scale.
    std::sort(rowPositions.begin(), rowPositions.end());
    EXPECT_GT(rowPositions[rowPositions.size() / 10], 0.08f);
    EXPECT_GT(rowPositions[rowPositions.size() / 2], 0.2f);
    EXPECT_GT(rowPositions[rowPositions.size() * 9 / 10], 0.4f);
    for (int r : {100, 500, 999}) {
        float lo = 1, hi = 0;
        for (int c = 0; c <= r; ++c) {
            lo = std::min(lo, rowT[size_t(r) * T + size_t(c)]);
            hi = std::max(hi, rowT[size_t(r) * T + size_t(c)]);
        }
        EXPECT_FLOAT_EQ(lo, 0.0f);
        EXPECT_FLOAT_EQ(hi, 1.0f);
    }
}

TEST(ColorScaleFigure, CellsTakeTheColoursOfTheirScale) {
    const HeatmapData d =
        matrix(2, 3, {0.1f, 0.2f, 0.3f, 0.001f, 0.01f, 1.0f}, StepKind::Projection);
    QCustomPlot plot;
    Drawn row = draw(plot, d, ColorScale::Row);
    EXPECT_EQ(row.at(plot, 0, 1).name(), gradientColour(Colormap::Viridis, 0.5));
    EXPECT_EQ(row.at(plot, 0, 2).name(), gradientColour(Colormap::Viridis, 1.0));
    EXPECT_EQ(row.at(plot, 1, 2).name(), gradientColour(Colormap::Viridis, 1.0));
    EXPECT_TRUE(row.barTitle.contains("each row")) << row.barTitle.toStdString();
    EXPECT_TRUE(row.image.save(pngPath("scale_row.png")));

    Drawn log = draw(plot, d, ColorScale::Log);
    // Decades 1e-3 .. 1: 0.01 sits a third of the way up, 0.1 two thirds.
    EXPECT_EQ(log.at(plot, 1, 1).name(), gradientColour(Colormap::Viridis, 1.0 / 3.0));
    EXPECT_EQ(log.at(plot, 0, 0).name(), gradientColour(Colormap::Viridis, 2.0 / 3.0));
    EXPECT_EQ(log.at(plot, 1, 0).name(), gradientColour(Colormap::Viridis, 0.0));
    EXPECT_TRUE(log.barTitle.contains("log")) << log.barTitle.toStdString();
    // The colour bar's ticks are powers of ten.
    const QVector<QString> ticks = plot.axisRect(1)->axis(QCPAxis::atRight)->tickVectorLabels();
    EXPECT_EQ(ticks.front(), QStringLiteral("10") + QChar(0x207B) + QChar(0x00B3));
    EXPECT_EQ(ticks.back(), QStringLiteral("10") + QChar(0x2070));
    EXPECT_TRUE(log.image.save(pngPath("scale_log.png")));

    // Signed values under Log: drawn on one linear scale, and the colour bar says why.
    const HeatmapData scores = matrix(1, 3, {-1.0f, 0.5f, 2.0f}, StepKind::Scores);
    Drawn fallback = draw(plot, scores, ColorScale::Log, Colormap::Diverging);
    EXPECT_TRUE(fallback.barTitle.contains("linear")) << fallback.barTitle.toStdString();
    EXPECT_EQ(fallback.at(plot, 0, 2).name(), gradientColour(Colormap::Diverging, 1.0));
}

TEST(ColorScaleFigure, MaskedCellsStayHatchedInEveryScale) {
    const Step mask = maskStep();
    const HeatmapData d = sliceStep(weightsStep(), bookTokens(), 0, 0, &mask);
    for (ColorScale scale : {ColorScale::Matrix, ColorScale::Row, ColorScale::Log}) {
        QCustomPlot plot;
        const Drawn out = draw(plot, d, scale);
        const QPoint centre = heatmapCellRect(&plot, 0, 5).center().toPoint();
        int grey = 0;
        for (int dy = -6; dy <= 6; ++dy)
            for (int dx = -6; dx <= 6; ++dx) {
                const QColor px(out.image.pixel(centre + QPoint(dx, dy)));
                grey += std::abs(px.red() - px.blue()) < 12 && std::abs(px.red() - px.green()) < 12;
            }
        EXPECT_EQ(grey, 169) << colorScaleName(scale);
    }
}

// A model layer's `inputs` are its first norm's output, so its colour bar does not call them
// embedding values; the chapter's inputs are embeddings and keep that name.
TEST(ColorScaling, AModelLayersInputsAreNormedValuesNotEmbeddings) {
    std::vector<float> v(6 * 3);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = 0.1f * float(i) - 0.5f;
    Step chapter = makeStep("inputs", StepKind::Input, {"b", "T", "d_in"}, {1, 6, 3}, v, "x");
    QCustomPlot plot;
    EXPECT_EQ(draw(plot, sliceStep(chapter, bookTokens(), 0, 0), ColorScale::Matrix).barTitle,
              QStringLiteral("embedding value"));
    Step layer = chapter;
    layer.info.block = BlockFacts{};
    const HeatmapData d = sliceStep(layer, bookTokens(), 0, 0);
    EXPECT_EQ(d.valueName, QStringLiteral("normed value"));
    EXPECT_EQ(draw(plot, d, ColorScale::Matrix).barTitle, QStringLiteral("normed value"));
}

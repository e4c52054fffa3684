// The figure's layout: square cells centred with the colour bar beside them, numbers in the
// cells whenever they are legible, tick labels left out only where they would overlap, and the
// size exports get. PNGs of the figures go to build/.../tests/export/png for a look.
#include <gtest/gtest.h>
#include <qcustomplot.h>
#include <QApplication>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "export/heatmap_figure.h"
#include "export/heatmap_view.h"
#include "export/image_export.h"
#include "pipeline/step_files.h"
#include "test_steps.h"

using namespace attn;
using namespace attn::testing;

namespace {

HeatmapData tokenWeights(int T) {
    const Step mask = causalMaskStep(T);
    return sliceStep(randomCausalWeightsStep(T), sentenceTokens(T), 0, 0, &mask);
}

// A figure drawn into a hidden plot of `size`, laid out as an export lays it out.
struct Drawn {
    QCustomPlot plot;
    QImage image;
    Drawn(const HeatmapData& data, const FigureOptions& o, QSize size) {
        plot.resize(size);
        drawHeatmap(&plot, data, o);
        plot.setViewport(QRect(QPoint(0, 0), size));
        image = plot.toPixmap(size.width(), size.height(), 1.0).toImage();
    }
    QCPAxis* axis(QCPAxis::AxisType type) { return heatmapAxisRect(&plot)->axis(type); }
};

// Every cell the same size, within a pixel, and square when `square`.
void expectEqualCells(QCustomPlot* plot, const HeatmapData& d, bool square) {
    const QRectF first = heatmapCellRect(plot, 0, 0);
    ASSERT_GT(first.width(), 0);
    for (int r = 0; r < d.rows; ++r)
        for (int c = 0; c < d.cols; ++c) {
            const QRectF cell = heatmapCellRect(plot, r, c);
            EXPECT_NEAR(cell.width(), first.width(), 1.0) << r << "," << c;
            EXPECT_NEAR(cell.height(), first.height(), 1.0) << r << "," << c;
        }
    if (square) {
        EXPECT_NEAR(first.width(), first.height(), 1.0);
    }
}

// Pixels in the middle of a cell that stand out from its fill colour: the strokes of its number.
int textPixels(const QImage& img, const QRectF& cell) {
    const QRect inner = cell.adjusted(2, 2, -2, -2).toRect() & img.rect();
    const QColor fill(img.pixel(inner.topLeft()));
    int n = 0;
    for (int y = inner.top(); y <= inner.bottom(); ++y)
        for (int x = inner.left(); x <= inner.right(); ++x) {
            const QColor px(img.pixel(x, y));
            if (std::abs(px.lightness() - fill.lightness()) > 60)
                ++n;
        }
    return n;
}

// The gaps left of the cells' labels and right of the colour bar's title.
std::pair<int, int> sideGaps(QCustomPlot* plot) {
    QCPAxisRect* cells = heatmapAxisRect(plot);
    QCPAxisRect* bar = plot->axisRect(1);
    return {cells->outerRect().left(), plot->width() - 1 - bar->outerRect().right()};
}

}  // namespace

TEST(FigureLayout, BookWeightsOnScreenHaveSquareCentredCellsWithNumbers) {
    const HeatmapData d = bookWeightsData();
    for (const QSize size : {QSize(640, 500), QSize(700, 560), QSize(1000, 420)}) {
        SCOPED_TRACE(size.width());
        HeatmapView view;
        view.setData(d);
        showAt(view, size);
        QImage img = view.plot()->grab().toImage();
        expectEqualCells(view.plot(), d, true);
        // Centred: as much room left of the row labels as right of the colour bar.
        const auto [left, right] = sideGaps(view.plot());
        EXPECT_NEAR(left, right, 2);
        // The colour bar sits beside the cells.
        const QRect cells = heatmapAxisRect(view.plot())->rect();
        EXPECT_LE(view.plot()->axisRect(1)->rect().left() - cells.right(), 20);
        EXPECT_GE(view.plot()->axisRect(1)->rect().height(), cells.height() - 1);
        // The numbers are drawn, at a comfortable size.
        EXPECT_GE(view.valueFontPixelSize(), 12);
        EXPECT_GT(textPixels(img, view.cellRect(1, 0)), 12);
        EXPECT_GT(textPixels(img, view.cellRect(5, 5)), 12);
        const QString name =
            QStringLiteral("book_weights_%1x%2").arg(size.width()).arg(size.height());
        EXPECT_TRUE(savePng(&view, name + ".png"));
        view.setPalette(darkPalette());
        EXPECT_TRUE(savePng(&view, name + "_dark.png"));
    }
}

TEST(FigureLayout, SixteenTokensShowTheirNumbersAtTheWindowSizes) {
    // The window gives the figure about 640 x 500 at 1280 x 720 and 700 x 560 at 1366 x 768.
    const HeatmapData d = tokenWeights(16);
    for (const QSize size : {QSize(640, 500), QSize(700, 560)}) {
        SCOPED_TRACE(size.width());
        HeatmapView view;
        view.setData(d);
        showAt(view, size);
        EXPECT_FALSE(view.showTitle());
        const QImage img = view.plot()->grab().toImage();
        expectEqualCells(view.plot(), d, true);
        EXPECT_GE(view.valueFontPixelSize(), kMinCellValuePixels);
        EXPECT_GT(textPixels(img, view.cellRect(15, 0)), 8);
        EXPECT_GT(textPixels(img, view.cellRect(9, 4)), 8);
        // Every token keeps its label (with its position: "the" repeats).
        QCPAxis* x = heatmapAxisRect(view.plot())->axis(QCPAxis::atBottom);
        QCPAxis* y = heatmapAxisRect(view.plot())->axis(QCPAxis::atLeft);
        EXPECT_EQ(x->tickVectorLabels().size(), 16);
        EXPECT_EQ(y->tickVectorLabels().size(), 16);
        EXPECT_EQ(y->tickVectorLabels().at(4), QStringLiteral("4·the"));
        const QString name = QStringLiteral("weights16_%1x%2").arg(size.width()).arg(size.height());
        EXPECT_TRUE(savePng(&view, name + ".png"));
        view.setPalette(darkPalette());
        EXPECT_TRUE(savePng(&view, name + "_dark.png"));
    }
}

TEST(FigureLayout, LabelsAreLeftOutOnlyWhereTheyWouldOverlap) {
    FigureOptions o;
    // The book's six tokens at 74 px a cell (Export all steps used to drop every other one).
    {
        Drawn f(bookWeightsData(), o, QSize(6 * 74 + 260, 6 * 74 + 200));
        EXPECT_GE(heatmapCellRect(&f.plot, 0, 0).width(), 70);
        EXPECT_EQ(f.axis(QCPAxis::atBottom)->tickVectorLabels().size(), 6);
        EXPECT_EQ(f.axis(QCPAxis::atLeft)->tickVectorLabels().size(), 6);
    }
    // 33 tokens at the suggested size: all 33 on both axes.
    {
        const HeatmapData d = tokenWeights(33);
        Drawn f(d, o, suggestedFigureSize(d, o));
        EXPECT_EQ(f.axis(QCPAxis::atBottom)->tickVectorLabels().size(), 33);
        EXPECT_EQ(f.axis(QCPAxis::atLeft)->tickVectorLabels().size(), 33);
        EXPECT_TRUE(savePng(f.image, "weights33_export.png"));
    }
    // 200 tokens in 640 x 500 cannot hold them all: thinned, and the ones left never touch.
    {
        const HeatmapData d = tokenWeights(200);
        Drawn f(d, o, QSize(640, 500));
        QCPAxis* x = f.axis(QCPAxis::atBottom);
        QCPAxis* y = f.axis(QCPAxis::atLeft);
        ASSERT_GE(y->tickVector().size(), 2);
        EXPECT_LT(y->tickVector().size(), 200);
        const double line = QFontMetricsF(y->tickLabelFont()).height();
        const double rowGap =
            std::abs(y->coordToPixel(y->tickVector()[1]) - y->coordToPixel(y->tickVector()[0]));
        EXPECT_GE(rowGap, line);
        // Cells too narrow for every label at 45 degrees: the labels stand on their side,
        // where they pack closest.
        EXPECT_EQ(x->tickLabelRotation(), -90.0);
        const double colGap =
            std::abs(x->coordToPixel(x->tickVector()[1]) - x->coordToPixel(x->tickVector()[0]));
        EXPECT_GE(colGap, QFontMetricsF(x->tickLabelFont()).height() - 0.5);
        // Not thinned more than needed: half the step would overlap.
        EXPECT_LT(rowGap / 2, line + 1);
        EXPECT_TRUE(savePng(f.image, "weights200_640x500.png"));
    }
}

TEST(FigureLayout, LongStripsStretchTheirCellsOtherMatricesKeepThemSquare) {
    FigureOptions o;
    o.colormap = Colormap::Diverging;
    std::vector<float> wide(6 * 768);
    for (size_t i = 0; i < wide.size(); ++i)
        wide[i] = std::sin(float(i) * 0.37f);
    const Step inputs = makeStep("inputs", StepKind::Input, {"b", "T", "d_in"}, {1, 6, 768}, wide);
    const HeatmapData strip = sliceStep(inputs, bookTokens(), 0, 0);
    EXPECT_FALSE(squareCells(strip));
    {
        Drawn f(strip, o, QSize(700, 560));
        const QRectF cell = heatmapCellRect(&f.plot, 0, 0);
        EXPECT_LT(cell.width() * 20, cell.height());
        // The strip fills the width instead of leaving a sliver.
        EXPECT_GT(heatmapAxisRect(&f.plot)->rect().width(), 400);
        EXPECT_TRUE(savePng(f.image, "inputs_6x768.png"));
    }
    const std::vector<float> q = {0.2309f, 1.0966f, 0.4306f, 1.4551f, 0.4300f, 1.4343f,
                                  0.2355f, 0.7990f, 0.2983f, 0.6565f, 0.2568f, 1.0533f};
    const Step queries =
        makeStep("queries", StepKind::Projection, {"b", "T", "d_out"}, {1, 6, 2}, q, "x @ W_query");
    const HeatmapData narrow = sliceStep(queries, bookTokens(), 0, 0);
    EXPECT_TRUE(squareCells(narrow));
    {
        Drawn f(narrow, FigureOptions{}, QSize(700, 560));
        expectEqualCells(&f.plot, narrow, true);
        EXPECT_GT(cellValuePixelSize(&f.plot), 12);
        EXPECT_TRUE(savePng(f.image, "queries_6x2.png"));
    }
    const Step bias = makeStep("bias", StepKind::Projection, {"d_out"}, {4}, {1, -2, 3, -4});
    const HeatmapData row = sliceStep(bias, {}, 0, 0);
    {
        Drawn f(row, o, QSize(640, 300));
        expectEqualCells(&f.plot, row, true);
        // The colour bar is at least as tall as its title, which is never cut short.
        EXPECT_EQ(f.plot.axisRect(1)->axis(QCPAxis::atRight)->label(), "value");
        EXPECT_TRUE(savePng(f.image, "bias_1x4.png"));
    }
    {
        // A wide window: the one row is still square cells, the bar keeps its title whole.
        o.colorBarLabel = QStringLiteral("a long colour bar title that needs room");
        o.showTitle = false;
        Drawn f(row, o, QSize(1200, 300));
        expectEqualCells(&f.plot, row, true);
        QCPAxisRect* bar = f.plot.axisRect(1);
        const QString label = bar->axis(QCPAxis::atRight)->label();
        EXPECT_EQ(label, o.colorBarLabel);
        EXPECT_GE(bar->rect().height(),
                  QFontMetricsF(bar->axis(QCPAxis::atRight)->labelFont()).horizontalAdvance(label));
        EXPECT_TRUE(savePng(f.image, "bias_1x4_wide.png"));
    }
}

TEST(SuggestedFigureSize, BookWeightsGetSquareCellsThatHoldTheirNumbers) {
    const HeatmapData d = bookWeightsData();
    FigureOptions o;
    const QSize size = suggestedFigureSize(d, o);
    // Not the squashed on-screen aspect: about as tall as wide, well under a screen.
    EXPECT_LT(size.width(), 1000);
    EXPECT_LT(size.height(), 1000);
    EXPECT_GT(size.height() * 3, size.width() * 2);
    Drawn f(d, o, size);
    expectEqualCells(&f.plot, d, true);
    EXPECT_GE(heatmapCellRect(&f.plot, 0, 0).width(), 60);
    EXPECT_GE(cellValuePixelSize(&f.plot), 12);
    EXPECT_GT(textPixels(f.image, heatmapCellRect(&f.plot, 1, 0)), 12);
    EXPECT_EQ(f.axis(QCPAxis::atBottom)->tickVectorLabels().size(), 6);
    EXPECT_EQ(f.axis(QCPAxis::atLeft)->tickVectorLabels().size(), 6);
    EXPECT_EQ(f.axis(QCPAxis::atBottom)->tickLabelRotation(), 0.0);

    // The file: the same size, the title in it.
    o.scale = 1;
    const QImage png = renderHeatmapImage(d, o);
    EXPECT_EQ(png.size(), size);
    EXPECT_TRUE(savePng(png, "book_weights_export.png"));
    o.colormap = Colormap::Diverging;
    const Step scores = makeStep("masked_scores", StepKind::Scores, {"b", "T", "T"}, {1, 6, 6},
                                 maskedScores(), "scores.masked_fill(mask.bool(), -torch.inf)");
    EXPECT_TRUE(savePng(renderHeatmapImage(sliceStep(scores, bookTokens(), 0, 0), o),
                        "book_masked_scores_export.png"));
}

TEST(SuggestedFigureSize, GrowsWithTheTokensAndStaysCapped) {
    const FigureOptions o;
    const QSize s16 = suggestedFigureSize(tokenWeights(16), o);
    const QSize s33 = suggestedFigureSize(tokenWeights(33), o);
    EXPECT_GT(s33.width(), s16.width());
    {
        const HeatmapData d = tokenWeights(33);
        Drawn f(d, o, s33);
        expectEqualCells(&f.plot, d, true);
        EXPECT_GE(cellValuePixelSize(&f.plot), 10);  // numbers even at 33 tokens
    }
    const QSize big = suggestedFigureSize(tokenWeights(400), o);
    EXPECT_LE(big.width(), 2000);
    EXPECT_LE(big.height(), 2000);
    EXPECT_GT(big.width(), 1500);
}

TEST(SuggestedFigureSize, EveryExportPathUsesIt) {
    Trace trace;
    trace.steps.push_back(weightsStep());
    trace.steps.push_back(maskStep());
    const std::vector<float> q = {0.2309f, 1.0966f, 0.4306f, 1.4551f, 0.4300f, 1.4343f,
                                  0.2355f, 0.7990f, 0.2983f, 0.6565f, 0.2568f, 1.0533f};
    trace.steps.push_back(
        makeStep("queries", StepKind::Projection, {"b", "T", "d_out"}, {1, 6, 2}, q, "x @ W"));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    FigureOptions o;
    o.scale = 1;
    const StepFiguresResult r = exportStepFigures(
        trace, bookTokens(), allStepFigures(trace, "png", false), o, std::nullopt, dir.path());
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    ASSERT_EQ(r.files.size(), 3);
    const Step* mask = trace.find("mask");
    for (int i = 0; i < 3; ++i) {
        const HeatmapData d = sliceStep(trace.steps[size_t(i)], bookTokens(), 0, 0, mask);
        EXPECT_EQ(QImage(r.files[i]).size(), suggestedFigureSize(d, o)) << i;
    }
    // The view hands exports its options without a size of its own.
    HeatmapView view;
    view.setData(bookWeightsData());
    showAt(view, QSize(900, 300));
    EXPECT_EQ(view.figureOptions().width, 0);
    EXPECT_EQ(view.figureOptions().height, 0);
    EXPECT_TRUE(view.figureOptions().showTitle);
}

TEST(FigureLabels, PositionsWhenTokensRepeat) {
    const Step w =
        makeStep("weights", StepKind::Weights, {"T", "T"}, {3, 3}, std::vector<float>(9, 1.0f / 3));
    const HeatmapData repeats = sliceStep(w, {"the", " cat", " the"}, 0, 0);
    const HeatmapData distinct = sliceStep(w, {"a", " cat", " sat"}, 0, 0);
    EXPECT_TRUE(tokenLabelsWithPositions(repeats, LabelPositions::Auto));
    EXPECT_FALSE(tokenLabelsWithPositions(distinct, LabelPositions::Auto));
    EXPECT_TRUE(tokenLabelsWithPositions(distinct, LabelPositions::On));
    EXPECT_FALSE(tokenLabelsWithPositions(repeats, LabelPositions::Off));

    auto ticks = [](const HeatmapData& d, LabelPositions p) {
        FigureOptions o;
        o.positionsInLabels = p;
        Drawn f(d, o, QSize(600, 500));
        return f.axis(QCPAxis::atBottom)->tickVectorLabels();
    };
    const QString dot(QChar(0x00B7));
    EXPECT_EQ(ticks(repeats, LabelPositions::Auto),
              QVector<QString>({"0" + dot + "the", "1" + dot + "cat", "2" + dot + "the"}));
    EXPECT_EQ(ticks(distinct, LabelPositions::Auto), QVector<QString>({"a", "cat", "sat"}));
    EXPECT_EQ(ticks(distinct, LabelPositions::On),
              QVector<QString>({"0" + dot + "a", "1" + dot + "cat", "2" + dot + "sat"}));
    EXPECT_EQ(ticks(repeats, LabelPositions::Off), QVector<QString>({"the", "cat", "the"}));
    // Feature axes are indices already: never prefixed.
    EXPECT_EQ(axisTickLabels({"0", "1"}, false, true), QStringList({"0", "1"}));
    // Whitespace tokens stay visible with their position.
    EXPECT_EQ(axisTickLabels({"a", "\n"}, true, true),
              QStringList({"0" + dot + "a", "1" + dot + QChar(0x21B5)}));
}

TEST(FigureLabels, RawGpt2TokensArePresentable) {
    // As the pipeline passes them: leading spaces, a newline and a space token, the bytes of a
    // partial UTF-8 character.
    const QStringList raw = {"The", " cat", "\n", " ", "e4 bd", " cat"};
    const Step w = makeStep("weights", StepKind::Weights, {"T", "T"}, {6, 6},
                            std::vector<float>(36, 1.0f / 6));
    const HeatmapData d = sliceStep(w, raw, 0, 0);
    Drawn f(d, FigureOptions{}, QSize(700, 560));
    const QString dot(QChar(0x00B7));
    // " cat" repeats: positions on both axes.
    EXPECT_EQ(f.axis(QCPAxis::atLeft)->tickVectorLabels(),
              QVector<QString>({"0" + dot + "The", "1" + dot + "cat", "2" + dot + QChar(0x21B5),
                                "3" + dot + dot, "4" + dot + "e4 bd", "5" + dot + "cat"}));
    EXPECT_TRUE(savePng(f.image, "gpt2_labels.png"));
}

TEST(FigureLayout, PresentationModeScalesTheTextUp) {
    HeatmapView view;
    view.setData(bookWeightsData());
    showAt(view, QSize(1300, 650));
    const int normal = view.valueFontPixelSize();
    const double tickNormal =
        heatmapAxisRect(view.plot())->axis(QCPAxis::atLeft)->tickLabelFont().pointSizeF();
    view.setFontScale(1.6);
    view.plot()->replot();
    // The digits follow the cells, which the larger labels make a little smaller; never below
    // 16 px x the font scale.
    EXPECT_GE(view.valueFontPixelSize(), std::min(normal, 25));
    EXPECT_GE(view.valueFontPixelSize(), 20);
    EXPECT_NEAR(heatmapAxisRect(view.plot())->axis(QCPAxis::atLeft)->tickLabelFont().pointSizeF(),
                1.6 * tickNormal, 0.01);
    expectEqualCells(view.plot(), view.data(), true);
    view.setPalette(darkPalette());
    EXPECT_TRUE(savePng(&view, "book_weights_presentation_dark.png"));
}

// Presentation mode on a 1280 x 720 projector leaves the heatmap about 1,268 x 550 pixels: the
// book's 6 x 6 weights take the height, and their numbers are at least 40 px, read from the
// back of a room (square cells and a 16 px x scale cap gave 400 px and about 25 px).
TEST(FigureLayout, PresentationCellsFillAProjectorWithLargeNumbers) {
    HeatmapView view;
    view.setData(bookWeightsData());
    showAt(view, QSize(1268, 550));
    view.setFontScale(1.6);
    view.setPresentationCells(true);
    view.plot()->replot();
    EXPECT_GE(view.valueFontPixelSize(), 40);
    const QRectF first = view.cellRect(0, 0), last = view.cellRect(5, 5);
    EXPECT_GE(last.bottom() - first.top(), 0.75 * view.plot()->height());
    EXPECT_LE(last.right(), view.plot()->width());
    // The numbers fit their cells with room to spare on both sides.
    QFont f = view.font();
    f.setPixelSize(view.valueFontPixelSize());
    EXPECT_LT(QFontMetricsF(f).horizontalAdvance(QStringLiteral("0.48")), 0.85 * first.width());
    expectEqualCells(view.plot(), view.data(), false);  // wider than tall, at most 1.6 times
    EXPECT_LE(first.width(), 1.6 * first.height() + 1);
    EXPECT_TRUE(savePng(&view, "book_weights_presentation_1280x720.png"));
    // Off again: square cells.
    view.setPresentationCells(false);
    view.plot()->replot();
    EXPECT_NEAR(view.cellRect(0, 0).width(), view.cellRect(0, 0).height(), 1.0);
}

TEST(FigureLayout, ZoomingInRevealsLabelsAndNumbers) {
    const HeatmapData d = tokenWeights(200);
    HeatmapView view;
    view.setData(d);
    showAt(view, QSize(700, 560));
    QCPAxis* x = heatmapAxisRect(view.plot())->axis(QCPAxis::atBottom);
    QCPAxis* y = heatmapAxisRect(view.plot())->axis(QCPAxis::atLeft);
    EXPECT_EQ(view.valueFontPixelSize(), 0);
    EXPECT_LT(y->tickVector().size(), 50);
    x->setRange(99.5, 109.5);  // ten tokens across
    y->setRange(99.5, 109.5);
    view.plot()->replot();
    EXPECT_GE(view.valueFontPixelSize(), 12);
    EXPECT_EQ(y->tickVector().size(), 10);
    EXPECT_EQ(x->tickVector().size(), 10);
    EXPECT_TRUE(savePng(&view, "weights200_zoomed.png"));
}

// Twelve tokens of a trained model in the heatmap's area at 1280 x 720 (about 440 x 420) and
// at 1920 x 1080 (about 1100 x 800): the cells fill the area, every key and query keeps its
// label, the numbers are drawn, and in big cells the digits grow with them (12 px digits in
// 130 px cells were unreadable from the back of a room).
TEST(FigureLayout, TwelveTokensFillTheAreaWithDigitsToMatch) {
    const HeatmapData d = tokenWeights(12);
    for (const QSize size : {QSize(440, 420), QSize(1100, 800)}) {
        SCOPED_TRACE(size.width());
        HeatmapView view;
        view.setData(d);
        showAt(view, size);
        const QRectF cell = view.cellRect(0, 0);
        // At 440 x 420 the axis titles and the legend step aside: the cells take 300 px
        // (240 before, too small for their numbers).
        EXPECT_GE(cell.width() * 12, size.width() * 0.65);
        EXPECT_GE(view.valueFontPixelSize(), kMinCellValuePixels);
        EXPECT_GE(view.valueFontPixelSize(), std::floor(cell.height() / 3) - 1);
        EXPECT_FALSE(view.cellText(11, 0).isEmpty());
        // Every key keeps its label (every other one was dropped at 45 degrees).
        QCPAxis* x = heatmapAxisRect(view.plot())->axis(QCPAxis::atBottom);
        QCPAxis* y = heatmapAxisRect(view.plot())->axis(QCPAxis::atLeft);
        EXPECT_EQ(x->tickVectorLabels().size(), 12);
        EXPECT_EQ(y->tickVectorLabels().size(), 12);
        EXPECT_TRUE(savePng(
            &view, QStringLiteral("weights12_%1x%2.png").arg(size.width()).arg(size.height())));
    }
}

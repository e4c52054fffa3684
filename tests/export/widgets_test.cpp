// The widgets the app builds its views from: HeatmapView's outline, hover and row labels, the
// focus-row bar chart, and HeadGrid's thumbnails made off the GUI thread.
#include <gtest/gtest.h>
#include <qcustomplot.h>
#include <QApplication>
#include <QMouseEvent>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <cmath>
#include <memory>

#include "engine/trace.h"
#include "export/focus_row_view.h"
#include "export/head_grid.h"
#include "export/heatmap_view.h"
#include "test_steps.h"

using namespace attn;
using namespace attn::testing;

namespace {

// Pixels of `colour` along the border of a rectangle (a frame drawn around a cell).
int framePixels(const QImage& img, const QRectF& r, const QColor& colour) {
    int n = 0;
    const QRect box = r.toRect();
    for (int x = box.left(); x <= box.right(); ++x)
        for (int y : {box.top(), box.top() + 1, box.bottom(), box.bottom() - 1})
            n += QColor(img.pixel(x, y)).name() == colour.name();
    return n;
}

// The items of a view's plot that are visible frames (hover highlight, outline).
int visibleFrames(QCustomPlot* plot) {
    int n = 0;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* r = qobject_cast<QCPItemRect*>(plot->item(i)))
            n += r->visible();
    return n;
}

// A trace with one (1, heads, T, T) weights step, its mask and a (1, T, 2) step without heads.
std::shared_ptr<const Trace> headTrace(int heads, int T, unsigned seed) {
    auto t = std::make_shared<Trace>();
    t->steps.push_back(randomCausalWeightsStep(T, heads, seed));
    t->steps.push_back(causalMaskStep(T));
    t->steps.push_back(makeStep("queries", StepKind::Projection, {"b", "T", "d_out"}, {1, T, 2},
                                std::vector<float>(size_t(T) * 2, 0.5f)));
    return t;
}

}  // namespace

TEST(HeatmapViewApi, OutlinedCellStaysUntilClearedOrOutOfRange) {
    HeatmapView view;
    view.setData(bookWeightsData());
    showAt(view, QSize(640, 500));
    const QColor outline = view.palette().color(QPalette::Highlight);
    view.setOutlinedCell(3, 1);
    EXPECT_TRUE(view.hasOutlinedCell());
    view.plot()->replot();
    QImage img = view.plot()->grab().toImage();
    EXPECT_GT(framePixels(img, view.cellRect(3, 1), outline), 40);
    EXPECT_EQ(framePixels(img, view.cellRect(1, 1), outline), 0);  // not next to it either

    // Another head of the same shape keeps it; a smaller step drops it.
    view.setData(bookWeightsData());
    view.plot()->replot();
    img = view.plot()->grab().toImage();
    EXPECT_GT(framePixels(img, view.cellRect(3, 1), outline), 40);
    view.clearOutlinedCell();
    EXPECT_FALSE(view.hasOutlinedCell());
    view.plot()->replot();
    EXPECT_EQ(framePixels(view.plot()->grab().toImage(), view.cellRect(3, 1), outline), 0);
    view.setOutlinedCell(5, 5);
    const Step small =
        makeStep("weights", StepKind::Weights, {"T", "T"}, {2, 2}, {1.0f, 0.0f, 0.5f, 0.5f});
    view.setData(sliceStep(small, {"a", "b"}, 0, 0));
    EXPECT_FALSE(view.hasOutlinedCell());
    view.setOutlinedCell(7, 0);  // out of range: nothing outlined
    EXPECT_FALSE(view.hasOutlinedCell());
}

TEST(HeatmapViewApi, NewDataDropsTheHoverHighlight) {
    HeatmapView view;
    view.setData(bookWeightsData());
    showAt(view, QSize(640, 500));
    view.plot()->replot();
    QSignalSpy hovered(&view, &HeatmapView::cellHovered);
    sendMouse(view.plot(), QEvent::MouseMove, view.cellRect(2, 1).center().toPoint(), Qt::NoButton,
              Qt::NoButton);
    ASSERT_EQ(hovered.count(), 1);
    EXPECT_EQ(visibleFrames(view.plot()), 1);
    view.setData(bookWeightsData());
    EXPECT_EQ(visibleFrames(view.plot()), 0);
    ASSERT_EQ(hovered.count(), 2);
    EXPECT_EQ(hovered.last().at(0).toInt(), -1);
    view.plot()->replot();
    // Hovering the same cell again frames it again.
    sendMouse(view.plot(), QEvent::MouseMove, view.cellRect(2, 1).center().toPoint(), Qt::NoButton,
              Qt::NoButton);
    EXPECT_EQ(visibleFrames(view.plot()), 1);
}

// A switched-off head's big map is veiled and crossed out in red, as its thumbnail is: the
// cross runs through the diagonal's cells; back on, the cells are as before. The mark stays
// when new data comes (another step of the same head).
TEST(HeatmapViewApi, ASwitchedOffHeadIsVeiledAndCrossedOut) {
    HeatmapView view;
    view.setData(bookWeightsData());
    showAt(view, QSize(640, 500));
    view.plot()->replot();
    const QPoint onDiagonal = view.cellRect(2, 2).center().toPoint();
    const QColor before = view.plot()->toPixmap().toImage().pixelColor(onDiagonal);
    EXPECT_FALSE(view.isSwitchedOff());
    view.setSwitchedOff(true);
    view.plot()->replot();
    const auto marks = [&] {
        int n = 0;
        for (int i = 0; i < view.plot()->itemCount(); ++i)
            n += view.plot()->item(i)->objectName() == QLatin1String("switchedOff");
        return n;
    };
    EXPECT_EQ(marks(), 3);  // the veil and the cross's two lines
    const QColor crossed = view.plot()->toPixmap().toImage().pixelColor(onDiagonal);
    EXPECT_GT(crossed.red(), 180) << crossed.name().toStdString();
    EXPECT_LT(crossed.green(), 90) << crossed.name().toStdString();
    view.setData(bookWeightsData());
    EXPECT_EQ(marks(), 3);
    view.setSwitchedOff(false);
    view.plot()->replot();
    EXPECT_EQ(marks(), 0);
    EXPECT_EQ(view.plot()->toPixmap().toImage().pixelColor(onDiagonal), before);
}

TEST(HeatmapViewApi, ClickingARowLabelReportsTheQueryToken) {
    HeatmapView view;
    view.setData(bookWeightsData());
    showAt(view, QSize(640, 500));
    view.plot()->replot();
    QSignalSpy rowClicked(&view, &HeatmapView::rowLabelClicked);
    QSignalSpy cellClicked(&view, &HeatmapView::cellClicked);
    const QRectF cell = view.cellRect(3, 0);
    const QPoint onLabel(int(cell.left()) - 20, int(cell.center().y()));
    EXPECT_EQ(view.rowLabelAt(onLabel), 3);
    EXPECT_EQ(view.rowLabelAt(cell.center().toPoint()), -1);
    sendMouse(view.plot(), QEvent::MouseButtonPress, onLabel, Qt::LeftButton, Qt::LeftButton);
    sendMouse(view.plot(), QEvent::MouseButtonRelease, onLabel, Qt::LeftButton, Qt::NoButton);
    ASSERT_EQ(rowClicked.count(), 1);
    EXPECT_EQ(rowClicked.at(0).at(0).toInt(), 3);
    EXPECT_EQ(cellClicked.count(), 0);
}

TEST(HeatmapViewApi, ScaleAndPositionsReachTheFigureAndTheExport) {
    HeatmapView view;
    view.setData(bookWeightsData());
    view.setColorScale(ColorScale::Log);
    view.setLabelPositions(LabelPositions::On);
    showAt(view, QSize(640, 500));
    EXPECT_EQ(view.colorScale(), ColorScale::Log);
    const FigureOptions o = view.figureOptions();
    EXPECT_EQ(o.colorScale, ColorScale::Log);
    EXPECT_EQ(o.positionsInLabels, LabelPositions::On);
    view.plot()->replot();
    EXPECT_TRUE(view.plot()->axisRect(1)->axis(QCPAxis::atRight)->label().contains("log"));
    EXPECT_EQ(heatmapAxisRect(view.plot())->axis(QCPAxis::atLeft)->tickVectorLabels().at(1),
              QStringLiteral("1") + QChar(0x00B7) + "journey");
}

TEST(FocusRowView, OneQueryRowAsBarsWithMaskedKeysHatched) {
    FocusRowView view;
    EXPECT_TRUE(view.isEmpty());
    const HeatmapData d = bookWeightsData();
    view.setRow(d, 3);
    showAt(view, QSize(520, 240));
    EXPECT_EQ(view.row(), 3);
    EXPECT_TRUE(view.title().contains("\"with\"")) << view.title().toStdString();
    // Bars in key order, heights in proportion to the weights.
    const double h0 = view.barRect(0).height(), h1 = view.barRect(1).height();
    EXPECT_NEAR(h1 / h0, 0.2460 / 0.2758, 0.02);
    for (int c = 1; c < 6; ++c)
        EXPECT_GT(view.barRect(c).left(), view.barRect(c - 1).right());
    // Keys 4 and 5 are masked: hatched slots spanning the chart, not bars of 0.
    EXPECT_GT(view.barRect(4).height(), h0);
    EXPECT_EQ(view.barRect(4).height(), view.barRect(5).height());
    const QImage img = view.canvas()->grab().toImage();
    const QColor slot(img.pixel(view.barRect(4).center().toPoint()));
    EXPECT_LT(std::abs(slot.red() - slot.blue()), 12);  // grey hatch
    // The bar takes the heatmap's colour for its cell.
    const QColor bar(img.pixel(view.barRect(0).center().toPoint()));
    const ColorScaling s = colorScaling(d, Colormap::Viridis, ColorScale::Matrix);
    EXPECT_EQ(bar.name(), colormapColor(Colormap::Viridis, s.position(d.value(3, 0), 3)).name());
    // Labels and numbers fit at this size.
    for (int c = 0; c < 6; ++c)
        EXPECT_EQ(view.keyLabel(c), bookTokens()[c]);
    EXPECT_TRUE(view.valuesShown());
    EXPECT_EQ(view.keyAt(view.barRect(2).center().toPoint()), 2);
    QSignalSpy clicked(&view, &FocusRowView::keyClicked);
    QTest::mouseClick(view.canvas(), Qt::LeftButton, Qt::NoModifier,
                      view.barRect(1).center().toPoint());
    ASSERT_EQ(clicked.count(), 1);
    EXPECT_EQ(clicked.at(0).at(0).toInt(), 1);
    EXPECT_TRUE(savePng(&view, "focus_row_3.png"));
    view.setPalette(darkPalette());
    const QImage dark = view.canvas()->grab().toImage();
    EXPECT_LT(QColor(dark.pixel(2, 2)).lightness(), 40);
    EXPECT_TRUE(savePng(&view, "focus_row_3_dark.png"));

    view.setRow(d, 9);  // out of range
    EXPECT_TRUE(view.isEmpty());
}

TEST(FocusRowView, LongRowsScrollAndKeepEveryLabel) {
    const int T = 300;
    const Step mask = causalMaskStep(T);
    const HeatmapData d = sliceStep(randomCausalWeightsStep(T), sentenceTokens(T), 0, 0, &mask);
    FocusRowView view;
    view.setRow(d, 250);
    showAt(view, QSize(640, 240));
    EXPECT_GT(view.canvas()->width(), 2 * view.width());  // the row scrolls
    for (int c = 0; c < T; ++c)
        ASSERT_FALSE(view.keyLabel(c).isEmpty()) << c;
    EXPECT_EQ(view.keyLabel(4), QStringLiteral("4") + QChar(0x00B7) + "the");  // "the" repeats
    for (int c = 1; c < T; ++c)
        ASSERT_GE(view.barRect(c).left() - view.barRect(c - 1).left(), 14.0);
    EXPECT_TRUE(savePng(&view, "focus_row_long.png"));
}

TEST(HeadGridAsync, ThumbnailsArriveWithoutBlocking) {
    HeadGrid grid;
    showAt(grid, QSize(480, 160));
    QSignalSpy ready(&grid, &HeadGrid::tilesReady);
    grid.setStep(headTrace(4, 64, 1), "weights", sentenceTokens(64), 0, Colormap::Viridis,
                 ColorScale::Matrix);
    // setStep returned before the thumbnails exist: they come from the thread pool.
    EXPECT_TRUE(grid.isLoading());
    EXPECT_EQ(grid.headCount(), 0);
    ASSERT_TRUE(ready.wait(10000));
    EXPECT_FALSE(grid.isLoading());
    ASSERT_EQ(grid.headCount(), 4);
    EXPECT_EQ(grid.headData(2).rows, 64);  // under kThumbnailCells: not pooled
    EXPECT_EQ(grid.headData(2).head, 2);
    EXPECT_FALSE(grid.tileRect(3).isEmpty());

    // A step without heads, or one the trace lacks, clears the grid at once.
    grid.setStep(headTrace(4, 64, 1), "queries", {}, 0, Colormap::Viridis, ColorScale::Matrix);
    EXPECT_EQ(grid.headCount(), 0);
    EXPECT_FALSE(grid.isLoading());
}

// On a key/value group step there is one tile per query head; each caption names the group
// its head reads (heads 2 and 3 share group 1 of grouped-query attention with 4 heads and 2
// groups), on the module's other per-head steps too, and a narrow tile falls back to the head
// alone.
TEST(HeadGridAsync, GroupStepCaptionsNameTheGroup) {
    TraceRequest r;
    r.config.variant = Variant::GroupedQuery;
    r.config.dIn = 3;
    r.config.dOut = 8;
    r.config.heads = 4;
    r.config.kvGroups = 2;
    std::vector<float> x(6 * 3);
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = std::sin(float(i) * 0.7f);
    r.inputs = Tensor(Shape{6, 3}, x);
    auto trace = std::make_shared<const Trace>(runTrace(r));
    HeadGrid grid;
    showAt(grid, QSize(900, 160));
    QSignalSpy ready(&grid, &HeadGrid::tilesReady);
    grid.setStep(trace, "keys_groups", {}, 0, Colormap::Viridis, ColorScale::Matrix);
    ASSERT_TRUE(ready.wait(10000));
    ASSERT_EQ(grid.headCount(), 4);
    EXPECT_TRUE(grid.captionText(3) == QStringLiteral("head 3 · group 1") ||
                grid.captionText(3) == QStringLiteral("h3 · g1"))
        << grid.captionText(3).toStdString();
    EXPECT_EQ(grid.headData(3).values, grid.headData(2).values);  // one group, two heads
    EXPECT_NE(grid.headData(1).values, grid.headData(2).values);
    // Every query-head step of the module names the group too: which keys and values a head's
    // scores, weights and context read.
    for (const char* step : {"queries_heads", "scores", "weights", "context_heads"}) {
        grid.setStep(trace, step, {}, 0, Colormap::Viridis, ColorScale::Matrix);
        ASSERT_TRUE(ready.wait(10000)) << step;
        EXPECT_TRUE(grid.captionText(2) == QStringLiteral("head 2 · group 1") ||
                    grid.captionText(2) == QStringLiteral("h2 · g1"))
            << step << ": " << grid.captionText(2).toStdString();
        EXPECT_TRUE(grid.captionText(1) == QStringLiteral("head 1 · group 0") ||
                    grid.captionText(1) == QStringLiteral("h1 · g0"))
            << step << ": " << grid.captionText(1).toStdString();
    }
    // Multi-head attention has one key/value set per head: the captions are the heads'.
    grid.setStep(headTrace(4, 6, 1), "weights", {}, 0, Colormap::Viridis, ColorScale::Matrix);
    ASSERT_TRUE(ready.wait(10000));
    EXPECT_FALSE(grid.captionText(3).contains(QStringLiteral("g")));
}

TEST(HeadGridAsync, AStaleRequestIsDropped) {
    HeadGrid grid;
    showAt(grid, QSize(480, 160));
    QSignalSpy ready(&grid, &HeadGrid::tilesReady);
    // Big heads first (slow to pool), then a small request that supersedes them.
    grid.setStep(headTrace(6, 400, 1), "weights", sentenceTokens(400), 0, Colormap::Viridis,
                 ColorScale::Matrix);
    grid.setStep(headTrace(3, 8, 2), "weights", sentenceTokens(8), 0, Colormap::Viridis,
                 ColorScale::Matrix);
    ASSERT_TRUE(ready.wait(10000));
    // Let every task finish and every continuation reach the GUI thread.
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(50);
    QCoreApplication::processEvents();
    EXPECT_EQ(ready.count(), 1);
    ASSERT_EQ(grid.headCount(), 3);
    EXPECT_EQ(grid.headData(0).rows, 8);

    // A request superseded by setHeads never lands either.
    grid.setStep(headTrace(6, 400, 1), "weights", sentenceTokens(400), 0, Colormap::Viridis,
                 ColorScale::Matrix);
    grid.setHeads({});
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(50);
    QCoreApplication::processEvents();
    EXPECT_EQ(ready.count(), 1);
    EXPECT_EQ(grid.headCount(), 0);
    EXPECT_FALSE(grid.isLoading());
}

TEST(HeadGridLayout, ThumbnailsAndCaptionsStayLegibleInAColumnOrAStrip) {
    struct Case {
        int heads;
        QSize size;
        int minThumbnail;
    };
    // A column beside the heatmap (in a scroll area, heightForWidth) and a strip under it.
    const Case cases[] = {{2, QSize(180, 0), 70},     {12, QSize(200, 0), 70},
                          {25, QSize(220, 0), 55},    {12, QSize(900, 150), 50},
                          {25, QSize(1100, 170), 40}, {4, QSize(150, 0), 60}};
    for (const Case& k : cases) {
        SCOPED_TRACE(QStringLiteral("%1 heads in %2 x %3")
                         .arg(k.heads)
                         .arg(k.size.width())
                         .arg(k.size.height())
                         .toStdString());
        HeadGrid grid;
        grid.setHeads(std::vector<HeatmapData>(size_t(k.heads), bookWeightsData()));
        QSize size = k.size;
        if (size.height() == 0)
            size.setHeight(grid.heightForWidth(size.width()));
        for (const QPalette& palette : {QPalette(QColor(0xef, 0xef, 0xef)), darkPalette()}) {
            grid.setPalette(palette);
            grid.setCurrentHead(k.heads - 1);
            showAt(grid, size);
            QFont bold = grid.font();
            bold.setBold(true);
            for (int h = 0; h < k.heads; ++h) {
                EXPECT_GE(grid.thumbnailRect(h).width(), k.minThumbnail);
                EXPECT_TRUE(grid.rect().contains(grid.tileRect(h)));
                // The caption (drawn bold when selected) fits its room: never clipped.
                EXPECT_LE(QFontMetrics(bold).horizontalAdvance(grid.captionText(h)),
                          grid.captionRect(h).width());
                EXPECT_TRUE(grid.captionText(h).endsWith(QString::number(h)));
            }
            EXPECT_TRUE(savePng(
                &grid, QStringLiteral("heads%1_%2x%3%4.png")
                           .arg(k.heads)
                           .arg(size.width())
                           .arg(size.height())
                           .arg(palette.color(QPalette::Window).lightness() < 128 ? "_dark" : "")));
        }
    }
}

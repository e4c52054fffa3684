#include <gtest/gtest.h>
#include <qcustomplot.h>
#include <QApplication>
#include <QLabel>
#include <QMouseEvent>
#include <QPalette>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

#include "export/head_grid.h"
#include "export/heatmap_view.h"
#include "test_steps.h"

using namespace attn;
using namespace attn::testing;

namespace {

// The widget position of a cell centre, after the view has laid itself out.
QPoint cellCentre(HeatmapView& view, int row, int col) {
    QCPAxisRect* rect = heatmapAxisRect(view.plot());
    return QPoint(int(rect->axis(QCPAxis::atBottom)->coordToPixel(col)),
                  int(rect->axis(QCPAxis::atLeft)->coordToPixel(row)));
}

// The darkest and lightest pixel lightness inside `r`.
std::pair<int, int> lightnessRange(const QImage& img, const QRect& r) {
    int lo = 255, hi = 0;
    const QRect in = r & img.rect();
    for (int y = in.top(); y <= in.bottom(); ++y)
        for (int x = in.left(); x <= in.right(); ++x) {
            const int l = QColor(img.pixel(x, y)).lightness();
            lo = std::min(lo, l);
            hi = std::max(hi, l);
        }
    return {lo, hi};
}

}  // namespace

TEST(HeatmapView, ToolTipTextForCells) {
    HeatmapView view;
    view.setData(bookWeightsData());
    EXPECT_EQ(view.toolTipForCell(1, 0), "row 1 \"journey\", col 0 \"Your\" = 0.5517");
    EXPECT_EQ(view.toolTipForCell(0, 1),
              "row 0 \"Your\", col 1 \"journey\" = 0.0000 (masked: this key is hidden from "
              "this query)");
    EXPECT_EQ(view.toolTipForCell(9, 9), "");
    EXPECT_EQ(view.data().rows, 6);
}

TEST(HeatmapView, HoverAndClickReportTheCell) {
    HeatmapView view;
    view.setData(bookWeightsData());
    showAt(view, QSize(800, 640));
    view.plot()->replot();
    QSignalSpy hovered(&view, &HeatmapView::cellHovered);
    QSignalSpy clicked(&view, &HeatmapView::cellClicked);

    const QPoint p = cellCentre(view, 1, 0);
    int r = -1, c = -1;
    ASSERT_TRUE(view.cellAt(p, &r, &c));
    EXPECT_EQ(r, 1);
    EXPECT_EQ(c, 0);
    sendMouse(view.plot(), QEvent::MouseMove, p, Qt::NoButton, Qt::NoButton);
    ASSERT_EQ(hovered.count(), 1);
    EXPECT_EQ(hovered.at(0).at(0).toInt(), 1);
    EXPECT_EQ(hovered.at(0).at(1).toInt(), 0);
    EXPECT_FLOAT_EQ(hovered.at(0).at(2).toFloat(), 0.551712f);

    // Moving inside the same cell does not repeat the signal.
    sendMouse(view.plot(), QEvent::MouseMove, p + QPoint(2, 1), Qt::NoButton, Qt::NoButton);
    EXPECT_EQ(hovered.count(), 1);

    const QPoint q = cellCentre(view, 4, 2);
    sendMouse(view.plot(), QEvent::MouseButtonPress, q, Qt::LeftButton, Qt::LeftButton);
    sendMouse(view.plot(), QEvent::MouseButtonRelease, q, Qt::LeftButton, Qt::NoButton);
    ASSERT_EQ(clicked.count(), 1);
    EXPECT_EQ(clicked.at(0).at(0).toInt(), 4);
    EXPECT_EQ(clicked.at(0).at(1).toInt(), 2);
    EXPECT_FLOAT_EQ(clicked.at(0).at(2).toFloat(), 0.1984f);

    // Leaving the cells reports (-1, -1).
    sendMouse(view.plot(), QEvent::MouseMove, QPoint(2, 2), Qt::NoButton, Qt::NoButton);
    ASSERT_GE(hovered.count(), 2);
    EXPECT_EQ(hovered.last().at(0).toInt(), -1);
}

TEST(HeatmapView, StaleGreysAndLabels) {
    HeatmapView view;
    view.setData(bookWeightsData());
    auto* label = view.findChild<QLabel*>("staleLabel");
    ASSERT_NE(label, nullptr);
    EXPECT_FALSE(view.isStale());
    EXPECT_TRUE(label->isHidden());
    EXPECT_EQ(view.plot()->graphicsEffect(), nullptr);

    view.setStale(true);
    EXPECT_TRUE(view.isStale());
    EXPECT_FALSE(label->isHidden());
    EXPECT_TRUE(label->text().contains("stale"));
    EXPECT_NE(view.plot()->graphicsEffect(), nullptr);

    view.setStale(false);
    EXPECT_FALSE(view.isStale());
    EXPECT_TRUE(label->isHidden());
    EXPECT_EQ(view.plot()->graphicsEffect(), nullptr);
}

TEST(HeatmapView, ColormapFollowsStepUntilUserPicks) {
    HeatmapView view;
    view.setData(bookWeightsData());
    EXPECT_EQ(view.colormap(), Colormap::Viridis);
    const Step scores =
        makeStep("masked_scores", StepKind::Scores, {"b", "T", "T"}, {1, 6, 6}, maskedScores());
    view.setData(sliceStep(scores, bookTokens(), 0, 0));
    EXPECT_EQ(view.colormap(), Colormap::Diverging);
    view.setColormap(Colormap::Magma);
    EXPECT_FALSE(view.autoColormap());
    view.setData(bookWeightsData());
    EXPECT_EQ(view.colormap(), Colormap::Magma);
    EXPECT_EQ(view.figureOptions().colormap, Colormap::Magma);
    view.setAutoColormap(true);
    EXPECT_EQ(view.colormap(), Colormap::Viridis);
}

TEST(HeatmapView, ZoomIsClampedAndResets) {
    HeatmapView view;
    view.setData(bookWeightsData());
    showAt(view, QSize(800, 640));
    QCPAxis* x = heatmapAxisRect(view.plot())->axis(QCPAxis::atBottom);
    QCPAxis* y = heatmapAxisRect(view.plot())->axis(QCPAxis::atLeft);
    EXPECT_DOUBLE_EQ(x->range().lower, -0.5);
    EXPECT_DOUBLE_EQ(x->range().upper, 5.5);

    x->setRange(1.0, 3.0);  // zoomed in
    EXPECT_DOUBLE_EQ(x->range().lower, 1.0);
    x->setRange(-4.0, 20.0);  // beyond the data: clamped
    EXPECT_DOUBLE_EQ(x->range().lower, -0.5);
    EXPECT_DOUBLE_EQ(x->range().upper, 5.5);
    y->setRange(4.0, 9.0);  // panned past the end: shifted back
    EXPECT_DOUBLE_EQ(y->range().upper, 5.5);
    EXPECT_DOUBLE_EQ(y->range().lower, 0.5);

    x->setRange(2.0, 3.0);
    view.resetZoom();
    EXPECT_DOUBLE_EQ(x->range().lower, -0.5);
    EXPECT_DOUBLE_EQ(x->range().upper, 5.5);
    EXPECT_DOUBLE_EQ(y->range().lower, -0.5);
    EXPECT_DOUBLE_EQ(y->range().upper, 5.5);

    // Double-click resets too.
    x->setRange(2.0, 3.0);
    const QPoint p = cellCentre(view, 2, 2);
    QMouseEvent dbl(QEvent::MouseButtonDblClick, QPointF(p), QPointF(view.plot()->mapToGlobal(p)),
                    Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view.plot(), &dbl);
    EXPECT_DOUBLE_EQ(x->range().lower, -0.5);
    EXPECT_DOUBLE_EQ(x->range().upper, 5.5);
}

TEST(HeadGrid, ShowsHeadsAndReportsClicks) {
    std::vector<HeatmapData> heads;
    std::vector<float> v;
    for (int h = 0; h < 4; ++h)
        for (int i = 0; i < 36; ++i)
            v.push_back(float(h * 36 + i) / 144.0f);
    const Step s = makeStep("weights", StepKind::Weights, {"b", "h", "T", "T"}, {1, 4, 6, 6}, v);
    for (int h = 0; h < 4; ++h)
        heads.push_back(sliceStep(s, bookTokens(), h, 0));

    HeadGrid grid;
    grid.setHeads(heads);
    EXPECT_EQ(grid.headCount(), 4);
    grid.resize(480, 160);
    grid.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&grid));
    QSignalSpy clicked(&grid, &HeadGrid::headClicked);

    for (int h = 0; h < 4; ++h) {
        EXPECT_FALSE(grid.tileRect(h).isEmpty());
        EXPECT_EQ(grid.headAt(grid.tileRect(h).center()), h);
    }
    EXPECT_TRUE(grid.tileRect(4).isEmpty());
    // Four heads in one row fit a wide strip best.
    EXPECT_EQ(grid.tileRect(0).top(), grid.tileRect(3).top());

    QTest::mouseClick(&grid, Qt::LeftButton, Qt::NoModifier, grid.tileRect(2).center());
    ASSERT_EQ(clicked.count(), 1);
    EXPECT_EQ(clicked.at(0).at(0).toInt(), 2);
    EXPECT_EQ(grid.currentHead(), 2);

    // Arrows move the selection; Enter opens the selected head.
    QSignalSpy moved(&grid, &HeadGrid::currentHeadChanged);
    QTest::keyClick(&grid, Qt::Key_Right);
    EXPECT_EQ(clicked.count(), 1);
    ASSERT_EQ(moved.count(), 1);
    EXPECT_EQ(moved.at(0).at(0).toInt(), 3);
    EXPECT_EQ(grid.currentHead(), 3);
    QTest::keyClick(&grid, Qt::Key_Return);
    ASSERT_EQ(clicked.count(), 2);
    EXPECT_EQ(clicked.at(1).at(0).toInt(), 3);

    // Painting works (offscreen) and the current head is outlined in the highlight colour.
    const QImage shot = grid.grab().toImage();
    const QRgb hl = grid.palette().color(QPalette::Highlight).rgb();
    auto highlighted = [&](int head) {
        int n = 0;
        const QRect t = grid.tileRect(head).adjusted(-3, -3, 3, 3) & shot.rect();
        for (int y = t.top(); y <= t.bottom(); ++y)
            for (int x = t.left(); x <= t.right(); ++x)
                n += (shot.pixel(x, y) | 0xff000000) == (hl | 0xff000000);
        return n;
    };
    EXPECT_GT(highlighted(3), 40);
    EXPECT_EQ(highlighted(0), 0);

    grid.setHeads({});
    EXPECT_EQ(grid.headCount(), 0);
    EXPECT_EQ(grid.headAt(QPoint(10, 10)), -1);
}

TEST(HeatmapView, FollowsTheDarkPaletteAndBack) {
    HeatmapView view;
    view.setShowTitle(true);  // off by default: the window's caption row says it
    view.setData(bookWeightsData());
    showAt(view, QSize(800, 640));
    const QColor white(Qt::white);
    auto shot = [&]() {
        QCoreApplication::processEvents();
        view.plot()->replot();
        return view.plot()->grab().toImage();
    };
    auto titleRect = [&]() {
        auto* title = qobject_cast<QCPTextElement*>(view.plot()->plotLayout()->element(0, 0));
        return title ? title->rect() : QRect();
    };
    QImage img = shot();
    EXPECT_EQ(QColor(img.pixel(3, 3)), white);
    ASSERT_FALSE(titleRect().isEmpty());
    EXPECT_LT(lightnessRange(img, titleRect()).first, 60);  // dark title on white

    // Zoomed in: the new colours keep the zoom.
    QCPAxis* x = heatmapAxisRect(view.plot())->axis(QCPAxis::atBottom);
    x->setRange(0.5, 3.5);

    view.setPalette(darkPalette());
    EXPECT_TRUE(view.figureColors().isDark());
    img = shot();
    const QColor margin(img.pixel(3, 3));
    EXPECT_EQ(margin, QColor(0x1e, 0x1e, 0x1e));
    EXPECT_LT(margin.lightness(), 40);
    const auto [lo, hi] = lightnessRange(img, titleRect());
    EXPECT_LT(lo, 40);   // the background around the letters ...
    EXPECT_GT(hi, 220);  // ... and the letters, light
    // Beside the colour bar, right margin: dark too (no white panel anywhere in the margins).
    EXPECT_LT(QColor(img.pixel(img.width() - 3, img.height() / 2)).lightness(), 40);
    x = heatmapAxisRect(view.plot())->axis(QCPAxis::atBottom);
    EXPECT_DOUBLE_EQ(x->range().lower, 0.5);
    EXPECT_DOUBLE_EQ(x->range().upper, 3.5);
    // What export and copy take from the view stays the print look.
    EXPECT_TRUE(view.figureOptions().colors == FigureColors());
    // Stale greys the figure but keeps it dark (no light-grey panel in a dark window).
    view.setStale(true);
    img = view.grab().toImage();
    EXPECT_LT(QColor(img.pixel(3, img.height() - 3)).lightness(), 70);
    view.setStale(false);

    view.setPalette(QPalette(QColor(0xef, 0xef, 0xef)));
    EXPECT_FALSE(view.figureColors().isDark());
    img = shot();
    EXPECT_EQ(QColor(img.pixel(3, 3)), white);
    EXPECT_LT(lightnessRange(img, titleRect()).first, 60);
}

TEST(HeadGrid, MaskedCellsAndFramesFollowTheDarkPalette) {
    const Step mask = maskStep();
    std::vector<HeatmapData> heads{sliceStep(weightsStep(), bookTokens(), 0, 0, &mask),
                                   sliceStep(weightsStep(), bookTokens(), 0, 0, &mask)};
    HeadGrid grid;
    grid.setHeads(heads);
    grid.resize(480, 200);
    grid.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&grid));
    // The masked cell (0, 5) of head 1, in the tile's top right corner (a 6 x 6 square tile).
    auto maskedPixel = [&](const QImage& img) {
        const QRect t = grid.tileRect(1);
        const int cell = t.width() / 6;
        return QColor(img.pixel(t.left() + 5 * cell + 1, t.top() + 1));
    };
    QImage img = grid.grab().toImage();
    EXPECT_GT(maskedPixel(img).lightness(), 140);  // light grey or its hatch line

    grid.setPalette(darkPalette());
    img = grid.grab().toImage();
    EXPECT_EQ(QColor(img.pixel(2, 2)), QColor(0x2b, 0x2b, 0x2b));  // the window colour
    const QColor dark = maskedPixel(img);
    EXPECT_LT(dark.lightness(), 150);
    EXPECT_GT(std::hypot(dark.red() - 0x44, dark.green() - 0x01, dark.blue() - 0x54), 55);
    // The idle frame of head 1 (1.5 px outside the tile): a quiet grey between the window and
    // its text, not the light-grey box of a light window.
    const QRect t = grid.tileRect(1);
    const QColor frame(img.pixel(t.left() - 2, t.top() + t.width() / 2));
    EXPECT_GT(frame.lightness(), 0x2b + 40);
    EXPECT_LT(frame.lightness(), 130);
}

// The cells print two decimals unless asked for more (View > Decimals in cells: the book
// prints four); hovering shows at least the book's four, whatever the step.
TEST(HeatmapView, CellsPrintTheChosenDecimals) {
    HeatmapView view;
    view.setData(bookWeightsData());
    showAt(view, QSize(700, 560));
    EXPECT_EQ(view.cellText(1, 0), QStringLiteral("0.55"));
    view.setDecimals(4);
    QCoreApplication::processEvents();
    EXPECT_EQ(view.figureOptions().decimals, 4);
    EXPECT_EQ(view.cellText(1, 0), QStringLiteral("0.5517"));
    EXPECT_EQ(view.cellText(1, 1), QStringLiteral("0.4483"));
    EXPECT_TRUE(view.toolTipForCell(1, 0).endsWith(QStringLiteral("= 0.5517")));
}

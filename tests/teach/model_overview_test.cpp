// The layers x heads overview: tile colours for known thumbnails (fixed and per-tile scale,
// masked cells), layers arriving one by one, a whole run, selection by click, double-click and
// keys, a GPT-2 XL sized grid that scrolls and zooms, and screenshots for a human to judge.

#include <gtest/gtest.h>
#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <limits>

#include "engine/decoder_model.h"
#include "engine/model_test_util.h"
#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"
#include "teach/model_overview.h"
#include "teach_test_util.h"

namespace attn {
namespace {

using testing::HeadPattern;
constexpr float kInf = std::numeric_limits<float>::infinity();

// Thumbnails (H, 2, 2) for one layer: head h holds scale_h * {1, -inf, 0.5, 0.25}.
Tensor smallLayer(const std::vector<float>& scales) {
    std::vector<float> v;
    for (float s : scales)
        for (float x : {1.0f, -kInf, 0.5f, 0.25f})
            v.push_back(std::isfinite(x) ? s * x : x);
    return Tensor({int64_t(scales.size()), 2, 2}, std::move(v));
}

QAbstractScrollArea* gridOf(ModelOverview& o) {
    return o.findChild<QAbstractScrollArea*>();
}

// The colour at the centre of cell (row, col) of a tile with 2 x 2 cells.
QColor cellColor(ModelOverview& o, const QImage& shot, int layer, int head, int row, int col) {
    const QRect r = o.tileRect(layer, head);
    const QPoint p(r.left() + r.width() * (2 * col + 1) / 4,
                   r.top() + r.height() * (2 * row + 1) / 4);
    return shot.pixelColor(p);
}

bool sameColor(const QColor& a, const QColor& b) {
    return std::abs(a.red() - b.red()) <= 1 && std::abs(a.green() - b.green()) <= 1 &&
           std::abs(a.blue() - b.blue()) <= 1;
}

TEST(ModelOverview, TilesShowTheThumbnailsInViridisAndMaskedCellsGrey) {
    ModelOverview o;
    o.resize(700, 560);
    o.setArchitecture(2, 3);
    EXPECT_EQ(o.layersDone(), 0);
    o.setLayer(0, smallLayer({1.0f, 0.4f, 1.0f}));
    EXPECT_TRUE(o.hasLayer(0));
    EXPECT_FALSE(o.hasLayer(1));
    EXPECT_TRUE(o.tilesReady());
    ASSERT_GE(o.tileSize(), ModelOverview::kMinTile);
    const QImage shot = o.grab().toImage();
    const auto viridis = [](double t) { return colormapColor(Colormap::Viridis, t); };
    EXPECT_TRUE(sameColor(cellColor(o, shot, 0, 0, 0, 0), viridis(1.0)));
    EXPECT_TRUE(sameColor(cellColor(o, shot, 0, 0, 1, 0), viridis(0.5)));
    EXPECT_TRUE(sameColor(cellColor(o, shot, 0, 0, 1, 1), viridis(0.25)));
    // On the 0..1 scale a faint head stays faint: 0.4 -> viridis(0.4).
    EXPECT_TRUE(sameColor(cellColor(o, shot, 0, 1, 0, 0), viridis(0.4)));
    EXPECT_TRUE(sameColor(cellColor(o, shot, 0, 1, 1, 0), viridis(0.2)));
    // The masked cell (-inf) has the masked grey of the figures, not a colour of the map.
    const QColor mask = FigureColors::fromPalette(o.palette()).maskFill;
    EXPECT_TRUE(sameColor(cellColor(o, shot, 0, 0, 0, 1), mask));
    // Layer 1 has not arrived: its tile is the view's background, and the status says so.
    const QRect pending = o.tileRect(1, 0);
    EXPECT_TRUE(sameColor(shot.pixelColor(pending.center()), o.palette().color(QPalette::Base)));
    EXPECT_TRUE(o.statusText().contains(QStringLiteral("1 of 2")));
}

TEST(ModelOverview, OwnScaleStretchesEachTileToItsMaximum) {
    ModelOverview o;
    o.resize(700, 560);
    o.setArchitecture(1, 2);
    o.setLayer(0, smallLayer({1.0f, 0.4f}));
    o.setOwnScale(true);
    EXPECT_TRUE(o.ownScale());
    QTRY_VERIFY(o.tilesReady());
    const QImage shot = o.grab().toImage();
    const auto viridis = [](double t) { return colormapColor(Colormap::Viridis, t); };
    // Head 1's largest value 0.4 now takes the top colour, 0.2 the middle.
    EXPECT_TRUE(sameColor(cellColor(o, shot, 0, 1, 0, 0), viridis(1.0)));
    EXPECT_TRUE(sameColor(cellColor(o, shot, 0, 1, 1, 0), viridis(0.5)));
    EXPECT_TRUE(sameColor(cellColor(o, shot, 0, 1, 1, 1), viridis(0.25)));
    // A layer arriving now is drawn on its own scale at once.
    o.setArchitecture(1, 2);
    o.setLayer(0, smallLayer({0.5f, 0.5f}));
    const QImage again = o.grab().toImage();
    EXPECT_TRUE(sameColor(cellColor(o, again, 0, 0, 0, 0), viridis(1.0)));
}

TEST(ModelOverview, ProgressiveLayersThenTheRunKeepTheirPictures) {
    testing::PatternModelSpec spec;
    spec.layers = 3;
    spec.pattern = [](int64_t l, int64_t h) {
        return (l + h) % 2 ? HeadPattern::Previous : HeadPattern::First;
    };
    const auto run = testing::runModel(testing::patternModel(spec), testing::sequentialIds(9, 64));
    ModelOverview o;
    o.resize(700, 560);
    o.setArchitecture(3, 4);
    for (int l = 0; l < 3; ++l) {
        EXPECT_EQ(o.layersDone(), l);
        o.setLayer(l, run->thumbnails.select(0, l));
    }
    EXPECT_EQ(o.layersDone(), 3);
    // The same run's thumbnails: nothing to rebuild.
    o.setRun(run);
    EXPECT_TRUE(o.tilesReady());
    // Tooltips name the layer, head and the run's summaries.
    const QString tip = o.tileToolTip(1, 2);
    EXPECT_TRUE(tip.contains(QStringLiteral("Layer 1, head 2"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("entropy"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("first token"))) << tip.toStdString();
    EXPECT_FALSE(tip.contains(QStringLiteral("previous-token score")));
    HeadScores scores = runSummaries(*run);
    scores.previousToken.assign(12, 0.5);
    scores.previousToken[size_t(scores.index(1, 2))] = 0.97;
    o.setSummaries(scores);
    EXPECT_TRUE(o.tileToolTip(1, 2).contains(QStringLiteral("previous-token score 0.97")));
    // A previous-token head's tile: the cell right under the diagonal is bright.
    const QImage shot = o.grab().toImage();
    const QRect r = o.tileRect(0, 1);  // (0 + 1) % 2: previous token; 9 x 9 cells
    const double cell = r.width() / 9.0;
    const QColor below =
        shot.pixelColor(QPoint(int(r.left() + cell * 3.5), int(r.top() + cell * 4.5)));
    const QColor diagonal =
        shot.pixelColor(QPoint(int(r.left() + cell * 4.5), int(r.top() + cell * 4.5)));
    EXPECT_GT(below.lightness(), 120);  // viridis' yellow top: lightness 145
    EXPECT_LT(diagonal.lightness(), 100);
}

// A grouped-query model's heads stand in their key/value groups: a band over each group's
// columns named above the heads, a line between groups, every other group tinted; a
// sliding-window layer says its window beside its number; tooltips say both.
TEST(ModelOverview, SharedKeyValueGroupsAndSlidingLayersAreMarked) {
    DecoderArchitecture arch;
    arch.layers = 3;
    arch.heads = 4;
    arch.kvHeads = 2;
    arch.dModel = 32;
    arch.windows = {4, 0, 4};
    ModelOverview plain, grouped;
    for (ModelOverview* o : {&plain, &grouped}) {
        o->resize(700, 560);
        o->show();
    }
    plain.setArchitecture(3, 4);
    grouped.setArchitecture(arch);
    EXPECT_EQ(grouped.headGroups(), (std::vector<int>{0, 0, 1, 1}));
    EXPECT_TRUE(plain.headGroups().empty());
    EXPECT_EQ(grouped.layerLabel(0), QStringLiteral("layer 0 \u00b7 window 4"));
    EXPECT_EQ(grouped.layerLabel(1), QStringLiteral("layer 1"));
    EXPECT_EQ(plain.layerLabel(0), QStringLiteral("layer 0"));
    const QString tip = grouped.tileToolTip(2, 3);
    EXPECT_TRUE(tip.contains(QStringLiteral("reads key/value group 1, shared by heads 2 to 3")))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("sees itself and the 3 tokens before it")))
        << tip.toStdString();
    EXPECT_FALSE(grouped.tileToolTip(1, 0).contains(QStringLiteral("sliding")));
    EXPECT_FALSE(plain.tileToolTip(0, 0).contains(QStringLiteral("key/value group")));
    // The groups' line above the head labels moves the tiles down; the window widens the labels.
    EXPECT_GT(grouped.tileRect(0, 0).top(), plain.tileRect(0, 0).top());
    EXPECT_GT(grouped.tileRect(0, 0).left(), plain.tileRect(0, 0).left());
    // Between heads 1 and 2 (another group) the gap holds a line; between 0 and 1 it does not.
    const QImage shot = grouped.grab().toImage();
    const QRect a = grouped.tileRect(1, 1), b = grouped.tileRect(1, 2), c = grouped.tileRect(1, 0);
    const QColor between = shot.pixelColor(QPoint((a.right() + b.left()) / 2 + 1, a.center().y()));
    const QColor within = shot.pixelColor(QPoint((c.right() + a.left()) / 2 + 1, a.center().y()));
    EXPECT_NE(between, within);
    EXPECT_EQ(within, grouped.palette().color(QPalette::Base));
}

TEST(ModelOverview, ANewRunRebuildsOffTheGuiThread) {
    const auto model = testing::patternModel({});
    const auto a = testing::runModel(model, testing::sequentialIds(6, 64));
    const auto b = testing::runModel(model, testing::sequentialIds(8, 64));
    ModelOverview o;
    o.resize(600, 400);
    o.setRun(a);
    o.setRun(b);  // before a's pictures are in
    QTRY_VERIFY(o.tilesReady());
    EXPECT_EQ(o.layersDone(), 2);
    o.clear();
    EXPECT_EQ(o.layers(), 0);
    EXPECT_TRUE(o.statusText().contains(QStringLiteral("No model")));
}

TEST(ModelOverview, ClicksDoubleClicksAndKeysSelect) {
    ModelOverview o;
    o.resize(700, 560);
    o.setArchitecture(3, 4);
    for (int l = 0; l < 3; ++l)
        o.setLayer(l, smallLayer({1, 1, 1, 1}));
    o.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&o));
    QSignalSpy clicked(&o, &ModelOverview::tileClicked);
    QSignalSpy activated(&o, &ModelOverview::tileActivated);
    QSignalSpy changed(&o, &ModelOverview::currentChanged);
    QWidget* viewport = gridOf(o)->viewport();
    const auto at = [&](int l, int h) { return viewport->mapFrom(&o, o.tileRect(l, h).center()); };
    QTest::mouseClick(viewport, Qt::LeftButton, {}, at(2, 1));
    ASSERT_EQ(clicked.count(), 1);
    EXPECT_EQ(clicked[0][0].toInt(), 2);
    EXPECT_EQ(clicked[0][1].toInt(), 1);
    EXPECT_EQ(o.currentLayer(), 2);
    EXPECT_EQ(o.currentHead(), 1);
    EXPECT_EQ(changed.count(), 1);
    QTest::mouseDClick(viewport, Qt::LeftButton, {}, at(0, 3));
    ASSERT_GE(activated.count(), 1);
    EXPECT_EQ(activated.last()[0].toInt(), 0);
    EXPECT_EQ(activated.last()[1].toInt(), 3);

    o.setCurrent(1, 1);  // the app's choice: no signal
    const int changes = int(changed.count());
    gridOf(o)->setFocus();
    QTest::keyClick(gridOf(o), Qt::Key_Right);
    QTest::keyClick(gridOf(o), Qt::Key_Up);
    EXPECT_EQ(o.currentLayer(), 0);
    EXPECT_EQ(o.currentHead(), 2);
    EXPECT_EQ(changed.count(), changes + 2);
    EXPECT_EQ(changed.last()[0].toInt(), 0);
    EXPECT_EQ(changed.last()[1].toInt(), 2);
    QTest::keyClick(gridOf(o), Qt::Key_Up);  // at the top edge: stays, no signal
    EXPECT_EQ(changed.count(), changes + 2);
    activated.clear();
    QTest::keyClick(gridOf(o), Qt::Key_Return);
    ASSERT_EQ(activated.count(), 1);
    EXPECT_EQ(activated[0][0].toInt(), 0);
    EXPECT_EQ(activated[0][1].toInt(), 2);
}

// Thumbnails (L, H, P, P) with a different pattern per head, no model needed.
Tensor fakeThumbnails(int64_t L, int64_t H, int64_t P) {
    Tensor t({L, H, P, P});
    float* v = t.mutableData();
    for (int64_t l = 0; l < L; ++l)
        for (int64_t h = 0; h < H; ++h)
            for (int64_t i = 0; i < P; ++i)
                for (int64_t j = 0; j < P; ++j) {
                    float& x = v[((l * H + h) * P + i) * P + j];
                    if (j > i) {
                        x = -kInf;
                        continue;
                    }
                    switch ((l * 7 + h) % 4) {
                        case 0:
                            x = j == i - 1 || (i == 0 && j == 0) ? 0.9f : 0.1f / float(i + 1);
                            break;
                        case 1:
                            x = j == 0 ? 0.8f : 0.2f / float(i + 1);
                            break;
                        case 2:
                            x = 1.0f / float(i + 1);
                            break;
                        default:
                            x = j == i ? 0.7f : 0.3f / float(i + 1);
                    }
                }
    return t;
}

// Shows `o` at the size the brief asks for (700 x 560) with every layer of fake thumbnails.
void showFilled(ModelOverview& o, int layers, int heads, int cells) {
    o.resize(700, 560);
    o.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&o));
    o.setArchitecture(layers, heads);
    const Tensor thumbs = fakeThumbnails(layers, heads, cells);
    for (int l = 0; l < layers; ++l)
        o.setLayer(l, thumbs.select(0, l));
}

TEST(ModelOverview, Gpt2XlGridScrollsAndZooms) {
    ModelOverview o;
    showFilled(o, 48, 25, 16);
    // The fit would be tiny: tiles keep their minimum and the grid scrolls both ways.
    EXPECT_EQ(o.tileSize(), ModelOverview::kMinTile);
    QAbstractScrollArea* grid = gridOf(o);
    EXPECT_GT(grid->verticalScrollBar()->maximum(), 0);
    EXPECT_GT(grid->horizontalScrollBar()->maximum(), 0);
    EXPECT_FALSE(grid->viewport()->rect().contains(
        grid->viewport()->mapFrom(&o, o.tileRect(47, 24).center())));
    o.setCurrent(47, 24);
    EXPECT_TRUE(grid->viewport()->rect().contains(
        grid->viewport()->mapFrom(&o, o.tileRect(47, 24).center())));
    o.zoomIn();
    EXPECT_GT(o.tileSize(), ModelOverview::kMinTile);
    EXPECT_GT(o.zoom(), 1.0);
    o.zoomToFit();
    EXPECT_EQ(o.tileSize(), ModelOverview::kMinTile);
    QCoreApplication::processEvents();  // the scroll bars' layout
    o.scrollToTile(47, 24);
    EXPECT_TRUE(testing::savePng(&o, QStringLiteral("overview_48x25_light.png")));
}

TEST(ModelOverview, Gpt2SmallFitsWithoutScrolling) {
    ModelOverview o;
    showFilled(o, 12, 12, 64);
    EXPECT_GE(o.tileSize(), ModelOverview::kMinTile);
    EXPECT_EQ(gridOf(o)->verticalScrollBar()->maximum(), 0);
    EXPECT_EQ(gridOf(o)->horizontalScrollBar()->maximum(), 0);
    // Zoom in and out again: back to the fit.
    const int fit = o.tileSize();
    QTest::keyClick(gridOf(o), Qt::Key_Plus);
    EXPECT_GT(o.tileSize(), fit);
    QTest::keyClick(gridOf(o), Qt::Key_0);
    EXPECT_EQ(o.tileSize(), fit);
}

// Screenshots of a designed 12 x 12 model (previous-token, self, first-token, random and even
// heads), light and dark, half computed and done; written to the test's png folder.
TEST(ModelOverview, Screenshots) {
    const auto run = testing::screenshotRun();
    ModelOverview o;
    o.resize(700, 560);
    o.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&o));
    o.setArchitecture(12, 12);
    for (int l = 0; l < 7; ++l)
        o.setLayer(l, run->thumbnails.select(0, l));
    o.setCurrent(3, 5);
    EXPECT_TRUE(testing::savePng(&o, QStringLiteral("overview_12x12_computing.png")));
    o.setRun(run);
    QTRY_VERIFY(o.tilesReady());
    EXPECT_TRUE(testing::savePng(&o, QStringLiteral("overview_12x12_light.png")));
    o.setPalette(testing::darkPalette());
    EXPECT_TRUE(testing::savePng(&o, QStringLiteral("overview_12x12_dark.png")));
    o.setOwnScale(true);
    QTRY_VERIFY(o.tilesReady());
    EXPECT_TRUE(testing::savePng(&o, QStringLiteral("overview_12x12_own_scale_dark.png")));
}

}  // namespace
}  // namespace attn

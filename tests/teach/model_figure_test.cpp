// The overview as a figure file (PNG, SVG, PDF: valid, not blank, tiles where they belong)
// and every layer's attention as .npy, from a run that kept it and from one that did not.

#include <gtest/gtest.h>
#include <QByteArray>
#include <QImage>
#include <QPainter>
#include <QSet>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include <limits>

#include "engine/config.h"
#include "engine/model_test_util.h"
#include "export/heatmap_data.h"
#include "export/model_figure.h"
#include "io/npy.h"
#include "teach_test_util.h"

namespace attn {
namespace {

using testing::HeadPattern;

std::shared_ptr<const DecoderRun> figureRun(bool keep = true) {
    testing::PatternModelSpec s;
    s.layers = 3;
    s.pattern = [](int64_t l, int64_t h) {
        const HeadPattern kinds[] = {HeadPattern::Previous, HeadPattern::First, HeadPattern::Self,
                                     HeadPattern::Uniform};
        return kinds[(l + h) % 4];
    };
    return testing::runModel(testing::patternModel(s), testing::sequentialIds(10, 64), keep);
}

int distinctColors(const QImage& image) {
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colors.insert(image.pixel(x, y));
    return int(colors.size());
}

TEST(ModelFigure, TileImagesColourCellsAndLeaveMaskedCellsTransparent) {
    const float inf = std::numeric_limits<float>::infinity();
    const Tensor layer({2, 2, 2}, {1.0f, -inf, 0.5f, 0.25f, 0.4f, -inf, 0.2f, 0.0f});
    const std::vector<QImage> fixed = overviewTileImages(layer, Colormap::Viridis, false);
    ASSERT_EQ(fixed.size(), 2u);
    ASSERT_EQ(fixed[0].size(), QSize(2, 2));
    EXPECT_EQ(fixed[0].pixel(0, 0), colormapColor(Colormap::Viridis, 1.0).rgb());
    EXPECT_EQ(fixed[0].pixel(0, 1), colormapColor(Colormap::Viridis, 0.5).rgb());
    EXPECT_EQ(fixed[1].pixel(0, 0), colormapColor(Colormap::Viridis, 0.4).rgb());
    EXPECT_EQ(qAlpha(fixed[0].pixel(1, 0)), 0);
    const std::vector<QImage> own = overviewTileImages(layer, Colormap::Viridis, true);
    EXPECT_EQ(own[1].pixel(0, 0), colormapColor(Colormap::Viridis, 1.0).rgb());
    EXPECT_EQ(own[1].pixel(0, 1), colormapColor(Colormap::Viridis, 0.5).rgb());
    EXPECT_EQ(own[1].pixel(1, 1), colormapColor(Colormap::Viridis, 0.0).rgb());
    EXPECT_FLOAT_EQ(tileMaximum(layer.data() + 4, 4), 0.4f);
    EXPECT_FLOAT_EQ(tileScale(layer.data() + 4, 4, false), 1.0f);
}

TEST(ModelFigure, PngHasTheTitleSizeAndTheTilesColours) {
    const auto run = figureRun();
    OverviewFigureOptions o;
    o.title = QStringLiteral("pattern model: attention of every layer and head");
    o.subtitle = QStringLiteral("a made-up text of ten tokens");
    o.scale = 1.0;
    const QByteArray png = renderOverviewBytes(run->thumbnails, o, ImageFormat::Png);
    ASSERT_TRUE(png.startsWith("\x89PNG\r\n\x1a\n"));
    QImage image;
    ASSERT_TRUE(image.loadFromData(png, "PNG"));
    EXPECT_EQ(image.size(), overviewFigureSize(3, 4, o));
    // Square tiles: the figure is about as tall as wide for a 3 x 4 grid plus margins.
    EXPECT_GT(distinctColors(image), 20);
    // Print look: white corners.
    EXPECT_EQ(image.pixelColor(0, 0), QColor(Qt::white));
    EXPECT_EQ(image.pixelColor(image.width() - 1, image.height() - 1), QColor(Qt::white));
    // Viridis' brightest yellow appears (the previous-token and self heads' weights of ~1).
    const QRgb top = colormapColor(Colormap::Viridis, 1.0).rgb();
    bool found = false;
    for (int y = 0; y < image.height() && !found; ++y)
        for (int x = 0; x < image.width() && !found; ++x)
            found = (image.pixel(x, y) & 0xffffff) == (top & 0xffffff);
    EXPECT_TRUE(found);
    o.scale = 2.0;
    ASSERT_TRUE(image.loadFromData(renderOverviewBytes(run->thumbnails, o, ImageFormat::Png)));
    image.save(testing::pngPath(QStringLiteral("overview_figure_3x4.png")));
}

TEST(ModelFigure, SvgAndPdfAreValidVectorFiles) {
    const auto run = figureRun();
    OverviewFigureOptions o;
    o.title = QStringLiteral("pattern model");
    const QByteArray svg = renderOverviewBytes(run->thumbnails, o, ImageFormat::Svg);
    QSvgRenderer renderer(svg);
    ASSERT_TRUE(renderer.isValid());
    EXPECT_TRUE(svg.contains("pattern model"));
    EXPECT_FALSE(svg.contains("<image"));  // 3 x 4 x 10 x 10 cells: every cell a rectangle
    QImage drawn(renderer.defaultSize(), QImage::Format_RGB32);
    drawn.fill(Qt::white);
    {
        QPainter p(&drawn);
        renderer.render(&p);
    }
    EXPECT_GT(distinctColors(drawn), 20);
    const QByteArray pdf = renderOverviewBytes(run->thumbnails, o, ImageFormat::Pdf);
    EXPECT_TRUE(pdf.startsWith("%PDF-"));
    EXPECT_TRUE(pdf.trimmed().endsWith("%%EOF"));
    // Beyond the vector budget, tiles become embedded images and the file stays small.
    o.maxVectorCells = 100;
    const QByteArray images = renderOverviewBytes(run->thumbnails, o, ImageFormat::Svg);
    EXPECT_TRUE(images.contains("<image"));
    EXPECT_TRUE(QSvgRenderer(images).isValid());
}

TEST(ModelFigure, LargeModelsGetSmallerSquareTiles) {
    OverviewFigureOptions o;
    const QSize small = overviewFigureSize(12, 12, o), xl = overviewFigureSize(48, 25, o);
    EXPECT_GT(xl.height(), xl.width());  // 48 rows of 25 square tiles
    EXPECT_LT(small.width(), 1200);
    EXPECT_LT(xl.height(), 1600);
    o.tilePixels = 40;
    EXPECT_GT(overviewFigureSize(12, 12, o).width(), 12 * 40);
}

TEST(ModelFigure, ExportWritesFilesAndRefusesBadOnes) {
    const auto run = figureRun();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    OverviewFigureOptions o;
    for (const char* name : {"o.png", "o.svg", "o.pdf"}) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        exportOverviewFigure(run->thumbnails, o, path);
        EXPECT_GT(QFileInfo(path).size(), 1000) << name;
    }
    EXPECT_THROW(exportOverviewFigure(run->thumbnails, o, dir.filePath(QStringLiteral("o.bmp"))),
                 UserError);
    EXPECT_THROW(exportOverviewFigure(run->thumbnails, o, dir.path()), UserError);
    EXPECT_THROW(renderOverviewBytes(Tensor({2, 2}), o, ImageFormat::Png), UserError);
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("o.bmp"))));
}

TEST(ModelFigure, AttentionNpyHoldsEveryLayerKeptOrRecomputed) {
    const auto kept = figureRun(true);
    const auto recomputed = figureRun(false);
    ASSERT_FALSE(recomputed->attentionKept());
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.npy")),
                  b = dir.filePath(QStringLiteral("b.npy"));
    io::writeAttentionNpy(a.toStdString(), *kept);
    io::writeAttentionNpy(b.toStdString(), *recomputed);
    const Tensor fromKept = io::readNpy(a.toStdString());
    const Tensor fromRecomputed = io::readNpy(b.toStdString());
    EXPECT_EQ(fromKept, kept->attention);
    ASSERT_EQ(fromRecomputed.shape(), (Shape{3, 4, 10, 10}));
    for (int64_t l = 0; l < 3; ++l) {
        const std::vector<float> want = layerAttention(*recomputed, l).toVector();
        const std::vector<float> got = fromRecomputed.select(0, l).toVector();
        EXPECT_EQ(got, want) << l;
    }
    CancelToken cancel;
    cancel.cancel();
    const QString c = dir.filePath(QStringLiteral("c.npy"));
    EXPECT_THROW(io::writeAttentionNpy(c.toStdString(), *recomputed, &cancel), Cancelled);
    EXPECT_FALSE(QFileInfo::exists(c));
}

// The figure of a GPT-2-small-shaped run, as PNG and as its SVG drawn back, for a human to judge.
TEST(ModelFigure, Screenshots) {
    const auto run = testing::screenshotRun();
    OverviewFigureOptions o;
    o.title = QStringLiteral("pattern model (12 layers, 12 heads)");
    o.subtitle = QStringLiteral(
        "16 made-up tokens; every tile one head's attention, query rows "
        "down, key columns across");
    o.scale = 1.0;
    QImage png;
    ASSERT_TRUE(png.loadFromData(renderOverviewBytes(run->thumbnails, o, ImageFormat::Png)));
    EXPECT_TRUE(png.save(testing::pngPath(QStringLiteral("overview_figure_12x12.png"))));
    o.ownScale = true;
    QSvgRenderer svg(renderOverviewBytes(run->thumbnails, o, ImageFormat::Svg));
    ASSERT_TRUE(svg.isValid());
    QImage drawn(svg.defaultSize(), QImage::Format_RGB32);
    drawn.fill(Qt::white);
    {
        QPainter p(&drawn);
        svg.render(&p);
    }
    EXPECT_TRUE(drawn.save(testing::pngPath(QStringLiteral("overview_figure_12x12_svg.png"))));
}

}  // namespace
}  // namespace attn

namespace attn {
namespace {

// The exported overview shows what the screen shows of a model of today's families: heads that
// share a key/value group on alternating bands with a line between groups, sliding layers
// labelled with their window, switched-off heads crossed out in red.
TEST(ModelFigure, GroupsWindowsAndSwitchedOffHeadsAreMarked) {
    const auto run = figureRun();
    OverviewFigureOptions o = overviewFigureOptions(Settings(), false, run.get());
    EXPECT_TRUE(o.headGroups.empty());  // a GPT-2-style model: every head its own keys
    o.scale = 1.0;
    o.headGroups = {0, 0, 1, 1};
    o.windows = {0, 4, 0};
    o.ablated = {{1, 2}};
    const QByteArray svg = renderOverviewBytes(run->thumbnails, o, ImageFormat::Svg);
    EXPECT_TRUE(svg.contains("lines part the 2 key/value groups they share"))
        << svg.left(400).toStdString();
    EXPECT_TRUE(svg.contains("window 4"));
    QImage image;
    ASSERT_TRUE(image.loadFromData(renderOverviewBytes(run->thumbnails, o, ImageFormat::Png)));
    // The red cross over layer 1's head 2: some pixels of exactly the "off" red.
    int red = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            red += (image.pixel(x, y) & 0xffffff) == 0xd73027;
    EXPECT_GT(red, 20);
    OverviewFigureOptions plain = o;
    plain.ablated.clear();
    QImage without;
    ASSERT_TRUE(
        without.loadFromData(renderOverviewBytes(run->thumbnails, plain, ImageFormat::Png)));
    int redWithout = 0;
    for (int y = 0; y < without.height(); ++y)
        for (int x = 0; x < without.width(); ++x)
            redWithout += (without.pixel(x, y) & 0xffffff) == 0xd73027;
    EXPECT_EQ(redWithout, 0);
    image.save(testing::pngPath(QStringLiteral("overview_figure_groups.png")));
}

}  // namespace
}  // namespace attn

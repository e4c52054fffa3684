#include <gtest/gtest.h>
#include <qcustomplot.h>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPalette>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <cmath>
#include <map>
#include <set>

#include "engine/config.h"
#include "export/heatmap_figure.h"
#include "export/image_export.h"
#include "test_steps.h"

using namespace attn;
using namespace attn::testing;

namespace {

HeatmapData causalWeightsData(bool withMask = true) {
    const Step mask = maskStep();
    return sliceStep(weightsStep(), bookTokens(), 0, 0, withMask ? &mask : nullptr);
}

HeatmapData maskedScoresData() {
    const Step s = makeStep("masked_scores", StepKind::Scores, {"b", "T", "T"}, {1, 6, 6},
                            maskedScores(), "scores.masked_fill(mask.bool(), -torch.inf)");
    return sliceStep(s, bookTokens(), 0, 0);
}

double colourDistance(const QColor& a, const QColor& b) {
    return std::hypot(a.red() - b.red(), a.green() - b.green(), a.blue() - b.blue());
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// Elements of an SVG by their effective fill colour (inherited from enclosing <g>).
struct SvgSummary {
    std::map<QString, int> shapesByFill;  // path/rect/polygon elements
    QStringList texts;
    bool wellFormed = false;
};

SvgSummary summarizeSvg(const QByteArray& svg) {
    SvgSummary out;
    QXmlStreamReader xml(svg);
    std::vector<QString> fills{QStringLiteral("#000000")};
    QString text;
    bool inText = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto attrs = xml.attributes();
            QString fill = attrs.hasAttribute("fill") ? attrs.value("fill").toString().toLower()
                                                      : fills.back();
            fills.push_back(fill);
            const QStringView name = xml.name();
            if (name == u"path" || name == u"rect" || name == u"polygon")
                ++out.shapesByFill[fill];
            if (name == u"text") {
                inText = true;
                text.clear();
            }
        } else if (xml.isCharacters() && inText) {
            text += xml.text();
        } else if (xml.isEndElement()) {
            if (xml.name() == u"text") {
                inText = false;
                out.texts << text.trimmed();
            }
            fills.pop_back();
        }
    }
    out.wellFormed = !xml.hasError();
    return out;
}

}  // namespace

TEST(ImageExport, PngHasRequestedSizeTimesScale) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    FigureOptions o;
    o.width = 640;
    o.height = 560;
    o.scale = 2.0;
    const QString path = dir.filePath("weights.png");
    exportHeatmapImage(causalWeightsData(), o, path);
    const QByteArray bytes = readAll(path);
    ASSERT_TRUE(bytes.startsWith("\x89PNG"));
    QImage img;
    ASSERT_TRUE(img.loadFromData(bytes, "PNG"));
    EXPECT_EQ(img.width(), 1280);
    EXPECT_EQ(img.height(), 1120);

    o.scale = 1.0;
    const QImage one = renderHeatmapImage(causalWeightsData(), o);
    EXPECT_EQ(one.size(), QSize(640, 560));
    // Not blank: many distinct colours.
    std::set<QRgb> colours;
    for (int y = 0; y < one.height(); y += 7)
        for (int x = 0; x < one.width(); x += 7)
            colours.insert(one.pixel(x, y));
    EXPECT_GT(colours.size(), 20u);
}

TEST(ImageExport, DefaultSizeFollowsTheData) {
    FigureOptions o;
    o.scale = 1.0;
    const HeatmapData d = causalWeightsData();
    const QImage img = renderHeatmapImage(d, o);
    EXPECT_EQ(img.size(), suggestedFigureSize(d));
}

// A switched-off head's figure (a lesson slide, an exported map) is marked as the window marks
// it: red lines from corner to corner over a veiled pattern; an ordinary figure has no red.
TEST(ImageExport, ASwitchedOffHeadsFigureIsCrossedOutInRed) {
    FigureOptions o;
    o.scale = 1.0;
    const auto redPixels = [](const QImage& img) {
        int red = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x) {
                const QColor c = img.pixelColor(x, y);
                red += c.red() > 180 && c.green() < 80 && c.blue() < 80;
            }
        return red;
    };
    const QImage plain = renderHeatmapImage(causalWeightsData(), o);
    o.switchedOff = true;
    const QImage off = renderHeatmapImage(causalWeightsData(), o);
    ASSERT_EQ(off.size(), plain.size());
    EXPECT_EQ(redPixels(plain), 0);
    // Two lines of 3 px across a matrix of about 400 px: well over a thousand red pixels.
    EXPECT_GT(redPixels(off), 1000);
    // The veil lightens the cells: the figure's darkest cell is no longer as dark.
    const auto darkest = [](const QImage& img) {
        int least = 255;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x)
                least = std::min(least, qGray(img.pixel(x, y)));
        return least;
    };
    EXPECT_GT(darkest(off), darkest(plain));
}

TEST(ImageExport, MaskedCellIsHatchedNotTheColourForZero) {
    // A weights step: (0, 5) is hidden by the mask (value 0), (5, 0) is set to a real 0.
    HeatmapData d = causalWeightsData();
    d.values[5 * 6 + 0] = 0.0f;
    FigureOptions o;
    o.width = 700;
    o.height = 640;
    o.showValues = false;
    QCustomPlot plot;
    plot.resize(o.width, o.height);
    drawHeatmap(&plot, d, o);
    const QImage img = plot.toPixmap(o.width, o.height, 1.0).toImage();
    QCPAxisRect* rect = heatmapAxisRect(&plot);
    ASSERT_NE(rect, nullptr);
    auto centre = [&](int row, int col) {
        return QPoint(int(rect->axis(QCPAxis::atBottom)->coordToPixel(col)),
                      int(rect->axis(QCPAxis::atLeft)->coordToPixel(row)));
    };
    int r = -1, c = -1;
    ASSERT_TRUE(heatmapCellAt(&plot, d, centre(0, 5), &r, &c));
    EXPECT_EQ(r, 0);
    EXPECT_EQ(c, 5);

    const QColor zeroColour = colormapColor(Colormap::Viridis, 0.0);  // #440154
    EXPECT_EQ(QColor(img.pixel(centre(5, 0))).name(), zeroColour.name());
    // The masked cell: light grey with darker hatch lines, never the colour for 0.
    int light = 0, dark = 0;
    for (int dy = -6; dy <= 6; ++dy) {
        for (int dx = -6; dx <= 6; ++dx) {
            const QColor px(img.pixel(centre(0, 5) + QPoint(dx, dy)));
            EXPECT_NE(px.name(), zeroColour.name());
            EXPECT_LT(std::abs(px.red() - px.blue()), 12);  // grey
            if (px.lightness() > 200)
                ++light;
            if (px.lightness() < 190)
                ++dark;
        }
    }
    EXPECT_GT(light, 60);  // mostly light grey
    EXPECT_GT(dark, 5);    // with hatch lines

    // -inf cells of a scores step look the same.
    const HeatmapData s = maskedScoresData();
    QCustomPlot plot2;
    plot2.resize(o.width, o.height);
    FigureOptions o2 = o;
    o2.colormap = Colormap::Diverging;
    drawHeatmap(&plot2, s, o2);
    const QImage img2 = plot2.toPixmap(o.width, o.height, 1.0).toImage();
    QCPAxisRect* rect2 = heatmapAxisRect(&plot2);
    const QPoint p(int(rect2->axis(QCPAxis::atBottom)->coordToPixel(4)),
                   int(rect2->axis(QCPAxis::atLeft)->coordToPixel(1)));
    const QColor px(img2.pixel(p));
    EXPECT_LT(std::abs(px.red() - px.blue()), 12);
    EXPECT_NE(px.name(), colormapColor(Colormap::Diverging, 0.5).name());
}

TEST(ImageExport, SvgIsVectorWithOneShapePerCellAndTextLabels) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const HeatmapData d = maskedScoresData();
    FigureOptions o;
    o.width = 700;
    o.height = 640;
    o.colormap = Colormap::Diverging;
    const QString path = dir.filePath("scores.svg");
    exportHeatmapImage(d, o, path);
    const QByteArray svg = readAll(path);
    ASSERT_FALSE(svg.isEmpty());
    QSvgRenderer renderer(svg);
    EXPECT_TRUE(renderer.isValid());
    const SvgSummary sum = summarizeSvg(svg);
    ASSERT_TRUE(sum.wellFormed);
    EXPECT_FALSE(svg.contains("<image")) << "no bitmaps: cells and colour bar are vector";

    // Every finite cell is a filled vector shape of its colour.
    QCPColorGradient g = colorGradient(o.colormap);
    const auto [lo, hi] = colorRange(d, o.colormap);
    std::map<QString, int> expected;
    int finite = 0;
    for (int r = 0; r < d.rows; ++r)
        for (int c = 0; c < d.cols; ++c)
            if (!d.isMasked(r, c)) {
                ++finite;
                ++expected[QColor(g.color(d.value(r, c), QCPRange(lo, hi))).name()];
            }
    int matched = 0;
    for (const auto& [fill, n] : expected) {
        const auto it = sum.shapesByFill.find(fill);
        ASSERT_NE(it, sum.shapesByFill.end()) << fill.toStdString();
        EXPECT_GE(it->second, n) << fill.toStdString();
        matched += std::min(it->second, n);
    }
    EXPECT_EQ(matched, finite);
    EXPECT_EQ(finite, 21);
    // Masked cells: light grey shapes (15 cells + the legend swatch).
    EXPECT_GE(sum.shapesByFill.count("#e8e8e8") ? sum.shapesByFill.at("#e8e8e8") : 0, 16);

    // Labels and titles are text, not outlines.
    for (const QString& t : bookTokens())
        EXPECT_GE(sum.texts.count(t), 2) << t.toStdString();
    EXPECT_TRUE(sum.texts.contains("masked_scores"));
    EXPECT_TRUE(sum.texts.contains("masked"));  // the legend under the colour bar
    EXPECT_TRUE(sum.texts.contains("(-inf)"));
    EXPECT_TRUE(sum.texts.contains("query token"));
    EXPECT_TRUE(sum.texts.contains("key token"));
    EXPECT_GE(sum.texts.count("-inf"), 15);  // values in the masked cells
}

TEST(ImageExport, PdfIsVectorWithEmbeddedFonts) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    FigureOptions o;
    o.width = 640;
    o.height = 560;
    const QString path = dir.filePath("weights.pdf");
    exportHeatmapImage(causalWeightsData(), o, path);
    const QByteArray pdf = readAll(path);
    ASSERT_TRUE(pdf.startsWith("%PDF-"));
    EXPECT_TRUE(pdf.contains("/Font"));
    EXPECT_TRUE(pdf.contains("/FontFile")) << "fonts must be embedded";
    const QRegularExpression box(R"(/MediaBox \[0 0 480(\.0+)? 420(\.0+)?\])");
    EXPECT_TRUE(box.match(QString::fromLatin1(pdf)).hasMatch()) << "640 x 560 px at 96 dpi";
    EXPECT_FALSE(pdf.contains("/Subtype /Image")) << "cells must be vector";
    EXPECT_TRUE(pdf.trimmed().endsWith("%%EOF"));
}

TEST(ImageExport, FormatBySuffix) {
    ImageFormat f;
    ASSERT_TRUE(imageFormatForPath("a/b/fig.PNG", &f));
    EXPECT_EQ(f, ImageFormat::Png);
    ASSERT_TRUE(imageFormatForPath("fig.svg", &f));
    EXPECT_EQ(f, ImageFormat::Svg);
    ASSERT_TRUE(imageFormatForPath("fig.pdf", &f));
    EXPECT_EQ(f, ImageFormat::Pdf);
    EXPECT_FALSE(imageFormatForPath("fig.bmp", &f));
    EXPECT_FALSE(imageFormatForPath("fig", &f));
}

namespace {

void expectOutputError(const QString& path) {
    try {
        exportHeatmapImage(causalWeightsData(), FigureOptions{}, path);
        ADD_FAILURE() << "no error for " << path.toStdString();
    } catch (const UserError& e) {
        EXPECT_EQ(e.field(), "output");
        const std::string msg = e.what();
        EXPECT_NE(msg.find("Cannot write " + path.toStdString() + ": "), std::string::npos) << msg;
    }
}

}  // namespace

TEST(ImageExport, BadDestinationThrowsAndLeavesNoFile) {
    expectOutputError("/etc/hostname/x.png");
    EXPECT_FALSE(QFileInfo::exists("/etc/hostname/x.png"));
    EXPECT_TRUE(QFileInfo("/etc/hostname").isFile());

    expectOutputError("/dev/full");  // no suffix: refused before anything is written
    const QFileInfo full("/dev/full");
    EXPECT_TRUE(full.exists());
    EXPECT_FALSE(full.isFile()) << "the device must not be replaced by a file";
    EXPECT_EQ(QDir("/dev").entryList({"full*"}, QDir::AllEntries | QDir::System),
              QStringList({"full"}));

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    expectOutputError(dir.filePath("missing/x.svg"));
    expectOutputError(dir.filePath("x.bmp"));
    expectOutputError(dir.path());  // a folder
    EXPECT_TRUE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty());
}

TEST(ImageExport, DeviceTargetWithImageSuffixIsRefused) {
    // A symlink called full.png pointing at /dev/full: not a regular file, refused untouched.
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString link = dir.filePath("full.png");
    ASSERT_TRUE(QFile::link("/dev/full", link));
    expectOutputError(link);
    EXPECT_TRUE(QFileInfo(link).isSymLink());
    EXPECT_FALSE(QFileInfo("/dev/full").isFile());
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System),
              QStringList({"full.png"}));
}

TEST(ImageExport, OverwritesExistingFileCompletely) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath("fig.png");
    {
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(500000, 'x'));
    }
    FigureOptions o;
    o.width = 400;
    o.height = 360;
    o.scale = 1;
    exportHeatmapImage(causalWeightsData(), o, path);
    QImage img(path);
    EXPECT_EQ(img.size(), QSize(400, 360));
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList({"fig.png"}));
}

TEST(Figure, ColumnLabelsTurnWhenTheyDoNotFit) {
    FigureOptions o;
    o.width = 900;
    o.height = 700;
    QCustomPlot plot;
    plot.resize(o.width, o.height);
    drawHeatmap(&plot, causalWeightsData(), o);
    plot.toPixmap(o.width, o.height);
    QCPAxis* x = heatmapAxisRect(&plot)->axis(QCPAxis::atBottom);
    EXPECT_EQ(x->tickLabelRotation(), 0.0);  // "journey" fits a 90 px cell
    EXPECT_EQ(x->tickVectorLabels().size(), 6);

    HeatmapData d = causalWeightsData();
    for (QString& s : d.colLabels)
        s += QStringLiteral("-antidisestablishment");
    drawHeatmap(&plot, d, o);
    plot.toPixmap(o.width, o.height);
    x = heatmapAxisRect(&plot)->axis(QCPAxis::atBottom);
    EXPECT_EQ(x->tickLabelRotation(), -45.0);
    // Every column still has its (elided) label.
    EXPECT_EQ(x->tickVectorLabels().size(), 6);
    EXPECT_TRUE(x->tickVectorLabels().at(1).startsWith("journey-anti"));
}

TEST(Figure, OneRowAndEmptyDataStillDraw) {
    const Step bias = makeStep("bias", StepKind::Projection, {"d_out"}, {4}, {1, -2, 3, -4});
    const HeatmapData d = sliceStep(bias, {}, 0, 0);
    FigureOptions o;
    o.width = 600;
    o.height = 300;
    o.colormap = Colormap::Diverging;
    o.showValues = false;
    QCustomPlot plot;
    plot.resize(o.width, o.height);
    drawHeatmap(&plot, d, o);
    const QImage img = plot.toPixmap(o.width, o.height, 1.0).toImage();
    QCPAxisRect* rect = heatmapAxisRect(&plot);
    // The single row spans the full height of the cell row: sample near its top and bottom.
    const int x3 = int(rect->axis(QCPAxis::atBottom)->coordToPixel(3));
    const int yTop = int(rect->axis(QCPAxis::atLeft)->coordToPixel(-0.4));
    const int yBottom = int(rect->axis(QCPAxis::atLeft)->coordToPixel(0.4));
    const QString blue = colormapColor(Colormap::Diverging, 0.0).name();  // -4 of +-4
    EXPECT_EQ(QColor(img.pixel(x3, yTop)).name(), blue);
    EXPECT_EQ(QColor(img.pixel(x3, yBottom)).name(), blue);

    FigureOptions e;
    e.scale = 1;
    const QImage empty = renderHeatmapImage(HeatmapData{}, e);
    EXPECT_FALSE(empty.isNull());
}

TEST(FigureColors, DefaultsAreThePrintLookAndALightPaletteKeepsThem) {
    const FigureColors d;
    EXPECT_EQ(d.background, QColor(Qt::white));
    EXPECT_EQ(d.title, QColor(0x11, 0x11, 0x11));
    EXPECT_EQ(d.subtitle, QColor(0x55, 0x55, 0x55));
    EXPECT_EQ(d.text, QColor(0x22, 0x22, 0x22));
    EXPECT_EQ(d.noteText, QColor(0x33, 0x33, 0x33));
    EXPECT_EQ(d.frame, QColor(0x55, 0x55, 0x55));
    EXPECT_EQ(d.maskFill, QColor(0xe8, 0xe8, 0xe8));
    EXPECT_EQ(d.maskLine, QColor(0x9a, 0x9a, 0x9a));
    EXPECT_EQ(d.maskText, QColor(0x3a, 0x3a, 0x3a));
    EXPECT_FALSE(d.isDark());
    EXPECT_TRUE(FigureOptions().colors == d);

    // Light palettes, whatever their exact greys, give exactly the defaults.
    EXPECT_TRUE(FigureColors::fromPalette(QPalette(QColor(0xef, 0xef, 0xef))) == d);
    EXPECT_TRUE(FigureColors::fromPalette(QPalette(QColor(0xd4, 0xd0, 0xc8))) == d);
    QPalette light;
    light.setColor(QPalette::Window, QColor(0xf6, 0xf5, 0xf4));
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    EXPECT_TRUE(FigureColors::fromPalette(light) == d);
}

TEST(FigureColors, DarkPaletteGivesDarkBackgroundAndLightText) {
    const FigureColors c = FigureColors::fromPalette(darkPalette());
    EXPECT_TRUE(c.isDark());
    EXPECT_EQ(c.background, QColor(0x1e, 0x1e, 0x1e));  // the palette's view background
    EXPECT_LT(c.background.lightness(), 40);
    EXPECT_GE(c.text.lightness(), 220);
    EXPECT_GE(c.title.lightness(), c.text.lightness());
    EXPECT_GT(c.noteText.lightness(), 190);
    // Subdued but readable: well above the background, below the text.
    EXPECT_GT(c.subtitle.lightness(), 150);
    EXPECT_LT(c.subtitle.lightness(), c.text.lightness());
    EXPECT_GT(c.frame.lightness(), c.background.lightness() + 80);
    EXPECT_GT(c.maskText.lightness(), c.maskFill.lightness() + 120);

    // A dark window with a light view background or dark text (a half-made theme) still gets
    // a dark figure with light text.
    QPalette odd = darkPalette();
    odd.setColor(QPalette::Base, Qt::white);
    odd.setColor(QPalette::Text, QColor(0x30, 0x30, 0x30));
    const FigureColors o = FigureColors::fromPalette(odd);
    EXPECT_EQ(o.background, QColor(0x2b, 0x2b, 0x2b));
    EXPECT_GE(o.text.lightness(), 200);

    // The presentation's dark projector theme: near-black figure, white text.
    QPalette projector;
    projector.setColor(QPalette::Window, QColor(0x1e, 0x1e, 0x1e));
    projector.setColor(QPalette::Base, QColor(0x10, 0x10, 0x10));
    projector.setColor(QPalette::Text, Qt::white);
    const FigureColors pr = FigureColors::fromPalette(projector);
    EXPECT_EQ(pr.background, QColor(0x10, 0x10, 0x10));
    EXPECT_EQ(pr.text, QColor(Qt::white));
}

TEST(FigureColors, DarkHatchStaysApartFromEveryColormap) {
    const FigureColors c = FigureColors::fromPalette(darkPalette());
    // Grey, a step above the background, with clearly visible lines.
    EXPECT_EQ(c.maskFill.red(), c.maskFill.blue());
    EXPECT_GT(colourDistance(c.maskFill, c.background), 40);
    EXPECT_GT(colourDistance(c.maskLine, c.maskFill), 120);
    // The viridis low end (#440154) is the colour a masked weight would take if drawn as 0.
    const QColor viridisLow = colormapColor(Colormap::Viridis, 0.0);
    EXPECT_EQ(viridisLow.name(), "#440154");
    EXPECT_GT(colourDistance(c.maskFill, viridisLow), 55);
    EXPECT_GT(colourDistance(c.maskFill, colormapColor(Colormap::Magma, 0.0)), 90);
    // No colour of any colormap comes close to the masked fill.
    for (Colormap cm :
         {Colormap::Viridis, Colormap::Magma, Colormap::Cividis, Colormap::Diverging}) {
        double nearest = 1e9;
        for (int i = 0; i <= 255; ++i)
            nearest = std::min(nearest, colourDistance(c.maskFill, colormapColor(cm, i / 255.0)));
        EXPECT_GT(nearest, 45) << colormapName(cm);
    }

    // Drawn: the masked cell (0, 5) of causal weights is dark grey with lighter lines, far from
    // the colour for 0.
    FigureOptions o;
    o.width = 700;
    o.height = 640;
    o.showValues = false;
    o.colors = c;
    QCustomPlot plot;
    plot.resize(o.width, o.height);
    drawHeatmap(&plot, causalWeightsData(), o);
    const QImage img = plot.toPixmap(o.width, o.height, 1.0).toImage();
    QCPAxisRect* rect = heatmapAxisRect(&plot);
    const QPoint centre(int(rect->axis(QCPAxis::atBottom)->coordToPixel(5)),
                        int(rect->axis(QCPAxis::atLeft)->coordToPixel(0)));
    int fill = 0, lines = 0;
    for (int dy = -6; dy <= 6; ++dy) {
        for (int dx = -6; dx <= 6; ++dx) {
            const QColor px(img.pixel(centre + QPoint(dx, dy)));
            EXPECT_GT(colourDistance(px, viridisLow), 55);
            EXPECT_LT(std::abs(px.red() - px.blue()), 4);  // grey
            if (px == c.maskFill)
                ++fill;
            if (px.lightness() > c.maskFill.lightness() + 40)
                ++lines;
        }
    }
    EXPECT_GT(fill, 60);
    EXPECT_GT(lines, 5);
    EXPECT_EQ(QColor(img.pixel(3, 3)), c.background);
}

TEST(FigureColors, ExportsUseTheColoursTheyAreGivenAndThePrintLookByDefault) {
    FigureOptions print;
    print.width = 520;
    print.height = 420;
    print.scale = 1.0;
    const HeatmapData d = causalWeightsData();
    const QByteArray defaults = renderHeatmapBytes(d, print, ImageFormat::Png);
    FigureOptions fromLight = print;
    fromLight.colors = FigureColors::fromPalette(QPalette(QColor(0xef, 0xef, 0xef)));
    EXPECT_EQ(renderHeatmapBytes(d, fromLight, ImageFormat::Png), defaults);
    QImage img;
    ASSERT_TRUE(img.loadFromData(defaults, "PNG"));
    EXPECT_EQ(img.pixel(3, 3), qRgb(255, 255, 255));
    EXPECT_EQ(img.pixel(img.width() - 4, img.height() - 4), qRgb(255, 255, 255));

    FigureOptions dark = print;
    dark.colors = FigureColors::fromPalette(darkPalette());
    ASSERT_TRUE(img.loadFromData(renderHeatmapBytes(d, dark, ImageFormat::Png), "PNG"));
    EXPECT_EQ(img.pixel(3, 3), qRgb(0x1e, 0x1e, 0x1e));
    // SVG: the print figure has no dark fills, the dark one a dark background.
    const QByteArray svg = renderHeatmapBytes(d, print, ImageFormat::Svg);
    EXPECT_FALSE(svg.contains("#1e1e1e"));
    EXPECT_TRUE(renderHeatmapBytes(d, dark, ImageFormat::Svg).contains("#1e1e1e"));
}

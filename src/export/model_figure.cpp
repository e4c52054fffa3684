#include "export/model_figure.h"

#include <QApplication>
#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/config.h"
#include "engine/decoder_forward.h"
#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"
#include "io/file_io.h"
#include "io/npy.h"
#include "pipeline/model_request.h"

namespace attn {

namespace {

class ModelFigureText {
    Q_DECLARE_TR_FUNCTIONS(attn::ModelFigureText)
};

[[noreturn]] void drawFail(const QString& reason) {
    throw UserError("output",
                    ModelFigureText::tr("Cannot draw the overview: %1").arg(reason).toStdString());
}

[[noreturn]] void writeFail(const QString& path, const QString& reason) {
    throw UserError("output",
                    ModelFigureText::tr("Cannot write %1: %2").arg(path, reason).toStdString());
}

// A folder or a device is never replaced by a file.
void checkDestination(const QString& path) {
    const QFileInfo info(path);
    if (info.exists() && !info.isFile())
        writeFail(path, info.isDir() ? ModelFigureText::tr("it is a folder")
                                     : ModelFigureText::tr("it is not a regular file"));
}

// colormapColor sampled at the middle of each of its 256 entries: index floor(t * 256) picks
// exactly the colour colormapColor(t) gives for the matplotlib maps.
using ColorTable = std::array<QRgb, 256>;
ColorTable colorTable(Colormap c) {
    ColorTable t{};
    for (int i = 0; i < 256; ++i)
        t[size_t(i)] = colormapColor(c, (i + 0.5) / 256.0).rgb();
    return t;
}

// The table entry of a cell value on a tile's scale, -1 for a masked cell.
int colorIndex(float v, float scale) {
    if (!std::isfinite(v))
        return -1;
    return std::clamp(int(double(v) / double(scale) * 256.0), 0, 255);
}

void checkThumbnails(const Tensor& t) {
    if (t.dim() != 4 || t.size(0) < 1 || t.size(1) < 1 || t.size(2) < 1 || t.size(2) != t.size(3))
        drawFail(ModelFigureText::tr("the thumbnails must be (layers, heads, P, P), not %1")
                     .arg(QString::fromStdString(shapeToString(t.shape()))));
}

// Where everything of a figure goes, in logical pixels.
struct FigureLayout {
    QSize size;
    int64_t layers = 0, heads = 0;
    double tile = 0, gap = 0, pitch = 0;
    QPointF grid;  // top left of tile (0, 0)
    QFont titleFont, subtitleFont, labelFont;
    double titleY = 0, subtitleY = 0, headTitleY = 0, headLabelsY = 0, layerTitleX = 0;
    int rowLabelStep = 1, colLabelStep = 1;
    QRectF colorBar;
    QString title, subtitle;
};

QFont pixelFont(int pixels, bool bold = false) {
    QFont f = QApplication::font();
    f.setPixelSize(pixels);
    f.setBold(bold);
    return f;
}

// A layer's row label: its number, and its window when it is a sliding layer ("3 · w512").
QString layerLabel(const OverviewFigureOptions& o, int64_t layer) {
    const int64_t w = layer < int64_t(o.windows.size()) ? o.windows[size_t(layer)] : 0;
    return w > 0 ? ModelFigureText::tr("%1 \u00b7 window %2").arg(layer).arg(w)
                 : QString::number(layer);
}

int labelStep(double pitch, double needed) {
    int step = 1;
    while (step * pitch < needed)
        step *= step == 1 ? 2 : (step == 2 ? 5 : 2);  // 1, 2, 10, 20, ...
    return step;
}

FigureLayout layoutFigure(int64_t L, int64_t H, const OverviewFigureOptions& o) {
    FigureLayout f;
    f.layers = L;
    f.heads = H;
    f.tile = o.tilePixels > 0 ? o.tilePixels
                              : std::clamp(std::round(720.0 / double(std::max(L, H))), 22.0, 96.0);
    f.gap = std::max(2.0, std::round(f.tile / 12.0));
    f.pitch = f.tile + f.gap;
    f.titleFont = pixelFont(18, true);
    f.subtitleFont = pixelFont(13);
    f.labelFont = pixelFont(12);
    const QFontMetricsF tm(f.titleFont), sm(f.subtitleFont), lm(f.labelFont);
    f.title =
        o.title.isEmpty() ? ModelFigureText::tr("Attention of every layer and head") : o.title;
    f.subtitle = o.subtitle;
    f.subtitle.replace(QLatin1Char('\n'), QChar(0x21B5));

    const double margin = 16;
    double y = margin;
    f.titleY = y + tm.ascent();
    y += tm.height() + 4;
    if (!f.subtitle.isEmpty()) {
        f.subtitleY = y + sm.ascent();
        y += sm.height() + 4;
    }
    y += 6;
    f.headTitleY = y + lm.ascent();
    y += lm.height() + 2;
    f.headLabelsY = y + lm.ascent();
    y += lm.height() + 4;

    double numberW = lm.horizontalAdvance(QString::number(std::max(L, H) - 1));
    for (int64_t l = 0; l < L; ++l)
        numberW = std::max(numberW, lm.horizontalAdvance(layerLabel(o, l)));
    f.layerTitleX = margin + lm.ascent();
    const double left = f.layerTitleX + lm.descent() + 8 + numberW + 6;
    f.grid = QPointF(left, y);
    f.rowLabelStep = labelStep(f.pitch, lm.height() * 1.1);
    f.colLabelStep = labelStep(f.pitch, numberW + 6);

    const double gridW = double(H) * f.pitch - f.gap, gridH = double(L) * f.pitch - f.gap;
    const double barH = std::min(gridH, 260.0);
    f.colorBar = QRectF(left + gridW + 24, y, 14, barH);
    const double tickW =
        lm.horizontalAdvance(o.ownScale ? ModelFigureText::tr("tile max") : QStringLiteral("0.75"));
    const double right = f.colorBar.right() + 6 + tickW + 8 + lm.height() + margin;
    const double width = std::max({right, tm.horizontalAdvance(f.title) + 2 * margin, 420.0});
    f.subtitle = sm.elidedText(f.subtitle, Qt::ElideRight, width - 2 * margin);
    f.size = QSize(int(std::ceil(width)), int(std::ceil(y + std::max(gridH, barH) + margin)));
    return f;
}

// One tile's cells as rectangles, each run of equal colour in a row merged into one.
void drawVectorTile(QPainter& p, const float* cells, int64_t P, float scale, const QRectF& r,
                    const ColorTable& table, const QColor& maskFill) {
    const double cell = r.width() / double(P);
    for (int64_t i = 0; i < P; ++i) {
        int64_t j = 0;
        while (j < P) {
            const int index = colorIndex(cells[i * P + j], scale);
            int64_t end = j + 1;
            while (end < P && colorIndex(cells[i * P + end], scale) == index)
                ++end;
            // Each rectangle reaches half a cell into its right and lower neighbours, which are
            // drawn after it and cover that part: a viewer that anti-aliases the edges then
            // blends two cell colours there, never a cell with the white background (which
            // shows as hairline seams across the tile).
            const double x0 = r.left() + double(j) * cell, y0 = r.top() + double(i) * cell;
            const double w = double(end - j) * cell + (end < P ? cell / 2 : 0.0);
            const double h = cell + (i + 1 < P ? cell / 2 : 0.0);
            p.fillRect(QRectF(x0, y0, w, h), index < 0 ? maskFill : QColor(table[size_t(index)]));
            j = end;
        }
    }
}

void paintOverview(QPainter& p, const Tensor& thumbs, const FigureLayout& f,
                   const OverviewFigureOptions& o, bool vector) {
    const FigureColors colors;  // the print look
    p.fillRect(QRectF(QPointF(0, 0), QSizeF(f.size)), colors.background);
    p.setRenderHint(QPainter::TextAntialiasing);

    p.setPen(colors.title);
    p.setFont(f.titleFont);
    p.drawText(QPointF(16, f.titleY), f.title);
    if (!f.subtitle.isEmpty()) {
        p.setPen(colors.subtitle);
        p.setFont(f.subtitleFont);
        p.drawText(QPointF(16, f.subtitleY), f.subtitle);
    }

    const Tensor t = thumbs.contiguous();
    const int64_t L = f.layers, H = f.heads, P = t.size(2);
    // Heads that share a key/value group stand together: every other group on a grey band,
    // a line between groups (as the on-screen overview draws them).
    const auto& groups = o.headGroups;
    const bool grouped = int64_t(groups.size()) == H;
    const double gridTop = f.grid.y() - f.gap, gridBottom = f.grid.y() + double(L) * f.pitch;
    if (grouped)
        for (int64_t h = 0; h < H; ++h) {
            const double x = f.grid.x() + double(h) * f.pitch - f.gap / 2;
            if (groups[size_t(h)] % 2 == 1)
                p.fillRect(QRectF(x, gridTop, f.pitch, gridBottom - gridTop),
                           QColor(0xee, 0xee, 0xee));
        }
    const ColorTable table = colorTable(o.colormap);
    const bool upscale = f.tile >= double(P);
    for (int64_t l = 0; l < L; ++l) {
        std::vector<QImage> images;
        if (!vector)
            images = overviewTileImages(t.select(0, l), o.colormap, o.ownScale);
        for (int64_t h = 0; h < H; ++h) {
            const QRectF r(f.grid.x() + double(h) * f.pitch, f.grid.y() + double(l) * f.pitch,
                           f.tile, f.tile);
            const float* cells = t.data() + (l * H + h) * P * P;
            if (vector) {
                drawVectorTile(p, cells, P, tileScale(cells, P * P, o.ownScale), r, table,
                               colors.maskFill);
            } else {
                p.fillRect(r, colors.maskFill);
                // Crisp cells when they are larger than a pixel, smooth pooling when not.
                p.setRenderHint(QPainter::SmoothPixmapTransform, !upscale);
                const QImage& img = images[size_t(h)];
                const int factor =
                    upscale ? std::max(1, int(std::ceil(2 * f.tile / double(P)))) : 1;
                p.drawImage(r, factor > 1 ? img.scaled(img.size() * factor, Qt::IgnoreAspectRatio,
                                                       Qt::FastTransformation)
                                          : img);
            }
        }
    }

    // Switched-off heads: crossed out in red.
    for (const HeadRef& r : o.ablated) {
        if (r.layer >= L || r.head >= H)
            continue;
        const QRectF tile(f.grid.x() + double(r.head) * f.pitch,
                          f.grid.y() + double(r.layer) * f.pitch, f.tile, f.tile);
        QColor veil(Qt::white);
        veil.setAlphaF(0.55f);
        p.fillRect(tile, veil);
        p.setPen(QPen(QColor(0xd7, 0x30, 0x27), std::max(1.5, f.tile / 16)));
        p.drawLine(tile.topLeft(), tile.bottomRight());
        p.drawLine(tile.topRight(), tile.bottomLeft());
    }
    if (grouped)
        for (int64_t h = 1; h < H; ++h)
            if (groups[size_t(h)] != groups[size_t(h - 1)]) {
                const double x = f.grid.x() + double(h) * f.pitch - f.gap / 2;
                p.setPen(QPen(colors.frame, std::max(1.0, f.gap / 2)));
                p.drawLine(QPointF(x, gridTop), QPointF(x, gridBottom));
            }

    // Axis titles and labels.
    p.setFont(f.labelFont);
    const QFontMetricsF lm(f.labelFont);
    p.setPen(colors.text);
    const double gridW = double(H) * f.pitch - f.gap, gridH = double(L) * f.pitch - f.gap;
    int groupCount = 0;
    for (size_t h = 0; grouped && h < groups.size(); ++h)
        groupCount = std::max(groupCount, groups[h] + 1);
    p.drawText(QRectF(f.grid.x(), f.headTitleY - lm.ascent(), gridW, lm.height()),
               Qt::AlignHCenter | Qt::AlignTop,
               grouped ? ModelFigureText::tr("head (lines part the %1 key/value groups they share)")
                             .arg(groupCount)
                       : ModelFigureText::tr("head"));
    for (int64_t h = 0; h < H; h += f.colLabelStep)
        p.drawText(QRectF(f.grid.x() + double(h) * f.pitch - 20, f.headLabelsY - lm.ascent(),
                          f.tile + 40, lm.height()),
                   Qt::AlignHCenter | Qt::AlignTop, QString::number(h));
    for (int64_t l = 0; l < L; l += f.rowLabelStep)
        p.drawText(QRectF(0, f.grid.y() + double(l) * f.pitch, f.grid.x() - 6, f.tile),
                   Qt::AlignRight | Qt::AlignVCenter, layerLabel(o, l));
    p.save();
    p.translate(f.layerTitleX, f.grid.y() + gridH / 2);
    p.rotate(-90);
    p.drawText(QRectF(-gridH / 2, -lm.ascent(), gridH, lm.height()), Qt::AlignCenter,
               ModelFigureText::tr("layer"));
    p.restore();

    // The colour bar, 1 at the top.
    const QRectF& bar = f.colorBar;
    const int steps = 64;
    for (int i = 0; i < steps; ++i) {
        const double y0 = bar.bottom() - bar.height() * (i + 1) / steps;
        const double h = bar.height() / steps + (i + 1 < steps ? 0.25 : 0.0);
        p.fillRect(QRectF(bar.left(), y0, bar.width(), h),
                   colormapColor(o.colormap, (i + 0.5) / steps));
    }
    p.setPen(QPen(colors.frame, 0.8));
    p.setBrush(Qt::NoBrush);
    p.drawRect(bar);
    p.setPen(colors.text);
    const QStringList ticks =
        o.ownScale ? QStringList{QStringLiteral("0"), ModelFigureText::tr("tile max")}
                   : QStringList{QStringLiteral("0"), QStringLiteral("0.25"), QStringLiteral("0.5"),
                                 QStringLiteral("0.75"), QStringLiteral("1")};
    for (int i = 0; i < ticks.size(); ++i) {
        const double y = bar.bottom() - bar.height() * i / (ticks.size() - 1);
        p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 3, y));
        p.drawText(QRectF(bar.right() + 6, y - lm.height() / 2, 200, lm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, ticks[i]);
    }
    const double tickW = lm.horizontalAdvance(ticks.back());
    p.save();
    p.translate(bar.right() + 6 + std::max(tickW, lm.horizontalAdvance(QStringLiteral("0.75"))) +
                    8 + lm.ascent(),
                bar.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-bar.height(), -lm.ascent(), 2 * bar.height(), lm.height()), Qt::AlignCenter,
               o.ownScale ? ModelFigureText::tr("weight, share of the tile's max")
                          : ModelFigureText::tr("attention weight"));
    p.restore();
}

void requireGuiApplication() {
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        drawFail(
            ModelFigureText::tr("drawing needs a QApplication (use QT_QPA_PLATFORM=offscreen "
                                "without a display)"));
}

}  // namespace

float tileMaximum(const float* cells, int64_t count) {
    float m = 0.0f;
    for (int64_t i = 0; i < count; ++i)
        if (std::isfinite(cells[i]) && cells[i] > m)
            m = cells[i];
    return m;
}

float tileScale(const float* cells, int64_t count, bool ownScale) {
    if (!ownScale)
        return 1.0f;
    const float m = tileMaximum(cells, count);
    return m > 0.0f ? m : 1.0f;
}

std::vector<QImage> overviewTileImages(const Tensor& layerThumbnails, Colormap colormap,
                                       bool ownScale) {
    std::vector<QImage> out;
    if (layerThumbnails.dim() != 3 || layerThumbnails.size(1) != layerThumbnails.size(2))
        return out;
    const Tensor t = layerThumbnails.contiguous();
    const int64_t H = t.size(0), P = t.size(1);
    const ColorTable table = colorTable(colormap);
    for (int64_t h = 0; h < H; ++h) {
        const float* cells = t.data() + h * P * P;
        const float scale = tileScale(cells, P * P, ownScale);
        QImage img(static_cast<int>(P), static_cast<int>(P), QImage::Format_ARGB32_Premultiplied);
        for (int64_t i = 0; i < P; ++i) {
            auto* line = reinterpret_cast<QRgb*>(img.scanLine(int(i)));
            for (int64_t j = 0; j < P; ++j) {
                const int index = colorIndex(cells[i * P + j], scale);
                line[j] = index < 0 ? 0u : table[size_t(index)];
            }
        }
        out.push_back(std::move(img));
    }
    return out;
}

QSize overviewFigureSize(int64_t layers, int64_t heads, const OverviewFigureOptions& options) {
    return layoutFigure(std::max<int64_t>(layers, 1), std::max<int64_t>(heads, 1), options).size;
}

QByteArray renderOverviewBytes(const Tensor& thumbnails, const OverviewFigureOptions& options,
                               ImageFormat format) {
    requireGuiApplication();
    checkThumbnails(thumbnails);
    const FigureLayout f = layoutFigure(thumbnails.size(0), thumbnails.size(1), options);
    const bool vector = format != ImageFormat::Png &&
                        thumbnails.numel() <= std::max<int64_t>(options.maxVectorCells, 0);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const auto paintOn = [&](QPaintDevice* device, const QString& failure) {
        QPainter p;
        if (!p.begin(device))
            drawFail(failure);
        paintOverview(p, thumbnails, f, options, vector);
    };
    switch (format) {
        case ImageFormat::Png: {
            const double scale = std::isfinite(options.scale) && options.scale > 0
                                     ? std::min(options.scale, 8.0)
                                     : 1.0;
            QImage image(f.size * scale, QImage::Format_RGB32);
            if (image.isNull())
                drawFail(ModelFigureText::tr("the image could not be allocated"));
            image.setDevicePixelRatio(scale);
            const int dpm = int(std::lround(96.0 * scale / 0.0254));
            image.setDotsPerMeterX(dpm);
            image.setDotsPerMeterY(dpm);
            image.setText(QStringLiteral("Title"), f.title);
            image.setText(QStringLiteral("Software"), QStringLiteral("Attention Lens"));
            {
                QPainter p(&image);
                paintOverview(p, thumbnails, f, options, false);
            }
            if (!image.save(&buffer, "PNG"))
                drawFail(ModelFigureText::tr("PNG encoding failed"));
            break;
        }
        case ImageFormat::Svg: {
            QSvgGenerator svg;
            svg.setOutputDevice(&buffer);
            svg.setSize(f.size);
            svg.setViewBox(QRect(QPoint(0, 0), f.size));
            svg.setResolution(96);
            svg.setTitle(f.title);
            svg.setDescription(f.subtitle);
            paintOn(&svg, ModelFigureText::tr("the SVG generator did not start"));
            break;
        }
        case ImageFormat::Pdf: {
            QPdfWriter pdf(&buffer);
            // 96 dpi: one figure pixel = 0.75 pt, as the heatmap figures.
            pdf.setResolution(96);
            pdf.setCreator(QStringLiteral("Attention Lens"));
            pdf.setTitle(f.title);
            const QSizeF pt(f.size.width() * 72.0 / 96.0, f.size.height() * 72.0 / 96.0);
            pdf.setPageLayout(
                QPageLayout(QPageSize(pt, QPageSize::Point, QString(), QPageSize::ExactMatch),
                            QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
            paintOn(&pdf, ModelFigureText::tr("the PDF writer did not start"));
            break;
        }
    }
    if (bytes.isEmpty())
        drawFail(ModelFigureText::tr("nothing was written"));
    return bytes;
}

void exportOverviewFigure(const Tensor& thumbnails, const OverviewFigureOptions& options,
                          const QString& path) {
    // The destination first, so a bad path fails before any drawing.
    checkDestination(path);
    const QFileInfo info(path);
    ImageFormat format;
    if (!imageFormatForPath(path, &format))
        writeFail(path,
                  ModelFigureText::tr("unsupported image type \"%1\" (use .png, .svg or .pdf)")
                      .arg(info.suffix()));
    const QByteArray bytes = renderOverviewBytes(thumbnails, options, format);
    io::writeFileAtomically(path.toStdString(),
                            std::string_view(bytes.constData(), size_t(bytes.size())));
}

OverviewFigureOptions overviewFigureOptions(const Settings& settings, bool ownScale,
                                            const DecoderRun* run) {
    OverviewFigureOptions o;
    if (run) {
        const DecoderArchitecture& a = run->model->arch;
        if (a.keyValueHeads() < a.heads)
            for (int64_t h = 0; h < a.heads; ++h)
                o.headGroups.push_back(int(a.groupOfHead(h)));
        o.windows = a.windows;
        o.ablated = run->ablation.heads;
    }
    o.title =
        QCoreApplication::translate("attn::ModelFigure", "%1: attention of every layer and head")
            .arg(modelName(settings.modelFile));
    o.subtitle = settings.inputText().simplified();
    o.ownScale = ownScale;
    if (const auto cm = parseColormap(settings.colormap.toStdString()))
        o.colormap = *cm;
    return o;
}

}  // namespace attn

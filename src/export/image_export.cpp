#include "export/image_export.h"

#include "io/file_io.h"

#include <qcustomplot.h>
#include <QApplication>
#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <cmath>

#include "engine/config.h"
#include "engine/step_ids.h"

namespace attn {

namespace {

class ExportText {
    Q_DECLARE_TR_FUNCTIONS(attn::ExportText)
};

[[noreturn]] void fail(const QString& path, const QString& reason) {
    throw UserError("output",
                    ExportText::tr("Cannot write %1: %2").arg(path, reason).toStdString());
}

[[noreturn]] void renderFail(const QString& reason) {
    throw UserError("output",
                    ExportText::tr("Cannot draw the figure: %1").arg(reason).toStdString());
}

void requireGuiApplication() {
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        renderFail(
            ExportText::tr("drawing needs a QApplication (use QT_QPA_PLATFORM=offscreen "
                           "without a display)"));
}

QSize figureSize(const HeatmapData& data, const FigureOptions& o) {
    QSize s = o.width > 0 && o.height > 0 ? QSize(o.width, o.height) : suggestedFigureSize(data, o);
    return s.boundedTo(QSize(20000, 20000)).expandedTo(QSize(64, 64));
}

// A hidden QCustomPlot holding the figure at its final size (the figure lays itself out for the
// size at every replot).
struct OffscreenFigure {
    QCustomPlot plot;
    QSize size;
    OffscreenFigure(const HeatmapData& data, const FigureOptions& o, bool vector) {
        size = figureSize(data, o);
        FigureOptions opts = o;
        opts.width = size.width();
        opts.height = size.height();
        opts.vectorCells = vector;
        plot.setAttribute(Qt::WA_DontShowOnScreen);
        plot.resize(size);
        drawHeatmap(&plot, data, opts);
        plot.setViewport(QRect(QPoint(0, 0), size));
        plot.replot(QCustomPlot::rpImmediateRefresh);
    }
};

void preparePainter(QCPPainter* painter) {
    painter->setMode(QCPPainter::pmVectorized);
    painter->setMode(QCPPainter::pmNoCaching);
    painter->setMode(QCPPainter::pmNonCosmetic);
}

QByteArray renderPng(const HeatmapData& data, const FigureOptions& o) {
    const QImage image = renderHeatmapImage(data, o);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        renderFail(ExportText::tr("PNG encoding failed"));
    return bytes;
}

QByteArray renderSvg(const HeatmapData& data, const FigureOptions& o) {
    OffscreenFigure fig(data, o, true);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(fig.size);
    svg.setViewBox(QRect(QPoint(0, 0), fig.size));
    svg.setResolution(96);
    svg.setTitle(o.title.isEmpty() ? data.title : o.title);
    svg.setDescription(data.subtitle);
    QCPPainter painter;
    if (!painter.begin(&svg))
        renderFail(ExportText::tr("the SVG generator did not start"));
    preparePainter(&painter);
    fig.plot.toPainter(&painter, fig.size.width(), fig.size.height());
    painter.end();
    if (bytes.isEmpty())
        renderFail(ExportText::tr("the SVG generator wrote nothing"));
    return bytes;
}

QByteArray renderPdf(const HeatmapData& data, const FigureOptions& o) {
    OffscreenFigure fig(data, o, true);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        // 96 dpi: one figure pixel = 0.75 pt, so text and lines keep the proportions of the PNG.
        pdf.setResolution(96);
        pdf.setCreator(QStringLiteral("Attention Lens"));
        pdf.setTitle(o.title.isEmpty() ? data.title : o.title);
        const QSizeF pt(fig.size.width() * 72.0 / 96.0, fig.size.height() * 72.0 / 96.0);
        const QPageLayout layout(QPageSize(pt, QPageSize::Point, QString(), QPageSize::ExactMatch),
                                 QPageLayout::Portrait, QMarginsF(0, 0, 0, 0));
        pdf.setPageLayout(layout);
        QCPPainter painter;
        if (!painter.begin(&pdf))
            renderFail(ExportText::tr("the PDF writer did not start"));
        preparePainter(&painter);
        fig.plot.toPainter(&painter, fig.size.width(), fig.size.height());
        painter.end();
    }
    if (!bytes.startsWith("%PDF"))
        renderFail(ExportText::tr("the PDF writer wrote nothing"));
    return bytes;
}

}  // namespace

bool imageFormatForPath(const QString& path, ImageFormat* format) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    ImageFormat f;
    if (suffix == QLatin1String("png")) {
        f = ImageFormat::Png;
    } else if (suffix == QLatin1String("svg")) {
        f = ImageFormat::Svg;
    } else if (suffix == QLatin1String("pdf")) {
        f = ImageFormat::Pdf;
    } else {
        return false;
    }
    if (format)
        *format = f;
    return true;
}

QImage renderHeatmapImage(const HeatmapData& data, const FigureOptions& options) {
    requireGuiApplication();
    const double scale =
        std::isfinite(options.scale) && options.scale > 0 ? std::min(options.scale, 16.0) : 1.0;
    OffscreenFigure fig(data, options, false);
    const QPixmap pixmap = fig.plot.toPixmap(fig.size.width(), fig.size.height(), scale);
    if (pixmap.isNull())
        renderFail(ExportText::tr("the image could not be allocated"));
    QImage image = pixmap.toImage().convertToFormat(QImage::Format_RGB32);
    const int dpm = int(std::lround(96.0 * scale / 0.0254));
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    image.setText(QStringLiteral("Title"), options.title.isEmpty() ? data.title : options.title);
    image.setText(QStringLiteral("Description"), data.subtitle);
    image.setText(QStringLiteral("Software"), QStringLiteral("Attention Lens"));
    return image;
}

QByteArray renderHeatmapBytes(const HeatmapData& data, const FigureOptions& options,
                              ImageFormat format) {
    requireGuiApplication();
    switch (format) {
        case ImageFormat::Png:
            return renderPng(data, options);
        case ImageFormat::Svg:
            return renderSvg(data, options);
        case ImageFormat::Pdf:
            return renderPdf(data, options);
    }
    return {};
}

void exportHeatmapImage(const HeatmapData& data, const FigureOptions& options,
                        const QString& path) {
    // Check the destination first, so a bad path fails before any drawing.
    const QFileInfo info(path);
    if (info.exists() && !info.isFile()) {
        fail(path, info.isDir() ? ExportText::tr("it is a folder")
                                : ExportText::tr("it is not a regular file"));
    }
    ImageFormat format;
    if (!imageFormatForPath(path, &format)) {
        fail(path, ExportText::tr("unsupported image type \"%1\" (use .png, .svg or .pdf)")
                       .arg(info.suffix()));
    }
    const QByteArray bytes = renderHeatmapBytes(data, options, format);
    io::writeFileAtomically(path.toStdString(),
                            std::string_view(bytes.constData(), size_t(bytes.size())));
}

QString stepFiguresFolderError(const QString& dir) {
    return ExportText::tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(dir));
}

void drawStepFigure(const HeatmapData& data, const FigureOptions& options,
                    std::optional<Colormap> colormap, const QString& path) {
    FigureOptions o = options;
    o.colormap = colormap ? *colormap : defaultColormapFor(data);
    ImageFormat format = ImageFormat::Png;
    imageFormatForPath(path, &format);
    o.vectorCells = format != ImageFormat::Png;
    exportHeatmapImage(data, o, path);
}

StepFiguresResult exportStepFigures(const Trace& trace, const QStringList& tokens,
                                    const std::vector<StepFigure>& figures,
                                    const FigureOptions& options, std::optional<Colormap> colormap,
                                    const QString& dir, const StepFiguresProgress& progress) {
    StepFiguresResult result;
    result.total = int(figures.size());
    if (!QDir().mkpath(dir)) {
        result.error = stepFiguresFolderError(dir);
        return result;
    }
    const QDir out(dir);
    const Step* mask = trace.find(step_id::kMask);
    for (int i = 0; i < result.total; ++i) {
        const StepFigure& figure = figures[size_t(i)];
        if (progress && !progress(i, result.total, figure.fileName)) {
            result.cancelled = true;
            return result;
        }
        const HeatmapData data = sliceStep(*figure.step, tokens, std::max(figure.head, 0),
                                           std::max(figure.batch, 0), mask);
        try {
            drawStepFigure(data, options, colormap, out.filePath(figure.fileName));
        } catch (const std::exception& e) {
            result.error = QString::fromUtf8(e.what());
            return result;
        }
        result.files << out.filePath(figure.fileName);
    }
    if (progress)
        progress(result.total, result.total, QString());
    return result;
}

}  // namespace attn

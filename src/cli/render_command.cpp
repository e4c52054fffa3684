// `render`: heatmap figures of trace steps as PNG, SVG or PDF files.

#include <QCommandLineParser>
#include <QDir>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "export/image_export.h"

namespace attn::cli {

namespace {

QString fileNameFor(const Step& step, int head, const QString& suffix) {
    QString name = QString::fromStdString(step.info.id);
    if (head >= 0)
        name += QStringLiteral("_head%1").arg(head);
    return name + "." + suffix;
}

}  // namespace

int renderCommand(const QStringList& args) {
    QCommandLineParser p;
    addRunOptions(p);
    p.addOptions({
        {"step", "Step id to draw.", "id"},
        {"head", "Head to draw for per-head steps (default 0).", "h"},
        {"batch-index", "Batch entry to draw (default 0).", "i"},
        {"out", "Output file: .png, .svg or .pdf.", "file"},
        {"all-steps", "Draw every step (and every head) into this folder.", "dir"},
        {"format", "File type for --all-steps: svg (default), png or pdf.", "type"},
        {"colormap",
         "viridis (default for weights), magma, cividis or diverging; default: by step.", "name"},
        {"no-values", "Do not write the values in the cells."},
        {"no-title", "Leave out the title and the PyTorch expression."},
        {"width", "Figure width in pixels (default: by size).", "px"},
        {"height", "Figure height in pixels (default: by size).", "px"},
        {"scale", "PNG pixels per figure pixel (default 2).", "factor"},
    });
    p.setApplicationDescription("attention-lens-cli render: a step's heatmap as PNG, SVG or PDF");
    p.addHelpOption();
    if (!p.parse(args))
        throw EngineError("option", p.errorText().toStdString() + ".");
    if (p.isSet("help")) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    if (p.isSet("out") == p.isSet("all-steps"))
        throw EngineError(
            "out", "Say where to draw: --step ID --out F.png|.svg|.pdf, or --all-steps DIR.");
    ImageFormat format = ImageFormat::Svg;
    QString suffix = p.isSet("format") ? p.value("format").toLower() : QStringLiteral("svg");
    if (p.isSet("out")) {
        if (!p.isSet("step"))
            throw EngineError("step", "Say which step to draw with --step ID.");
        if (!imageFormatForPath(p.value("out"), &format))
            throw EngineError("out", "Cannot draw into \"" + p.value("out").toStdString() +
                                         "\": use a .png, .svg or .pdf file.");
    } else if (!imageFormatForPath("x." + suffix, &format)) {
        throw EngineError(
            "format", "Unknown --format \"" + suffix.toStdString() + "\"; use svg, png or pdf.");
    }

    FigureOptions options;
    options.showValues = !p.isSet("no-values");
    options.showTitle = !p.isSet("no-title");
    options.width = nonNegativeOption(p, "width", 0);
    options.height = nonNegativeOption(p, "height", 0);
    if (p.isSet("scale")) {
        bool ok = false;
        options.scale = p.value("scale").toDouble(&ok);
        if (!ok || options.scale <= 0.0 || options.scale > 16.0)
            throw EngineError("scale", "--scale expects a number above 0 and at most 16, got \"" +
                                           p.value("scale").toStdString() + "\".");
    }
    std::optional<Colormap> colormap;
    if (p.isSet("colormap")) {
        Colormap c;
        if (!parseColormap(p.value("colormap"), &c))
            throw EngineError("colormap", "Unknown colormap \"" +
                                              p.value("colormap").toStdString() +
                                              "\"; use viridis, magma, cividis or diverging.");
        colormap = c;
    }

    const RunSpec spec = parseRunOptions(p);
    const RunResult r = runSpec(spec);
    QStringList tokens;
    for (const std::string& l : r.input.labels)
        tokens << QString::fromStdString(l);
    const int batch = nonNegativeOption(p, "batch-index", 0);
    if (batch >= r.trace.config.batch)
        throw EngineError("batch-index", "--batch-index " + std::to_string(batch) +
                                             " is out of range: the batch has " +
                                             std::to_string(r.trace.config.batch) + " entries.");

    auto draw = [&](const Step& step, int head, const QString& path) {
        const HeatmapData data =
            sliceStep(step, tokens, std::max(head, 0), batch, r.trace.find("mask"));
        FigureOptions o = options;
        o.colormap = colormap ? *colormap : defaultColormapFor(data);
        o.vectorCells = format != ImageFormat::Png;
        exportHeatmapImage(data, o, path);
    };

    if (p.isSet("out")) {
        const Step* step = r.trace.find(p.value("step").toStdString());
        if (!step) {
            std::string ids;
            for (const Step& s : r.trace.steps)
                ids += (ids.empty() ? "" : ", ") + s.info.id;
            throw EngineError("step", "This configuration has no step \"" +
                                          p.value("step").toStdString() +
                                          "\". Its steps are: " + ids + ".");
        }
        const int64_t headDim = step->info.headDim();
        const int head = nonNegativeOption(p, "head", 0);
        if (headDim >= 0 && head >= step->value.size(headDim))
            throw EngineError("head", "--head " + std::to_string(head) + " is out of range: \"" +
                                          step->info.id + "\" has " +
                                          std::to_string(step->value.size(headDim)) + " heads.");
        draw(*step, head, p.value("out"));
        return 0;
    }

    const QString dir = p.value("all-steps");
    if (!QDir().mkpath(dir))
        throw EngineError("output", "Cannot create the folder " + dir.toStdString() + ".");
    for (const Step& step : r.trace.steps) {
        const int64_t headDim = step.info.headDim();
        const int heads = headDim >= 0 ? static_cast<int>(step.value.size(headDim)) : 1;
        for (int h = 0; h < heads; ++h)
            draw(step, headDim >= 0 ? h : -1,
                 QDir(dir).filePath(fileNameFor(step, headDim >= 0 ? h : -1, suffix)));
    }
    return 0;
}

}  // namespace attn::cli

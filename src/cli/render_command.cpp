// `render`: heatmap figures of trace steps, or a trained model's layers x heads overview, as PNG,
// SVG or PDF files.

#include <QCommandLineParser>

#include "cli/commands.h"
#include "engine/step_ids.h"
#include "export/image_export.h"
#include "export/model_figure.h"
#include "pipeline/options.h"

namespace attn::cli {

int renderCommand(const QStringList& args) {
    QCommandLineParser p;
    addSettingOptions(p, {SettingGroup::Input, SettingGroup::Module, SettingGroup::View});
    p.addOptions({
        {"out", "Output file: .png, .svg or .pdf.", "file"},
        {"all-steps", "Draw every step (and every head) into this folder.", "dir"},
        {"every-batch-entry",
         "With --all-steps: also draw every batch entry, not only the first (files _batch<i>)."},
        {"format", "File type for --all-steps: svg (default), png or pdf.", "type"},
        {"no-title", "Leave out the title and the PyTorch expression."},
        {"width", "Figure width in pixels (default: square cells that hold their numbers).", "px"},
        {"height", "Figure height in pixels (default: square cells that hold their numbers).",
         "px"},
        {"scale", "PNG pixels per figure pixel (default 2).", "factor"},
        {"overview",
         "With --model and --out: every layer and head of the model at a glance (one attention "
         "thumbnail per head) instead of one step."},
        {"own-scale", "With --overview: each head's thumbnail on its own colour scale."},
    });
    parseOrThrow(p, args, "render", "a step's heatmap as PNG, SVG or PDF");
    if (p.isSet("overview") && !p.isSet("out"))
        throw UserError("out", "Say where to draw the overview: --overview --out F.png|.svg|.pdf.");
    if (p.isSet("out") == p.isSet("all-steps"))
        throw UserError("out",
                        "Say where to draw: --step ID --out F.png|.svg|.pdf, or --all-steps DIR.");
    const QString suffix = p.isSet("format") ? p.value("format").toLower() : QStringLiteral("svg");
    if (p.isSet("out") && !p.isSet("overview")) {
        if (!p.isSet("step"))
            throw UserError("step", "Say which step to draw with --step ID.");
        if (!imageFormatForPath(p.value("out"), nullptr))
            throw UserError("out", "Cannot draw into \"" + p.value("out").toStdString() +
                                       "\": use a .png, .svg or .pdf file.");
    } else if (!imageFormatForPath("x." + suffix, nullptr)) {
        throw UserError("format",
                        "Unknown --format \"" + suffix.toStdString() + "\"; use svg, png or pdf.");
    }

    const CliInput in = settingsFromOptions(p);
    const Settings& s = in.settings;
    FigureOptions options;
    options.showValues = s.showValues;
    options.decimals = s.decimals;
    options.colorScale = s.colorScale;
    options.showTitle = !p.isSet("no-title");
    options.width = nonNegativeOption(p, "width", 0);
    options.height = nonNegativeOption(p, "height", 0);
    if (p.isSet("scale")) {
        bool ok = false;
        options.scale = p.value("scale").toDouble(&ok);
        if (!ok || options.scale <= 0.0 || options.scale > 16.0)
            throw UserError("scale", "--scale expects a number above 0 and at most 16, got \"" +
                                         p.value("scale").toStdString() + "\".");
    }
    const std::optional<Colormap> colormap = parseColormap(s.colormap.toStdString());

    if (p.isSet("overview")) {
        if (!s.modelMode())
            throw UserError("overview",
                            "--overview draws a trained model's layers and heads: "
                            "name the model with --model F.");
        if (!imageFormatForPath(p.value("out"), nullptr))
            throw UserError("out", "Cannot draw into \"" + p.value("out").toStdString() +
                                       "\": use a .png, .svg or .pdf file.");
        const ModelRun m = modelFromOptions(in);
        OverviewFigureOptions o = overviewFigureOptions(s, p.isSet("own-scale"), m.run.get());
        o.scale = options.scale;
        exportOverviewFigure(m.run->thumbnails, o, p.value("out"));
        return 0;
    }
    const TraceRun run = traceFromOptions(in);
    // A figure of a trained model's step says whose and which layer it is: without it, layer
    // 0 of one model looks like layer 5 of another on a slide.
    if (s.modelMode())
        options.titlePrefix =
            QStringLiteral("%1, layer %2: ").arg(modelName(s.modelFile)).arg(s.layer);
    const Trace& trace = *run.trace;
    const QStringList tokens = rowLabels(run);
    if (s.batchIndex >= trace.config.batch)
        throw UserError("batch_index", "--batch-index " + std::to_string(s.batchIndex) +
                                           " is out of range: the batch has " +
                                           std::to_string(trace.config.batch) + " entries.");

    if (p.isSet("out")) {
        const Step& step = requireStep(trace, s.step);
        if (const auto why = headProblem(s.head, stepHeadCount(step.info), step.info.id))
            throw UserError(why->field, why->message);
        const HeatmapData data =
            sliceStep(step, tokens, s.head, s.batchIndex, trace.find(step_id::kMask));
        FigureOptions o = options;
        o.colormap = colormap ? *colormap : defaultColormapFor(data);
        ImageFormat format = ImageFormat::Png;
        imageFormatForPath(p.value("out"), &format);
        o.vectorCells = format != ImageFormat::Png;
        exportHeatmapImage(data, o, p.value("out"));
        return 0;
    }
    const StepFiguresResult r = exportStepFigures(
        trace, tokens, allStepFigures(trace, suffix, p.isSet("every-batch-entry")), options,
        colormap, p.value("all-steps"));
    if (!r.ok())
        throw UserError("output", r.error.toStdString());
    return 0;
}

}  // namespace attn::cli

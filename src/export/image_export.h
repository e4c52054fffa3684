#pragma once
// Heatmap figures as files and images: PNG (bitmap at a scale), SVG and PDF (vector: every
// cell a rectangle, text as text). Works headless (QT_QPA_PLATFORM=offscreen) inside a
// QApplication, which is how the CLI `render` command uses it.

#include <QByteArray>
#include <QImage>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>
#include <vector>

#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"
#include "pipeline/step_files.h"

namespace attn {

enum class ImageFormat { Png, Svg, Pdf };

// By file suffix (case-insensitive): .png, .svg, .pdf. False for anything else.
bool imageFormatForPath(const QString& path, ImageFormat* format);

// The figure as the bytes of a file of `format`. Throws UserError("output", ...) if the
// figure cannot be rendered.
QByteArray renderHeatmapBytes(const HeatmapData& data, const FigureOptions& options,
                              ImageFormat format);

// Writes the figure to `path`, the format chosen by its suffix. The file appears complete or
// not at all (QSaveFile). Throws UserError("output", "Cannot write <path>: <reason>").
void exportHeatmapImage(const HeatmapData& data, const FigureOptions& options, const QString& path);

// The figure as an image (width x height x scale pixels, device pixel ratio = scale), for the
// clipboard.
QImage renderHeatmapImage(const HeatmapData& data, const FigureOptions& options);

// What exportStepFigures wrote.
struct StepFiguresResult {
    QStringList files;  // complete files written, in order
    int total = 0;      // files planned
    bool cancelled = false;
    QString error;  // why it stopped early; empty when every file was written or it was cancelled
    bool ok() const { return !cancelled && error.isEmpty() && files.size() == total; }
};
// One of them: `data` drawn into `path` in `colormap`, or the data's own (defaultColormapFor),
// the format by the suffix (vector cells for SVG and PDF). Throws UserError("output", ...).
void drawStepFigure(const HeatmapData& data, const FigureOptions& options,
                    std::optional<Colormap> colormap, const QString& path);
// "Cannot create the folder <dir>."
QString stepFiguresFolderError(const QString& dir);
// Called before each file (done = files written so far) and once at the end (done == total);
// returning false cancels: the files already written stay, complete.
using StepFiguresProgress = std::function<bool(int done, int total, const QString& file)>;
// Draws `figures` of `trace` (allStepFigures) into `dir`, the format by their suffix. `tokens`
// label the token axes; `colormap` unset picks each step's own (defaultColormapFor). The
// folder is created if needed. The one implementation behind `render --all-steps` and the app's
// Export all steps.
StepFiguresResult exportStepFigures(const Trace& trace, const QStringList& tokens,
                                    const std::vector<StepFigure>& figures,
                                    const FigureOptions& options, std::optional<Colormap> colormap,
                                    const QString& dir, const StepFiguresProgress& progress = {});

}  // namespace attn

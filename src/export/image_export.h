#pragma once
// Heatmap figures as files and images: PNG (bitmap at a scale), SVG and PDF (vector: every
// cell a rectangle, text as text). Works headless (QT_QPA_PLATFORM=offscreen) inside a
// QApplication, which is how the CLI `render` command uses it.

#include <QByteArray>
#include <QImage>
#include <QString>

#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"

namespace attn {

enum class ImageFormat { Png, Svg, Pdf };

// By file suffix (case-insensitive): .png, .svg, .pdf. False for anything else.
bool imageFormatForPath(const QString& path, ImageFormat* format);

// The figure as the bytes of a file of `format`. Throws EngineError("output", ...) if the
// figure cannot be rendered.
QByteArray renderHeatmapBytes(const HeatmapData& data, const FigureOptions& options,
                              ImageFormat format);

// Writes the figure to `path`, the format chosen by its suffix. The file appears complete or
// not at all (QSaveFile). Throws EngineError("output", "Cannot write <path>: <reason>").
void exportHeatmapImage(const HeatmapData& data, const FigureOptions& options, const QString& path);

// The figure as an image (width x height x scale pixels, device pixel ratio = scale), for the
// clipboard.
QImage renderHeatmapImage(const HeatmapData& data, const FigureOptions& options);

}  // namespace attn

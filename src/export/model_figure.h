#pragma once
// The layers x heads overview of a trained model as a figure file (PNG, SVG, PDF) and every
// layer's attention as .npy, for the app's Export menu and the CLI's `render --model F
// --overview`. Also the tile pictures the on-screen overview paints, so screen and file agree.
//
// A tile is one head's pooled attention (DecoderRun::thumbnails, P x P cells, -inf where a block
// holds no visible weight): cell value v is drawn as colormapColor(v / scale), with scale 1
// (every tile on the 0..1 scale of attention weights) or, with ownScale, the tile's largest
// value (so a faint, spread-out head shows its pattern too). Masked cells are left transparent
// in tile images; figures paint them in the print look's masked grey.

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>
#include <cstdint>
#include <vector>

#include "engine/cancel.h"
#include "engine/tensor.h"
#include "export/image_export.h"
#include "pipeline/settings.h"

namespace attn {

struct DecoderRun;

// The largest finite value of a tile's `count` cells, or 0 when none is finite and positive.
float tileMaximum(const float* cells, int64_t count);
// The divisor a tile's values are drawn with: 1, or with ownScale its maximum (1 when that is
// 0, so an empty tile stays dark).
float tileScale(const float* cells, int64_t count, bool ownScale);

// One image per head of a layer's thumbnails (H, P, P): P x P pixels, ARGB32 premultiplied,
// opaque cells coloured as above, masked (-inf or NaN) cells fully transparent.
std::vector<QImage> overviewTileImages(const Tensor& layerThumbnails, Colormap colormap,
                                       bool ownScale);

struct OverviewFigureOptions {
    QString title;     // e.g. "gpt2.safetensors: attention of every layer and head"
    QString subtitle;  // e.g. the text, elided to the figure's width
    Colormap colormap = Colormap::Viridis;
    bool ownScale = false;  // each tile on its own scale (the colour bar then says so)
    int tilePixels = 0;     // a tile's side in logical pixels; <= 0: chosen from the grid size
    double scale = 2.0;     // PNG only: device pixels per logical pixel
    // SVG and PDF draw every cell as a rectangle (runs of one colour merged) up to this many
    // cells in all; beyond it each tile is an embedded image, so a 48 x 25 x 64 x 64 overview
    // stays a file of a few megabytes instead of hundreds.
    int64_t maxVectorCells = 200000;
    // What the model's architecture adds to the picture, as the on-screen overview shows it:
    // the key/value group each head reads (empty: every head its own), each layer's sliding
    // window (0 or empty: full attention) and the switched-off heads (crossed out in red).
    std::vector<int> headGroups;
    std::vector<int64_t> windows;
    std::vector<HeadRef> ablated;
};

// The figure of the settings' model and text: titled with the model file's name, the text as the
// subtitle, the settings' colormap (viridis for "auto"); with `run`, its model's key/value
// groups and sliding windows and its switched-off heads.
OverviewFigureOptions overviewFigureOptions(const Settings& settings, bool ownScale,
                                            const DecoderRun* run = nullptr);

// The figure's size in logical pixels for L x H tiles: square tiles, room for the title,
// labels and colour bar.
QSize overviewFigureSize(int64_t layers, int64_t heads, const OverviewFigureOptions& options);

// The overview of thumbnails (L, H, P, P) as the bytes of a file of `format`. White
// background, print colours. Throws UserError("output", ...) for a tensor that is not 4-D or
// has no tiles, or when drawing fails. Needs a QApplication (offscreen is fine).
QByteArray renderOverviewBytes(const Tensor& thumbnails, const OverviewFigureOptions& options,
                               ImageFormat format);
// The same written to `path` (format by suffix .png/.svg/.pdf), complete or not at all.
// Throws UserError("output", "Cannot write <path>: <reason>").
void exportOverviewFigure(const Tensor& thumbnails, const OverviewFigureOptions& options,
                          const QString& path);

}  // namespace attn

#pragma once
// A 2-D slice of one trace step, ready to draw: the value type shared by the on-screen heatmap,
// the small-multiples head grid and the image export (PNG/SVG/PDF).

#include <QColor>
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

#include "engine/trace.h"
#include "pipeline/settings.h"

namespace attn {


struct HeatmapData {
    int rows = 0;
    int cols = 0;
    std::vector<float> values;  // row-major rows x cols; -inf marks a masked cell
    // Optional, rows x cols: 1 where the attention mask hides the cell although the step holds
    // a finite value there (the 0 that softmax gives a -inf score). Drawn like -inf cells.
    std::vector<unsigned char> hidden;
    QStringList rowLabels;  // tokens for token rows, else indices
    QStringList colLabels;  // tokens for token x token steps, else "0".."d-1"
    QString rowAxis;        // e.g. "query token"
    QString colAxis;        // e.g. "key token" or "d_out"
    QString title;          // e.g. "weights  (head 1, batch 0)"
    QString subtitle;       // the PyTorch op and the full shape
    StepKind kind = StepKind::Projection;
    QString stepId;
    int head = -1;  // -1 when the step is not split by head
    int batch = 0;
    bool rowsAreTokens = false;  // rowLabels are the text's tokens
    bool colsAreTokens = false;
    bool signedValues() const;  // any finite value < 0: suggests the diverging colormap
    bool isEmpty() const { return rows == 0 || cols == 0; }
    float value(int row, int col) const { return values[size_t(row) * size_t(cols) + size_t(col)]; }
    bool isMasked(int row, int col) const;  // the cell holds -inf or is hidden
    int maskedCount() const;                // cells isMasked() is true for
};

// The picture of `step` for one head and batch entry: the slice and labels of sliceStepValues /
// sliceLabels (engine/trace.h), so a figure and a CSV export of a step hold the same matrix.
// `tokens` label token axes (dims named "T"). Head and batch are clamped to range.
// `mask`, the trace's (T,T) `mask` step (1 = hidden), marks the cells of attention-weight steps
// that the mask zeroed as hidden, so they read as masked rather than as a weight of 0 (cells the
// mask hides but that hold a non-zero value, e.g. weights_unmasked, stay as they are).
HeatmapData sliceStep(const Step& step, const QStringList& tokens, int head, int batch,
                      const Step* mask = nullptr);

// sliceStep pooled to at most maxCells x maxCells cells (the head grid's small multiples),
// straight from the trace's tensor: no full-size copy of a 1,000 x 1,000 map is made. Each cell
// is the mean of its block, leaving out -inf and the cells sliceStep marks hidden (weights the
// mask zeroed); a block with nothing left reads as masked (-inf). Labels are those of each
// block's first row and column. Slices that already fit are sliceStep's.
HeatmapData pooledSlice(const Step& step, const QStringList& tokens, int head, int batch,
                        const Step* mask, int maxCells);

// Picks the colormap a step reads best in: diverging for signed projections and scores,
// viridis otherwise (the user's choice overrides this in the views).
Colormap defaultColormapFor(const HeatmapData& data);

// Every colormap the views offer, in menu order, and its name for people ("Viridis").
const std::vector<Colormap>& allColormaps();
QString colormapDisplayName(Colormap c);

// The published colour at t in [0, 1] (clamped): matplotlib's 256-entry tables for viridis,
// magma and cividis (nearest entry, as matplotlib does), ColorBrewer RdBu reversed for the
// diverging map (linear between its 11 classes, white at 0.5).
QColor colormapColor(Colormap c, double t);
// The colour stops (position in [0, 1], colour) the figure's QCPColorGradient is built from:
// 256 for the matplotlib maps, 11 for the diverging map.
std::vector<std::pair<double, QColor>> colormapStops(Colormap c);

// The value range the colour scale spans: symmetric +-max|v| for the diverging map, [0, 1]
// for attention weights and 0/1 masks (so colours mean the same on every step), otherwise the
// finite min..max (widened by 0.5 when all values are equal). -inf/NaN cells are ignored.
std::pair<double, double> colorRange(const HeatmapData& data, Colormap c);

// A cell value as the figure writes it inside the cell: "0.55", "-1.23", "1.2e+03", "-inf".
QString formatCellValue(float v, int decimals = 2);
// The full-precision value for tooltips and the status line: "0.551712", "-inf".
QString formatExactValue(float v);
// A token as an axis tick shows it: trimmed, whitespace-only tokens made visible, long ones
// elided.
QString displayLabel(const QString& label, int maxChars = 14);

// What hovering the cell says: `row "journey", col "Your" = 0.551712`; masked cells explain
// the mask. Empty for a cell outside the data.
QString cellToolTip(const HeatmapData& data, int row, int col);

}  // namespace attn

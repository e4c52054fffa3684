#pragma once
// A 2-D slice of one trace step, ready to draw: the value type shared by the on-screen heatmap,
// the small-multiples head grid and the image export (PNG/SVG/PDF).

#include <QColor>
#include <QString>
#include <QStringList>
#include <optional>
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
    // Optional, rows x cols: the numbers printed in the cells when they are not `values`. A
    // fade between two steps blends the colours but prints each cell's value at the nearer
    // end, so every number on screen is one the computation produced.
    std::vector<float> shownValues;
    // Optional, rows x cols: 1 where a quiz hides the cell (its number and colour) for the class
    // to predict; drawn as "?" on a neutral fill, in files too (a worksheet).
    std::vector<unsigned char> quizHidden;
    QStringList rowLabels;  // tokens for token rows, else indices
    QStringList colLabels;  // tokens for token x token steps, else "0".."d-1"
    QString rowAxis;        // e.g. "query token"
    QString colAxis;        // e.g. "key token" or "d_out"
    QString title;          // e.g. "weights  (head 1, batch 0)"
    QString subtitle;       // the PyTorch op and the full shape
    StepKind kind = StepKind::Projection;
    // What a cell's number is, where the kind alone would name it wrongly (a model layer's
    // input is its first norm's output, not an embedding); empty: the kind's own name.
    QString valueName;
    QString stepId;
    int head = -1;  // -1 when the step is not split by head
    int batch = 0;
    bool rowsAreTokens = false;  // rowLabels are the text's tokens
    bool colsAreTokens = false;
    bool signedValues() const;  // any finite value < 0: suggests the diverging colormap
    bool isEmpty() const { return rows == 0 || cols == 0; }
    float value(int row, int col) const { return values[size_t(row) * size_t(cols) + size_t(col)]; }
    // The number a cell prints: shownValues' when there are any, else value().
    float shownValue(int row, int col) const {
        const size_t i = size_t(row) * size_t(cols) + size_t(col);
        return i < shownValues.size() ? shownValues[i] : values[i];
    }
    bool isMasked(int row, int col) const;  // the cell holds -inf or is hidden
    bool isQuizHidden(int row, int col) const {
        const size_t i = size_t(row) * size_t(cols) + size_t(col);
        return i < quizHidden.size() && quizHidden[i];
    }
    int maskedCount() const;  // cells isMasked() is true for
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

// How a figure turns the values of one matrix into positions on its colormap (0 = the low end,
// 1 = the high end). What the scales mean:
// - Matrix: one range for the whole matrix, colorRange() (or a range the caller gives, e.g. one
//   shared by two figures).
// - Row: each row spans its own finite min..max (+-max|v| of the row with the diverging map),
//   so a long causal map whose rows spread over 1/i still shows contrast in every row. A row
//   with a single distinct value is its own maximum: the top colour (0 with the diverging map:
//   white).
// - Log: log10 of the value between whole decades: from the decade at or below
//   max(smallest positive value, 1e-4 x largest) up to the decade at or above the largest value
//   (1 for attention weights). Zeros and values below the floor take the bottom colour.
// Row and Log describe continuous values: 0/1 masks always use Matrix, and so do signed steps
// under Log (no logarithm of a negative value); `fallback` then says why.
struct ColorScaling {
    ColorScale scale = ColorScale::Matrix;  // the scale in use
    ColorScale requested = ColorScale::Matrix;
    double lower = 0.0, upper = 1.0;  // Matrix: the value range; Log: its decades (log10)
    bool symmetric = false;           // Row with the diverging map: rows span +-max|v|
    std::vector<std::pair<float, float>> rowRanges;  // Row: each row's min..max
    QString fallback;  // why `requested` could not be used; empty when it is in use

    // Where `v` in `row` sits on the colormap, in [0, 1]; NaN for -inf and NaN. Masked cells
    // that hold a finite value (hidden weights) are the caller's to leave out.
    double position(float v, int row) const;
};
ColorScaling colorScaling(const HeatmapData& data, Colormap c, ColorScale requested,
                          std::optional<std::pair<double, double>> matrixRange = std::nullopt);
// Every cell's colormap position (row-major); NaN where the cell is masked (-inf, hidden, NaN).
std::vector<float> colorPositions(const HeatmapData& data, const ColorScaling& scaling);

// A cell value as the figure writes it inside the cell: "0.55", "-1.23", "1.2e+03", "-inf".
// `text` with every control character (\x00 to \x1f, DEL, C1) that would draw as a box or
// nothing written as its escape, "\x0c"; line breaks, tabs and carriage returns stay when
// `keepBreaks` (a caller that shows them its own way replaces them first).
QString escapeControlCharacters(const QString& text, bool keepBreaks = false);
QString formatCellValue(float v, int decimals = 2);
// The decimals the cells of `data` print with the decimals setting `decimals`: none for a
// matrix of whole numbers (a mask), else the setting (0 to 6). The figure and a cell's
// derivation print a cell's number alike.
int printedDecimals(const HeatmapData& data, int decimals);
// The value for tooltips and the hover line, every kind alike with `decimals` decimals (the
// book's 4 by default): "0.5517", "1.5000", "-inf"; 1e6 and beyond in exponent form.
QString formatExactValue(float v, int decimals = 4);
// A token as a label shows it: trimmed of the spaces GPT-2 tokens carry (" journey" ->
// "journey"), whitespace-only tokens made visible (space ·, newline ↵, tab ⇥, carriage return
// ␍), an empty token as ∅, so a label is never blank; longer than maxChars: elided with …. Hex
// byte labels of partial UTF-8 tokens ("e4 bd") stay as they are.
QString displayLabel(const QString& label, int maxChars = 14);

// Whether token labels carry their position (3·the): always, never, or Auto, when a token
// repeats (two positions whose labels display alike), so "the" ... "the" can be told apart.
enum class LabelPositions { Auto, On, Off };
// True when `positions` asks for positions on the token axes of `data`.
bool tokenLabelsWithPositions(const HeatmapData& data, LabelPositions positions);
// The tick labels of one axis: displayLabel() of each, and on a token axis with
// `withPositions`, the position in front: "3·the".
QStringList axisTickLabels(const QStringList& labels, bool tokenAxis, bool withPositions,
                           int maxChars = 14);

// What hovering the cell says, naming positions: `row 3 "the", col 1 "cat" = 0.5517`
// (feature axes by index: `col 1`), the value by formatExactValue(v, decimals); masked cells
// explain the mask. Empty outside the data.
QString cellToolTip(const HeatmapData& data, int row, int col, int decimals = 4);

}  // namespace attn

#pragma once
// "Where does this number come from?": the arithmetic behind one cell of a step, with the
// trace's actual numbers (4 decimals), as rich text for a tooltip or the Explain panel.

#include <QString>
#include <QStringList>
#include <string>
#include <vector>

namespace attn {

struct Trace;

// The cell (row, col) of `stepId` as the heatmap shows it (sliceStep's layout: head and batch
// pick the matrix, the multi-head reshapes show tokens as rows and h·hd as columns).
// Examples: a score as q_i · k_j with every product; a weight as exp(z − max) / Σ exp with the
// row's denominator and row sum; a masked cell's -inf and why; a context element as Σ_j w_ij v_j.
// `tokens` label the token axes (quoted in the text). Empty for a cell outside the step.
// `quizHidden` (rows x cols of that matrix, HeatmapData::quizHidden) are the cells a quiz still
// hides: their numbers print as "?" wherever the derivation would list them (a row's sum, the
// softmax's terms), and a hidden cell itself is not derived, so explaining one revealed cell
// never gives the others away.
// `decimals` is the decimals setting the heatmap prints its cells with (Settings::decimals): the
// arithmetic shows the book's 4 decimals and ends on the cell's value as the cell prints it
// (printedDecimals: a mask's whole numbers without any), bold, so the last number a student
// reads is the number they clicked.
QString deriveCellHtml(const Trace& trace, const QStringList& tokens, const std::string& stepId,
                       int head, int batch, int row, int col,
                       const std::vector<unsigned char>& quizHidden = {}, int decimals = 4);

// At most this many terms of a sum are listed; longer sums end in "… (d terms)".
constexpr int kDerivationMaxTerms = 8;

}  // namespace attn

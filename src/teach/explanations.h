#pragma once
// Plain-words explanations of every step of every variant, for a teacher to read aloud: what the
// step computes and why, its formula (rich text) and the shape change with the actual sizes.

#include <QString>
#include <cstdint>
#include <string>

namespace attn {

struct Config;
struct Settings;
struct StepInfo;
struct Trace;

// Where the input vectors x come from, which `inputs` explains: the chapter-2 embedding layers
// (token + position, or token alone), the book's six given vectors, or a loaded file.
enum class InputOrigin { Embedded, EmbeddedWithoutPositions, Book, File };
// Where `settings` take their input vectors from.
InputOrigin inputOriginOf(const Settings& settings);

// The heading above a clicked cell's derivation (deriveCellHtml), in the Explain panel and in
// `attention-lens-cli explain --cell`.
QString explainCellHeading();

// Rich text (HTML) for one step of `trace`: a short heading, what and why, the formula with
// <sub>/<sup>, and the shape change, e.g. "(1, 6, 2) → (1, 2, 6, 1): split d_out = 2 into
// h = 2 heads of hd = 1". Empty for an id the trace does not have.
QString explainStepHtml(const Trace& trace, const std::string& stepId,
                        InputOrigin origin = InputOrigin::Embedded);
// The same before a result exists (from planSteps(config, tokens)).
QString explainStepHtml(const Config& config, int64_t tokens, const std::string& stepId,
                        InputOrigin origin = InputOrigin::Embedded);

// The formula of a step alone, as rich text ("score<sub>ij</sub> = q<sub>i</sub> · k<sub>j</sub>").
QString stepFormulaHtml(const Config& config, const std::string& stepId,
                        InputOrigin origin = InputOrigin::Embedded);

// True for the `inputs` step of a trained model's layer, which is the block's LayerNorm 1
// output rather than token embeddings.
bool isModelLayerInput(const StepInfo& info);

// One plain line for presentation mode, e.g. "Softmax turns each row of scores into weights
// that sum to 1". Never empty.
QString stepCaption(const StepInfo& info);

}  // namespace attn

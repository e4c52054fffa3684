#pragma once
// The texts of a trained model's block around its attention: block_input, the layer's first
// norm (its `inputs`), the residual additions, the second norm and the feed-forward. Each is
// made from the facts the step carries (StepInfo::block), so it names that model's own norm,
// feed-forward, biases and positions: GPT-2's LayerNorm and GELU, Llama's RMSNorm and SwiGLU,
// Gemma 3's (1 + weight) RMSNorms around each sublayer and GeGLU.

#include <QString>

namespace attn {

struct StepInfo;

// True for the steps these texts describe: the block's own steps and a model layer's input.
bool isBlockStep(const StepInfo& step);
// One line for the step strip's tooltip, the caption and the Explain heading.
QString blockStepCaption(const StepInfo& step);
// The Explain panel: what and why, formula, PyTorch expression, shape.
QString blockStepHtml(const StepInfo& step);
// The Explain panel of any step: its id and caption as the heading, the text, the formula (if
// any), the step's PyTorch expression and the shape line.
QString stepPanelHtml(const StepInfo& step, const QString& caption, const QString& text,
                      const QString& formula, const QString& shape);
// A step's shape with its dims' names, as rich text: "(b&nbsp;=&nbsp;1, T&nbsp;=&nbsp;6, ...)".
QString namedShapeHtml(const StepInfo& step);
// The chip in the step strip ("RMSNorm 2", "SwiGLU"); empty where the step id's chip is right.
QString blockChipLabel(const StepInfo& step);

}  // namespace attn

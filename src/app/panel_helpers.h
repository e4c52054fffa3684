#pragma once
// What the panels around the heatmap share: whether a panel is on screen (they draw only then),
// the shown model run, and the "Layer" box of model mode.

class QLabel;
class QSpinBox;
class QWidget;

namespace attn {

struct DecoderRun;
class Workspace;

// On screen: shown, and not a tab hidden behind another. Panels draw only then.
bool onScreen(const QWidget* w);

// The shown result's model run in model mode, else null.
const DecoderRun* shownModelRun(const Workspace* workspace);

// A "Layer" box (and its label): shown in model mode only, ranging over the model's blocks and
// set to the selected one, without emitting a change.
void refreshLayerSelector(const Workspace* workspace, QLabel* label, QSpinBox* spin);

}  // namespace attn

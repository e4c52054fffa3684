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

// A stale result (the settings cannot run, the last good result stays) looks stale wherever it
// is shown, as the heatmap does: desaturated and pulled towards grey (a dark grey in a dark
// palette). followStale keeps `w` so while the workspace is stale.
void setStaleLook(QWidget* w, bool stale);
bool hasStaleLook(const QWidget* w);
void followStale(const Workspace* workspace, QWidget* w);

// The shown result's model run in model mode, else null.
const DecoderRun* shownModelRun(const Workspace* workspace);

// A "Layer" box (and its label): shown in model mode only, ranging over the model's blocks and
// set to the selected one, without emitting a change.
void refreshLayerSelector(const Workspace* workspace, QLabel* label, QSpinBox* spin);

}  // namespace attn

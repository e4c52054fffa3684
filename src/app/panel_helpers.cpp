#include "app/panel_helpers.h"

#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QWidget>

#include "app/workspace.h"

namespace attn {

bool onScreen(const QWidget* w) {
    return w->isVisible() && !w->visibleRegion().isEmpty();
}

const DecoderRun* shownModelRun(const Workspace* w) {
    const TraceOutcome* shown = w->shown();
    return shown && shown->modelRun && w->settings().modelMode() ? shown->modelRun.get() : nullptr;
}

void refreshLayerSelector(const Workspace* workspace, QLabel* label, QSpinBox* spin) {
    const Settings& s = workspace->settings();
    const auto& model = workspace->model();
    const bool layers = s.modelMode() && model;
    label->setVisible(layers);
    spin->setVisible(layers);
    if (!layers)
        return;
    const QSignalBlocker block(spin);
    const int last = int(model->arch.layers) - 1;
    spin->setRange(0, last);
    spin->setValue(s.layer);
    // Layers count from 0, as the model's own names (h.0 ... h.11) and the CLI's --layer do.
    spin->setSuffix(QObject::tr("  (0–%1)").arg(last));
    spin->setToolTip(QObject::tr("Which block of the model to show: 0 to %1 (%2 layers)")
                         .arg(last)
                         .arg(last + 1));
}

}  // namespace attn

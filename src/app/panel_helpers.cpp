#include "app/panel_helpers.h"

#include <QGraphicsColorizeEffect>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QWidget>

#include "app/workspace.h"

namespace attn {

bool onScreen(const QWidget* w) {
    return w->isVisible() && !w->visibleRegion().isEmpty();
}

namespace {

// Repaints `w` and everything in it: a new or removed effect reaches a child that paints on its
// own (a table's viewport) only at that child's next paint, so a table on screen kept its
// colours under the grey until it was scrolled or shown again.
void repaintAll(QWidget* w) {
    w->update();
    for (QWidget* child : w->findChildren<QWidget*>())
        child->update();
}

}  // namespace

void setStaleLook(QWidget* w, bool stale) {
    if (stale == hasStaleLook(w))
        return;
    if (!stale) {
        w->setGraphicsEffect(nullptr);  // deletes the effect
        repaintAll(w);
        return;
    }
    // The heatmap's stale tint (HeatmapView::setStale): grey screened over the grey image.
    const bool dark = w->palette().color(QPalette::Window).lightness() < 128;
    auto* effect = new QGraphicsColorizeEffect;
    effect->setObjectName(QStringLiteral("staleLook"));
    effect->setColor(dark ? QColor(0x20, 0x20, 0x20) : QColor(0x80, 0x80, 0x80));
    effect->setStrength(0.85);
    w->setGraphicsEffect(effect);  // the widget owns it
    repaintAll(w);
}

bool hasStaleLook(const QWidget* w) {
    const QGraphicsEffect* e = w->graphicsEffect();
    return e && e->objectName() == QLatin1String("staleLook");
}

void followStale(const Workspace* workspace, QWidget* w) {
    setStaleLook(w, workspace->isStale());
    QObject::connect(workspace, &Workspace::staleChanged, w,
                     [w](bool stale) { setStaleLook(w, stale); });
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

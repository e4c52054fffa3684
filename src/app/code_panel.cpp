#include "app/code_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "app/panel_helpers.h"
#include "app/trace_controller.h"
#include "app/workspace.h"
#include "engine/embeddings.h"
#include "engine/step_ids.h"
#include "export/heatmap_data.h"
#include "pipeline/latest_job.h"
#include "pipeline/pytorch_code.h"
#include "pipeline/step_files.h"
#include "teach/derivation.h"
#include "teach/explanations.h"
#include "teach/lesson.h"
#include "teach/pytorch_panel.h"
#include "teach/token_view.h"

namespace attn {

CodePanel::CodePanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    panel_ = new PyTorchPanel(this);
    panel_->setObjectName(QStringLiteral("pytorchPanel"));
    v->addWidget(panel_);
    connect(workspace_, &Workspace::resultApplied, this, &CodePanel::refresh);
    // The listing ends on the step on screen: another step, another last line.
    connect(workspace_, &Workspace::settingsChanged, this, &CodePanel::refresh);
}

void CodePanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // A tab brought forward is laid out after its show event: draw once it has its place.
    QMetaObject::invokeMethod(this, &CodePanel::refresh, Qt::QueuedConnection);
}

void CodePanel::refresh() {
    const TraceOutcome* shown = workspace_->shown();
    const Step* step = workspace_->shownStep();
    const std::string stepId = step ? step->info.id : std::string(step_id::kOutput);
    if (!shown || !onScreen(this) || (shown->generation == generation_ && stepId == stepId_))
        return;
    stepId_ = stepId;
    try {
        const PyTorchListing listing =
            shown->modelRun ? pytorchModelListing(ModelRun{shown->run.settings, shown->run.input,
                                                           shown->model, shown->modelRun, shown->baselineRun})
                            : pytorchListing(shown->run, stepId);
        panel_->setCode(QString::fromStdString(listing.code));
        panel_->setCaption(
            (listing.exact ? QString() : QStringLiteral("<b>%1</b> ").arg(tr("Note:"))) +
            QString::fromStdString(listing.reproduces).toHtmlEscaped());
    } catch (const std::exception& e) {
        panel_->setCode(QString());
        panel_->setCaption(
            tr("The PyTorch code could not be generated: %1").arg(QString::fromUtf8(e.what())));
    }
    generation_ = shown->generation;
    emit updated();
}

}  // namespace attn

#include "app/token_view_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "app/panel_helpers.h"
#include "app/step_view.h"
#include "app/trace_controller.h"
#include "app/workspace.h"
#include "engine/embeddings.h"
#include "engine/step_ids.h"
#include "export/heatmap_data.h"
#include "export/heatmap_view.h"
#include "pipeline/latest_job.h"
#include "pipeline/pytorch_code.h"
#include "pipeline/step_files.h"
#include "teach/derivation.h"
#include "teach/explanations.h"
#include "teach/lesson.h"
#include "teach/pytorch_panel.h"
#include "teach/token_view.h"

namespace attn {

TokenViewPanel::TokenViewPanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace), weightsJob_(std::make_unique<LatestJob>()) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    allHeads_ = new QCheckBox(tr("&All heads"), this);
    allHeads_->setObjectName(QStringLiteral("tokenViewAllHeads"));
    allHeads_->setToolTip(tr("Draw every head at once, one colour per head"));
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("tokenViewNote"));
    note_->setWordWrap(true);
    layerLabel_ = new QLabel(tr("La&yer"), this);
    layer_ = new QSpinBox(this);
    layer_->setObjectName(QStringLiteral("tokenViewLayer"));
    layer_->setToolTip(tr("Which layer of the model the lines show"));
    layerLabel_->setBuddy(layer_);
    connect(layer_, &QSpinBox::valueChanged, workspace_, &Workspace::selectLayer);
    bar->addWidget(layerLabel_);
    bar->addWidget(layer_);
    bar->addStretch(1);
    v->addLayout(bar);
    // On a row of its own: beside the layer box it set the right dock column's minimum width,
    // and with it the window's, past a 960-pixel-wide screen (1920 x 1080 at scale 2).
    v->addWidget(allHeads_);
    v->addWidget(note_);
    view_ = new TokenView(this);
    view_->setObjectName(QStringLiteral("tokenView"));
    v->addWidget(view_, 1);
    followStale(workspace_, view_);  // greyed with the main map while the result is stale
    // The weights cut hold every head: choosing one or all only redraws.
    connect(allHeads_, &QCheckBox::toggled, this, &TokenViewPanel::refresh);
    connect(workspace_, &Workspace::settingsChanged, this, &TokenViewPanel::refresh);
    connect(workspace_, &Workspace::resultApplied, this, &TokenViewPanel::refresh);
}

TokenViewPanel::~TokenViewPanel() = default;

bool TokenViewPanel::isDrawn() const {
    return !weightsJob_->busy();
}

void TokenViewPanel::setFontScale(double scale) {
    view_->setFontScale(scale);
}

void TokenViewPanel::followQuiz(const StepView* view) {
    quiz_ = view;
    connect(view, &StepView::quizCellsChanged, this, &TokenViewPanel::refreshQuiz);
    refreshQuiz();
}

void TokenViewPanel::refreshQuiz() {
    // A quiz on the matrix the lines show (the shown weights) withholds its rows here too.
    view_->setQuizRows(quizWithheldRows(quiz_, step_, view_->tokenCount()));
}

void TokenViewPanel::refreshLayer() {
    refreshLayerSelector(workspace_, layerLabel_, layer_);
}

void TokenViewPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // A tab brought forward is laid out after its show event: draw once it has its place.
    QMetaObject::invokeMethod(this, &TokenViewPanel::refresh, Qt::QueuedConnection);
}

void TokenViewPanel::refresh() {
    if (!onScreen(this))
        return;  // drawn when it comes on screen
    const TraceRun* run = workspace_->shownRun();
    if (!run)
        return;
    const Trace& t = *run->trace;
    const Settings& s = workspace_->settings();
    const Step* shown = workspace_->shownStep();
    const std::string id = tokenViewStepId(t, shown ? shown->info.id : std::string());
    const int batch = std::max(0, std::min<int>(s.batchIndex, int(t.config.batch) - 1));
    const quint64 generation = workspace_->shownGeneration();
    if (drawnGeneration_ != generation || drawnBatch_ != batch ||
        step_ != QString::fromStdString(id)) {
        step_ = QString::fromStdString(id);
        drawnGeneration_ = generation;
        drawnBatch_ = batch;
        // The matrices are copied out on the thread pool (at 1,000 tokens and 12 heads they
        // are 48 MB); the newest request wins.
        std::shared_ptr<const Trace> trace = run->trace;
        const QStringList labels = rowLabels(*run);
        weightsJob_->run(
            [trace, batch, id](const CancelToken&) { return tokenViewInput(*trace, batch, id); },
            [this, labels](TokenViewInput in) {
                view_->setAttention(std::move(in.weights), labels, std::move(in.hidden));
                refreshQuiz();  // before the new weights are painted
                refresh();
            });
        return;
    }
    refreshQuiz();
    const bool heads = view_->headCount() > 1;
    refreshLayer();
    allHeads_->setEnabled(heads);
    view_->setHead(heads && allHeads_->isChecked()
                       ? -1
                       : std::min(s.head, std::max(0, view_->headCount() - 1)));
    QString note;
    if (view_->headCount() == 0)
        note = tr("This configuration has no attention weights to draw.");
    else if (!shown || shown->info.id != id)
        note = tr("Showing <b>%1</b> (the step selected is not a weight matrix).").arg(step_);
    else
        note = tr("Showing <b>%1</b>. Hover a token to isolate its lines.").arg(step_);
    if (heads && !allHeads_->isChecked())
        note += QLatin1Char(' ') + tr("Head %1.").arg(view_->head());
    note_->setText(note);
}

}  // namespace attn

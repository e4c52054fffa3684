#include "app/teaching_panels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "app/model_views.h"
#include "app/trace_controller.h"
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

// ---------------------------------------------------------------------------------------------
// Explain

ExplainPanel::ExplainPanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    browser_ = new QTextBrowser(this);
    browser_->setObjectName(QStringLiteral("explainBrowser"));
    browser_->setOpenExternalLinks(false);
    browser_->setFrameShape(QFrame::NoFrame);
    v->addWidget(browser_);
    connect(workspace_, &Workspace::settingsChanged, this, &ExplainPanel::refresh);
    connect(workspace_, &Workspace::resultApplied, this, &ExplainPanel::refresh);
    connect(workspace_, &Workspace::cellSelected, this, [this](int row) {
        refresh();
        if (row < 0)
            return;
        // Show the derivation, not the top of the explanation.
        QTextCursor c = browser_->textCursor();
        c.movePosition(QTextCursor::End);
        browser_->setTextCursor(c);
        browser_->ensureCursorVisible();
        emit derivationShown();
    });
    refresh();
}

void ExplainPanel::setPage(const QString& page) {
    if (page == page_)
        return;
    page_ = page;
    refresh();
}

namespace {

QString overviewHtml() {
    return QStringLiteral("<h3>%1</h3><p>%2</p><p>%3</p><p>%4</p>")
        .arg(ExplainPanel::tr("All layers: every head's attention at a glance"),
             ExplainPanel::tr(
                 "Each tile is one head's attention weights on this text (the softmax output, "
                 "<code>weights</code>, of its layer): row i is query token i, column j key "
                 "token j, and the brighter a cell, the more of row i's weight goes to token j. "
                 "Rows of tiles are the model's layers, 0 at the top, nearest the tokens; "
                 "columns are its heads."),
             ExplainPanel::tr(
                 "What to look for: a bright line just below the diagonal is a previous-token "
                 "head; a bright first column, an attention sink (weight parked on the first "
                 "token when nothing else matters); the diagonal itself, a head that looks at "
                 "its own token; an even triangle, a head that averages over the text."),
             ExplainPanel::tr("Click a tile to select its layer and head; double-click it to "
                              "follow that head through its steps on the Layer steps page."));
}

QString scoresHtml() {
    return QStringLiteral(
               "<h3>%1</h3><p>%2</p><p><b>%3</b> = %4</p><p><b>%5</b> = %6</p>"
               "<p><b>%7</b> = %8</p><p><b>%9</b> = %10</p><p>%11</p>")
        .arg(ExplainPanel::tr("Head scores: finding the heads that do something"),
             ExplainPanel::tr("Four numbers per head, each an average over the query tokens i "
                              "of this text of the head's attention weights w<sub>ij</sub>:"),
             ExplainPanel::tr("previous token"),
             ExplainPanel::tr("the mean over i &ge; 1 of w<sub>i,i&minus;1</sub>: near 1, the "
                              "head looks at the token just before."),
             ExplainPanel::tr("entropy"),
             ExplainPanel::tr("the mean of &minus;&sum;<sub>j</sub> w<sub>ij</sub> ln "
                              "w<sub>ij</sub> in nats: 0 when a row puts all its weight on one "
                              "token, ln(i + 1) when it spreads it evenly."),
             ExplainPanel::tr("distance"))
        .arg(ExplainPanel::tr("the mean of &sum;<sub>j</sub> w<sub>ij</sub> (i &minus; j): how "
                              "far back the head looks, in tokens (1: the previous token, 0: "
                              "the token itself)."),
             ExplainPanel::tr("first token"),
             ExplainPanel::tr("the mean of w<sub>i0</sub>: high for an attention sink."),
             ExplainPanel::tr("Click a cell of a map or a row of the list to select that head, "
                              "and a column header to sort the list. The lesson's repeated "
                              "random text adds an induction score: the weight on the token "
                              "after the previous occurrence of the current one."));
}

// Where the settings' input vectors come from, for the `inputs` step's explanation.
InputOrigin inputOrigin(const Settings& s) {
    switch (s.source) {
        case InputSource::Book:
            return InputOrigin::Book;
        case InputSource::File:
            return InputOrigin::File;
        case InputSource::Text:
            break;
    }
    return s.positions ? InputOrigin::Embedded : InputOrigin::EmbeddedWithoutPositions;
}

}  // namespace

bool onScreen(const QWidget* w) {
    return w->isVisible() && !w->visibleRegion().isEmpty();
}

void ExplainPanel::refresh() {
    if (workspace_->settings().modelMode() && page_ != QLatin1String("steps")) {
        explanation_ = page_ == QLatin1String("overview") ? overviewHtml() : scoresHtml();
        derivation_.clear();
        browser_->setHtml(explanation_);
        return;
    }
    const TraceRun* run = workspace_->shownRun();
    const Step* step = workspace_->shownStep();
    QString html;
    if (run && step) {
        html = explainStepHtml(*run->trace, step->info.id, inputOrigin(run->settings));
    } else {
        // Before the first result: explain the step of the settings as planned.
        const Settings& s = workspace_->settings();
        if (validate(s.config, std::max<int64_t>(1, workspace_->tokens().count())).empty())
            html = explainStepHtml(s.config, std::max<int64_t>(1, workspace_->tokens().count()),
                                   s.step.toStdString(), inputOrigin(s));
    }
    // The explanation's grey subtitle, in a grey that reads on the palette (light or dark).
    html.replace(QStringLiteral("color:#555"),
                 QStringLiteral("color:%1")
                     .arg(browser_->palette().color(QPalette::PlaceholderText).name()));
    explanation_ = html;
    derivation_.clear();
    const Settings& s = workspace_->settings();
    if (run && step && workspace_->selectedRow() >= 0)
        derivation_ = deriveCellHtml(*run->trace, rowLabels(*run), step->info.id,
                                     stepHeadCount(step->info) > 0 ? s.head : 0,
                                     stepBatchCount(step->info) > 0 ? s.batchIndex : 0,
                                     workspace_->selectedRow(), workspace_->selectedColumn());
    QString full = explanation_;
    full += QStringLiteral("<h3>%1</h3>").arg(tr("Where this number comes from"));
    if (derivation_.isEmpty())
        full +=
            QStringLiteral("<p><i>%1</i></p>")
                .arg(tr("Click a cell of the heatmap to see the arithmetic behind its number."));
    else
        full += derivation_;
    browser_->setHtml(full);
}

// ---------------------------------------------------------------------------------------------
// Token view

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
                refresh();
            });
        return;
    }
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

// ---------------------------------------------------------------------------------------------
// PyTorch listing

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
                                                           shown->model, shown->modelRun})
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

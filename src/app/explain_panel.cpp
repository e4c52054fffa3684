#include "app/explain_panel.h"

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

void ExplainPanel::followQuiz(const StepView* view) {
    quiz_ = view;
    connect(view, &StepView::quizCellsChanged, this, &ExplainPanel::refresh);
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
             ExplainPanel::tr("the mean over i &ge; 1 of w<sub>i0</sub> (row 0 sees only the "
                              "first token, so its weight there is always 1): high for an "
                              "attention sink."),
             ExplainPanel::tr("Click a cell of a map or a row of the list to select that head, "
                              "and a column header to sort the list. A text that repeats itself "
                              "(a sentence typed twice, the lessons' repeated words, or Test for "
                              "induction's random tokens said twice) adds an induction score: "
                              "the weight on the token after the previous occurrence of the "
                              "current one."));
}

QString lensHtml() {
    return QStringLiteral("<h3>%1</h3><p>%2</p><p>%3</p><p>%4</p>")
        .arg(ExplainPanel::tr("Logit lens: what each layer would predict"),
             ExplainPanel::tr(
                 "Every block adds what it computes to the residual stream h. The model predicts "
                 "the next token from the last one: <code>logits = final_norm(h) @ "
                 "W_out.T</code>. The logit lens applies the same final norm and output head to "
                 "h after each earlier block, as if the model stopped there."),
             ExplainPanel::tr(
                 "Each cell is the most probable token after the token at the top of its "
                 "column, the darker the more probable; bold marks the text's own next token. "
                 "Read a column downwards to see at which layer the prediction forms."),
             ExplainPanel::tr(
                 "On a repeated text, the copied token often wins only after the layer of the "
                 "induction head: switch that head off (Heads menu) and watch it lose."));
}

}  // namespace

void ExplainPanel::refresh() {
    if (workspace_->settings().modelMode() && page_ != QLatin1String("steps")) {
        explanation_ = page_ == QLatin1String("overview") ? overviewHtml()
                       : page_ == QLatin1String("lens")   ? lensHtml()
                                                          : scoresHtml();
        derivation_.clear();
        browser_->setHtml(explanation_);
        return;
    }
    const TraceRun* run = workspace_->shownRun();
    const Step* step = workspace_->shownStep();
    QString html;
    if (run && step) {
        html = explainStepHtml(*run->trace, step->info.id, inputOriginOf(run->settings));
    } else {
        // Before the first result: explain the step of the settings as planned.
        const Settings& s = workspace_->settings();
        if (validate(s.config, std::max<int64_t>(1, workspace_->tokens().count())).empty())
            html = explainStepHtml(s.config, std::max<int64_t>(1, workspace_->tokens().count()),
                                   s.step.toStdString(), inputOriginOf(s));
    }
    // The explanation's grey subtitle, in a grey that reads on the palette (light or dark).
    html.replace(QStringLiteral("color:#555"),
                 QStringLiteral("color:%1")
                     .arg(browser_->palette().color(QPalette::PlaceholderText).name()));
    explanation_ = html;
    derivation_.clear();
    const Settings& s = workspace_->settings();
    // The quiz's hidden cells, when the heatmap shows this step's matrix.
    std::vector<unsigned char> quizHidden;
    if (quiz_ && step && quiz_->quiz() != StepView::Quiz::Off &&
        quiz_->heatmap()->data().stepId == QString::fromStdString(step->info.id))
        quizHidden = quiz_->heatmap()->data().quizHidden;
    if (run && step && workspace_->selectedRow() >= 0)
        derivation_ = deriveCellHtml(
            *run->trace, rowLabels(*run), step->info.id, stepHeadCount(step->info) > 0 ? s.head : 0,
            stepBatchCount(step->info) > 0 ? s.batchIndex : 0, workspace_->selectedRow(),
            workspace_->selectedColumn(), quizHidden, s.decimals);
    QString full = explanation_;
    full += QStringLiteral("<h3>%1</h3>").arg(explainCellHeading());
    if (derivation_.isEmpty())
        full +=
            QStringLiteral("<p><i>%1</i></p>")
                .arg(tr("Click a cell of the heatmap to see the arithmetic behind its number."));
    else
        full += derivation_;
    browser_->setHtml(full);
}

}  // namespace attn

#include "app/prediction_panel.h"

#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "app/ablation_actions.h"
#include "app/panel_helpers.h"
#include "app/sampling_bar.h"
#include "app/workspace.h"
#include "engine/decoder_forward.h"
#include "pipeline/model_request.h"
#include "teach/head_summaries.h"
#include "teach/model_overview.h"
#include "teach/next_tokens.h"
#include "tokenizer/tokenizer.h"

namespace attn {

PredictionPanel::PredictionPanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    // The switched-off heads above what they change.
    ablationBar_ = new AblationBar(workspace_, this);
    v->addWidget(ablationBar_);
    panel_ = new NextTokensPanel(this);
    panel_->setObjectName(QStringLiteral("nextTokens"));
    v->addWidget(panel_);
    followStale(workspace_, panel_);
    sampling_ = new SamplingBar(workspace_, this);
    v->addWidget(sampling_);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("predictionNote"));
    note_->setWordWrap(true);
    note_->setForegroundRole(QPalette::PlaceholderText);
    note_->hide();
    v->addWidget(note_);
    connect(panel_, &NextTokensPanel::appendRequested, this, &PredictionPanel::append);
    connect(workspace_, &Workspace::resultApplied, this, &PredictionPanel::onResult);
    connect(workspace_, &Workspace::modelChanged, this, &PredictionPanel::onResult);
    // A clicked cell of a token x token matrix picks the query whose next token to predict.
    connect(workspace_, &Workspace::cellSelected, this, [this](int row, int) {
        const DecoderRun* run = shownModelRun(workspace_);
        if (run && row >= 0 && row < run->tokens())
            panel_->setPosition(row);
    });
    onResult();
}

QString PredictionPanel::note() const {
    return note_->isVisible() ? note_->text() : QString();
}

void PredictionPanel::onResult() {
    const DecoderRun* run = shownModelRun(workspace_);
    if (!run) {
        if (!workspace_->settings().modelMode() || !workspace_->model()) {
            panel_->clear();
            shownRun_ = nullptr;
        }
        return;
    }
    if (run != shownRun_) {
        const bool appended = shownRun_ && panel_->position() == int(shownRun_->tokens()) - 1;
        shownRun_ = run;
        panel_->setRun(workspace_->shown()->modelRun, workspace_->shown()->baselineRun);
        // After an Append the prediction follows the text's new end.
        if (appended)
            panel_->setPosition(-1);
    }
}

void PredictionPanel::append(qint64 tokenId) {
    Token t;
    try {
        t = modelToken(workspace_->model().get(), tokenId);
    } catch (const std::out_of_range&) {
        return;  // an id beyond the tokenizer's vocabulary has no text to add
    }
    if (t.partialUtf8) {
        // The text box holds characters: a token that is a piece of one shows as U+FFFD until
        // the rest of the character follows, while the model reads the token itself (its id
        // is kept, Settings::tokenIds).
        note_->setText(
            tr("\u201c%1\u201d is only part of a character (bytes %2): the text shows "
               "\ufffd until the rest of it is appended; the model reads the token itself.")
                .arg(visibleTokenText(t.display, true), QString::fromStdString(t.display)));
        note_->show();
    } else {
        note_->hide();
    }
    std::vector<int64_t> ids = tokenIds(workspace_->tokens().tokens);
    ids.push_back(tokenId);
    workspace_->appendToText(std::move(ids), t.bytes,
                             tr("Append \u201c%1\u201d").arg(visibleTokenText(t.display, false)));
}

}  // namespace attn

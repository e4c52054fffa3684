#include "app/head_scores_page.h"

#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "app/panel_helpers.h"
#include "app/workspace.h"
#include "engine/decoder_forward.h"
#include "teach/head_summaries.h"
#include "teach/model_overview.h"
#include "teach/next_tokens.h"
#include "tokenizer/tokenizer.h"

namespace attn {

HeadScoresPage::HeadScoresPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 4, 6, 2);
    summaries_ = new HeadSummaries(this);
    summaries_->setObjectName(QStringLiteral("headSummaries"));
    v->addWidget(summaries_);
    followStale(workspace_, summaries_);
    connect(summaries_, &HeadSummaries::headSelected, this, [this](int layer, int head) {
        workspace_->selectLayer(layer);
        workspace_->selectHead(head);
        emit headOpened(layer, head);
    });
    connect(workspace_, &Workspace::resultApplied, this, &HeadScoresPage::onResult);
    connect(workspace_, &Workspace::modelChanged, this, &HeadScoresPage::onResult);
    connect(workspace_, &Workspace::settingsChanged, this, [this] {
        const Settings& s = workspace_->settings();
        if (s.modelMode())
            summaries_->setCurrent(s.layer, s.head);
        summaries_->setAblated(s.ablation.heads);
    });
    connect(summaries_, &HeadSummaries::headMenuRequested, this,
            [this](int layer, int head, const QPoint& globalPos) {
                if (!headActions_)
                    return;
                auto* menu = new QMenu(this);
                menu->setAttribute(Qt::WA_DeleteOnClose);
                headActions_(menu, layer, head);
                if (menu->isEmpty())
                    delete menu;
                else
                    menu->popup(globalPos);
            });
    onResult();
}

void HeadScoresPage::onResult() {
    const DecoderRun* run = shownModelRun(workspace_);
    if (!run) {
        if (!workspace_->settings().modelMode() || !workspace_->model()) {
            summaries_->clear();
            shownRun_ = nullptr;
        }
        return;
    }
    if (run != shownRun_) {
        shownRun_ = run;
        summaries_->setRun(workspace_->shown()->modelRun);
    }
    summaries_->setCurrent(workspace_->settings().layer, workspace_->settings().head);
}

}  // namespace attn

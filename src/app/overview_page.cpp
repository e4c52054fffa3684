#include "app/overview_page.h"

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

OverviewPage::OverviewPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 4, 6, 2);
    overview_ = new ModelOverview(this);
    overview_->setObjectName(QStringLiteral("modelOverview"));
    v->addWidget(overview_, 1);
    followStale(workspace_, overview_);
    // On a tile: what can be done to its head (switch it off), then Export; elsewhere Export.
    const auto showMenu = [this](int layer, int head, const QPoint& globalPos) {
        auto* menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        if (layer >= 0 && headActions_) {
            headActions_(menu, layer, head);
            if (!menu->isEmpty())
                menu->addSeparator();
        }
        menu->addAction(tr("Export overview..."), this, &OverviewPage::exportRequested)
            ->setEnabled(shownModelRun(workspace_) != nullptr);
        menu->popup(globalPos);
    };
    overview_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(overview_, &QWidget::customContextMenuRequested, this,
            [this, showMenu](const QPoint& p) { showMenu(-1, -1, overview_->mapToGlobal(p)); });
    connect(overview_, &ModelOverview::tileMenuRequested, this, showMenu);
    // A click selects the head everywhere (step view, token view, status line); a double-click
    // also opens its steps.
    auto select = [this](int layer, int head) {
        workspace_->selectLayer(layer);
        workspace_->selectHead(head);
    };
    connect(overview_, &ModelOverview::tileClicked, this, select);
    connect(overview_, &ModelOverview::currentChanged, this, select);
    connect(overview_, &ModelOverview::tileActivated, this, [this, select](int layer, int head) {
        select(layer, head);
        emit headOpened(layer, head);
    });
    connect(workspace_, &Workspace::layerComputed, this, &OverviewPage::onLayer);
    connect(workspace_, &Workspace::resultApplied, this, &OverviewPage::onResult);
    connect(workspace_, &Workspace::modelChanged, this, &OverviewPage::onResult);
    connect(workspace_, &Workspace::settingsChanged, this, &OverviewPage::followSelection);
    connect(workspace_, &Workspace::settingsChanged, this,
            [this] { overview_->setAblated(workspace_->settings().ablation.heads); });
    onResult();
}

void OverviewPage::setFontScale(double scale) {
    overview_->setFontScale(scale);
}

void OverviewPage::onLayer(const LayerUpdate& update) {
    const auto& model = workspace_->model();
    if (!model)
        return;
    if (update.generation != filling_) {
        // A new forward: empty tiles that fill in as its blocks finish.
        filling_ = update.generation;
        shownRun_ = nullptr;
        overview_->setArchitecture(model->arch);
        followSelection();
    }
    overview_->setLayer(int(update.layer), update.thumbnail);
}

void OverviewPage::onResult() {
    const DecoderRun* run = shownModelRun(workspace_);
    if (!run) {
        if (!workspace_->settings().modelMode() || !workspace_->model()) {
            overview_->clear();
            shownRun_ = nullptr;
            filling_ = 0;
        }
        return;
    }
    if (run != shownRun_) {
        shownRun_ = run;
        overview_->setRun(workspace_->shown()->modelRun);
    }
    followSelection();
}

void OverviewPage::followSelection() {
    const Settings& s = workspace_->settings();
    if (s.modelMode() && overview_->layers() > 0)
        overview_->setCurrent(s.layer, s.head);
}

}  // namespace attn

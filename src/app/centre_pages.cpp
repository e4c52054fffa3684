#include "app/centre_pages.h"

#include <QAction>
#include <QTabBar>

#include "app/export_actions.h"
#include "app/head_scores_page.h"
#include "app/logit_lens_page.h"
#include "app/overview_page.h"
#include "app/step_view.h"
#include "app/workspace.h"
#include "teach/head_summaries.h"
#include "teach/model_overview.h"

namespace attn {

CentrePages::CentrePages(Workspace* workspace, StepView* steps, ExportActions* exports,
                         QWidget* parent)
    : QTabWidget(parent), workspace_(workspace), steps_(steps) {
    setObjectName(QStringLiteral("centreTabs"));
    setDocumentMode(true);
    overview_ = new OverviewPage(workspace_, this);
    scores_ = new HeadScoresPage(workspace_, this);
    lens_ = new LogitLensPage(workspace_, this);
    addTab(steps_, tr("Layer steps"));
    addTab(overview_, tr("All layers"));
    addTab(scores_, tr("Head scores"));
    addTab(lens_, tr("Logit lens"));
    setTabToolTip(0, tr("The selected layer's attention, step by step"));
    setTabToolTip(1, tr("Every layer and head at a glance (double-click a tile to open its "
                        "steps)"));
    setTabToolTip(2, tr("Scores that find previous-token heads, induction heads and attention "
                        "sinks"));
    setTabToolTip(3, tr("What the model would predict after each layer, at every token"));
    auto openHead = [this] { setCurrentWidget(steps_); };
    connect(overview_, &OverviewPage::headOpened, this, openHead);
    connect(scores_, &HeadScoresPage::headOpened, this, openHead);
    // The overview marks the heads the scores single out.
    connect(scores_->summaries(), &HeadSummaries::scoresChanged, this,
            [this] { overview_->overview()->setSummaries(scores_->summaries()->scores()); });
    connect(overview_, &OverviewPage::exportRequested, exports->exportOverviewAction(),
            &QAction::trigger);
    exports->setOverviewOwnScale([this] { return overview_->overview()->ownScale(); });
    connect(workspace_, &Workspace::settingsChanged, this, &CentrePages::refreshModelMode);
    connect(workspace_, &Workspace::modelChanged, this, &CentrePages::refreshModelMode);
    refreshModelMode();
}

bool CentrePages::showPage(const QString& name) {
    QWidget* page = name == QLatin1String("steps")      ? static_cast<QWidget*>(steps_)
                    : name == QLatin1String("overview") ? static_cast<QWidget*>(overview_)
                    : name == QLatin1String("scores")   ? static_cast<QWidget*>(scores_)
                    : name == QLatin1String("lens")     ? static_cast<QWidget*>(lens_)
                                                        : nullptr;
    if (!page)
        return false;
    setCurrentWidget(page);
    return true;
}

bool CentrePages::isSettled() const {
    return !workspace_->settings().modelMode() ||
           (overview_->overview()->tilesReady() && !scores_->summaries()->isComputing());
}

void CentrePages::setFontScale(double scale) {
    overview_->setFontScale(scale);
}

void CentrePages::refreshModelMode() {
    const bool model = workspace_->settings().modelMode();
    for (int i = 1; i < count(); ++i)
        setTabVisible(i, model);
    tabBar()->setVisible(model);
    if (!model)
        setCurrentWidget(steps_);
}

}  // namespace attn

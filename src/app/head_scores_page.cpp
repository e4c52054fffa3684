#include "app/head_scores_page.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "app/field_errors.h"
#include "app/panel_helpers.h"
#include "app/workspace.h"
#include "engine/decoder_forward.h"
#include "engine/decoder_model.h"
#include "pipeline/issue_text.h"
#include "pipeline/model_request.h"
#include "teach/head_summaries.h"
#include "teach/model_overview.h"
#include "teach/next_tokens.h"
#include "tokenizer/tokenizer.h"

namespace attn {

HeadScoresPage::HeadScoresPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 4, 6, 2);
    // The induction test sits above the scores it fills: random tokens said twice, on which an
    // induction head scores near 1 whatever words it was trained on.
    auto* test = new QHBoxLayout;
    test->setContentsMargins(0, 0, 0, 0);
    testButton_ = new QPushButton(tr("&Test for induction"), this);
    testButton_->setObjectName(QStringLiteral("inductionTest"));
    testButton_->setToolTip(
        tr("Replace the text with random tokens of the model said twice (Edit > Undo brings the "
           "text back): an induction head scores near 1 on the second time, whatever words it "
           "was trained on. Each press draws other tokens."));
    testTokens_ = new QSpinBox(this);
    testTokens_->setObjectName(QStringLiteral("inductionTestTokens"));
    testTokens_->setRange(2, 50);
    testTokens_->setValue(50);
    testTokens_->setToolTip(tr("How many random tokens are said twice"));
    auto* tokensLabel = new QLabel(tr("with"), this);
    auto* twiceLabel = new QLabel(tr("random tokens said twice"), this);
    test->addWidget(testButton_);
    test->addWidget(tokensLabel);
    test->addWidget(testTokens_);
    test->addWidget(twiceLabel);
    test->addStretch(1);
    v->addLayout(test);
    testError_ = makeErrorLabel(this, QStringLiteral("error_induction_test"));
    v->addWidget(testError_);
    connect(testButton_, &QPushButton::clicked, this, &HeadScoresPage::runInductionTest);
    connect(workspace_, &Workspace::modelChanged, this, &HeadScoresPage::fitTestToModel);
    fitTestToModel();

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

void HeadScoresPage::fitTestToModel() {
    const auto& model = workspace_->model();
    testButton_->setEnabled(model != nullptr);
    testTokens_->setEnabled(model != nullptr);
    testError_->clear();
    testError_->hide();
    if (!model)
        return;
    // Two copies and the beginning-of-text token fit the model's context.
    const int most = int(std::clamp<int64_t>((model->arch.contextLength - 1) / 2, 2, 200));
    testTokens_->setMaximum(most);
    testTokens_->setValue(std::min(50, most));
}

void HeadScoresPage::runInductionTest() {
    const auto& model = workspace_->model();
    if (!model)
        return;
    Settings s = workspace_->settings();
    try {
        s.inputIds = inductionTestIds(*model, testTokens_->value(), 2, testSeed_);
    } catch (const UserError& e) {
        testError_->setText(errorText(e));
        testError_->show();
        return;
    }
    testError_->hide();
    ++testSeed_;
    s.source = InputSource::Text;
    workspace_->change(s, tr("Test for induction"));
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

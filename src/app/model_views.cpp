#include "app/model_views.h"

#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "app/workspace.h"
#include "engine/gpt_forward.h"
#include "teach/head_summaries.h"
#include "teach/model_overview.h"
#include "teach/next_tokens.h"
#include "tokenizer/tokenizer.h"

namespace attn {

namespace {

const GptRun* modelRunOf(const Workspace* w) {
    const TraceOutcome* shown = w->shown();
    return shown && shown->modelRun && w->settings().modelMode() ? shown->modelRun.get() : nullptr;
}

}  // namespace

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

// ---------------------------------------------------------------------------------------------
// Overview

OverviewPage::OverviewPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 4, 6, 2);
    overview_ = new ModelOverview(this);
    overview_->setObjectName(QStringLiteral("modelOverview"));
    v->addWidget(overview_, 1);
    overview_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(overview_, &QWidget::customContextMenuRequested, this, [this](const QPoint& p) {
        auto* menu = new QMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->addAction(tr("Export overview..."), this, &OverviewPage::exportRequested)
            ->setEnabled(modelRunOf(workspace_) != nullptr);
        menu->popup(overview_->mapToGlobal(p));
    });
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
        overview_->setArchitecture(int(update.layers), int(model->arch.heads));
        followSelection();
    }
    overview_->setLayer(int(update.layer), update.thumbnail);
}

void OverviewPage::onResult() {
    const GptRun* run = modelRunOf(workspace_);
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

// ---------------------------------------------------------------------------------------------
// Head scores

HeadScoresPage::HeadScoresPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 4, 6, 2);
    summaries_ = new HeadSummaries(this);
    summaries_->setObjectName(QStringLiteral("headSummaries"));
    v->addWidget(summaries_);
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
    });
    onResult();
}

void HeadScoresPage::onResult() {
    const GptRun* run = modelRunOf(workspace_);
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

// ---------------------------------------------------------------------------------------------
// Predictions

PredictionPanel::PredictionPanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    panel_ = new NextTokensPanel(this);
    panel_->setObjectName(QStringLiteral("nextTokens"));
    v->addWidget(panel_);
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
        const GptRun* run = modelRunOf(workspace_);
        if (run && row >= 0 && row < run->tokens())
            panel_->setPosition(row);
    });
    onResult();
}

QString PredictionPanel::note() const {
    return note_->isVisible() ? note_->text() : QString();
}

void PredictionPanel::onResult() {
    const GptRun* run = modelRunOf(workspace_);
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
        panel_->setRun(workspace_->shown()->modelRun);
        // After an Append the prediction follows the text's new end.
        if (appended)
            panel_->setPosition(-1);
    }
}

void PredictionPanel::append(qint64 tokenId) {
    Token t;
    try {
        t = gpt2Token(tokenId);
    } catch (const std::out_of_range&) {
        return;  // an id beyond GPT-2's vocabulary has no text to add
    }
    if (t.partialUtf8) {
        // The text box holds characters: a token that is a piece of one cannot be added alone.
        note_->setText(
            tr("\u201c%1\u201d is only part of a character (bytes %2), so it cannot "
               "be added to the text on its own.")
                .arg(visibleTokenText(t.display, true), QString::fromStdString(t.display)));
        note_->show();
        return;
    }
    note_->hide();
    Settings s = workspace_->settings();
    // The text gets the token itself: its ids are kept, so the model reads what it generated.
    s.tokenIds = tokenIds(workspace_->tokens().tokens);
    s.tokenIds.push_back(tokenId);
    s.text = s.inputText() + QString::fromStdString(t.bytes);  // the book's sentence, too
    s.source = InputSource::Text;
    workspace_->change(s, tr("Append \u201c%1\u201d").arg(visibleTokenText(t.display, false)));
}

}  // namespace attn

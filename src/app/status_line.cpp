#include "app/status_line.h"

#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QTimer>

#include "app/workspace.h"
#include "pipeline/model_request.h"

namespace attn {

namespace {

// A variant as briefly as the status bar has room for, in the interface's language (the CLI's
// --variant names in English).
QString shortVariantName(Variant v) {
    switch (v) {
        case Variant::Simplified:
            return StatusLine::tr("simplified");
        case Variant::SelfAttentionV1:
            return StatusLine::tr("self-attention-v1");
        case Variant::SelfAttention:
            return StatusLine::tr("self-attention");
        case Variant::Causal:
            return StatusLine::tr("causal");
        case Variant::MultiHeadWrapper:
            return StatusLine::tr("multi-head-wrapper");
        case Variant::MultiHead:
            return StatusLine::tr("multi-head");
        case Variant::GroupedQuery:
            return StatusLine::tr("grouped-query");
        case Variant::Latent:
            return StatusLine::tr("latent");
        case Variant::Rotary:
            return StatusLine::tr("rotary");
    }
    return QString::fromStdString(variantName(v));
}

// What the settings describe: "multi-head, 12 heads".
QString describe(const Config& c) {
    const QString variant = shortVariantName(c.variant);
    if (!variantHasHeads(c.variant))
        return variant;
    return c.heads == 1 ? StatusLine::tr("%1, 1 head").arg(variant)
                        : StatusLine::tr("%1, %2 heads").arg(variant).arg(c.heads);
}

}  // namespace

StatusLine::StatusLine(Workspace* workspace, QStatusBar* bar)
    : QObject(bar), workspace_(workspace) {
    tokens_ = new QLabel(bar);
    tokens_->setObjectName(QStringLiteral("tokensStatus"));
    module_ = new QLabel(bar);
    module_->setObjectName(QStringLiteral("moduleStatus"));
    time_ = new QLabel(bar);
    time_->setObjectName(QStringLiteral("timeStatus"));
    progress_ = new QProgressBar(bar);
    progress_->setObjectName(QStringLiteral("traceProgress"));
    progress_->setMaximumWidth(220);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), bar);
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    cancel_->setToolTip(tr("Stop the running computation (Esc)"));
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancel_->hide();
    bar->addWidget(tokens_);
    bar->addWidget(module_);
    bar->addWidget(time_);
    // A temporary message takes the labels' place. QStatusBar hides them only when they are
    // visible then: a message shown before the window (a session opened at start) or while
    // the bar was hidden (presentation mode) was painted over them.
    connect(bar, &QStatusBar::messageChanged, this, [this](const QString& message) {
        for (QLabel* label : {tokens_, module_, time_})
            label->setVisible(message.isEmpty());
    });
    bar->addPermanentWidget(progress_);
    bar->addPermanentWidget(cancel_);

    busyDelay_ = new QTimer(this);
    busyDelay_->setSingleShot(true);
    busyDelay_->setInterval(150);  // no progress flicker for fast traces
    connect(busyDelay_, &QTimer::timeout, this, [this] {
        if (!workspace_->isBusy())
            return;
        progress_->show();
        cancel_->show();
    });
    connect(cancel_, &QPushButton::clicked, workspace_, &Workspace::cancel);
    connect(workspace_, &Workspace::busyChanged, this, [this](bool busy) {
        if (busy) {
            progress_->setValue(0);
            busyDelay_->start();
        } else {
            busyDelay_->stop();
            progress_->hide();
            cancel_->hide();
        }
    });
    connect(workspace_, &Workspace::progress, this,
            [this](int done, int total, const QString& step) {
                progress_->setMaximum(std::max(1, total));
                progress_->setValue(done);
                progress_->setFormat(step.isEmpty() ? QStringLiteral("%p%")
                                                    : step + QStringLiteral("  %p%"));
            });
    connect(workspace_, &Workspace::settingsChanged, this, &StatusLine::refresh);
    connect(workspace_, &Workspace::tokensChanged, this, &StatusLine::refresh);
    connect(workspace_, &Workspace::resultApplied, this, &StatusLine::refresh);
    refresh();
}

void StatusLine::refresh() {
    const qsizetype n = workspace_->tokens().count();
    tokens_->setText(n == 1 ? tr("1 token") : tr("%1 tokens").arg(n));
    // The settings as they are now; when they cannot run, say what is shown instead.
    const Settings& s = workspace_->settings();
    if (s.modelMode()) {
        const auto& model = workspace_->model();
        module_->setText(model ? tr("%1, layer %2 (layers 0–%3), %4 heads")
                                     .arg(modelName(s.modelFile))
                                     .arg(s.layer)
                                     .arg(model->arch.layers - 1)
                                     .arg(model->arch.heads)
                               : tr("reading %1...").arg(QFileInfo(s.modelFile).fileName()));
    }
    QString text = describe(workspace_->settings().config);
    const TraceOutcome* shown = workspace_->shown();
    if (workspace_->isStale() && shown &&
        !(shown->run.trace->config == workspace_->settings().config))
        text += QLatin1String("  ") +
                tr("(showing the last valid result: %1)").arg(describe(shown->run.trace->config));
    if (!s.modelMode())
        module_->setText(text);
    const TraceOutcome* last = workspace_->shown();
    if (!workspace_->issues().empty())
        time_->setText(tr("not computed (see the highlighted setting)"));
    else if (last && last->generation == workspace_->appliedGeneration())
        time_->setText(last->traceMs < 10 ? tr("trace %1 ms").arg(last->traceMs, 0, 'f', 2)
                                          : tr("trace %1 ms").arg(last->traceMs, 0, 'f', 0));
    else if (!workspace_->isBusy() && workspace_->appliedGeneration() != 0 && last)
        time_->setText(tr("cancelled"));
}

}  // namespace attn

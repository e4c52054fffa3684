#include "app/text_view_panel.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "app/panel_helpers.h"
#include "app/workspace.h"
#include "pipeline/latest_job.h"
#include "teach/text_view.h"
#include "teach/token_view.h"

namespace attn {

TextViewPanel::TextViewPanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace), job_(std::make_unique<LatestJob>()) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    // The check box and the button on rows of their own, as the token view's "All heads": side
    // by side they set the right column's minimum width, and with it the window's, past a
    // 960-pixel-wide screen.
    mean_ = new QCheckBox(tr("&Mean of all heads"), this);
    mean_->setObjectName(QStringLiteral("textViewMean"));
    mean_->setToolTip(tr("Colour by the mean weight of every head instead of the head shown"));
    save_ = new QPushButton(tr("Save &image..."), this);
    save_->setObjectName(QStringLiteral("textViewSave"));
    save_->setToolTip(tr("Save the coloured text as PNG or SVG, in print colours"));
    v->addWidget(mean_);
    v->addWidget(save_, 0, Qt::AlignLeft);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::RichText);
    v->addWidget(note_);
    view_ = new TextView;
    view_->setObjectName(QStringLiteral("textView"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(view_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    v->addWidget(scroll, 1);
    connect(mean_, &QCheckBox::toggled, this, &TextViewPanel::refresh);
    connect(save_, &QPushButton::clicked, this, &TextViewPanel::saveWithDialog);
    connect(workspace_, &Workspace::settingsChanged, this, &TextViewPanel::refresh);
    connect(workspace_, &Workspace::resultApplied, this, &TextViewPanel::refresh);
    job_->setErrorHandler([this](const QString& error) { note_->setText(error.toHtmlEscaped()); });
}

TextViewPanel::~TextViewPanel() = default;

bool TextViewPanel::isDrawn() const {
    return !job_->busy() && drawnGeneration_ == askedGeneration_;
}

void TextViewPanel::setFontScale(double scale) {
    view_->setFontScale(scale);
}

bool TextViewPanel::saveImage(const QString& path) const {
    return view_->saveImage(path, true);
}

void TextViewPanel::saveWithDialog() {
    QString selected;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save the text view"), QStringLiteral("text_view.png"),
        tr("PNG image (*.png);;SVG image (*.svg)"), &selected);
    if (path.isEmpty())
        return;
    if (!saveImage(path))
        note_->setText(tr("Could not write %1.").arg(path.toHtmlEscaped()));
}

void TextViewPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // A tab brought forward is laid out after its show event: draw once it has its place.
    QMetaObject::invokeMethod(this, &TextViewPanel::refresh, Qt::QueuedConnection);
}

void TextViewPanel::refresh() {
    if (!onScreen(this))
        return;  // drawn when it comes on screen
    const TraceOutcome* shown = workspace_->shown();
    if (!shown)
        return;
    const Trace& t = *shown->run.trace;
    const Settings& s = workspace_->settings();
    const Step* step = workspace_->shownStep();
    const std::string id = tokenViewStepId(t, step ? step->info.id : std::string());
    const int batch = std::max(0, std::min<int>(s.batchIndex, int(t.config.batch) - 1));
    if (shown->generation != askedGeneration_ || batch != drawnBatch_ ||
        step_ != QString::fromStdString(id)) {
        askedGeneration_ = shown->generation;
        drawnBatch_ = batch;
        step_ = QString::fromStdString(id);
        const quint64 generation = shown->generation;
        const QStringList labels = rowLabels(shown->run);
        std::shared_ptr<const Trace> trace = shown->run.trace;
        // At 1,000 tokens and 12 heads the matrices are 48 MB: cut on the thread pool.
        job_->run(
            [trace, batch, id](const CancelToken&) { return tokenViewInput(*trace, batch, id); },
            [this, generation, labels](TokenViewInput in) {
                drawnGeneration_ = generation;
                view_->setAttention(std::move(in.weights), labels, std::move(in.hidden));
                refresh();
            });
        return;
    }
    if (!isDrawn())
        return;
    const bool heads = view_->headCount() > 1;
    mean_->setEnabled(heads);
    view_->setHead(
        heads && mean_->isChecked() ? -1 : std::min(s.head, std::max(0, view_->headCount() - 1)));
    save_->setEnabled(view_->headCount() > 0);
    note_->setText(view_->headCount() == 0
                       ? tr("This configuration has no attention weights to colour the text by.")
                       : tr("Showing <b>%1</b>.").arg(step_));
}

}  // namespace attn

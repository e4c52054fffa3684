#include "app/text_view_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "app/panel_helpers.h"
#include "app/step_view.h"
#include "app/workspace.h"
#include "engine/decoder_forward.h"
#include "export/heatmap_view.h"
#include "pipeline/latest_job.h"
#include "teach/next_tokens.h"
#include "teach/text_view.h"
#include "teach/token_view.h"

namespace attn {

TextViewPanel::TextViewPanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent),
      workspace_(workspace),
      job_(std::make_unique<LatestJob>()),
      lossJob_(std::make_unique<LatestJob>()) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    // The check box and the button on rows of their own, as the token view's "All heads": side
    // by side they set the right column's minimum width, and with it the window's, past a
    // 960-pixel-wide screen.
    colouring_ = new QComboBox(this);
    colouring_->setObjectName(QStringLiteral("textViewColouring"));
    colouring_->addItem(tr("Attention from the clicked token"), int(Colouring::Attention));
    colouring_->addItem(tr("Each token's loss (surprise)"), int(Colouring::Loss));
    colouring_->addItem(tr("Change in loss (heads switched off)"), int(Colouring::LossChange));
    colouring_->setToolTip(
        tr("What colours the tokens. A token's loss is -ln p of it after the tokens before "
           "it: how surprised the model is by it"));
    colouring_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    colouring_->setMinimumContentsLength(16);
    v->addWidget(colouring_);
    connect(colouring_, &QComboBox::activated, this, [this] {
        lossRun_ = nullptr;  // the same run in other colours
        refresh();
    });
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
    followStale(workspace_, view_);  // greyed with the main map while the result is stale
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
    // A clicked heatmap cell picks the query, as it picks the derivation's cell and the
    // position whose next token is predicted: the text shows the row the class looks at.
    connect(workspace_, &Workspace::cellSelected, this, [this](int row, int) {
        if (row >= 0 && row < view_->tokenCount())
            view_->setQuery(row);
    });
    job_->setErrorHandler([this](const QString& error) { note_->setText(error.toHtmlEscaped()); });
}

TextViewPanel::~TextViewPanel() = default;

bool TextViewPanel::isDrawn() const {
    return !job_->busy() && drawnGeneration_ == askedGeneration_;
}

void TextViewPanel::followQuiz(const StepView* view) {
    quiz_ = view;
    connect(view, &StepView::quizCellsChanged, this, &TextViewPanel::refreshQuiz);
    refreshQuiz();
}

void TextViewPanel::refreshQuiz() {
    // A quiz on the matrix the text is coloured by (the shown weights) withholds its rows here too.
    view_->setQuizRows(quizWithheldRows(quiz_, step_, view_->tokenCount()));
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

void TextViewPanel::setColouring(Colouring c) {
    colouring_->setCurrentIndex(colouring_->findData(int(c)));
    lossRun_ = nullptr;
    refresh();
}

TextViewPanel::Colouring TextViewPanel::colouring() const {
    return Colouring(colouring_->currentData().toInt());
}

void TextViewPanel::refresh() {
    if (!onScreen(this))
        return;  // drawn when it comes on screen
    const TraceOutcome* shown = workspace_->shown();
    if (!shown)
        return;
    // Losses belong to a model's forward; a change in loss to one with heads switched off.
    const bool model = shown->modelRun != nullptr;
    const bool ablated = model && shown->baselineRun != nullptr;
    colouring_->setVisible(model);
    if (auto* items = qobject_cast<QStandardItemModel*>(colouring_->model())) {
        items->item(int(Colouring::LossChange))->setEnabled(ablated);
        if (!ablated && colouring() == Colouring::LossChange)
            colouring_->setCurrentIndex(int(Colouring::Loss));
    }
    if (!model && colouring() != Colouring::Attention)
        colouring_->setCurrentIndex(int(Colouring::Attention));
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
                const int row = workspace_->selectedRow();
                if (row >= 0 && row < view_->tokenCount())
                    view_->setQuery(row);  // the clicked row, also for a view opened after
                refresh();
            });
        return;
    }
    if (!isDrawn())
        return;
    if (colouring() != Colouring::Attention) {
        showLosses();
        return;
    }
    if (view_->showsValues())
        view_->setTokenValues({}, false, {});
    lossRun_ = lossBaseline_ = nullptr;
    const bool heads = view_->headCount() > 1;
    mean_->setEnabled(heads);
    mean_->setVisible(true);
    view_->setHead(
        heads && mean_->isChecked() ? -1 : std::min(s.head, std::max(0, view_->headCount() - 1)));
    save_->setEnabled(view_->headCount() > 0);
    refreshQuiz();
    note_->setText(view_->headCount() == 0
                       ? tr("This configuration has no attention weights to colour the text by.")
                       : tr("Showing <b>%1</b>.").arg(step_));
}

void TextViewPanel::showLosses() {
    const TraceOutcome* shown = workspace_->shown();
    mean_->setVisible(false);  // losses have no heads
    const bool change = colouring() == Colouring::LossChange;
    if (shown->modelRun.get() == lossRun_ && shown->baselineRun.get() == lossBaseline_)
        return;  // already shown (or on its way)
    lossRun_ = shown->modelRun.get();
    lossBaseline_ = shown->baselineRun.get();
    note_->setText(tr("Computing each token's loss\u2026"));
    // One product of every position with the output head (twice with heads switched off): off
    // the GUI thread.
    std::vector<HeadRef> off = shown->modelRun->ablation.heads;
    lossJob_->run(
        [run = shown->modelRun, baseline = shown->baselineRun](const CancelToken& cancel) {
            return textLoss(*run, baseline.get(), &cancel);
        },
        [this, change, off](const TextLoss& loss) {
            std::vector<double> values{std::numeric_limits<double>::quiet_NaN()};
            double top = 0;
            for (size_t i = 0; i < loss.tokenLosses.size(); ++i) {
                const double v = change && i < loss.tokenLossesBefore.size()
                                     ? loss.tokenLosses[i] - loss.tokenLossesBefore[i]
                                     : loss.tokenLosses[i];
                values.push_back(v);
                top = std::max(top, std::abs(v));
            }
            QStringList heads;
            for (const HeadRef& r : off)
                heads << tr("L%1H%2").arg(r.layer).arg(r.head);
            const QString caption =
                change ? tr("How each token's loss changed with %1 switched off: red = the "
                            "model finds it harder to predict, blue = easier. Strongest: %2 "
                            "nats. Hover a token for its number.")
                             .arg(heads.join(QStringLiteral(", ")))
                             .arg(top, 0, 'f', 2)
                       : tr("Each token's loss: -ln p of it after the tokens before it, the "
                            "model's surprise. Darkest: %1 nats; the text's mean: %2 nats. "
                            "Hover a token for its number.")
                             .arg(top, 0, 'f', 2)
                             .arg(loss.loss, 0, 'f', 3);
            view_->setTokenValues(std::move(values), change, caption);
            note_->setText(change ? tr("Showing the <b>change in each token's loss</b>.")
                                  : tr("Showing <b>each token's loss</b>."));
            save_->setEnabled(true);
        });
}

}  // namespace attn

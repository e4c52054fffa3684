#include "app/step_view.h"

#include <QMenu>

#include <QBoxLayout>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include "app/panel_helpers.h"
#include "app/workspace.h"
#include "engine/step_ids.h"
#include "export/focus_row_view.h"
#include "export/head_grid.h"
#include "export/heatmap_view.h"
#include "pipeline/issue_text.h"
#include "pipeline/latest_job.h"
#include "pipeline/step_files.h"
#include "teach/derivation.h"
#include "teach/explanations.h"
#include "teach/step_strip.h"

namespace attn {

namespace {

// Slices up to this many cells are cut on the GUI thread (a fraction of a millisecond); larger
// ones on the thread pool, so a 1,000-token map never stalls typing.
constexpr int64_t kSyncSliceCells = int64_t(1) << 16;

QString shapeText(const StepInfo& info) {
    return QString::fromStdString(shapeToString(info.shape));
}

// A one-line rich-text label that shows the longest of its variants that fits its width (rich
// text does not elide): the step, its PyTorch call and its shape; without the call; the step.
class FittingLabel : public QLabel {
  public:
    using QLabel::QLabel;
    void setVariants(const QStringList& variants) {
        variants_ = variants;
        fit();
    }
    QString fullText() const { return variants_.value(0); }

  protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        fit();
    }

  private:
    void fit() {
        QTextDocument doc;
        doc.setDefaultFont(font());
        doc.setDocumentMargin(0);
        for (const QString& v : variants_) {
            doc.setHtml(v);
            if (doc.idealWidth() <= contentsRect().width() || v == variants_.back()) {
                if (text() != v)
                    setText(v);
                return;
            }
        }
        clear();
    }
    QStringList variants_;
};

}  // namespace

// What the heatmap shows now, so a change of colours alone does not slice again.
struct StepView::Shown {
    quint64 generation = 0;  // of the result shown (Workspace::shownGeneration)
    std::string stepId;
    int head = -1;
    int batch = -1;
    QStringList labels;  // of `trace`
    HeatmapData data;
    LatestJob slices;  // a big map is cut on the thread pool
};

StepView::StepView(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace), shown_(std::make_unique<Shown>()) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 4, 6, 2);
    v->setSpacing(4);

    strip_ = new StepStrip(this);
    strip_->setObjectName(QStringLiteral("stepStrip"));
    v->addWidget(strip_);

    // The caption, then the selectors: one row when the width holds both, else the caption on
    // a row of its own above them (fitBar), so neither is cut to "Sca" or "context_head".
    bar_ = new QBoxLayout(QBoxLayout::LeftToRight);
    bar_->setSpacing(8);
    auto* bar = new QHBoxLayout;
    bar->setSpacing(8);
    bar->addStretch(1);
    caption_ = new FittingLabel(this);
    caption_->setObjectName(QStringLiteral("stepCaption"));
    caption_->setTextFormat(Qt::RichText);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    caption_->setMinimumWidth(80);
    caption_->setSizePolicy(QSizePolicy::Ignored,
                            QSizePolicy::Preferred);  // shortens, never widens
    captionRow_ = new QHBoxLayout;
    captionRow_->setSpacing(8);
    captionRow_->addWidget(caption_, 1);
    bar_->addLayout(captionRow_, 1);
    bar_->addLayout(bar);
    controls_ = bar;
    layerLabel_ = new QLabel(tr("La&yer"), this);
    layer_ = new QSpinBox(this);
    layer_->setObjectName(QStringLiteral("stepLayerSpin"));
    layer_->setToolTip(tr("Which block of the model the steps show"));
    layerLabel_->setBuddy(layer_);
    bar->addWidget(layerLabel_);
    bar->addWidget(layer_);
    headLabel_ = new QLabel(tr("Hea&d"), this);
    head_ = new QComboBox(this);
    head_->setObjectName(QStringLiteral("headCombo"));
    head_->setToolTip(tr("The head shown in the large heatmap (or click one beside it)"));
    headLabel_->setBuddy(head_);
    bar->addWidget(headLabel_);
    bar->addWidget(head_);
    batchLabel_ = new QLabel(tr("Batch &entry"), this);
    batch_ = new QSpinBox(this);
    batch_->setObjectName(QStringLiteral("batchIndexSpin"));
    batch_->setToolTip(tr("Which entry of the batch the heatmap shows"));
    batchLabel_->setBuddy(batch_);
    bar->addWidget(batchLabel_);
    bar->addWidget(batch_);
    scale_ = new QComboBox(this);
    scale_->setObjectName(QStringLiteral("colorScaleCombo"));
    scale_->addItem(tr("Scale: matrix"), int(ColorScale::Matrix));
    scale_->addItem(tr("Scale: each row"), int(ColorScale::Row));
    scale_->addItem(tr("Scale: log"), int(ColorScale::Log));
    scale_->setToolTip(
        tr("How values map to colours: one scale for the matrix; each row its own range (long "
           "inputs, where weights spread thin); or logarithmic"));
    // Its full width when there is room; narrower (the text elided) rather than make the window
    // wider than a small or scaled screen.
    scale_->setMinimumWidth(scale_->fontMetrics().averageCharWidth() * 7);
    bar->addWidget(scale_);
    focusButton_ = new QToolButton(this);
    focusButton_->setObjectName(QStringLiteral("focusRowButton"));
    focusButton_->setText(tr("&Focus"));
    focusButton_->setCheckable(true);
    focusButton_->setToolTip(
        tr("Show one query token's row as bars over the keys (click a cell to pick the row)"));
    bar->addWidget(focusButton_);
    v->addLayout(bar_);

    body_ = new QBoxLayout(QBoxLayout::LeftToRight);
    body_->setSpacing(6);
    heatmap_ = new HeatmapView(this);
    heatmap_->setObjectName(QStringLiteral("heatmapView"));
    body_->addWidget(heatmap_, 1);
    side_ = new QBoxLayout(QBoxLayout::TopToBottom);
    heads_ = new HeadGrid(this);
    heads_->setObjectName(QStringLiteral("headGrid"));
    side_->addWidget(heads_, 1);
    derivation_ = new QTextBrowser(this);
    derivation_->setObjectName(QStringLiteral("presentationDerivation"));
    derivation_->setMinimumWidth(derivation_->fontMetrics().averageCharWidth() * 40);
    derivation_->setFrameShape(QFrame::NoFrame);
    derivation_->hide();
    side_->addWidget(derivation_, 1);
    body_->addLayout(side_);
    v->addLayout(body_, 1);
    placeHeads(true);

    focus_ = new FocusRowView(this);
    focus_->setObjectName(QStringLiteral("focusRowView"));
    focus_->hide();
    focus_->installEventFilter(this);
    v->addWidget(focus_);

    hover_ = new QLabel(this);
    hover_->setObjectName(QStringLiteral("hoverLabel"));
    hover_->setTextFormat(Qt::PlainText);
    hover_->setForegroundRole(QPalette::PlaceholderText);
    hover_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    v->addWidget(hover_);
    sentence_ = new QLabel(this);
    sentence_->setObjectName(QStringLiteral("explanationLabel"));
    sentence_->setWordWrap(true);
    sentence_->setAlignment(Qt::AlignCenter);
    sentence_->hide();
    v->addWidget(sentence_);

    connect(strip_, &StepStrip::stepSelected, workspace_, &Workspace::selectStep);
    connect(head_, &QComboBox::activated, workspace_, &Workspace::selectHead);
    connect(layer_, &QSpinBox::valueChanged, workspace_, &Workspace::selectLayer);
    connect(heads_, &HeadGrid::headClicked, workspace_, &Workspace::selectHead);
    // In model mode a head of the grid (one tile per query head) can be switched off.
    const auto queryHeadTiles = [this] {
        const auto& m = workspace_->model();
        return workspace_->settings().modelMode() && m && heads_->headCount() == m->arch.heads;
    };
    connect(heads_, &HeadGrid::headMenuRequested, this,
            [this, queryHeadTiles](int head, const QPoint& globalPos) {
                if (!headActions_ || !queryHeadTiles())
                    return;
                workspace_->selectHead(head);
                auto* menu = new QMenu(this);
                menu->setAttribute(Qt::WA_DeleteOnClose);
                headActions_(menu, workspace_->settings().layer, head);
                if (menu->isEmpty())
                    delete menu;
                else
                    menu->popup(globalPos);
            });
    const auto markOffHeads = [this, queryHeadTiles] {
        std::vector<int> off;
        const Settings& s = workspace_->settings();
        if (queryHeadTiles())
            for (const HeadRef& r : s.ablation.heads)
                if (r.layer == s.layer)
                    off.push_back(int(r.head));
        heads_->setOffHeads(std::move(off));
        // The big map of a switched-off query head is marked as its tile is (a group step's
        // map is the keys or values other heads read too: not crossed out).
        const Step* step = workspace_->shownStep();
        const auto& m = workspace_->model();
        heatmap_->setSwitchedOff(s.modelMode() && m && step && !step->info.headAxisIsGroups() &&
                                 stepHeadCount(step->info) == m->arch.heads &&
                                 s.ablation.contains(s.layer, s.head));
    };
    connect(workspace_, &Workspace::settingsChanged, this, markOffHeads);
    connect(workspace_, &Workspace::resultApplied, this, markOffHeads);
    connect(heads_, &HeadGrid::tilesReady, this, markOffHeads);
    connect(batch_, &QSpinBox::valueChanged, workspace_, &Workspace::selectBatchEntry);
    connect(scale_, &QComboBox::activated, this,
            [this](int i) { workspace_->setColorScale(ColorScale(scale_->itemData(i).toInt())); });
    connect(focusButton_, &QToolButton::toggled, this, &StepView::setFocusRowVisible);
    connect(heatmap_, &HeatmapView::cellHovered, this, [this](int row, int col, float) {
        hover_->setText(row < 0 ? QString() : heatmap_->toolTipForCell(row, col));
    });
    connect(heatmap_, &HeatmapView::cellClicked, this, [this](int row, int col, float) {
        // In a quiz the click that reveals a cell also explains it.
        if (quiz_ != Quiz::Off && heatmap_->data().isQuizHidden(row, col)) {
            const size_t i = size_t(row) * size_t(shown_->data.cols) + size_t(col);
            if (i < revealed_.size())
                revealed_[i] = 1;
            applyQuiz();
        }
        workspace_->selectCell(row, col);
    });
    connect(heatmap_, &HeatmapView::rowLabelClicked, this, [this](int row) {
        workspace_->selectCell(row, std::max(0, shown_->data.cols - 1));
        setFocusRowVisible(true);
    });
    connect(workspace_, &Workspace::cellSelected, this, [this](int row, int col) {
        if (row >= 0)
            heatmap_->setOutlinedCell(row, col);
        else
            heatmap_->clearOutlinedCell();
        if (quiz_ == Quiz::Row)
            applyQuiz();  // the quiz follows the clicked row
        refreshFocusRow();
        refreshDerivation();
    });
    connect(workspace_, &Workspace::settingsChanged, this, &StepView::refresh);
    connect(workspace_, &Workspace::resultApplied, this, &StepView::refresh);
    // With nothing computed, the empty map says why (the settings' first problem, as the note
    // at its control says it) rather than asking for a sentence that is already typed.
    connect(workspace_, &Workspace::resultApplied, this, [this] {
        const std::vector<ValidationIssue>& issues = workspace_->issues();
        heatmap_->setEmptyText(
            issues.empty() ? QString()
                           : tr("Nothing can be computed yet: %1").arg(issueText(issues.front())));
    });
    connect(workspace_, &Workspace::tokensChanged, this, &StepView::refreshPipeline);
    connect(workspace_, &Workspace::staleChanged, heatmap_, &HeatmapView::setStale);
    followStale(workspace_, heads_);  // the thumbnails of a stale result look stale too
    refresh();
}

StepView::~StepView() = default;

QString StepView::caption() const {
    QTextDocument doc;
    doc.setHtml(static_cast<FittingLabel*>(caption_)->fullText());
    return doc.toPlainText().replace(QChar(0xA0), QLatin1Char(' '));
}

QString StepView::hoverText() const {
    return hover_->text();
}

const HeatmapData& StepView::shownData() const {
    return shown_->data;
}

FigureOptions StepView::exportOptions() const {
    FigureOptions o = heatmap_->figureOptions();
    o.colors = FigureColors();  // files keep the white print look in a dark window too
    o.showTitle = true;
    o.fontScale = 1.0;
    o.width = o.height = 0;  // the figure's own size: square cells that hold their numbers
    return o;
}

void StepView::refreshPipeline() {
    const TraceRun* run = workspace_->shownRun();
    std::vector<StepInfo> steps = workspace_->plannedSteps();
    if (steps.empty() && run)
        for (const Step& s : run->trace->steps)
            steps.push_back(s.info);
    strip_->setSteps(steps);
    const Step* step = workspace_->shownStep();
    strip_->setCurrentStep(step ? QString::fromStdString(step->info.id)
                                : workspace_->settings().step);
}

void StepView::refresh() {
    const Settings& s = workspace_->settings();
    refreshPipeline();
    {
        const QSignalBlocker block(scale_);
        scale_->setCurrentIndex(scale_->findData(int(s.colorScale)));
    }
    heatmap_->setShowValues(s.showValues);
    heatmap_->setDecimals(s.decimals);
    heatmap_->setColorScale(s.colorScale);
    if (const auto cm = parseColormap(s.colormap.toStdString()))
        heatmap_->setColormap(*cm);
    else
        heatmap_->setAutoColormap(true);
    heatmap_->setStale(workspace_->isStale());
    // The thumbnails follow the big map's colours: its colormap and scale. Automatic, the big
    // map picks by the shown head's values (showData passes that pick on).
    const std::optional<Colormap> chosen = parseColormap(s.colormap.toStdString());
    heads_->setColormap(chosen ? chosen : std::optional<Colormap>(heatmap_->colormap()));
    heads_->setColorScale(s.colorScale);

    const TraceRun* run = workspace_->shownRun();
    const Step* step = workspace_->shownStep();
    refreshSelectors(step);
    if (!run || !step) {
        static_cast<FittingLabel*>(caption_)->setVariants({});
        showData(HeatmapData{});
        return;
    }
    const StepInfo& info = step->info;
    const QString idHtml =
        QStringLiteral("<b>%1</b>").arg(QString::fromStdString(info.id).toHtmlEscaped());
    const QString gap = QStringLiteral("&nbsp;&nbsp;&nbsp;");
    static_cast<FittingLabel*>(caption_)->setVariants(
        {idHtml + gap +
             QStringLiteral("<code>%1</code>")
                 .arg(QString::fromStdString(info.op).toHtmlEscaped()) +
             gap + shapeText(info),
         idHtml + gap + shapeText(info), idHtml});
    caption_->setToolTip(QString::fromStdString(info.title) + QLatin1Char('\n') + caption());
    fitBar();
    sentence_->setText(stepCaption(info));

    const quint64 generation = workspace_->shownGeneration();
    const int head = stepHeadCount(info) > 0 ? s.head : -1;
    const int batch = stepBatchCount(info) > 0 ? s.batchIndex : -1;
    if (shown_->generation != generation)
        shown_->labels = rowLabels(*run);
    if (shown_->generation == generation && shown_->stepId == info.id && shown_->head == head &&
        shown_->batch == batch) {
        // Same matrix: only its colours or values changed, set above. The projected derivation
        // ends on the cell as it prints, so it follows the decimals.
        refreshDerivation();
        return;
    }
    shown_->generation = generation;
    shown_->stepId = info.id;
    shown_->head = head;
    shown_->batch = batch;
    hover_->clear();

    heads_->setStep(run->trace, info.id, shown_->labels, std::max(0, batch), chosen, s.colorScale);
    heads_->setCurrentHead(std::max(0, head));
    refreshHeadsVisible();

    const int64_t cells = info.shape.size() >= 2 ? info.shape[info.shape.size() - 1] *
                                                       info.shape[info.shape.size() - 2]
                                                 : 1;
    if (cells <= kSyncSliceCells) {
        shown_->slices.cancel();  // a big map still being cut is no longer wanted
        showData(sliceStep(*step, shown_->labels, std::max(0, head), std::max(0, batch),
                           run->trace->find(step_id::kMask)));
        return;
    }
    // A big map is cut on the thread pool; the trace is held until it is done, and a newer
    // request makes this one's result stale.
    std::shared_ptr<const Trace> held = run->trace;
    const std::string id = info.id;
    const QStringList labels = shown_->labels;
    shown_->slices.run(
        [held, id, labels, head, batch](const CancelToken&) {
            return sliceStep(*held->find(id), labels, std::max(0, head), std::max(0, batch),
                             held->find(step_id::kMask));
        },
        [this](const HeatmapData& data) { showData(data); });
}

void StepView::showData(const HeatmapData& data) {
    shown_->data = data;
    if (quiz_ != Quiz::Off)
        applyQuiz();
    else
        heatmap_->setData(data);
    // Automatic, the thumbnails take the pick the big map just made (it read the values once).
    if (!parseColormap(workspace_->settings().colormap.toStdString()))
        heads_->setColormap(heatmap_->colormap());
    refreshFocusRow();
    refreshDerivation();
}

void StepView::setQuiz(Quiz quiz) {
    if (quiz == quiz_)
        return;
    quiz_ = quiz;
    quizKey_.clear();  // a new quiz starts with every cell hidden
    applyQuiz();
    refreshSide();
    emit quizChanged(quiz_);
}

void StepView::revealAll() {
    std::fill(revealed_.begin(), revealed_.end(), 1);
    applyQuiz();
}

int StepView::quizHiddenCells() const {
    const HeatmapData& d = heatmap_->data();
    return int(std::count(d.quizHidden.begin(), d.quizHidden.end(), 1));
}

void StepView::applyQuiz() {
    HeatmapData d = shown_->data;
    const size_t n = size_t(d.rows) * size_t(d.cols);
    if (quiz_ != Quiz::Off && n > 0) {
        // Another matrix (step, head, batch entry or row): hidden again from the start.
        const int row = focusedRow(d.rows);
        const QString key = QStringLiteral("%1/%2/%3/%4x%5/%6")
                                .arg(d.stepId)
                                .arg(d.head)
                                .arg(d.batch)
                                .arg(d.rows)
                                .arg(d.cols)
                                .arg(quiz_ == Quiz::Row ? row : -1);
        if (key != quizKey_ || revealed_.size() != n) {
            quizKey_ = key;
            revealed_.assign(n, 0);
        }
        d.quizHidden.assign(n, 0);
        for (int r = 0; r < d.rows; ++r) {
            if (quiz_ == Quiz::Row && r != row)
                continue;
            for (int c = 0; c < d.cols; ++c) {
                const size_t i = size_t(r) * size_t(d.cols) + size_t(c);
                // A masked cell is no question: the mask says what it is.
                d.quizHidden[i] = !revealed_[i] && !d.isMasked(r, c) ? 1 : 0;
            }
        }
    }
    heatmap_->setData(d);
    emit quizCellsChanged();
}

void StepView::refreshSide() {
    refreshHeadsVisible();
    focus_->setEnabled(quiz_ == Quiz::Off);
    if (quiz_ != Quiz::Off)
        focus_->clear();
    else
        refreshFocusRow();
}

void StepView::refreshSelectors(const Step* step) {
    const int heads = step ? stepHeadCount(step->info) : 0;
    const int entries = step ? stepBatchCount(step->info) : 0;
    const Settings& s = workspace_->settings();
    refreshLayerSelector(workspace_, layerLabel_, layer_);
    {
        const QSignalBlocker block(head_);
        if (head_->count() != heads) {
            head_->clear();
            for (int h = 0; h < heads; ++h)
                head_->addItem(tr("head %1").arg(h));
        }
        head_->setCurrentIndex(std::min(s.head, heads - 1));
    }
    headLabel_->setVisible(heads > 0);
    head_->setVisible(heads > 0);
    {
        const QSignalBlocker block(batch_);
        batch_->setRange(0, std::max(0, entries - 1));
        batch_->setValue(s.batchIndex);
    }
    batchLabel_->setVisible(entries > 1);
    batch_->setVisible(entries > 1);
}

void StepView::setFocusRowVisible(bool on) {
    if (on == isFocusRowVisible())
        return;
    {
        const QSignalBlocker block(focusButton_);
        focusButton_->setChecked(on);
    }
    focus_->setVisible(on);
    refreshFocusRow();
    emit focusRowVisibleChanged(on);
}

bool StepView::isFocusRowVisible() const {
    return !focus_->isHidden();
}

void StepView::refreshFocusRow() {
    if (focus_->isHidden() || quiz_ != Quiz::Off)
        return;  // a quiz's row would be read off the bars
    const HeatmapData& d = shown_->data;
    if (d.isEmpty()) {
        focus_->clear();
        return;
    }
    focus_->setRow(d, focusedRow(d.rows));
}

int StepView::focusedRow(int rows) const {
    // The row of the clicked cell; without one, the last query (it sees every key).
    const int selected = workspace_->selectedRow();
    return selected >= 0 ? std::min(selected, rows - 1) : rows - 1;
}

void StepView::refreshHeadsVisible() {
    // The thumbnails give a quiz's answer away, and presentation mode shows the big map alone.
    const Step* step = workspace_->shownStep();
    heads_->setVisible(!presenting_ && quiz_ == Quiz::Off && step && stepHeadCount(step->info) > 1);
}

void StepView::refreshDerivation() {
    if (!presenting_)
        return;
    const TraceRun* run = workspace_->shownRun();
    const int row = workspace_->selectedRow(), col = workspace_->selectedColumn();
    QString html;
    if (run && row >= 0)
        html = deriveCellHtml(*run->trace, shown_->labels, shown_->stepId,
                              std::max(0, shown_->head), std::max(0, shown_->batch), row, col,
                              heatmap_->data().quizHidden, heatmap_->decimals());
    derivation_->setHtml(html);
    derivation_->setVisible(!html.isEmpty());
}

void StepView::placeHeads(bool beside) {
    // The heads are small multiples, the heatmap stays the largest thing on screen: a narrow
    // column beside it in a wide view, a strip of one row of thumbnails under it in a tall one
    // (a narrow window, or a laptop at 125 % scale), where the heatmap needs the width.
    body_->setDirection(beside ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
    side_->setDirection(beside ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
    const QFontMetrics fm = heads_->fontMetrics();
    if (beside) {
        heads_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
        heads_->setMinimumHeight(0);
        heads_->setMaximumHeight(QWIDGETSIZE_MAX);
        heads_->setFixedWidth(fm.averageCharWidth() * 18);
    } else {
        heads_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        heads_->setMinimumWidth(0);
        heads_->setMaximumWidth(QWIDGETSIZE_MAX);
        heads_->setFixedHeight(fm.averageCharWidth() * 11 + fm.height() + 12);
    }
    headsBeside_ = beside;
}

void StepView::choosePlacement() {
    // The height the heatmap and the heads share: without the focus row's bars, which took it
    // (beside Compare the map shrank to 70 px above a strip of thumbnails).
    const int room = height() - (isFocusRowVisible() ? focus_->height() : 0);
    const bool beside = width() >= room * 9 / 10;
    if (beside != headsBeside_)
        placeHeads(beside);
}

bool StepView::eventFilter(QObject* watched, QEvent* event) {
    // The bars take height from the heatmap as they are laid out: the heads may go beside it.
    if (watched == focus_ && (event->type() == QEvent::Resize || event->type() == QEvent::Hide))
        choosePlacement();
    return QWidget::eventFilter(watched, event);
}

void StepView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    choosePlacement();
    fitBar();
}

void StepView::fitBar() {
    // One row while the caption's full text (or 260 px of it: FittingLabel shortens it to the
    // step and its shape) and the selectors at their full size fit side by side.
    const QString full = static_cast<FittingLabel*>(caption_)->fullText();
    QTextDocument doc;
    doc.setDefaultFont(caption_->font());
    doc.setDocumentMargin(0);
    doc.setHtml(full);
    const int captionNeeds = std::min(int(doc.idealWidth()), 260);
    const bool focusAbove = captionRow_->indexOf(focusButton_) >= 0;
    const int controlsNeed =
        controls_->sizeHint().width() +
        (focusAbove ? focusButton_->sizeHint().width() + controls_->spacing() : 0);
    const bool oneRow = width() >= captionNeeds + controlsNeed + bar_->spacing() + 8;
    const auto direction = oneRow ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (bar_->direction() == direction)
        return;
    bar_->setDirection(direction);
    // On two rows Focus goes up beside the caption: the selectors' row then holds the scale's
    // whole name.
    controls_->removeWidget(focusButton_);
    captionRow_->removeWidget(focusButton_);
    (oneRow ? controls_ : captionRow_)->addWidget(focusButton_);
}

void StepView::setPresentation(bool on, double fontScale) {
    presenting_ = on;
    fontScale_ = on ? fontScale : 1.0;
    heatmap_->setFontScale(fontScale_);
    heatmap_->setPresentationCells(on);
    strip_->setFontScale(fontScale_);
    hover_->setVisible(!on);
    sentence_->setVisible(on);
    QFont f = font();
    if (on) {
        f.setPointSizeF(f.pointSizeF() * 1.4);
        f.setBold(true);
    }
    sentence_->setFont(f);
    refreshHeadsVisible();
    if (!on)
        derivation_->hide();
    refreshDerivation();
}

std::vector<uint8_t> quizWithheldRows(const StepView* quiz, const QString& step, int tokens) {
    std::vector<uint8_t> rows;
    if (!quiz || quiz->quiz() == StepView::Quiz::Off)
        return rows;
    const HeatmapData& d = quiz->heatmap()->data();
    if (d.stepId != step || d.rows != tokens || d.cols != d.rows)
        return rows;
    rows.assign(size_t(d.rows), 0);
    for (int r = 0; r < d.rows; ++r)
        for (int c = 0; c < d.cols; ++c)
            rows[size_t(r)] = rows[size_t(r)] || d.isQuizHidden(r, c);
    return rows;
}

}  // namespace attn

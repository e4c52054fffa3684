#include "app/teaching_docks.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QShortcut>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

#include <qcustomplot.h>

#include "app/heatmap_view.h"
#include "app/main_window.h"
#include "app/trace_controller.h"
#include "cli/pytorch_code.h"
#include "cli/run_options.h"
#include "engine/embeddings.h"
#include "engine/trace.h"
#include "export/heatmap_figure.h"
#include "teach/compare_view.h"
#include "teach/derivation.h"
#include "teach/explanations.h"
#include "teach/lesson.h"
#include "teach/presentation.h"
#include "teach/pytorch_panel.h"
#include "teach/token_view.h"

namespace attn {

namespace {

constexpr double kPresentationScale = 1.6;
constexpr int kFadeMs = 700;

QDockWidget* makeDock(const QString& title, const QString& objectName, QWidget* content,
                      QMainWindow* window) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(objectName);
    dock->setWidget(content);
    dock->setAllowedAreas(Qt::AllDockWidgetAreas);
    return dock;
}

QString maskWords(const MaskSpec& m) {
    switch (m.kind) {
        case MaskKind::None:
            return TeachingDocks::tr("no mask");
        case MaskKind::Causal:
            return TeachingDocks::tr("causal mask");
        case MaskKind::Window:
            return TeachingDocks::tr("window mask (K = %1)").arg(m.window);
    }
    return {};
}

// On screen: open and, when tabbed, the current tab (the other tabs keep isVisible()).
bool showing(const QDockWidget* dock) {
    return dock->isVisible() && !dock->visibleRegion().isEmpty();
}

// The step the heatmap shows (the window falls back to `weights` or the output).
QString shownStepId(MainWindow* w) {
    const QString id = w->heatmapView()->data().stepId;
    return id.isEmpty() ? w->currentStep() : id;
}

}  // namespace

TeachingDocks::TeachingDocks(MainWindow* window) : QObject(window), window_(window) {
    // The bottom area sits under the heatmap only: the input dock keeps the full height.
    window_->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    window_->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    window_->setDockOptions(window_->dockOptions() | QMainWindow::AllowTabbedDocks);

    createExplainDock();
    createTokenDock();
    createPytorchDock();
    createCompareDock();
    createLessonDock();
    createMenus();
    createPresentationKeys();

    window_->addDockWidget(Qt::BottomDockWidgetArea, explainDock_);
    window_->tabifyDockWidget(explainDock_, tokenDock_);
    window_->tabifyDockWidget(tokenDock_, pytorchDock_);
    window_->tabifyDockWidget(pytorchDock_, compareDock_);
    compareDock_->hide();  // View > Compare… opens it
    explainDock_->raise();
    window_->addDockWidget(Qt::RightDockWidgetArea, lessonDock_, Qt::Vertical);
    lessonDock_->hide();
    window_->resizeDocks({explainDock_}, {230}, Qt::Vertical);

    animator_ = new CellFadeAnimator(this);
    animator_->setDuration(kFadeMs);
    connect(animator_, &CellFadeAnimator::frame, this,
            [this](const HeatmapData& d, double) { window_->heatmapView()->setData(d); });

    connect(window_, &MainWindow::viewChanged, this, &TeachingDocks::onViewChanged);
    connect(window_, &MainWindow::resultApplied, this, &TeachingDocks::onResultApplied);
    connect(window_->heatmapView(), &HeatmapView::cellClicked, this,
            [this](int row, int col, float) { showCellDerivation(row, col); });
}

TeachingDocks::~TeachingDocks() = default;

// ---------------------------------------------------------------------------------------------
// Docks

void TeachingDocks::createExplainDock() {
    explain_ = new QTextBrowser;
    explain_->setObjectName(QStringLiteral("explainBrowser"));
    explain_->setOpenExternalLinks(false);
    explain_->setFrameShape(QFrame::NoFrame);
    explainDock_ = makeDock(tr("Explain"), QStringLiteral("explainDock"), explain_, window_);
}

void TeachingDocks::createTokenDock() {
    auto* content = new QWidget;
    auto* v = new QVBoxLayout(content);
    auto* bar = new QHBoxLayout;
    allHeads_ = new QCheckBox(tr("&All heads"), content);
    allHeads_->setObjectName(QStringLiteral("tokenViewAllHeads"));
    allHeads_->setToolTip(tr("Draw every head at once, one colour per head"));
    tokenNote_ = new QLabel(content);
    tokenNote_->setObjectName(QStringLiteral("tokenViewNote"));
    tokenNote_->setWordWrap(true);
    bar->addWidget(allHeads_);
    bar->addWidget(tokenNote_, 1);
    v->addLayout(bar);
    tokenView_ = new TokenView(content);
    tokenView_->setObjectName(QStringLiteral("tokenView"));
    v->addWidget(tokenView_, 1);
    tokenDock_ = makeDock(tr("Token view"), QStringLiteral("tokenDock"), content, window_);
    connect(allHeads_, &QCheckBox::toggled, this, &TeachingDocks::refreshTokenView);
    connect(tokenDock_, &QDockWidget::visibilityChanged, this, [this](bool on) {
        if (!on)
            return;
        growDock(tokenDock_, 0.4);
        refreshTokenView();
    });
}

void TeachingDocks::createPytorchDock() {
    pytorch_ = new PyTorchPanel;
    pytorch_->setObjectName(QStringLiteral("pytorchPanel"));
    pytorchDock_ = makeDock(tr("PyTorch"), QStringLiteral("pytorchDock"), pytorch_, window_);
    connect(pytorchDock_, &QDockWidget::visibilityChanged, this, [this](bool on) {
        if (on)
            refreshPytorch();
    });
}

void TeachingDocks::createCompareDock() {
    auto* content = new QWidget;
    auto* v = new QVBoxLayout(content);
    auto* bar = new QHBoxLayout;
    auto* label = new QLabel(tr("Compare:"), content);
    comparePresetCombo_ = new QComboBox(content);
    comparePresetCombo_->setObjectName(QStringLiteral("comparePreset"));
    comparePresetCombo_->addItem(tr("Masking methods: weights vs weights_renormalized"));
    comparePresetCombo_->addItem(tr("Current vs modified: causal mask vs no mask"));
    comparePresetCombo_->addItem(tr("Current vs modified: multi-head wrapper vs multi-head"));
    comparePresetCombo_->addItem(tr("Current vs modified: d_out 2 vs d_out 768"));
    label->setBuddy(comparePresetCombo_);
    bar->addWidget(label);
    bar->addWidget(comparePresetCombo_);
    bar->addStretch(1);
    v->addLayout(bar);
    compareNote_ = new QLabel(content);
    compareNote_->setObjectName(QStringLiteral("compareNote"));
    compareNote_->setWordWrap(true);
    compareNote_->setTextFormat(Qt::RichText);
    v->addWidget(compareNote_);
    compare_ = new CompareView(content);
    compare_->setObjectName(QStringLiteral("compareView"));
    v->addWidget(compare_, 1);
    compareDock_ = makeDock(tr("Compare"), QStringLiteral("compareDock"), content, window_);

    compareController_ = new TraceController(this);
    connect(compareController_, &TraceController::resultReady, this,
            &TeachingDocks::onCompareResult);
    connect(comparePresetCombo_, &QComboBox::currentIndexChanged, this,
            [this] { refreshCompare(); });
    connect(compareDock_, &QDockWidget::visibilityChanged, this, [this](bool on) {
        if (!on)
            return;
        growDock(compareDock_, 0.5);  // three heatmaps need room
        refreshCompare();
    });
}

void TeachingDocks::createLessonDock() {
    lesson_ = new LessonPanel;
    lesson_->setObjectName(QStringLiteral("lessonPanel"));
    lessonDock_ = makeDock(tr("Chapter 3 tour"), QStringLiteral("lessonDock"), lesson_, window_);
    connect(lesson_, &LessonPanel::screenChanged, this, &TeachingDocks::applyLessonScreen);
    connect(lesson_, &LessonPanel::finished, lessonDock_, &QDockWidget::hide);
}

void TeachingDocks::createMenus() {
    QMenuBar* bar = window_->menuBar();
    QMenu* view = window_->findChild<QMenu*>(QStringLiteral("menuView"));
    QMenu* help = window_->findChild<QMenu*>(QStringLiteral("menuHelp"));
    QAction* presentation = window_->findChild<QAction*>(QStringLiteral("actionPresentation"));

    QAction* explainToggle = explainDock_->toggleViewAction();
    explainToggle->setText(tr("&Explain panel"));
    explainToggle->setShortcut(QKeySequence(tr("Ctrl+3")));
    QAction* tokenToggle = tokenDock_->toggleViewAction();
    tokenToggle->setText(tr("&Token view"));
    tokenToggle->setShortcut(QKeySequence(tr("Ctrl+4")));
    QAction* pytorchToggle = pytorchDock_->toggleViewAction();
    pytorchToggle->setText(tr("Show as P&yTorch"));
    pytorchToggle->setShortcut(QKeySequence(tr("Ctrl+5")));
    compareAction_ = new QAction(tr("&Compare…"), this);
    compareAction_->setObjectName(QStringLiteral("actionCompare"));
    compareAction_->setShortcut(QKeySequence(tr("Ctrl+6")));
    connect(compareAction_, &QAction::triggered, this, [this] {
        compareDock_->show();
        compareDock_->raise();
        refreshCompare();
    });
    if (view) {
        for (QAction* a : {explainToggle, tokenToggle, pytorchToggle, compareAction_})
            view->insertAction(presentation, a);
        view->insertSeparator(presentation);
    }

    lessonAction_ = new QAction(tr("Chapter 3 &guided tour…"), this);
    lessonAction_->setObjectName(QStringLiteral("actionLesson"));
    connect(lessonAction_, &QAction::triggered, this, &TeachingDocks::startLesson);
    auto* next = new QAction(tr("&Next screen"), this);
    next->setObjectName(QStringLiteral("actionLessonNext"));
    next->setShortcut(QKeySequence(tr("Ctrl+]")));
    connect(next, &QAction::triggered, this, [this] {
        if (!lessonDock_->isVisible())
            return startLesson();
        lesson_->next();
    });
    auto* back = new QAction(tr("&Previous screen"), this);
    back->setObjectName(QStringLiteral("actionLessonBack"));
    back->setShortcut(QKeySequence(tr("Ctrl+[")));
    connect(back, &QAction::triggered, lesson_, &LessonPanel::back);
    auto* lessonMenu = new QMenu(tr("&Lesson"), window_);
    lessonMenu->setObjectName(QStringLiteral("menuLesson"));
    lessonMenu->addAction(lessonAction_);
    lessonMenu->addSeparator();
    lessonMenu->addAction(next);
    lessonMenu->addAction(back);
    lessonMenu->addAction(lessonDock_->toggleViewAction());
    lessonDock_->toggleViewAction()->setText(tr("&Lesson panel"));
    if (help) {
        bar->insertMenu(help->menuAction(), lessonMenu);
        help->insertAction(help->actions().value(0), lessonAction_);
        help->insertSeparator(help->actions().value(1));
    } else {
        bar->addMenu(lessonMenu);
    }
    // Shortcuts also work while the menu bar is hidden in full screen.
    for (QAction* a : {explainToggle, tokenToggle, pytorchToggle, compareAction_, next, back})
        window_->addAction(a);
}

void TeachingDocks::createPresentationKeys() {
    auto add = [this](const QKeySequence& key, auto slot) {
        auto* s = new QShortcut(key, window_);
        s->setContext(Qt::WindowShortcut);
        s->setEnabled(false);
        connect(s, &QShortcut::activated, this, slot);
        presentationKeys_ << s;
    };
    add(QKeySequence(Qt::Key_Space), [this] { presentationNext(); });
    add(QKeySequence(Qt::Key_Right), [this] { presentationNext(); });
    add(QKeySequence(Qt::Key_Left), [this] { presentationPrevious(); });
    add(QKeySequence(Qt::Key_Backspace), [this] { presentationPrevious(); });
    add(QKeySequence(Qt::Key_Escape), [this] {
        if (QAction* a = window_->findChild<QAction*>(QStringLiteral("actionPresentation")))
            a->setChecked(false);
    });
}

void TeachingDocks::growDock(QDockWidget* dock, double fraction) {
    // Docked in the bottom area and shorter than `fraction` of the window: make room, once per
    // opening (the user's own splitter position wins afterwards).
    if (dock->isFloating() || window_->dockWidgetArea(dock) != Qt::BottomDockWidgetArea)
        return;
    const int want = int(window_->height() * fraction);
    if (dock->height() < want * 3 / 4)
        window_->resizeDocks({dock}, {want}, Qt::Vertical);
}

// ---------------------------------------------------------------------------------------------
// Updates

void TeachingDocks::onViewChanged() {
    refreshExplain();
    if (showing(tokenDock_))
        refreshTokenView();
    if (showing(compareDock_))
        refreshCompare();
}

void TeachingDocks::onResultApplied() {
    refreshExplain();
    if (showing(pytorchDock_))
        refreshPytorch();
    if (showing(tokenDock_))
        refreshTokenView();
    if (showing(compareDock_))
        refreshCompare();
}

void TeachingDocks::refreshExplain() {
    const AppResult* r = window_->shownResult();
    const std::string id = shownStepId(window_).toStdString();
    QString html;
    if (r && r->trace && r->trace->find(id)) {
        html = explainStepHtml(*r->trace, id);
    } else {
        const AppState s = window_->state();
        const int64_t tokens = r && r->trace ? r->trace->tokens : 6;
        try {
            html = explainStepHtml(s.config, tokens, window_->currentStep().toStdString());
        } catch (const std::exception&) {
            html.clear();
        }
    }
    // The explanation's grey subtitle, in a grey that reads on the palette (light or dark).
    html.replace(QStringLiteral("color:#555"),
                 QStringLiteral("color:%1")
                     .arg(explain_->palette().color(QPalette::PlaceholderText).name()));
    explainHtml_ = html;
    // A derivation belongs to one cell of one step, head and batch: drop it when they change.
    const HeatmapData& d = window_->heatmapView()->data();
    const QString key = QStringLiteral("%1/%2/%3/%4")
                            .arg(d.stepId)
                            .arg(d.head)
                            .arg(d.batch)
                            .arg(r ? r->generation : 0);
    if (key != derivedKey_)
        derivationHtml_.clear();
    QString full = explainHtml_;
    full += QStringLiteral("<h3>%1</h3>").arg(tr("Where this number comes from"));
    if (derivationHtml_.isEmpty())
        full +=
            QStringLiteral("<p><i>%1</i></p>")
                .arg(tr("Click a cell of the heatmap to see the arithmetic behind its number."));
    else
        full += derivationHtml_;
    explain_->setHtml(full);
}

void TeachingDocks::showCellDerivation(int row, int col) {
    const AppResult* r = window_->shownResult();
    if (!r || !r->trace)
        return;
    const HeatmapData& d = window_->heatmapView()->data();
    const std::string id = d.stepId.toStdString();
    derivationHtml_ =
        deriveCellHtml(*r->trace, r->tokenLabels, id, std::max(0, d.head), d.batch, row, col);
    derivedKey_ =
        QStringLiteral("%1/%2/%3/%4").arg(d.stepId).arg(d.head).arg(d.batch).arg(r->generation);
    outlineCell(row, col);
    if (!presenting_) {
        explainDock_->show();
        explainDock_->raise();
    }
    refreshExplain();
    // Show the derivation, not the top of the explanation.
    explain_->scrollToAnchor(QString());
    QTextCursor c = explain_->textCursor();
    c.movePosition(QTextCursor::End);
    explain_->setTextCursor(c);
    explain_->ensureCursorVisible();
}

void TeachingDocks::outlineCell(int row, int col) {
    QCustomPlot* plot = window_->heatmapView()->plot();
    QCPAxisRect* rect = plot ? heatmapAxisRect(plot) : nullptr;
    if (!rect)
        return;
    // A new heatmap (another step, head or result) clears the plot's items and so the outline.
    for (const QPointer<QCPItemRect>& item : outline_)
        if (item)
            plot->removeItem(item.data());
    outline_.clear();
    // White under black: visible on every colormap, light or dark cells.
    for (const auto& [colour, width] :
         {std::pair{QColor(Qt::white), 5.0}, std::pair{QColor(Qt::black), 2.0}}) {
        auto* r = new QCPItemRect(plot);
        r->setClipAxisRect(rect);
        r->setClipToAxisRect(true);
        r->topLeft->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        r->bottomRight->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        r->topLeft->setCoords(col - 0.5, row - 0.5);
        r->bottomRight->setCoords(col + 0.5, row + 0.5);
        QPen pen(colour);
        pen.setWidthF(width);
        pen.setCosmetic(true);
        r->setPen(pen);
        r->setBrush(Qt::NoBrush);
        r->setSelectable(false);
        if (plot->layer(QStringLiteral("overlay")))
            r->setLayer(QStringLiteral("overlay"));
        r->setObjectName(QStringLiteral("clickedCellOutline"));
        outline_ << r;
    }
    plot->replot(QCustomPlot::rpQueuedReplot);
}

bool TeachingDocks::hasCellOutline() const {
    for (const QPointer<QCPItemRect>& item : outline_)
        if (item)
            return true;
    return false;
}

void TeachingDocks::refreshTokenView() {
    const AppResult* r = window_->shownResult();
    if (!r || !r->trace)
        return;
    const Trace& t = *r->trace;
    const AppState s = window_->state();
    const Step* shown = t.find(shownStepId(window_).toStdString());
    std::string id = "weights";
    if (shown && shown->info.kind == StepKind::Weights)
        id = shown->info.id;
    auto weights = tokenViewWeights(t, s.batchIndex, id);
    if (weights.empty() && id != "weights") {
        id = "weights";
        weights = tokenViewWeights(t, s.batchIndex, id);
    }
    tokenStep_ = QString::fromStdString(id);
    tokenView_->setAttention(weights, r->tokenLabels);
    const bool heads = tokenView_->headCount() > 1;
    allHeads_->setEnabled(heads);
    tokenView_->setHead(
        heads && allHeads_->isChecked()
            ? -1
            : std::min(window_->currentHead(), std::max(0, tokenView_->headCount() - 1)));
    QString note;
    if (weights.empty())
        note = tr("This configuration has no attention weights to draw.");
    else if (!shown || shown->info.id != id)
        note = tr("Showing <b>%1</b> (the step selected is not a weight matrix).").arg(tokenStep_);
    else
        note = tr("Showing <b>%1</b>. Hover a token to isolate its lines.").arg(tokenStep_);
    if (heads && !allHeads_->isChecked())
        note += QLatin1Char(' ') + tr("Head %1.").arg(tokenView_->head());
    tokenNote_->setText(note);
}

void TeachingDocks::runSpecFor(const AppResult& result, const QString& embeddingsPath,
                               const QString& weightsPath, RunSpec* spec, PreparedInput* input) {
    const AppRequest& req = result.request;
    const Trace& t = *result.trace;
    spec->config = t.config;
    spec->input.tokenizer = req.tokenizer;
    spec->input.embeddingSeed = req.embeddingSeed;
    spec->input.positions = req.positions;
    spec->input.text = req.text.toStdString();
    switch (req.source) {
        case InputSource::Book:
            spec->input.kind = InputKind::BookPreset;
            break;
        case InputSource::Text:
            spec->input.kind = InputKind::Text;
            break;
        case InputSource::File:
            spec->input.kind = InputKind::Embeddings;
            spec->input.embeddingsPath =
                (embeddingsPath.isEmpty() ? req.fileName : embeddingsPath).toStdString();
            break;
    }
    if (req.weights && !weightsPath.isEmpty())
        spec->weightsPath = weightsPath.toStdString();
    spec->dInGiven = true;
    if (req.source == InputSource::File && req.fileEmbeddings) {
        input->inputs = *req.fileEmbeddings;
    } else if (const Step* x = t.find("inputs")) {
        input->inputs = stepMatrix(*x, 0, 0);  // (T, d_in): the first batch entry
    }
    input->tokens = result.tokens;
    for (const QString& l : result.tokenLabels)
        input->labels.push_back(l.toStdString());
}

void TeachingDocks::refreshPytorch() {
    const AppResult* r = window_->shownResult();
    if (!r || !r->trace)
        return;
    if (r->generation == pytorchGeneration_ && !pytorch_->code().isEmpty())
        return;
    RunSpec spec;
    PreparedInput input;
    runSpecFor(*r, window_->loadedEmbeddingsPath(), window_->loadedWeightsPath(), &spec, &input);
    try {
        pytorch_->setCode(QString::fromStdString(pytorchCode(spec, input, r->trace->config)));
    } catch (const std::exception& e) {
        pytorch_->setCode(
            tr("# The PyTorch code could not be generated: %1").arg(QString::fromUtf8(e.what())));
    }
    pytorchGeneration_ = r->generation;
    emit pytorchUpdated();
}

// ---------------------------------------------------------------------------------------------
// Compare

void TeachingDocks::setComparePreset(ComparePreset preset) {
    if (comparePresetCombo_->currentIndex() != int(preset))
        comparePresetCombo_->setCurrentIndex(int(preset));  // refreshes
    else
        refreshCompare();
}

TeachingDocks::ComparePreset TeachingDocks::comparePreset() const {
    return ComparePreset(std::max(0, comparePresetCombo_->currentIndex()));
}

QString TeachingDocks::compareMessage() const {
    return compareNote_->text();
}

void TeachingDocks::setCompareMessage(const QString& text) {
    compareNote_->setText(text);
    compareNote_->setVisible(!text.isEmpty());
}

void TeachingDocks::refreshCompare() {
    const AppResult* r = window_->shownResult();
    if (!r || !r->trace) {
        compare_->clear();
        setCompareMessage(tr("Nothing computed yet."));
        emit compareUpdated();
        return;
    }
    const Trace& t = *r->trace;
    const AppState s = window_->state();
    const int head = std::max(0, window_->currentHead());
    if (comparePreset() == ComparePreset::MaskingMethods) {
        if (!t.find("weights") || !t.find("weights_renormalized")) {
            compare_->clear();
            setCompareMessage(
                tr("This configuration has no mask, so there is only one way to get the "
                   "weights. Choose a causal or window mask (e.g. the causal attention "
                   "variant) to compare the chapter's two masking methods."));
        } else {
            compare_->setSteps(t, r->tokenLabels, "weights", "weights_renormalized", head,
                               s.batchIndex);
            setCompareMessage(
                tr("Section 3.5.1: masking with -inf before softmax (<b>weights</b>) and the "
                   "simple method — softmax, zero the hidden weights, renormalise the rows "
                   "(<b>weights_renormalized</b>) — give the same weights."));
        }
        emit compareUpdated();
        return;
    }
    // Current vs modified: the modified configuration runs on the second controller.
    if (compareForGeneration_ != r->generation || compareForPreset_ != int(comparePreset())) {
        submitCompare();
        return;
    }
    if (compareWaiting_)
        return;
    if (!compareResult_ || !compareResult_->ok()) {
        compare_->clear();
        QStringList issues;
        if (compareResult_)
            for (const auto& i : compareResult_->issues)
                issues << QString::fromStdString(i.message);
        setCompareMessage(
            tr("The modified configuration cannot be computed: %1")
                .arg(issues.isEmpty() ? tr("cancelled") : issues.join(QStringLiteral("; "))));
        emit compareUpdated();
        return;
    }
    const Trace& tb = *compareResult_->trace;
    const QString stepId = shownStepId(window_);
    const Step* a = t.find(stepId.toStdString());
    const Step* b = tb.find(stepId.toStdString());
    // CompareView titles them "A: …" and "B: …": name only what differs.
    auto describe = [this](const Config& c) {
        switch (comparePreset()) {
            case ComparePreset::MaskNoneCausal:
                return maskWords(c.effectiveMask());
            case ComparePreset::WrapperVsMultiHead:
                return QString::fromStdString(variantClassName(c.variant));
            case ComparePreset::DOut2Vs768:
                return variantHasHeads(c.variant)
                           ? tr("d_out %1, %2 heads").arg(c.dOut).arg(c.heads)
                           : tr("d_out %1").arg(c.dOut);
            case ComparePreset::MaskingMethods:
                break;
        }
        return QString();
    };
    const QString nameA = tr("current, %1").arg(describe(t.config));
    const QString nameB = tr("modified, %1").arg(describe(tb.config));
    if (!a || !b) {
        compare_->clear();
        setCompareMessage(
            tr("<b>%1</b> exists in only one of the two configurations (%2 / %3). "
               "Pick a step both have, e.g. <b>weights</b>.")
                .arg(stepId.toHtmlEscaped(), nameA.toHtmlEscaped(), nameB.toHtmlEscaped()));
        emit compareUpdated();
        return;
    }
    const HeatmapData da = sliceStep(*a, r->tokenLabels, head, s.batchIndex, t.find("mask"));
    const HeatmapData db =
        sliceStep(*b, compareResult_->tokenLabels, head, s.batchIndex, tb.find("mask"));
    compare_->setData(da, nameA, db, nameB);
    if (!compare_->shapesMatch()) {
        setCompareMessage(tr("<b>%1</b> has a different shape in the two configurations "
                             "(A %2 × %3, B %4 × %5), so there is no cell-by-cell difference. "
                             "Steps over tokens × tokens, such as <b>weights</b>, can be compared.")
                              .arg(stepId.toHtmlEscaped())
                              .arg(da.rows)
                              .arg(da.cols)
                              .arg(db.rows)
                              .arg(db.cols));
    } else {
        setCompareMessage(tr("Step <b>%1</b>, head %2: B − A cell by cell (same input and seeds).")
                              .arg(stepId.toHtmlEscaped())
                              .arg(head));
    }
    emit compareUpdated();
}

void TeachingDocks::submitCompare() {
    const AppResult* r = window_->shownResult();
    if (!r || !r->trace)
        return;
    AppRequest req = r->request;
    Config& c = req.config;
    c = r->trace->config;  // what actually ran (d_in, batch from a file)
    switch (comparePreset()) {
        case ComparePreset::MaskNoneCausal:
            c.mask = c.effectiveMask().kind == MaskKind::None ? MaskSpec{MaskKind::Causal, 0}
                                                              : MaskSpec{MaskKind::None, 0};
            break;
        case ComparePreset::WrapperVsMultiHead:
            c.variant =
                c.variant == Variant::MultiHead ? Variant::MultiHeadWrapper : Variant::MultiHead;
            if (c.heads < 1)
                c.heads = 1;
            req.weights.reset();  // other parameter names: drawn from the same seed instead
            break;
        case ComparePreset::DOut2Vs768:
            c.dOut = c.dOut == 768 ? 2 : 768;
            if (c.variant == Variant::MultiHead)
                while (c.heads > 1 && c.dOut % c.heads != 0)
                    --c.heads;
            req.weights.reset();  // other shapes: drawn from the same seed instead
            break;
        case ComparePreset::MaskingMethods:
            return;
    }
    compareForGeneration_ = r->generation;
    compareForPreset_ = int(comparePreset());
    compareWaiting_ = true;
    compareResult_.reset();
    setCompareMessage(tr("Computing the modified configuration…"));
    compareController_->submit(req);
}

void TeachingDocks::onCompareResult(const AppResult& result) {
    compareWaiting_ = false;
    compareResult_ = result;
    refreshCompare();
}

// ---------------------------------------------------------------------------------------------
// Lesson

void TeachingDocks::startLesson() {
    lessonDock_->show();
    lessonDock_->raise();
    if (presenting_)
        lesson_->setFontScale(kPresentationScale);
    lesson_->restart();
}

void TeachingDocks::applyLessonScreen(const LessonScreen& screen) {
    // A lesson runs on the book's inputs with the book's seeds: loaded files are set aside.
    if (QAction* clear = window_->findChild<QAction*>(QStringLiteral("actionClearLoaded"));
        clear && clear->isEnabled())
        clear->trigger();
    AppState s = window_->state();
    s.source = InputSource::Book;
    s.text = QStringLiteral("Your journey starts with one step");
    s.config = screen.config;
    if (!screen.stepId.empty())
        s.step = QString::fromStdString(screen.stepId);
    s.head = std::max(0, screen.head);
    s.batchIndex = std::max(0, screen.batch);
    window_->setState(s);
}

// ---------------------------------------------------------------------------------------------
// Presentation

void TeachingDocks::setPresentation(bool on) {
    if (on == presenting_)
        return;
    presenting_ = on;
    for (QShortcut* s : presentationKeys_)
        s->setEnabled(on);
    if (on) {
        wasMaximized_ = window_->isMaximized();
        geometry_ = window_->saveGeometry();
        lessonWasVisible_ = lessonDock_->isVisible();
        for (QDockWidget* d : {explainDock_, tokenDock_, pytorchDock_, compareDock_})
            d->hide();
        if (!lessonWasVisible_)
            lessonDock_->hide();
        PresentationOptions o;
        o.fontScale = kPresentationScale;
        // Dark system palette: a dark projector theme; light: black on white.
        o.darkBackground = QApplication::palette().color(QPalette::Window).lightness() < 128;
        // Palette and font only: a window style sheet would be simpler, but fonts it sets stick
        // to some widgets (spin boxes, headers) after it is removed.
        hadPalette_ = window_->testAttribute(Qt::WA_SetPalette);
        hadFont_ = window_->testAttribute(Qt::WA_SetFont);
        oldPalette_ = window_->palette();
        oldFont_ = window_->font();
        window_->setPalette(presentationPalette(o));
        QFont big = oldFont_;
        big.setPointSizeF(oldFont_.pointSizeF() * kPresentationScale);
        window_->setFont(big);
        // The step's one-line caption under the heatmap, large enough for the back row.
        if (auto* caption = window_->findChild<QLabel*>(QStringLiteral("explanationLabel"))) {
            QFont f = caption->font();
            f.setPointSizeF(f.pointSizeF() * 1.4);
            f.setBold(true);
            caption->setFont(f);  // the window puts its own font back when presentation ends
        }
        lesson_->setFontScale(kPresentationScale);
        tokenView_->setFontScale(kPresentationScale);
        window_->showFullScreen();
        window_->heatmapView()->setFocus();
    } else {
        animator_->stop();
        // Back to what the window had: inherited from the application unless set before.
        window_->setPalette(hadPalette_ ? oldPalette_ : QPalette());
        window_->setFont(hadFont_ ? oldFont_ : QFont());
        window_->setAttribute(Qt::WA_SetPalette, hadPalette_);
        window_->setAttribute(Qt::WA_SetFont, hadFont_);
        lesson_->setFontScale(1.0);
        tokenView_->setFontScale(1.0);
        if (wasMaximized_) {
            window_->showMaximized();
        } else {
            window_->showNormal();
            window_->restoreGeometry(geometry_);  // not every platform restores it itself
        }
    }
}

bool TeachingDocks::isAnimating() const {
    return animator_->isRunning();
}

QString TeachingDocks::presentationCaption() const {
    const AppResult* r = window_->shownResult();
    if (!r || !r->trace)
        return {};
    const Step* s = r->trace->find(shownStepId(window_).toStdString());
    return s ? stepCaption(s->info) : QString();
}

void TeachingDocks::presentationNext() {
    stepBy(1);
}
void TeachingDocks::presentationPrevious() {
    stepBy(-1);
}

void TeachingDocks::stepBy(int delta) {
    animator_->stop();
    const QStringList steps = window_->pipelineSteps();
    if (steps.isEmpty())
        return;
    const int at = int(steps.indexOf(window_->currentStep()));
    const int to = std::clamp(at < 0 ? 0 : at + delta, 0, int(steps.size()) - 1);
    if (to == at)
        return;
    const HeatmapData from = window_->heatmapView()->data();
    window_->selectStep(steps[to]);
    const HeatmapData target = window_->heatmapView()->data();
    // Scores into weights: the masked cells fade to 0 while the others settle into the softmax.
    const bool fade = delta > 0 && from.kind == StepKind::Scores &&
                      target.kind == StepKind::Weights && from.head == target.head &&
                      from.batch == target.batch;
    if (fade && animator_->setEndpoints(from, target)) {
        connect(
            animator_, &CellFadeAnimator::finished, this,
            [this, target] { window_->heatmapView()->setData(target); }, Qt::SingleShotConnection);
        animator_->start();
    }
}

}  // namespace attn

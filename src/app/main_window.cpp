#include "app/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include "app/export_actions.h"
#include "app/help_actions.h"
#include "app/input_panel.h"
#include "app/language_actions.h"
#include "app/model_picker.h"
#include "app/model_views.h"
#include "app/module_panel.h"
#include "app/presentation_controller.h"
#include "app/session_actions.h"
#include "app/shapes_panel.h"
#include "app/status_line.h"
#include "app/step_view.h"
#include "app/teaching_panels.h"
#include "app/theme_actions.h"
#include "app/workspace.h"
#include "export/head_grid.h"
#include "export/heatmap_view.h"
#include "pipeline/options.h"
#include "teach/head_summaries.h"
#include "teach/lesson.h"
#include "teach/model_overview.h"
#include "teach/next_tokens.h"
#include "teach/pipeline_strip.h"
#include "teach/pytorch_panel.h"
#include "teach/token_view.h"

namespace attn {

namespace {

QDockWidget* makeDock(const QString& title, const QString& objectName, QWidget* content,
                      QMainWindow* window) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(objectName);
    dock->setWidget(content);
    return dock;
}

// The widths the side panels open with, and the least the centre keeps, so that the window with
// every panel fits a 1280 x 720 projector.
constexpr int kLeftWidth = 290;
constexpr int kRightWidth = 300;

}  // namespace

MainWindow::MainWindow(QWidget* parent) : MainWindow(Options{}, parent) {}

MainWindow::MainWindow(Options options, QWidget* parent) : QMainWindow(parent), options_(options) {
    setWindowTitle(tr("Attention Lens"));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    workspace_ = new Workspace(this);
    if (options_.useSettings && options_.restoreSettings)
        workspace_->reset({rememberedSettings(Settings()), {}});

    stepView_ = new StepView(workspace_, this);
    exports_ = new ExportActions(workspace_, stepView_, this);
    sessions_ = new SessionActions(workspace_, this);
    auto* centre = new QWidget(this);
    auto* v = new QVBoxLayout(centre);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(0);
    v->addWidget(sessions_->notesWidget());
    // Model mode adds pages beside the layer's steps: every layer and head, and the head
    // scores. The chapter-3 module has only the steps, so the tab bar is hidden there.
    centreTabs_ = new QTabWidget(centre);
    centreTabs_->setObjectName(QStringLiteral("centreTabs"));
    centreTabs_->setDocumentMode(true);
    overview_ = new OverviewPage(workspace_, centreTabs_);
    scores_ = new HeadScoresPage(workspace_, centreTabs_);
    centreTabs_->addTab(stepView_, tr("Layer steps"));
    centreTabs_->addTab(overview_, tr("All layers"));
    centreTabs_->addTab(scores_, tr("Head scores"));
    centreTabs_->setTabToolTip(0, tr("The selected layer's attention, step by step"));
    centreTabs_->setTabToolTip(1, tr("Every layer and head at a glance (double-click a tile "
                                     "to open its steps)"));
    centreTabs_->setTabToolTip(2, tr("Scores that find previous-token heads, induction heads "
                                     "and attention sinks"));
    v->addWidget(centreTabs_, 1);
    setCentralWidget(centre);
    auto openHead = [this] { centreTabs_->setCurrentWidget(stepView_); };
    connect(overview_, &OverviewPage::headOpened, this, openHead);
    connect(scores_, &HeadScoresPage::headOpened, this, openHead);
    connect(scores_->summaries(), &HeadSummaries::scoresChanged, this,
            [this] { overview_->overview()->setSummaries(scores_->summaries()->scores()); });
    connect(overview_, &OverviewPage::exportRequested, exports_->exportOverviewAction(),
            &QAction::trigger);
    exports_->setOverviewOwnScale([this] { return overview_->overview()->ownScale(); });
    connect(workspace_, &Workspace::settingsChanged, this, &MainWindow::refreshModelMode);
    connect(workspace_, &Workspace::modelChanged, this, &MainWindow::refreshModelMode);
    createDocks();
    presentation_ =
        new PresentationController({this,
                                    workspace_,
                                    stepView_,
                                    dock(QStringLiteral("lessonDock")),
                                    lesson_,
                                    {[this](double s) { tokens_->setFontScale(s); },
                                     [this](double s) { code_->panel()->setFontScale(s); },
                                     [this](double s) { overview_->setFontScale(s); }}},
                                   this);
    createMenus();
    status_ = new StatusLine(workspace_, statusBar());

    HeatmapView* heatmap = stepView_->heatmap();
    heatmap->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(heatmap, &QWidget::customContextMenuRequested, this, [this, heatmap](const QPoint& p) {
        QMenu* menu = exports_->createHeatmapMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(heatmap->mapToGlobal(p));
    });
    connect(explain_, &ExplainPanel::derivationShown, this, [this] {
        if (!presentation_->isOn())
            dock(QStringLiteral("explainDock"))->raise();
    });
    connect(lesson_, &LessonPanel::screenChanged, this, [this](const LessonScreen& screen) {
        workspace_->reset(lessonState(screen, workspace_->settings()));
    });
    if (options_.useSettings)
        restoreLayout();
    refreshModelMode();
}

bool MainWindow::showPage(const QString& name) {
    QWidget* page = name == QLatin1String("steps")      ? static_cast<QWidget*>(stepView_)
                    : name == QLatin1String("overview") ? static_cast<QWidget*>(overview_)
                    : name == QLatin1String("scores")   ? static_cast<QWidget*>(scores_)
                                                        : nullptr;
    if (!page)
        return false;
    centreTabs_->setCurrentWidget(page);
    return true;
}

bool MainWindow::isSettled() const {
    if (workspace_->isBusy() || workspace_->hasPendingWork() || stepView_->headGrid()->isLoading())
        return false;
    if (!workspace_->settings().modelMode())
        return true;
    return overview_->overview()->tilesReady() && !scores_->summaries()->isComputing() &&
           !predictions_->panel()->isComputing();
}

void MainWindow::refreshModelMode() {
    const bool model = workspace_->settings().modelMode();
    for (int i = 1; i < centreTabs_->count(); ++i)
        centreTabs_->setTabVisible(i, model);
    centreTabs_->tabBar()->setVisible(model);
    if (!model)
        centreTabs_->setCurrentWidget(stepView_);
    predictionTitle_->setVisible(model);
    predictions_->setVisible(model);
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::dock(const QString& objectName) const {
    return findChild<QDockWidget*>(objectName, Qt::FindDirectChildrenOnly);
}

void MainWindow::createDocks() {
    // Input and model: one scrolling column, so the window fits small screens and no control is
    // ever squeezed below its size (the panel scrolls instead).
    auto* settings = new QWidget;
    auto* column = new QVBoxLayout(settings);
    picker_ = new ModelPicker(workspace_, settings);
    input_ = new InputPanel(workspace_, settings);
    module_ = new ModulePanel(workspace_, settings);
    column->addWidget(new QLabel(tr("<b>Model</b>"), settings));
    column->addWidget(picker_);
    column->addSpacing(6);
    column->addWidget(new QLabel(tr("<b>Input</b>"), settings));
    column->addWidget(input_);
    column->addSpacing(6);
    predictionTitle_ = new QLabel(tr("<b>Next token</b>"), settings);
    predictions_ = new PredictionPanel(workspace_, settings);
    predictions_->setObjectName(QStringLiteral("predictionPanel"));
    column->addWidget(predictionTitle_);
    column->addWidget(predictions_);
    column->addSpacing(6);
    column->addWidget(new QLabel(tr("<b>Attention module</b>"), settings));
    column->addWidget(module_);
    column->addStretch(1);
    connect(picker_, &ModelPicker::openFileRequested, this, &MainWindow::openModelInteractive);
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("settingsScroll"));
    scroll->setWidget(settings);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As wide as the controls need (their minimum sizes) plus the scroll bar: never clipped.
    scroll->setMinimumWidth(settings->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width() + 4);
    QDockWidget* left = makeDock(tr("Input and model"), QStringLiteral("inputDock"), scroll, this);
    addDockWidget(Qt::LeftDockWidgetArea, left);

    shapes_ = new ShapesPanel(workspace_);
    explain_ = new ExplainPanel(workspace_);
    tokens_ = new TokenViewPanel(workspace_);
    code_ = new CodePanel(workspace_);
    compare_ = new ComparePanel(workspace_);
    lesson_ = new LessonPanel;
    lesson_->setObjectName(QStringLiteral("lessonPanel"));
    QDockWidget* shapes = makeDock(tr("Shapes"), QStringLiteral("shapesDock"), shapes_, this);
    QDockWidget* explain = makeDock(tr("Explain"), QStringLiteral("explainDock"), explain_, this);
    QDockWidget* tokens = makeDock(tr("Token view"), QStringLiteral("tokenDock"), tokens_, this);
    QDockWidget* code = makeDock(tr("PyTorch"), QStringLiteral("pytorchDock"), code_, this);
    QDockWidget* compare = makeDock(tr("Compare"), QStringLiteral("compareDock"), compare_, this);
    QDockWidget* lesson =
        makeDock(tr("Chapter 3 tour"), QStringLiteral("lessonDock"), lesson_, this);
    // One column of tabs on the right: the heatmap keeps the height and most of the width.
    addDockWidget(Qt::RightDockWidgetArea, explain);
    for (QDockWidget* d : {shapes, tokens, code, compare})
        tabifyDockWidget(explain, d);
    addDockWidget(Qt::RightDockWidgetArea, lesson);
    lesson->hide();
    compare->hide();  // View > Compare opens it
    explain->raise();
    connect(lesson_, &LessonPanel::finished, lesson, &QDockWidget::hide);
    // A tab brought to the front gets no show event (it only moves up): draw it then, once
    // it is on top.
    connect(tokens, &QDockWidget::visibilityChanged, tokens_, &TokenViewPanel::refresh,
            Qt::QueuedConnection);
    connect(code, &QDockWidget::visibilityChanged, code_, &CodePanel::refresh,
            Qt::QueuedConnection);
    connect(compare, &QDockWidget::visibilityChanged, compare_, &ComparePanel::refresh,
            Qt::QueuedConnection);
}

// A panel's toggle: shows and raises a hidden or tabbed-behind panel; hides one on top.
QAction* MainWindow::dockAction(QDockWidget* dock, const QString& text,
                                const QKeySequence& shortcut) {
    auto* a = new QAction(text, this);
    a->setObjectName(QStringLiteral("action_") + dock->objectName());
    a->setShortcut(shortcut);
    a->setCheckable(true);
    connect(a, &QAction::triggered, this, [dock, a] {
        const bool onTop = dock->isVisible() && !dock->visibleRegion().isEmpty();
        if (onTop) {
            dock->hide();
        } else {
            dock->show();
            dock->raise();
        }
        a->setChecked(dock->isVisible());
    });
    connect(dock, &QDockWidget::visibilityChanged, a,
            [dock, a] { a->setChecked(!dock->isHidden()); });
    addAction(a);  // works with the menu bar hidden too (presentation mode)
    return a;
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("menuFile"));
    file->addAction(sessions_->openAction());
    file->addMenu(sessions_->recentMenu());
    file->addAction(sessions_->saveAction());
    file->addAction(sessions_->saveAsAction());
    file->addSeparator();
    QAction* openModel =
        file->addAction(tr("Open &model file..."), this, &MainWindow::openModelInteractive);
    openModel->setObjectName(QStringLiteral("actionOpenModel"));
    openModel->setToolTip(tr("Use a trained GPT-2-architecture model (.safetensors or .pth)"));
    QAction* openText =
        file->addAction(tr("Open &text..."), this, &MainWindow::openTextInteractive);
    openText->setObjectName(QStringLiteral("actionOpenText"));
    openText->setToolTip(tr("Use a UTF-8 text file as the sentence"));
    QAction* embeddings =
        file->addAction(tr("Load &embeddings..."), this, [this] { loadFileInteractive(false); });
    embeddings->setObjectName(QStringLiteral("actionLoadEmbeddings"));
    embeddings->setToolTip(
        tr("Use a (T, d_in) or (b, T, d_in) matrix from .npy, .json or .csv "
           "as the input x"));
    QAction* weights =
        file->addAction(tr("Load &weights..."), this, [this] { loadFileInteractive(true); });
    weights->setObjectName(QStringLiteral("actionLoadWeights"));
    weights->setToolTip(tr("Use the module's parameters from a .safetensors or .json state_dict"));
    QAction* forget =
        file->addAction(tr("&Forget loaded files"), workspace_, &Workspace::forgetFiles);
    forget->setObjectName(QStringLiteral("actionForgetFiles"));
    auto refreshForget = [this, forget] {
        forget->setEnabled(workspace_->files().embeddings || workspace_->files().weights);
    };
    connect(workspace_, &Workspace::filesChanged, this, refreshForget);
    refreshForget();
    file->addSeparator();
    file->addAction(exports_->exportImageAction());
    file->addAction(exports_->exportAllAction());
    file->addAction(exports_->exportOverviewAction());
    file->addMenu(exports_->dataMenu());
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close)
        ->setObjectName(QStringLiteral("actionQuit"));

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName(QStringLiteral("menuEdit"));
    QAction* undo = workspace_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = workspace_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(exports_->copyImageAction());
    edit->addSeparator();
    edit->addAction(tr("Edit the &sentence"), QKeySequence(tr("Ctrl+L")), this, [this] {
        dock(QStringLiteral("inputDock"))->show();
        input_->focusText();
    });
    edit->addAction(tr("Go to the &pipeline steps"), QKeySequence(tr("Ctrl+P")), this,
                    [this] { stepView_->pipeline()->setFocus(); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("menuView"));
    const struct {
        const char* dock;
        QString text;
        const char* key;
    } panels[] = {
        {"inputDock", tr("&Input and model"), "Ctrl+1"}, {"shapesDock", tr("&Shapes"), "Ctrl+2"},
        {"explainDock", tr("&Explain"), "Ctrl+3"},       {"tokenDock", tr("&Token view"), "Ctrl+4"},
        {"pytorchDock", tr("P&yTorch"), "Ctrl+5"},       {"compareDock", tr("&Compare"), "Ctrl+6"}};
    for (const auto& p : panels)
        view->addAction(dockAction(dock(QLatin1String(p.dock)), p.text, QKeySequence(tr(p.key))));
    view->addSeparator();
    QMenu* colormaps = view->addMenu(tr("Color&map"));
    auto* group = new QActionGroup(this);
    const QStringList names = {"auto", "viridis", "magma", "cividis", "diverging"};
    const QStringList labels = {tr("&Automatic (by step)"), tr("&Viridis"), tr("&Magma"),
                                tr("&Cividis"), tr("&Diverging")};
    for (int i = 0; i < names.size(); ++i) {
        QAction* a = colormaps->addAction(labels[i]);
        a->setCheckable(true);
        a->setData(names[i]);
        group->addAction(a);
    }
    connect(group, &QActionGroup::triggered, this,
            [this](QAction* a) { workspace_->setColormap(a->data().toString()); });
    QAction* values = view->addAction(tr("Show &values in cells"));
    values->setCheckable(true);
    connect(values, &QAction::toggled, workspace_, &Workspace::setShowValues);
    QAction* focus = view->addAction(tr("&Focus on one query token"));
    focus->setCheckable(true);
    connect(focus, &QAction::toggled, stepView_, &StepView::setFocusRowVisible);
    connect(stepView_, &StepView::focusRowVisibleChanged, focus, &QAction::setChecked);
    view->addAction(tr("&Reset zoom"), stepView_->heatmap(), &HeatmapView::resetZoom);
    auto syncView = [this, group, values] {
        const Settings& s = workspace_->settings();
        for (QAction* a : group->actions())
            a->setChecked(a->data().toString() == s.colormap);
        values->setChecked(s.showValues);
    };
    connect(workspace_, &Workspace::settingsChanged, this, syncView);
    syncView();
    view->addSeparator();
    QAction* present = view->addAction(tr("&Presentation mode"));
    present->setObjectName(QStringLiteral("actionPresentation"));
    present->setShortcut(QKeySequence(Qt::Key_F11));
    present->setCheckable(true);
    addAction(present);  // F11 also leaves full screen, where the menu bar is hidden
    connect(present, &QAction::toggled, presentation_, &PresentationController::setOn);
    connect(presentation_, &PresentationController::toggled, present, &QAction::setChecked);
    view->addSeparator();
    theme_ = new ThemeActions(this);
    view->addMenu(theme_->menu());
    language_ = new LanguageActions(this);
    view->addMenu(language_->menu());

    QMenu* lessonMenu = menuBar()->addMenu(tr("&Lesson"));
    lessonMenu->setObjectName(QStringLiteral("menuLesson"));
    lessonMenu
        ->addAction(tr("&Chapter 3 tour"), QKeySequence(tr("Ctrl+T")), this,
                    &MainWindow::startLesson)
        ->setObjectName(QStringLiteral("actionLesson"));
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("menuHelp"));
    help_ = new HelpActions(this, help);
}

QString MainWindow::fieldError(const QString& field) const {
    return InputPanel::fields().contains(field) ? input_->fieldError(field)
                                                : module_->fieldError(field);
}

void MainWindow::startLesson() {
    QDockWidget* d = dock(QStringLiteral("lessonDock"));
    d->show();
    d->raise();
    lesson_->setFontScale(presentation_->isOn() ? kPresentationFontScale : 1.0);
    lesson_->restart();
}

void MainWindow::loadFileInteractive(bool weights) {
    const QString path = QFileDialog::getOpenFileName(
        this, weights ? tr("Load weights") : tr("Load embeddings"), QString(),
        weights ? tr("Weights (*.json *.safetensors);;All files (*)")
                : tr("Embeddings (*.npy *.json *.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok =
        weights ? workspace_->openWeights(path, &error) : workspace_->openEmbeddings(path, &error);
    input_->setFileError(weights ? QStringLiteral("weights") : QStringLiteral("embeddings"),
                         ok ? QString() : error);
}

void MainWindow::openModelInteractive() {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open model file"), settings.value(QStringLiteral("model/dir")).toString(),
        tr("GPT-2 models (*.safetensors *.pth *.pt *.bin);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("model/dir"), QFileInfo(path).absolutePath());
    workspace_->openModel(path);
}

void MainWindow::openTextInteractive() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open text"), QString(),
                                                      tr("Text files (*.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    try {
        Settings s = workspace_->settings();
        s.text = readUtf8TextFile(path);
        if (s.source != InputSource::Text) {
            s.source = InputSource::Text;
            s.embeddingsFile.clear();
        }
        workspace_->change(s, tr("Open %1").arg(QFileInfo(path).fileName()));
        input_->setFileError(QStringLiteral("input"), QString());
    } catch (const UserError& e) {
        input_->setFileError(QStringLiteral("input"), QString::fromUtf8(e.what()));
    }
}

void MainWindow::fitToScreen() {
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    if (!screen)
        return;
    const QRect avail = screen->availableGeometry();
    QRect frame = frameGeometry();
    const QSize decoration = frame.size() - size();  // title bar and borders, when there are any
    if (!placed_ || frame.width() > avail.width() || frame.height() > avail.height()) {
        // Most of the screen, never more than it: the title bar stays reachable. A laptop or
        // projector screen (up to about 1440 wide) gets all of it: every pixel goes to the
        // heatmap there.
        const int percent = avail.width() <= 1440 ? 100 : 92;
        QSize s =
            placed_ ? size() : QSize(avail.width() * percent / 100, avail.height() * percent / 100);
        s = s.boundedTo(avail.size() - decoration);
        resize(s.expandedTo(minimumSizeHint().boundedTo(avail.size() - decoration)));
        frame = frameGeometry();
    }
    QPoint at = frame.topLeft();
    at.setX(std::clamp(at.x(), avail.left(),
                       std::max(avail.left(), avail.right() - frame.width() + 1)));
    at.setY(std::clamp(at.y(), avail.top(),
                       std::max(avail.top(), avail.bottom() - frame.height() + 1)));
    if (!placed_)
        at = avail.topLeft() +
             QPoint((avail.width() - frame.width()) / 2, (avail.height() - frame.height()) / 2);
    move(at);
    placed_ = true;
}

void MainWindow::restoreLayout() {
    QSettings s;
    placed_ = restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::saveLayout() const {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), presentation_->normalState());
    rememberSettings(workspace_->settings());
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (presentation_->isOn())
        return;
    fitToScreen();
    if (!sized_) {
        // The side panels' first widths (a restored layout brings its own): the docks only take
        // sizes once the window has its own.
        sized_ = true;
        if (!options_.useSettings || QSettings().value(QStringLiteral("window/state")).isNull()) {
            // A narrow window (a laptop at 125 % scale is about 1,090 wide) keeps most of its
            // width for the heatmap: the side panels take up to a fifth each, the right one
            // at least what its tabs' titles need.
            QTabBar titles;  // measures the tabs as the style draws them
            titles.setFont(font());
            for (const char* name : {"explainDock", "shapesDock", "tokenDock", "pytorchDock"})
                titles.addTab(dock(QLatin1String(name))->windowTitle());
            const int tabs = titles.sizeHint().width() + 8;
            resizeDocks({dock(QStringLiteral("inputDock")), dock(QStringLiteral("explainDock"))},
                        {std::min(kLeftWidth, width() / 5),
                         std::min(kRightWidth, std::max(width() / 5, tabs))},
                        Qt::Horizontal);
        }
    }
    // Floating panels restored from the last run open above the window, not behind it.
    for (QDockWidget* d : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
        if (d->isFloating() && d->isVisible())
            d->raise();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!sessions_->maybeSaveChanges()) {
        event->ignore();
        return;
    }
    if (options_.useSettings)
        saveLayout();
    QMainWindow::closeEvent(event);
}

}  // namespace attn

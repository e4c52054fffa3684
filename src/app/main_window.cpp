#include "app/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include "app/ablation_actions.h"
#include "app/centre_pages.h"
#include "app/code_panel.h"
#include "app/compare_panel.h"
#include "app/explain_panel.h"
#include "app/export_actions.h"
#include "app/head_scores_page.h"
#include "app/help_actions.h"
#include "app/input_panel.h"
#include "app/language_actions.h"
#include "app/lesson_driver.h"
#include "app/logit_lens_page.h"
#include "app/model_picker.h"
#include "app/module_panel.h"
#include "app/open_actions.h"
#include "app/overview_page.h"
#include "app/prediction_panel.h"
#include "app/presentation_controller.h"
#include "app/session_actions.h"
#include "app/settings_column.h"
#include "app/shapes_panel.h"
#include "app/status_line.h"
#include "app/step_view.h"
#include "app/text_view_panel.h"
#include "app/theme_actions.h"
#include "app/token_view_panel.h"
#include "app/workspace.h"
#include "export/head_grid.h"
#include "export/heatmap_view.h"
#include "pipeline/model_request.h"
#include "teach/lesson.h"
#include "teach/next_tokens.h"
#include "teach/pytorch_panel.h"
#include "teach/step_strip.h"
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

// The widths the side panels open with, so that the window with every panel fits a 1280 x 720
// projector and leaves the heatmap most of its width.
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
    connect(sessions_, &SessionActions::windowGeometryOpened, this,
            &MainWindow::restoreWindowGeometry);
    opens_ = new OpenActions(workspace_, this);
    auto* centre = new QWidget(this);
    auto* v = new QVBoxLayout(centre);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(0);
    v->addWidget(sessions_->notesWidget());
    pages_ = new CentrePages(workspace_, stepView_, exports_, centre);
    v->addWidget(pages_, 1);
    setCentralWidget(centre);
    createDocks();
    presentation_ =
        new PresentationController({this,
                                    workspace_,
                                    stepView_,
                                    docks_.lesson,
                                    lesson_,
                                    {[this](double s) { tokens_->setFontScale(s); },
                                     [this](double s) { text_->setFontScale(s); },
                                     [this](double s) { code_->panel()->setFontScale(s); },
                                     [this](double s) { pages_->setFontScale(s); }}},
                                   this);
    lessons_ = new LessonDriver(
        workspace_, pages_, lesson_, docks_.lesson,
        [this] { return presentation_->isOn() ? kPresentationFontScale : 1.0; }, this);
    createMenus();
    status_ = new StatusLine(workspace_, statusBar());

    HeatmapView* heatmap = stepView_->heatmap();
    heatmap->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(heatmap, &QWidget::customContextMenuRequested, this, [this, heatmap](const QPoint& p) {
        QMenu* menu = exports_->createHeatmapMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(heatmap->mapToGlobal(p));
    });
    // The Explain panel explains the centre page in view.
    connect(pages_, &QTabWidget::currentChanged, this, [this] {
        const QWidget* page = pages_->currentWidget();
        explain_->setPage(page == pages_->overviewPage()     ? QStringLiteral("overview")
                          : page == pages_->headScoresPage() ? QStringLiteral("scores")
                          : page == pages_->logitLensPage()  ? QStringLiteral("lens")
                                                             : QStringLiteral("steps"));
    });
    connect(explain_, &ExplainPanel::derivationShown, this, [this] {
        if (!presentation_->isOn())
            docks_.explain->raise();
    });
    if (options_.useSettings)
        restoreLayout();
}

bool MainWindow::showPage(const QString& name) {
    return pages_->showPage(name);
}

bool MainWindow::isSettled() const {
    return !workspace_->isBusy() && !workspace_->hasPendingWork() &&
           !stepView_->headGrid()->isLoading() && pages_->isSettled() &&
           !(workspace_->settings().modelMode() && predictionPanel()->panel()->isComputing());
}

MainWindow::~MainWindow() = default;

InputPanel* MainWindow::inputPanel() const {
    return column_->input();
}
ModulePanel* MainWindow::modulePanel() const {
    return column_->module();
}
ModelPicker* MainWindow::modelPicker() const {
    return column_->picker();
}
PredictionPanel* MainWindow::predictionPanel() const {
    return column_->predictions();
}
OverviewPage* MainWindow::overviewPage() const {
    return pages_->overviewPage();
}
HeadScoresPage* MainWindow::headScoresPage() const {
    return pages_->headScoresPage();
}

QDockWidget* MainWindow::dock(const QString& objectName) const {
    for (QDockWidget* d : {docks_.input, docks_.shapes, docks_.explain, docks_.tokens,
                           docks_.pytorch, docks_.compare, docks_.lesson})
        if (d && d->objectName() == objectName)
            return d;
    return nullptr;
}

void MainWindow::createDocks() {
    column_ = new SettingsColumn(workspace_);
    connect(column_->picker(), &ModelPicker::openFileRequested, opens_->openModelAction(),
            &QAction::trigger);
    connect(column_->picker(), &ModelPicker::openFolderRequested, opens_->openModelFolderAction(),
            &QAction::trigger);
    connect(opens_, &OpenActions::fileError, column_->input(), &InputPanel::setFileError);
    QDockWidget* left = makeDock(tr("Input and model"), QStringLiteral("inputDock"), column_, this);
    addDockWidget(Qt::LeftDockWidgetArea, left);
    docks_.input = left;

    shapes_ = new ShapesPanel(workspace_);
    explain_ = new ExplainPanel(workspace_);
    tokens_ = new TokenViewPanel(workspace_);
    code_ = new CodePanel(workspace_);
    compare_ = new ComparePanel(workspace_);
    text_ = new TextViewPanel(workspace_);
    // A quiz's hidden cells stay hidden in the derivation, the coloured text and the lines.
    explain_->followQuiz(stepView_);
    text_->followQuiz(stepView_);
    tokens_->followQuiz(stepView_);
    lesson_ = new LessonPanel;
    lesson_->setObjectName(QStringLiteral("lessonPanel"));
    QDockWidget* shapes = makeDock(tr("Shapes"), QStringLiteral("shapesDock"), shapes_, this);
    QDockWidget* explain = makeDock(tr("Explain"), QStringLiteral("explainDock"), explain_, this);
    tokenPages_ = new QTabWidget;
    tokenPages_->setObjectName(QStringLiteral("tokenPages"));
    tokenPages_->setDocumentMode(true);
    tokenPages_->addTab(tokens_, tr("&Lines"));
    tokenPages_->addTab(text_, tr("Te&xt"));
    tokenPages_->setTabToolTip(0, tr("Lines from each query token to the keys it attends to"));
    tokenPages_->setTabToolTip(
        1, tr("The sentence, each token coloured by the attention it gets from a clicked token"));
    QDockWidget* tokens =
        makeDock(tr("Token view"), QStringLiteral("tokenDock"), tokenPages_, this);
    QDockWidget* code = makeDock(tr("PyTorch"), QStringLiteral("pytorchDock"), code_, this);
    QDockWidget* compare = makeDock(tr("Compare"), QStringLiteral("compareDock"), compare_, this);
    QDockWidget* lesson =
        makeDock(tr("Chapter 3 tour"), QStringLiteral("lessonDock"), lesson_, this);
    // One column of tabs on the right: the heatmap keeps the height and most of the width.
    addDockWidget(Qt::RightDockWidgetArea, explain);
    for (QDockWidget* d : {shapes, tokens, code, compare})
        tabifyDockWidget(explain, d);
    addDockWidget(Qt::RightDockWidgetArea, lesson);
    docks_.shapes = shapes;
    docks_.explain = explain;
    docks_.tokens = tokens;
    docks_.pytorch = code;
    docks_.compare = compare;
    docks_.lesson = lesson;
    lesson->hide();
    compare->hide();  // View > Compare opens it
    explain->raise();
    // A tab brought to the front gets no show event (it only moves up): draw it then, once
    // it is on top.
    connect(tokens, &QDockWidget::visibilityChanged, tokens_, &TokenViewPanel::refresh,
            Qt::QueuedConnection);
    connect(code, &QDockWidget::visibilityChanged, code_, &CodePanel::refresh,
            Qt::QueuedConnection);
    connect(compare, &QDockWidget::visibilityChanged, compare_, &ComparePanel::refresh,
            Qt::QueuedConnection);
    // Three maps need more room than the right column's text: on top, Compare widens the column
    // to two fifths of the window; another tab on top, or Compare closed, gives the width back.
    // Queued: a window that is closing hides its docks, and resizes then would reach a layout
    // being taken down.
    connect(
        compare, &QDockWidget::visibilityChanged, this,
        [this, compare](bool onTop) {
            if (!isVisible() || compare->isFloating() || (presentation_ && presentation_->isOn()))
                return;
            if (onTop && compareWidth_ == 0) {
                compareWidth_ = compare->width();
                // Under a lesson the maps share the column's height with the lesson's text: the
                // column takes half the window (never more than the centre leaves: the window
                // keeps its width), the maps three fifths of its height, the lesson (which
                // scrolls) the rest.
                QDockWidget* lesson = docks_.lesson;
                const bool underLesson = lesson->isVisible() && !lesson->isFloating();
                const int wanted = underLesson ? width() / 2 : width() * 2 / 5;
                if (wanted > compareWidth_)
                    resizeDocks({compare}, {wanted}, Qt::Horizontal);
                if (underLesson) {
                    const int column = compare->height() + lesson->height();
                    resizeDocks({compare, lesson}, {column * 3 / 5, column * 2 / 5}, Qt::Vertical);
                }
            } else if (!onTop && compareWidth_ > 0) {
                // Compare may still be a tab: the column keeps room for every tab's title.
                const int back = std::max(compareWidth_, rightTabsWidth());
                compareWidth_ = 0;
                QDockWidget* explain = docks_.explain;
                if (!explain->isFloating())
                    resizeDocks({explain}, {back}, Qt::Horizontal);
            }
        },
        Qt::QueuedConnection);
    connect(tokens, &QDockWidget::visibilityChanged, text_, &TextViewPanel::refresh,
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
    for (QAction* a :
         {opens_->openModelFolderAction(), opens_->openModelAction(), opens_->openTextAction(),
          opens_->loadEmbeddingsAction(), opens_->loadWeightsAction(), opens_->forgetAction()})
        file->addAction(a);
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
        docks_.input->show();
        column_->input()->focusText();
    });
    edit->addAction(tr("Go to the &pipeline steps"), QKeySequence(tr("Ctrl+P")), this,
                    [this] { stepView_->strip()->setFocus(); });

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
    // The coloured text is the token view's second page: one more tab in the right column
    // would cut every tab's title at 1280 x 720.
    QAction* textView = view->addAction(tr("Te&xt view (coloured tokens)"),
                                        QKeySequence(tr("Ctrl+7")), this, [this] {
                                            QDockWidget* d = docks_.tokens;
                                            d->show();
                                            d->raise();
                                            tokenPages_->setCurrentWidget(text_);
                                        });
    textView->setObjectName(QStringLiteral("actionTextView"));
    addAction(textView);
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
    // The book prints four decimals; two keep the numbers readable in small cells.
    QMenu* decimals = view->addMenu(tr("&Decimals in cells"));
    decimals->setObjectName(QStringLiteral("menuDecimals"));
    auto* decimalGroup = new QActionGroup(this);
    for (int n = kMinDecimals; n <= kMaxDecimals; ++n) {
        QAction* a = decimals->addAction(QString::number(n));
        a->setObjectName(QStringLiteral("actionDecimals%1").arg(n));
        a->setCheckable(true);
        a->setData(n);
        decimalGroup->addAction(a);
    }
    connect(decimalGroup, &QActionGroup::triggered, this,
            [this](QAction* a) { workspace_->setDecimals(a->data().toInt()); });
    QAction* focus = view->addAction(tr("&Focus on one query token"));
    focus->setCheckable(true);
    connect(focus, &QAction::toggled, stepView_, &StepView::setFocusRowVisible);
    connect(stepView_, &StepView::focusRowVisibleChanged, focus, &QAction::setChecked);
    view->addAction(tr("&Reset zoom"), QKeySequence(tr("Ctrl+0")), stepView_->heatmap(),
                    &HeatmapView::resetZoom)
        ->setObjectName(QStringLiteral("actionResetZoom"));
    createQuizMenu(view);
    auto syncView = [this, group, values, decimalGroup] {
        const Settings& s = workspace_->settings();
        for (QAction* a : group->actions())
            a->setChecked(a->data().toString() == s.colormap);
        values->setChecked(s.showValues);
        for (QAction* a : decimalGroup->actions())
            a->setChecked(a->data().toInt() == s.decimals);
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

    // Model mode's head switches: the Heads menu, and each head's context menu in All layers,
    // Head scores and the head grid.
    ablation_ = new AblationActions(workspace_, this);
    menuBar()->addMenu(ablation_->menu());
    const auto headActions = [this](QMenu* menu, int layer, int head) {
        ablation_->addHeadActions(menu, layer, head);
    };
    pages_->overviewPage()->setHeadActions(headActions);
    pages_->headScoresPage()->setHeadActions(headActions);
    stepView_->setHeadActions(headActions);

    QMenu* lessonMenu = menuBar()->addMenu(tr("&Lesson"));
    lessonMenu->setObjectName(QStringLiteral("menuLesson"));
    lessonMenu->addAction(lessons_->chapter3Action());
    lessonMenu->addAction(lessons_->trainedModelAction());
    lessonMenu->addAction(lessons_->afterChapter3Action());
    lessonMenu->addAction(lessons_->whyAction());
    lessonMenu->addAction(lessons_->copyAction());
    lessonMenu->addSeparator();
    lessonMenu->addAction(lessons_->nextAction());
    lessonMenu->addAction(lessons_->previousAction());
    lessonMenu->addSeparator();
    lessonMenu->addAction(lessons_->exportSlidesAction());
    connect(lessons_, &LessonDriver::slidesExported, this,
            [this](const QString& path, const QString& error) {
                statusBar()->showMessage(
                    error.isEmpty()
                        ? tr("Saved the lesson's slides to %1").arg(QDir::toNativeSeparators(path))
                        : tr("The slides were not saved: %1").arg(error),
                    error.isEmpty() ? 5000 : 15000);
            });
    // Presentation mode hides the menu bar: the window keeps the keys.
    addAction(lessons_->nextAction());
    addAction(lessons_->previousAction());
    lessonMenu->setToolTipsVisible(true);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("menuHelp"));
    help_ = new HelpActions(this, help);
}

QString MainWindow::fieldError(const QString& field) const {
    return column_->fieldError(field);
}

void MainWindow::createQuizMenu(QMenu* view) {
    // The class predicts, then the teacher reveals: in presentation mode and in the lessons
    // too, so the keys belong to the window (the menu bar is hidden while presenting).
    QMenu* quiz = view->addMenu(tr("&Quiz"));
    quiz->setObjectName(QStringLiteral("menuQuiz"));
    auto* group = new QActionGroup(this);
    group->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    const auto mode = [&](const QString& text, const QKeySequence& key, StepView::Quiz q,
                          const char* name) {
        QAction* a = quiz->addAction(text);
        a->setObjectName(QLatin1String(name));
        a->setShortcut(key);
        a->setCheckable(true);
        group->addAction(a);
        addAction(a);
        connect(a, &QAction::toggled, this, [this, q](bool on) {
            if (on)
                stepView_->setQuiz(q);
            else if (stepView_->quiz() == q)
                stepView_->setQuiz(StepView::Quiz::Off);
        });
        connect(stepView_, &StepView::quizChanged, a,
                [a, q](StepView::Quiz now) { a->setChecked(now == q); });
    };
    mode(tr("Hide the step's &numbers"), QKeySequence(Qt::Key_F7), StepView::Quiz::Step,
         "actionQuizStep");
    mode(tr("Hide one &row's numbers"), QKeySequence(Qt::SHIFT | Qt::Key_F7), StepView::Quiz::Row,
         "actionQuizRow");
    quiz->addSeparator();
    QAction* reveal = quiz->addAction(tr("&Reveal all"), QKeySequence(Qt::Key_F8), stepView_,
                                      &StepView::revealAll);
    reveal->setObjectName(QStringLiteral("actionQuizReveal"));
    addAction(reveal);
    quiz->setToolTipsVisible(true);
    quiz->setToolTip(tr("Hide the numbers for the class to predict; click a cell to reveal it"));
}

void MainWindow::startLesson(LessonKind kind) {
    lessons_->start(kind);
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
    decoration_ = decoration;
}

bool MainWindow::restoreWindowGeometry(const QByteArray& geometry) {
    if (!restoreGeometry(geometry))
        return false;
    placed_ = true;
    if (isVisible())
        keepFrameOnScreen();
    return true;
}

void MainWindow::keepFrameOnScreen() {
    // Qt places a restored or moved window by its client area and the frame it knew then; on
    // X11 the window manager's title bar arrives later, without a move or resize event, and
    // sat above the screen (y = -20 at 1280 x 720). So the frame is checked now and again once
    // the window manager has had time to frame the window. A window the user moves afterwards
    // is left where it is put.
    for (const int ms : {0, 150, 600, 1500})
        QTimer::singleShot(ms, this, [this] {
            if (!isVisible() || presentation_->isOn() ||
                (windowState() &
                 (Qt::WindowMaximized | Qt::WindowFullScreen | Qt::WindowMinimized)))
                return;
            const QScreen* screen = this->screen();
            if (screen && !screen->availableGeometry().contains(frameGeometry()))
                fitToScreen();
        });
}

bool MainWindow::event(QEvent* event) {
    const bool handled = QMainWindow::event(event);
    const QEvent::Type type = event->type();
    if ((type == QEvent::Move || type == QEvent::Resize) && placed_ && !refitQueued_ &&
        isVisible() && !presentation_->isOn() &&
        !(windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen | Qt::WindowMinimized))) {
        const QScreen* screen = this->screen();
        const QRect frame = frameGeometry();
        const QSize decoration = frame.size() - size();
        // A frame that is new (the window manager's title bar arrived) or larger than the
        // screen: fit again, once the events of this change are through. A window the user
        // moved partly off screen, at a size that fits, stays where it was put.
        if (screen &&
            (decoration != decoration_ || frame.width() > screen->availableGeometry().width() ||
             frame.height() > screen->availableGeometry().height())) {
            refitQueued_ = true;
            QTimer::singleShot(0, this, [this] {
                refitQueued_ = false;
                fitToScreen();
            });
        }
    }
    return handled;
}

void MainWindow::restoreLayout() {
    QSettings s;
    placed_ = restoreWindowGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
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
    keepFrameOnScreen();
    if (!sized_) {
        // The side panels' first widths (a restored layout brings its own): the docks only take
        // sizes once the window has its own.
        sized_ = true;
        if (!options_.useSettings || QSettings().value(QStringLiteral("window/state")).isNull()) {
            // A narrow window (a laptop at 125 % scale is about 1,090 wide) keeps most of its
            // width for the heatmap: the side panels take up to a fifth each, the right one
            // at least what its tabs' titles need.
            const int tabs = rightTabsWidth();
            resizeDocks({docks_.input, docks_.explain},
                        {std::min(kLeftWidth, width() / 5),
                         std::max(tabs, std::min(kRightWidth, width() / 5))},
                        Qt::Horizontal);
        }
    }
    // Floating panels restored from the last run open above the window, not behind it.
    for (QDockWidget* d : findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
        if (d->isFloating() && d->isVisible())
            d->raise();
}

int MainWindow::rightTabsWidth() const {
    QTabBar titles;  // measures the tabs as the style draws them
    titles.setFont(font());
    for (const char* name :
         {"explainDock", "shapesDock", "tokenDock", "pytorchDock", "compareDock"})
        if (QDockWidget* d = dock(QLatin1String(name)); d && !d->isHidden() && !d->isFloating())
            titles.addTab(d->windowTitle());
    return titles.sizeHint().width() + 8;
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

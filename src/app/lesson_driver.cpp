#include "app/lesson_driver.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QKeySequence>
#include <QMainWindow>
#include <QTimer>

#include "app/centre_pages.h"
#include "engine/decoder_forward.h"
#include "engine/head_scores.h"
#include "pipeline/latest_job.h"
#include "pipeline/model_request.h"
#include "teach/lesson.h"
#include "teach/lesson_slides.h"

namespace attn {

WorkspaceState lessonState(const LessonScreen& screen, const Settings& previous,
                           const std::shared_ptr<const DecoderModel>& loaded) {
    WorkspaceState state(lessonScreenSettings(screen, previous), {});
    if (!screen.model.isEmpty() && previous.modelFile == screen.model)
        state.model = loaded;
    return state;
}

LessonDriver::LessonDriver(Workspace* workspace, CentrePages* pages, LessonPanel* lesson,
                           QDockWidget* dock, std::function<double()> fontScale, QObject* parent)
    : QObject(parent),
      workspace_(workspace),
      pages_(pages),
      lesson_(lesson),
      dock_(dock),
      fontScale_(std::move(fontScale)) {
    // A lesson dock that moves while the window lays its docks out (reopened under Compare)
    // left its first picture on the main window's background, under the right column's tab
    // bar, which draws no background of its own: the window repaints what the dock uncovers.
    dock_->installEventFilter(this);
    connect(lesson_, &LessonPanel::screenChanged, this, &LessonDriver::show);
    connect(lesson_, &LessonPanel::finished, dock_, &QDockWidget::hide);
    connect(workspace_, &Workspace::resultApplied, this, &LessonDriver::pickHead);
    chapter3_ = new QAction(tr("&Chapter 3 tour"), this);
    chapter3_->setObjectName(QStringLiteral("actionLesson"));
    chapter3_->setShortcut(QKeySequence(tr("Ctrl+T")));
    connect(chapter3_, &QAction::triggered, this, [this] { start(LessonKind::Chapter3); });
    trained_ = new QAction(tr("Attention in a &trained model"), this);
    trained_->setObjectName(QStringLiteral("actionTrainedModelLesson"));
    connect(trained_, &QAction::triggered, this, [this] { start(LessonKind::TrainedModel); });
    afterChapter3_ = new QAction(tr("&After chapter 3: what changed in attention"), this);
    afterChapter3_->setObjectName(QStringLiteral("actionAfterChapter3Lesson"));
    afterChapter3_->setToolTip(
        tr("Multi-query and grouped-query attention, RoPE, QK-norm, sliding windows and the "
           "latent of MLA, on small examples"));
    connect(afterChapter3_, &QAction::triggered, this,
            [this] { start(LessonKind::AfterChapter3); });
    why_ = new QAction(tr("Asking a model &why"), this);
    why_->setObjectName(QStringLiteral("actionWhyLesson"));
    connect(why_, &QAction::triggered, this, [this] { start(LessonKind::Why); });
    copies_ = new QAction(tr("How a model &copies"), this);
    copies_->setObjectName(QStringLiteral("actionCopyLesson"));
    connect(copies_, &QAction::triggered, this, [this] { start(LessonKind::Copies); });
    next_ = new QAction(tr("&Next screen"), this);
    next_->setObjectName(QStringLiteral("actionLessonNext"));
    next_->setShortcut(QKeySequence(tr("Ctrl+]")));
    connect(next_, &QAction::triggered, lesson_, &LessonPanel::next);
    previous_ = new QAction(tr("&Previous screen"), this);
    previous_->setObjectName(QStringLiteral("actionLessonPrevious"));
    previous_->setShortcut(QKeySequence(tr("Ctrl+[")));
    connect(previous_, &QAction::triggered, lesson_, &LessonPanel::back);
    const auto follow = [this](bool open) {
        next_->setEnabled(open);
        previous_->setEnabled(open);
    };
    follow(false);
    connect(dock_, &QDockWidget::visibilityChanged, this,
            [this, follow] { follow(!dock_->isHidden()); });
    exportSlides_ = new QAction(tr("Export lesson as &PDF slides..."), this);
    exportSlides_->setObjectName(QStringLiteral("actionExportLessonSlides"));
    exportSlides_->setToolTip(
        tr("One page per screen of the lesson open (else the chapter-3 tour): its heatmap and "
           "text, for presenting from a PDF"));
    connect(exportSlides_, &QAction::triggered, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(dock_->window(), tr("Export lesson as PDF slides"),
                                         QStringLiteral("attention-lesson.pdf"), tr("PDF (*.pdf)"));
        if (!path.isEmpty())
            exportSlides(path);
    });
    slidesJob_ = std::make_unique<LatestJob>();
    pickJob_ = std::make_unique<LatestJob>();
    // A lesson that runs on a bundled model: a build that does not ship it cannot start it.
    const auto onBundled = [](QAction* action, const QString& model, const QString& what) {
        const bool bundled = bundledModelNames().contains(model);
        action->setEnabled(bundled);
        action->setToolTip(bundled ? what.arg(model)
                                   : tr("Needs the bundled model %1, which this installation "
                                        "does not have")
                                         .arg(model));
    };
    onBundled(trained_, trainedModelLessonModel(),
              tr("Previous-token and induction heads, the block around attention and the "
                 "next-token prediction, on %1"));
    onBundled(why_, whyLessonModel(),
              tr("Switch heads of %1 off and see what they do: the loss, the logit lens, copying "
                 "and sampling"));
    onBundled(copies_, copyLessonModel(),
              tr("The induction circuit of %1: a previous-token head feeding an induction head, "
                 "switched off and on"));
}

LessonDriver::~LessonDriver() = default;

bool LessonDriver::isExportingSlides() const {
    return slidesJob_->busy();
}

void LessonDriver::exportSlides(const QString& path) {
    const bool open = !dock_->isHidden() && lesson_->count() > 0;
    const std::vector<LessonScreen> screens = open ? lesson_->screens() : chapter3Lesson();
    const QString title = open ? dock_->windowTitle() : tr("Chapter 3 tour");
    const Settings base = workspace_->settings();
    exportSlides_->setEnabled(false);
    slidesJob_->setErrorHandler([this, path](const QString& error) {
        exportSlides_->setEnabled(true);
        emit slidesExported(path, error);
    });
    // The screens' traces and forwards on the thread pool; the pages, which QCustomPlot draws,
    // here.
    slidesJob_->run(
        [screens, base](const CancelToken& cancel) { return lessonSlides(screens, base, &cancel); },
        [this, path, title](std::vector<Slide> slides) {
            exportSlides_->setEnabled(true);
            try {
                writeSlidesPdf(slides, title, path);
                emit slidesExported(path, QString());
            } catch (const std::exception& e) {
                emit slidesExported(path, QString::fromUtf8(e.what()));
            }
        });
}

bool LessonDriver::eventFilter(QObject* watched, QEvent* event) {
    // The event's type first: the dock also sends events while it is being destroyed (a child
    // removed), when it is no longer a QDockWidget to ask anything.
    if ((event->type() == QEvent::Move || event->type() == QEvent::Resize) && watched == dock_ &&
        !dock_->isFloating()) {
        if (QWidget* window = dock_->parentWidget())
            window->update();
    }
    return QObject::eventFilter(watched, event);
}

void LessonDriver::start(LessonKind kind) {
    dock_->setWindowTitle(kind == LessonKind::TrainedModel    ? tr("Trained model tour")
                          : kind == LessonKind::AfterChapter3 ? tr("After chapter 3")
                          : kind == LessonKind::Why           ? tr("Asking a model why")
                          : kind == LessonKind::Copies        ? tr("How a model copies")
                                                              : tr("Chapter 3 tour"));
    dock_->show();
    dock_->raise();
    lesson_->setFontScale(fontScale_());
    if (kind == LessonKind::AfterChapter3) {
        // It ends on the user's own model when one with RoPE (today's families) is open.
        const auto& model = workspace_->model();
        const bool modern = model && model->arch.rope;
        lesson_->setScreens(
            afterChapter3LessonOn(modern ? workspace_->settings().modelFile : QString()));
    } else {
        lesson_->setScreens(lessonScreens(kind));
    }
    lesson_->restart();
}

void LessonDriver::show(const LessonScreen& screen) {
    ++screenNumber_;
    workspace_->reset(lessonState(screen, workspace_->settings(), workspace_->model()));
    // A trained model's screen reads its model first (the state names it; once read, the
    // workspace computes without making it an undo step).
    if (!screen.model.isEmpty() && !workspace_->model())
        workspace_->openModel(screen.model);
    pages_->showPage(screen.page);
    pick_ = int(screen.pick);
    pickHead();
    // Once the new text is laid out in the panel.
    QTimer::singleShot(0, this, [this, number = screenNumber_] {
        if (number == screenNumber_)
            fitDock();
    });
}

void LessonDriver::fitDock() {
    auto* window = qobject_cast<QMainWindow*>(dock_->parentWidget());
    // Presentation mode gives the lesson the column's whole height and fits its text itself.
    if (!window || dock_->isHidden() || dock_->isFloating() || fontScale_() > 1.0)
        return;
    // The panel on top of the tabs above the lesson (Explain, Shapes, Token view, PyTorch):
    // the two share the column's height. Compare on top shares it by its own rule (three
    // fifths for the maps), and a lesson alone in its column has nothing to share.
    QDockWidget* above = nullptr;
    for (const char* name :
         {"explainDock", "shapesDock", "tokenDock", "pytorchDock", "compareDock"})
        if (auto* d = window->findChild<QDockWidget*>(QLatin1String(name));
            d && !d->isHidden() && !d->isFloating() && !d->visibleRegion().isEmpty() &&
            window->dockWidgetArea(d) == window->dockWidgetArea(dock_))
            above = d;
    if (!above || above->objectName() == QLatin1String("compareDock"))
        return;
    // The lesson's text is what the class follows: the panel takes the height its screen's
    // text needs (a short one gives the panel above the room back), up to two thirds of the
    // column and as far as the panel above can shrink.
    const int column = above->height() + dock_->height();
    const int wanted =
        std::min(dock_->height() - lesson_->height() + lesson_->heightToFit(), column * 2 / 3);
    window->resizeDocks({above, dock_}, {column - wanted, wanted}, Qt::Vertical);
}

void LessonDriver::pickHead() {
    if (pick_ == int(LessonHead::Fixed))
        return;
    const TraceOutcome* shown = workspace_->shown();
    if (!shown || !shown->modelRun || workspace_->isStale() || workspace_->hasPendingWork() ||
        shown->generation != workspace_->latestGeneration())
        return;  // picked when the screen's forward is there
    const auto pick = LessonHead(pick_);
    pick_ = int(LessonHead::Fixed);
    // Scoring reads every layer's attention: on the thread pool.
    const std::shared_ptr<const DecoderRun> run = shown->modelRun;
    const quint64 screen = screenNumber_;
    pickJob_->run(
        [run, pick](const CancelToken&) {
            if (pick == LessonHead::BestInduction)
                return highestScore(runInductionScores(*run, run->tokens() / 2),
                                    run->model->arch.heads);
            return strongestPreviousTokenHead(headScores(*run));
        },
        [this, screen](HeadPick best) {
            if (screen != screenNumber_ || !best.valid())
                return;
            workspace_->selectLayer(int(best.layer));
            workspace_->selectHead(int(best.head));
        });
}

}  // namespace attn

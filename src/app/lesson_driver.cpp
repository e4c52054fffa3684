#include "app/lesson_driver.h"

#include <QAction>
#include <QDockWidget>
#include <QFuture>
#include <QKeySequence>
#include <QtConcurrent/QtConcurrentRun>

#include "app/centre_pages.h"
#include "engine/gpt_forward.h"
#include "engine/head_scores.h"
#include "pipeline/model_request.h"
#include "teach/lesson.h"

namespace attn {

WorkspaceState lessonState(const LessonScreen& screen, const Settings& previous,
                           const std::shared_ptr<const GptModel>& loaded) {
    // Loaded files are set aside: a lesson runs on its own input.
    Settings s = previous;
    s.weightsFile.clear();
    s.embeddingsFile.clear();
    if (screen.model.isEmpty()) {
        // Chapter 3: the book's input and seeds, the screen's module.
        s.model.clear();
        s.layer = 0;
        s.source = InputSource::Book;
        s.config = screen.config;
    } else {
        s.model = screen.model;
        s.source = InputSource::Text;
        s.text = screen.text;
        s.layer = screen.layer;
    }
    if (!screen.stepId.empty())
        s.step = QString::fromStdString(screen.stepId);
    s.head = std::max(0, screen.head);
    s.batchIndex = std::max(0, screen.batch);
    WorkspaceState state(s, {});
    if (!screen.model.isEmpty() && previous.model == screen.model)
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
    connect(lesson_, &LessonPanel::screenChanged, this, &LessonDriver::show);
    connect(lesson_, &LessonPanel::finished, dock_, &QDockWidget::hide);
    connect(workspace_, &Workspace::resultApplied, this, &LessonDriver::pickHead);
    chapter3_ = new QAction(tr("&Chapter 3 tour"), this);
    chapter3_->setObjectName(QStringLiteral("actionLesson"));
    chapter3_->setShortcut(QKeySequence(tr("Ctrl+T")));
    connect(chapter3_, &QAction::triggered, this, [this] { start(false); });
    trained_ = new QAction(tr("Attention in a &trained model"), this);
    trained_->setObjectName(QStringLiteral("actionTrainedModelLesson"));
    connect(trained_, &QAction::triggered, this, [this] { start(true); });
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
    // It runs on the bundled model: a build that does not ship it cannot start it.
    const QString model = trainedModelLessonModel();
    const bool bundled = bundledModelNames().contains(model);
    trained_->setEnabled(bundled);
    trained_->setToolTip(bundled ? tr("Previous-token and induction heads, the block around "
                                      "attention and the next-token prediction, on %1")
                                       .arg(model)
                                 : tr("Needs the bundled model %1, which this installation "
                                      "does not have")
                                       .arg(model));
}

void LessonDriver::start(bool trainedModel) {
    dock_->setWindowTitle(trainedModel ? tr("Trained model tour") : tr("Chapter 3 tour"));
    dock_->show();
    dock_->raise();
    lesson_->setFontScale(fontScale_());
    lesson_->setScreens(trainedModel ? trainedModelLesson() : chapter3Lesson());
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
    const std::shared_ptr<const GptRun> run = shown->modelRun;
    const quint64 screen = screenNumber_;
    QtConcurrent::run([run, pick] {
        if (pick == LessonHead::BestInduction)
            return highestScore(runInductionScores(*run, run->tokens() / 2),
                                run->model->arch.heads);
        return strongestPreviousTokenHead(headScores(*run));
    }).then(this, [this, screen](HeadPick best) {
        if (screen != screenNumber_ || !best.valid())
            return;
        workspace_->selectLayer(int(best.layer));
        workspace_->selectHead(int(best.head));
    });
}

}  // namespace attn

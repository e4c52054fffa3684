#include "app/presentation_controller.h"

#include <QApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QScreen>
#include <QShortcut>
#include <QStatusBar>
#include <QTimer>
#include <algorithm>

#include "app/step_view.h"
#include "app/workspace.h"
#include "export/heatmap_view.h"
#include "teach/lesson.h"
#include "teach/step_strip.h"

namespace attn {

namespace {

constexpr int kFadeMs = 700;
// The lesson panel's share of the screen in presentation mode: its text fits at a size a
// class reads, and the heatmap keeps three quarters.
constexpr double kLessonShare = 0.25;

}  // namespace

PresentationController::PresentationController(const Parts& parts, QObject* parent)
    : QObject(parent), parts_(parts) {
    animator_ = new CellFadeAnimator(this);
    animator_->setDuration(kFadeMs);
    connect(animator_, &CellFadeAnimator::frame, this,
            [this](const HeatmapData& d, double) { parts_.view->heatmap()->setData(d); });
    QMainWindow* w = parts_.window;
    auto key = [&](const QKeySequence& seq, auto slot) {
        auto* s = new QShortcut(seq, w);
        s->setContext(Qt::WindowShortcut);
        s->setEnabled(false);
        connect(s, &QShortcut::activated, this, slot);
        keys_ << s;
    };
    // A presenter's clicker sends PageDown and PageUp (some send Space): with a lesson open
    // they move its screens, so text and heatmap stay together; the arrows and Backspace always
    // walk the pipeline's steps.
    key(QKeySequence(Qt::Key_Space), &PresentationController::forward);
    key(QKeySequence(Qt::Key_PageDown), &PresentationController::forward);
    key(QKeySequence(Qt::Key_PageUp), &PresentationController::backward);
    key(QKeySequence(Qt::Key_Right), &PresentationController::next);
    key(QKeySequence(Qt::Key_Left), &PresentationController::previous);
    key(QKeySequence(Qt::Key_Backspace), &PresentationController::previous);
    key(QKeySequence(Qt::Key_Escape), [this] { setOn(false); });
}

QByteArray PresentationController::normalState() const {
    return on_ ? state_ : parts_.window->saveState();
}

void PresentationController::setOn(bool on) {
    if (on == on_)
        return;
    on_ = on;
    QMainWindow* w = parts_.window;
    for (QShortcut* s : keys_)
        s->setEnabled(on);
    if (on) {
        wasMaximized_ = w->isMaximized();
        geometry_ = w->saveGeometry();
        state_ = w->saveState();
        lessonWasVisible_ = parts_.lessonDock && parts_.lessonDock->isVisible();
        for (QDockWidget* d : w->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
            if (d != parts_.lessonDock || !lessonWasVisible_)
                d->hide();
        w->statusBar()->hide();
        w->menuBar()->hide();
        PresentationOptions o;
        // Dark system palette: a dark projector theme; light: black on white.
        o.darkBackground = QApplication::palette().color(QPalette::Window).lightness() < 128;
        mode_.apply(w, o);
        parts_.view->setPresentation(true, kPresentationFontScale);
        if (parts_.lesson)
            parts_.lesson->setFontScale(kPresentationFontScale);
        for (const auto& scale : parts_.fontScalers)
            scale(kPresentationFontScale);
        w->showFullScreen();
        if (lessonWasVisible_) {
            // The lesson keeps its share whatever width its column had: Compare, opened beside
            // it, had widened the column to two fifths of the screen, and the heatmap shrank.
            sizeLessonPanel();
            QTimer::singleShot(0, this, [this] {
                if (on_)
                    sizeLessonPanel();  // again once the window has the whole screen
            });
        }
        parts_.view->heatmap()->setFocus();
    } else {
        animator_->stop();
        mode_.restore();
        parts_.view->setPresentation(false, 1.0);
        if (parts_.lesson)
            parts_.lesson->setFontScale(1.0);
        for (const auto& scale : parts_.fontScalers)
            scale(1.0);
        w->menuBar()->show();
        w->statusBar()->show();
        if (wasMaximized_) {
            w->showMaximized();
        } else {
            w->showNormal();
            w->restoreGeometry(geometry_);  // not every platform restores it itself
        }
        w->restoreState(state_);
    }
    emit toggled(on);
}

void PresentationController::sizeLessonPanel() {
    QMainWindow* w = parts_.window;
    const QScreen* screen = w->screen();
    const int width = std::max(w->width(), screen ? screen->geometry().width() : 0);
    const int target =
        std::max(parts_.lessonDock->minimumSizeHint().width(), int(kLessonShare * width));
    w->resizeDocks({parts_.lessonDock}, {target}, Qt::Horizontal);
}

bool PresentationController::isAnimating() const {
    return animator_->isRunning();
}

void PresentationController::next() {
    stepBy(1);
}

void PresentationController::previous() {
    stepBy(-1);
}

bool PresentationController::lessonOpen() const {
    return parts_.lesson && parts_.lessonDock && !parts_.lessonDock->isHidden() &&
           parts_.lesson->count() > 0;
}

void PresentationController::forward() {
    if (!lessonOpen())
        next();
    else if (parts_.lesson->currentIndex() + 1 < parts_.lesson->count())
        parts_.lesson->next();  // the last screen stays up: no clicker press closes the lesson
}

void PresentationController::backward() {
    if (lessonOpen())
        parts_.lesson->back();
    else
        previous();
}

void PresentationController::stepBy(int delta) {
    animator_->stop();
    const QStringList steps = parts_.view->strip()->stepIds();
    if (steps.isEmpty())
        return;
    const int at = int(steps.indexOf(parts_.view->strip()->currentStep()));
    const int to = std::clamp(at < 0 ? 0 : at + delta, 0, int(steps.size()) - 1);
    if (to == at)
        return;
    const HeatmapData from = parts_.view->shownData();
    parts_.workspace->selectStep(steps[to]);
    const HeatmapData target = parts_.view->shownData();
    // Scores into weights: the masked cells fade to 0 while the others settle into the softmax.
    const bool fade = delta > 0 && from.kind == StepKind::Scores &&
                      target.kind == StepKind::Weights && from.head == target.head &&
                      from.batch == target.batch;
    if (fade && animator_->setEndpoints(from, target)) {
        connect(
            animator_, &CellFadeAnimator::finished, this,
            [this, target] { parts_.view->heatmap()->setData(target); }, Qt::SingleShotConnection);
        animator_->start();
    }
}

}  // namespace attn

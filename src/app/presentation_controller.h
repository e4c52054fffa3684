#pragma once
// Presentation mode (F11) for a classroom projector: full screen, the panels, menu and status bar
// hidden, a high-contrast palette, larger text (one scale everywhere), the step's caption in
// words, and keys to step through the pipeline (Right, Left or Backspace; Space, PageDown and
// PageUp too unless a lesson is open, whose screens they then move; Esc leaves), with masked
// scores fading into weights. The lesson panel stays when it was open.

#include <QByteArray>
#include <QList>
#include <QObject>

#include "teach/presentation.h"

class QDockWidget;
class QMainWindow;
class QShortcut;

namespace attn {

class CellFadeAnimator;
class LessonPanel;
class StepView;
class Workspace;

class PresentationController : public QObject {
    Q_OBJECT
  public:
    struct Parts {
        QMainWindow* window = nullptr;
        Workspace* workspace = nullptr;
        StepView* view = nullptr;
        QDockWidget* lessonDock = nullptr;
        LessonPanel* lesson = nullptr;
        // Widgets that scale their own text (the token view, the PyTorch listing).
        QList<std::function<void(double)>> fontScalers;
    };
    explicit PresentationController(const Parts& parts, QObject* parent = nullptr);

    void setOn(bool on);
    bool isOn() const { return on_; }
    void next();      // the pipeline's next step (Right)
    void previous();  // its previous step (Left, Backspace)
    // The clicker's keys (PageDown or Space, PageUp): the lesson's next or previous screen while
    // a lesson is open, else the pipeline's next or previous step.
    void forward();
    void backward();
    bool isAnimating() const;
    // The window's layout without presentation mode (for settings and sessions while on).
    QByteArray normalState() const;

  signals:
    void toggled(bool on);

  private:
    void stepBy(int delta);
    bool lessonOpen() const;
    void sizeLessonPanel();  // kLessonShare of the screen for the lesson's dock

    Parts parts_;
    bool on_ = false;
    bool wasMaximized_ = false;
    bool lessonWasVisible_ = false;
    QByteArray geometry_;
    QByteArray state_;
    PresentationMode mode_;
    CellFadeAnimator* animator_ = nullptr;
    QList<QShortcut*> keys_;
};

}  // namespace attn

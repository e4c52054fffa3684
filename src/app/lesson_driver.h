#pragma once
// Runs a lesson in the window: each screen the lesson panel shows becomes the workspace's state
// (the book's input and the screen's module, or a trained model and its text), the centre page
// it names comes forward, and a screen that shows "the strongest previous-token head" (or
// induction head) selects it once the model's forward is there.

#include <QObject>
#include <functional>
#include <memory>

#include "app/workspace.h"
#include "teach/lesson.h"

class QAction;
class QDockWidget;

namespace attn {

class CentrePages;
class LatestJob;
class LessonPanel;

// A lesson screen as settings: the screen's module with the book's input and seeds, or the
// screen's model, text and layer; its step and head. `previous` gives what the screen does not
// set (colours, values); `loaded` is the model in use, kept when the screen names the same one.
WorkspaceState lessonState(const LessonScreen& screen, const Settings& previous,
                           const std::shared_ptr<const DecoderModel>& loaded);

class LessonDriver : public QObject {
    Q_OBJECT
  public:
    // `dock` holds the lesson panel; `fontScale` says how large its text is now (presentation
    // mode enlarges it).
    LessonDriver(Workspace* workspace, CentrePages* pages, LessonPanel* lesson, QDockWidget* dock,
                 std::function<double()> fontScale, QObject* parent = nullptr);
    ~LessonDriver() override;
    // Lesson > Chapter 3 tour, Attention in a trained model, After chapter 3, Asking a model why
    // and How a model copies.
    QAction* chapter3Action() const { return chapter3_; }
    QAction* trainedModelAction() const { return trained_; }
    QAction* afterChapter3Action() const { return afterChapter3_; }
    QAction* whyAction() const { return why_; }
    QAction* copyAction() const { return copies_; }
    // Lesson > Next screen (Ctrl+]) and Previous screen (Ctrl+[): the panel's Next and Back,
    // enabled while a lesson is open.
    QAction* nextAction() const { return next_; }
    QAction* previousAction() const { return previous_; }
    // Lesson > Export lesson as PDF slides...: the lesson open in the panel (the chapter-3 tour
    // when none is), one page per screen. exportSlides computes the screens off the GUI thread,
    // then writes the file; slidesExported says how it went (an empty error: written).
    QAction* exportSlidesAction() const { return exportSlides_; }
    void exportSlides(const QString& path);
    bool isExportingSlides() const;
    // Opens the lesson panel on the first screen of the lesson and shows it.
    void start(LessonKind kind);

  signals:
    void slidesExported(const QString& path, const QString& error);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void show(const LessonScreen& screen);
    void pickHead();
    void fitDock();

    Workspace* workspace_;
    CentrePages* pages_;
    LessonPanel* lesson_;
    QDockWidget* dock_;
    std::function<double()> fontScale_;
    QAction* chapter3_ = nullptr;
    QAction* trained_ = nullptr;
    QAction* afterChapter3_ = nullptr;
    QAction* why_ = nullptr;
    QAction* copies_ = nullptr;
    QAction* next_ = nullptr;
    QAction* previous_ = nullptr;
    QAction* exportSlides_ = nullptr;
    std::unique_ptr<LatestJob> slidesJob_;
    std::unique_ptr<LatestJob> pickJob_;  // the screen's head, scored on the thread pool
    quint64 screenNumber_ = 0;            // a head picked for an earlier screen is not applied
    int pick_ = 0;  // the LessonHead still to pick for the screen shown, 0 = none
};

}  // namespace attn

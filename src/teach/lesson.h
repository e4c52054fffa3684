#pragma once
// The guided tours: chapter 3 from simplified to multi-head attention on the book's example
// with the book's seeds, attention in a trained model, and what changed in attention after
// chapter 3; and the panel that steps through them.

#include <QMetaType>
#include <QString>
#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "engine/ablation.h"
#include "engine/config.h"

class QLabel;
class QPushButton;
class QTextBrowser;
class QProgressBar;

namespace attn {

// Which head a trained model's screen shows: its own `head`, or the head the scores rank first
// on the screen's text, so the lesson stays true for whichever model it runs on.
enum class LessonHead { Fixed, BestPreviousToken, BestInduction };

struct LessonScreen {
    QString section;     // "3.3.1"
    QString title;       // "Attention scores by dot products"
    QString html;        // what to read and look at (rich text)
    Config config;       // the model to show
    std::string stepId;  // the step to select
    int head = -1;       // the head to show, -1 = whatever the view shows (head 0)
    int batch = 0;
    // A trained model's screen: the bundled model it runs on (empty: the chapter-3 module), the
    // text it reads, the layer, the centre page ("steps", "overview" or "scores") and the head.
    QString model;
    QString text;
    int layer = 0;
    QString page = QStringLiteral("steps");
    LessonHead pick = LessonHead::Fixed;
    // A trained model's screen: the heads it switches off (DESIGN.md, Asking a model why: ablation,
    // to zero).
    std::vector<HeadRef> ablate;
    // A module screen with `text` reads that text (chapter-2 embeddings) instead of the book's
    // six vectors; `positions` false leaves out the position embeddings.
    bool positions = true;
    // A trained model's screen whose text is about the next-token list beside the heatmap: its
    // slide shows the list too.
    bool predictions = false;
};

// Chapter 3, in the book's order and with the book's seeds.
const std::vector<LessonScreen>& chapter3Lesson();
// "Attention in a trained model", on the bundled tiny-shakespeare model: how trained attention
// differs from chapter 3's random weights, a previous-token head, an induction test on a
// repeated list of words, what the rest of the block adds, and the next-token prediction.
const std::vector<LessonScreen>& trainedModelLesson();
// The model trainedModelLesson runs on.
QString trainedModelLessonModel();
// The model the last screens of afterChapter3Lesson run on, a Llama that ships with the app,
// unless the user has a model of today's families open (LessonDriver uses that one).
QString modernModelLessonModel();
// "After chapter 3: what changed in attention", on small examples: the key/value cache,
// multi-query and grouped-query attention, RoPE (its angles, a rotated query, the same pair of
// tokens at two distances), QK-norm, a sliding window and the latent of MLA; it ends on a trained
// model of today's family (modernModelLessonModel()).
const std::vector<LessonScreen>& afterChapter3Lesson();

// afterChapter3Lesson with its last screens on `openModel` (the path of a model of today's
// families the user has open) when given, else on the bundled Llama, else without them (an
// installation that does not ship it).
std::vector<LessonScreen> afterChapter3LessonOn(const QString& openModel);

// "Asking a model why" (DESIGN.md, Asking a model why), on the bundled model: a head switched off
// and what that does to the loss and the predictions, a head whose removal changes nothing, the
// logit lens, the repeated words it cannot copy yet (it has no induction head), and sampling.
const std::vector<LessonScreen>& whyLesson();
// The model whyLesson runs on, the heads it switches off, and its repeated words
// (tools/check_bundled_model.py's circuit text).
QString whyLessonModel();
HeadRef whyLessonPreviousTokenHead();
HeadRef whyLessonIdleHead();
QString whyLessonRepeatedText();

// "How a model copies" (DESIGN.md, Asking a model why), on the bundled tiny-circuit: random common
// words said twice, the induction head's stripe, the previous-token head below it, the stripe
// fading and the loss rising with that head switched off, the logit lens and the Head scores.
const std::vector<LessonScreen>& copyLesson();
// Its model, the two heads of its circuit and its text (tools/check_bundled_model.py's circuit
// text for that model).
QString copyLessonModel();
HeadRef copyLessonPreviousTokenHead();
HeadRef copyLessonInductionHead();
QString copyLessonRepeatedText();

// The lessons, for the menu, the command line (--lesson) and the slides.
enum class LessonKind { Chapter3, TrainedModel, AfterChapter3, Why, Copies };
const std::vector<LessonScreen>& lessonScreens(LessonKind kind);
// The lesson the command line names (--lesson): chapter3, trained-model, after-chapter3, why or
// copies; nullopt for any other name.
std::optional<LessonKind> lessonNamed(const QString& name);

// Back / Next, the screen's title and text and "3 / 12", for a dock beside the heatmap.
class LessonPanel : public QWidget {
    Q_OBJECT
  public:
    explicit LessonPanel(QWidget* parent = nullptr);
    void setScreens(const std::vector<LessonScreen>& screens);  // defaults to chapter3Lesson()
    int count() const { return int(screens_.size()); }
    const std::vector<LessonScreen>& screens() const { return screens_; }
    int currentIndex() const { return index_; }
    const LessonScreen& currentScreen() const;
    QString progressText() const;  // "3 / 12"
    // Text `scale` times the application's (presentation mode: kPresentationFontScale). A
    // screen's text that does not fit its box at that size is set smaller, down to the
    // application's size, so a projected lesson shows all of it without scrolling.
    void setFontScale(double scale);
    double fontScale() const { return scale_; }
    double shownFontScale() const { return shownScale_; }  // after fitting the text
    bool textFits() const;  // the whole text is in view, nothing to scroll
    // The panel's height at which the current screen's whole text is in view at the size it is
    // shown: the text box grows or shrinks by what the text needs, the rest stays as it is.
    int heightToFit() const;

  public slots:
    void setCurrentIndex(int index);  // emits screenChanged
    void next();
    void back();
    void restart();

  signals:
    void screenChanged(const attn::LessonScreen& screen);
    void indexChanged(int index);
    void finished();  // Next on the last screen

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void refresh();
    void fitText();
    void applyScale(double scale);
    std::vector<LessonScreen> screens_;
    double scale_ = 1.0;
    double shownScale_ = 1.0;
    bool fitting_ = false;
    int index_ = 0;
    QLabel* section_ = nullptr;
    QLabel* title_ = nullptr;
    QTextBrowser* text_ = nullptr;
    QLabel* progress_ = nullptr;
    QProgressBar* bar_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* next_ = nullptr;
};

}  // namespace attn

Q_DECLARE_METATYPE(attn::LessonScreen)

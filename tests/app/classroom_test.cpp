// The defects a teacher met preparing a lesson (chapter-3 tour, then the bundled model, then
// back), each driven through the real window as the teacher did it.
#include <gtest/gtest.h>

#include <qcustomplot.h>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTabBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>
#include <QWheelEvent>

#include "app/app_test_util.h"
#include "app/compare_panel.h"
#include "app/explain_panel.h"
#include "app/head_scores_page.h"
#include "app/input_panel.h"
#include "app/main_window.h"
#include "app/model_picker.h"
#include "app/overview_page.h"
#include "app/prediction_panel.h"
#include "app/presentation_controller.h"
#include "app/status_line.h"
#include "app/step_view.h"
#include "app/text_view_panel.h"
#include "app/token_view_panel.h"
#include "app/workspace.h"
#include "export/head_grid.h"
#include "export/heatmap_figure.h"
#include "export/heatmap_view.h"
#include "teach/compare_view.h"
#include "teach/lesson.h"
#include "teach/next_tokens.h"
#include "teach/text_view.h"
#include "teach/token_view.h"

using namespace attn;
using namespace attn::testing;

namespace {

template <typename T>
T* child(MainWindow& w, const char* name) {
    T* found = w.findChild<T*>(QLatin1String(name));
    EXPECT_NE(found, nullptr) << name;
    return found;
}

// Types a sentence for multi-head attention of size d with `heads` heads, as a user sets it up.
void typeSentence(MainWindow& w, const QString& text, int d, int heads) {
    change(w, [&](Settings& s) {
        s.source = InputSource::Text;
        s.text = text;
        s.config.variant = Variant::MultiHead;
        s.config.dIn = d;
        s.config.dOut = d;
        s.config.heads = heads;
    });
}

// The bundled tiny-shakespeare, read, on `text`, with every view settled.
bool openBundledModelOn(MainWindow& w, const QString& text) {
    w.workspace()->openModel(QStringLiteral("tiny-shakespeare"));
    if (!waitUntil([&] { return w.workspace()->model() != nullptr; }, 60000))
        return false;
    change(w, [&](Settings& s) {
        s.source = InputSource::Text;
        s.text = text;
    });
    return settle(w);
}

// Waits until the head grid has its thumbnails for the shown step.
bool gridSettled(MainWindow& w) {
    return waitUntil([&] { return !w.stepView()->headGrid()->isLoading(); });
}

}  // namespace

// The tour sets the context length to 6; a trained model makes every chapter control read-only;
// back on the chapter's module they must all be editable again, and the GPT-2-small preset
// brings GPT-2's context length, so a long sentence runs.
TEST(Classroom, ChapterControlsComeBackAfterATrainedModel) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.startLesson();
    ASSERT_TRUE(settle(w));
    ASSERT_EQ(w.workspace()->settings().config.contextLength, 6);

    w.workspace()->openModel(QStringLiteral("tiny-shakespeare"));
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    ASSERT_TRUE(w.workspace()->settings().modelMode());
    ASSERT_TRUE(settle(w));
    auto* context = child<QSpinBox>(w, "context_lengthSpin");
    EXPECT_FALSE(context->isEnabled());  // the model's own

    w.workspace()->useModuleOfTheChapter();
    ASSERT_TRUE(settle(w));
    ASSERT_FALSE(w.workspace()->settings().modelMode());
    for (const char* name : {"variantCombo", "maskCombo", "dropoutSpin", "modeCombo", "batchSpin",
                             "context_lengthSpin"})
        EXPECT_TRUE(child<QWidget>(w, name)->isEnabled()) << name;

    // The GPT-2-small preset: GPT-2's sizes and context, so a sentence of 7+ tokens runs.
    auto* preset = child<QComboBox>(w, "presetCombo");
    const int small = preset->findData(QStringLiteral("gpt2-small"));
    ASSERT_GE(small, 0);
    preset->setCurrentIndex(small);
    preset->activated(small);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().config.contextLength, 1024);
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("The animal didn't cross the street because it was too tired");
    });
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.workspace()->issues().empty());
    EXPECT_FALSE(w.workspace()->isStale());
}

// Scores are signed (red/blue), weights are not (viridis): the head thumbnails take the shown
// step's colours, and a colormap picked in the View menu, as the big heatmap does.
TEST(Classroom, HeadThumbnailsTakeTheShownStepsColours) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    typeSentence(w, QStringLiteral("The cat sat on the mat"), 8, 4);
    ASSERT_TRUE(settle(w));
    HeadGrid* grid = w.stepView()->headGrid();
    HeatmapView* map = w.stepView()->heatmap();

    w.workspace()->selectStep(QStringLiteral("scores"));
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(gridSettled(w));
    ASSERT_EQ(map->colormap(), Colormap::Diverging);
    EXPECT_EQ(grid->colormap(), Colormap::Diverging);

    w.workspace()->selectStep(QStringLiteral("weights"));
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(gridSettled(w));
    ASSERT_EQ(map->colormap(), Colormap::Viridis);
    EXPECT_EQ(grid->colormap(), Colormap::Viridis);

    w.workspace()->setColormap(QStringLiteral("magma"));
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(gridSettled(w));
    EXPECT_EQ(map->colormap(), Colormap::Magma);
    EXPECT_EQ(grid->colormap(), Colormap::Magma);

    w.workspace()->setColormap(QStringLiteral("auto"));
    w.workspace()->selectStep(QStringLiteral("scores"));
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(gridSettled(w));
    EXPECT_EQ(grid->colormap(), Colormap::Diverging);

    // The book's head 0 scores are all positive (viridis) while head 1 has negative ones: the
    // thumbnails take the big map's pick, not their own.
    change(w, [](Settings& s) {
        s.source = InputSource::Book;
        s.config = Settings::bookConfig();
    });
    w.workspace()->selectStep(QStringLiteral("scores"));
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(gridSettled(w));
    EXPECT_EQ(grid->colormap(), map->colormap());
}

// A click on a multi-head context cell explains it as the weighted sum of the values, with
// the products, not as a copy of another step.
TEST(Classroom, MultiHeadContextCellIsExplainedAsTheWeightedSum) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    typeSentence(w, QStringLiteral("The cat sat on the mat"), 4, 2);
    ASSERT_TRUE(settle(w));
    for (const char* step : {"context_heads", "context"}) {
        w.workspace()->selectStep(QLatin1String(step));
        ASSERT_TRUE(settle(w));
        w.workspace()->selectCell(3, 1);
        QCoreApplication::processEvents();
        const QString html = w.explainPanel()->derivationHtml();
        EXPECT_TRUE(html.contains(QStringLiteral("Σ"))) << step << html.toStdString();
        EXPECT_TRUE(html.contains(QStringLiteral(" × "))) << step;
        EXPECT_FALSE(html.contains(QStringLiteral("context_split"))) << step;
    }
}

// The simple masking method's first softmax (weights_unmasked) runs before any mask: the token
// view draws every line of it, none marked masked (it drew the causal pattern).
TEST(Classroom, TokenViewDrawsTheUnmaskedWeightsUnmasked) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.dock(QStringLiteral("tokenDock"))->show();
    w.dock(QStringLiteral("tokenDock"))->raise();
    TokenViewPanel* panel = w.tokenPanel();
    for (const auto& [step, hidden] : {std::pair{"weights", true}, {"weights_unmasked", false}}) {
        w.workspace()->selectStep(QLatin1String(step));
        ASSERT_TRUE(settle(w));
        ASSERT_TRUE(waitUntil(
            [&] { return panel->isDrawn() && panel->stepShown() == QLatin1String(step); }));
        EXPECT_EQ(panel->view()->weightText(0, 0, 5) == QStringLiteral("masked"), hidden) << step;
    }
}

// Append adds the token the model predicted, as that token: two line breaks stay two tokens
// (198, 198; the text re-tokenized would make them one, 628), and the heading above the
// buttons shows a line break as ↵, never as a real one that would move the buttons.
TEST(Classroom, AppendKeepsTheTokensTheModelGenerated) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->openModel(QStringLiteral("tiny-shakespeare"));
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("Shall I compare thee?");
    });
    ASSERT_TRUE(settle(w));
    NextTokensPanel* next = w.predictionPanel()->panel();
    ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    // Where the first button sits once the window's layout has come to rest (on a busy machine
    // the docks may still be settling when the result is there).
    const auto restingPosition = [&] {
        QPoint at = next->findChild<QPushButton*>()->mapTo(&w, QPoint());
        for (int still = 0; still < 10;) {
            QTest::qWait(20);
            const QPoint now = next->findChild<QPushButton*>()->mapTo(&w, QPoint());
            still = now == at ? still + 1 : 0;
            at = now;
        }
        return at;
    };
    const QPoint before = restingPosition();
    for (int k = 0; k < 2; ++k) {
        emit next->appendRequested(198);
        ASSERT_TRUE(settle(w));
        ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    }
    const std::vector<Token>& tokens = w.workspace()->tokens().tokens;
    ASSERT_GE(tokens.size(), 2u);
    EXPECT_EQ(tokens[tokens.size() - 1].id, 198);
    EXPECT_EQ(tokens[tokens.size() - 2].id, 198);
    EXPECT_TRUE(w.workspace()->settings().text.endsWith(QStringLiteral("?\n\n")));
    EXPECT_FALSE(next->headingText().contains(QLatin1Char('\n')));
    EXPECT_TRUE(next->headingText().contains(QChar(0x21B5)));
    EXPECT_EQ(restingPosition(), before);
    // The session keeps the tokens: the settings' codec carries them.
    EXPECT_EQ(
        settingsFromMap(settingsToMap(w.workspace()->settings()), Settings()).textTokens().size(),
        tokens.size());
}

// Ctrl+] and Ctrl+[ (named by the tour) move through the lesson, from the Lesson menu; Reset
// zoom has Ctrl+0 as the guide says.
TEST(Classroom, LessonKeysMoveThroughTheScreens) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* next = child<QAction>(w, "actionLessonNext");
    auto* previous = child<QAction>(w, "actionLessonPrevious");
    EXPECT_EQ(next->shortcut(), QKeySequence(QStringLiteral("Ctrl+]")));
    EXPECT_EQ(previous->shortcut(), QKeySequence(QStringLiteral("Ctrl+[")));
    EXPECT_FALSE(next->isEnabled());  // no lesson open
    EXPECT_EQ(child<QAction>(w, "actionResetZoom")->shortcut(),
              QKeySequence(QStringLiteral("Ctrl+0")));
    w.startLesson();
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(next->isEnabled());
    const int first = w.lessonPanel()->currentIndex();
    next->trigger();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.lessonPanel()->currentIndex(), first + 1);
    previous->trigger();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.lessonPanel()->currentIndex(), first);
}

// A model file that could not be read, or a text file that is not UTF-8, is said next to its
// control until the user does something else; then the message goes (it stayed for good).
TEST(Classroom, AFailedOpenIsSaidUntilTheNextChange) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QTemporaryDir dir;
    const QString broken = dir.filePath(QStringLiteral("broken.safetensors"));
    QFile f(broken);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("not a model");
    f.close();
    w.workspace()->openModel(broken);
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }));
    ASSERT_TRUE(waitUntil([&] { return !w.modelPicker()->error().isEmpty(); }));
    w.inputPanel()->setFileError(QStringLiteral("input"), QStringLiteral("not UTF-8"));
    ASSERT_FALSE(w.inputPanel()->fieldError(QStringLiteral("input")).isEmpty());
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("A new sentence");
    });
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.modelPicker()->error().isEmpty());
    EXPECT_TRUE(w.inputPanel()->fieldError(QStringLiteral("input")).isEmpty());
}

// Compare (Ctrl+6) opens as a tab of the right column, about 500 px wide at 1280 x 720: its
// three figures are arranged so each shows its cells (side by side they collapsed to
// overlapping labels), and the titles are elided, not cut.
TEST(Classroom, CompareShowsItsHeatmapsWhereItOpens) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    child<QAction>(w, "action_compareDock")->trigger();
    ASSERT_TRUE(settle(w));
    CompareView* view = w.findChild<CompareView*>(QStringLiteral("compareView"));
    ASSERT_NE(view, nullptr);
    ASSERT_TRUE(waitUntil([&] { return view->isVisible() && view->width() > 0; }));
    QCoreApplication::processEvents();
    ASSERT_TRUE(view->shapesMatch());
    EXPECT_NE(view->arrangement(), CompareView::Arrangement::Row) << view->width();
    for (QCustomPlot* plot : {view->plotA(), view->plotB(), view->plotDiff()}) {
        const QRectF cell = heatmapCellRect(plot, 0, 0);
        EXPECT_GE(cell.width(), 10.0);
        EXPECT_GE(cell.height(), 10.0);
        EXPECT_LE(heatmapCellRect(plot, 5, 5).right(), plot->width());
    }
    for (QLabel* title : view->findChildren<QLabel*>()) {
        if (title->text().startsWith(QStringLiteral("B: "))) {
            EXPECT_LE(title->fontMetrics().horizontalAdvance(title->text()), title->width() + 1);
        }
    }
}

// Quiz mode: F7 hides the shown step's numbers (masked cells stay: the mask is no question),
// a click reveals one cell, F8 the rest; the next step starts hidden again; Shift+F7 hides one
// row. The hover text and the head thumbnails do not give the answer away.
TEST(Classroom, QuizHidesTheNumbersUntilRevealed) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    StepView* view = w.stepView();
    HeatmapView* map = view->heatmap();
    ASSERT_EQ(map->data().stepId, QStringLiteral("weights"));
    child<QAction>(w, "actionQuizStep")->trigger();
    EXPECT_EQ(view->quiz(), StepView::Quiz::Step);
    EXPECT_EQ(view->quizHiddenCells(), 21);  // the book's causal 6 x 6: 21 visible weights
    EXPECT_TRUE(map->toolTipForCell(3, 1).contains(QStringLiteral("= ?")));
    EXPECT_FALSE(view->headGrid()->isVisible());

    emit map->cellClicked(3, 1, map->data().value(3, 1));
    EXPECT_EQ(view->quizHiddenCells(), 20);
    EXPECT_FALSE(map->data().isQuizHidden(3, 1));
    EXPECT_FALSE(map->toolTipForCell(3, 1).contains(QStringLiteral("= ?")));

    child<QAction>(w, "actionQuizReveal")->trigger();
    EXPECT_EQ(view->quizHiddenCells(), 0);

    w.workspace()->selectStep(QStringLiteral("scores"));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(view->quizHiddenCells(), 36);  // unmasked scores: every cell a question

    child<QAction>(w, "actionQuizRow")->trigger();
    EXPECT_EQ(view->quiz(), StepView::Quiz::Row);
    EXPECT_EQ(view->quizHiddenCells(), 6);
    EXPECT_TRUE(map->data().isQuizHidden(5, 0));  // the last row, no cell clicked

    child<QAction>(w, "actionQuizRow")->trigger();  // off again
    EXPECT_EQ(view->quiz(), StepView::Quiz::Off);
    EXPECT_EQ(view->quizHiddenCells(), 0);
    EXPECT_TRUE(view->headGrid()->isVisible());
}

// A quiz gives no hidden answer away: revealing one cell explains it (in the Explain panel and,
// projected, beside the map) without listing the row's other weights; the colour bar's range is
// not told; the Text view does not colour the sentence by a hidden row; a click that moves a
// row quiz to another row explains nothing of the still hidden cell it hit.
TEST(Classroom, AQuizGivesNoHiddenAnswerAway) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    StepView* view = w.stepView();
    HeatmapView* map = view->heatmap();
    ASSERT_EQ(map->data().stepId, QStringLiteral("weights"));
    const HeatmapData weights = map->data();
    const auto f4 = [&](int r, int c) { return QString::number(weights.value(r, c), 'f', 4); };
    view->setPresentation(true, 1.0);
    child<QAction>(w, "actionQuizStep")->trigger();
    emit map->cellClicked(3, 1, weights.value(3, 1));
    ASSERT_FALSE(map->data().isQuizHidden(3, 1));
    const QString explained = w.explainPanel()->derivationHtml();
    auto* projected = w.findChild<QTextBrowser*>(QStringLiteral("presentationDerivation"));
    ASSERT_NE(projected, nullptr);
    // The row sum lists the revealed weight, "?" for the hidden ones, and counts the masked.
    const QString rowSum =
        QStringLiteral("= ? + %1 + ? + ? = <b>1.0000</b> (and the 2 masked positions' 0)")
            .arg(f4(3, 1));
    EXPECT_TRUE(explained.contains(rowSum)) << explained.toStdString();
    EXPECT_TRUE(projected->toHtml().contains(QStringLiteral("? + %1 + ? + ?").arg(f4(3, 1))))
        << projected->toPlainText().toStdString();
    for (const int c : {0, 2, 3}) {
        EXPECT_FALSE(explained.contains(f4(3, c))) << c;
        EXPECT_FALSE(projected->toPlainText().contains(f4(3, c))) << c;
    }
    view->setPresentation(false, 1.0);

    // The colour bar's ends read "?" while cells are hidden.
    QCustomPlot* plot = map->plot();
    plot->replot();
    QStringList barLabels;
    for (QCPAxisRect* r : plot->axisRects())
        if (r != heatmapAxisRect(plot))
            for (const QString& l : r->axis(QCPAxis::atRight)->tickVectorLabels())
                barLabels << l;
    EXPECT_EQ(barLabels, QStringList({"?", "?"}));
    child<QAction>(w, "actionQuizReveal")->trigger();
    child<QAction>(w, "actionQuizStep")->trigger();  // off
    ASSERT_EQ(view->quiz(), StepView::Quiz::Off);

    // A row quiz hides the last row, the Text view's query: the text stays uncoloured.
    w.workspace()->selectCell(-1, -1);  // no clicked cell: the row quiz takes the last row
    child<QAction>(w, "actionTextView")->trigger();
    TextViewPanel* panel = w.textPanel();
    ASSERT_TRUE(waitUntil([&] { return panel->isVisible() && panel->isDrawn(); }));
    ASSERT_TRUE(waitUntil([&] { return panel->view()->tokenCount() == 6; }));
    TextView* text = panel->view();
    ASSERT_EQ(text->query(), 5);
    // Withheld: no token coloured by the query's row.
    const auto uncoloured = [text] {
        for (int k = 0; k < text->tokenCount(); ++k)
            if (text->fillOf(k) != text->palette().color(QPalette::Base))
                return false;
        return true;
    };
    EXPECT_NE(text->fillOf(0), text->palette().color(QPalette::Base));
    child<QAction>(w, "actionQuizRow")->trigger();
    ASSERT_TRUE(map->data().isQuizHidden(5, 0));
    EXPECT_TRUE(uncoloured());
    EXPECT_TRUE(text->caption().contains(QStringLiteral("quiz"))) << text->caption().toStdString();
    // Another query's row is not hidden: clicking its token colours the text by it.
    text->setQuery(2);
    EXPECT_FALSE(uncoloured());
    text->setQuery(5);

    // A click on another row moves the quiz there: the cell it hit is hidden, so not explained.
    emit map->cellClicked(2, 0, weights.value(2, 0));
    ASSERT_TRUE(map->data().isQuizHidden(2, 0));
    const QString moved = w.explainPanel()->derivationHtml();
    EXPECT_TRUE(moved.contains(QStringLiteral("Hidden by the quiz"))) << moved.toStdString();
    EXPECT_FALSE(moved.contains(f4(2, 0))) << moved.toStdString();
    EXPECT_EQ(text->query(), 2);  // the text follows the clicked row, the quiz's now
    EXPECT_TRUE(uncoloured());
    text->setQuery(5);
    EXPECT_FALSE(uncoloured());  // row 5 is no longer the quiz's
    text->setQuery(2);
    EXPECT_TRUE(uncoloured());
    child<QAction>(w, "actionQuizReveal")->trigger();
    EXPECT_FALSE(uncoloured());
}

// In presentation mode the lesson panel keeps a quarter of the screen whatever its column was
// before: Compare opened beside a lesson widens that column to two fifths, and the heatmap,
// alone beside the lesson in presentation, lost that much.
TEST(Classroom, PresentationGivesTheLessonItsShareAfterCompare) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    w.startLesson(LessonKind::TrainedModel);
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    ASSERT_TRUE(settle(w));
    QDockWidget* lesson = w.dock(QStringLiteral("lessonDock"));
    const auto presentedWidth = [&] {
        w.presentation()->setOn(true);
        QTest::qWait(50);
        QCoreApplication::processEvents();
        const double share = double(lesson->width()) / double(w.width());
        EXPECT_TRUE(lesson->isVisible());
        w.presentation()->setOn(false);
        QTest::qWait(50);
        return share;
    };
    const double before = presentedWidth();
    EXPECT_NEAR(before, 0.25, 0.03);
    child<QAction>(w, "action_compareDock")->trigger();
    ASSERT_TRUE(waitUntil([&] { return w.comparePanel()->isVisible(); }));
    QCoreApplication::processEvents();
    ASSERT_GT(double(lesson->width()) / double(w.width()), 0.3);  // the wide column
    EXPECT_NEAR(presentedWidth(), before, 0.01);
    // Leaving presentation brings the column back as it was, Compare beside the lesson.
    EXPECT_TRUE(w.comparePanel()->isVisible());
    EXPECT_GT(double(lesson->width()) / double(w.width()), 0.3);
}

// A teacher follows a lesson in the window at 1280 x 720: every screen's text is in view without
// scrolling (the lesson box showed four to seven lines under the Explain panel and hid the rest
// of most screens) as far as the column allows: where it still scrolls, the tabs above have
// shrunk to the least their panels need; a short text gives them the room back, and they keep
// at least a third of the column.
TEST(Classroom, EveryLessonScreensTextIsInViewAt1280x720) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    QDockWidget* lesson = w.dock(QStringLiteral("lessonDock"));
    QDockWidget* explain = w.dock(QStringLiteral("explainDock"));
    int cut = 0, screens = 0;
    for (LessonKind kind : {LessonKind::Chapter3, LessonKind::TrainedModel,
                            LessonKind::AfterChapter3, LessonKind::Why, LessonKind::Copies}) {
        w.startLesson(kind);
        LessonPanel* panel = w.lessonPanel();
        for (int i = 0; i < panel->count(); ++i, ++screens) {
            SCOPED_TRACE(panel->screens()[size_t(i)].title.toStdString());
            panel->setCurrentIndex(i);
            ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
            ASSERT_TRUE(settle(w));
            QTest::qWait(20);
            QCoreApplication::processEvents();
            int least = 0;  // the tabs' height can go no lower than their largest panel's need
            for (const char* name : {"explainDock", "shapesDock", "tokenDock", "pytorchDock"})
                least = std::max(least, w.dock(QLatin1String(name))->minimumSizeHint().height());
            const bool fits = panel->textFits();
            cut += !fits;
            EXPECT_TRUE(fits || explain->height() <= least + 2)
                << "lesson " << int(kind) << " screen " << i + 1 << ": the tabs above keep "
                << explain->height() << " px, they need " << least;
            const int column = lesson->height() + explain->height();
            EXPECT_GE(explain->height() * 3, column - 30) << explain->height() << " of " << column;
        }
    }
    // Before, 17 of the 56 screens were cut; three trained-model screens still are, by a line
    // or two, where the Shapes panel needs its height.
    EXPECT_LE(cut, 3) << cut << " of " << screens;
}

// The Text view's query is the clicked heatmap row, as the derivation's cell and the predicted
// position are: a teacher who clicks row 3 sees row 3's attention in the text, also when the
// view is opened after the click (it stayed on the last token).
TEST(Classroom, TheTextViewShowsTheClickedRow) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    HeatmapView* map = w.stepView()->heatmap();
    emit map->cellClicked(3, 1, map->data().value(3, 1));
    ASSERT_EQ(w.workspace()->selectedRow(), 3);
    child<QAction>(w, "actionTextView")->trigger();
    TextViewPanel* panel = w.textPanel();
    ASSERT_TRUE(waitUntil([&] { return panel->isVisible() && panel->isDrawn(); }));
    ASSERT_TRUE(waitUntil([&] { return panel->view()->tokenCount() == 6; }));
    EXPECT_EQ(panel->view()->query(), 3);
    w.workspace()->selectCell(1, 0);
    EXPECT_EQ(panel->view()->query(), 1);
    EXPECT_TRUE(panel->view()->caption().contains(QStringLiteral("(token 1)")))
        << panel->view()->caption().toStdString();
    panel->view()->setQuery(4);  // a click on a token still picks another
    EXPECT_EQ(panel->view()->query(), 4);
}

// A lesson reopened under Compare leaves no picture behind: its dock first shows where it was
// and then moves down, and the right column's tab bar (which draws no background) showed the
// lesson's title and heading through it until the window was repainted.
TEST(Classroom, ALessonReopenedUnderCompareLeavesNoGhost) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    w.startLesson(LessonKind::TrainedModel);
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    ASSERT_TRUE(settle(w));
    child<QAction>(w, "action_compareDock")->trigger();
    ASSERT_TRUE(waitUntil([&] { return w.comparePanel()->isVisible(); }));
    QTest::qWait(100);
    QDockWidget* lesson = w.dock(QStringLiteral("lessonDock"));
    lesson->hide();
    QTest::qWait(100);
    w.startLesson(LessonKind::TrainedModel);
    ASSERT_TRUE(settle(w));
    QTest::qWait(300);
    // What the screen shows against the window drawn afresh, over the right column.
    const QRect column(lesson->x(), 0, lesson->width(), w.height());
    const QImage shown =
        w.screen()
            ->grabWindow(w.winId(), column.x(), column.y(), column.width(), column.height())
            .toImage()
            .convertToFormat(QImage::Format_RGB32);
    const QImage fresh = w.grab(column).toImage().convertToFormat(QImage::Format_RGB32);
    ASSERT_EQ(shown.size(), fresh.size());
    int differ = 0;
    for (int y = 0; y < shown.height(); ++y)
        for (int x = 0; x < shown.width(); ++x)
            differ += shown.pixel(x, y) != fresh.pixel(x, y);
    EXPECT_LT(differ, 50);
}

// The Token view withholds what a quiz hides, as the Text view does: a row quiz's query draws
// no line and reads "?" beside every key and in its tooltip, in one head and in all heads; a
// step quiz leaves the room between the columns empty; a reveal brings the lines back.
TEST(Classroom, TheTokenViewWithholdsTheWeightsAQuizHides) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    w.dock(QStringLiteral("tokenDock"))->show();
    w.dock(QStringLiteral("tokenDock"))->raise();
    TokenViewPanel* panel = w.tokenPanel();
    ASSERT_TRUE(waitUntil([&] { return panel->isDrawn() && panel->view()->tokenCount() == 6; }));
    TokenView* view = panel->view();
    ASSERT_EQ(panel->stepShown(), QStringLiteral("weights"));
    const auto linesOf = [view](int query) {
        int n = 0;
        for (const TokenView::Line& l : view->visibleLines())
            n += l.query == query;
        return n;
    };
    ASSERT_EQ(linesOf(5), 6);
    const QString before = view->weightText(0, 5, 0);
    ASSERT_NE(before, QStringLiteral("?"));

    w.workspace()->selectCell(-1, -1);
    child<QAction>(w, "actionQuizRow")->trigger();  // hides row 5, the last
    ASSERT_TRUE(w.stepView()->heatmap()->data().isQuizHidden(5, 0));
    EXPECT_EQ(linesOf(5), 0);
    EXPECT_EQ(linesOf(2), 3);  // another row is no question
    EXPECT_EQ(view->weightText(0, 5, 0), QStringLiteral("?"));
    EXPECT_NE(view->weightText(0, 2, 0), QStringLiteral("?"));
    const QString tip = view->toolTipText({TokenView::Side::Query, 5});
    EXPECT_TRUE(tip.contains(QStringLiteral("quiz"))) << tip.toStdString();
    EXPECT_FALSE(tip.contains(before)) << tip.toStdString();
    view->setHovered({TokenView::Side::Query, 5});
    EXPECT_TRUE(view->visibleLines().empty());
    view->setHovered({TokenView::Side::Key, 0});
    EXPECT_EQ(view->visibleLines().size(), 5u);  // queries 0-4 only
    view->setHovered({});
    panel->allHeads()->setChecked(true);  // the mean of the heads holds the hidden one too
    EXPECT_EQ(linesOf(5), 0);
    EXPECT_EQ(view->weightText(1, 5, 0), QStringLiteral("?"));
    panel->allHeads()->setChecked(false);
    child<QAction>(w, "actionQuizRow")->trigger();  // off

    // Every row hidden: the picture between the columns is the empty background.
    const auto inkBetweenColumns = [&] {
        EXPECT_TRUE(waitUntil([&] { return view->linesReady(); }));
        const QImage img = view->grab().toImage();
        const QRectF q = view->tokenRect(TokenView::Side::Query, 0);
        const QRectF k = view->tokenRect(TokenView::Side::Key, 5);
        const QColor base = view->palette().color(QPalette::Base);
        int ink = 0;
        for (int y = int(q.top()) + 2; y < int(k.bottom()) - 2; ++y)
            for (int x = int(q.right()) + 2; x < int(k.left()) - 2; ++x)
                ink += QColor(img.pixel(x, y)) != base;
        return ink;
    };
    EXPECT_GT(inkBetweenColumns(), 100);
    child<QAction>(w, "actionQuizStep")->trigger();
    EXPECT_TRUE(view->visibleLines().empty());
    EXPECT_EQ(inkBetweenColumns(), 0);
    child<QAction>(w, "actionQuizReveal")->trigger();
    EXPECT_EQ(linesOf(5), 6);
    EXPECT_GT(inkBetweenColumns(), 100);
}

// The coloured text (Ctrl+7, the token view's second page): the sentence with each token's
// background the attention it gets from the clicked token, one head or the mean, saved as PNG
// and SVG for slides.
TEST(Classroom, TheTextViewColoursTheSentenceByAttention) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    child<QAction>(w, "actionTextView")->trigger();
    TextViewPanel* panel = w.textPanel();
    ASSERT_TRUE(waitUntil([&] { return panel->isVisible() && panel->isDrawn(); }));
    ASSERT_TRUE(waitUntil([&] { return panel->view()->tokenCount() == 6; }));
    TextView* view = panel->view();
    const Trace& t = *w.workspace()->shownRun()->trace;
    // The last token is the query: its row of head 0's weights, which sums to 1.
    EXPECT_EQ(view->query(), 5);
    EXPECT_EQ(view->head(), 0);
    double sum = 0;
    for (int k = 0; k < 6; ++k) {
        EXPECT_FLOAT_EQ(view->weightOf(k), t.find("weights")->value.at({0, 0, 5, k}));
        sum += view->weightOf(k);
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    // A click on "journey" makes it the query: the later tokens are masked, uncoloured.
    QTest::mouseClick(view, Qt::LeftButton, {}, view->tokenRect(1).center());
    EXPECT_EQ(view->query(), 1);
    EXPECT_TRUE(view->isHidden(4));
    EXPECT_EQ(view->fillOf(4), view->palette().color(QPalette::Base));
    EXPECT_TRUE(view->caption().contains(QStringLiteral("journey")));
    // The mean of the two heads.
    panel->meanOfHeads()->setChecked(true);
    EXPECT_EQ(view->head(), -1);
    EXPECT_FLOAT_EQ(view->weightOf(0), 0.5f * (t.find("weights")->value.at({0, 0, 1, 0}) +
                                               t.find("weights")->value.at({0, 1, 1, 0})));
    QTemporaryDir dir;
    for (const char* name : {"text.png", "text.svg"}) {
        const QString path = dir.filePath(QLatin1String(name));
        ASSERT_TRUE(panel->saveImage(path)) << name;
        EXPECT_GT(QFileInfo(path).size(), 500) << name;
    }
    EXPECT_FALSE(QImage(dir.filePath(QStringLiteral("text.png"))).isNull());
}

namespace {

// Until B's run is in (the panel says "Computing" while it waits).
bool compareSettled(ComparePanel* c) {
    return waitUntil([&] { return !c->message().contains(QStringLiteral("Computing")); }, 60000);
}

}  // namespace

// Compare anything side by side: the coreference pair (one word swapped), two heads of a step,
// two layers of the trained model, on one shared colour scale.
TEST(Classroom, CompareTwoSentencesTwoHeadsAndTwoLayers) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("The animal didn't cross the street because it was too tired");
        s.config.dIn = 16;
        s.config.dOut = 16;
        s.config.heads = 4;
    });
    ASSERT_TRUE(settle(w));
    child<QAction>(w, "action_compareDock")->trigger();
    ComparePanel* c = w.comparePanel();
    ASSERT_TRUE(waitUntil([&] { return c->isVisible(); }));

    c->setPreset(ComparePanel::Preset::TwoSentences);
    EXPECT_EQ(c->secondText(),
              QStringLiteral("The animal didn't cross the street because it was too wide"));
    ASSERT_TRUE(compareSettled(c)) << c->message().toStdString();
    ASSERT_TRUE(c->view()->shapesMatch()) << c->message().toStdString();
    EXPECT_TRUE(c->view()->sharedColorScale());
    // Only the last row ("wide" / "tired") and nothing before it can differ: causal attention
    // of the earlier tokens never sees the swapped word.
    const HeatmapData& diff = c->view()->difference();
    const int T = diff.rows;
    for (int r = 0; r < T - 1; ++r)
        for (int k = 0; k <= r; ++k)
            EXPECT_NEAR(diff.value(r, k), 0.0f, 1e-6) << r << "," << k;
    EXPECT_GT(c->view()->maxAbsDifference(), 1e-4);
    EXPECT_TRUE(c->message().contains(QStringLiteral("two sentences")));

    c->setPreset(ComparePanel::Preset::TwoHeads);
    c->setSecondHead(3);
    ASSERT_TRUE(c->view()->shapesMatch());
    EXPECT_TRUE(c->view()->captionText().contains(QStringLiteral("head 3")));
    EXPECT_GT(c->view()->maxAbsDifference(), 1e-3);

    c->setPreset(ComparePanel::Preset::TwoLayers);
    EXPECT_TRUE(c->message().contains(QStringLiteral("trained model")));

    w.workspace()->openModel(QStringLiteral("tiny-shakespeare"));
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    ASSERT_TRUE(settle(w));
    c->setSecondLayer(2);
    ASSERT_TRUE(compareSettled(c)) << c->message().toStdString();
    ASSERT_TRUE(c->view()->shapesMatch()) << c->message().toStdString();
    EXPECT_TRUE(c->view()->captionText().contains(QStringLiteral("layer 2")));
    EXPECT_GT(c->view()->maxAbsDifference(), 1e-3);
    EXPECT_FALSE(c->message().contains(QStringLiteral("cannot")));
}

// One text in two models: the bundled model against the chapter-3 module (both read GPT-2 tokens,
// so B − A is cell by cell) and against a Qwen3 folder, whose own tokenizer cuts the text
// differently: the maps stand side by side and the message says where the tokens part.
TEST(Classroom, CompareTwoModelsOnTheSameText) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    // The chapter-3 module on the book's six vectors against the bundled model, offered first:
    // the book's words are the model's GPT-2 tokens, so B − A is token by token (the labels
    // differ only by GPT-2's leading spaces).
    child<QAction>(w, "action_compareDock")->trigger();
    {
        ComparePanel* c = w.comparePanel();
        ASSERT_TRUE(waitUntil([&] { return c->isVisible(); }));
        c->setPreset(ComparePanel::Preset::TwoModels);
        ASSERT_TRUE(waitUntil(
            [&] {
                return c->message().contains(QStringLiteral("B − A")) ||
                       c->message().contains(QStringLiteral("side by side"));
            },
            60000))
            << c->message().toStdString();
        EXPECT_EQ(c->secondModel(), QStringLiteral("tiny-shakespeare"));
        EXPECT_TRUE(c->message().contains(QStringLiteral("the same 6 tokens")))
            << c->message().toStdString();
        child<QAction>(w, "action_compareDock")->trigger();
    }
    ASSERT_TRUE(openBundledModelOn(w, QStringLiteral("a b c animal")));
    child<QAction>(w, "action_compareDock")->trigger();
    ComparePanel* c = w.comparePanel();
    ASSERT_TRUE(waitUntil([&] { return c->isVisible(); }));
    c->setPreset(ComparePanel::Preset::TwoModels);
    const auto settled = [&] {
        return waitUntil(
            [&] {
                return !c->message().contains(QStringLiteral("Computing")) &&
                       !c->message().contains(QStringLiteral("Reading"));
            },
            60000);
    };
    c->setSecondModel(QString());
    ASSERT_TRUE(settled()) << c->message().toStdString();
    EXPECT_TRUE(c->view()->shapesMatch()) << c->message().toStdString();
    EXPECT_TRUE(c->message().contains(QStringLiteral("the same 4 tokens")))
        << c->message().toStdString();
    EXPECT_TRUE(c->view()->captionText().contains(QStringLiteral("chapter-3 module")))
        << c->view()->captionText().toStdString();
    EXPECT_GT(c->view()->maxAbsDifference(), 1e-3);

    // Another tokenizer cuts " animal" into letters: the attention maps are compared on the
    // pieces of text both cut alike ("a", "b", "c", "animal"), piece by piece.
    c->setSecondModel(QStringLiteral(ATTN_FIXTURES_DIR "/families/qwen3"));
    ASSERT_TRUE(settled()) << c->message().toStdString();
    EXPECT_TRUE(c->view()->shapesMatch()) << c->message().toStdString();
    EXPECT_TRUE(c->message().contains(QStringLiteral("cut the text into 4 and")))
        << c->message().toStdString();
    EXPECT_TRUE(c->message().contains(QStringLiteral("on the 4 pieces of text both cut alike")))
        << c->message().toStdString();
    EXPECT_GT(c->view()->maxAbsDifference(), 1e-3);
    // A step that is not tokens x tokens stands side by side, with where the tokens part.
    w.workspace()->selectStep(QStringLiteral("queries"));
    ASSERT_TRUE(waitUntil([&] { return c->message().contains(QStringLiteral("part at token 3")); }))
        << c->message().toStdString();
    EXPECT_TRUE(c->view()->captionText().contains(QStringLiteral("qwen3, layer 0")))
        << c->view()->captionText().toStdString();
    // A's model is untouched by B's.
    EXPECT_EQ(w.workspace()->settings().modelFile, QStringLiteral("tiny-shakespeare"));
}

// The window's frame (title bar and borders included) fits the screen's available geometry:
// sized to the whole screen before the window manager framed it, the frame was larger than the
// screen and the status bar was pushed off it. The same with a trained model and the token view.
TEST(Classroom, TheFrameFitsTheScreenOnceFramed) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    const QRect avail = w.screen()->availableGeometry();
    // What a window manager does to a window sized to the whole screen before it knew the
    // frame: the client area is the screen's, the frame larger.
    w.resize(avail.size());
    ASSERT_TRUE(waitUntil([&] { return avail.contains(w.frameGeometry()); }, 5000))
        << w.frameGeometry().width() << "x" << w.frameGeometry().height() << " on " << avail.width()
        << "x" << avail.height();
    w.workspace()->openModel(QStringLiteral("tiny-shakespeare"));
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    ASSERT_TRUE(settle(w));
    w.dock(QStringLiteral("tokenDock"))->show();
    w.dock(QStringLiteral("tokenDock"))->raise();
    ASSERT_TRUE(settle(w));
    QCoreApplication::processEvents();
    EXPECT_TRUE(waitUntil([&] { return avail.contains(w.frameGeometry()); }, 5000));
    EXPECT_TRUE(w.statusBar()->isVisible());
}

// A text longer than the context length: the message sits under the context length, which is
// outlined and scrolled into view with it. It was under the text box, scrolled off the column
// at 1280 x 720, in English in the German window, and no control was outlined while the status
// bar said "see the highlighted setting".
TEST(Classroom, TooManyTokensShowAtTheContextLengthInView) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    change(w, [](Settings& s) { s.config.contextLength = 6; });  // the book's six tokens fit
    ASSERT_TRUE(settle(w));
    auto* scroll = child<QScrollArea>(w, "settingsScroll");
    auto* spin = child<QSpinBox>(w, "context_lengthSpin");
    auto* label = child<QLabel>(w, "error_context_length");
    auto* text = child<QPlainTextEdit>(w, "textEdit");
    const auto inView = [&](const QWidget* widget) {
        const QRect r(widget->mapTo(scroll->viewport(), QPoint(0, 0)), widget->size());
        return scroll->viewport()->rect().contains(r);
    };
    scroll->verticalScrollBar()->setValue(0);
    // The column's top (the text box) is what shows; the context length is below it.
    ASSERT_TRUE(inView(text));
    ASSERT_FALSE(inView(spin));
    // The user adds a word: seven tokens.
    text->setFocus();
    text->moveCursor(QTextCursor::End);
    QTest::keyClicks(text, QStringLiteral(" again"));
    ASSERT_TRUE(
        waitUntil([&] { return !w.fieldError(QStringLiteral("context_length")).isEmpty(); }));
    EXPECT_EQ(w.fieldError(QStringLiteral("context_length")),
              QStringLiteral("The input has 7 tokens, more than the context length of 6. Shorten "
                             "the text or raise the context length."));
    EXPECT_TRUE(w.fieldError(QStringLiteral("input")).isEmpty());
    EXPECT_TRUE(spin->property("attnError").toBool());
    // The outline is drawn whole, just outside the field, not cut off by the field's cell.
    const QRect around = spin->geometry().adjusted(-2, -2, 2, 2);
    const QWidget* outline = nullptr;
    for (const QWidget* o :
         spin->parentWidget()->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
        if (o != spin && o->isVisible() && o->geometry() == around)
            outline = o;
    ASSERT_TRUE(outline);
    EXPECT_TRUE(spin->parentWidget()->rect().contains(outline->geometry()));
    EXPECT_EQ(w.status()->time()->text(),
              QStringLiteral("not computed (see the highlighted setting)"));
    EXPECT_TRUE(waitUntil([&] { return inView(spin) && inView(label); }, 5000))
        << "scrolled to " << scroll->verticalScrollBar()->value();
    // Scrolled back up while the problem stays: the column is left where the user put it.
    scroll->verticalScrollBar()->setValue(0);
    QTest::keyClicks(text, QStringLiteral(" and"));
    ASSERT_TRUE(settle(w));
    QTest::qWait(50);
    EXPECT_EQ(scroll->verticalScrollBar()->value(), 0);
}

// d_out = 100,000 is too large for the memory budget: the message names d_out and the value that
// fits, under d_out's control (it said "use fewer tokens, heads or a smaller batch" under the
// context length, off screen).
TEST(Classroom, AMemoryErrorSitsAtTheSettingThatTakesTheMost) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("The cat sat on the mat");
        s.config.dIn = 768;
        s.config.dOut = 100000;
        s.config.heads = 1;
    });
    ASSERT_TRUE(settle(w));
    const QString error = w.fieldError(QStringLiteral("d_out"));
    EXPECT_TRUE(error.contains(QStringLiteral("d_out = 100000"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("A d_out of at most"))) << error.toStdString();
    EXPECT_TRUE(w.fieldError(QStringLiteral("context_length")).isEmpty());
}

// Picking a layer is not an undo step, like picking a step: undoing a change of the text keeps
// the layer on screen (it went back to the layer of the time of that change).
TEST(Classroom, UndoKeepsTheLayerOnScreen) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->openModel(QStringLiteral("tiny-shakespeare"));
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    ASSERT_TRUE(settle(w));
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("To be or not to be");
    });
    ASSERT_TRUE(settle(w));
    w.workspace()->selectLayer(2);
    w.workspace()->selectStep(QStringLiteral("scores"));
    ASSERT_TRUE(settle(w));
    w.workspace()->undoStack()->undo();  // the text goes back
    ASSERT_TRUE(settle(w));
    EXPECT_NE(w.workspace()->settings().text, QStringLiteral("To be or not to be"));
    EXPECT_EQ(w.workspace()->settings().layer, 2);
    EXPECT_EQ(w.workspace()->settings().step, QStringLiteral("scores"));
    EXPECT_TRUE(w.workspace()->settings().modelMode());
}

// The mouse wheel over the settings column scrolls it: a spin box the pointer passes over keeps
// its value until the user clicks into it (scrolling changed d_out from 2 to 1).
TEST(Classroom, TheWheelScrollsTheSettingsInsteadOfChangingThem) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* dOut = child<QSpinBox>(w, "d_outSpin");
    ASSERT_NE(dOut, nullptr);
    change(w, [](Settings& s) { s.source = InputSource::Text; });
    ASSERT_TRUE(settle(w));
    const int before = dOut->value();
    ASSERT_TRUE(dOut->isEnabled());
    QWheelEvent wheel(QPointF(5, 5), dOut->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, -120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(dOut, &wheel);
    EXPECT_EQ(dOut->value(), before);
    // Focused, the wheel turns it as usual.
    dOut->setFocus();
    QWheelEvent again(QPointF(5, 5), dOut->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, -120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(dOut, &again);
    if (dOut->hasFocus()) {
        EXPECT_EQ(dOut->value(), before - 1);
    }
}

// Picking "Window" in the mask box gives a band of three (K = 3); K = 1 left only the diagonal.
TEST(Classroom, AWindowMaskStartsAsABand) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* mask = child<QComboBox>(w, "maskCombo");
    const int window = mask->findData(int(MaskKind::Window));
    ASSERT_GE(window, 0);
    mask->setCurrentIndex(window);
    emit mask->activated(window);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().config.effectiveMask(), (MaskSpec{MaskKind::Window, 3}));
}

// Compare widens the right column while it is on top and gives the width back after, but never
// below what its tabs need: with Compare one of five tabs, every title stays whole.
TEST(Classroom, TheRightColumnKeepsRoomForItsTabsAfterCompare) {
    MainWindow w(testOptions());
    w.resize(1366, 740);
    w.show();
    ASSERT_TRUE(settle(w));
    child<QAction>(w, "action_compareDock")->trigger();
    ASSERT_TRUE(settle(w));
    QCoreApplication::processEvents();
    child<QAction>(w, "action_explainDock")->trigger();
    ASSERT_TRUE(waitUntil([&] { return w.explainPanel()->isVisible(); }));
    QCoreApplication::processEvents();
    QTabBar* bar = nullptr;
    for (QTabBar* b : w.findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly))
        if (b->isVisible() && b->count() == 5)
            bar = b;
    ASSERT_NE(bar, nullptr);
    for (int i = 0; i < bar->count(); ++i)
        EXPECT_GE(bar->tabRect(i).width(), bar->fontMetrics().horizontalAdvance(bar->tabText(i)))
            << bar->tabText(i).toStdString();
}

// Lesson > Attention in a trained model (41 tokens), then Compare (Ctrl+6) at 1280 x 720: the
// three maps became diagonal piles of tick labels without cells, and the coreference pair got
// 85 px maps whose changed last row had no label. The maps draw their cells with readable
// labels (thinned from the last row back), and Compare never makes the window wider.
TEST(Classroom, CompareDrawsItsMapsInsideALesson) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    w.startLesson(LessonKind::TrainedModel);
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    ASSERT_TRUE(settle(w));
    for (const char* page : {"overview", "steps"}) {
        SCOPED_TRACE(page);
        w.showPage(QLatin1String(page));
        QAction* compare = child<QAction>(w, "action_compareDock");
        if (!w.comparePanel()->isVisible())
            compare->trigger();
        ComparePanel* c = w.comparePanel();
        ASSERT_TRUE(waitUntil([&] { return c->isVisible(); }));
        c->setPreset(ComparePanel::Preset::TwoLayers);
        ASSERT_TRUE(compareSettled(c)) << c->message().toStdString();
        ASSERT_TRUE(waitUntil([&] { return c->view()->plotA()->isVisible(); }));
        QCoreApplication::processEvents();
        EXPECT_LE(w.width(), 1280);
        EXPECT_LE(w.minimumSizeHint().width(), 1280);
        ASSERT_TRUE(c->view()->shapesMatch()) << c->message().toStdString();
        for (QCustomPlot* plot : {c->view()->plotA(), c->view()->plotB(), c->view()->plotDiff()}) {
            plot->replot();
            EXPECT_GE(heatmapCellRect(plot, 0, 0).width(), 2.0);
            EXPECT_LE(heatmapCellRect(plot, 40, 40).right(), plot->width());
        }
        QCPAxis* rows = heatmapAxisRect(c->view()->plotA())->axis(QCPAxis::atLeft);
        EXPECT_GE(rows->tickVectorLabels().size(), 2);
        // Readable: neighbouring labels a line apart at least.
        if (rows->tickVector().size() >= 2) {
            const double gap = std::abs(rows->coordToPixel(rows->tickVector()[1]) -
                                        rows->coordToPixel(rows->tickVector()[0]));
            EXPECT_GE(gap, QFontMetricsF(rows->tickLabelFont()).height() - 0.5);
        }
        // The first label within the plot: QCustomPlot leaves out one its edge would cut.
        EXPECT_GE(rows->coordToPixel(rows->tickVector().value(0)) -
                      QFontMetricsF(rows->tickLabelFont()).height() / 2,
                  0.0);
    }
    // The coreference pair: the last row, where the swapped word changes the weights, keeps
    // its label, which names both words ("tired/wide") for A and B beside it.
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("The animal didn't cross the street because it was too tired");
    });
    ASSERT_TRUE(settle(w));
    ComparePanel* c = w.comparePanel();
    c->setPreset(ComparePanel::Preset::TwoSentences);
    ASSERT_TRUE(compareSettled(c)) << c->message().toStdString();
    ASSERT_TRUE(c->view()->shapesMatch()) << c->message().toStdString();
    QCoreApplication::processEvents();
    for (QCustomPlot* plot : {c->view()->plotA(), c->view()->plotB()}) {
        plot->replot();
        EXPECT_GE(heatmapCellRect(plot, 0, 0).width(), 5.0);
    }
    const auto labels =
        heatmapAxisRect(c->view()->plotA())->axis(QCPAxis::atLeft)->tickVectorLabels();
    ASSERT_FALSE(labels.isEmpty());
    EXPECT_EQ(labels.last(), QStringLiteral("tired/wide"));
    EXPECT_LE(w.width(), 1280);
}

// Compare alone in the right column at 1280 x 720 (the lesson closed under it) on the sonnet's
// 46 tokens: A and B over the difference, whose colour bar left its cells a pixel and its
// labels none. The three maps keep one cell size and their labels; the summary says what the
// colours span.
TEST(Classroom, CompareWithoutTheLessonKeepsTheDifferenceReadable) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    w.startLesson(LessonKind::TrainedModel);
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    ASSERT_TRUE(settle(w));
    child<QAction>(w, "action_compareDock")->trigger();
    ComparePanel* c = w.comparePanel();
    ASSERT_TRUE(waitUntil([&] { return c->isVisible(); }));
    c->setPreset(ComparePanel::Preset::TwoLayers);
    ASSERT_TRUE(compareSettled(c)) << c->message().toStdString();
    w.dock(QStringLiteral("lessonDock"))->hide();
    QTest::qWait(100);
    QCoreApplication::processEvents();
    CompareView* view = c->view();
    ASSERT_TRUE(view->shapesMatch());
    ASSERT_EQ(view->difference().rows, 46);
    const double cellA = heatmapCellRect(view->plotA(), 0, 0).width();
    EXPECT_GE(cellA, 2.0);
    for (QCustomPlot* plot : {view->plotA(), view->plotB(), view->plotDiff()}) {
        plot->replot();
        EXPECT_NEAR(heatmapCellRect(plot, 0, 0).width(), cellA, 0.5)
            << view->width() << " x " << view->height();
        QCPAxis* x = heatmapAxisRect(plot)->axis(QCPAxis::atBottom);
        EXPECT_TRUE(x->tickLabels());
        EXPECT_GE(x->tickVectorLabels().size(), 5);
    }
    EXPECT_TRUE(heatmapAxisRect(view->plotDiff())->axis(QCPAxis::atLeft)->tickLabels() ||
                view->arrangement() == CompareView::Arrangement::Row);
    // The colours' span in words where the bars step aside.
    if (view->plotDiff()->axisRectCount() == 1) {
        EXPECT_TRUE(c->findChild<QLabel*>(QStringLiteral("compareSummary"))
                        ->text()
                        .contains(QStringLiteral("B − A from")));
    }
}

// The coreference pair in Compare beside a lesson at 1280 x 720: the three maps were about
// 85 px square and labelled 3 of the 12 tokens, so the row that changes had no label. Side by
// side with one set of row labels (A's, naming both words where the sentences differ), the
// cells are 12 px and every token keeps its label on every axis, the numbers are left out
// rather than drawn unreadable, and hovering a cell says its value in A, B and B − A. The
// window stays within the screen with the lesson's Next button on it.
TEST(Classroom, CompareBesideALessonLabelsEveryTokenOfThePair) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    w.startLesson(LessonKind::TrainedModel);
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    ASSERT_TRUE(settle(w));
    w.showPage(QStringLiteral("steps"));
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("The animal didn't cross the street because it was too tired");
    });
    ASSERT_TRUE(settle(w));
    child<QAction>(w, "action_compareDock")->trigger();
    ComparePanel* c = w.comparePanel();
    ASSERT_TRUE(waitUntil([&] { return c->isVisible(); }));
    c->setPreset(ComparePanel::Preset::TwoSentences);
    ASSERT_TRUE(compareSettled(c)) << c->message().toStdString();
    ASSERT_TRUE(c->view()->shapesMatch()) << c->message().toStdString();
    QTest::qWait(50);
    QCoreApplication::processEvents();
    ASSERT_TRUE(w.lessonPanel()->isVisible());
    CompareView* view = c->view();
    ASSERT_EQ(view->difference().rows, 12);
    const QRectF cellA = heatmapCellRect(view->plotA(), 0, 0);
    for (QCustomPlot* plot : {view->plotA(), view->plotB(), view->plotDiff()}) {
        plot->replot();
        const QRectF cell = heatmapCellRect(plot, 0, 0);
        EXPECT_GE(cell.width(), 12.0) << view->width() << " x " << view->height();
        EXPECT_NEAR(cell.height(), cell.width(), 0.5);
        EXPECT_NEAR(cell.width(), cellA.width(), 0.5);
        // Rows level with A's labels.
        EXPECT_NEAR(plot->mapTo(view, heatmapCellRect(plot, 11, 0).topLeft().toPoint()).y(),
                    view->plotA()
                        ->mapTo(view, heatmapCellRect(view->plotA(), 11, 0).topLeft().toPoint())
                        .y(),
                    1.0);
        QCPAxis* x = heatmapAxisRect(plot)->axis(QCPAxis::atBottom);
        EXPECT_EQ(x->tickVectorLabels().size(), 12);
        EXPECT_GE(x->tickLabelFont().pointSizeF(), 7.0);
        // Numbers at a readable size, or none.
        const int px = cellValuePixelSize(plot);
        EXPECT_TRUE(px == 0 || px >= kMinCellValuePixels) << px;
    }
    QCPAxis* rows = heatmapAxisRect(view->plotA())->axis(QCPAxis::atLeft);
    EXPECT_TRUE(rows->tickLabels());
    const QVector<QString> labels = rows->tickVectorLabels();
    ASSERT_EQ(labels.size(), 12);
    EXPECT_EQ(labels.first(), QStringLiteral("The"));
    EXPECT_EQ(labels.last(), QStringLiteral("tired/wide"));
    // Every label a line apart at least: none drawn over another.
    const double gap = std::abs(rows->coordToPixel(1) - rows->coordToPixel(0));
    EXPECT_GE(gap, QFontMetricsF(rows->tickLabelFont()).height() - 0.5);
    // Hovering the changed row's cell says all three values.
    const QString tip =
        view->cellToolTipAt(2, heatmapCellRect(view->plotDiff(), 11, 7).center().toPoint());
    EXPECT_TRUE(tip.contains(QStringLiteral("A: row 11 \" tired\""))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("B: row 11 \" wide\""))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("B − A: row 11"))) << tip.toStdString();
    // The window on the screen, the lesson's buttons on it.
    const QRect screen = w.screen()->availableGeometry();
    EXPECT_LE(w.frameGeometry().width(), screen.width());
    QPushButton* next = nullptr;
    for (QPushButton* b : w.lessonPanel()->findChildren<QPushButton*>())
        if (b->text().contains(QStringLiteral("Next")))
            next = b;
    ASSERT_NE(next, nullptr);
    EXPECT_TRUE(next->isVisible());
    EXPECT_LE(next->mapTo(&w, QPoint(next->width(), 0)).x(), w.width());
    EXPECT_LE(w.geometry().right(), screen.right());
}

// Compare on a trained model opened on the chapter's options (masking methods, d_out 768)
// and B's layer and head could not be picked for another model. It opens on two layers, greys
// out what would change the module, and B in another model takes a layer and head of its own.
TEST(Classroom, CompareOnATrainedModelOffersWhatApplies) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(openBundledModelOn(w, QStringLiteral("The cat sat on the mat and the dog saw it")));
    child<QAction>(w, "action_compareDock")->trigger();
    ComparePanel* c = w.comparePanel();
    ASSERT_TRUE(waitUntil([&] { return c->isVisible() && !c->message().isEmpty(); }));
    ASSERT_TRUE(compareSettled(c)) << c->message().toStdString();
    EXPECT_EQ(c->preset(), ComparePanel::Preset::TwoLayers);
    EXPECT_TRUE(c->view()->captionText().contains(QStringLiteral("layer 1")))
        << c->view()->captionText().toStdString();
    auto* combo = c->findChild<QComboBox*>(QStringLiteral("comparePreset"));
    ASSERT_NE(combo, nullptr);
    auto* items = qobject_cast<QStandardItemModel*>(combo->model());
    ASSERT_NE(items, nullptr);
    EXPECT_FALSE(items->item(int(ComparePanel::Preset::DOut2Vs768))->isEnabled());
    EXPECT_FALSE(items->item(int(ComparePanel::Preset::MaskNoneCausal))->isEnabled());
    EXPECT_TRUE(items->item(int(ComparePanel::Preset::TwoModels))->isEnabled());
    EXPECT_TRUE(items->item(int(ComparePanel::Preset::TwoHeads))->isEnabled());

    // Another model: B's layer and head are offered, A's to start with.
    change(w, [](Settings& s) {
        s.layer = 1;
        s.head = 2;
    });
    ASSERT_TRUE(settle(w));
    c->setPreset(ComparePanel::Preset::TwoModels);
    c->setSecondModel(QStringLiteral("tiny-shakespeare-llama"));
    const auto settled = [&] {
        return waitUntil(
            [&] {
                return !c->message().contains(QStringLiteral("Computing")) &&
                       !c->message().contains(QStringLiteral("Reading"));
            },
            60000);
    };
    ASSERT_TRUE(settled()) << c->message().toStdString();
    auto* layerB = c->findChild<QSpinBox*>(QStringLiteral("compareLayerB"));
    auto* headB = c->findChild<QSpinBox*>(QStringLiteral("compareHeadB"));
    ASSERT_TRUE(layerB && headB);
    EXPECT_TRUE(layerB->isVisible());
    EXPECT_TRUE(headB->isVisible());
    EXPECT_EQ(layerB->value(), 1);
    EXPECT_EQ(headB->value(), 2);
    c->setSecondLayer(3);
    c->setSecondHead(0);
    ASSERT_TRUE(settled()) << c->message().toStdString();
    EXPECT_TRUE(c->view()->captionText().contains(QStringLiteral("layer 3")))
        << c->view()->captionText().toStdString();
    EXPECT_TRUE(c->message().contains(QStringLiteral("head 2 (A) and 0 (B)")))
        << c->message().toStdString();
}

// Focus on one query token with Compare docked at 1280 x 720: the heatmap shrank to 70 px
// above a strip of head thumbnails, under its titles. The heads go beside it and the titles
// step aside, so twelve tokens keep cells of 10 px and more.
TEST(Classroom, FocusWithCompareDockedKeepsTheHeatmap) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(openBundledModelOn(
        w, QStringLiteral("The animal didn't cross the street because it was too tired")));
    w.showPage(QStringLiteral("steps"));
    child<QAction>(w, "action_compareDock")->trigger();
    ASSERT_TRUE(waitUntil([&] { return w.comparePanel()->isVisible(); }));
    w.stepView()->setFocusRowVisible(true);
    ASSERT_TRUE(w.stepView()->isFocusRowVisible());
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    HeatmapView* map = w.stepView()->heatmap();
    map->plot()->replot();
    ASSERT_EQ(map->data().rows, 12);
    EXPECT_GE(map->cellRect(0, 0).width(), 10.0)
        << map->plot()->width() << "x" << map->plot()->height();
}

// The Shapes panel at 1280 x 720 on a trained model: step names ("residual_after_attention")
// and shapes were cut. Both columns hold their longest text.
TEST(Classroom, ShapesShowEveryStepNameAndShapeWhole) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->openModel(QStringLiteral("tiny-shakespeare"));
    ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }, 60000));
    ASSERT_TRUE(settle(w));
    child<QAction>(w, "action_shapesDock")->trigger();
    auto* table = child<QTableWidget>(w, "shapeTable");
    ASSERT_TRUE(waitUntil([&] { return table->isVisible() && table->rowCount() > 20; }));
    for (int col : {0, 1})
        for (int r = 0; r < table->rowCount(); ++r) {
            const QString text = table->item(r, col)->text();
            EXPECT_LE(table->fontMetrics().horizontalAdvance(text) + 8, table->columnWidth(col))
                << text.toStdString();
        }
}

// Presentation mode at 1280 x 720 (a projector, or 1920 x 1080 at scale 1.5: the same logical
// screen) through the trained-model lesson: the 20-token induction screen printed its numbers at
// 8 px (about 6 px tall digits, unreadable from a seat), and the sonnet's 46 tokens got cells
// half as wide again as tall with no numbers in them. Numbers are drawn at 13 px (8 px x the
// presentation's 1.6) or more, or not at all; cells without numbers are square.
TEST(Classroom, PresentationDrawsNumbersARoomReadsOrSquareCellsWithout) {
    MainWindow w(testOptions());
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    w.startLesson(LessonKind::TrainedModel);
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }, 60000));
    ASSERT_TRUE(settle(w));
    w.presentation()->setOn(true);
    QTest::qWait(50);
    QCoreApplication::processEvents();
    LessonPanel* lesson = w.lessonPanel();
    HeatmapView* map = w.stepView()->heatmap();
    QList<int> sizes;
    for (int i = 0; i < lesson->count(); ++i) {
        lesson->setCurrentIndex(i);
        ASSERT_TRUE(settle(w));
        QCoreApplication::processEvents();
        if (!map->isVisible() || map->data().isEmpty())
            continue;
        SCOPED_TRACE(i);
        map->plot()->replot();
        sizes << map->data().rows;
        const int px = map->valueFontPixelSize();
        const QRectF cell = map->cellRect(0, 0);
        if (px == 0) {
            EXPECT_NEAR(cell.width(), cell.height(), 1.0) << map->data().rows << " tokens";
        } else {
            EXPECT_GE(px, 13) << map->data().rows << " tokens, cell " << cell.width() << " x "
                              << cell.height();
        }
    }
    // The screens this test is about were among those seen.
    EXPECT_TRUE(sizes.contains(46)) << sizes.size();
    EXPECT_TRUE(sizes.contains(20)) << sizes.size();
    w.presentation()->setOn(false);
}

// The teaching layer inside the main window: the Explain dock, cell derivations, the token view,
// the PyTorch code, the compare dock, the chapter-3 lesson and presentation mode.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>

#include "app/code_panel.h"
#include "app/compare_panel.h"
#include "app/explain_panel.h"
#include "app/main_window.h"
#include "app/module_panel.h"
#include "app/presentation_controller.h"
#include "app/shapes_panel.h"
#include "app/step_view.h"
#include "app/token_view_panel.h"
#include "app/trace_controller.h"
#include "app_test_util.h"
#include "engine/decoder_model.h"
#include "engine/trace.h"
#include "export/head_grid.h"
#include "export/heatmap_view.h"
#include "teach/compare_view.h"
#include "teach/lesson.h"
#include "teach/pytorch_panel.h"
#include "teach/step_strip.h"
#include "teach/token_view.h"

using namespace attn;
using attn::testing::change;
using attn::testing::settle;
using attn::testing::testOptions;

namespace {

// Waits (without sleeping) until the compare panel has a finished comparison.
bool settleCompare(ComparePanel* c) {
    QSignalSpy spy(c, &ComparePanel::updated);
    for (int i = 0; i < 60 && c->message().contains(QStringLiteral("Computing")); ++i)
        spy.wait(1000);
    return !c->message().contains(QStringLiteral("Computing"));
}

// The window's lesson, compare and other docks by name.
QDockWidget* dock(MainWindow& w, const char* name) {
    return w.dock(QLatin1String(name));
}

// A click on a cell of the heatmap, as the user makes it.
void clickCell(MainWindow& w, int row, int col) {
    emit w.stepView()->heatmap()->cellClicked(row, col,
                                              w.stepView()->heatmap()->data().value(row, col));
}

}  // namespace

TEST(Teaching, ClickingAWeightCellShowsItsDerivation) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    ASSERT_EQ(w.workspace()->settings().step, QStringLiteral("weights"));
    ExplainPanel* explain = w.explainPanel();
    EXPECT_TRUE(explain->derivationHtml().isEmpty());
    // Row "journey", column "Your" of head 0: 0.48 in the book's multi-head example.
    const float v = w.stepView()->heatmap()->data().value(1, 0);
    EXPECT_NEAR(v, 0.4776, 1e-4);
    clickCell(w, 1, 0);
    const QString html = explain->derivationHtml();
    ASSERT_FALSE(html.isEmpty());
    EXPECT_TRUE(html.contains(QStringLiteral("1.0000"))) << html.toStdString();  // the row sum
    EXPECT_TRUE(html.contains(QString::number(v, 'f', 4))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("journey")));
    EXPECT_TRUE(
        explain->browser()->toPlainText().contains(QStringLiteral("Where this number comes from")));
    EXPECT_EQ(w.workspace()->selectedRow(), 1);
    EXPECT_TRUE(w.stepView()->heatmap()->hasOutlinedCell());

    // Head 1 shows head 1's numbers; a new head drops the old derivation and its outline.
    w.workspace()->selectHead(1);
    EXPECT_TRUE(explain->derivationHtml().isEmpty());
    EXPECT_FALSE(w.stepView()->heatmap()->hasOutlinedCell());
    const float v1 = w.stepView()->heatmap()->data().value(1, 0);
    clickCell(w, 1, 0);
    EXPECT_TRUE(explain->derivationHtml().contains(QString::number(v1, 'f', 4)));
    EXPECT_NE(QString::number(v1, 'f', 4), QString::number(v, 'f', 4));
}

TEST(Teaching, ExplainPanelFollowsTheStep) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(dock(w, "explainDock")->isVisible());
    const QString weights = w.explainPanel()->explanationHtml();
    EXPECT_TRUE(weights.contains(QStringLiteral("softmax"), Qt::CaseInsensitive));
    EXPECT_TRUE(weights.contains(QStringLiteral("(1, 2, 6, 6)")));
    w.workspace()->selectStep(QStringLiteral("queries"));
    const QString queries = w.explainPanel()->explanationHtml();
    EXPECT_NE(queries, weights);
    EXPECT_TRUE(queries.contains(QStringLiteral("W")));
    EXPECT_TRUE(queries.contains(QStringLiteral("(1, 6, 2)")));
    w.workspace()->selectStep(QStringLiteral("weights"));
    EXPECT_EQ(w.explainPanel()->explanationHtml(), weights);
    // The one-line explanation under the heatmap is gone outside presentation mode.
    EXPECT_FALSE(w.findChild<QLabel*>(QStringLiteral("explanationLabel"))->isVisible());
}

TEST(Teaching, PyTorchPanelShowsTheCurrentClassAndFollowsTheVariant) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    CodePanel* code = w.codePanel();
    QSignalSpy updated(code, &CodePanel::updated);
    dock(w, "pytorchDock")->show();
    dock(w, "pytorchDock")->raise();
    QCoreApplication::processEvents();
    ASSERT_GE(updated.count(), 1);
    QString text = code->panel()->code();
    EXPECT_TRUE(text.contains(QStringLiteral("torch.manual_seed(123)")));
    EXPECT_TRUE(text.contains(QStringLiteral("MultiHeadAttention(")));
    EXPECT_EQ(code->panel()->caption(),
              QStringLiteral("Gives the same output as the view (float32, to about 1e-6) on any "
                             "CPU build of PyTorch."));

    change(w, [](Settings& s) {
        s.config.variant = Variant::Causal;
        s.config.mask = defaultMask(Variant::Causal);
    });
    ASSERT_TRUE(settle(w));
    text = code->panel()->code();
    EXPECT_TRUE(text.contains(QStringLiteral("CausalAttention(")));
    EXPECT_FALSE(text.contains(QStringLiteral("MultiHeadAttention(")));

    // Typed text: the same tokenizer, embedding seed and positions as the app.
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("Hello attention");
        s.embeddingSeed = 7;
    });
    ASSERT_TRUE(settle(w));
    text = code->panel()->code();
    EXPECT_TRUE(text.contains(QStringLiteral("torch.manual_seed(7)")));
    EXPECT_TRUE(text.contains(QStringLiteral("torch.manual_seed(123)")));

    // MKL dropout: the panel says the code gives other numbers on Debian's PyTorch.
    change(w, [](Settings& s) {
        s.config.dropout = 0.5;
        s.config.dropoutRng = DropoutRng::Mkl;
    });
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(code->panel()->caption().contains(QStringLiteral("Debian's python3-torch")))
        << code->panel()->caption().toStdString();
    EXPECT_TRUE(code->panel()->caption().startsWith(QStringLiteral("<b>Note:</b>")));
}

TEST(Teaching, TokenViewShowsTheWeightsOfTheCurrentHead) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    TokenViewPanel* t = w.tokenPanel();
    dock(w, "tokenDock")->show();
    dock(w, "tokenDock")->raise();
    QCoreApplication::processEvents();
    ASSERT_TRUE(
        attn::testing::waitUntil([t] { return t->isDrawn() && t->view()->tokenCount() > 0; }));
    TokenView* view = t->view();
    EXPECT_EQ(view->tokenCount(), 6);
    EXPECT_EQ(view->headCount(), 2);
    EXPECT_EQ(view->head(), 0);
    EXPECT_EQ(t->stepShown(), QStringLiteral("weights"));
    // Causal: 1 + 2 + ... + 6 lines for one head.
    EXPECT_EQ(view->visibleLines().size(), 21u);
    t->allHeads()->setChecked(true);
    EXPECT_EQ(view->head(), -1);
    EXPECT_EQ(view->visibleLines().size(), 42u);
    t->allHeads()->setChecked(false);
    w.workspace()->selectHead(1);
    EXPECT_EQ(view->head(), 1);
    // Not a weight step: the weights are shown.
    w.workspace()->selectStep(QStringLiteral("queries"));
    EXPECT_EQ(t->stepShown(), QStringLiteral("weights"));
    w.workspace()->selectStep(QStringLiteral("weights_tril"));
    ASSERT_TRUE(attn::testing::waitUntil([t] { return t->isDrawn(); }));
    EXPECT_EQ(t->stepShown(), QStringLiteral("weights_tril"));
    // Hovering a query isolates its lines: "step" attends to all six tokens.
    view->setHovered({TokenView::Side::Query, 5});
    EXPECT_EQ(view->visibleLines().size(), 6u);
}

TEST(Teaching, CompareMaskingMethodsAreEqual) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.findChild<QAction*>(QStringLiteral("action_compareDock"))->trigger();
    EXPECT_TRUE(dock(w, "compareDock")->isVisible());
    ComparePanel* c = w.comparePanel();
    c->setPreset(ComparePanel::Preset::MaskingMethods);
    EXPECT_TRUE(c->view()->shapesMatch());
    EXPECT_LT(c->view()->maxAbsDifference(), 1e-6);
    EXPECT_TRUE(c->view()->isEqual());
}

TEST(Teaching, CompareCurrentWithAModifiedConfigurationOnASecondController) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.findChild<QAction*>(QStringLiteral("action_compareDock"))->trigger();
    ComparePanel* c = w.comparePanel();
    const quint64 mainGeneration = w.workspace()->latestGeneration();

    c->setPreset(ComparePanel::Preset::MaskNoneCausal);
    ASSERT_TRUE(settleCompare(c)) << c->message().toStdString();
    EXPECT_EQ(w.workspace()->latestGeneration(), mainGeneration);  // the main trace is untouched
    EXPECT_GE(c->controller()->latestGeneration(), 1u);
    ASSERT_TRUE(c->view()->shapesMatch()) << c->message().toStdString();
    // Row "Your" is 1.00 with the causal mask and about 1/6 without: a large difference.
    EXPECT_GT(c->view()->maxAbsDifference(), 0.3);
    EXPECT_TRUE(c->view()->captionText().contains(QStringLiteral("no mask")) ||
                c->message().contains(QStringLiteral("no mask")));

    // d_out 2 vs 768: the weights still have the same shape ...
    c->setPreset(ComparePanel::Preset::DOut2Vs768);
    ASSERT_TRUE(settleCompare(c));
    EXPECT_TRUE(c->view()->shapesMatch());
    EXPECT_GT(c->view()->maxAbsDifference(), 1e-3);
    // ... the queries do not, and the panel says why.
    w.workspace()->selectStep(QStringLiteral("queries"));
    EXPECT_FALSE(c->view()->shapesMatch());
    EXPECT_TRUE(c->message().contains(QStringLiteral("different shape")));

    w.workspace()->selectStep(QStringLiteral("weights"));
    c->setPreset(ComparePanel::Preset::WrapperVsMultiHead);
    ASSERT_TRUE(settleCompare(c));
    EXPECT_TRUE(c->message().contains(QStringLiteral("MultiHeadAttentionWrapper")) ||
                c->view()->captionText().contains(QStringLiteral("MultiHeadAttentionWrapper")))
        << c->message().toStdString();
}

// The walk through the variants after chapter 3, by clicks: grouped-query attention
// with 4 heads and 2 key/value groups shows the two key groups repeated into four heads in the
// strip and the shapes, and the cache it saves; a group count that does not divide the heads
// is refused next to its control with the counts that would; rotary shows its own options, and
// Compare shows the same weights with and without the rotation.
TEST(Teaching, AfterChapter3ByClicks) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* variant = w.findChild<QComboBox*>(QStringLiteral("variantCombo"));
    const auto pick = [&](Variant v) {
        const int i = variant->findData(int(v));
        ASSERT_GE(i, 0);
        variant->setCurrentIndex(i);
        emit variant->activated(i);
    };
    // The list has two headings that cannot be picked.
    const int heading = variant->findText(QStringLiteral("After chapter 3"));
    ASSERT_GE(heading, 0);
    EXPECT_FALSE(qobject_cast<QStandardItemModel*>(variant->model())->item(heading)->isEnabled());

    pick(Variant::GroupedQuery);
    w.findChild<QSpinBox*>(QStringLiteral("d_outSpin"))->setValue(4);
    w.findChild<QSpinBox*>(QStringLiteral("headsSpin"))->setValue(4);
    auto* groups = w.findChild<QSpinBox*>(QStringLiteral("kv_groupsSpin"));
    ASSERT_TRUE(groups->isVisibleTo(&w));
    EXPECT_FALSE(w.findChild<QSpinBox*>(QStringLiteral("head_dimSpin"))->isVisibleTo(&w));
    groups->setValue(2);
    ASSERT_TRUE(settle(w));
    const Config& c = w.workspace()->shownRun()->trace->config;
    EXPECT_EQ(c.variant, Variant::GroupedQuery);
    EXPECT_EQ(c.kvGroups, 2);
    const QStringList strip = w.stepView()->strip()->stepIds();
    EXPECT_TRUE(strip.contains(QStringLiteral("keys_groups")));
    EXPECT_TRUE(strip.contains(QStringLiteral("keys_repeated")));
    const QStringList shapes = [&] {
        QStringList out;
        QTableWidget* t = w.shapesPanel()->table();
        for (int r = 0; r < t->rowCount(); ++r)
            out << t->item(r, 0)->text() + QLatin1Char(' ') + t->item(r, 1)->text();
        return out;
    }();
    EXPECT_TRUE(shapes.contains(QStringLiteral("keys_groups (b=1, G=2, T=6, hd=1)")));
    EXPECT_TRUE(shapes.contains(QStringLiteral("keys_repeated (b=1, h=4, T=6, hd=1)")));
    auto* parameters = w.shapesPanel()->findChild<QLabel*>(QStringLiteral("parametersLabel"));
    EXPECT_TRUE(parameters->text().contains(
        QStringLiteral("<b>Key/value cache:</b> 16 bytes per token (multi-head attention with "
                       "the same heads: 32 bytes, 2× as many)")))
        << parameters->text().toStdString();

    groups->setValue(3);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.modulePanel()->fieldError(QStringLiteral("kv_groups")),
              QStringLiteral("4 heads cannot share 3 key/value groups equally: each group serves "
                             "heads / groups query heads. Valid group counts for 4 heads: 1, 2, "
                             "4."));
    groups->setValue(2);

    pick(Variant::Rotary);
    ASSERT_TRUE(settle(w));
    // d_in 3 over 4 heads is no head size: the head size control says so and takes one.
    EXPECT_TRUE(
        w.modulePanel()->fieldError(QStringLiteral("head_dim")).startsWith("d_in = 3 is not"));
    auto* headDim = w.findChild<QSpinBox*>(QStringLiteral("head_dimSpin"));
    ASSERT_TRUE(headDim->isVisibleTo(&w));
    headDim->setValue(2);
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.modulePanel()->fieldError(QStringLiteral("head_dim")).isEmpty());
    // Rotary has no d_out: its row is gone rather than showing another module's number.
    EXPECT_FALSE(w.findChild<QSpinBox*>(QStringLiteral("d_outSpin"))->isVisibleTo(&w));
    auto* rope = w.findChild<QCheckBox*>(QStringLiteral("ropeCheck"));
    ASSERT_TRUE(rope->isVisibleTo(&w));
    EXPECT_TRUE(w.stepView()->strip()->stepIds().contains(QStringLiteral("queries_rotated")));

    w.findChild<QAction*>(QStringLiteral("action_compareDock"))->trigger();
    ComparePanel* cp = w.comparePanel();
    w.workspace()->selectStep(QStringLiteral("weights"));
    cp->setPreset(ComparePanel::Preset::RopeOnOff);
    ASSERT_TRUE(settleCompare(cp)) << cp->message().toStdString();
    ASSERT_TRUE(cp->view()->shapesMatch());
    EXPECT_GT(cp->view()->maxAbsDifference(), 1e-3);
    EXPECT_TRUE(cp->view()->captionText().contains(QStringLiteral("without RoPE")) ||
                cp->message().contains(QStringLiteral("without RoPE")))
        << cp->view()->captionText().toStdString();
    cp->setPreset(ComparePanel::Preset::GroupsVsMultiHead);
    ASSERT_TRUE(settleCompare(cp));
    EXPECT_TRUE(cp->view()->shapesMatch());

    // Back on a chapter-3 module the group presets say where they apply.
    pick(Variant::MultiHead);
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(cp->message().contains(QStringLiteral("Only grouped-query and rotary")))
        << cp->message().toStdString();
    EXPECT_FALSE(groups->isVisibleTo(&w));
    EXPECT_TRUE(w.findChild<QSpinBox*>(QStringLiteral("d_outSpin"))->isVisibleTo(&w));
}

TEST(Teaching, LessonNextAppliesTheNextScreen) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    ASSERT_NE(w.findChild<QMenu*>(QStringLiteral("menuLesson")), nullptr);
    QAction* tour = w.findChild<QAction*>(QStringLiteral("actionLesson"));
    ASSERT_NE(tour, nullptr);
    tour->trigger();
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(dock(w, "lessonDock")->isVisible());
    LessonPanel* lesson = w.lessonPanel();
    EXPECT_EQ(lesson->currentIndex(), 0);
    EXPECT_EQ(w.workspace()->shownRun()->trace->config, lesson->currentScreen().config);

    for (int i = 1; i < std::min(lesson->count(), 6); ++i) {
        lesson->next();
        ASSERT_TRUE(settle(w));
        const LessonScreen& screen = lesson->currentScreen();
        EXPECT_EQ(lesson->currentIndex(), i);
        EXPECT_EQ(w.workspace()->shownRun()->trace->config, screen.config);
        EXPECT_EQ(w.workspace()->settings().step.toStdString(), screen.stepId);
        EXPECT_EQ(w.workspace()->shownRun()->settings.source, InputSource::Book);
        // The book's vectors are the book example, whatever module shows them.
        EXPECT_EQ(w.findChild<QComboBox*>(QStringLiteral("presetCombo"))->currentData().toString(),
                  QStringLiteral("book"));
    }
    lesson->back();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->shownRun()->trace->config, lesson->currentScreen().config);
}

TEST(Teaching, PresentationModeHidesTheDocksStepsWithAFadeAndRestores) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    PresentationController* p = w.presentation();
    QAction* presentation = w.findChild<QAction*>(QStringLiteral("actionPresentation"));
    auto* caption = w.findChild<QLabel*>(QStringLiteral("explanationLabel"));
    ASSERT_TRUE(dock(w, "explainDock")->isVisible());
    auto* statusLabel = w.findChild<QLabel*>(QStringLiteral("tokensStatus"));
    const QFont menuFont = w.menuBar()->font();
    const QFont statusFont = statusLabel->font();
    const QPalette palette = w.palette();
    const QSize size = w.size();
    presentation->setChecked(true);
    EXPECT_TRUE(p->isOn());
    EXPECT_GT(statusLabel->font().pointSizeF(), statusFont.pointSizeF());
    EXPECT_FALSE(dock(w, "explainDock")->isVisible());
    EXPECT_FALSE(dock(w, "inputDock")->isVisible());
    EXPECT_FALSE(dock(w, "shapesDock")->isVisible());
    EXPECT_FALSE(w.menuBar()->isVisible());
    EXPECT_FALSE(w.stepView()->headGrid()->isVisible());
    EXPECT_TRUE(w.stepView()->heatmap()->isVisible());
    EXPECT_TRUE(caption->isVisible());
    EXPECT_FALSE(caption->text().isEmpty());

    // A clicked cell's derivation is shown on the projector too.
    clickCell(w, 1, 0);
    auto* derivation = w.findChild<QTextBrowser*>(QStringLiteral("presentationDerivation"));
    ASSERT_NE(derivation, nullptr);
    EXPECT_TRUE(derivation->isVisible());
    EXPECT_TRUE(derivation->toPlainText().contains(QStringLiteral("journey")));

    // Right/Space = next step; from scaled_scores to weights the masked cells fade.
    w.workspace()->selectStep(QStringLiteral("scaled_scores"));
    const QString before = caption->text();
    p->next();
    EXPECT_EQ(w.workspace()->settings().step, QStringLiteral("weights"));
    EXPECT_TRUE(p->isAnimating());
    EXPECT_NE(caption->text(), before);
    p->next();  // a second press finishes the fade at once
    EXPECT_FALSE(p->isAnimating());
    EXPECT_EQ(w.workspace()->settings().step, QStringLiteral("weights_unmasked"));
    p->previous();
    EXPECT_EQ(w.workspace()->settings().step, QStringLiteral("weights"));
    EXPECT_EQ(w.stepView()->heatmap()->data().stepId, QStringLiteral("weights"));

    presentation->setChecked(false);
    EXPECT_FALSE(p->isOn());
    EXPECT_TRUE(dock(w, "explainDock")->isVisible());
    EXPECT_TRUE(dock(w, "inputDock")->isVisible());
    EXPECT_TRUE(w.menuBar()->isVisible());
    EXPECT_TRUE(w.stepView()->headGrid()->isVisible());
    EXPECT_FALSE(caption->isVisible());
    EXPECT_FALSE(derivation->isVisible());
    // Fonts and colours are exactly as before.
    EXPECT_EQ(w.menuBar()->font().pointSizeF(), menuFont.pointSizeF());
    EXPECT_EQ(statusLabel->font().pointSizeF(), statusFont.pointSizeF());
    EXPECT_EQ(w.palette().color(QPalette::Window), palette.color(QPalette::Window));
    EXPECT_EQ(w.size(), size);
    EXPECT_FALSE(w.isFullScreen());
}

TEST(Teaching, LessonWorksInPresentationMode) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.startLesson();
    ASSERT_TRUE(settle(w));
    w.findChild<QAction*>(QStringLiteral("actionPresentation"))->setChecked(true);
    EXPECT_TRUE(dock(w, "lessonDock")->isVisible());
    EXPECT_FALSE(dock(w, "explainDock")->isVisible());
    w.lessonPanel()->next();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->shownRun()->trace->config, w.lessonPanel()->currentScreen().config);
    w.findChild<QAction*>(QStringLiteral("actionPresentation"))->setChecked(false);
    EXPECT_TRUE(dock(w, "lessonDock")->isVisible());
}

TEST(Teaching, PresentationKeysStepAndEscapeLeaves) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&w));
    QAction* presentation = w.findChild<QAction*>(QStringLiteral("actionPresentation"));
    presentation->setChecked(true);
    HeatmapView* heatmap = w.stepView()->heatmap();
    auto step = [&] { return w.workspace()->settings().step; };
    w.workspace()->selectStep(QStringLiteral("masked_scores"));
    QTest::keyClick(heatmap, Qt::Key_Right);
    EXPECT_EQ(step(), QStringLiteral("scaled_scores"));
    QTest::keyClick(heatmap, Qt::Key_Space);
    EXPECT_EQ(step(), QStringLiteral("weights"));
    QTest::keyClick(heatmap, Qt::Key_Backspace);
    EXPECT_EQ(step(), QStringLiteral("scaled_scores"));
    QTest::keyClick(heatmap, Qt::Key_Left);
    EXPECT_EQ(step(), QStringLiteral("masked_scores"));
    QTest::keyClick(heatmap, Qt::Key_Escape);
    EXPECT_FALSE(presentation->isChecked());
    EXPECT_FALSE(w.presentation()->isOn());
    // Outside presentation mode the keys are the widgets' own again.
    QTest::keyClick(heatmap, Qt::Key_Space);
    EXPECT_EQ(step(), QStringLiteral("masked_scores"));
}

// A presenter's clicker sends PageDown and PageUp (some Space): with a lesson open in
// presentation mode they move the lesson's screens, the heatmap following its text; the arrows
// still walk the steps. The last screen stays up (no press closes the lesson); without a lesson
// the clicker walks the steps (issue #41: they moved the step and left the lesson text behind).
TEST(Teaching, ClickerKeysMoveTheLessonScreensInPresentationMode) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&w));
    w.startLesson();
    ASSERT_TRUE(settle(w));
    QAction* presentation = w.findChild<QAction*>(QStringLiteral("actionPresentation"));
    presentation->setChecked(true);
    LessonPanel* lesson = w.lessonPanel();
    HeatmapView* heatmap = w.stepView()->heatmap();
    auto step = [&] { return w.workspace()->settings().step.toStdString(); };
    ASSERT_EQ(lesson->currentIndex(), 0);
    QTest::keyClick(heatmap, Qt::Key_PageDown);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(lesson->currentIndex(), 1);
    EXPECT_EQ(step(), lesson->currentScreen().stepId);
    QTest::keyClick(heatmap, Qt::Key_Space);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(lesson->currentIndex(), 2);
    EXPECT_EQ(step(), lesson->currentScreen().stepId);
    QTest::keyClick(heatmap, Qt::Key_PageUp);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(lesson->currentIndex(), 1);
    EXPECT_EQ(step(), lesson->currentScreen().stepId);
    // The arrows walk the steps, the lesson screen stays.
    QTest::keyClick(heatmap, Qt::Key_Right);
    EXPECT_EQ(lesson->currentIndex(), 1);
    EXPECT_NE(step(), lesson->currentScreen().stepId);
    lesson->setCurrentIndex(lesson->count() - 1);
    ASSERT_TRUE(settle(w));
    QTest::keyClick(heatmap, Qt::Key_PageDown);
    EXPECT_EQ(lesson->currentIndex(), lesson->count() - 1);
    EXPECT_TRUE(dock(w, "lessonDock")->isVisible());
    // Without a lesson, the clicker walks the steps.
    dock(w, "lessonDock")->hide();
    w.workspace()->selectStep(QStringLiteral("scaled_scores"));
    const std::string before = step();
    QTest::keyClick(heatmap, Qt::Key_PageDown);
    EXPECT_NE(step(), before);
    QTest::keyClick(heatmap, Qt::Key_PageUp);
    EXPECT_EQ(step(), before);
    presentation->setChecked(false);
}

// The After chapter 3 lesson's last screens run a trained model of today's family: the bundled
// Llama (its All layers page with the key/value groups, then its shared keys step by step), or
// the Llama, Qwen or Gemma model the user had open when the lesson began.
TEST(Teaching, AfterChapter3EndsOnATrainedModelOfTodaysFamily) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.startLesson(LessonKind::AfterChapter3);
    LessonPanel* lesson = w.lessonPanel();
    lesson->setCurrentIndex(lesson->count() - 1);
    ASSERT_TRUE(attn::testing::waitUntil([&] { return w.workspace()->model() != nullptr; }, 60000));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().modelFile, QStringLiteral("tiny-shakespeare-llama"));
    EXPECT_EQ(w.workspace()->model()->arch.family, Family::Llama);
    EXPECT_EQ(w.workspace()->settings().step, QStringLiteral("keys_repeated"));
    EXPECT_EQ(w.workspace()->shownStep()->info.id, "keys_repeated");

    const QString qwen = QStringLiteral(ATTN_FIXTURES_DIR "/families/qwen3");
    w.workspace()->openModel(qwen);
    ASSERT_TRUE(attn::testing::waitUntil(
        [&] { return w.workspace()->settings().modelFile == qwen; }, 60000));
    ASSERT_TRUE(settle(w));
    w.startLesson(LessonKind::AfterChapter3);
    lesson->setCurrentIndex(lesson->count() - 2);
    ASSERT_TRUE(attn::testing::waitUntil([&] { return w.workspace()->model() != nullptr; }, 60000));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().modelFile, qwen);
    EXPECT_EQ(lesson->currentScreen().page, QStringLiteral("overview"));
}

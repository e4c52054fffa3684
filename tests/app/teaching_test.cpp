// The teaching layer inside the main window: the Explain dock, cell derivations, the token view,
// the PyTorch code, the compare dock, the chapter-3 lesson and presentation mode.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTextBrowser>

#include "app/heatmap_view.h"
#include "app/teaching_docks.h"
#include "app/trace_controller.h"
#include "app_test_util.h"
#include "engine/trace.h"
#include "teach/compare_view.h"
#include "teach/lesson.h"
#include "teach/pytorch_panel.h"
#include "teach/token_view.h"

using namespace attn;
using attn::testing::settle;
using attn::testing::testOptions;

namespace {

// Waits (without sleeping) until the compare dock has a finished comparison.
bool settleCompare(TeachingDocks* t) {
    QSignalSpy spy(t, &TeachingDocks::compareUpdated);
    for (int i = 0; i < 60 && t->compareMessage().contains(QStringLiteral("Computing")); ++i)
        spy.wait(1000);
    return !t->compareMessage().contains(QStringLiteral("Computing"));
}

void expectSameConfig(const Config& a, const Config& b) {
    EXPECT_EQ(a.variant, b.variant);
    EXPECT_EQ(a.dIn, b.dIn);
    EXPECT_EQ(a.dOut, b.dOut);
    EXPECT_EQ(a.effectiveHeads(), b.effectiveHeads());
    EXPECT_EQ(a.effectiveMask().kind, b.effectiveMask().kind);
    EXPECT_EQ(a.batch, b.batch);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_DOUBLE_EQ(a.dropout, b.dropout);
    EXPECT_EQ(a.mode, b.mode);
    EXPECT_EQ(a.contextLength, b.contextLength);
}

}  // namespace

TEST(Teaching, ClickingAWeightCellShowsItsDerivation) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    ASSERT_EQ(w.currentStep(), QStringLiteral("weights"));
    TeachingDocks* t = w.teaching();
    ASSERT_NE(t, nullptr);
    EXPECT_TRUE(t->derivationHtml().isEmpty());
    // Row "journey", column "Your" of head 0: 0.48 in the book's multi-head example.
    const float v = w.heatmapView()->data().value(1, 0);
    EXPECT_NEAR(v, 0.4776, 1e-4);
    emit w.heatmapView()->cellClicked(1, 0, v);
    const QString html = t->derivationHtml();
    ASSERT_FALSE(html.isEmpty());
    EXPECT_TRUE(html.contains(QStringLiteral("1.0000"))) << html.toStdString();  // the row sum
    EXPECT_TRUE(html.contains(QString::number(v, 'f', 4))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("journey")));
    EXPECT_TRUE(t->explainBrowser()->toPlainText().contains(
        QStringLiteral("Where this number comes from")));
    EXPECT_TRUE(t->explainBrowser()->toPlainText().contains(QStringLiteral("1.0000")));

    EXPECT_TRUE(t->hasCellOutline());

    // Head 1 shows head 1's numbers; a new step drops the old derivation and its outline.
    w.selectHead(1);
    EXPECT_TRUE(t->derivationHtml().isEmpty());
    EXPECT_FALSE(t->hasCellOutline());
    const float v1 = w.heatmapView()->data().value(1, 0);
    emit w.heatmapView()->cellClicked(1, 0, v1);
    EXPECT_TRUE(t->derivationHtml().contains(QString::number(v1, 'f', 4)));
    EXPECT_NE(QString::number(v1, 'f', 4), QString::number(v, 'f', 4));
}

TEST(Teaching, ExplainPanelFollowsTheStep) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    TeachingDocks* t = w.teaching();
    EXPECT_TRUE(t->explainDock()->isVisible());
    const QString weights = t->explanationHtml();
    EXPECT_TRUE(weights.contains(QStringLiteral("softmax"), Qt::CaseInsensitive));
    EXPECT_TRUE(weights.contains(QStringLiteral("(1, 2, 6, 6)")));
    w.selectStep(QStringLiteral("queries"));
    const QString queries = t->explanationHtml();
    EXPECT_NE(queries, weights);
    EXPECT_TRUE(queries.contains(QStringLiteral("W")));
    EXPECT_TRUE(queries.contains(QStringLiteral("(1, 6, 2)")));
    w.selectStep(QStringLiteral("weights"));
    EXPECT_EQ(t->explanationHtml(), weights);
    // The one-line explanation under the heatmap is gone outside presentation mode.
    EXPECT_FALSE(w.findChild<QLabel*>(QStringLiteral("explanationLabel"))->isVisible());
}

TEST(Teaching, PyTorchPanelShowsTheCurrentClassAndFollowsTheVariant) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    TeachingDocks* t = w.teaching();
    QSignalSpy updated(t, &TeachingDocks::pytorchUpdated);
    t->pytorchDock()->show();
    t->pytorchDock()->raise();
    QCoreApplication::processEvents();
    ASSERT_GE(updated.count(), 1);
    QString code = t->pytorchPanel()->code();
    EXPECT_TRUE(code.contains(QStringLiteral("torch.manual_seed(123)")));
    EXPECT_TRUE(code.contains(QStringLiteral("MultiHeadAttention(")));

    AppState s = w.state();
    s.config.variant = Variant::Causal;
    s.config.mask = defaultMask(Variant::Causal);
    w.setState(s);
    ASSERT_TRUE(settle(w));
    code = t->pytorchPanel()->code();
    EXPECT_TRUE(code.contains(QStringLiteral("CausalAttention(")));
    EXPECT_FALSE(code.contains(QStringLiteral("MultiHeadAttention(")));

    // Typed text: the same tokenizer, embedding seed and positions as the app.
    s.source = InputSource::Text;
    s.text = QStringLiteral("Hello attention");
    s.embeddingSeed = 7;
    w.setState(s);
    ASSERT_TRUE(settle(w));
    code = t->pytorchPanel()->code();
    EXPECT_TRUE(code.contains(QStringLiteral("torch.manual_seed(7)")));
    EXPECT_TRUE(code.contains(QStringLiteral("torch.manual_seed(123)")));
}

TEST(Teaching, TokenViewShowsTheWeightsOfTheCurrentHead) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    TeachingDocks* t = w.teaching();
    t->tokenDock()->show();
    t->tokenDock()->raise();
    QCoreApplication::processEvents();
    EXPECT_EQ(t->tokenView()->tokenCount(), 6);
    EXPECT_EQ(t->tokenView()->headCount(), 2);
    EXPECT_EQ(t->tokenView()->head(), 0);
    EXPECT_EQ(t->tokenViewStep(), QStringLiteral("weights"));
    // Causal: 1 + 2 + ... + 6 lines for one head.
    EXPECT_EQ(t->tokenView()->visibleLines().size(), 21u);
    t->allHeadsCheck()->setChecked(true);
    EXPECT_EQ(t->tokenView()->head(), -1);
    EXPECT_EQ(t->tokenView()->visibleLines().size(), 42u);
    t->allHeadsCheck()->setChecked(false);
    w.selectHead(1);
    EXPECT_EQ(t->tokenView()->head(), 1);
    // Not a weight step: the weights are shown.
    w.selectStep(QStringLiteral("queries"));
    EXPECT_EQ(t->tokenViewStep(), QStringLiteral("weights"));
    w.selectStep(QStringLiteral("weights_tril"));
    EXPECT_EQ(t->tokenViewStep(), QStringLiteral("weights_tril"));
    // Hovering a query isolates its lines: "step" attends to all six tokens.
    t->tokenView()->setHovered({TokenView::Side::Query, 5});
    EXPECT_EQ(t->tokenView()->visibleLines().size(), 6u);
}

TEST(Teaching, CompareMaskingMethodsAreEqual) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    TeachingDocks* t = w.teaching();
    w.findChild<QAction*>(QStringLiteral("actionCompare"))->trigger();
    EXPECT_TRUE(t->compareDock()->isVisible());
    t->setComparePreset(TeachingDocks::ComparePreset::MaskingMethods);
    EXPECT_TRUE(t->compareView()->shapesMatch());
    EXPECT_LT(t->compareView()->maxAbsDifference(), 1e-6);
    EXPECT_TRUE(t->compareView()->isEqual());
}

TEST(Teaching, CompareCurrentWithAModifiedConfigurationOnASecondController) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    TeachingDocks* t = w.teaching();
    w.findChild<QAction*>(QStringLiteral("actionCompare"))->trigger();
    const quint64 mainGeneration = w.controller()->latestGeneration();

    t->setComparePreset(TeachingDocks::ComparePreset::MaskNoneCausal);
    ASSERT_TRUE(settleCompare(t)) << t->compareMessage().toStdString();
    EXPECT_EQ(w.controller()->latestGeneration(), mainGeneration);  // the main trace is untouched
    EXPECT_GE(t->compareController()->latestGeneration(), 1u);
    ASSERT_TRUE(t->compareView()->shapesMatch()) << t->compareMessage().toStdString();
    // Row "Your" is 1.00 with the causal mask and about 1/6 without: a large difference.
    EXPECT_GT(t->compareView()->maxAbsDifference(), 0.3);
    EXPECT_TRUE(t->compareView()->captionText().contains(QStringLiteral("no mask")) ||
                t->compareMessage().contains(QStringLiteral("no mask")));

    // d_out 2 vs 768: the weights still have the same shape ...
    t->setComparePreset(TeachingDocks::ComparePreset::DOut2Vs768);
    ASSERT_TRUE(settleCompare(t));
    EXPECT_TRUE(t->compareView()->shapesMatch());
    EXPECT_GT(t->compareView()->maxAbsDifference(), 1e-3);
    // ... the queries do not, and the panel says why.
    w.selectStep(QStringLiteral("queries"));
    EXPECT_FALSE(t->compareView()->shapesMatch());
    EXPECT_TRUE(t->compareMessage().contains(QStringLiteral("different shape")));

    w.selectStep(QStringLiteral("weights"));
    t->setComparePreset(TeachingDocks::ComparePreset::WrapperVsMultiHead);
    ASSERT_TRUE(settleCompare(t));
    EXPECT_TRUE(
        t->compareMessage().contains(QStringLiteral("MultiHeadAttentionWrapper")) ||
        t->compareView()->captionText().contains(QStringLiteral("MultiHeadAttentionWrapper")))
        << t->compareMessage().toStdString();
}

TEST(Teaching, LessonNextAppliesTheNextScreen) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    TeachingDocks* t = w.teaching();
    QMenu* lessonMenu = w.findChild<QMenu*>(QStringLiteral("menuLesson"));
    ASSERT_NE(lessonMenu, nullptr);
    QAction* tour = w.findChild<QAction*>(QStringLiteral("actionLesson"));
    ASSERT_NE(tour, nullptr);
    tour->trigger();
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(t->lessonDock()->isVisible());
    LessonPanel* lesson = t->lessonPanel();
    EXPECT_EQ(lesson->currentIndex(), 0);
    expectSameConfig(w.shownResult()->trace->config, lesson->currentScreen().config);

    for (int i = 1; i < std::min(lesson->count(), 6); ++i) {
        lesson->next();
        ASSERT_TRUE(settle(w));
        const LessonScreen& screen = lesson->currentScreen();
        EXPECT_EQ(lesson->currentIndex(), i);
        expectSameConfig(w.shownResult()->trace->config, screen.config);
        EXPECT_EQ(w.currentStep().toStdString(), screen.stepId);
        EXPECT_EQ(w.shownResult()->request.source, InputSource::Book);
    }
    lesson->back();
    ASSERT_TRUE(settle(w));
    expectSameConfig(w.shownResult()->trace->config, lesson->currentScreen().config);
}

TEST(Teaching, PresentationModeHidesTheDocksStepsWithAFadeAndRestores) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    TeachingDocks* t = w.teaching();
    QAction* presentation = w.findChild<QAction*>(QStringLiteral("actionPresentation"));
    auto* caption = w.findChild<QLabel*>(QStringLiteral("explanationLabel"));
    ASSERT_TRUE(t->explainDock()->isVisible());
    auto* statusLabel = w.findChild<QLabel*>(QStringLiteral("tokensStatus"));
    const QFont menuFont = w.menuBar()->font();
    const QFont statusFont = statusLabel->font();
    const QPalette palette = w.palette();
    const QSize size = w.size();
    presentation->setChecked(true);
    EXPECT_TRUE(t->isPresenting());
    EXPECT_GT(statusLabel->font().pointSizeF(), statusFont.pointSizeF());
    EXPECT_FALSE(t->explainDock()->isVisible());
    EXPECT_FALSE(w.findChild<QDockWidget*>(QStringLiteral("inputDock"))->isVisible());
    EXPECT_FALSE(w.findChild<QDockWidget*>(QStringLiteral("shapesDock"))->isVisible());
    EXPECT_FALSE(w.menuBar()->isVisible());
    EXPECT_FALSE(w.headGrid()->isVisible());
    EXPECT_TRUE(w.heatmapView()->isVisible());
    EXPECT_TRUE(caption->isVisible());
    EXPECT_FALSE(caption->text().isEmpty());
    EXPECT_EQ(caption->text(), t->presentationCaption());

    // Right/Space = next step; from scaled_scores to weights the masked cells fade.
    w.selectStep(QStringLiteral("scaled_scores"));
    const QString before = caption->text();
    t->presentationNext();
    EXPECT_EQ(w.currentStep(), QStringLiteral("weights"));
    EXPECT_TRUE(t->isAnimating());
    EXPECT_NE(caption->text(), before);
    t->presentationNext();  // a second press finishes the fade at once
    EXPECT_FALSE(t->isAnimating());
    EXPECT_EQ(w.currentStep(), QStringLiteral("weights_unmasked"));
    t->presentationPrevious();
    EXPECT_EQ(w.currentStep(), QStringLiteral("weights"));
    EXPECT_EQ(w.heatmapView()->data().stepId, QStringLiteral("weights"));

    presentation->setChecked(false);
    EXPECT_FALSE(t->isPresenting());
    EXPECT_TRUE(t->explainDock()->isVisible());
    EXPECT_TRUE(w.findChild<QDockWidget*>(QStringLiteral("inputDock"))->isVisible());
    EXPECT_TRUE(w.findChild<QDockWidget*>(QStringLiteral("shapesDock"))->isVisible());
    EXPECT_TRUE(w.menuBar()->isVisible());
    EXPECT_TRUE(w.headGrid()->isVisible());
    EXPECT_FALSE(caption->isVisible());
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
    TeachingDocks* t = w.teaching();
    t->startLesson();
    ASSERT_TRUE(settle(w));
    w.findChild<QAction*>(QStringLiteral("actionPresentation"))->setChecked(true);
    EXPECT_TRUE(t->lessonDock()->isVisible());
    EXPECT_FALSE(t->explainDock()->isVisible());
    t->lessonPanel()->next();
    ASSERT_TRUE(settle(w));
    expectSameConfig(w.shownResult()->trace->config, t->lessonPanel()->currentScreen().config);
    w.findChild<QAction*>(QStringLiteral("actionPresentation"))->setChecked(false);
    EXPECT_TRUE(t->lessonDock()->isVisible());
}

TEST(Teaching, PresentationKeysStepAndEscapeLeaves) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&w));
    QAction* presentation = w.findChild<QAction*>(QStringLiteral("actionPresentation"));
    presentation->setChecked(true);
    w.selectStep(QStringLiteral("masked_scores"));
    QTest::keyClick(w.heatmapView(), Qt::Key_Right);
    EXPECT_EQ(w.currentStep(), QStringLiteral("scaled_scores"));
    QTest::keyClick(w.heatmapView(), Qt::Key_Space);
    EXPECT_EQ(w.currentStep(), QStringLiteral("weights"));
    QTest::keyClick(w.heatmapView(), Qt::Key_Backspace);
    EXPECT_EQ(w.currentStep(), QStringLiteral("scaled_scores"));
    QTest::keyClick(w.heatmapView(), Qt::Key_Left);
    EXPECT_EQ(w.currentStep(), QStringLiteral("masked_scores"));
    QTest::keyClick(w.heatmapView(), Qt::Key_Escape);
    EXPECT_FALSE(presentation->isChecked());
    EXPECT_FALSE(w.teaching()->isPresenting());
    // Outside presentation mode the keys are the widgets' own again.
    QTest::keyClick(w.heatmapView(), Qt::Key_Space);
    EXPECT_EQ(w.currentStep(), QStringLiteral("masked_scores"));
}

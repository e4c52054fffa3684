// SPEC 10's ablation in the real window: a head switched off from the Heads menu or a head's
// context menu, every view recomputed, the predictions and the loss beside what they were, the
// switched-off heads listed with Restore all, marked in All layers and Head scores, undoable,
// and kept by sessions.
#include <gtest/gtest.h>

#include <qcustomplot.h>
#include <QAction>
#include <QComboBox>
#include <QGraphicsColorizeEffect>
#include <QMenu>
#include <QPlainTextEdit>
#include <QScreen>
#include <QTableView>
#include <QTest>
#include <QUndoStack>
#include <cmath>

#include "app/ablation_actions.h"
#include "app/app_test_util.h"
#include "app/centre_pages.h"
#include "app/head_scores_page.h"
#include "app/input_panel.h"
#include "app/logit_lens_page.h"
#include "app/main_window.h"
#include "app/overview_page.h"
#include "app/prediction_panel.h"
#include "app/sampling_bar.h"
#include "app/step_view.h"
#include "app/text_view_panel.h"
#include "app/token_view_panel.h"
#include "app/workspace.h"
#include "engine/decoder_forward.h"
#include "engine/generate.h"
#include "export/head_grid.h"
#include "export/heatmap_view.h"
#include "teach/head_summaries.h"
#include "teach/model_overview.h"
#include "teach/next_tokens.h"
#include "teach/text_view.h"
#include "teach/token_view.h"

using namespace attn;
using namespace attn::testing;

namespace {

// The big map's red cross: the lines drawn over its cells (QCPItemLine, none otherwise).
int crossLines(HeatmapView* map) {
    int n = 0;
    for (int i = 0; i < map->plot()->itemCount(); ++i)
        n += qobject_cast<QCPItemLine*>(map->plot()->item(i)) != nullptr;
    return n;
}

// The stale look: the grey colorize effect the main map has too.
bool looksStale(const QWidget* w) {
    return qobject_cast<QGraphicsColorizeEffect*>(w->graphicsEffect()) != nullptr;
}

const QString kText = QStringLiteral("a b c d a b c d");

bool openModelWithText(MainWindow& w) {
    w.workspace()->openModel(QStringLiteral(ATTN_FIXTURES_DIR "/models/hf_tied_f32.safetensors"));
    if (!waitUntil([&] { return !w.workspace()->isLoadingModel(); }) || !w.workspace()->model())
        return false;
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = kText;
    });
    return settle(w) && waitUntil([&] { return w.isSettled(); });
}

bool predictionsIn(NextTokensPanel* p) {
    return waitUntil(
        [p] { return !p->isComputing() && !p->predictions().empty() && !p->lossText().isEmpty(); });
}

}  // namespace

TEST(Ablation, ASwitchedOffHeadChangesThePredictionsAndTheLossBesideWhatTheyWere) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w));
    NextTokensPanel* p = w.predictionPanel()->panel();
    ASSERT_TRUE(predictionsIn(p));
    const std::vector<TokenProbability> before = p->predictions();
    const QString lossBefore = p->lossText();
    EXPECT_TRUE(lossBefore.startsWith(QStringLiteral("Loss on this text: ")))
        << lossBefore.toStdString();
    EXPECT_FALSE(lossBefore.contains(QStringLiteral("with every head")));
    AblationBar* bar = w.predictionPanel()->ablationBar();
    EXPECT_TRUE(bar->isHidden());

    // The selected head (layer 1, head 2) off from the Heads menu's Ctrl+K action.
    w.workspace()->selectLayer(1);
    w.workspace()->selectHead(2);
    QAction* toggle = w.ablationActions()->toggleAction();
    EXPECT_EQ(toggle->text(), QStringLiteral("Switch head L1H2 &off"));
    EXPECT_EQ(toggle->shortcut(), QKeySequence(QStringLiteral("Ctrl+K")));
    toggle->trigger();
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    EXPECT_EQ(w.workspace()->settings().ablation.heads, (std::vector<HeadRef>{{1, 2}}));
    EXPECT_EQ(w.workspace()->undoStack()->undoText(), QStringLiteral("Switch head L1H2 off"));
    EXPECT_EQ(toggle->text(), QStringLiteral("Switch head L1H2 back &on"));
    const TraceOutcome* shown = w.workspace()->shown();
    ASSERT_TRUE(shown->modelRun && shown->baselineRun);
    EXPECT_TRUE(shown->modelRun->ablation.contains(1, 2));
    EXPECT_TRUE(shown->baselineRun->ablation.empty());
    EXPECT_EQ(bar->summary(), QStringLiteral("Switched off: L1H2"));
    EXPECT_FALSE(bar->isHidden());
    EXPECT_TRUE(w.centrePages()->overviewPage()->overview()->isAblated(1, 2));
    EXPECT_FALSE(w.centrePages()->overviewPage()->overview()->isAblated(1, 1));

    // The predictions are the ablated run's, each with what it was; the loss says both.
    ASSERT_TRUE(predictionsIn(p));
    const auto expected = nextTokens(*shown->modelRun, 7, NextTokensPanel::kTopK);
    ASSERT_EQ(p->predictions().size(), expected.size());
    EXPECT_EQ(p->predictions().front().id, expected.front().id);
    EXPECT_DOUBLE_EQ(p->predictions().front().probability, expected.front().probability);
    const TextLoss loss = textLoss(*shown->modelRun, shown->baselineRun.get());
    EXPECT_EQ(p->lossText(), NextTokensPanel::lossText(loss));
    EXPECT_TRUE(p->lossText().contains(QStringLiteral("(with every head: ")));
    EXPECT_NE(loss.loss, loss.lossBefore);
    EXPECT_EQ(p->lossText().contains(QString::number(loss.lossBefore, 'f', 3)), true);
    EXPECT_EQ(QString::number(loss.lossBefore, 'f', 3), lossBefore.section(QLatin1Char(' '), 4, 4));

    // The coloured text (Ctrl+7): each token's loss, then how it changed, from the same losses.
    w.findChild<QAction*>(QStringLiteral("actionTextView"))->trigger();
    TextViewPanel* text = w.textPanel();
    ASSERT_TRUE(waitUntil([&] { return text->isVisible() && text->isDrawn(); }));
    text->setColouring(TextViewPanel::Colouring::Loss);
    ASSERT_TRUE(waitUntil([&] { return text->view()->showsValues(); }));
    EXPECT_TRUE(std::isnan(text->view()->valueOf(0)));  // the first token predicts nothing
    EXPECT_NEAR(text->view()->valueOf(5), loss.tokenLosses[4], 1e-9);
    EXPECT_TRUE(text->view()->caption().startsWith(QStringLiteral("Each token's loss")));
    text->setColouring(TextViewPanel::Colouring::LossChange);
    ASSERT_TRUE(waitUntil([&] {
        return text->view()->caption().contains(QStringLiteral("with L1H2 switched off"));
    }));
    EXPECT_NEAR(text->view()->valueOf(5), loss.tokenLosses[4] - loss.tokenLossesBefore[4], 1e-9);
    text->setColouring(TextViewPanel::Colouring::Attention);
    ASSERT_TRUE(waitUntil([&] { return !text->view()->showsValues(); }));

    // The head scores list marks it.
    HeadSummaries* scores = w.centrePages()->headScoresPage()->summaries();
    bool marked = false;
    for (int r = 0; r < scores->tableModel()->rowCount(); ++r)
        if (scores->rowHead(r) == std::pair<int, int>{1, 2})
            marked =
                scores->tableModel()->index(r, 1).data().toString() == QStringLiteral("2 (off)");
    EXPECT_TRUE(marked);

    // A second head from its context menu, then Restore all; undo brings them back.
    QMenu menu;
    w.ablationActions()->addHeadActions(&menu, 0, 3);
    ASSERT_FALSE(menu.actions().isEmpty());
    EXPECT_EQ(menu.actions().front()->text(), QStringLiteral("Switch head L0H3 &off"));
    menu.actions().front()->trigger();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().ablation.heads, (std::vector<HeadRef>{{0, 3}, {1, 2}}));
    EXPECT_EQ(bar->summary(), QStringLiteral("Switched off: L0H3, L1H2"));
    // Sessions keep them, with their mode.
    EXPECT_EQ(settingsToMap(w.workspace()->settings()).value(QStringLiteral("ablate")).toString(),
              QStringLiteral("0.3,1.2"));
    auto* mode = bar->findChild<QComboBox*>(QStringLiteral("ablationMode"));
    ASSERT_NE(mode, nullptr);
    mode->setCurrentIndex(1);
    emit mode->activated(1);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().ablation.mode, AblationMode::Mean);
    w.ablationActions()->restoreAllAction()->trigger();
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.workspace()->settings().ablation.empty());
    EXPECT_TRUE(bar->isHidden());
    ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    EXPECT_EQ(w.workspace()->shown()->baselineRun, nullptr);
    w.workspace()->undoStack()->undo();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().ablation.heads, (std::vector<HeadRef>{{0, 3}, {1, 2}}));

    // Back to the chapter's module: no head is off there, and the Heads menu is idle.
    w.workspace()->useModuleOfTheChapter();
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.workspace()->settings().ablation.empty());
    EXPECT_FALSE(toggle->isEnabled());
}

// The user guide: a switched-off head's pattern "is still drawn, veiled and crossed out in
// red" — the big heatmap too, not only its thumbnail and its tile; another head's map is not.
TEST(Ablation, ASwitchedOffHeadsBigMapIsCrossedOutAsItsThumbnailIs) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w));
    w.workspace()->selectLayer(1);
    w.workspace()->selectHead(2);
    w.workspace()->selectStep(QStringLiteral("weights"));
    ASSERT_TRUE(settle(w));
    HeatmapView* map = w.stepView()->heatmap();
    EXPECT_EQ(crossLines(map), 0);
    w.ablationActions()->toggleAction()->trigger();
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    ASSERT_TRUE(waitUntil([&] { return w.stepView()->headGrid()->isHeadOff(2); }));
    EXPECT_EQ(crossLines(map), 2);
    w.workspace()->selectStep(QStringLiteral("scores"));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(crossLines(map), 2);
    w.workspace()->selectHead(1);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(crossLines(map), 0);
    w.workspace()->selectHead(2);
    w.workspace()->selectLayer(0);  // the same head in another layer is on
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(crossLines(map), 0);
    w.workspace()->selectLayer(1);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(crossLines(map), 2);
    w.ablationActions()->restoreAllAction()->trigger();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(crossLines(map), 0);
}

// A stale result must look stale wherever it is shown, as the main map does: the head
// thumbnails, All layers, Head scores, the Logit lens, the Token view's lines, the coloured
// text and the next-token list grey out with it while the text cannot run, and come back in
// colour with the next result.
TEST(Ablation, AStaleModelResultLooksStaleInEveryView) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w));
    const std::vector<QWidget*> views{w.stepView()->headGrid(),
                                      w.centrePages()->overviewPage()->overview(),
                                      w.centrePages()->headScoresPage()->summaries(),
                                      w.predictionPanel()->panel(),
                                      w.centrePages()->logitLensPage(),
                                      w.tokenPanel()->view(),
                                      w.textPanel()->view()};
    for (QWidget* v : views)
        EXPECT_FALSE(looksStale(v)) << v->metaObject()->className();
    w.inputPanel()->textEdit()->clear();
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(w.workspace()->isStale());
    EXPECT_TRUE(w.stepView()->heatmap()->isStale());
    for (QWidget* v : views)
        EXPECT_TRUE(looksStale(v)) << v->metaObject()->className();
    w.inputPanel()->textEdit()->setPlainText(kText);
    ASSERT_TRUE(settle(w));
    ASSERT_FALSE(w.workspace()->isStale());
    for (QWidget* v : views)
        EXPECT_FALSE(looksStale(v)) << v->metaObject()->className();
}

// The grey reaches what is on screen at once: a table's viewport (the Logit lens) shows its
// cells grey as soon as the result goes stale, not in colour under a grey page until it is
// scrolled or shown again.
TEST(Ablation, TheStaleLookReachesATableOnScreen) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w));
    w.showPage(QStringLiteral("lens"));
    QTableView* table = w.centrePages()->logitLensPage()->table();
    ASSERT_TRUE(waitUntil([&] { return table->isVisible() && table->model()->rowCount() > 0; }));
    QTest::qWait(100);
    // The most saturated pixel of the table's cells, as the screen shows them.
    const auto saturation = [&] {
        const QRect cells = table->viewport()->rect();
        const QPoint at = table->viewport()->mapTo(&w, cells.topLeft());
        const QImage screen =
            w.screen()
                ->grabWindow(w.winId(), at.x(), at.y(), cells.width(), cells.height())
                .toImage();
        int most = 0;
        for (int y = 0; y < screen.height(); y += 2)
            for (int x = 0; x < screen.width(); x += 2)
                most = std::max(most, QColor(screen.pixel(x, y)).hsvSaturation());
        return most;
    };
    ASSERT_GT(saturation(), 150);  // the blues of the probable tokens
    w.inputPanel()->textEdit()->clear();
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(w.workspace()->isStale());
    QTest::qWait(100);
    EXPECT_LT(saturation(), 60);
}

// "Append sampled": the tokens generate() gives for the text, the seed and the settings, appended
// undoably; the same seed gives them again; temperature 0 is the most probable each time.
TEST(Sampling, AppendSampledAddsTheSeedsTokensAndTheSameSeedGivesThemAgain) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w));
    SamplingBar* bar = w.predictionPanel()->samplingBar();
    bar->setOptions(5, 0.8, 0, 1.0, 7);
    const std::vector<int64_t> prompt = w.workspace()->shown()->modelRun->ids;
    GenerateRequest g;
    g.model = w.workspace()->shown()->modelRun->model;
    g.ids = prompt;
    g.maxNew = 5;
    g.sampling = {0.8, 0, 1.0};
    g.seed = 7;
    const std::vector<int64_t> expected = generate(g).ids;

    bar->appendSampled();
    EXPECT_TRUE(bar->isGenerating());
    ASSERT_TRUE(waitUntil([&] { return !bar->isGenerating(); }));
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    EXPECT_EQ(w.workspace()->shown()->modelRun->ids, expected);
    EXPECT_EQ(w.workspace()->undoStack()->undoText(), QStringLiteral("Append 5 sampled tokens"));
    EXPECT_EQ(bar->note(), QStringLiteral("Appended 5 tokens sampled at temperature 0.8, seed 7."));
    const QString sampledText = w.workspace()->settings().text;

    w.workspace()->undoStack()->undo();
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    EXPECT_EQ(w.workspace()->settings().text, kText);
    bar->appendSampled();
    ASSERT_TRUE(waitUntil([&] { return !bar->isGenerating(); }));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().text, sampledText);

    // Temperature 0: the greedy continuation, the top token each step.
    w.workspace()->undoStack()->undo();
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    bar->setOptions(3, 0.0, 0, 1.0, 1);
    bar->appendSampled();
    ASSERT_TRUE(waitUntil([&] { return !bar->isGenerating(); }));
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    std::vector<int64_t> greedy = prompt;
    for (int i = 0; i < 3; ++i) {
        DecoderRequest r;
        r.model = g.model;
        r.ids = greedy;
        const auto run = runDecoder(r);
        greedy.push_back(nextTokens(*run, run->tokens() - 1, 1)[0].id);
    }
    EXPECT_EQ(w.workspace()->shown()->modelRun->ids, greedy);
}

// The logit lens page: each layer's top token at every position is the engine's logitLens, the
// last layer the model's own prediction; a click shows a cell's top 5.
TEST(LogitLens, ThePageShowsEachLayersTopTokenAndACellsTopFive) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w));
    ASSERT_TRUE(w.centrePages()->showPage(QStringLiteral("lens")));
    LogitLensPage* page = w.centrePages()->logitLensPage();
    ASSERT_TRUE(waitUntil([&] { return page->isDrawn(); }));
    const DecoderRun& run = *w.workspace()->shown()->modelRun;
    const LogitLens lens = logitLens(run, 5);
    ASSERT_EQ(page->table()->model()->rowCount(), 2);
    ASSERT_EQ(page->table()->model()->columnCount(), 8);
    for (int l = 0; l < 2; ++l)
        for (int i = 0; i < 8; ++i) {
            EXPECT_EQ(page->topToken(l, i),
                      visibleTokenText(lens[size_t(l)][size_t(i)][0].id, run.model.get()));
            EXPECT_DOUBLE_EQ(page->topProbability(l, i), lens[size_t(l)][size_t(i)][0].probability);
        }
    EXPECT_EQ(lens[1][7][0].id, nextTokens(run, 7, 1)[0].id);
    page->selectCell(1, 7);
    EXPECT_TRUE(page->detailText().startsWith(QStringLiteral("After layer 1, at token 7 ")))
        << page->detailText().toStdString();
    EXPECT_EQ(page->detailText().count(QChar(0x201c)), 6);  // the token and its top 5
    // A new text recomputes it.
    change(w, [](Settings& s) { s.text = QStringLiteral("a b c d"); });
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(waitUntil([&] { return page->isDrawn(); }));
    EXPECT_EQ(page->table()->model()->columnCount(), 4);
}

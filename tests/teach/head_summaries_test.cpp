// The head summaries: the list sorted by previous-token score puts the head built to attend to
// the previous token first, sorting by other columns, selection from the list, the maps and
// the best-head link, the off-thread computation for runs that keep no attention (stale ones
// dropped), and screenshots.

#include <gtest/gtest.h>

#include <QAbstractItemModel>
#include <QApplication>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <cmath>

#include "engine/model_test_util.h"
#include "teach/head_summaries.h"
#include "teach_test_util.h"

namespace attn {
namespace {

std::shared_ptr<DecoderModel> designedModel() {
    return testing::patternModel(testing::designedSpec());
}

double column(const QAbstractItemModel* m, int row, HeadScoreColumn c) {
    return m->index(row, int(c)).data(Qt::UserRole).toDouble();
}

TEST(HeadSummaries, ListSortedByPreviousTokenScorePutsThePreviousTokenHeadFirst) {
    const auto run = testing::runModel(designedModel(), testing::sequentialIds(12, 64));
    HeadSummaries w;
    w.resize(900, 640);
    w.setRun(run);
    EXPECT_FALSE(w.isComputing());
    const QAbstractItemModel* m = w.tableModel();
    ASSERT_EQ(m->rowCount(), 8);
    EXPECT_EQ(w.rowHead(0), std::make_pair(1, 2));
    EXPECT_GT(column(m, 0, HeadScoreColumn::PreviousToken), 0.99);
    for (int r = 1; r < m->rowCount(); ++r)
        EXPECT_LE(column(m, r, HeadScoreColumn::PreviousToken),
                  column(m, r - 1, HeadScoreColumn::PreviousToken))
            << r;
    // The head built to look at itself and the first-token head score lowest: their weight on
    // the previous token is ~0, below every evenly spreading head.
    const std::pair<int, int> last = w.rowHead(7), beforeLast = w.rowHead(6);
    EXPECT_TRUE((last == std::pair(1, 0) && beforeLast == std::pair(0, 1)) ||
                (last == std::pair(0, 1) && beforeLast == std::pair(1, 0)));
    // The list shows the numbers it sorts by.
    EXPECT_EQ(m->index(0, int(HeadScoreColumn::Layer)).data().toInt(), 1);
    EXPECT_EQ(m->index(0, int(HeadScoreColumn::Head)).data().toInt(), 2);

    // By first-token weight, highest first: the sink head.
    w.sortBy(HeadScoreColumn::FirstWeight, Qt::DescendingOrder);
    EXPECT_EQ(w.rowHead(0), std::make_pair(0, 1));
    // By entropy, lowest first: one of the focused heads (self, previous or first token).
    w.sortBy(HeadScoreColumn::Entropy, Qt::AscendingOrder);
    for (int r = 1; r < m->rowCount(); ++r)
        EXPECT_GE(column(m, r, HeadScoreColumn::Entropy),
                  column(m, r - 1, HeadScoreColumn::Entropy));
    const auto focused = w.rowHead(0);
    EXPECT_TRUE(focused == std::pair(1, 0) || focused == std::pair(1, 2) ||
                focused == std::pair(0, 1));
    // A header click sorts too.
    QHeaderView* header = w.table()->horizontalHeader();
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                      QPoint(header->sectionViewportPosition(int(HeadScoreColumn::Layer)) + 5, 5));
    EXPECT_EQ(header->sortIndicatorSection(), int(HeadScoreColumn::Layer));
    const bool up = header->sortIndicatorOrder() == Qt::AscendingOrder;
    EXPECT_EQ(w.rowHead(0).first, up ? 0 : 1);
    EXPECT_EQ(w.rowHead(7).first, up ? 1 : 0);
    EXPECT_FALSE(w.table()->isColumnHidden(int(HeadScoreColumn::PreviousToken)));
    EXPECT_TRUE(w.table()->isColumnHidden(int(HeadScoreColumn::Induction)));
}

TEST(HeadSummaries, ClickingARowSelectsItsHead) {
    const auto run = testing::runModel(designedModel(), testing::sequentialIds(12, 64));
    HeadSummaries w;
    w.resize(900, 640);
    w.setRun(run);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QSignalSpy selected(&w, &HeadSummaries::headSelected);
    QTableView* table = w.table();
    const QRect row2 = table->visualRect(table->model()->index(2, 2));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, row2.center());
    ASSERT_EQ(selected.count(), 1);
    const auto [l, h] = w.rowHead(2);
    EXPECT_EQ(selected[0][0].toInt(), l);
    EXPECT_EQ(selected[0][1].toInt(), h);
    EXPECT_EQ(w.currentLayer(), l);
    // The app's setCurrent moves the list's selection without a signal.
    w.setCurrent(1, 2);
    EXPECT_EQ(selected.count(), 1);
    EXPECT_EQ(table->selectionModel()->currentIndex().row(), 0);  // (1, 2) is first by score
}

// A right-click asks for the row's menu (to switch the head off) without selecting it, which
// would open its steps and leave the page the user is on.
TEST(HeadSummaries, ARightClickAsksForTheRowsMenuWithoutSelectingIt) {
    const auto run = testing::runModel(designedModel(), testing::sequentialIds(12, 64));
    HeadSummaries w;
    w.resize(900, 640);
    w.setRun(run);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QSignalSpy selected(&w, &HeadSummaries::headSelected);
    QSignalSpy menu(&w, &HeadSummaries::headMenuRequested);
    QTableView* table = w.table();
    const QRect row3 = table->visualRect(table->model()->index(3, 2));
    QTest::mousePress(table->viewport(), Qt::RightButton, {}, row3.center());
    QContextMenuEvent e(QContextMenuEvent::Mouse, row3.center(),
                        table->viewport()->mapToGlobal(row3.center()));
    QApplication::sendEvent(table->viewport(), &e);
    QTest::mouseRelease(table->viewport(), Qt::RightButton, {}, row3.center());
    EXPECT_EQ(selected.count(), 0);
    ASSERT_EQ(menu.count(), 1);
    const auto [l, h] = w.rowHead(3);
    EXPECT_EQ(menu[0][0].toInt(), l);
    EXPECT_EQ(menu[0][1].toInt(), h);
}

TEST(HeadSummaries, RunsWithoutAttentionComputeOffTheGuiThread) {
    const auto model = designedModel();
    const auto kept = testing::runModel(model, testing::sequentialIds(12, 64), true);
    const auto recomputed = testing::runModel(model, testing::sequentialIds(12, 64), false);
    ASSERT_FALSE(recomputed->attentionKept());
    HeadSummaries w;
    w.resize(900, 640);
    QSignalSpy changed(&w, &HeadSummaries::scoresChanged);
    w.setRun(recomputed);
    EXPECT_TRUE(w.isComputing());
    EXPECT_TRUE(std::isnan(w.scores().previousToken[0]));
    // Entropy and the other run summaries are there at once.
    EXPECT_FALSE(std::isnan(w.scores().entropy[0]));
    EXPECT_TRUE(testing::savePng(&w, QStringLiteral("head_summaries_computing.png")));
    QTRY_VERIFY(!w.isComputing());
    EXPECT_EQ(changed.count(), 2);
    const HeadScores expected = headScores(*kept);
    for (size_t i = 0; i < expected.previousToken.size(); ++i)
        EXPECT_NEAR(w.scores().previousToken[i], expected.previousToken[i], 1e-6) << i;
    EXPECT_EQ(w.rowHead(0), std::make_pair(1, 2));
}

TEST(HeadSummaries, AStaleComputationIsDropped) {
    const auto model = designedModel();
    const auto slow = testing::runModel(model, testing::sequentialIds(12, 64), false);
    const auto other = testing::runModel(designedModel(), testing::sequentialIds(5, 64), true);
    HeadSummaries w;
    w.setRun(slow);
    w.setRun(other);  // kept attention: scored at once, the first result is stale
    const HeadScores expected = headScores(*other);
    QTRY_COMPARE(w.droppedResults(), 1);
    EXPECT_FALSE(w.isComputing());
    for (size_t i = 0; i < expected.previousToken.size(); ++i)
        EXPECT_DOUBLE_EQ(w.scores().previousToken[i], expected.previousToken[i]);
}

TEST(HeadSummaries, InductionScoresShowAsAColumn) {
    const auto run = testing::runModel(designedModel(), repeatedRandomTokens(6, 64, 3));
    HeadScores s = headScores(*run);
    s.induction = runInductionScores(*run, 6);
    HeadSummaries w;
    w.setScores(s);
    EXPECT_FALSE(w.table()->isColumnHidden(int(HeadScoreColumn::Induction)));
    w.sortBy(HeadScoreColumn::Induction, Qt::DescendingOrder);
    const HeadPick best = highestScore(s.induction, s.heads);
    EXPECT_EQ(w.rowHead(0), std::make_pair(int(best.layer), int(best.head)));
    w.clear();
    EXPECT_EQ(w.tableModel()->rowCount(), 0);
}

// A run of a text said twice shows its induction scores by itself (column and map), which the
// copy lesson's last screen points at; a run of any other text shows neither.
TEST(HeadSummaries, ATextSaidTwiceShowsItsInductionScores) {
    const auto model = designedModel();
    const auto repeated = testing::runModel(model, repeatedRandomTokens(6, 64, 3));
    HeadSummaries w;
    w.resize(900, 640);
    w.show();
    w.setRun(repeated);
    EXPECT_EQ(w.scores().induction, runInductionScores(*repeated, 6));
    EXPECT_FALSE(w.table()->isColumnHidden(int(HeadScoreColumn::Induction)));
    const auto visibleMaps = [&] {
        int n = 0;
        for (int i = 0; i < 5; ++i) {
            const auto* map = w.findChild<QWidget*>(QStringLiteral("scoreMap%1").arg(i));
            n += map && map->isVisible();
        }
        return n;
    };
    EXPECT_EQ(visibleMaps(), 5);
    // The legend names the tokens the score was measured on.
    EXPECT_TRUE(w.legend().contains(
        QStringLiteral("Induction, on tokens 6 to 11, which repeat the tokens 6 before them")))
        << w.legend().toStdString();
    EXPECT_TRUE(testing::savePng(&w, QStringLiteral("head_summaries_said_twice.png")));
    w.setRun(testing::runModel(model, testing::sequentialIds(12, 64)));
    EXPECT_TRUE(w.scores().induction.empty());
    EXPECT_TRUE(w.table()->isColumnHidden(int(HeadScoreColumn::Induction)));
    EXPECT_EQ(visibleMaps(), 4);
    EXPECT_FALSE(w.legend().contains(QStringLiteral("Induction")));

    // A sentence typed twice behind a prefix, its first token spelled differently the second
    // time: the repeat is found and its rows scored.
    std::vector<int64_t> typed = {40, 41, 1, 2, 3, 4, 5, 42, 2, 3, 4, 5};
    const auto twice = testing::runModel(model, typed);
    w.setRun(twice);
    EXPECT_EQ(w.scores().repeat, (RepeatSpan{5, 8, 12}));
    EXPECT_EQ(w.scores().induction.size(), size_t(w.scores().layers * w.scores().heads));
    EXPECT_TRUE(w.legend().contains(QStringLiteral("on tokens 8 to 11")));
}

// A narrow page (a dock beside it at 1280 x 720) sets a map's title smaller or elides it: no
// title is cut at both ends ("revious toker").
TEST(HeadSummaries, AMapsTitleFitsItsWidth) {
    const auto run = testing::runModel(designedModel(), testing::sequentialIds(12, 64));
    HeadSummaries w;
    w.resize(300, 600);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    w.setRun(run);
    auto* map = w.findChild<QWidget*>(QStringLiteral("scoreMap0"));  // "previous token"
    ASSERT_NE(map, nullptr);
    ASSERT_LT(map->width(), 110);
    QFont bold = map->font();
    bold.setBold(true);
    ASSERT_GT(QFontMetrics(bold).horizontalAdvance(QStringLiteral("previous token")),
              map->width());  // the case: the title is wider than its map
    const QImage image = map->grab().toImage();
    const int band = QFontMetrics(map->font()).height();
    const QColor background = image.pixelColor(map->width() / 2, band + 3);
    const auto inked = [&](int x) {
        for (int y = 0; y < band; ++y) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.lightness() - background.lightness()) > 60)
                return true;
        }
        return false;
    };
    EXPECT_FALSE(inked(0) && inked(image.width() - 1));
    EXPECT_FALSE(inked(0));
    // The list's columns keep room for their titles' longest word; the list scrolls instead.
    QHeaderView* header = w.table()->horizontalHeader();
    QFont headerBold = header->font();
    headerBold.setBold(true);
    const int previous = QFontMetrics(headerBold).horizontalAdvance(QStringLiteral("previous"));
    for (int c = 0; c < header->count(); ++c)
        if (!header->isSectionHidden(c))
            EXPECT_GT(header->sectionSize(c), previous) << c;
}

TEST(HeadSummaries, Screenshots) {
    const auto run = testing::screenshotRun();
    HeadSummaries w;
    w.resize(960, 720);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    w.setRun(run);
    w.setCurrent(4, 7);
    EXPECT_TRUE(testing::savePng(&w, QStringLiteral("head_summaries_light.png")));
    w.setPalette(testing::darkPalette());
    EXPECT_TRUE(testing::savePng(&w, QStringLiteral("head_summaries_dark.png")));
}

// GPT-2 XL's 48 x 25 heads: the maps scale down, the list scrolls. Scores made up: the
// previous-token score grows with the head, the first-token weight with the layer.
TEST(HeadSummaries, Gpt2XlScreenshot) {
    HeadScores s;
    s.layers = 48;
    s.heads = 25;
    for (int l = 0; l < 48; ++l)
        for (int h = 0; h < 25; ++h) {
            s.previousToken.push_back(h / 24.0);
            s.entropy.push_back(0.5 + 0.05 * ((l * 7 + h * 3) % 40));
            s.distance.push_back(1.0 + 0.2 * ((l + h) % 30));
            s.firstWeight.push_back(l / 47.0);
        }
    HeadSummaries w;
    w.resize(960, 720);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    w.setScores(s);
    EXPECT_EQ(w.rowHead(0).second, 24);  // the highest previous-token score: head 24
    // A head set from outside (the layer control, a new result) is selected in the list, but
    // the list stays at its top, where the strongest heads are.
    w.setCurrent(30, 10);
    QTableView* table = w.table();
    EXPECT_EQ(w.rowHead(table->currentIndex().row()), std::make_pair(30, 10));
    EXPECT_GT(table->currentIndex().row(), 100);
    EXPECT_EQ(table->verticalScrollBar()->value(), 0);
    EXPECT_TRUE(testing::savePng(&w, QStringLiteral("head_summaries_48x25.png")));
    // A head picked on this page (here the strongest-head link's way) scrolls its row into view.
    QLabel* link = nullptr;
    for (QLabel* l : w.findChildren<QLabel*>())
        if (l->text().contains(QStringLiteral("href=\"head:")))
            link = l;
    ASSERT_NE(link, nullptr);
    emit link->linkActivated(QStringLiteral("head:40:3"));
    const int row = table->currentIndex().row();
    EXPECT_EQ(w.rowHead(row), std::make_pair(40, 3));
    EXPECT_GT(table->verticalScrollBar()->value(), 0);
    const QRect shown = table->visualRect(table->model()->index(row, 0));
    EXPECT_TRUE(table->viewport()->rect().contains(shown.center()));
}

// The Head scores page is hidden behind another centre page while results come in, and each
// one sets the current head: when the page is opened, its list is at its top, the strongest
// heads, not scrolled down to the head set while it was hidden.
TEST(HeadSummaries, AListOpenedAfterItsHeadWasSetStartsAtItsTop) {
    HeadScores s;
    s.layers = 48;
    s.heads = 25;
    for (int l = 0; l < 48; ++l)
        for (int h = 0; h < 25; ++h) {
            s.previousToken.push_back(h / 24.0);
            s.entropy.push_back(1.0);
            s.distance.push_back(1.0);
            s.firstWeight.push_back(l / 47.0);
        }
    HeadSummaries w;
    w.resize(960, 720);
    w.setScores(s);
    w.setCurrent(30, 10);  // hidden: the window shows another page
    QTableView* table = w.table();
    ASSERT_GT(table->currentIndex().row(), 100);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QApplication::processEvents();
    EXPECT_EQ(table->verticalScrollBar()->value(), 0);
    EXPECT_EQ(w.rowHead(table->rowAt(0)).second, 24);  // the first row shown: the strongest
    EXPECT_EQ(w.rowHead(table->currentIndex().row()), std::make_pair(30, 10));
}

}  // namespace
}  // namespace attn

// The next-token panel: its list is nextTokens() for the position, appending emits the right
// id (top token, selected row, double-click), positions and runs change it, stale predictions
// are dropped, and token text is made visible.

#include <gtest/gtest.h>
#include <QAbstractItemModel>
#include <QApplication>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QVBoxLayout>

#include "engine/model_test_util.h"
#include "teach/next_tokens.h"
#include "teach_test_util.h"

namespace attn {
namespace {

std::shared_ptr<const DecoderRun> someRun(int64_t T = 12) {
    testing::PatternModelSpec s;
    s.noise = 1.0f;
    s.pattern = [](int64_t, int64_t h) {
        return h % 2 ? testing::HeadPattern::Previous : testing::HeadPattern::Random;
    };
    return testing::runModel(testing::patternModel(s), testing::sequentialIds(T, 64));
}

void expectSame(const std::vector<TokenProbability>& a, const std::vector<TokenProbability>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].id, b[i].id) << i;
        EXPECT_DOUBLE_EQ(a[i].probability, b[i].probability) << i;
    }
}

TEST(NextTokensPanel, ListsTheTopTenOfTheLastTokenAndAppends) {
    const auto run = someRun();
    NextTokensPanel w;
    w.resize(420, 420);
    QSignalSpy append(&w, &NextTokensPanel::appendRequested);
    w.setRun(run);
    EXPECT_EQ(w.position(), 11);
    EXPECT_TRUE(w.isComputing());
    EXPECT_TRUE(w.headingText().contains(QStringLiteral("computing")));
    w.appendTop();  // nothing to append yet
    EXPECT_EQ(append.count(), 0);
    QTRY_VERIFY(!w.isComputing());
    const std::vector<TokenProbability> expected = nextTokens(*run, 11, 10);
    expectSame(w.predictions(), expected);
    EXPECT_EQ(w.headingText(), QStringLiteral("After token 11 \"%1\", the model predicts:")
                                   .arg(visibleTokenText(run->ids[11])));
    EXPECT_TRUE(w.actualText().isEmpty());  // the last token: nothing follows in the text
    // The list shows the same tokens in the same order.
    QTableView* list = w.findChild<QTableView*>();
    ASSERT_NE(list, nullptr);
    ASSERT_EQ(list->model()->rowCount(), 10);
    for (int r = 0; r < 10; ++r)
        EXPECT_EQ(list->model()->index(r, 1).data().toString(),
                  visibleTokenText(expected[size_t(r)].id));

    w.appendTop();
    ASSERT_EQ(append.count(), 1);
    EXPECT_EQ(append[0][0].value<int64_t>(), expected[0].id);
    w.appendSelected();  // no row selected
    EXPECT_EQ(append.count(), 1);
    w.selectRow(3);
    EXPECT_EQ(w.selectedRow(), 3);
    w.appendSelected();
    ASSERT_EQ(append.count(), 2);
    EXPECT_EQ(append[1][0].value<int64_t>(), expected[3].id);

    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    const QRect row5 = list->visualRect(list->model()->index(5, 1));
    // A double-click is a press, a release and the double-click event.
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, row5.center());
    QTest::mouseDClick(list->viewport(), Qt::LeftButton, {}, row5.center());
    ASSERT_EQ(append.count(), 3);
    EXPECT_EQ(append[2][0].value<int64_t>(), expected[5].id);
    EXPECT_TRUE(testing::savePng(&w, QStringLiteral("next_tokens_light.png")));
    w.setPalette(testing::darkPalette());
    EXPECT_TRUE(testing::savePng(&w, QStringLiteral("next_tokens_dark.png")));
}

// The numbers read in the reader's locale, as the lesson texts and the validation loss do:
// "12,8%" and "Loss on this text: 5,529" in German, the English forms in English.
TEST(NextTokensPanel, ProbabilitiesAndTheLossReadInTheLocale) {
    const auto run = someRun();
    const QLocale before;
    for (const bool german : {false, true}) {
        QLocale::setDefault(german ? QLocale(QLocale::German, QLocale::Germany)
                                   : QLocale(QLocale::English, QLocale::UnitedStates));
        NextTokensPanel w;
        w.setRun(run);
        QTRY_VERIFY(!w.isComputing());
        QTableView* list = w.findChild<QTableView*>();
        ASSERT_NE(list, nullptr);
        const double p = w.predictions().front().probability;
        ASSERT_GE(p, 0.1);
        const QString expected = QString::number(100.0 * p, 'f', 1) + QLatin1Char('%');
        EXPECT_EQ(
            list->model()->index(0, 2).data().toString(),
            german ? QString(expected).replace(QLatin1Char('.'), QLatin1Char(',')) : expected);
        TextLoss loss;
        loss.loss = 5.5294;
        loss.lossBefore = 5.4;
        EXPECT_TRUE(NextTokensPanel::lossText(loss).contains(german ? QStringLiteral("5,529 ")
                                                                    : QStringLiteral("5.529 ")))
            << NextTokensPanel::lossText(loss).toStdString();
        EXPECT_TRUE(NextTokensPanel::lossText(loss).contains(
            german ? QStringLiteral("5,400, +0,129") : QStringLiteral("5.400, +0.129")))
            << NextTokensPanel::lossText(loss).toStdString();
    }
    QLocale::setDefault(before);
}

// A new list opens at its top: scrolled down to rank 10 for one text, the list for the next
// text (Append sampled) showed ranks 5 to 10 with the most probable out of view.
TEST(NextTokensPanel, ANewListOpensAtItsMostProbableToken) {
    NextTokensPanel w;
    w.resize(360, 260);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    w.setRun(someRun(12));
    QTRY_VERIFY(!w.isComputing());
    QTableView* list = w.findChild<QTableView*>();
    ASSERT_NE(list, nullptr);
    QScrollBar* bar = list->verticalScrollBar();
    // The scroll range follows the rows once the view has laid them out.
    QTRY_VERIFY2(bar->maximum() > 0, "the list must scroll at this size");
    bar->setValue(bar->maximum());
    w.setRun(someRun(14));
    QTRY_VERIFY(!w.isComputing());
    EXPECT_EQ(bar->value(), 0);
}

// With heads switched off each probability says what it was ("99.5% (was 99.8%)"): the column
// takes the room the tokens leave, so that text is never cut in a narrow panel (the left column
// at 1366 x 768; in German, "(vorher 99,8 %)", it was cut at "(vorher 99,8").
TEST(NextTokensPanel, ProbabilitiesWithWhatTheyWereFitTheirColumn) {
    testing::PatternModelSpec s;
    s.noise = 2.0f;
    const auto baseline =
        testing::runModel(testing::patternModel(s), testing::sequentialIds(12, 64));
    NextTokensPanel w;
    w.resize(270, 420);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    w.setRun(someRun(12), baseline);
    QTRY_VERIFY(!w.isComputing());
    QTableView* list = w.findChild<QTableView*>();
    ASSERT_NE(list, nullptr);
    QCoreApplication::processEvents();
    for (int r = 0; r < list->model()->rowCount(); ++r) {
        const QString text = list->model()->index(r, 2).data().toString();
        ASSERT_TRUE(text.contains(QStringLiteral("(was "))) << text.toStdString();
        EXPECT_LE(list->fontMetrics().horizontalAdvance(text) + 12, list->columnWidth(2))
            << r << " " << text.toStdString();
        // The token keeps its column too.
        EXPECT_LE(
            list->fontMetrics().horizontalAdvance(list->model()->index(r, 1).data().toString()),
            list->columnWidth(1))
            << r;
    }
}

TEST(NextTokensPanel, AnEarlierPositionAlsoRatesTheRealNextToken) {
    const auto run = someRun();
    NextTokensPanel w;
    w.setRun(run);
    w.setPosition(4);
    EXPECT_EQ(w.position(), 4);
    QTRY_VERIFY(!w.isComputing());
    expectSame(w.predictions(), nextTokens(*run, 4, 10));
    // The text goes on with ids[5]; its rank counts the tokens more probable than it.
    const int64_t actual = run->ids[5];
    const double p = std::exp(nextTokenLogProbability(*run, 4, actual));
    const std::vector<TokenProbability> all = nextTokens(*run, 4, 64);
    int rank = 0;
    while (all[size_t(rank)].id != actual)
        ++rank;
    EXPECT_TRUE(w.actualText().contains(QStringLiteral("rank %1").arg(rank + 1)))
        << w.actualText().toStdString() << " p " << p;
    EXPECT_TRUE(w.actualText().contains(visibleTokenText(actual)));
    // A new, longer run (typing) keeps a position in the middle; one at the end follows the end.
    const auto longer = someRun(14);
    w.setRun(longer);
    EXPECT_EQ(w.position(), 4);
    w.setPosition(-1);
    EXPECT_EQ(w.position(), 13);
    const auto shorter = someRun(3);
    w.setRun(shorter);
    EXPECT_EQ(w.position(), 2);
    QTRY_VERIFY(!w.isComputing());
    expectSame(w.predictions(), nextTokens(*shorter, 2, 10));
}

TEST(NextTokensPanel, StalePredictionsAreDropped) {
    const auto run = someRun();
    NextTokensPanel w;
    w.setRun(run);     // position 11 starts computing
    w.setPosition(2);  // waits; 11's answer is stale when it lands
    w.setPosition(6);  // replaces 2
    QTRY_VERIFY(!w.isComputing());
    EXPECT_EQ(w.droppedResults(), 1);
    expectSame(w.predictions(), nextTokens(*run, 6, 10));
    w.clear();
    EXPECT_TRUE(w.predictions().empty());
    EXPECT_EQ(w.headingText(), QStringLiteral("No model run yet."));
}

// A position already answered for the same run (the user goes back, or another layer reuses the
// forward) is shown at once from what was kept; a new run forgets it.
TEST(NextTokensPanel, PositionsAlreadyAnsweredForTheRunAreShownAtOnce) {
    const auto run = someRun();
    NextTokensPanel w;
    w.setRun(run);
    QTRY_VERIFY(!w.isComputing());
    w.setPosition(3);
    EXPECT_TRUE(w.isComputing());  // not asked before: computed in the background
    QTRY_VERIFY(!w.isComputing());
    const std::vector<TokenProbability> at3 = w.predictions();
    w.setPosition(-1);
    EXPECT_FALSE(w.isComputing());  // answered before: kept
    expectSame(w.predictions(), nextTokens(*run, 11, 10));
    w.setPosition(3);
    EXPECT_FALSE(w.isComputing());
    expectSame(w.predictions(), at3);
    EXPECT_TRUE(w.actualText().contains(QStringLiteral("rank")));
    w.setRun(run);  // the same run again (another layer): still kept
    EXPECT_FALSE(w.isComputing());
    const auto other = someRun(12);
    w.setRun(other);  // another run of the same length: asked again
    EXPECT_TRUE(w.isComputing());
    QTRY_VERIFY(!w.isComputing());
    expectSame(w.predictions(), nextTokens(*other, 3, 10));
}

TEST(NextTokensPanel, TheUsersPositionBoxAsksForAnotherPosition) {
    const auto run = someRun();
    NextTokensPanel w;
    QSignalSpy moved(&w, &NextTokensPanel::positionChanged);
    w.setRun(run);
    EXPECT_EQ(moved.count(), 0);  // the app's choice
    auto* box = w.findChild<QSpinBox*>();
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(box->maximum(), 11);
    box->setValue(7);
    ASSERT_EQ(moved.count(), 1);
    EXPECT_EQ(moved[0][0].toInt(), 7);
    QTRY_VERIFY(!w.isComputing());
    expectSame(w.predictions(), nextTokens(*run, 7, 10));
}

TEST(NextTokensPanel, TokenTextIsVisible) {
    EXPECT_EQ(visibleTokenText(262), QStringLiteral("\u00b7the"));  // " the"
    EXPECT_EQ(visibleTokenText(198), QStringLiteral("\u21b5"));     // "\n"
    EXPECT_EQ(visibleTokenText(220), QStringLiteral("\u00b7"));     // " "
    EXPECT_EQ(visibleTokenText(50257), QStringLiteral("#50257"));
    EXPECT_EQ(visibleTokenText(std::string("e4 bd"), true), QStringLiteral("\u2039e4 bd\u203a"));
    EXPECT_EQ(visibleTokenText(std::string("\tx  y"), false),
              QStringLiteral("\u2192x\u00b7\u00b7y"));
}

// Append continues the text: with a position inside the text picked (a clicked heatmap row, to
// read what the model predicted there), Append top token still appends the most probable token
// after the last one, and Append selected, whose list is about the middle, is off.
TEST(NextTokensPanel, AppendContinuesTheTextWhicheverPositionIsPicked) {
    const auto run = someRun();
    const int64_t lastTop = nextTokens(*run, 11, 1).front().id;
    int inside = 0;
    while (inside < 11 && nextTokens(*run, inside, 1).front().id == lastTop)
        ++inside;
    ASSERT_LT(inside, 11) << "every position predicts the same token";
    NextTokensPanel w;
    QSignalSpy append(&w, &NextTokensPanel::appendRequested);
    w.setRun(run);
    w.setPosition(inside);
    QTRY_VERIFY(!w.isComputing());
    ASSERT_NE(w.predictions().front().id, lastTop);
    auto* appendSelected = [&] {
        for (QPushButton* b : w.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Append selected"))
                return b;
        return static_cast<QPushButton*>(nullptr);
    }();
    ASSERT_NE(appendSelected, nullptr);
    w.selectRow(0);
    EXPECT_FALSE(appendSelected->isEnabled());
    EXPECT_TRUE(appendSelected->toolTip().contains(QStringLiteral("after its last token")));
    w.appendSelected();
    EXPECT_EQ(append.count(), 0);

    w.appendTop();
    QTRY_COMPARE(append.count(), 1);
    EXPECT_EQ(append[0][0].value<int64_t>(), lastTop);
    EXPECT_EQ(w.position(), 11);  // the prediction shown is the one appended
    // Picking another position meanwhile drops an append that waits for the last one.
    w.setRun(someRun(13));
    w.setPosition(inside);
    QTRY_VERIFY(!w.isComputing());
    w.appendTop();
    EXPECT_EQ(w.position(), 12);
    w.setPosition(inside);
    QTRY_VERIFY(!w.isComputing());
    w.setPosition(12);
    QTRY_VERIFY(!w.isComputing());
    EXPECT_EQ(append.count(), 1);
}

// The Append buttons stay under the pointer: a button disabled while the next prediction
// computes hands the focus to the panel, not to the next control in the tab order, which the
// scroll area around would scroll into view (the sampling bar's spin box at 1280x720).
TEST(NextTokensPanel, AButtonDisabledWhileComputingKeepsTheScrollAreaStill) {
    QWidget window;
    auto* outer = new QVBoxLayout(&window);
    auto* area = new QScrollArea(&window);
    area->setWidgetResizable(true);
    outer->addWidget(area);
    auto* content = new QWidget;
    auto* column = new QVBoxLayout(content);
    auto* panel = new NextTokensPanel(content);
    panel->setMinimumHeight(420);
    column->addWidget(panel);
    auto* below = new QSpinBox(content);  // under the fold, next in the tab order
    column->addWidget(below);
    area->setWidget(content);
    window.resize(420, 300);
    window.show();
    QApplication::setActiveWindow(&window);
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    panel->setRun(someRun());
    QTRY_VERIFY(!panel->isComputing());
    QPushButton* top = nullptr;
    for (QPushButton* b : panel->findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Append top token"))
            top = b;
    ASSERT_NE(top, nullptr);
    area->ensureWidgetVisible(top);
    const int scrolled = area->verticalScrollBar()->value();
    const QPoint at = top->mapTo(&window, QPoint(0, 0));
    QTest::mouseClick(top, Qt::LeftButton);
    ASSERT_TRUE(top->hasFocus());
    panel->setRun(someRun(13));  // what Append brings: a new run, computing
    EXPECT_TRUE(panel->isComputing());
    EXPECT_FALSE(below->hasFocus());
    EXPECT_EQ(area->verticalScrollBar()->value(), scrolled);
    QTRY_VERIFY(!panel->isComputing());
    EXPECT_EQ(top->mapTo(&window, QPoint(0, 0)), at);
    EXPECT_TRUE(top->isEnabled());
}

TEST(NextTokensPanel, ControlCharactersAreWrittenAsEscapes) {
    EXPECT_EQ(visibleTokenText(std::string("a\x1b"
                                           "b\x7f\x01"),
                               false),
              QStringLiteral("a\\x1bb\\x7f\\x01"));
    EXPECT_EQ(visibleTokenText(std::string("\xc2\x85"), false),
              QStringLiteral("\\x85"));  // NEL, C1
    EXPECT_EQ(visibleTokenText(std::string("\t x\n"), false),
              QStringLiteral("\u2192\u00b7x\u21b5"));
}

}  // namespace
}  // namespace attn

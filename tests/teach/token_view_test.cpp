// The token view at scale: which links it draws (the strongest few per query), that a render
// finished after the view changed is thrown away, that masked keys read "masked", labels of
// repeated tokens, and scrolling through a thousand tokens. PNGs go to build/.../png.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QStyle>
#include <QStyleFactory>
#include <QTest>

#include <cmath>
#include <random>

#include "teach/token_view.h"
#include "teach_test_util.h"

namespace attn {
namespace {

using testing::bookConfig;
using testing::bookTokenList;
using testing::bookTrace;

// h causal attention matrices over T tokens: a softmax of random scores per row, the same for
// a given seed.
std::vector<std::vector<float>> causalWeights(int heads, int T, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> score(0.0f, 2.0f);
    std::vector<std::vector<float>> out(size_t(heads), std::vector<float>(size_t(T) * T, 0.0f));
    for (auto& w : out) {
        for (int q = 0; q < T; ++q) {
            float* row = w.data() + size_t(q) * T;
            double sum = 0;
            for (int k = 0; k <= q; ++k)
                sum += row[k] = std::exp(score(rng));
            for (int k = 0; k <= q; ++k)
                row[k] = float(row[k] / sum);
        }
    }
    return out;
}

std::vector<uint8_t> causalHidden(int T) {
    std::vector<uint8_t> hidden(size_t(T) * T, 0);
    for (int q = 0; q < T; ++q)
        for (int k = q + 1; k < T; ++k)
            hidden[size_t(q) * T + k] = 1;
    return hidden;
}

QStringList wordTokens(int T) {
    static const char* words[] = {"The", " cat", " sat", " on", " the", " mat", ",", " and"};
    QStringList out;
    for (int i = 0; i < T; ++i)
        out << QString::fromUtf8(words[i % 8]);
    return out;
}

// Until the lines are shown and no render is out (the time limit only stops a broken build).
bool waitForLines(const TokenView& view) {
    return QTest::qWaitFor([&] { return view.linesReady() && !view.isRendering(); }, 20000);
}

TEST(TokenViewLinks, StrongestKeysPerQueryAboveTheThreshold) {
    // One head, one query row of 12 keys with known weights.
    const int T = 12;
    std::vector<float> w(size_t(T) * T, 0.0f);
    const float row[T] = {0.30f, 0.005f, 0.12f, 0.12f, 0.08f, 0.07f,
                          0.06f, 0.05f,  0.04f, 0.03f, 0.02f, 0.105f};
    std::copy(row, row + T, w.begin() + 5 * T);
    // Row 2: only three weights reach the threshold, fewer than k.
    const float few[T] = {0.5f, 0.3f, 0.19f, 0.009f, 0.001f};
    std::copy(few, few + T, w.begin() + 2 * T);
    // Row 7: what is never a link: hidden, negative, NaN, infinite.
    w[7 * T + 0] = 0.9f;  // hidden below
    w[7 * T + 1] = -0.5f;
    w[7 * T + 2] = std::nanf("");
    w[7 * T + 3] = INFINITY;
    w[7 * T + 4] = 0.1f;
    std::vector<uint8_t> hidden(size_t(T) * T, 0);
    hidden[7 * T + 0] = 1;

    const LinkSelection s = selectAttentionLinks({w}, T, hidden, 8, 0.01f);
    std::vector<AttentionLink> q5, q2, q7;
    for (const AttentionLink& l : s.links) {
        EXPECT_EQ(l.head, 0);
        (l.query == 5 ? q5 : l.query == 2 ? q2 : q7).push_back(l);
    }
    // Descending weight, ties by key: 0.30, 0.12 (key 2), 0.12 (key 3), 0.105, 0.08 ... 0.05.
    const std::vector<int> keys5 = {0, 2, 3, 11, 4, 5, 6, 7};
    ASSERT_EQ(q5.size(), 8u);
    for (size_t i = 0; i < keys5.size(); ++i) {
        EXPECT_EQ(q5[i].key, keys5[i]) << i;
        EXPECT_EQ(q5[i].weight, row[keys5[i]]);
    }
    ASSERT_EQ(q2.size(), 3u);
    EXPECT_EQ(q2[0].key, 0);
    EXPECT_EQ(q2[2].key, 2);
    ASSERT_EQ(q7.size(), 1u);
    EXPECT_EQ(q7[0].key, 4);
    // Left out: row 5 keeps 8 of 12 positive weights, row 2 keeps 3 of 5; row 7's hidden key
    // and non-finite weights are not links at all.
    EXPECT_EQ(s.omitted, 4 + 2);

    // A larger k and no threshold keep every positive weight.
    const LinkSelection all = selectAttentionLinks({w}, T, hidden, T, 0.0f);
    EXPECT_EQ(all.omitted, 0);
    EXPECT_EQ(all.links.size(), 12u + 5u + 1u);
}

TEST(TokenViewLinks, TheViewDrawsOnlyTheSelectedLinks) {
    const int T = 40;
    TokenView view;
    view.resize(600, 500);
    view.setAttention(causalWeights(3, T, 7), wordTokens(T), causalHidden(T));
    const std::vector<TokenView::Line> lines = view.visibleLines();
    const LinkSelection expected =
        selectAttentionLinks(causalWeights(3, T, 7), T, causalHidden(T), TokenView::kLinksPerQuery,
                             TokenView::kMinLinkWeight);
    EXPECT_EQ(lines, expected.links);
    std::vector<int> perQuery(size_t(3 * T), 0);
    for (const auto& l : lines) {
        EXPECT_LE(l.key, l.query);  // causal: never a later key
        EXPECT_GE(l.weight, TokenView::kMinLinkWeight);
        ++perQuery[size_t(l.head * T + l.query)];
    }
    for (int n : perQuery)
        EXPECT_LE(n, TokenView::kLinksPerQuery);
    EXPECT_GT(expected.omitted, 0);
    EXPECT_TRUE(view.linkNote().contains(QStringLiteral("8 strongest links per token")));

    view.setHead(2);
    for (const auto& l : view.visibleLines())
        EXPECT_EQ(l.head, 2);
    view.setHovered({TokenView::Side::Query, 30});
    const auto hovered = view.visibleLines();
    EXPECT_FALSE(hovered.empty());
    EXPECT_LE(hovered.size(), size_t(TokenView::kLinksPerQuery));
    for (const auto& l : hovered)
        EXPECT_EQ(l.query, 30);

    // The book's sentence has nothing left out: no note.
    const Trace t = bookTrace(bookConfig(Variant::MultiHead));
    view.setAttention(tokenViewWeights(t), bookTokenList(), tokenViewHidden(t));
    EXPECT_EQ(view.visibleLines().size(), 2u * 21u);
    EXPECT_TRUE(view.linkNote().isEmpty());
}

TEST(TokenViewRender, AStaleRenderIsDropped) {
    // Large enough that the worker selects the links, not the GUI thread.
    const int T = 200;
    QWidget top;
    top.resize(620, 480);
    auto* view = new TokenView(&top);
    view->resize(top.size());
    top.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&top));
    view->setAttention(causalWeights(8, T, 1), wordTokens(T), causalHidden(T));
    ASSERT_TRUE(waitForLines(*view));
    const int droppedBefore = view->droppedRenders();

    // A second attention while the first one's render is still out: the continuation cannot
    // have run, because this thread has not returned to its event loop in between.
    view->setAttention(causalWeights(8, T, 2), wordTokens(T), causalHidden(T));
    EXPECT_FALSE(view->linesReady());
    const auto b = causalWeights(8, T, 3);
    view->setAttention(b, wordTokens(T), causalHidden(T));
    ASSERT_TRUE(waitForLines(*view));
    EXPECT_EQ(view->droppedRenders(), droppedBefore + 1);
    // What is shown is the last attention's: its links, and the same pixels as a view that
    // only ever had it.
    EXPECT_EQ(view->visibleLines(),
              selectAttentionLinks(b, T, causalHidden(T), TokenView::kLinksPerQuery,
                                   TokenView::kMinLinkWeight)
                  .links);
    QWidget freshTop;
    freshTop.resize(top.size());
    auto* fresh = new TokenView(&freshTop);
    fresh->resize(freshTop.size());
    freshTop.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&freshTop));
    fresh->setAttention(b, wordTokens(T), causalHidden(T));
    ASSERT_TRUE(waitForLines(*fresh));
    EXPECT_EQ(view->grab().toImage(), fresh->grab().toImage());

    // Changing the head while a render runs drops that render too.
    view->setHead(1);
    ASSERT_TRUE(view->isRendering());
    view->setHead(2);
    ASSERT_TRUE(waitForLines(*view));
    EXPECT_EQ(view->droppedRenders(), droppedBefore + 2);

    // A view destroyed while its render runs: the late result lands nowhere, and nothing
    // crashes.
    auto* doomed = new TokenView(&top);
    doomed->resize(400, 300);
    doomed->setAttention(causalWeights(8, T, 4), wordTokens(T));
    delete doomed;
    QTest::qWait(50);
}

TEST(TokenViewMask, MaskedKeysReadMaskedNeverZero) {
    Config c = bookConfig(Variant::MultiHead, 123, 1);
    c.dropout = 0.5;  // dropped weights are zeros that are not masked
    const Trace t = bookTrace(c);
    const std::vector<uint8_t> hidden = tokenViewHidden(t);
    ASSERT_EQ(hidden.size(), 36u);
    for (const char* step : {"weights", "dropped_weights"}) {
        SCOPED_TRACE(step);
        TokenView view;
        view.setAttention(tokenViewWeights(t, 0, step), bookTokenList(), hidden);
        int dropped = 0;
        for (int h = 0; h < 2; ++h) {
            for (int q = 0; q < 6; ++q) {
                for (int k = 0; k < 6; ++k) {
                    const QString text = view.weightText(h, q, k);
                    if (k > q) {
                        EXPECT_EQ(text, QStringLiteral("masked")) << q << " " << k;
                    } else {
                        EXPECT_NE(text, QStringLiteral("masked"));
                        dropped += text == QStringLiteral("0.00") ? 1 : 0;
                    }
                }
            }
        }
        if (QLatin1String(step) == QLatin1String("weights"))
            EXPECT_EQ(dropped, 0);  // softmax weights of visible keys are never 0
        else
            EXPECT_GT(dropped, 0);  // dropout zeros read as the number they are
        view.setHead(0);
        const QString tip = view.toolTipText({TokenView::Side::Query, 1});
        EXPECT_TRUE(tip.contains(QStringLiteral("4 later keys masked"))) << tip.toStdString();
        EXPECT_FALSE(tip.contains(QStringLiteral("0.00")));
        EXPECT_TRUE(view.toolTipText({TokenView::Side::Key, 2})
                        .contains(QStringLiteral("Masked for 2 earlier queries")));
        EXPECT_FALSE(view.toolTipText({TokenView::Side::Query, 5}).contains("masked"));
    }
    // No mask, nothing hidden.
    Config open = bookConfig(Variant::SelfAttention);
    open.mask = MaskSpec{MaskKind::None, 0};
    EXPECT_TRUE(tokenViewHidden(bookTrace(open)).empty());
}

// window:2 hides the later keys and those two or more back: hovering says each side's count
// (it once said "5 later keys masked" for 4 later keys and 1 earlier one).
TEST(TokenViewMask, AWindowMaskSaysWhichSideIsHidden) {
    Config c = bookConfig(Variant::MultiHead, 123, 1);
    c.mask = MaskSpec{MaskKind::Window, 2};
    const Trace t = bookTrace(c);
    TokenView view;
    view.setAttention(tokenViewWeights(t, 0, "weights"), bookTokenList(), tokenViewHidden(t));
    view.setHead(0);
    const QString query = view.toolTipText({TokenView::Side::Query, 2});
    EXPECT_TRUE(query.contains(QStringLiteral("3 later keys masked"))) << query.toStdString();
    EXPECT_TRUE(query.contains(QStringLiteral("1 earlier key masked"))) << query.toStdString();
    const QString key = view.toolTipText({TokenView::Side::Key, 2});
    EXPECT_TRUE(key.contains(QStringLiteral("Masked for 2 earlier queries"))) << key.toStdString();
    EXPECT_TRUE(key.contains(QStringLiteral("Masked for 2 later queries"))) << key.toStdString();
}

// GPT-2 small's 12 heads (and medium's 16) each get their own line colour, far enough apart to
// tell (they repeated after seven).
TEST(TokenViewLook, SixteenHeadsHaveSixteenColours) {
    for (int a = 0; a < 16; ++a)
        for (int b = a + 1; b < 16; ++b) {
            const QColor x = TokenView::headColor(a), y = TokenView::headColor(b);
            const double d =
                std::hypot(x.red() - y.red(), x.green() - y.green(), x.blue() - y.blue());
            EXPECT_GT(d, 40.0) << a << " " << b;
        }
    EXPECT_NE(TokenView::headColor(16).rgb(), TokenView::headColor(0).rgb());
}

TEST(TokenViewRender, NothingToDrawIsReadyAtOnce) {
    TokenView view;
    EXPECT_TRUE(view.linesReady());
    view.setAttention({}, wordTokens(5));  // tokens without weights: no lines to wait for
    EXPECT_TRUE(view.linesReady());
    EXPECT_FALSE(view.isRendering());
    EXPECT_TRUE(view.visibleLines().empty());
}

TEST(TokenViewLabels, RepeatedTokensCarryTheirPosition) {
    const QStringList tokens = {"The", " cat", " the", "the", " dog", ",", "\n", " "};
    EXPECT_EQ(tokenViewLabels(tokens),
              (QStringList{"The", "cat", "2\u00b7the", "3\u00b7the", "dog", ",",
                           QString(QChar(0x21B5)), QString(QChar(0x00B7))}));
    EXPECT_EQ(tokenViewLabels({"a", " a", "b"}), (QStringList{"0\u00b7a", "1\u00b7a", "b"}));
    TokenView view;
    view.setAttention(causalWeights(1, 4, 1), {"x", "y", "x", "z"});
    EXPECT_EQ(view.labels(), (QStringList{"0\u00b7x", "y", "2\u00b7x", "z"}));
}

TEST(TokenViewScroll, AThousandTokensScrollAndHitTest) {
    const int T = 1000;
    QWidget top;
    top.resize(900, 700);
    auto* view = new TokenView(&top);
    view->resize(top.size());
    top.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&top));
    view->setAttention(causalWeights(12, T, 5), wordTokens(T), causalHidden(T));
    ASSERT_TRUE(waitForLines(*view));
    EXPECT_TRUE(view->linkNote().contains(QStringLiteral("8 strongest links per token")));
    EXPECT_FALSE(view->rect().contains(view->tokenRect(TokenView::Side::Query, 999).toRect()));
    EXPECT_TRUE(view->rect().contains(view->tokenRect(TokenView::Side::Query, 0).toRect()));
    EXPECT_TRUE(testing::savePng(view, QStringLiteral("token_view_1000_top.png")));

    view->scrollToToken(600);
    EXPECT_GT(view->scrollPosition(), 0);
    const QRectF r = view->tokenRect(TokenView::Side::Key, 600);
    EXPECT_TRUE(QRectF(view->rect()).contains(r));
    EXPECT_EQ(view->hitTest(r.center()), (TokenView::Hit{TokenView::Side::Key, 600}));
    EXPECT_EQ(view->hitTest(view->tokenRect(TokenView::Side::Query, 599).center()),
              (TokenView::Hit{TokenView::Side::Query, 599}));
    // Rows scrolled out of view are not hit.
    EXPECT_EQ(view->hitTest(QPointF(r.center().x(), 2)).side, TokenView::Side::None);
    ASSERT_TRUE(waitForLines(*view));
    EXPECT_TRUE(testing::savePng(view, QStringLiteral("token_view_1000_scrolled.png")));

    view->setHead(3);
    view->setHovered({TokenView::Side::Query, 590});
    EXPECT_LE(view->visibleLines().size(), size_t(TokenView::kLinksPerQuery));
    EXPECT_TRUE(testing::savePng(view, QStringLiteral("token_view_1000_hover.png")));

    view->setHovered({});
    view->setHead(-1);
    view->setFontScale(1.6);
    view->scrollToToken(600);
    ASSERT_TRUE(waitForLines(*view));
    EXPECT_TRUE(testing::savePng(view, QStringLiteral("token_view_1000_x1.6.png")));
}

// The book example light and dark, at normal and presentation size, one head hovered.
TEST(TokenViewLook, BookExampleLightAndDark) {
    const Trace t = bookTrace(bookConfig(Variant::MultiHead, 123, 1));
    QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    for (const bool dark : {false, true}) {
        for (const double scale : {1.0, 1.6}) {
            QWidget top;
            top.setStyle(fusion);
            if (dark)
                top.setPalette(testing::darkPalette());
            auto* view = new TokenView(&top);
            view->setStyle(fusion);
            view->setAttention(tokenViewWeights(t, 0), bookTokenList(), tokenViewHidden(t));
            view->setFontScale(scale);
            top.resize(scale > 1 ? 820 : 560, scale > 1 ? 560 : 380);
            view->resize(top.size());
            top.show();
            ASSERT_TRUE(QTest::qWaitForWindowExposed(&top));
            ASSERT_TRUE(waitForLines(*view));
            const QString suffix =
                QStringLiteral("x%1_%2").arg(scale, 0, 'f', 1).arg(dark ? "dark" : "light");
            EXPECT_TRUE(
                testing::savePng(view, QStringLiteral("token_view_book_all_%1.png").arg(suffix)));
            view->setHead(1);
            view->setHovered({TokenView::Side::Query, 2});
            EXPECT_TRUE(
                testing::savePng(view, QStringLiteral("token_view_book_hover_%1.png").arg(suffix)));
        }
    }
    delete fusion;
}

}  // namespace
}  // namespace attn

// The widgets paint offscreen, their hit tests and hover isolation, the compare view's numbers,
// the Python highlighting and the presentation helpers. PNGs go to build/.../png for a look.
#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextLayout>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"
#include "teach/compare_view.h"
#include "teach/derivation.h"
#include "teach/explanations.h"
#include "teach/presentation.h"
#include "teach/pytorch_panel.h"
#include "teach/token_view.h"
#include "teach_test_util.h"
#include "tokenizer/tokenizer.h"

namespace attn {
namespace {

using testing::bookConfig;
using testing::bookTokenList;
using testing::bookTrace;

std::vector<std::vector<float>> headWeights(const Trace& t, int batch = 0) {
    const Step* w = t.find("weights");
    std::vector<std::vector<float>> out;
    for (int h = 0; h < t.config.effectiveHeads(); ++h)
        out.push_back(stepMatrix(*w, h, batch).toVector());
    return out;
}

TEST(TokenView, PaintsAndIsolatesHoveredToken) {
    const Trace t = bookTrace(bookConfig(Variant::MultiHead, 123, 2));
    TokenView view;
    EXPECT_EQ(tokenViewWeights(t, 0), headWeights(t));
    EXPECT_TRUE(tokenViewWeights(t, 0, "queries").empty());
    view.setAttention(tokenViewWeights(t, 0), bookTokenList());
    view.resize(520, 360);
    EXPECT_EQ(view.headCount(), 2);
    EXPECT_EQ(view.tokenCount(), 6);

    // Causal: 21 non-zero weights per head.
    EXPECT_EQ(view.visibleLines().size(), 42u);
    view.setHead(1);
    EXPECT_EQ(view.visibleLines().size(), 21u);
    for (const auto& l : view.visibleLines())
        EXPECT_EQ(l.head, 1);
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("token_view_head1.png")));
    view.setHead(-1);
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("token_view_all.png")));

    // Hit test: the centre of each token label.
    for (int i = 0; i < 6; ++i) {
        const TokenView::Hit q = view.hitTest(view.tokenRect(TokenView::Side::Query, i).center());
        EXPECT_EQ(q.side, TokenView::Side::Query);
        EXPECT_EQ(q.index, i);
        const TokenView::Hit k = view.hitTest(view.tokenRect(TokenView::Side::Key, i).center());
        EXPECT_EQ(k.side, TokenView::Side::Key);
        EXPECT_EQ(k.index, i);
    }
    EXPECT_EQ(view.hitTest(QPointF(1, 1)).side, TokenView::Side::None);

    QSignalSpy spy(&view, &TokenView::tokenHovered);
    view.setHovered(view.hitTest(view.tokenRect(TokenView::Side::Query, 3).center()));
    EXPECT_EQ(spy.count(), 1);
    auto lines = view.visibleLines();
    EXPECT_EQ(lines.size(), 8u);  // query 3 sees 4 keys, in 2 heads
    for (const auto& l : lines)
        EXPECT_EQ(l.query, 3);
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("token_view_hover_query.png")));
    view.setHead(0);
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("token_view_hover_head0.png")));
    view.setHead(-1);

    view.setHovered({TokenView::Side::Key, 1});
    lines = view.visibleLines();
    EXPECT_EQ(lines.size(), 10u);  // queries 1..5 see key 1, in 2 heads
    for (const auto& l : lines)
        EXPECT_EQ(l.key, 1);

    view.setHovered({});
    EXPECT_EQ(view.visibleLines().size(), 42u);

    // Mouse moves drive the same isolation.
    QMouseEvent move(QEvent::MouseMove, view.tokenRect(TokenView::Side::Key, 0).center(),
                     view.mapToGlobal(view.tokenRect(TokenView::Side::Key, 0).center()),
                     Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    EXPECT_EQ(view.hovered().side, TokenView::Side::Key);
    EXPECT_EQ(view.hovered().index, 0);

    // Every head has its own colour, past the seven of Okabe-Ito too.
    EXPECT_NE(TokenView::headColor(0), TokenView::headColor(1));
    EXPECT_NE(TokenView::headColor(7), TokenView::headColor(0));

    // Empty and odd input does not crash.
    view.setAttention({}, {});
    EXPECT_FALSE(view.grab().isNull());
    view.setAttention({{0.5f}}, {QStringLiteral("a"), QStringLiteral("b")});
    EXPECT_FALSE(view.grab().isNull());
}

TEST(TokenView, ManyTokensAndPresentationScale) {
    Config c = bookConfig(Variant::MultiHeadWrapper, 123, 1);
    c.heads = 4;
    c.contextLength = 1024;
    TraceRequest r;
    r.config = c;
    std::vector<float> data(12 * 3);
    for (size_t i = 0; i < data.size(); ++i)
        data[i] = std::sin(float(i));
    r.inputs = Tensor({12, 3}, data);
    const Trace t = runTrace(r);
    QStringList tokens;
    for (const char* s :
         {"The", " cat", " sat", " on", " the", " mat", ",", " and", " then", " it", " slept", "."})
        tokens << QString::fromUtf8(s);
    TokenView view;
    view.setAttention(headWeights(t), tokens);
    view.setFontScale(1.5);
    view.resize(view.sizeHint());
    EXPECT_GE(view.sizeHint().height(), 12 * 20);
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("token_view_4heads_12tokens.png")));
}

TEST(CompareView, TwoMaskingMethodsAreEqual) {
    const Trace t = bookTrace(bookConfig(Variant::Causal, 789));
    const QStringList tokens = bookTokenList();
    const Step* mask = t.find("mask");
    const HeatmapData a = sliceStep(*t.find("weights"), tokens, 0, 0, mask);
    const HeatmapData b = sliceStep(*t.find("weights_renormalized"), tokens, 0, 0, mask);
    CompareView view;
    view.resize(1300, 500);
    view.setData(a, QStringLiteral("weights (−∞ before softmax)"), b,
                 QStringLiteral("weights_renormalized (simple method)"));
    EXPECT_TRUE(view.shapesMatch());
    EXPECT_LT(view.maxAbsDifference(), 1e-6);
    EXPECT_TRUE(view.isEqual());
    EXPECT_TRUE(view.captionText().contains(QStringLiteral("equal to 1e-06")));
    EXPECT_EQ(view.difference().rows, 6);
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("compare_masking_methods.png")));

    // Against the unmasked weights they differ.
    const HeatmapData u = sliceStep(*t.find("weights_unmasked"), tokens, 0, 0, nullptr);
    view.setData(u, QStringLiteral("weights_unmasked"), b, QStringLiteral("weights_renormalized"));
    EXPECT_GT(view.maxAbsDifference(), 0.01);
    EXPECT_FALSE(view.isEqual());
    EXPECT_TRUE(view.captionText().contains(QStringLiteral("differ")));
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("compare_unmasked.png")));

    // Different shapes cannot be compared.
    const HeatmapData q = sliceStep(*t.find("queries"), tokens, 0, 0, nullptr);
    view.setData(a, QStringLiteral("weights"), q, QStringLiteral("queries"));
    EXPECT_FALSE(view.shapesMatch());
    EXPECT_FALSE(view.isEqual());
    view.clear();
    EXPECT_FALSE(view.isEqual());

    // The same through setSteps, for head 1 of multi-head.
    const Trace m = bookTrace(bookConfig(Variant::MultiHead, 123, 2));
    EXPECT_TRUE(view.setSteps(m, tokens, "weights", "weights_renormalized", 1, 1));
    EXPECT_TRUE(view.isEqual());
    EXPECT_LT(view.maxAbsDifference(), 1e-6);
    EXPECT_FALSE(view.setSteps(m, tokens, "weights", "nope"));
}

TEST(CompareView, DifferenceKeepsMaskedCells) {
    HeatmapData a, b;
    a.rows = b.rows = 1;
    a.cols = b.cols = 3;
    const float ninf = -std::numeric_limits<float>::infinity();
    a.values = {1.0f, ninf, ninf};
    b.values = {1.5f, ninf, 2.0f};
    const HeatmapData d = CompareView::differenceOf(a, b);
    EXPECT_FLOAT_EQ(d.values[0], 0.5f);
    EXPECT_TRUE(std::isinf(d.values[1]));
    EXPECT_TRUE(std::isnan(d.values[2]));
}

TEST(CompareView, FiguresFollowTheDarkPaletteAndBack) {
    const Trace t = bookTrace(bookConfig(Variant::Causal, 789));
    const QStringList tokens = bookTokenList();
    CompareView view;
    view.resize(1300, 500);
    view.show();
    ASSERT_TRUE(view.setSteps(t, tokens, "weights", "weights_renormalized"));
    auto margin = [](QCustomPlot* p) {
        p->replot();
        return QColor(p->grab().toImage().pixel(3, 3));
    };
    for (QCustomPlot* p : {view.plotA(), view.plotB(), view.plotDiff()})
        EXPECT_EQ(margin(p), QColor(Qt::white));

    view.setPalette(testing::darkPalette());
    for (QCustomPlot* p : {view.plotA(), view.plotB(), view.plotDiff()}) {
        const QColor m = margin(p);
        EXPECT_EQ(m, QColor(0x1e, 0x1e, 0x1e));
        EXPECT_LT(m.lightness(), 40);
        // The axis labels are light: the bottom axis's tick labels hold light pixels.
        QCPAxis* x = heatmapAxisRect(p)->axis(QCPAxis::atBottom);
        EXPECT_GT(x->tickLabelColor().lightness(), 200);
        EXPECT_GT(x->labelColor().lightness(), 200);
    }
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("compare_dark.png")));

    // A cleared view has no white panels either.
    view.clear();
    EXPECT_EQ(margin(view.plotA()), QColor(0x1e, 0x1e, 0x1e));

    view.setPalette(QPalette(QColor(0xef, 0xef, 0xef)));
    EXPECT_EQ(margin(view.plotA()), QColor(Qt::white));
    ASSERT_TRUE(view.setSteps(t, tokens, "weights", "weights_renormalized"));
    EXPECT_EQ(margin(view.plotDiff()), QColor(Qt::white));
}

TEST(PyTorchPanel, HighlightsPython) {
    PyTorchPanel panel;
    const QString code = QStringLiteral(
        "import torch\n"
        "# the book's seed\n"
        "torch.manual_seed(123)\n"
        "class CausalAttention(nn.Module):\n"
        "    def __init__(self, d_in, d_out):\n"
        "        name = \"not # a comment\"\n"
        "        return 0.5\n");
    panel.setCode(code);
    EXPECT_EQ(panel.code(), code);
    QTextDocument* doc = panel.editor()->document();
    panel.highlighter()->rehighlight();

    auto formatAt = [&](int blockNo, int pos) -> QTextCharFormat {
        const QTextBlock block = doc->findBlockByNumber(blockNo);
        for (const QTextLayout::FormatRange& r : block.layout()->formats())
            if (pos >= r.start && pos < r.start + r.length)
                return r.format;
        return {};
    };
    const QColor kw =
        panel.highlighter()->format(PythonHighlighter::Role::Keyword).foreground().color();
    const QColor cm =
        panel.highlighter()->format(PythonHighlighter::Role::Comment).foreground().color();
    const QColor st =
        panel.highlighter()->format(PythonHighlighter::Role::String).foreground().color();
    const QColor nb =
        panel.highlighter()->format(PythonHighlighter::Role::Number).foreground().color();
    EXPECT_EQ(formatAt(0, 0).foreground().color(), kw);   // import
    EXPECT_EQ(formatAt(1, 2).foreground().color(), cm);   // comment
    EXPECT_EQ(formatAt(2, 19).foreground().color(), nb);  // 123
    EXPECT_EQ(formatAt(3, 0).foreground().color(), kw);   // class
    EXPECT_EQ(formatAt(4, 4).foreground().color(), kw);   // def
    EXPECT_EQ(formatAt(5, 18).foreground().color(), st);  // '#' inside a string stays a string
    EXPECT_EQ(formatAt(6, 8).foreground().color(), kw);   // return
    EXPECT_EQ(formatAt(6, 16).foreground().color(), nb);  // 0.5
    EXPECT_TRUE(PythonHighlighter::isKeyword(QStringLiteral("lambda")));
    EXPECT_FALSE(PythonHighlighter::isKeyword(QStringLiteral("torch")));

    QSignalSpy spy(&panel, &PyTorchPanel::copied);
    panel.copyToClipboard();
    EXPECT_EQ(spy.count(), 1);
    if (QGuiApplication::clipboard()) {
        EXPECT_EQ(QGuiApplication::clipboard()->text(), code);
    }

    panel.resize(640, 300);
    EXPECT_TRUE(testing::savePng(&panel, QStringLiteral("pytorch_panel.png")));
}

// The compare view puts its three figures where the cells get the most room: side by side in
// a wide window, A and B over the difference in a side panel, one above the other when tall.
TEST(CompareViewLayout, TheArrangementFollowsTheRoom) {
    QWidget w;
    const QFontMetrics fm = w.fontMetrics();
    EXPECT_EQ(CompareView::bestArrangement(QSize(1400, 450), fm), CompareView::Arrangement::Row);
    EXPECT_EQ(CompareView::bestArrangement(QSize(500, 520), fm), CompareView::Arrangement::Grid);
    EXPECT_EQ(CompareView::bestArrangement(QSize(320, 1100), fm), CompareView::Arrangement::Column);
}

// Row labels are left out only beside a map that has them: side by side, B and the difference
// read A's; in the grid the difference sits under A and labels its own rows; in a column every
// map does.
TEST(CompareViewLayout, AMapUnderAnotherLabelsItsRows) {
    const Trace t = bookTrace(bookConfig(Variant::Causal, 789));
    const QStringList tokens = bookTokenList();
    CompareView view;
    const auto rowTicks = [](QCustomPlot* p) {
        return heatmapAxisRect(p)->axis(QCPAxis::atLeft)->ticks();
    };
    const struct {
        QSize size;
        CompareView::Arrangement arrangement;
        bool b, diff;
    } cases[] = {{{1400, 450}, CompareView::Arrangement::Row, false, false},
                 {{500, 520}, CompareView::Arrangement::Grid, false, true},
                 {{320, 1100}, CompareView::Arrangement::Column, true, true}};
    for (const auto& c : cases) {
        view.resize(c.size);
        view.show();
        QCoreApplication::processEvents();
        ASSERT_TRUE(view.setSteps(t, tokens, "weights", "weights_renormalized"));
        ASSERT_EQ(view.arrangement(), c.arrangement) << c.size.width();
        EXPECT_TRUE(rowTicks(view.plotA())) << c.size.width();
        EXPECT_EQ(rowTicks(view.plotB()), c.b) << c.size.width();
        EXPECT_EQ(rowTicks(view.plotDiff()), c.diff) << c.size.width();
        // A's and B's cells line up and keep their numbers, whatever the difference's labels
        // take from its cells.
        const QRectF a = heatmapCellRect(view.plotA(), 0, 0),
                     b = heatmapCellRect(view.plotB(), 0, 0);
        EXPECT_NEAR(a.width(), b.width(), 1.0) << c.size.width();
        if (c.arrangement == CompareView::Arrangement::Grid) {
            EXPECT_GE(cellValuePixelSize(view.plotA()), 8);
        }
    }
}

// Three maps side by side in a short view (Compare under a lesson at 1280 x 720) of a 46-token
// text: A, which alone carries the row labels, gets their width more than B and the difference,
// so it keeps its labels and the three their one cell size (with equal columns A's cells fell
// under two pixels first: its labels gave way, the rows unlabelled, A drawn smaller than B).
TEST(CompareViewLayout, SideBySideAKeepsItsRowLabelsAndTheCellsLineUp) {
    HeatmapData a;
    a.rows = a.cols = 46;
    for (int r = 0; r < 46; ++r)
        for (int c = 0; c < 46; ++c)
            a.values.push_back(c <= r ? 1.0f / float(r + 1)
                                      : -std::numeric_limits<float>::infinity());
    for (int i = 0; i < 46; ++i)
        a.rowLabels << QStringLiteral("%1\u00b7darling").arg(i);
    a.colLabels = a.rowLabels;
    a.rowsAreTokens = a.colsAreTokens = true;
    a.rowAxis = QStringLiteral("query token");
    a.colAxis = QStringLiteral("key token");
    HeatmapData b = a;
    b.values[46 * 5 + 2] = 0.9f;
    CompareView view;
    view.show();
    int sideBySide = 0;
    for (const QSize size : {QSize(440, 200), QSize(470, 200), QSize(500, 240), QSize(530, 240)}) {
        SCOPED_TRACE(size.width());
        view.resize(size);
        QCoreApplication::processEvents();
        view.setData(a, QStringLiteral("layer 0"), b, QStringLiteral("layer 1"));
        QCoreApplication::processEvents();
        if (view.arrangement() != CompareView::Arrangement::Row)
            continue;  // narrower, the grid
        ++sideBySide;
        QCPAxis* rows = heatmapAxisRect(view.plotA())->axis(QCPAxis::atLeft);
        EXPECT_TRUE(rows->tickLabels());
        EXPECT_FALSE(rows->tickVectorLabels().isEmpty());
        // Every label within the plot: QCustomPlot leaves out one its edge would cut (row 0's,
        // over cells smaller than its line, went).
        const double half = QFontMetricsF(rows->tickLabelFont()).height() / 2;
        EXPECT_GE(rows->coordToPixel(rows->tickVector().value(0)) - half, 0.0);
        QCPAxis* columns = heatmapAxisRect(view.plotB())->axis(QCPAxis::atBottom);
        EXPECT_GE(columns->coordToPixel(columns->tickVector().value(0)) - half, 0.0);
        const QRectF cellA = heatmapCellRect(view.plotA(), 45, 45);
        for (QCustomPlot* p : {view.plotB(), view.plotDiff()}) {
            const QRectF cell = heatmapCellRect(p, 45, 45);
            EXPECT_NEAR(cell.width(), cellA.width(), 0.5);
            EXPECT_NEAR(
                view.mapFromGlobal(p->mapToGlobal(cell.bottomLeft().toPoint())).y(),
                view.mapFromGlobal(view.plotA()->mapToGlobal(cellA.bottomLeft().toPoint())).y(),
                1.5);
        }
    }
    EXPECT_EQ(sideBySide, 4);  // every size above is side by side
}

TEST(Presentation, FadeFromScaledScoresToWeights) {
    const Trace t = bookTrace(bookConfig(Variant::Causal, 789));
    const QStringList tokens = bookTokenList();
    const Step* mask = t.find("mask");
    const HeatmapData from = sliceStep(*t.find("scaled_scores"), tokens, 0, 0, mask);
    const HeatmapData to = sliceStep(*t.find("weights"), tokens, 0, 0, mask);
    CellFadeAnimator anim;
    ASSERT_TRUE(anim.setEndpoints(from, to));
    const HeatmapData mid = anim.frameAt(0.5);
    ASSERT_EQ(mid.values.size(), 36u);
    // A visible cell blends; a masked cell lands on 0 and stays drawn as masked.
    EXPECT_NEAR(mid.value(3, 1), 0.5 * (from.value(3, 1) + to.value(3, 1)), 1e-6);
    EXPECT_EQ(mid.value(0, 5), 0.0f);
    EXPECT_TRUE(mid.isMasked(0, 5));
    // The numbers printed are real ones, of the nearer end: never the blend of the colours.
    const HeatmapData early = anim.frameAt(0.3), late = anim.frameAt(0.7);
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c <= r; ++c) {
            EXPECT_EQ(early.shownValue(r, c), from.value(r, c));
            EXPECT_EQ(late.shownValue(r, c), to.value(r, c));
        }
    EXPECT_NE(early.value(3, 1), from.value(3, 1));  // while the colour moves
    const HeatmapData end = anim.frameAt(1.0);
    for (size_t i = 0; i < end.values.size(); ++i)
        EXPECT_FLOAT_EQ(end.values[i], to.values[i]);
    EXPECT_EQ(end.stepId, QStringLiteral("weights"));

    QSignalSpy frames(&anim, &CellFadeAnimator::frame);
    QSignalSpy done(&anim, &CellFadeAnimator::finished);
    anim.setDuration(60);
    anim.start();
    EXPECT_TRUE(done.wait(2000));
    EXPECT_GE(frames.count(), 2);
    EXPECT_FALSE(anim.isRunning());

    HeatmapData other = to;
    other.cols = 5;
    EXPECT_FALSE(anim.setEndpoints(from, other));
}

namespace {

// The colour bar's tick labels as drawn: the bar is the figure's axis rect besides the cells'.
QStringList colourBarLabels(const HeatmapData& data) {
    QCustomPlot plot;
    plot.resize(640, 480);
    FigureOptions o;
    o.colormap = defaultColormapFor(data);
    drawHeatmap(&plot, data, o);
    plot.replot();
    for (QCPAxisRect* r : plot.axisRects())
        if (r != heatmapAxisRect(&plot)) {
            QStringList out;
            for (const QString& l : r->axis(QCPAxis::atRight)->tickVectorLabels())
                if (!l.isEmpty())
                    out << l;
            return out;
        }
    return {"no colour bar"};
}

}  // namespace

// From scores to weights the colours blend while every printed number is one end's: the colour
// bar then has no numbers (any would contradict a cell's colour or its number), and each end
// has its own.
TEST(Presentation, TheColourBarHasNoNumbersWhileTheColoursBlend) {
    const Trace t = bookTrace(bookConfig(Variant::Causal, 789));
    const QStringList tokens = bookTokenList();
    const Step* mask = t.find("mask");
    const HeatmapData from = sliceStep(*t.find("scaled_scores"), tokens, 0, 0, mask);
    const HeatmapData to = sliceStep(*t.find("weights"), tokens, 0, 0, mask);
    EXPECT_GE(colourBarLabels(from).size(), 3);
    EXPECT_GE(colourBarLabels(to).size(), 3);
    for (const double at : {0.1, 0.3, 0.7, 0.9})
        EXPECT_EQ(colourBarLabels(CellFadeAnimator::interpolate(from, to, at)), QStringList())
            << at;
}

// A quiz hides cells: the colour bar's ends would tell their range (the largest score), so
// they read "?" until every cell is revealed.
TEST(Presentation, AQuizHidesTheColourBarsRange) {
    const Trace t = bookTrace(bookConfig(Variant::Causal, 789));
    const HeatmapData scores = sliceStep(*t.find("scores"), bookTokenList(), 0, 0);
    ASSERT_GE(colourBarLabels(scores).size(), 3);
    HeatmapData quiz = scores;
    quiz.quizHidden.assign(quiz.values.size(), 1);
    quiz.quizHidden[7] = 0;  // one cell revealed
    EXPECT_EQ(colourBarLabels(quiz), QStringList({"?", "?"}));
    quiz.quizHidden.assign(quiz.values.size(), 0);  // all revealed
    EXPECT_EQ(colourBarLabels(quiz), colourBarLabels(scores));
}

TEST(Presentation, PaletteAndFontComeAndGo) {
    const QPalette p = presentationPalette();
    EXPECT_EQ(p.color(QPalette::Text), QColor(Qt::black));
    EXPECT_EQ(p.color(QPalette::Base), QColor(Qt::white));
    const QPalette dark = presentationPalette({1.6, true});
    EXPECT_EQ(dark.color(QPalette::Text), QColor(Qt::white));

    QWidget w;
    const double oldPt = w.font().pointSizeF();
    const QColor oldText = w.palette().color(QPalette::WindowText);
    PresentationMode mode;
    mode.apply(&w, {2.0, true});
    EXPECT_TRUE(mode.isActive());
    EXPECT_NEAR(w.font().pointSizeF(), oldPt * 2.0, 0.01);
    EXPECT_EQ(w.palette().color(QPalette::WindowText), QColor(Qt::white));
    mode.restore();
    EXPECT_FALSE(mode.isActive());
    EXPECT_NEAR(w.font().pointSizeF(), oldPt, 0.01);
    EXPECT_EQ(w.palette().color(QPalette::WindowText), oldText);
    // Inherited again, not pinned to what it was.
    EXPECT_FALSE(w.testAttribute(Qt::WA_SetFont));
    EXPECT_FALSE(w.testAttribute(Qt::WA_SetPalette));
}

// Explanations and derivations rendered the way the Explain panel shows them: to check by eye.
TEST(RichText, ExplanationAndDerivationRender) {
    const Trace t = bookTrace(bookConfig(Variant::MultiHead, 123, 2));
    const QStringList tokens = bookTokenList();
    QWidget w;
    auto* v = new QVBoxLayout(&w);
    auto* a = new QTextBrowser(&w);
    a->setHtml(explainStepHtml(t, "queries_split"));
    auto* b = new QTextBrowser(&w);
    b->setHtml(deriveCellHtml(t, tokens, "weights", 1, 0, 3, 1));
    auto* c = new QTextBrowser(&w);
    c->setHtml(deriveCellHtml(t, tokens, "output", -1, 0, 2, 0));
    v->addWidget(a);
    v->addWidget(b);
    v->addWidget(c);
    w.resize(720, 760);
    EXPECT_TRUE(testing::savePng(&w, QStringLiteral("explain_and_derive.png")));
}

// The chapter's causal weights against the same module without a mask.
struct CausalVsNone {
    HeatmapData causal, open;
    CausalVsNone() {
        const Trace c = bookTrace(bookConfig(Variant::Causal, 789));
        Config noMask = bookConfig(Variant::Causal, 789);
        noMask.mask = MaskSpec{MaskKind::None, 0};
        const Trace o = bookTrace(noMask);
        causal = sliceStep(*c.find("weights"), bookTokenList(), 0, 0, c.find("mask"));
        open = sliceStep(*o.find("weights"), bookTokenList(), 0, 0);
    }
};

QRect geometryIn(const QWidget* w, const QWidget* top) {
    return QRect(w->mapTo(top, QPoint(0, 0)), w->size());
}

TEST(CompareView, AAndBShareOneColourScaleByDefault) {
    const CausalVsNone d;
    CompareView view;
    view.resize(1300, 500);
    view.show();
    view.setData(d.causal, QStringLiteral("causal"), d.open, QStringLiteral("no mask"));
    QCoreApplication::processEvents();
    EXPECT_TRUE(view.sharedColorScale());
    // The range spans both: causal weights reach 1, the open ones stay under 0.25.
    EXPECT_EQ(view.colorRangeA(), view.colorRangeB());
    EXPECT_EQ(view.colorRangeB(), std::make_pair(0.0, 1.0));
    // So B's cells take the colours A's scale gives their values.
    auto cellColour = [](QCustomPlot* p, int r, int c) {
        p->replot();
        const QImage img = p->grab().toImage();
        return QColor(img.pixel(heatmapCellRect(p, r, c).topLeft().toPoint() + QPoint(3, 3)));
    };
    const float v = d.open.value(3, 2);
    EXPECT_EQ(cellColour(view.plotB(), 3, 2).name(),
              QColor(colorGradient(Colormap::Viridis).color(v, QCPRange(0, 1))).name());
    // A has no colour bar of its own: B's serves both.
    EXPECT_EQ(view.plotA()->axisRectCount(), 1);
    EXPECT_EQ(view.plotB()->axisRectCount(), 2);
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("compare_causal_vs_none_shared.png")));

    // Separate scales: B spans its own values.
    auto* box = view.findChild<QCheckBox*>(QStringLiteral("separateScales"));
    ASSERT_NE(box, nullptr);
    box->setChecked(true);
    EXPECT_FALSE(view.sharedColorScale());
    EXPECT_LT(view.colorRangeB().second, 0.5);
    EXPECT_EQ(view.colorRangeA(), std::make_pair(0.0, 1.0));
    EXPECT_EQ(view.plotA()->axisRectCount(), 2);
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("compare_causal_vs_none_separate.png")));
    view.setSharedColorScale(true);
    EXPECT_FALSE(box->isChecked());
    EXPECT_EQ(view.colorRangeA(), view.colorRangeB());

    // The difference stays diverging and symmetric about 0.
    QCPAxis* diffBar = view.plotDiff()->axisRect(1)->axis(QCPAxis::atRight);
    EXPECT_DOUBLE_EQ(diffBar->range().lower, -diffBar->range().upper);
    EXPECT_GT(diffBar->range().upper, 0.5);
}

TEST(CompareView, LegibleAtItsDefaultSize) {
    const CausalVsNone d;
    CompareView view;
    view.setData(d.causal, QStringLiteral("causal (masked_fill −∞)"), d.open,
                 QStringLiteral("no mask"));
    for (const QSize size : {QSize(900, 330), QSize(1300, 500)}) {
        SCOPED_TRACE(size.width());
        view.resize(size);
        view.show();
        QCoreApplication::processEvents();
        const QRectF cellA = heatmapCellRect(view.plotA(), 0, 0);
        for (QCustomPlot* p : {view.plotA(), view.plotB(), view.plotDiff()}) {
            p->replot();
            // Every token labelled, the cells square, the same size and the rows level in all
            // three, so B's rows read against A's labels.
            QCPAxis* x = heatmapAxisRect(p)->axis(QCPAxis::atBottom);
            EXPECT_EQ(x->tickVectorLabels().size(), 6);
            const QRectF cell = heatmapCellRect(p, 0, 0);
            EXPECT_NEAR(cell.width(), cell.height(), 1.0);
            EXPECT_NEAR(cell.width(), cellA.width(), 1.0);
            EXPECT_NEAR(heatmapCellRect(p, 5, 0).top(), heatmapCellRect(view.plotA(), 5, 0).top(),
                        1.0);
        }
        // Numbers in A's and B's cells; the difference's longer numbers ("-0.81") from
        // 1,300 px on.
        EXPECT_GE(cellValuePixelSize(view.plotA()), 8);
        EXPECT_GE(cellValuePixelSize(view.plotB()), 8);
        if (size.width() >= 1300) {
            EXPECT_GE(cellValuePixelSize(view.plotDiff()), 8);
        }
        // Rows are labelled once, on A.
        EXPECT_EQ(heatmapAxisRect(view.plotA())->axis(QCPAxis::atLeft)->tickVectorLabels().size(),
                  6);
        EXPECT_FALSE(heatmapAxisRect(view.plotB())->axis(QCPAxis::atLeft)->ticks());
        // The colour bars go without titles (the cells keep the room), and in a view too short
        // for them (under a lesson) they go altogether; the captions and the summary say what
        // the colours are.
        if (size.height() < 400) {
            EXPECT_EQ(view.plotB()->axisRectCount(), 1);
        } else {
            ASSERT_EQ(view.plotB()->axisRectCount(), 2);
            EXPECT_TRUE(view.plotB()->axisRect(1)->axis(QCPAxis::atRight)->label().isEmpty());
        }
        EXPECT_TRUE(view.captionText().contains(QStringLiteral("max |B − A|")));
        EXPECT_TRUE(view.findChild<QLabel*>(QStringLiteral("compareSummary"))
                        ->text()
                        .contains(QStringLiteral("share one colour scale")));
        // The badge overlaps nothing.
        const auto* badge = view.findChild<QLabel*>(QStringLiteral("compareBadge"));
        ASSERT_NE(badge, nullptr);
        ASSERT_TRUE(badge->isVisible());
        const QRect b = geometryIn(badge, &view);
        EXPECT_TRUE(view.rect().contains(b));
        for (const QWidget* w : view.findChildren<QWidget*>()) {
            if (w == badge || !w->isVisible() || w->parentWidget() != &view)
                continue;
            EXPECT_FALSE(b.intersects(geometryIn(w, &view)))
                << w->metaObject()->className() << " " << w->objectName().toStdString();
        }
        // The summary shows all of its text; in a view too short for it the badge carries it
        // as its tooltip.
        const auto* summary = view.findChild<QLabel*>(QStringLiteral("compareSummary"));
        if (size.height() < 400) {
            EXPECT_FALSE(summary->isVisible());
            EXPECT_TRUE(badge->toolTip().contains(QStringLiteral("share one colour scale")));
        } else {
            EXPECT_GE(summary->height(), summary->heightForWidth(summary->width()));
        }
        EXPECT_TRUE(testing::savePng(&view, QStringLiteral("compare_causal_vs_none_%1x%2.png")
                                                .arg(size.width())
                                                .arg(size.height())));
        view.setPalette(testing::darkPalette());
        EXPECT_TRUE(testing::savePng(&view, QStringLiteral("compare_causal_vs_none_%1x%2_dark.png")
                                                .arg(size.width())
                                                .arg(size.height())));
        view.setPalette(QPalette(QColor(0xef, 0xef, 0xef)));
    }
}

}  // namespace
}  // namespace attn

namespace attn {
namespace {

TEST(RichText, DerivationGallery) {
    const QStringList tokens = testing::bookTokenList();
    const Trace mha = testing::bookTrace(testing::bookConfig(Variant::MultiHead, 123, 2));
    Config dc = testing::bookConfig(Variant::Causal, 123);
    dc.dropout = 0.5;
    const Trace drop = testing::bookTrace(dc);
    const Trace wrap = testing::bookTrace(testing::bookConfig(Variant::MultiHeadWrapper, 123, 2));
    QString html;
    auto add = [&](const Trace& t, const char* id, int h, int b, int r, int c) {
        html += deriveCellHtml(t, tokens, id, h, b, r, c) + QStringLiteral("<hr>");
    };
    add(mha, "scores", 1, 0, 4, 2);
    add(mha, "queries_heads", 1, 1, 3, 0);
    add(mha, "context", -1, 0, 2, 1);
    add(drop, "masked_scores", -1, 0, 1, 4);
    add(drop, "dropped_weights", -1, 0, 5, 0);
    add(drop, "weights_renormalized", -1, 0, 2, 1);
    add(drop, "context", -1, 0, 5, 1);
    add(wrap, "output", -1, 0, 1, 3);
    QTextBrowser view;
    view.setHtml(html);
    view.resize(760, 1100);
    EXPECT_TRUE(testing::savePng(&view, QStringLiteral("derivation_gallery.png")));
}

}  // namespace
}  // namespace attn

#include <qcustomplot.h>

#include "export/heatmap_figure.h"
#include "teach/lesson.h"

namespace attn {
namespace {

TEST(Presentation, FadeFrameAndPresentationLook) {
    const Trace t = testing::bookTrace(testing::bookConfig(Variant::Causal, 789));
    const QStringList tokens = testing::bookTokenList();
    const Step* mask = t.find("mask");
    CellFadeAnimator anim;
    ASSERT_TRUE(anim.setEndpoints(sliceStep(*t.find("scaled_scores"), tokens, 0, 0, mask),
                                  sliceStep(*t.find("weights"), tokens, 0, 0, mask)));
    QCustomPlot plot;
    plot.resize(560, 460);
    FigureOptions o;
    const HeatmapData mid = anim.frameAt(0.4);
    o.colormap = defaultColormapFor(mid);
    drawHeatmap(&plot, mid, o);
    plot.replot();
    EXPECT_TRUE(testing::savePng(&plot, QStringLiteral("fade_frame_0.4.png")));

    // The lesson panel in presentation mode.
    QWidget window;
    auto* v = new QVBoxLayout(&window);
    auto* panel = new LessonPanel(&window);
    v->addWidget(panel);
    PresentationMode mode;
    mode.apply(&window, {kPresentationFontScale, false});
    panel->setFontScale(kPresentationFontScale);
    panel->setCurrentIndex(4);
    window.resize(640, 460);
    EXPECT_TRUE(testing::savePng(&window, QStringLiteral("lesson_presentation.png")));
    mode.restore();
}

}  // namespace
}  // namespace attn

namespace attn {
namespace {

Token textToken(const char* bytes, bool added = false) {
    Token t;
    t.bytes = bytes;
    t.display = bytes;
    t.addedByTokenizer = added;
    return t;
}

HeatmapData causalMap(const std::vector<std::vector<float>>& rows) {
    HeatmapData d;
    d.rows = d.cols = int(rows.size());
    for (size_t i = 0; i < rows.size(); ++i)
        for (size_t j = 0; j < rows.size(); ++j)
            d.values.push_back(j <= i ? rows[i][j] : -std::numeric_limits<float>::infinity());
    return d;
}

// "Hello world" cut as Hel|lo| world (A, with a <bos> first) and Hello| wor|ld (B): the pieces
// both share are "Hello" and " world"; a piece's row is the query at its last token, its column
// the weights on its tokens summed; a piece the query may not see is masked.
TEST(AlignByText, MapsOfTwoTokenizationsMeetOnThePiecesBothShare) {
    const std::vector<Token> a = {textToken("<bos>", true), textToken("Hel"), textToken("lo"),
                                  textToken(" world")};
    const std::vector<Token> b = {textToken("Hello"), textToken(" wor"), textToken("ld")};
    const HeatmapData da = causalMap(
        {{1.0f, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {0.2f, 0.3f, 0.5f, 0}, {0.1f, 0.2f, 0.3f, 0.4f}});
    const HeatmapData db = causalMap({{1.0f, 0, 0}, {0.6f, 0.4f, 0}, {0.5f, 0.3f, 0.2f}});
    const auto aligned = alignByText(da, a, db, b);
    ASSERT_TRUE(aligned);
    EXPECT_EQ(aligned->pieces, 2);
    EXPECT_EQ(aligned->a.rowLabels, (QStringList{"Hello", "world"}));
    EXPECT_EQ(aligned->b.colLabels, aligned->a.colLabels);
    // A: "Hello" is the query "lo" (row 2): <bos>, Hel and lo are the piece; " world" masked.
    EXPECT_FLOAT_EQ(aligned->a.value(0, 0), 1.0f);
    EXPECT_TRUE(aligned->a.isMasked(0, 1));
    EXPECT_FLOAT_EQ(aligned->a.value(1, 0), 0.6f);
    EXPECT_FLOAT_EQ(aligned->a.value(1, 1), 0.4f);
    // B: "Hello" is its own row; " world" is the query "ld" over " wor" and "ld".
    EXPECT_FLOAT_EQ(aligned->b.value(0, 0), 1.0f);
    EXPECT_FLOAT_EQ(aligned->b.value(1, 0), 0.5f);
    EXPECT_FLOAT_EQ(aligned->b.value(1, 1), 0.5f);
    // Not the same text, or not tokens x tokens: nothing to align.
    std::vector<Token> other = b;
    other[2] = textToken("lds");
    EXPECT_FALSE(alignByText(da, a, causalMap({{1, 0, 0}, {1, 0, 0}, {1, 0, 0}}), other));
    HeatmapData wide = da;
    wide.cols = 2;
    EXPECT_FALSE(alignByText(wide, a, db, b));
}

}  // namespace
}  // namespace attn

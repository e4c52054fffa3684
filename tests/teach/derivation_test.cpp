// The derivations show the trace's own numbers: recompute cells and look for them in the HTML.
#include <gtest/gtest.h>

#include <QRegularExpression>

#include <cmath>
#include <optional>
#include <set>
#include <tuple>

#include "engine/step_ids.h"
#include "export/heatmap_data.h"
#include "pipeline/model_request.h"
#include "pipeline/request.h"
#include "pipeline/run_request.h"
#include "pipeline/step_files.h"
#include "teach/derivation.h"
#include "teach/explanations.h"
#include "teach_test_util.h"

namespace attn {
namespace {

using testing::bookConfig;
using testing::bookTokenList;
using testing::bookTrace;
using testing::f4;

#define EXPECT_HAS(html, text)         \
    EXPECT_TRUE((html).contains(text)) \
        << "missing: " << QString(text).toStdString() << "\nin: " << (html).toStdString()

TEST(Derivation, SimplifiedScoreIsTheSumOfProductsListed) {
    const Trace t = bookTrace(bookConfig(Variant::Simplified));
    const QStringList tokens = bookTokenList();
    // journey (1) · starts (2): the book: 0.55*0.57 + 0.87*0.85 + 0.66*0.64 = 1.4754
    const QString html = deriveCellHtml(t, tokens, "scores", -1, 0, 1, 2);
    const Tensor& x = t.find("inputs")->value;
    double sum = 0;
    for (int k = 0; k < 3; ++k) {
        const double a = x.at({0, 1, k}), b = x.at({0, 2, k});
        EXPECT_HAS(html, f4(a) + QStringLiteral(" × ") + f4(b));
        sum += a * b;
    }
    EXPECT_HAS(html, QStringLiteral("<b>%1</b>").arg(f4(sum)));
    EXPECT_EQ(f4(sum), f4(t.find("scores")->value.at({0, 1, 2})));
    EXPECT_HAS(html, QStringLiteral("1.4754"));  // the book: attn_scores_2[2]
    EXPECT_HAS(html, QStringLiteral("&quot;journey&quot;"));
    EXPECT_HAS(html, QStringLiteral("&quot;starts&quot;"));
}

TEST(Derivation, WeightCellShowsNumeratorDenominatorAndRowSum) {
    const Trace t = bookTrace(bookConfig(Variant::Simplified));
    const QString html = deriveCellHtml(t, bookTokenList(), "weights", -1, 0, 1, 0);
    const Tensor& s = t.find("scores")->value;
    double mx = -1e30, den = 0;
    for (int j = 0; j < 6; ++j)
        mx = std::max(mx, double(s.at({0, 1, j})));
    for (int j = 0; j < 6; ++j)
        den += std::exp(s.at({0, 1, j}) - mx);
    const double num = std::exp(s.at({0, 1, 0}) - mx);
    EXPECT_HAS(html, f4(num));
    EXPECT_HAS(html, f4(den));
    EXPECT_HAS(html, f4(num / den));
    EXPECT_EQ(f4(num / den), f4(t.find("weights")->value.at({0, 1, 0})));
    EXPECT_HAS(html, QStringLiteral("= <b>1.0000</b>"));  // the row sum
    EXPECT_HAS(html, QStringLiteral("Row &quot;journey&quot; sums to 1"));
}

// The book writes softmax as exp(z) / Σ exp(z); the derivation computes with the row's maximum
// subtracted, so it shows both forms and says in one line why the shift changes nothing.
TEST(Derivation, SoftmaxShowsTheBooksFormAndWhyTheMaximumIsSubtracted) {
    const Trace t = bookTrace(bookConfig(Variant::Simplified));
    const QString html = deriveCellHtml(t, bookTokenList(), "weights", -1, 0, 1, 0);
    EXPECT_HAS(html, QStringLiteral("exp(z<sub>ij</sub>) / Σ<sub>j</sub> exp(z<sub>ij</sub>) = "
                                    "exp(z<sub>ij</sub> − max<sub>i</sub>)"));
    double mx = -1e30;
    for (int j = 0; j < 6; ++j)
        mx = std::max(mx, double(t.find("scores")->value.at({0, 1, j})));
    EXPECT_HAS(html, QStringLiteral("max<sub>i</sub> = %1, changes no weight").arg(f4(mx)));
    EXPECT_HAS(html, QStringLiteral("overflowing"));
}

// A causal row's masked keys add exp(−∞) = 0 to the denominator and 0 to the row's sum: they
// are counted, not listed, so the terms shown are the ones that add something.
TEST(Derivation, MaskedKeysAreCountedNotListed) {
    const Trace t = bookTrace(bookConfig(Variant::Causal));
    const QString html = deriveCellHtml(t, bookTokenList(), "weights", -1, 0, 2, 1);
    const Tensor& s = t.find("scaled_scores")->value;
    double mx = -1e30, den = 0;
    for (int j = 0; j <= 2; ++j)
        mx = std::max(mx, double(s.at({0, 2, j})));
    QStringList terms;
    for (int j = 0; j <= 2; ++j) {
        den += std::exp(s.at({0, 2, j}) - mx);
        terms << f4(std::exp(s.at({0, 2, j}) - mx));
    }
    EXPECT_HAS(html, QStringLiteral("row denominator: %1 = <b>%2</b> (the 3 masked positions add "
                                    "exp(−∞) = 0)")
                         .arg(terms.join(QStringLiteral(" + ")), f4(den)));
    EXPECT_FALSE(html.contains(QStringLiteral("terms)")));
    EXPECT_HAS(html, QStringLiteral("(and the 3 masked positions' 0)").toHtmlEscaped());
}

// Section 3.3's simplified attention is softmax(x @ x.T) @ x: no weights, so no queries, keys
// or values. Its captions, step titles, explanations and every cell's derivation say "token"
// and "input" instead (apart from the one sentence that says they are not there).
TEST(Derivation, SimplifiedAttentionSpeaksOfTokensNotQueriesKeysOrValues) {
    for (const MaskKind mask : {MaskKind::None, MaskKind::Causal}) {
        Config c = bookConfig(Variant::Simplified);
        c.mask = MaskSpec{mask, 0};
        const Trace t = bookTrace(c);
        const QStringList tokens = bookTokenList();
        for (const Step& s : t.steps) {
            QStringList texts;
            // The mask step's own caption, title and explanation are those of every masked
            // module; its cells' derivations are this module's.
            if (s.info.id != "mask")
                texts << stepCaption(s.info) << QString::fromStdString(s.info.title)
                      << explainStepHtml(t, s.info.id, InputOrigin::Book);
            for (int row : {1, 4})
                for (int col : {0, 2, 5})
                    texts << deriveCellHtml(t, tokens, s.info.id, -1, 0, row, col);
            for (QString text : texts) {
                text.remove(QStringLiteral("no queries, keys or values"));
                text.remove(QStringLiteral("no queries or keys"));
                for (const char* word : {"quer", "key", "value"})
                    EXPECT_FALSE(text.contains(QLatin1String(word), Qt::CaseInsensitive))
                        << s.info.id << " says " << word << ": " << text.toStdString();
            }
        }
    }
    EXPECT_EQ(stepCaption(bookTrace(bookConfig(Variant::Simplified)).find("context")->info),
              QStringLiteral("Context vectors: weighted sums of the inputs"));
}

// Grouped-query attention (4 query heads, 2 key/value groups): a score of head 3 is its query
// times a key of group 1, which heads 2 and 3 share; the derivation names the group, and so
// does every other step of that head.
TEST(Derivation, GroupedQueryScoresNameTheKeyGroup) {
    const Trace t = bookTrace(bookConfig(Variant::GroupedQuery));
    const QStringList tokens = bookTokenList();
    const QString score = deriveCellHtml(t, tokens, "scores", 3, 0, 4, 2);
    EXPECT_HAS(score, QStringLiteral("(head 3, key/value group 1)"));
    EXPECT_HAS(score, QStringLiteral("Head 3 reads the keys of key/value group ⌊3 / 2⌋ = 1, "
                                     "which heads 2 to 3 share"));
    EXPECT_HAS(deriveCellHtml(t, tokens, "scores", 1, 0, 4, 2),
               QStringLiteral("(head 1, key/value group 0)"));
    EXPECT_HAS(deriveCellHtml(t, tokens, "weights", 2, 0, 4, 2),
               QStringLiteral("(head 2, key/value group 1)"));
    // Multi-head attention has a key per head: no group to name.
    const QString mha =
        deriveCellHtml(bookTrace(bookConfig(Variant::MultiHead)), tokens, "scores", 1, 0, 4, 2);
    EXPECT_FALSE(mha.contains(QStringLiteral("group"))) << mha.toStdString();
}

TEST(Derivation, MaskedCellsSayMinusInfinityAndZero) {
    Config c = bookConfig(Variant::Causal, 789);
    const Trace t = bookTrace(c);
    const QStringList tokens = bookTokenList();
    const QString masked = deriveCellHtml(t, tokens, "masked_scores", -1, 0, 1, 4);
    EXPECT_HAS(masked, QStringLiteral("-inf"));
    EXPECT_HAS(masked, QStringLiteral("comes after the query"));
    EXPECT_HAS(masked, f4(t.find("scores")->value.at({0, 1, 4})));  // the score it replaced
    const QString scaled = deriveCellHtml(t, tokens, "scaled_scores", -1, 0, 1, 4);
    EXPECT_HAS(scaled, QStringLiteral("-inf"));
    const QString w = deriveCellHtml(t, tokens, "weights", -1, 0, 1, 4);
    EXPECT_HAS(w, QStringLiteral("-inf"));
    EXPECT_HAS(w, QStringLiteral("exp(−∞) = 0"));
    EXPECT_HAS(w, QStringLiteral("= <b>1.0000</b>"));
    const QString mask = deriveCellHtml(t, tokens, "mask", -1, 0, 0, 5);
    EXPECT_HAS(mask, QStringLiteral("1 = hidden"));
    const QString visible = deriveCellHtml(t, tokens, "masked_scores", -1, 0, 3, 1);
    EXPECT_HAS(visible, QStringLiteral("Unchanged"));

    Config win = c;
    win.mask = MaskSpec{MaskKind::Window, 2};
    const Trace tw = bookTrace(win);
    EXPECT_HAS(deriveCellHtml(tw, tokens, "masked_scores", -1, 0, 4, 1),
               QStringLiteral("outside the query"));
}

TEST(Derivation, ScaledCellDividesBySqrtDk) {
    const Trace t = bookTrace(bookConfig(Variant::SelfAttention, 789));
    const QString html = deriveCellHtml(t, bookTokenList(), "scaled_scores", -1, 0, 2, 3);
    const double s = t.find("scores")->value.at({0, 2, 3});
    EXPECT_HAS(html, f4(s));
    EXPECT_HAS(html, QStringLiteral("1.4142"));
    EXPECT_HAS(html, f4(s / std::sqrt(2.0)));
}

TEST(Derivation, ProjectionsListInputTimesWeight) {
    // v1: x_i · column of W
    const Trace t1 = bookTrace(bookConfig(Variant::SelfAttentionV1));
    const QString v1 = deriveCellHtml(t1, bookTokenList(), "queries", -1, 0, 1, 1);
    const Tensor& W = t1.parameters.at("W_query");
    const Tensor& x = t1.find("inputs")->value;
    for (int m = 0; m < 3; ++m)
        EXPECT_HAS(v1, f4(x.at({0, 1, m})) + QStringLiteral(" × ") + f4(W.at({m, 1})));
    EXPECT_HAS(v1, f4(t1.find("queries")->value.at({0, 1, 1})));
    EXPECT_HAS(v1, QStringLiteral("column 1 of W_query"));

    // nn.Linear with bias: row of the weight plus bias
    Config c = bookConfig(Variant::SelfAttention, 789);
    c.qkvBias = true;
    const Trace t2 = bookTrace(c);
    const QString v2 = deriveCellHtml(t2, bookTokenList(), "keys", -1, 0, 4, 0);
    EXPECT_HAS(v2, QStringLiteral("bias"));
    EXPECT_HAS(v2, f4(t2.parameters.at("W_key.bias").at({0})).remove(QLatin1Char('-')));
    EXPECT_HAS(v2, f4(t2.find("keys")->value.at({0, 4, 0})));
}

TEST(Derivation, MultiHeadSeed123) {
    const Trace t = bookTrace(bookConfig(Variant::MultiHead, 123, 2));
    const QStringList tokens = bookTokenList();
    // queries_heads[b, h, t, i] = queries[b, t, h*hd + i]
    const QString heads = deriveCellHtml(t, tokens, "queries_heads", 1, 1, 3, 0);
    EXPECT_HAS(heads, QStringLiteral("queries_heads[1, 1, 3, 0]"));
    EXPECT_HAS(heads, QStringLiteral("queries[1, 3, 1]"));
    EXPECT_HAS(heads, f4(t.find("queries")->value.at({1, 3, 1})));
    // queries_split shows tokens x (h.hd): column 1 is head 1, element 0
    const QString split = deriveCellHtml(t, tokens, "queries_split", -1, 0, 2, 1);
    EXPECT_HAS(split, QStringLiteral("queries_split[0, 2, 1, 0]"));
    // a score of head 1 is q·k over hd = 1 term
    const QString score = deriveCellHtml(t, tokens, "scores", 1, 0, 4, 2);
    const double q = t.find("queries")->value.at({0, 4, 1}),
                 k = t.find("keys")->value.at({0, 2, 1});
    EXPECT_HAS(score, QStringLiteral("<b>%1</b>").arg(f4(q * k)));
    EXPECT_HAS(score, QStringLiteral("head 1"));
    // context_heads: Σ_j w_ij v_j
    const QString ctx = deriveCellHtml(t, tokens, "context_heads", 0, 0, 5, 0);
    double sum = 0;
    for (int j = 0; j < 6; ++j)
        sum += double(t.find("weights")->value.at({0, 0, 5, j})) *
               t.find("values")->value.at({0, j, 0});
    EXPECT_HAS(ctx, QStringLiteral("<b>%1</b>").arg(f4(sum)));
    EXPECT_EQ(f4(sum), f4(t.find("context_heads")->value.at({0, 0, 5, 0})));
    // context: which head it came from
    EXPECT_HAS(deriveCellHtml(t, tokens, "context", -1, 0, 2, 1), QStringLiteral("head 1"));
    EXPECT_HAS(deriveCellHtml(t, tokens, "context_transposed", -1, 0, 2, 1),
               QStringLiteral("context_heads[0, 1, 2, 0]"));
    // output via out_proj with its bias
    const QString out = deriveCellHtml(t, tokens, "output", -1, 1, 5, 1);
    EXPECT_HAS(out, QStringLiteral("out_proj.weight"));
    EXPECT_HAS(out, f4(t.find("output")->value.at({1, 5, 1})));
    EXPECT_HAS(out, QStringLiteral("batch 1"));
    // outside the step: nothing
    EXPECT_TRUE(deriveCellHtml(t, tokens, "output", -1, 0, 6, 0).isEmpty());
    EXPECT_TRUE(deriveCellHtml(t, tokens, "nope", -1, 0, 0, 0).isEmpty());
}

// A factor as the derivation prints it: negative numbers in brackets.
QString factor(double v) {
    return v < 0 ? QStringLiteral("(%1)").arg(f4(v)) : f4(v);
}

// The products w_ij × v_j[k] of head `head`'s context element k of row i, as listed.
QStringList contextProducts(const Trace& t, bool wrapper, int head, int i, int k) {
    QStringList terms;
    for (int j = 0; j <= i; ++j) {  // causal: the later weights are 0 and listed too
        const double w = wrapper ? t.find("weights")->value.at({head, 0, i, j})
                                 : t.find("weights")->value.at({0, head, i, j});
        const double v = wrapper ? t.find("values")->value.at({head, 0, j, k})
                                 : t.find("values_heads")->value.at({0, head, j, k});
        terms << QStringLiteral("%1 × %2").arg(factor(w), factor(v));
    }
    return terms;
}

// Every step that holds a head's context element (computed, transposed, concatenated or
// returned) ends on the weighted sum of the values with its products, never on another step's
// name: the multi-head context_heads once said "= context_split[...] = context[...]".
TEST(Derivation, EveryContextCellShowsTheWeightedSumOfTheValues) {
    const QStringList tokens = bookTokenList();
    const Trace t = bookTrace(bookConfig(Variant::MultiHead, 123, 2));
    const QStringList head1 = contextProducts(t, false, 1, 4, 0);
    for (const auto& [step, head, col] :
         {std::tuple{"context_heads", 1, 0}, {"context_transposed", -1, 1}, {"context", -1, 1}}) {
        const QString html = deriveCellHtml(t, tokens, step, head, 0, 4, col);
        EXPECT_FALSE(html.contains(QStringLiteral("context_split"))) << step;
        EXPECT_HAS(html, QStringLiteral("Σ"));
        for (const QString& term : head1)
            EXPECT_HAS(html, term);
    }
    const Trace w = bookTrace(bookConfig(Variant::MultiHeadWrapper, 123, 2));
    // The wrapper's output column 3 is head 1's element 1 (d_out 2).
    const QString out = deriveCellHtml(w, tokens, "output", -1, 0, 4, 3);
    for (const QString& term : contextProducts(w, true, 1, 4, 1))
        EXPECT_HAS(out, term);
}

TEST(Derivation, WrapperAndDropoutAndSimpleMasking) {
    const QStringList tokens = bookTokenList();
    const Trace w = bookTrace(bookConfig(Variant::MultiHeadWrapper, 123, 2));
    EXPECT_HAS(deriveCellHtml(w, tokens, "output", -1, 0, 1, 3),
               QStringLiteral("context[1, 0, 1, 1]"));
    EXPECT_HAS(deriveCellHtml(w, tokens, "queries", 1, 0, 1, 1),
               QStringLiteral("heads.1.W_query.weight"));

    Config c = bookConfig(Variant::Causal);
    c.dropout = 0.5;
    const Trace d = bookTrace(c);
    const Tensor& keep = d.find("dropout_mask")->value;
    int kept = -1, dropped = -1;
    for (int j = 0; j <= 5; ++j) {
        if (keep.at({0, 5, j}) != 0 && kept < 0)
            kept = j;
        if (keep.at({0, 5, j}) == 0 && dropped < 0)
            dropped = j;
    }
    ASSERT_GE(kept, 0);
    ASSERT_GE(dropped, 0);
    EXPECT_HAS(deriveCellHtml(d, tokens, "dropout_mask", -1, 0, 5, kept), QStringLiteral("kept"));
    EXPECT_HAS(deriveCellHtml(d, tokens, "dropout_mask", -1, 0, 5, dropped),
               QStringLiteral("dropped"));
    const QString dw = deriveCellHtml(d, tokens, "dropped_weights", -1, 0, 5, kept);
    EXPECT_HAS(dw, QStringLiteral("2.0000"));
    EXPECT_HAS(dw, f4(d.find("dropped_weights")->value.at({0, 5, kept})));

    const QString renorm = deriveCellHtml(d, tokens, "weights_renormalized", -1, 0, 2, 1);
    EXPECT_HAS(renorm, f4(d.find("weights")->value.at({0, 2, 1})));
    EXPECT_HAS(renorm, QStringLiteral("= <b>1.0000</b>"));
    EXPECT_HAS(deriveCellHtml(d, tokens, "weights_tril", -1, 0, 2, 4),
               QStringLiteral("no longer sums to 1"));
}

TEST(Derivation, LongSumsAreTruncated) {
    Config c = bookConfig(Variant::Simplified);
    c.contextLength = 1024;
    TraceRequest r;
    r.config = c;
    std::vector<float> data(12 * 3);
    for (size_t i = 0; i < data.size(); ++i)
        data[i] = float(i % 7) * 0.1f;
    r.inputs = Tensor({12, 3}, data);
    const Trace t = runTrace(r);
    const QString html = deriveCellHtml(t, {}, "context", -1, 0, 11, 0);
    EXPECT_HAS(html, QStringLiteral("… (12 terms)"));
    EXPECT_HAS(html, QStringLiteral("<b>%1</b>").arg(f4(t.find("context")->value.at({0, 11, 0}))));
}

}  // namespace
}  // namespace attn

namespace attn {
namespace {

// Every step of every variant explains a cell (with masks and dropout on), without crashing.
// A rotated query element is x1 cos θ − x2 sin θ (first half) or x2 cos θ + x1 sin θ (second
// half) with the trace's numbers; a repeated key names the group its head reads.
TEST(Derivation, RotatedElementsShowTheRotationWithTheirNumbers) {
    const Config c = bookConfig(Variant::Rotary);  // 2 heads of 2, QK-norm, one group
    const Trace t = bookTrace(c);
    const QStringList tokens = bookTokenList();
    const Tensor& q = t.find("queries_normed")->value;
    const Tensor& cos = t.find("rope_cos")->value;
    const Tensor& sin = t.find("rope_sin")->value;
    const Tensor& out = t.find("queries_rotated")->value;
    // Head 1, token 3 ("with"), dimension 0 pairs with dimension 1.
    QString html = deriveCellHtml(t, tokens, "queries_rotated", 1, 0, 3, 0);
    const auto fac = [](double v) { return v < 0 ? "(" + f4(v) + ")" : f4(v); };
    EXPECT_HAS(html,
               QStringLiteral("q′[0] = q[0] cos θ − q[1] sin θ = %1 × %2 − %3 × %4 = <b>%5</b>")
                   .arg(fac(q.at({0, 1, 3, 0})), fac(cos.at({3, 0})), fac(q.at({0, 1, 3, 1})),
                        fac(sin.at({3, 0})), f4(out.at({0, 1, 3, 0}))));
    EXPECT_NEAR(out.at({0, 1, 3, 0}),
                q.at({0, 1, 3, 0}) * cos.at({3, 0}) - q.at({0, 1, 3, 1}) * sin.at({3, 0}), 1e-6);
    html = deriveCellHtml(t, tokens, "queries_rotated", 1, 0, 3, 1);
    EXPECT_HAS(html,
               QStringLiteral("q′[1] = q[1] cos θ + q[0] sin θ = %1 × %2 + %3 × %4 = <b>%5</b>")
                   .arg(fac(q.at({0, 1, 3, 1})), fac(cos.at({3, 1})), fac(q.at({0, 1, 3, 0})),
                        fac(sin.at({3, 1})), f4(out.at({0, 1, 3, 1}))));
    // The angle: position 3 times base^(-0/2) = 3 radians.
    EXPECT_HAS(html, QStringLiteral("= 3 × 1 = 3.0000"));

    Config g = bookConfig(Variant::GroupedQuery);  // 4 heads, 2 groups
    const Trace gt = bookTrace(g);
    html = deriveCellHtml(gt, tokens, "keys_repeated", 3, 0, 2, 0);
    EXPECT_HAS(html, QStringLiteral("keys_repeated[0, 3, 2, 0] = keys_groups[0, 1, 2, 0]"));
    EXPECT_HAS(html, QStringLiteral("Query head 3 uses key/value group ⌊3 / 2⌋ = 1"));
}

TEST(Derivation, EveryStepOfEveryVariant) {
    const QStringList tokens = bookTokenList();
    for (Variant v : allVariants())
        for (double p : {0.0, 0.5}) {
            Config c = bookConfig(v, 123, 2);
            c.mask = MaskSpec{MaskKind::Causal, 0};
            c.dropout = p;
            const Trace t = bookTrace(c);
            for (const Step& s : t.steps) {
                SCOPED_TRACE(variantName(v) + " " + s.info.id);
                const int cols = sliceStep(s, tokens, 1, 1).cols;
                const QString html =
                    deriveCellHtml(t, tokens, s.info.id, 1, 1, 2, std::min(1, cols - 1));
                EXPECT_TRUE(deriveCellHtml(t, tokens, s.info.id, 1, 1, 2, cols).isEmpty());
                EXPECT_GT(html.size(), 60);
                EXPECT_FALSE(html.contains(QStringLiteral("not available")));
                EXPECT_FALSE(html.contains(QStringLiteral("nan")));
            }
        }
}

}  // namespace
}  // namespace attn

namespace attn {
namespace {

// The last number a student reads in a derivation (-inf, ∞ and nan count as numbers), and
// whether it is bold.
struct LastNumber {
    QString text;
    bool bold = false;
};
// The text a student reads: the HTML's tags stripped but for bold (to tell a bold number), its
// entities decoded.
QString readText(const QString& html) {
    static const QRegularExpression tags(QStringLiteral("<(?!/?b>)[^>]*>"));
    QString s = html;
    s.replace(tags, QStringLiteral(" "));
    s.replace(QStringLiteral("&quot;"), QStringLiteral("\""))
        .replace(QStringLiteral("&nbsp;"), QStringLiteral(" "))
        .replace(QStringLiteral("&lt;"), QStringLiteral("<"))
        .replace(QStringLiteral("&gt;"), QStringLiteral(">"))
        .replace(QStringLiteral("&#39;"), QStringLiteral("'"))
        .replace(QStringLiteral("&amp;"), QStringLiteral("&"));
    return s;
}

std::optional<LastNumber> lastNumber(const QString& html) {
    static const QRegularExpression number(
        QStringLiteral("(?:-|−)?(?:\\d+(?:\\.\\d+)?(?:e[+-]\\d+)?|∞|inf)|nan"));
    const QString s = readText(html);
    std::optional<LastNumber> last;
    for (auto it = number.globalMatch(s); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const qsizetype at = m.capturedStart();
        last = LastNumber{m.captured(), s.lastIndexOf(QStringLiteral("<b>"), at) >
                                            s.lastIndexOf(QStringLiteral("</b>"), at)};
    }
    return last;
}

// What the walk also checks before the last number, empty when it holds: a RoPE table's cell is
// the cosine or sine of the angle the derivation names (a model's scaled frequencies too), a
// model layer's input is not called an embedding, and a QK-norm scale is called ones only where
// it is.
std::string wrongFact(const Trace& t, const Step& s, const QString& html, float value) {
    const QString text = readText(html);
    if (s.info.id == step_id::kRopeCos || s.info.id == step_id::kRopeSin) {
        static const QRegularExpression call(QStringLiteral("(cos|sin)\\(([^)]*)\\) ="));
        QRegularExpressionMatch m;
        for (auto it = call.globalMatch(text); it.hasNext();)
            m = it.next();
        const double theta = m.captured(2).toDouble();
        const double f = m.captured(1) == QLatin1String("cos") ? std::cos(theta) : std::sin(theta);
        if (!m.hasMatch() || std::abs(f - value) > 6e-5 + 1e-3 * std::abs(value))
            return "the angle " + m.captured(2).toStdString() + " gives " + std::to_string(f) +
                   ", the table holds " + std::to_string(value);
    }
    if (s.info.source == StepSource::LayerInput && text.contains(QStringLiteral("embedding")))
        return "a model layer's input is its first norm, not an embedding";
    if (text.contains(QStringLiteral("ones here")))
        for (const char* name : {"q_norm.scale", "k_norm.scale"})
            if (const auto it = t.parameters.find(name); it != t.parameters.end())
                for (int64_t m = 0; m < it->second.numel(); ++m)
                    if (it->second.data()[m] != 1.0f)
                        return std::string(name) + " is learned, not ones";
    return {};
}

// Checks the first, middle and last rows, columns and heads of every step of `t` at the
// decimals settings 1, 2 and 4: a non-empty derivation's last number is the cell's value as the
// heatmap prints it, in bold. One failure per step is reported.
void expectEveryDerivationEndsOnTheCell(const Trace& t, const QStringList& tokens,
                                        const std::string& what) {
    const Step* mask = t.find(step_id::kMask);
    for (const Step& s : t.steps) {
        const int heads = std::max(1, stepHeadCount(s.info));
        const int batches = std::max(1, stepBatchCount(s.info));
        const auto check = [&]() {
            for (int head : std::set<int>{0, heads / 2, heads - 1})
                for (int batch : std::set<int>{0, batches - 1}) {
                    const HeatmapData hm = sliceStep(s, tokens, head, batch, mask);
                    std::set<std::pair<int, int>> cells;
                    for (int row : {0, hm.rows / 2, hm.rows - 1})
                        for (int col : {0, 1, hm.cols / 2, hm.cols - 1})
                            cells.insert({row, std::min(col, hm.cols - 1)});
                    for (const auto& [row, col] : cells)
                        for (int decimals : {kMinDecimals, 2, kMaxDecimals}) {
                            const QString html = deriveCellHtml(t, tokens, s.info.id, head, batch,
                                                                row, col, {}, decimals);
                            if (html.isEmpty())
                                continue;
                            const std::string shown = formatCellValue(hm.shownValue(row, col),
                                                                      printedDecimals(hm, decimals))
                                                          .toStdString();
                            const auto last = lastNumber(html);
                            const std::string where =
                                what + " " + s.info.id + " head " + std::to_string(head) +
                                " batch " + std::to_string(batch) + " cell (" +
                                std::to_string(row) + ", " + std::to_string(col) + ") decimals " +
                                std::to_string(decimals) + ":\n" + html.toStdString();
                            if (!last) {
                                ADD_FAILURE() << "no number: " << where;
                                return;
                            }
                            if (last->text.toStdString() != shown || !last->bold) {
                                ADD_FAILURE() << "ends on " << last->text.toStdString()
                                              << (last->bold ? "" : " (not bold)")
                                              << ", the cell shows " << shown << ": " << where;
                                return;
                            }
                            if (const std::string wrong =
                                    wrongFact(t, s, html, hm.shownValue(row, col));
                                !wrong.empty()) {
                                ADD_FAILURE() << wrong << ": " << where;
                                return;
                            }
                        }
                }
        };
        check();
    }
}

// SPEC 12: every clicked cell's derivation ends on the value the cell shows, at the cell's
// precision (the decimals setting; whole-number matrices such as the mask print none), so a
// student reading down the arithmetic lands on the number they clicked. Every variant with
// every mask, dropout and the simple masking steps, the batch's last entry, the first, middle
// and last rows and heads (a head of key/value group 1 for grouped-query); and every family's
// model layer with the block around it, on fixture folders and the bundled models.
TEST(Derivation, EveryDerivationEndsOnTheCellsValueAtItsPrecision) {
    const QStringList tokens = bookTokenList();
    for (Variant v : allVariants())
        for (const MaskSpec& m : {MaskSpec{MaskKind::None, 0}, MaskSpec{MaskKind::Causal, 0},
                                  MaskSpec{MaskKind::Window, 2}})
            for (double p : {0.0, 0.5}) {
                Config c = bookConfig(v, 123, 2);
                c.mask = m;
                c.dropout = p;
                c.qkvBias = p > 0;
                if (v == Variant::Rotary) {  // four heads in two groups, two of them group 1
                    c.heads = 4;
                    c.kvGroups = 2;
                    c.rope = p == 0;
                    c.qkNorm = m.kind != MaskKind::None;
                }
                if (!validate(c, 6).empty())
                    continue;
                expectEveryDerivationEndsOnTheCell(
                    bookTrace(c), tokens,
                    variantName(v) + " " + maskName(m) + " dropout " + std::to_string(p));
            }

    // Model mode: one layer of each family with the block around it.
    const QString families = QStringLiteral(ATTN_FIXTURES_DIR "/families/");
    // A switched-off head's `context` columns hold 0 or its mean, not its weighted sum: the
    // derivation says so and ends on what the cell holds (llama's head 3 and gemma3's head 2
    // own the last and the middle column the walk clicks).
    struct Model {
        QString path, config;
        int layer;
        HeadAblation ablation = {};
    };
    std::vector<Model> models = {
        {families + "llama", {}, 1, {{{1, 3}}, AblationMode::Zero}},
        {families + "qwen2", {}, 0},
        {families + "qwen3", {}, 1},
        {families + "gemma3", {}, 0, {{{0, 2}}, AblationMode::Mean}},  // a sliding-window layer
        {families + "gemma3", {}, 2},                                  // full attention
        {families + "book_llama.pth", families + "book_llama.config.json", 0}};
    for (const QString& name : bundledModelNames())
        models.push_back({name, {}, 1});
    for (const Model& m : models) {
        Settings s;
        s.source = InputSource::Text;
        s.modelFile = m.path;
        s.modelConfigFile = m.config;
        s.layer = m.layer;
        s.ablation = m.ablation;
        s.inputIds = {5, 6, 7, 8, 9, 10, 11};
        const RequestResult r = runRequestOrThrow(
            {s, {}, loadModel(m.path, std::nullopt, nullptr, {}, m.config), nullptr, nullptr});
        ASSERT_TRUE(r.run.trace);
        ASSERT_TRUE(r.run.trace->find(step_id::kBlockOutput));
        expectEveryDerivationEndsOnTheCell(
            *r.run.trace, rowLabels(r.run),
            m.path.toStdString() + " layer " + std::to_string(m.layer));
    }
}

}  // namespace
}  // namespace attn

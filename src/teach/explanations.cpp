#include "teach/explanations.h"

#include <QCoreApplication>

#include <cmath>

#include "engine/step_ids.h"
#include "engine/trace.h"
#include "pipeline/settings.h"
#include "teach/block_texts.h"

namespace attn {

namespace {

// queries_heads, keys_heads, values_heads: a *_split tensor with its token and head axes swapped.
// context_heads ends the same way but is the per-head weighted sum, explained on its own.
bool isQkvHeads(const std::string& id) {
    return id.ends_with("_heads") && id != step_id::kContextHeads;
}

class Explain {
    Q_DECLARE_TR_FUNCTIONS(attn::Explain)
};

QString num(double v, int prec = 4) {
    return QString::number(v, 'g', prec);
}

// "(1, 6, 3)"
QString shapeText(const Shape& s) {
    return QString::fromStdString(shapeToString(s));
}

struct Ctx {
    Config c;
    std::vector<StepInfo> plan;
    int64_t T = 0;
    int64_t b = 1, dIn = 3, dOut = 2, h = 1, hd = 2;
    bool mha = false, wrapper = false, simplified = false, v1 = false, masked = false,
         dropout = false;
    // After chapter 3: mha is set too (the same heads, scores and context), with the variant's
    // own steps on top.
    bool after = false, grouped = false, latent = false, rotary = false;
    int64_t G = 1, perGroup = 1;
    MaskSpec mask;
    InputOrigin origin = InputOrigin::Embedded;
    // > 0: the scores are divided by its square root instead of sqrt(d_k) (StepInfo::scaleSize).
    double scaleSize = 0.0;
    // The query, key and value projections add biases: the config's, or a model layer's (Qwen2).
    bool qkvBias = false;
    // A trained model's layer (its steps carry StepInfo::block): weights learnt, not drawn; and
    // whether its norms multiply by (1 + weight), as Gemma 3's do.
    bool trainedLayer = false, onePlusNorm = false;

    const StepInfo* find(const std::string& id) const {
        for (const StepInfo& s : plan)
            if (s.id == id)
                return &s;
        return nullptr;
    }
    double dk() const { return double(mha ? hd : dOut); }
};

Ctx makeCtx(const Config& c, int64_t tokens) {
    Ctx x;
    x.c = c;
    x.T = tokens;
    x.qkvBias = c.qkvBias;
    x.plan = planSteps(c, tokens);
    x.b = c.batch;
    x.dIn = c.dIn;
    x.simplified = c.variant == Variant::Simplified;
    x.dOut = x.simplified ? c.dIn : c.dOut;
    x.h = c.effectiveHeads();
    x.after = variantIsAfterChapter3(c.variant);
    x.grouped = variantHasKvGroups(c.variant);
    x.latent = c.variant == Variant::Latent;
    x.rotary = c.variant == Variant::Rotary;
    x.mha = c.variant == Variant::MultiHead || x.after;
    x.wrapper = c.variant == Variant::MultiHeadWrapper;
    x.v1 = c.variant == Variant::SelfAttentionV1;
    x.hd = x.mha && c.heads > 0 ? c.headSize() : x.dOut;
    if (x.after)
        x.dOut = c.queryWidth();
    x.G = c.effectiveKvGroups();
    x.perGroup = x.G > 0 ? x.h / x.G : 1;
    x.mask = c.effectiveMask();
    x.masked = x.mask.kind != MaskKind::None;
    x.dropout = c.dropoutActive();
    return x;
}

// q, k or v from "queries", "keys_split", ...
QString letterOf(const std::string& id) {
    if (id.rfind(step_id::kQueries, 0) == 0)
        return QStringLiteral("q");
    if (id.rfind(step_id::kKeys, 0) == 0)
        return QStringLiteral("k");
    return QStringLiteral("v");
}
QString matrixOf(const std::string& id) {
    if (id.rfind(step_id::kQueries, 0) == 0)
        return QStringLiteral("W<sub>query</sub>");
    if (id.rfind(step_id::kKeys, 0) == 0)
        return QStringLiteral("W<sub>key</sub>");
    return QStringLiteral("W<sub>value</sub>");
}
QString baseName(const std::string& id) {
    const size_t u = id.find('_');
    return QString::fromStdString(u == std::string::npos ? id : id.substr(0, u));
}

QString scoreSymbol(const Ctx& x) {
    return x.masked ? QStringLiteral("m") : QStringLiteral("score");
}

}  // namespace

// The formulas of the steps only the modules after chapter 3 have; empty for the others.
static QString afterChapter3Formula(const Config& c, const std::string& id) {
    if (id == step_id::kLatent)
        return QStringLiteral(
                   "c<sub>i</sub> = x<sub>i</sub> W<sub>DKV</sub><sup>T</sup>%1 &nbsp;∈ "
                   "ℝ<sup>%2</sup>")
            .arg(c.qkvBias ? QStringLiteral(" + b") : QString())
            .arg(c.effectiveLatentDim());
    if (c.variant == Variant::Latent && (id == step_id::kKeys || id == step_id::kValues))
        return QStringLiteral("%1<sub>i</sub> = c<sub>i</sub> W<sub>%2</sub><sup>T</sup>%3")
            .arg(id == step_id::kKeys ? QStringLiteral("k") : QStringLiteral("v"),
                 id == step_id::kKeys ? QStringLiteral("UK") : QStringLiteral("UV"),
                 c.qkvBias ? QStringLiteral(" + b") : QString());
    if (id == step_id::kKeysGroups || id == step_id::kValuesGroups)
        return QStringLiteral("%1_groups[b, g, t, i] = %1_split[b, t, g, i]")
            .arg(id == step_id::kKeysGroups ? QStringLiteral("keys") : QStringLiteral("values"));
    if (id == step_id::kQueriesNormed || id == step_id::kKeysNormed)
        return QStringLiteral(
                   "%1̂ = %1 / √(mean<sub>k</sub> %1<sub>k</sub><sup>2</sup> + ε) ⊙ g, &nbsp; ε = "
                   "10<sup>−6</sup>")
            .arg(id == step_id::kQueriesNormed ? QStringLiteral("q") : QStringLiteral("k"));
    if (id == step_id::kRopeCos || id == step_id::kRopeSin)
        return Explain::tr(
                   "%1[t, i] = %1(t · θ<sub>i</sub>), &nbsp; θ<sub>i</sub> = %2<sup>−2i/%3</sup> "
                   "(i &lt; %4; the second half repeats the first)")
            .arg(id == step_id::kRopeCos ? QStringLiteral("cos") : QStringLiteral("sin"))
            .arg(QString::number(c.ropeBase, 'g', 10))
            .arg(c.headSize())
            .arg(c.headSize() / 2);
    if (id == step_id::kQueriesRotated || id == step_id::kKeysRotated) {
        const QString v =
            id == step_id::kQueriesRotated ? QStringLiteral("q") : QStringLiteral("k");
        return QStringLiteral(
                   "%1′[i] = %1[i] cos θ − %1[i + %2] sin θ, &nbsp; %1′[i + %2] = %1[i + %2] cos "
                   "θ + %1[i] sin θ")
            .arg(v)
            .arg(c.headSize() / 2);
    }
    if (id == step_id::kKeysRepeated || id == step_id::kValuesRepeated) {
        // The keys repeated are the latest the module made: rotated, normed or just grouped.
        const char* source = id == step_id::kValuesRepeated             ? step_id::kValuesGroups
                             : c.ropeActive()                           ? step_id::kKeysRotated
                             : c.qkNorm && c.variant == Variant::Rotary ? step_id::kKeysNormed
                                                                        : step_id::kKeysGroups;
        return QStringLiteral("%1[b, h, t, i] = %2[b, ⌊h / %3⌋, t, i]")
            .arg(QString::fromStdString(id), QLatin1String(source))
            .arg(c.effectiveHeads() / std::max<int64_t>(1, c.effectiveKvGroups()));
    }
    if (c.variant == Variant::Rotary && id == step_id::kOutput)
        return QStringLiteral(
                   "o<sub>i</sub> = z<sub>i</sub> W<sub>o</sub><sup>T</sup> &nbsp;∈ "
                   "ℝ<sup>%1</sup>")
            .arg(c.dIn);
    if (c.variant == Variant::GroupedQuery && id == step_id::kOutput)
        return QStringLiteral("o<sub>i</sub> = z<sub>i</sub> W<sub>o</sub><sup>T</sup>");
    return {};
}

namespace {

// The formula of step `id` in the context `x` (its module, input and the scale its scores use).
QString formulaHtml(const Ctx& x, const std::string& id) {
    const Config& config = x.c;
    const InputOrigin origin = x.origin;
    if (x.onePlusNorm && (id == step_id::kQueriesNormed || id == step_id::kKeysNormed))
        return QStringLiteral(
                   "%1̂ = %1 / √(mean<sub>k</sub> %1<sub>k</sub><sup>2</sup> + ε) ⊙ (1 + g), "
                   "&nbsp; ε = 10<sup>−6</sup>")
            .arg(id == step_id::kQueriesNormed ? QStringLiteral("q") : QStringLiteral("k"));
    if (variantIsAfterChapter3(config.variant))
        if (const QString f = afterChapter3Formula(config, id); !f.isEmpty())
            return f;
    const QString sup = x.mha ? QStringLiteral("<sup>(h)</sup>") : QString();
    const QString wsup = (x.mha || x.wrapper) ? QStringLiteral("<sup>(h)</sup>") : QString();
    if (id == step_id::kInputs) {
        const QString space = QStringLiteral(" &nbsp;∈ ℝ<sup>%1</sup>").arg(x.dIn);
        switch (origin) {
            case InputOrigin::Embedded:
                return QStringLiteral("x<sub>i</sub> = tok[id<sub>i</sub>] + pos[i]") + space;
            case InputOrigin::EmbeddedWithoutPositions:
                return QStringLiteral("x<sub>i</sub> = tok[id<sub>i</sub>]") + space;
            case InputOrigin::Book:
                return Explain::tr("x<sub>i</sub> = the book's vector of token i") + space;
            case InputOrigin::File:
                return Explain::tr("x<sub>i</sub> = row i of the loaded file") + space;
        }
    }
    if (id == step_id::kQueries || id == step_id::kKeys || id == step_id::kValues) {
        const QString l = letterOf(id), W = matrixOf(id);
        if (x.v1)
            return QStringLiteral("%1<sub>i</sub> = x<sub>i</sub> %2").arg(l, W);
        const QString bias =
            config.qkvBias ? QStringLiteral(" + b<sub>%1</sub>").arg(l) : QString();
        if (x.wrapper)
            return QStringLiteral(
                       "%1<sub>i</sub><sup>(h)</sup> = x<sub>i</sub> %2<sup>(h)T</sup>%3")
                .arg(l, W, bias);
        return QStringLiteral("%1<sub>i</sub> = x<sub>i</sub> %2<sup>T</sup>%3").arg(l, W, bias);
    }
    if (id.ends_with("_split"))
        return QStringLiteral("%1_split[b, t, h, i] = %1[b, t, h·hd + i]").arg(baseName(id));
    if (isQkvHeads(id))
        return QStringLiteral("%1_heads[b, h, t, i] = %1_split[b, t, h, i]").arg(baseName(id));
    if (id == step_id::kScores) {
        if (x.simplified)
            return QStringLiteral(
                "score<sub>ij</sub> = x<sub>i</sub> · x<sub>j</sub> = "
                "Σ<sub>k</sub>&nbsp;x<sub>ik</sub> "
                "x<sub>jk</sub>");
        return QStringLiteral(
                   "score<sub>ij</sub>%1 = q<sub>i</sub>%1 · k<sub>j</sub>%1 = Σ<sub>k</sub>&nbsp;"
                   "q<sub>ik</sub> k<sub>jk</sub>")
            .arg(wsup);
    }
    if (id == step_id::kMask) {
        if (x.mask.kind == MaskKind::Window)
            return Explain::tr("mask<sub>ij</sub> = 1 if j &gt; i or j ≤ i − %1, else 0")
                .arg(x.mask.window);
        return Explain::tr("mask<sub>ij</sub> = 1 if j &gt; i, else 0");
    }
    if (id == step_id::kMaskedScores)
        return Explain::tr("m<sub>ij</sub> = −∞ if mask<sub>ij</sub> = 1, else score<sub>ij</sub>");
    if (id == step_id::kScaledScores && x.scaleSize > 0.0)
        return QStringLiteral(
                   "z<sub>ij</sub> = %1<sub>ij</sub> / √query_pre_attn_scalar, &nbsp; "
                   "query_pre_attn_scalar = %2, √query_pre_attn_scalar = %3")
            .arg(scoreSymbol(x))
            .arg(x.scaleSize)
            .arg(num(std::sqrt(x.scaleSize), 5));
    if (id == step_id::kScaledScores)
        return QStringLiteral(
                   "z<sub>ij</sub> = %1<sub>ij</sub> / √d<sub>k</sub>, &nbsp; d<sub>k</sub> = %2, "
                   "√d<sub>k</sub> = %3")
            .arg(scoreSymbol(x))
            .arg(x.dk())
            .arg(num(std::sqrt(x.dk()), 5));
    if (id == step_id::kWeights) {
        const QString z = x.simplified ? scoreSymbol(x) : QStringLiteral("z");
        return QStringLiteral(
                   "w<sub>ij</sub> = softmax<sub>j</sub>(%1<sub>i</sub>) = exp(%1<sub>ij</sub>) "
                   "/&nbsp;"
                   "Σ<sub>j′</sub>&nbsp;exp(%1<sub>ij′</sub>)")
            .arg(z);
    }
    if (id == step_id::kWeightsUnmasked)
        return x.simplified
                   ? QStringLiteral("u<sub>ij</sub> = softmax<sub>j</sub>(score<sub>i</sub>)")
                   : QStringLiteral(
                         "u<sub>ij</sub> = softmax<sub>j</sub>(score<sub>i</sub> / "
                         "√%1)")
                         .arg(x.scaleSize > 0.0 ? QStringLiteral("query_pre_attn_scalar")
                                                : QStringLiteral("d<sub>k</sub>"));
    if (id == step_id::kWeightsTril)
        return QStringLiteral("t<sub>ij</sub> = u<sub>ij</sub> · (1 − mask<sub>ij</sub>)");
    if (id == step_id::kWeightsRenormalized)
        return QStringLiteral(
            "r<sub>ij</sub> = t<sub>ij</sub> /&nbsp;Σ<sub>j′</sub>&nbsp;t<sub>ij′</sub> &nbsp;(= "
            "w<sub>ij</sub>)");
    if (id == step_id::kDropoutMask)
        return QStringLiteral("keep<sub>ij</sub> ~ Bernoulli(1 − p), &nbsp; p = %1")
            .arg(num(config.dropout));
    if (id == step_id::kDroppedWeights)
        return QStringLiteral(
                   "w′<sub>ij</sub> = w<sub>ij</sub> · keep<sub>ij</sub> / (1 − p) = "
                   "w<sub>ij</sub> · keep<sub>ij</sub> · %1")
            .arg(num(1.0 / (1.0 - config.dropout)));
    const QString w = x.dropout ? QStringLiteral("w′") : QStringLiteral("w");
    if (id == step_id::kContextHeads)
        return QStringLiteral(
                   "z<sub>i</sub><sup>(h)</sup> = Σ<sub>j</sub>&nbsp;%1<sub>ij</sub><sup>(h)</sup> "
                   "v<sub>j</sub><sup>(h)</sup>")
            .arg(w);
    if (id == step_id::kContextTransposed)
        return QStringLiteral("context_transposed[b, t, h, i] = context_heads[b, h, t, i]");
    if (id == step_id::kContext) {
        if (x.mha)
            return QStringLiteral(
                "z<sub>i</sub> = [z<sub>i</sub><sup>(0)</sup> ‖ … ‖ "
                "z<sub>i</sub><sup>(h−1)</sup>], &nbsp; z<sub>i</sub>[h·hd + k] = "
                "z<sub>i</sub><sup>(h)</sup>[k]");
        if (x.simplified)
            return QStringLiteral(
                       "z<sub>i</sub> = Σ<sub>j</sub>&nbsp;%1<sub>ij</sub> x<sub>j</sub>")
                .arg(w);
        return QStringLiteral(
                   "z<sub>i</sub>%2 = Σ<sub>j</sub>&nbsp;%1<sub>ij</sub>%2 v<sub>j</sub>%2")
            .arg(w, wsup);
    }
    if (id == step_id::kOutput) {
        if (x.mha)
            return QStringLiteral(
                "o<sub>i</sub> = z<sub>i</sub> W<sub>o</sub><sup>T</sup> + b<sub>o</sub>");
        if (x.wrapper)
            return QStringLiteral(
                "o<sub>i</sub> = [z<sub>i</sub><sup>(0)</sup> ‖ z<sub>i</sub><sup>(1)</sup> ‖ … ‖ "
                "z<sub>i</sub><sup>(h−1)</sup>]");
        return QStringLiteral("o<sub>i</sub> = z<sub>i</sub>");
    }
    (void)sup;
    return {};
}
}  // namespace

QString stepFormulaHtml(const Config& config, const std::string& id, InputOrigin origin) {
    Ctx x = makeCtx(config, 1);
    x.origin = origin;
    return formulaHtml(x, id);
}

namespace {

// What the steps only the modules after chapter 3 have compute, and why; their projections
// too. Empty where the chapter-3 text says it.
QString afterChapter3WhatAndWhy(const Ctx& x, const std::string& id) {
    const Config& c = x.c;
    const QString cache = Explain::tr(
        "While a model generates text it keeps the keys and values of every earlier token, in "
        "every layer, so that each new token needs only its own: the key/value cache, which "
        "grows with the text and is what limits long contexts.");
    if (id == step_id::kLatent)
        return Explain::tr(
                   "Multi-head latent attention (DeepSeek) first compresses each token to a "
                   "latent of %1 numbers (W_DKV), and rebuilds its keys and values from it "
                   "(W_UK, W_UV).")
                   .arg(c.effectiveLatentDim()) +
               QLatin1Char(' ') + cache + QLatin1Char(' ') +
               (c.effectiveLatentDim() < 2 * x.dOut
                    ? Explain::tr(
                          "With the latent a cache keeps %1 numbers per token and layer instead "
                          "of 2 × d_out = %2, at the price of two more small matrix products.")
                          .arg(c.effectiveLatentDim())
                          .arg(2 * x.dOut)
                    : Explain::tr(
                          "Here the latent (%1 numbers) is no smaller than the keys and values "
                          "it replaces (2 × d_out = %2), so it saves nothing: the book's default "
                          "of at least 16 is meant for real sizes (d_out 4,096: a latent of "
                          "512). Set the latent size below %2 to see the saving.")
                          .arg(c.effectiveLatentDim())
                          .arg(2 * x.dOut));
    if (x.latent && (id == step_id::kKeys || id == step_id::kValues))
        return Explain::tr(
                   "The %1 are rebuilt from the latent by nn.Linear(%2, %3): %3 numbers per "
                   "token again, split into heads as in multi-head attention. Only the latent "
                   "has to be kept for later tokens.")
            .arg(QString::fromStdString(id))
            .arg(c.effectiveLatentDim())
            .arg(x.dOut);
    if (x.grouped && (id == step_id::kKeys || id == step_id::kValues))
        return Explain::tr(
                   "The %1 are projected to only G × hd = %2 × %3 = %4 numbers per token: one "
                   "slice per key/value group, not per head (the queries get h × hd = %5).")
            .arg(QString::fromStdString(id))
            .arg(x.G)
            .arg(x.hd)
            .arg(x.G * x.hd)
            .arg(x.h * x.hd);
    if (x.rotary && id == step_id::kQueries)
        return (x.qkvBias
                    ? Explain::tr("Each token's d_in = %1 numbers are projected to h × head_dim = "
                                  "%2 × %3 = %4: the head size is its own setting here (Qwen3's is "
                                  "128 whatever d_in is), and the query, key and value projections "
                                  "add a bias, as Qwen2's do.")
                    : Explain::tr("Each token's d_in = %1 numbers are projected to h × head_dim = "
                                  "%2 × %3 = %4: the head size is its own setting here (Qwen3's is "
                                  "128 whatever d_in is), and none of the projections has a bias."))
            .arg(x.dIn)
            .arg(x.h)
            .arg(x.hd)
            .arg(x.h * x.hd);
    if (x.grouped && (id == step_id::kKeysSplit || id == step_id::kValuesSplit))
        return Explain::tr(
                   "The %1 are cut into G = %2 key/value groups of hd = %3 numbers. Nothing is "
                   "computed or copied; .view only reads the same numbers with a new shape.")
            .arg(baseName(id))
            .arg(x.G)
            .arg(x.hd);
    if (id == step_id::kKeysGroups || id == step_id::kValuesGroups)
        return Explain::tr(
                   "Swapping the token and group axes gives each key/value group a T × hd "
                   "matrix. There are only G = %1 of them for h = %2 query heads: each group "
                   "serves %3 heads.")
                   .arg(x.G)
                   .arg(x.h)
                   .arg(x.perGroup) +
               QLatin1Char(' ') + cache + QLatin1Char(' ') +
               (x.G == 1
                    ? Explain::tr("With one group (multi-query attention) the cache is %1 times "
                                  "smaller than multi-head attention's.")
                          .arg(x.h)
                    : Explain::tr("With %1 groups for %2 heads the cache is %3 times smaller than "
                                  "multi-head attention's, and the quality nearly the same: Llama "
                                  "3, Qwen3 and Gemma 3 share keys this way.")
                          .arg(x.G)
                          .arg(x.h)
                          .arg(x.perGroup));
    if (id == step_id::kQueriesNormed || id == step_id::kKeysNormed)
        return (
            x.trainedLayer
                ? Explain::tr(
                      "QK-norm (Qwen3, Gemma 3, OLMo 2): RMSNorm divides each head's %1 by "
                      "its root mean square, so its numbers have a typical size of 1, then "
                      "multiplies by the scale this model learnt%2. Without it queries and "
                      "keys can grow during training, the scores grow with them and softmax "
                      "puts all weight on one token, which makes training unstable; "
                      "normalised, a score's size stays bounded.")
                      .arg(
                          id == step_id::kQueriesNormed ? Explain::tr("query") : Explain::tr("key"),
                          x.onePlusNorm ? Explain::tr(" (stored as the scale minus 1)") : QString())
                : Explain::tr(
                      "QK-norm (Qwen3, Gemma 3, OLMo 2): RMSNorm divides each head's %1 by "
                      "its root mean square, so its numbers have a typical size of 1, then "
                      "multiplies by a learned scale (ones at the start). Without it queries "
                      "and keys can grow during training, the scores grow with them and "
                      "softmax puts all weight on one token, which makes training unstable; "
                      "normalised, a score's size stays bounded.")
                      .arg(id == step_id::kQueriesNormed ? Explain::tr("query")
                                                         : Explain::tr("key")));
    if (id == step_id::kRopeCos || id == step_id::kRopeSin)
        return Explain::tr(
                   "Rotary position embeddings (RoPE) pair dimension i of a head with dimension "
                   "i + hd/2 and turn each pair by an angle: the position times a frequency "
                   "base<sup>−2i/hd</sup> (base = %1). The first pair turns by a whole radian "
                   "per position, the last ones very slowly, like the hands of a clock. This "
                   "table holds the %2 of every angle: a row per position, a column per "
                   "dimension; the second half repeats the first.")
            .arg(QString::number(c.ropeBase, 'g', 10))
            .arg(id == step_id::kRopeCos ? Explain::tr("cosine") : Explain::tr("sine"));
    if (id == step_id::kQueriesRotated)
        return Explain::tr(
                   "Each pair of the query's numbers is turned by its position's angle: (x, y) "
                   "becomes (x cos θ − y sin θ, y cos θ + x sin θ). GPT-2 adds a position vector "
                   "to the embedding instead; RoPE adds nothing and changes no vector's length, "
                   "only its direction, by an amount that depends on where the token stands.") +
               QLatin1Char(' ') +
               Explain::tr(
                   "Why pairs: a rotation turns a point in a plane, and a point in a plane has two "
                   "numbers. So RoPE turns a head's numbers two by two, each pair at its own "
                   "speed, "
                   "and the head size must be even.");
    if (id == step_id::kKeysRotated)
        return Explain::tr(
            "The keys are turned the same way. A query at position m is turned by m·θ, a key at "
            "position n by n·θ, and the dot product of two turned vectors depends only on the "
            "angle between them: (m − n)·θ. So a score sees how far apart two tokens are, not "
            "where they are: the same pair of words gets the same score at any place in the "
            "text, as long as their distance is the same.");
    if (id == step_id::kKeysRepeated || id == step_id::kValuesRepeated)
        return (x.perGroup == 1
                    ? Explain::tr(
                          "repeat_interleave(1, dim=1) lines the groups up with the query heads: "
                          "with one group per head, head h reads group h.")
                : x.perGroup == 2
                    ? Explain::tr("repeat_interleave(2, dim=1) lines the groups up with the query "
                                  "heads: heads 0 and 1 read group 0, heads 2 and 3 group 1, and "
                                  "so on.")
                    : Explain::tr("repeat_interleave(%1, dim=1) lines the groups up with the query "
                                  "heads: heads 0 to %2 read group 0, the next %1 heads group 1, "
                                  "and so on.")
                          .arg(x.perGroup)
                          .arg(x.perGroup - 1)) +
               QLatin1Char(' ') +
               Explain::tr(
                   "PyTorch copies the numbers here; the app shows a view, as fast attention "
                   "kernels do, since heads of one group read the same %1.")
                   .arg(id == step_id::kKeysRepeated ? Explain::tr("keys") : Explain::tr("values"));
    if (x.rotary && id == step_id::kOutput)
        return Explain::tr(
                   "out_proj = nn.Linear(%1, %2, bias=False) mixes the heads' results and maps "
                   "them back to d_in = %2 numbers per token, the width of the residual stream "
                   "the block adds them to.")
            .arg(x.h * x.hd)
            .arg(x.dIn);
    if (c.variant == Variant::GroupedQuery && id == step_id::kOutput)
        return Explain::tr(
                   "A final linear layer, out_proj = nn.Linear(%1, %1) without a bias, mixes the "
                   "heads' results.")
            .arg(x.dOut);
    return {};
}

// What the step computes and why, in plain words.
QString whatAndWhy(const Ctx& x, const std::string& id) {
    if (x.after)
        if (const QString text = afterChapter3WhatAndWhy(x, id); !text.isEmpty())
            return text;
    const QString dIn = QString::number(x.dIn), dOut = QString::number(x.dOut),
                  T = QString::number(x.T);
    if (id == step_id::kInputs) {
        const QString mix = Explain::tr(
            "Attention will mix these vectors so that each token's new vector also carries "
            "information from the tokens it pays attention to.");
        switch (x.origin) {
            case InputOrigin::Book:
                return Explain::tr(
                           "Every token starts as a list of %1 numbers, its embedding. Here "
                           "they are the book's own six vectors (section 3.3), fixed numbers "
                           "printed in the chapter, not the output of an embedding layer.")
                           .arg(dIn) +
                       QLatin1Char(' ') + mix;
            case InputOrigin::File:
                return Explain::tr(
                           "Every token starts as a list of %1 numbers, its embedding. Here "
                           "they are the rows of the loaded embeddings file, as given.")
                           .arg(dIn) +
                       QLatin1Char(' ') + mix;
            case InputOrigin::EmbeddedWithoutPositions:
                return Explain::tr(
                           "Every token starts as a list of %1 numbers, its embedding: a row of "
                           "the token embedding table. Tokens with related meanings get similar "
                           "embeddings. The position embedding is switched off, so the same "
                           "word gets the same vector wherever it stands.")
                           .arg(dIn) +
                       QLatin1Char(' ') + mix;
            case InputOrigin::Embedded:
                break;
        }
        return Explain::tr(
                   "Every token starts as a list of %1 numbers, its embedding. Tokens with "
                   "related meanings get similar embeddings, and the position embedding "
                   "adds where the token sits in the sentence. Attention will mix these "
                   "vectors so that each token's new vector also carries information from "
                   "the tokens it pays attention to.")
            .arg(dIn);
    }
    if (id == step_id::kQueries || id == step_id::kKeys || id == step_id::kValues) {
        QString role;
        if (id == step_id::kQueries)
            role = Explain::tr("The query is what a token is looking for in the others.");
        else if (id == step_id::kKeys)
            role = Explain::tr(
                "The key is what a token offers to be matched against: a query "
                "that points the same way as a key gives a high score.");
        else
            role = Explain::tr(
                "The value is the content a token hands on once it has been "
                "chosen: context vectors are made of values.");
        QString how;
        const StepInfo* layerInput = x.find(step_id::kInputs);
        if (layerInput && isModelLayerInput(*layerInput))
            // A trained model's layer: no initialisation to speak of, the weights are learnt.
            how = Explain::tr(
                      "This layer multiplies by the model's own %1 × %2 weight%3, learnt in "
                      "training and read from its file.")
                      .arg(dIn, dOut, x.qkvBias ? Explain::tr(" and its bias") : QString());
        else if (x.v1)
            how = Explain::tr(
                      "SelfAttention_v1 multiplies the inputs by a trainable %1 × %2 matrix "
                      "(x @ W), filled with torch.rand, so all entries start between 0 and 1.")
                      .arg(dIn, dOut);
        else if (x.wrapper)
            how = Explain::tr(
                      "The wrapper holds %1 separate CausalAttention heads; each has its own "
                      "nn.Linear(%2, %3) layers, so every head computes its own %4 with "
                      "its own weights (the leading head axis).")
                      .arg(x.h)
                      .arg(dIn, dOut, QString::fromStdString(id));
        else
            how = Explain::tr(
                      "An nn.Linear(%1, %2%3) layer does the multiplication: it stores its "
                      "weight transposed (%2 × %1) and starts from a better-scaled random "
                      "initialisation than torch.rand, which helps training.")
                      .arg(dIn, dOut, x.c.qkvBias ? QStringLiteral(", bias=True") : QString());
        if (x.mha)
            how += QLatin1Char(' ') +
                   Explain::tr(
                       "Multi-head attention makes one projection for all %1 heads at once; "
                       "it is split into heads in the next steps.")
                       .arg(x.h);
        return Explain::tr("Each token's embedding is projected to a %1-number vector.").arg(dOut) +
               QLatin1Char(' ') + role + QLatin1Char(' ') + how;
    }
    if (id.ends_with("_split")) {
        return Explain::tr(
                   "The %1 computed for all heads together are cut into %2 pieces of "
                   "hd = %3 numbers: piece h belongs to head h. Nothing is computed or "
                   "copied; .view only reads the same numbers with a new shape.")
            .arg(baseName(id))
            .arg(x.h)
            .arg(x.hd);
    }
    if (isQkvHeads(id)) {
        return Explain::tr(
                   "Swapping the token and head axes (transpose(1, 2)) groups the numbers "
                   "by head: each head now holds a T × hd matrix of its own %1 and can do "
                   "attention independently of the others, all in one batched matrix "
                   "multiplication.")
            .arg(baseName(id));
    }
    if (id == step_id::kScores) {
        if (x.simplified)
            return Explain::tr(
                       "How similar is each token to every other token? The dot product "
                       "of two embeddings is large when they point in the same direction. "
                       "This simplified attention has no trainable weights, and so no "
                       "queries, keys or values: it compares the inputs directly, giving a "
                       "%1 × %1 table in which row i holds token i's score with every token.")
                .arg(T);
        QString s = Explain::tr(
                        "Each query is compared with every key by a dot product: the "
                        "larger the score, the more the query token is interested in "
                        "the key token. Row i holds token i's scores for all %1 tokens.")
                        .arg(T);
        if (x.mha || x.wrapper)
            s += QLatin1Char(' ') + Explain::tr("Every head computes its own score table.");
        return s;
    }
    if (id == step_id::kMask) {
        if (x.mask.kind == MaskKind::Window)
            return Explain::tr(
                       "A sliding window: each token may look at itself and the %1 tokens "
                       "before it. A 1 marks a key the query is not allowed to see: one "
                       "that comes later, or one that is too far back.")
                .arg(x.mask.window - 1);
        return Explain::tr(
            "A language model predicts the next token, so while reading token i it "
            "must not peek at tokens that come after it. The causal mask marks "
            "those future positions with 1: everything above the diagonal.");
    }
    if (id == step_id::kMaskedScores)
        return Explain::tr(
            "The scores of hidden positions are replaced by minus infinity "
            "(masked_fill). exp(−∞) = 0, so after softmax these positions get "
            "exactly zero weight, while the remaining weights in each row still "
            "sum to 1. Doing this before softmax is the efficient trick of the "
            "chapter.");
    if (id == step_id::kScaledScores && x.scaleSize > 0.0)
        return Explain::tr(
                   "The scores are divided by the square root of query_pre_attn_scalar = %1, a "
                   "size the model's config sets (Gemma 3), not by that of its head size d_k = "
                   "%2. The reason is the chapter's: without it large dot products would make "
                   "softmax put almost all weight on one token.")
            .arg(x.scaleSize)
            .arg(x.dk());
    if (id == step_id::kScaledScores)
        return Explain::tr(
                   "The scores are divided by the square root of the key size d_k = %1. "
                   "With large d_k the dot products grow large, softmax would put almost "
                   "all weight on one token and its gradients would vanish; scaling keeps "
                   "the values in a range where softmax stays smooth. That is why this is "
                   "called scaled dot-product attention.")
            .arg(x.dk());
    if (id == step_id::kWeights) {
        QString s = Explain::tr(
            "Softmax turns each row of scores into attention weights: every "
            "weight is positive and each row sums to 1, so a row says how "
            "token i divides its attention among the tokens.");
        if (x.simplified)
            s += QLatin1Char(' ') + Explain::tr(
                                        "The simplified version applies softmax to the raw "
                                        "dot products, without scaling.");
        if (x.masked)
            s += QLatin1Char(' ') + Explain::tr("Masked positions (−∞) get weight 0.");
        return s;
    }
    if (id == step_id::kWeightsUnmasked)
        return Explain::tr(
            "The chapter first shows a simple way to mask: compute ordinary "
            "attention weights with softmax, as if there were no mask. The hidden "
            "positions still have weight here.");
    if (id == step_id::kWeightsTril) {
        if (x.mask.kind == MaskKind::Window) {
            const int64_t before = x.mask.window - 1;
            const QString where =
                before == 0   ? Explain::tr("only itself")
                : before == 1 ? Explain::tr("itself and the token before it")
                              : Explain::tr("itself and the %1 tokens before it").arg(before);
            return Explain::tr(
                       "Then multiply by (1 − mask), a band of ones where a token may look "
                       "(%1) and zeros elsewhere, which sets every hidden weight to 0. The rows "
                       "no longer sum to 1.")
                .arg(where);
        }
        return Explain::tr(
            "Then multiply by the lower triangle of ones (1 − mask), which sets "
            "every hidden weight to 0. The rows no longer sum to 1.");
    }
    if (id == step_id::kWeightsRenormalized)
        return Explain::tr(
            "Dividing each row by its sum makes it sum to 1 again. The result is "
            "exactly the same as the efficient method (−∞ before softmax): "
            "future tokens never influenced the weights, because softmax "
            "normalises by a sum that renormalising simply replaces.");
    if (id == step_id::kDropoutMask)
        return Explain::tr(
                   "During training, dropout hides a random part of the attention weights "
                   "so the model cannot rely on a few connections. Each weight is kept "
                   "with probability 1 − p = %1; a 1 marks a kept weight. In eval mode "
                   "dropout does nothing.")
            .arg(num(1.0 - x.c.dropout));
    if (id == step_id::kDroppedWeights)
        return Explain::tr(
                   "The dropped weights become 0 and the kept ones are multiplied by "
                   "1/(1 − p) = %1, so the expected size of each weight stays the same "
                   "as without dropout. Rows no longer sum to exactly 1.")
            .arg(num(1.0 / (1.0 - x.c.dropout)));
    const QString w =
        x.dropout ? Explain::tr("the dropped-out weights") : Explain::tr("the attention weights");
    if (id == step_id::kContextHeads)
        return Explain::tr(
                   "Each head builds its context vectors: for every token, the sum of its "
                   "head's value vectors weighted by %1. A token's context vector is a "
                   "blend of the tokens it attends to.")
            .arg(w);
    if (id == step_id::kContextTransposed)
        return Explain::tr(
                   "The head and token axes are swapped back (transpose(1, 2)), so for "
                   "each token the %1 heads' results sit next to each other.")
            .arg(x.h);
    if (id == step_id::kContext) {
        if (x.mha)
            return Explain::tr(
                       "The heads' results are joined end to end per token "
                       "(.contiguous().view): %1 heads × hd = %2 numbers make d_out = %3 "
                       "again.")
                .arg(x.h)
                .arg(x.hd)
                .arg(x.dOut);
        if (x.simplified)
            return Explain::tr(
                       "The context vector of token i is the weighted sum of all input "
                       "vectors, using row i of %1: an enriched embedding that also "
                       "carries information from the tokens token i attends to.")
                .arg(w);
        QString s = Explain::tr(
                        "The context vector of token i is the sum of the value vectors, "
                        "weighted by row i of %1: a blend of the tokens it attends to.")
                        .arg(w);
        if (x.wrapper)
            s += QLatin1Char(' ') + Explain::tr("Each head makes its own context vectors.");
        return s;
    }
    if (id == step_id::kOutput) {
        if (x.mha)
            return Explain::tr(
                       "A final linear layer, out_proj = nn.Linear(%1, %1) with bias, "
                       "mixes the heads' results. It is not strictly needed, but "
                       "common in LLMs such as GPT-2.")
                .arg(x.dOut);
        if (x.wrapper)
            return Explain::tr(
                       "The wrapper stacks the %1 heads' context vectors side by side "
                       "(torch.cat along the last axis), so each token ends with "
                       "%1 × %2 = %3 numbers.")
                .arg(x.h)
                .arg(x.dOut)
                .arg(x.h * x.dOut);
        return Explain::tr(
                   "The module returns the context vectors: one new %1-number vector "
                   "per token.")
            .arg(x.dOut);
    }
    return {};
}

// The step(s) this one is computed from, for the shape change.
std::vector<std::string> sourcesOf(const Ctx& x, const std::string& id) {
    // The first of `ids` the trace has: the latest form of the queries or keys.
    const auto latest = [&](std::initializer_list<const char*> ids) {
        for (const char* i : ids)
            if (x.find(i))
                return std::string(i);
        return std::string();
    };
    if (x.after) {
        if (x.latent && (id == step_id::kKeys || id == step_id::kValues))
            return {step_id::kLatent};
        if (id == step_id::kLatent)
            return {step_id::kInputs};
        if (id == step_id::kKeysGroups)
            return {step_id::kKeysSplit};
        if (id == step_id::kValuesGroups)
            return {step_id::kValuesSplit};
        if (id == step_id::kQueriesNormed)
            return {step_id::kQueriesHeads};
        if (id == step_id::kKeysNormed)
            return {step_id::kKeysGroups};
        if (id == step_id::kQueriesRotated)
            return {latest({step_id::kQueriesNormed, step_id::kQueriesHeads}), step_id::kRopeCos};
        if (id == step_id::kKeysRotated)
            return {latest({step_id::kKeysNormed, step_id::kKeysGroups}), step_id::kRopeCos};
        if (id == step_id::kKeysRepeated)
            return {latest({step_id::kKeysRotated, step_id::kKeysNormed, step_id::kKeysGroups})};
        if (id == step_id::kValuesRepeated)
            return {step_id::kValuesGroups};
        if (id == step_id::kScores)
            return {
                latest({step_id::kQueriesRotated, step_id::kQueriesNormed, step_id::kQueriesHeads}),
                latest({step_id::kKeysRepeated, step_id::kKeysHeads})};
        if (id == step_id::kContextHeads)
            return {x.dropout ? step_id::kDroppedWeights : step_id::kWeights,
                    latest({step_id::kValuesRepeated, step_id::kValuesHeads})};
    }
    if (id == step_id::kQueries || id == step_id::kKeys || id == step_id::kValues)
        return {step_id::kInputs};
    if (id.ends_with("_split"))
        return {id.substr(0, id.size() - 6)};
    if (isQkvHeads(id))
        return {id.substr(0, id.size() - 6) + "_split"};
    if (id == step_id::kScores) {
        if (x.simplified)
            return {step_id::kInputs};
        if (x.mha)
            return {step_id::kQueriesHeads, step_id::kKeysHeads};
        return {step_id::kQueries, step_id::kKeys};
    }
    if (id == step_id::kMaskedScores)
        return {step_id::kScores};
    if (id == step_id::kScaledScores)
        return {x.masked ? step_id::kMaskedScores : step_id::kScores};
    if (id == step_id::kWeights) {
        if (!x.simplified)
            return {step_id::kScaledScores};
        return {x.masked ? step_id::kMaskedScores : step_id::kScores};
    }
    if (id == step_id::kWeightsUnmasked)
        return {step_id::kScores};
    if (id == step_id::kWeightsTril)
        return {step_id::kWeightsUnmasked};
    if (id == step_id::kWeightsRenormalized)
        return {step_id::kWeightsTril};
    if (id == step_id::kDropoutMask || id == step_id::kDroppedWeights)
        return {step_id::kWeights};
    const std::string used = x.dropout ? step_id::kDroppedWeights : step_id::kWeights;
    if (id == step_id::kContextHeads)
        return {used, step_id::kValuesHeads};
    if (id == step_id::kContextTransposed)
        return {step_id::kContextHeads};
    if (id == step_id::kContext) {
        if (x.mha)
            return {step_id::kContextTransposed};
        return {used, x.simplified ? step_id::kInputs : step_id::kValues};
    }
    if (id == step_id::kOutput) {
        if (x.mha || x.wrapper)
            return {step_id::kContext};
        return {step_id::kContext};
    }
    return {};
}

QString shapeChange(const Ctx& x, const StepInfo& s) {
    const std::string& id = s.id;
    const QString to = shapeText(s.shape);
    if (id == step_id::kInputs)
        return Explain::tr("%1 %2: batch b = %3, T = %4 tokens, d_in = %5 numbers per token")
            .arg(to, namedShapeHtml(s))
            .arg(x.b)
            .arg(x.T)
            .arg(x.dIn);
    if (id == step_id::kMask)
        return Explain::tr("%1 %2: one T × T table shared by every batch entry and head")
            .arg(to, namedShapeHtml(s));
    if (id == step_id::kRopeCos || id == step_id::kRopeSin)
        return Explain::tr("%1 %2: one row per position, one column per number of a head")
            .arg(to, namedShapeHtml(s));
    std::vector<const StepInfo*> src;
    for (const std::string& sid : sourcesOf(x, id))
        if (const StepInfo* p = x.find(sid))
            src.push_back(p);
    if (src.empty())
        return QStringLiteral("%1 %2").arg(to, namedShapeHtml(s));
    const QString from = shapeText(src[0]->shape);
    if (x.after) {
        const QString width = s.dims.empty() ? QString() : QString::fromStdString(s.dims.back());
        if (id == step_id::kLatent ||
            (x.latent && (id == step_id::kKeys || id == step_id::kValues)))
            return Explain::tr("%1 → %2: each token's %3 = %4 numbers become %5 = %6")
                .arg(from, to, QString::fromStdString(src[0]->dims.back()))
                .arg(src[0]->shape.back())
                .arg(width)
                .arg(s.shape.back());
        if (id == step_id::kQueries || id == step_id::kKeys || id == step_id::kValues)
            return Explain::tr("%1 → %2: each token's d_in = %3 numbers become %4 = %5")
                .arg(from, to)
                .arg(x.dIn)
                .arg(width)
                .arg(s.shape.back());
        if (x.grouped && (id == step_id::kKeysSplit || id == step_id::kValuesSplit))
            return Explain::tr("%1 → %2: split G·hd = %3 into G = %4 groups of hd = %5")
                .arg(from, to)
                .arg(x.G * x.hd)
                .arg(x.G)
                .arg(x.hd);
        if (id == step_id::kKeysGroups || id == step_id::kValuesGroups)
            return Explain::tr("%1 → %2: swap the token axis T = %3 and the group axis G = %4")
                .arg(from, to)
                .arg(x.T)
                .arg(x.G);
        if (id == step_id::kKeysRepeated || id == step_id::kValuesRepeated)
            return Explain::tr(
                       "%1 → %2: each of the G = %3 groups repeated %4 times along the head "
                       "axis: h = %5")
                .arg(from, to)
                .arg(x.G)
                .arg(x.perGroup)
                .arg(x.h);
        if (id == step_id::kContext)
            return Explain::tr("%1 → %2: join h = %3 heads of hd = %4 into %5")
                .arg(from, to)
                .arg(x.h)
                .arg(x.hd)
                .arg(x.h * x.hd);
        if (id == step_id::kOutput)
            return Explain::tr("%1 → %2: %3 in, %4 out")
                .arg(from, to)
                .arg(x.dOut)
                .arg(s.shape.back());
    }
    if (id == step_id::kQueries || id == step_id::kKeys || id == step_id::kValues) {
        if (x.wrapper)
            return Explain::
                tr("%1 → %2: each of the %3 heads maps d_in = %4 to d_out = %5 (leading head axis)")
                    .arg(from, to)
                    .arg(x.h)
                    .arg(x.dIn)
                    .arg(x.dOut);
        return Explain::tr("%1 → %2: each token's d_in = %3 numbers become d_out = %4")
            .arg(from, to)
            .arg(x.dIn)
            .arg(x.dOut);
    }
    if (id.ends_with("_split"))
        return Explain::tr("%1 → %2: split d_out = %3 into h = %4 heads of hd = %5")
            .arg(from, to)
            .arg(x.dOut)
            .arg(x.h)
            .arg(x.hd);
    if (isQkvHeads(id))
        return Explain::tr("%1 → %2: swap the token axis T = %3 and the head axis h = %4")
            .arg(from, to)
            .arg(x.T)
            .arg(x.h);
    if (id == step_id::kScores) {
        const int64_t k = x.simplified ? x.dIn : (x.mha ? x.hd : x.dOut);
        const QString kName = x.simplified
                                  ? QStringLiteral("d_in")
                                  : (x.mha ? QStringLiteral("hd") : QStringLiteral("d_out"));
        return (x.simplified
                    ? Explain::tr("%1 @ %1<sup>T</sup> → %2: the %3 = %4 axis is summed away; "
                                  "one score per pair of tokens, %5 × %5")
                    : Explain::tr("%1 @ %1<sup>T</sup> → %2: the %3 = %4 axis is summed away; "
                                  "one score per (query, key) pair, %5 × %5"))
            .arg(from, to, kName)
            .arg(k)
            .arg(x.T);
    }
    if (id == step_id::kContextHeads)
        return Explain::tr("%1 @ %2 → %3: the key axis T = %4 is summed away")
            .arg(from, src.size() > 1 ? shapeText(src[1]->shape) : QString(), to)
            .arg(x.T);
    if (id == step_id::kContextTransposed)
        return Explain::tr("%1 → %2: swap the head axis h = %3 and the token axis T = %4 back")
            .arg(from, to)
            .arg(x.h)
            .arg(x.T);
    if (id == step_id::kContext) {
        if (x.mha)
            return Explain::tr("%1 → %2: join h = %3 heads of hd = %4 into d_out = %5")
                .arg(from, to)
                .arg(x.h)
                .arg(x.hd)
                .arg(x.dOut);
        return (x.simplified
                    ? Explain::tr("%1 @ %2 → %3: the second token axis T = %4 is summed away")
                    : Explain::tr("%1 @ %2 → %3: the key axis T = %4 is summed away"))
            .arg(from, src.size() > 1 ? shapeText(src[1]->shape) : QString(), to)
            .arg(x.T);
    }
    if (id == step_id::kOutput) {
        if (x.mha)
            return Explain::tr("%1 → %2: d_out = %3 in, d_out = %3 out").arg(from, to).arg(x.dOut);
        if (x.wrapper)
            return Explain::tr("%1 → %2: h = %3 heads of d_out = %4 side by side, h·d_out = %5")
                .arg(from, to)
                .arg(x.h)
                .arg(x.dOut)
                .arg(x.h * x.dOut);
        return Explain::tr("%1 → %2: the same tensor").arg(from, to);
    }
    return Explain::tr("%1 → %2: element by element, the shape does not change").arg(from, to);
}

QString explain(const Ctx& x, const StepInfo& s) {
    if (isBlockStep(s))
        return blockStepHtml(s);
    QString html = stepPanelHtml(s, stepCaption(s), whatAndWhy(x, s.id), formulaHtml(x, s.id),
                                 shapeChange(x, s));
    if (x.mha || x.wrapper) {
        if (s.headAxis() >= 0)
            html += QStringLiteral("<p><i>%1</i></p>")
                        .arg(Explain::tr(
                            "One picture per head: pick the head above or in the head grid."));
    }
    return html;
}

}  // namespace

QString explainStepHtml(const Config& config, int64_t tokens, const std::string& stepId,
                        InputOrigin origin) {
    Ctx x = makeCtx(config, tokens);
    x.origin = origin;
    const StepInfo* s = x.find(stepId);
    if (!s)
        return {};
    return explain(x, *s);
}

QString explainStepHtml(const Trace& trace, const std::string& stepId, InputOrigin origin) {
    Ctx x = makeCtx(trace.config, trace.tokens);
    x.origin = origin;
    // The trace's own step info (its sizes) wins over the plan.
    const Step* st = trace.find(stepId);
    if (!st)
        return {};
    x.plan.clear();
    for (const Step& s : trace.steps)
        x.plan.push_back(s.info);
    if (const Step* scaled = trace.find(step_id::kScaledScores))
        x.scaleSize = scaled->info.scaleSize;
    if (st->info.block) {
        x.trainedLayer = true;
        x.qkvBias = x.qkvBias || st->info.block->qkvBias;
        x.onePlusNorm = st->info.block->norm == NormKind::RmsNormOnePlus;
    }
    return explain(x, st->info);
}

InputOrigin inputOriginOf(const Settings& s) {
    switch (s.source) {
        case InputSource::Book:
            return InputOrigin::Book;
        case InputSource::File:
            return InputOrigin::File;
        case InputSource::Text:
            break;
    }
    return s.positions ? InputOrigin::Embedded : InputOrigin::EmbeddedWithoutPositions;
}

QString explainCellHeading() {
    return Explain::tr("Where this number comes from");
}

bool isModelLayerInput(const StepInfo& s) {
    return s.id == step_id::kInputs && s.source == StepSource::LayerInput;
}

QString stepCaption(const StepInfo& s) {
    const std::string& id = s.id;
    if (isBlockStep(s))
        return blockStepCaption(s);
    const bool simplified =
        s.op.rfind("inputs @", 0) == 0 || s.op.find("@ inputs") != std::string::npos;
    if (id == step_id::kInputs)
        return Explain::tr("Each token is a vector of numbers: its embedding");
    if (id == step_id::kQueries)
        return Explain::tr("Queries: what each token is looking for");
    if (id == step_id::kKeys)
        return Explain::tr("Keys: what each token can be found by");
    if (id == step_id::kValues)
        return Explain::tr("Values: what each token passes on");
    if (id == step_id::kLatent)
        return Explain::tr("The latent: a few numbers per token that keys and values come from");
    if (id == step_id::kKeysGroups)
        return Explain::tr("The keys by key/value group, each shared by several heads");
    if (id == step_id::kValuesGroups)
        return Explain::tr("The values by key/value group, each shared by several heads");
    if (id == step_id::kQueriesNormed)
        return Explain::tr("QK-norm: each query scaled to a typical size of 1");
    if (id == step_id::kKeysNormed)
        return Explain::tr("QK-norm: each key scaled to a typical size of 1");
    if (id == step_id::kRopeCos)
        return Explain::tr("RoPE: the cosine of each position's angles");
    if (id == step_id::kRopeSin)
        return Explain::tr("RoPE: the sine of each position's angles");
    if (id == step_id::kQueriesRotated)
        return Explain::tr("Queries turned by an angle that grows with the position");
    if (id == step_id::kKeysRotated)
        return Explain::tr("Keys turned the same way: scores now see distances");
    if (id == step_id::kKeysRepeated)
        return Explain::tr("Each group's keys, read by every head that shares them");
    if (id == step_id::kValuesRepeated)
        return Explain::tr("Each group's values, read by every head that shares them");
    if (id.ends_with("_split"))
        return Explain::tr("The %1 cut into one slice per head").arg(baseName(id));
    if (isQkvHeads(id))
        return Explain::tr("The %1 grouped by head").arg(baseName(id));
    if (id == step_id::kScores)
        return simplified
                   ? Explain::tr("Dot product of every token with every token: raw similarity")
                   : Explain::tr("Dot product of every query with every key: raw scores");
    if (id == step_id::kMask)
        return Explain::tr("The mask: 1 marks a key the query may not see");
    if (id == step_id::kMaskedScores)
        return Explain::tr("Hidden scores become −∞");
    if (id == step_id::kScaledScores && s.scaleSize > 0.0)
        return Explain::tr("Scores divided by √query_pre_attn_scalar to keep softmax smooth");
    if (id == step_id::kScaledScores)
        return Explain::tr("Scores divided by √d_k to keep softmax smooth");
    if (id == step_id::kWeights)
        return Explain::tr("Softmax: each row becomes weights that sum to 1");
    if (id == step_id::kWeightsUnmasked)
        return Explain::tr("Simple masking 1: softmax without the mask");
    if (id == step_id::kWeightsTril)
        return Explain::tr("Simple masking 2: zero the future weights");
    if (id == step_id::kWeightsRenormalized)
        return Explain::tr("Simple masking 3: rows rescaled to sum to 1");
    if (id == step_id::kDropoutMask)
        return Explain::tr("Dropout: random weights are dropped while training");
    if (id == step_id::kDroppedWeights)
        return Explain::tr("Kept weights scaled up by 1/(1 − p)");
    if (id == step_id::kContextHeads)
        return Explain::tr("Each head's weighted sum of its values");
    if (id == step_id::kContextTransposed)
        return Explain::tr("Heads side by side again for each token");
    if (id == step_id::kContext)
        return simplified ? Explain::tr("Context vectors: weighted sums of the inputs")
                          : Explain::tr("Context vectors: weighted sums of the values");
    if (id == step_id::kOutput)
        return Explain::tr("The module's output");
    return s.title.empty() ? QString::fromStdString(id) : QString::fromStdString(s.title);
}

}  // namespace attn

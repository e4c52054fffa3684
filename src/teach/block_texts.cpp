#include "teach/block_texts.h"

#include <QCoreApplication>

#include "engine/step_ids.h"
#include "engine/trace.h"
#include "teach/explanations.h"

namespace attn {

namespace {

// The Explain panel's context: these texts are part of it.
class Explain {
    Q_DECLARE_TR_FUNCTIONS(attn::Explain)
};

// A step without facts (never made by today's readers) reads as GPT-2's block, the default.
BlockFacts factsOf(const StepInfo& s) {
    return s.block ? *s.block : BlockFacts{};
}

QString normName(const BlockFacts& b) {
    return b.norm == NormKind::LayerNorm ? QStringLiteral("LayerNorm") : QStringLiteral("RMSNorm");
}

// The block's first or second norm in a formula: LN₁, RMSNorm₂.
QString normSymbol(const BlockFacts& b, int index) {
    return QStringLiteral("%1<sub>%2</sub>")
        .arg(b.norm == NormKind::LayerNorm ? QStringLiteral("LN") : QStringLiteral("RMSNorm"))
        .arg(index);
}

QString normFormula(const BlockFacts& b) {
    switch (b.norm) {
        case NormKind::LayerNorm:
            return QStringLiteral("LN(x) = γ ⊙ (x − μ) / √(σ<sup>2</sup> + ε) + β");
        case NormKind::RmsNorm:
            return QStringLiteral("RMSNorm(x) = γ ⊙ x / √(mean(x<sup>2</sup>) + ε)");
        case NormKind::RmsNormOnePlus:
            return QStringLiteral("RMSNorm(x) = (1 + γ) ⊙ x / √(mean(x<sup>2</sup>) + ε)");
    }
    return {};
}

QString feedForwardName(const BlockFacts& b) {
    switch (b.feedForward) {
        case FeedForwardKind::Gelu:
            return QStringLiteral("GELU");
        case FeedForwardKind::SwiGlu:
            return QStringLiteral("SwiGLU");
        case FeedForwardKind::GeGlu:
            return QStringLiteral("GeGLU");
    }
    return {};
}

// What normalising does, for the layer input and the second norm.
QString normWhat(const BlockFacts& b) {
    switch (b.norm) {
        case NormKind::LayerNorm:
            return Explain::tr(
                "each token's vector of the stream is shifted to mean 0 and scaled to variance 1, "
                "then multiplied by a learned scale and shifted by a learned shift.");
        case NormKind::RmsNorm:
            return Explain::tr(
                "each token's vector of the stream is divided by its root mean square, so its "
                "typical number is 1, then multiplied by a learned scale. Unlike GPT-2's "
                "LayerNorm it subtracts no mean and adds no shift.");
        case NormKind::RmsNormOnePlus:
            return Explain::tr(
                "each token's vector of the stream is divided by its root mean square, so its "
                "typical number is 1, then multiplied by 1 + a learned weight (the model stores "
                "the scale minus 1). Unlike GPT-2's LayerNorm it subtracts no mean and adds no "
                "shift.");
    }
    return {};
}

QString blockInputText(const BlockFacts& b) {
    if (b.positions == PositionKind::Learned)
        return Explain::tr(
            "The residual stream as it enters this block: in block 0 the token embeddings plus "
            "the position embeddings, after that the same plus everything the blocks before "
            "added. Every block reads the stream and adds its results to it; nothing in it is "
            "ever replaced.");
    const QString embeddings = b.embeddingScale != 1.0
                                   ? Explain::tr("the token embeddings times √d_model = %1")
                                         .arg(QString::number(b.embeddingScale, 'g', 5))
                                   : Explain::tr("the token embeddings alone");
    return Explain::tr(
               "The residual stream as it enters this block: in block 0 %1 (no position "
               "embeddings: positions enter every layer as RoPE's turn of the queries and "
               "keys), after that the same plus everything the blocks before added. Every block "
               "reads the stream and adds its results to it; nothing in it is ever replaced.")
        .arg(embeddings);
}

QString feedForwardHiddenText(const BlockFacts& b) {
    const QString width =
        b.ffHidden == 4 * b.dModel
            ? Explain::tr("from d_model = %1 to %2 numbers, four times wider")
                  .arg(b.dModel)
                  .arg(b.ffHidden)
            : Explain::tr("from d_model = %1 to %2 numbers").arg(b.dModel).arg(b.ffHidden);
    const QString tokenwise = Explain::tr(
        "It works on each token on its own: no token looks at another here. Tokens exchange "
        "information only in attention.");
    switch (b.feedForward) {
        case FeedForwardKind::Gelu:
            return Explain::tr(
                       "The feed-forward network's first layer widens each token's vector "
                       "%1, then GELU. %2")
                .arg(width, tokenwise);
        case FeedForwardKind::SwiGlu:
            return Explain::tr(
                       "The feed-forward network's gated layer (SwiGLU): two projections widen "
                       "each token's vector %1; the gate projection goes through SiLU "
                       "(x · sigmoid(x)) and multiplies the up projection number by number. %2")
                .arg(width, tokenwise);
        case FeedForwardKind::GeGlu:
            return Explain::tr(
                       "The feed-forward network's gated layer (GeGLU): two projections widen "
                       "each token's vector %1; the gate projection goes through GELU (its tanh "
                       "approximation) and multiplies the up projection number by number. %2")
                .arg(width, tokenwise);
    }
    return {};
}

QString whatAndWhy(const StepInfo& s) {
    const BlockFacts b = factsOf(s);
    const std::string& id = s.id;
    if (id == step_id::kBlockInput)
        return blockInputText(b);
    if (id == step_id::kInputs)
        return Explain::tr(
                   "%1 1: %2 This is what attention reads: the chapter-3 steps that follow are "
                   "this block's multi-head attention, with the model's trained weights.")
            .arg(normName(b), normWhat(b));
    if (id == step_id::kResidualAfterAttention)
        return b.sandwichNorms
                   ? Explain::tr(
                         "The residual connection: the attention's output (the "
                         "<code>output</code> step), normalised once more by its own RMSNorm, is "
                         "added to the block's input. Attention only adds to the stream, so a "
                         "head with nothing useful to say can write almost nothing.")
                   : Explain::tr(
                         "The residual connection: the attention's output (the "
                         "<code>output</code> step) is added to the block's input. Attention only "
                         "adds to the stream, so a head with nothing useful to say can write "
                         "almost nothing.");
    if (id == step_id::kNorm2)
        return Explain::tr(
                   "%1 2: the stream normalised again, now as the input of the "
                   "feed-forward network: %2")
            .arg(normName(b), normWhat(b));
    if (id == step_id::kFfHidden)
        return feedForwardHiddenText(b);
    if (id == step_id::kFfOutput) {
        const QString back = Explain::tr(
                                 "The feed-forward network's last layer brings each token's "
                                 "vector from %1 numbers back to d_model = %2")
                                 .arg(b.ffHidden)
                                 .arg(b.dModel);
        return b.sandwichNorms
                   ? Explain::tr(
                         "%1, and its own RMSNorm scales the result: what the "
                         "feed-forward adds to the stream.")
                         .arg(back)
                   : Explain::tr("%1: what the feed-forward adds to the stream.").arg(back);
    }
    if (id == step_id::kBlockOutput)
        return Explain::tr(
                   "The block's output: the stream after attention plus the feed-forward's "
                   "output. It is the next block's input; after the last block a final %1 and "
                   "the output head turn it into next-token probabilities.")
            .arg(normName(b));
    return {};
}

// RMSNorm(inner) around what a sublayer adds, where the model has such a norm (Gemma 3).
QString afterSublayer(const BlockFacts& b, const QString& inner) {
    return b.sandwichNorms ? QStringLiteral("RMSNorm(%1)").arg(inner) : inner;
}

QString formulaHtml(const StepInfo& s) {
    const BlockFacts b = factsOf(s);
    const std::string& id = s.id;
    if (id == step_id::kInputs || id == step_id::kNorm2)
        return normFormula(b);
    if (id == step_id::kResidualAfterAttention)
        return QStringLiteral("x + ") +
               afterSublayer(b, QStringLiteral("MHA(%1(x))").arg(normSymbol(b, 1)));
    if (id == step_id::kFfHidden) {
        const QString x = normSymbol(b, 2) + QStringLiteral("(x)");
        switch (b.feedForward) {
            case FeedForwardKind::Gelu:
                return QStringLiteral("GELU(%1 W<sub>1</sub>%2)")
                    .arg(x, b.outputBias ? QStringLiteral(" + b<sub>1</sub>") : QString());
            case FeedForwardKind::SwiGlu:
                return QStringLiteral("SiLU(%1 W<sub>gate</sub>) ⊙ %1 W<sub>up</sub>").arg(x);
            case FeedForwardKind::GeGlu:
                return QStringLiteral("GELU(%1 W<sub>gate</sub>) ⊙ %1 W<sub>up</sub>").arg(x);
        }
    }
    if (id == step_id::kFfOutput) {
        const QString product =
            b.feedForward == FeedForwardKind::Gelu
                ? QStringLiteral("h W<sub>2</sub>%1")
                      .arg(b.outputBias ? QStringLiteral(" + b<sub>2</sub>") : QString())
                : QStringLiteral("h W<sub>down</sub>");
        return afterSublayer(b, product);
    }
    if (id == step_id::kBlockOutput)
        return QStringLiteral("x + ") +
               afterSublayer(b, QStringLiteral("FF(%1(x))").arg(normSymbol(b, 2)));
    return {};
}

}  // namespace

bool isBlockStep(const StepInfo& s) {
    const std::string& id = s.id;
    return id == step_id::kBlockInput || id == step_id::kResidualAfterAttention ||
           id == step_id::kNorm2 || id == step_id::kFfHidden || id == step_id::kFfOutput ||
           id == step_id::kBlockOutput ||
           isModelLayerInput(s);
}

// "(b = 1, T = 6, d_model = 128)"
QString namedShapeHtml(const StepInfo& s) {
    QStringList parts;
    for (size_t i = 0; i < s.shape.size(); ++i) {
        const QString name =
            i < s.dims.size() ? QString::fromStdString(s.dims[i]) : QStringLiteral("?");
        parts << QStringLiteral("%1&nbsp;=&nbsp;%2").arg(name.toHtmlEscaped()).arg(s.shape[i]);
    }
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

QString blockStepCaption(const StepInfo& s) {
    const BlockFacts b = factsOf(s);
    const std::string& id = s.id;
    if (id == step_id::kInputs)
        return Explain::tr("%1 1: the stream normalised, what attention reads").arg(normName(b));
    if (id == step_id::kBlockInput)
        return Explain::tr("The residual stream entering the block");
    if (id == step_id::kResidualAfterAttention)
        return Explain::tr("The stream plus what attention adds");
    if (id == step_id::kNorm2)
        return Explain::tr("%1 2: the input of the feed-forward").arg(normName(b));
    if (id == step_id::kFfHidden)
        return b.feedForward == FeedForwardKind::Gelu
                   ? Explain::tr("Feed-forward: a wider layer and GELU, token by token")
                   : Explain::tr("Feed-forward: a wider gated layer (%1), token by token")
                         .arg(feedForwardName(b));
    if (id == step_id::kFfOutput)
        return Explain::tr("Feed-forward: back to d_model");
    if (id == step_id::kBlockOutput)
        return Explain::tr("The stream plus the feed-forward: the next block's input");
    return {};
}

QString stepPanelHtml(const StepInfo& s, const QString& caption, const QString& text,
                      const QString& formula, const QString& shape) {
    QString html = QStringLiteral(
                       "<h3 style=\"margin:0\">%1 <span style=\"font-weight:normal; "
                       "color:#555\">— %2</span></h3>")
                       .arg(QString::fromStdString(s.id).toHtmlEscaped(), caption.toHtmlEscaped());
    html += QStringLiteral("<p>%1</p>").arg(text);
    if (!formula.isEmpty())
        html += QStringLiteral(
                    "<p><b>%1</b> &nbsp;<span style=\"font-family:serif; "
                    "font-size:large\">%2</span></p>")
                    .arg(Explain::tr("Formula:"), formula);
    html += QStringLiteral("<p><b>%1</b> <code>%2</code></p>")
                .arg(Explain::tr("PyTorch:"), QString::fromStdString(s.op).toHtmlEscaped());
    html += QStringLiteral("<p><b>%1</b> %2</p>").arg(Explain::tr("Shape:"), shape);
    return html;
}

QString blockStepHtml(const StepInfo& s) {
    return stepPanelHtml(s, blockStepCaption(s), whatAndWhy(s), formulaHtml(s),
                         QStringLiteral("%1: %2").arg(
                             namedShapeHtml(s), s.id == step_id::kFfHidden
                                                    ? Explain::tr("one wider vector per token")
                                                    : Explain::tr("one d_model vector per token")));
}

QString blockChipLabel(const StepInfo& s) {
    if (!s.block)
        return {};
    if (s.id == step_id::kNorm2)
        return Explain::tr("%1 2").arg(normName(*s.block));
    if (s.id == step_id::kFfHidden)
        return feedForwardName(*s.block);
    if (s.id == step_id::kInputs && s.source == StepSource::LayerInput)
        return Explain::tr("%1 1").arg(normName(*s.block));
    return {};
}

}  // namespace attn

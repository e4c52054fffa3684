#include "app/app_types.h"

#include <QObject>

namespace attn {

const std::vector<Preset>& presets() {
    static const std::vector<Preset> list = {
        {QObject::tr("Book example (6 tokens, 3-d)"), "book", true, 0, 0},
        {QObject::tr("GPT-2 small (d 768, 12 heads)"), "gpt2-small", false, 768, 12},
        {QObject::tr("GPT-2 medium (d 1024, 16 heads)"), "gpt2-medium", false, 1024, 16},
        {QObject::tr("GPT-2 large (d 1280, 20 heads)"), "gpt2-large", false, 1280, 20},
        {QObject::tr("GPT-2 XL (d 1600, 25 heads)"), "gpt2-xl", false, 1600, 25},
        {QObject::tr("Custom"), "custom", false, 0, 0},
    };
    return list;
}

static QString visibleWhitespace(QString s) {
    s.replace(QLatin1Char('\n'), QChar(0x21B5));  // ↵
    s.replace(QLatin1Char('\r'), QChar(0x240D));  // ␍
    s.replace(QLatin1Char('\t'), QChar(0x21E5));  // ⇥
    return s;
}

QString axisLabelForToken(const Token& t) {
    QString s = QString::fromUtf8(t.display.data(), qsizetype(t.display.size()));
    if (t.partialUtf8) return s;
    QString trimmed = s.trimmed();
    if (trimmed.isEmpty()) {
        // Pure whitespace tokens: show them visibly.
        QString v = visibleWhitespace(s);
        v.replace(QLatin1Char(' '), QChar(0x00B7));
        return v.isEmpty() ? QStringLiteral("\u2205") : v;
    }
    return visibleWhitespace(trimmed);
}

QString chipTextForToken(const Token& t) {
    QString s = QString::fromUtf8(t.display.data(), qsizetype(t.display.size()));
    if (t.partialUtf8) return s;
    s = visibleWhitespace(s);
    s.replace(QLatin1Char(' '), QChar(0x00B7));  // ·
    return s.isEmpty() ? QStringLiteral("\u2205") : s;
}

QString plainShape(const Shape& shape) {
    return QString::fromStdString(shapeToString(shape));
}

QString namedShape(const StepInfo& info) {
    if (info.dims.size() != info.shape.size()) return plainShape(info.shape);
    QStringList parts;
    for (size_t i = 0; i < info.shape.size(); ++i)
        parts << QStringLiteral("%1=%2").arg(QString::fromStdString(info.dims[i])).arg(info.shape[i]);
    return QStringLiteral("(") + parts.join(QStringLiteral(", ")) + QStringLiteral(")");
}

QString variantDisplayName(Variant v) {
    switch (v) {
        case Variant::Simplified: return QObject::tr("Simplified (no weights)");
        case Variant::SelfAttentionV1: return QObject::tr("Self-attention v1");
        case Variant::SelfAttention: return QObject::tr("Self-attention v2");
        case Variant::Causal: return QObject::tr("Causal attention");
        case Variant::MultiHeadWrapper: return QObject::tr("Multi-head wrapper");
        case Variant::MultiHead: return QObject::tr("Multi-head attention");
    }
    return QString::fromStdString(variantName(v));
}

QString stepExplanation(const StepInfo& info, const Config& config) {
    const std::string& id = info.id;
    const bool scaled = config.variant != Variant::Simplified;
    if (id == "inputs")
        return QObject::tr("The input x: one row per token, one column per embedding dimension "
                           "(token embedding + position embedding).");
    if (id == "queries" || id == "keys" || id == "values") {
        QString w = id == "queries" ? "W_query" : id == "keys" ? "W_key" : "W_value";
        return QObject::tr("Each token's embedding multiplied by %1: the %2 every token brings "
                           "to attention.")
            .arg(w, QString::fromStdString(id));
    }
    if (id.rfind("queries_", 0) == 0 || id.rfind("keys_", 0) == 0 || id.rfind("values_", 0) == 0 ||
        id == "context_heads" || id == "context_transposed")
        return QObject::tr("A reshape: the same numbers viewed as h heads of size hd = d_out / h. "
                           "No arithmetic happens here.");
    if (id == "scores")
        return QObject::tr("Attention scores: the dot product of each query (row) with each key "
                           "(column). Larger means more similar.");
    if (id == "mask")
        return QObject::tr("The mask: 1 marks a position a token may not look at (a future token "
                           "for the causal mask).");
    if (id == "masked_scores")
        return QObject::tr("Scores with hidden positions set to -inf, so softmax gives them "
                           "exactly zero weight.");
    if (id == "scaled_scores")
        return QObject::tr("Scores divided by sqrt(d_k) to keep softmax from saturating.");
    if (id == "weights")
        return scaled ? QObject::tr("Attention weights: softmax over each row. Each row is one "
                                    "token's attention and sums to 1.")
                      : QObject::tr("Attention weights: softmax over each row of x @ x^T. Each row "
                                    "sums to 1.");
    if (id == "weights_unmasked")
        return QObject::tr("The simple masking method, step 1: softmax of the unmasked scores.");
    if (id == "weights_tril")
        return QObject::tr("Step 2: multiplied by the lower triangle, so future tokens get zero.");
    if (id == "weights_renormalized")
        return QObject::tr("Step 3: rows divided by their sums again. Equals the weights from "
                           "the -inf method.");
    if (id == "dropout_mask")
        return QObject::tr("Dropout: 1 = kept, 0 = dropped. Only active in training mode.");
    if (id == "dropped_weights")
        return QObject::tr("Weights after dropout: dropped entries are zero, kept ones are scaled "
                           "by 1/(1-p).");
    if (id == "context")
        return QObject::tr("Context vectors: each token's weighted sum of the value vectors.");
    if (id == "output")
        return QObject::tr("The module's output: one context vector per token.");
    return QString::fromStdString(info.title);
}

}  // namespace attn

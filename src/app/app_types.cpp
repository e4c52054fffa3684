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
    if (t.partialUtf8)
        return s;
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
    if (t.partialUtf8)
        return s;
    s = visibleWhitespace(s);
    s.replace(QLatin1Char(' '), QChar(0x00B7));  // ·
    return s.isEmpty() ? QStringLiteral("\u2205") : s;
}

QString plainShape(const Shape& shape) {
    return QString::fromStdString(shapeToString(shape));
}

QString namedShape(const StepInfo& info) {
    if (info.dims.size() != info.shape.size())
        return plainShape(info.shape);
    QStringList parts;
    for (size_t i = 0; i < info.shape.size(); ++i)
        parts
            << QStringLiteral("%1=%2").arg(QString::fromStdString(info.dims[i])).arg(info.shape[i]);
    return QStringLiteral("(") + parts.join(QStringLiteral(", ")) + QStringLiteral(")");
}

QString variantDisplayName(Variant v) {
    switch (v) {
        case Variant::Simplified:
            return QObject::tr("Simplified (no weights)");
        case Variant::SelfAttentionV1:
            return QObject::tr("Self-attention v1");
        case Variant::SelfAttention:
            return QObject::tr("Self-attention v2");
        case Variant::Causal:
            return QObject::tr("Causal attention");
        case Variant::MultiHeadWrapper:
            return QObject::tr("Multi-head wrapper");
        case Variant::MultiHead:
            return QObject::tr("Multi-head attention");
    }
    return QString::fromStdString(variantName(v));
}

}  // namespace attn

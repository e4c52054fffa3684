#pragma once
// Shared helpers of the teaching tests: traces of the book example and PNG output.

#include <QColor>
#include <QDir>
#include <QPalette>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <cmath>

#include "common/dark_palette.h"
#include "engine/config.h"
#include "engine/embeddings.h"
#include "engine/trace.h"

namespace attn::testing {

inline Config bookConfig(Variant v, uint64_t seed = 123, int64_t batch = 1) {
    Config c;
    c.variant = v;
    c.seed = seed;
    c.batch = batch;
    c.dIn = 3;
    c.dOut = 2;
    c.heads = (v == Variant::MultiHead || v == Variant::MultiHeadWrapper) ? 2 : 1;
    c.contextLength = 6;
    // After chapter 3, sizes that show every step on the book's 3-d vectors: four heads sharing
    // two key/value groups, two latent heads, and rotary heads of 2 with QK-norm.
    if (v == Variant::GroupedQuery) {
        c.dOut = 4;
        c.heads = 4;
        c.kvGroups = 2;
    } else if (v == Variant::Latent) {
        c.dOut = 4;
        c.heads = 2;
    } else if (v == Variant::Rotary) {
        c.heads = 2;
        c.kvGroups = 1;
        c.headDim = 2;
        c.qkNorm = true;
    }
    return c;
}

inline Trace bookTrace(const Config& c) {
    TraceRequest r;
    r.config = c;
    r.inputs = bookInputs();
    return runTrace(r);
}

inline QStringList bookTokenList() {
    QStringList out;
    for (const std::string& t : bookTokens())
        out << QString::fromStdString(t);
    return out;
}

// As the derivations print numbers: 4 decimals.
inline QString f4(double v) {
    QString s = QString::number(v, 'f', 4);
    if (s == QLatin1String("-0.0000"))
        s = QStringLiteral("0.0000");
    return s;
}

inline QString pngPath(const QString& name) {
    QDir().mkpath(QStringLiteral(ATTN_TEACH_PNG_DIR));
    return QStringLiteral(ATTN_TEACH_PNG_DIR) + QLatin1Char('/') + name;
}

inline bool savePng(QWidget* w, const QString& name) {
    return w->grab().save(pngPath(name));
}

}  // namespace attn::testing

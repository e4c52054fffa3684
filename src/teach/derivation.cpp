#include "teach/derivation.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "engine/step_ids.h"
#include "engine/trace.h"
#include "export/heatmap_data.h"

namespace attn {

namespace {

class Derive {
    Q_DECLARE_TR_FUNCTIONS(attn::Derive)
};

using Index = std::vector<int64_t>;

// 4 decimals; infinities as ±∞.
QString f4(double v) {
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v < 0 ? QStringLiteral("−∞") : QStringLiteral("∞");
    if (std::abs(v) >= 1e5)
        return QString::number(v, 'g', 6);
    QString s = QString::number(v, 'f', 4);
    if (s == QLatin1String("-0.0000"))
        s = QStringLiteral("0.0000");
    return s;
}
// A factor in a product: negative numbers in brackets.
QString fac(double v) {
    return v < 0 ? QStringLiteral("(%1)").arg(f4(v)) : f4(v);
}

// A token in the reader's quotation marks ("journey" in English, „journey“ in German).
QString quoted(const QStringList& tokens, int64_t i) {
    const QString t = i >= 0 && i < tokens.size() ? tokens[int(i)] : QString::number(i);
    //: A token quoted in a derivation: the language's quotation marks around %1.
    return Derive::tr("\"%1\"").arg(displayLabel(t, 24)).toHtmlEscaped();
}

// "a + b + … (d terms) = total", the total bold, or `end` after the "=" (Cell::result when the
// sum is the cell's own number).
QString sumText(const QStringList& terms, double total, const QString& end = {}) {
    QString s;
    const int n = int(terms.size());
    const int shown = std::min(n, kDerivationMaxTerms);
    for (int k = 0; k < shown; ++k) {
        if (k)
            s += QStringLiteral(" + ");
        s += terms[k];
    }
    if (shown < n)
        s += Derive::tr(" + … (%1 terms)").arg(n);
    s += QStringLiteral(" = ") + (end.isEmpty() ? QStringLiteral("<b>%1</b>").arg(f4(total)) : end);
    return s;
}

QString indexText(const std::string& id, const Index& idx) {
    QStringList p;
    for (int64_t i : idx)
        p << QString::number(i);
    return QStringLiteral("%1[%2]").arg(QString::fromStdString(id), p.join(QStringLiteral(", ")));
}

struct Cell {
    const Trace& tr;
    const QStringList& tokens;
    std::string id;
    int64_t head = 0, batch = 0, row = 0, col = 0;
    bool mha = false, wrapper = false, simplified = false, v1 = false, dropout = false;
    int64_t T = 0, dOut = 0, hd = 0, H = 1;
    MaskSpec mask = {};
    // The (b, h, T, hd) steps each head's attention reads: queries_heads, keys_heads and
    // values_heads in chapter 3; after it the rotated (or normed) queries and the repeated keys
    // and values where the module has them.
    std::string qId = step_id::kQueriesHeads, kId = step_id::kKeysHeads,
                vId = step_id::kValuesHeads;
    int64_t perGroup = 1;  // query heads per key/value group
    // The quiz's hidden cells of the step's matrix (rows x quizCols), or null.
    const std::vector<unsigned char>* quiz = nullptr;
    int64_t quizCols = 0;
    // The cell's value and the decimals its heatmap cell prints it with (printedDecimals).
    float value = 0.0f;
    int decimals = 4;

    // The cell's value as its heatmap cell prints it, bold: the last number of every derivation.
    QString shown() const {
        return QStringLiteral("<b>%1</b>").arg(formatCellValue(value, decimals));
    }
    // The end of the arithmetic that makes the cell: its result at the book's 4 decimals, then
    // "≈" the cell's number where the cell prints fewer ("0.2173 ≈ 0.22"), so the derivation
    // ends on what was clicked.
    QString result(double computed) const {
        const QString cell = formatCellValue(value, decimals);
        bool fixed = false;
        const double printed = cell.toDouble(&fixed);
        if (!std::isfinite(computed) || (fixed && f4(computed) == f4(printed)))
            return shown();
        return f4(computed) + QStringLiteral(" ≈ ") + shown();
    }
    bool quizHides(int64_t i, int64_t j) const {
        if (!quiz || j < 0 || j >= quizCols)
            return false;
        const size_t k = size_t(i * quizCols + j);
        return k < quiz->size() && (*quiz)[k];
    }

    const Step* step(const std::string& sid) const { return tr.find(sid); }
    float at(const std::string& sid, const Index& idx) const {
        const Step* s = step(sid);
        return s ? s->value.at(idx) : std::numeric_limits<float>::quiet_NaN();
    }
    // Index of a (.., T, T) attention step for the current head and batch.
    Index tt(int64_t i, int64_t j) const {
        if (wrapper)
            return {head, batch, i, j};
        if (mha)
            return {batch, head, i, j};
        return {batch, i, j};
    }
    // q/k/v row of token t as used by the attention of the current head.
    std::vector<float> qkv(char which, int64_t t) const {
        std::vector<float> out;
        if (simplified) {
            const Step* s = step(step_id::kInputs);
            for (int64_t k = 0; k < s->value.size(-1); ++k)
                out.push_back(s->value.at({batch, t, k}));
            return out;
        }
        const std::string base = which == 'q'   ? step_id::kQueries
                                 : which == 'k' ? step_id::kKeys
                                                : step_id::kValues;
        if (mha) {
            const std::string heads = which == 'q' ? qId : which == 'k' ? kId : vId;
            for (int64_t k = 0; k < hd; ++k)
                out.push_back(at(heads, {batch, head, t, k}));
        } else if (wrapper) {
            for (int64_t k = 0; k < dOut; ++k)
                out.push_back(at(base, {head, batch, t, k}));
        } else {
            for (int64_t k = 0; k < dOut; ++k)
                out.push_back(at(base, {batch, t, k}));
        }
        return out;
    }
    bool hidden(int64_t i, int64_t j) const {
        if (mask.kind == MaskKind::None)
            return false;
        return j > i || (mask.kind == MaskKind::Window && j <= i - mask.window);
    }
    // Simplified attention (section 3.3, softmax(x @ x.T) @ x) has no queries, keys or values:
    // its text names the tokens alone.
    QString whyHidden(int64_t i, int64_t j) const {
        if (simplified && j > i)
            return Derive::tr(
                       "%1 (position %2) comes after %3 (position %4): a token may not look "
                       "ahead")
                .arg(quoted(tokens, j))
                .arg(j)
                .arg(quoted(tokens, i))
                .arg(i);
        if (simplified)
            return Derive::tr("%1 (position %2) is outside %3's window of the last %4 tokens")
                .arg(quoted(tokens, j))
                .arg(j)
                .arg(quoted(tokens, i))
                .arg(mask.window);
        if (j > i)
            return Derive::tr(
                       "the key %1 (position %2) comes after the query %3 (position %4): a "
                       "token may not look ahead")
                .arg(quoted(tokens, j))
                .arg(j)
                .arg(quoted(tokens, i))
                .arg(i);
        return Derive::tr(
                   "the key %1 (position %2) is outside the query %3's window of the last "
                   "%4 tokens")
            .arg(quoted(tokens, j))
            .arg(j)
            .arg(quoted(tokens, i))
            .arg(mask.window);
    }
    double dk() const { return double(mha ? hd : dOut); }
    // What the scores are divided by the square root of: d_k, or the size a model scales by
    // (Gemma 3's query_pre_attn_scalar), as the scaled step says.
    double modelScaleSize() const {  // 0 where the scores are divided by sqrt(d_k)
        const Step* s = tr.find(step_id::kScaledScores);
        return s ? s->info.scaleSize : 0.0;
    }
    double scaleSize() const { return modelScaleSize() > 0.0 ? modelScaleSize() : dk(); }
    QString scaleName() const {
        return modelScaleSize() > 0.0 ? QStringLiteral("query_pre_attn_scalar")
                                      : QStringLiteral("d<sub>k</sub>");
    }
    // The scores that go into softmax (scaled, or not for simplified), row i.
    std::string softmaxInput() const {
        if (!simplified)
            return step_id::kScaledScores;
        return step(step_id::kMaskedScores) ? step_id::kMaskedScores : step_id::kScores;
    }
    std::string usedWeights() const {
        return dropout ? step_id::kDroppedWeights : step_id::kWeights;
    }
};

QString pairText(const Cell& c) {
    if (c.simplified)
        return Derive::tr("token %1 (row), token %2 (column)")
            .arg(quoted(c.tokens, c.row), quoted(c.tokens, c.col));
    return Derive::tr("query %1, key %2").arg(quoted(c.tokens, c.row), quoted(c.tokens, c.col));
}

QString dotProduct(const Cell& c, QString* sumOut = nullptr) {
    const auto q = c.qkv('q', c.row), k = c.qkv('k', c.col);
    QStringList terms;
    double total = 0;
    for (size_t m = 0; m < q.size() && m < k.size(); ++m) {
        terms << QStringLiteral("%1 × %2").arg(fac(q[m]), fac(k[m]));
        total += double(q[m]) * double(k[m]);
    }
    const QString qs = c.simplified ? QStringLiteral("x") : QStringLiteral("q");
    const QString ks = c.simplified ? QStringLiteral("x") : QStringLiteral("k");
    QString s = QStringLiteral("%1<sub>%2</sub> · %3<sub>%4</sub> = ")
                    .arg(qs)
                    .arg(c.row)
                    .arg(ks)
                    .arg(c.col);
    s += sumText(terms, total, c.result(total));
    if (sumOut)
        *sumOut = f4(total);
    return s;
}

// The weight of the cell as softmax makes it. `beforeWeight` (the row's sum, what the mask has not
// done yet) comes before the last line, the weight itself, so the derivation ends on the cell.
QString softmaxCell(const Cell& c, const std::string& inputId, double scaleDiv,
                    const QString& beforeWeight = {}) {
    // z row as softmax sees it
    std::vector<double> z(size_t(c.T));
    for (int64_t j = 0; j < c.T; ++j) {
        double v = c.at(inputId, c.tt(c.row, j));
        if (scaleDiv != 1.0)
            v /= scaleDiv;
        z[size_t(j)] = v;
    }
    double mx = -std::numeric_limits<double>::infinity();
    for (double v : z)
        mx = std::max(mx, v);
    double den = 0;
    QStringList terms;
    int masked = 0;
    for (int64_t j = 0; j < c.T; ++j) {
        // A masked key adds exp(−∞) = 0: it is counted, not listed among the terms.
        if (std::isinf(z[size_t(j)])) {
            ++masked;
            continue;
        }
        const double e = std::exp(z[size_t(j)] - mx);
        den += e;
        // A term over the denominator is the weight a quiz still hides.
        terms << (c.quizHides(c.row, j) ? QStringLiteral("?") : f4(e));
    }
    const double zij = z[size_t(c.col)];
    const double num = std::isinf(zij) ? 0.0 : std::exp(zij - mx);
    QString s;
    // The book's softmax first, then the shifted form the numbers below use, and why the
    // shift is allowed: a student who knows exp(z) / Σ exp(z) must not meet an unexplained max.
    s += QStringLiteral(
             "<p>w<sub>%1,%2</sub> = exp(z<sub>ij</sub>) / Σ<sub>j</sub> exp(z<sub>ij</sub>) = "
             "exp(z<sub>ij</sub> − max<sub>i</sub>) / Σ<sub>j</sub> "
             "exp(z<sub>ij</sub> − max<sub>i</sub>)</p>")
             .arg(c.row)
             .arg(c.col);
    s += QStringLiteral("<p>") +
         Derive::tr(
             "Subtracting the row's largest score, max<sub>i</sub> = %1, changes no weight "
             "(exp(−max<sub>i</sub>) cancels above and below the line) but keeps exp from "
             "overflowing; torch.softmax does the same.")
             .arg(f4(mx)) +
         QStringLiteral("</p>");
    if (std::isinf(zij) && zij < 0) {
        s += QStringLiteral("<p>") +
             (c.simplified
                  ? Derive::tr("z<sub>ij</sub> = <b>-inf</b> (masked: %1), and exp(−∞) = 0, so "
                               "this weight is <b>0</b>: the token gets no attention at all.")
                  : Derive::tr("z<sub>ij</sub> = <b>-inf</b> (masked: %1), and exp(−∞) = 0, so "
                               "this weight is <b>0</b>: the key gets no attention at all."))
                 .arg(c.whyHidden(c.row, c.col)) +
             QStringLiteral("</p>");
    } else {
        s += QStringLiteral("<p>") +
             Derive::tr(
                 "numerator: exp(z<sub>ij</sub> − max<sub>i</sub>) = exp(%1 − %2) = <b>%3</b>")
                 .arg(f4(zij), fac(mx), f4(num)) +
             QStringLiteral("</p>");
    }
    s += QStringLiteral("<p>") + Derive::tr("row denominator: ") + sumText(terms, den) +
         (masked ? Derive::tr(" (the %1 masked positions add exp(−∞) = 0)").arg(masked) : QString()) +
         QStringLiteral("</p>") + beforeWeight;
    s += QStringLiteral("<p>") +
         Derive::tr("weight: %1 / %2 = %3").arg(f4(num), f4(den), c.result(num / den)) +
         QStringLiteral("</p>");
    return s;
}

QString rowSumText(const Cell& c, const std::string& id, const QString& sym,
                   bool sumsToOne = true) {
    double sum = 0;
    QStringList terms;
    int masked = 0;
    for (int64_t j = 0; j < c.T; ++j) {
        const double v = c.at(id, c.tt(c.row, j));
        // A masked key's 0 is counted, not listed among the terms.
        if (v == 0.0 && c.hidden(c.row, j)) {
            ++masked;
            continue;
        }
        sum += v;
        terms << (id == c.id && c.quizHides(c.row, j) ? QStringLiteral("?") : f4(v));
    }
    const QString zeros =
        masked ? Derive::tr(" (and the %1 masked positions' 0)").arg(masked) : QString();
    return QStringLiteral("<p>") +
           (sumsToOne
                ? Derive::tr("Row %1 sums to 1: Σ<sub>j</sub> %2<sub>%3,j</sub> = ")
                : Derive::tr("Row %1 no longer sums to 1: Σ<sub>j</sub> %2<sub>%3,j</sub> = "))
               .arg(quoted(c.tokens, c.row), sym)
               .arg(c.row) +
           sumText(terms, sum) + zeros + QStringLiteral("</p>");
}

// x_i · column of W (+ bias): a Linear/v1 projection of row `input` of a (.., d_in) tensor.
QString projection(const Cell& c, const std::vector<float>& x, const std::string& weightName,
                   const std::string& biasName, bool v1, const QString& xSym) {
    const auto it = c.tr.parameters.find(weightName);
    if (it == c.tr.parameters.end())
        return QStringLiteral("<p>") +
               Derive::tr("(parameter %1 not available)").arg(QString::fromStdString(weightName)) +
               QStringLiteral("</p>");
    const Tensor& W = it->second;
    QStringList terms;
    double total = 0;
    for (size_t m = 0; m < x.size(); ++m) {
        const double w = v1 ? W.at({int64_t(m), c.col}) : W.at({c.col, int64_t(m)});
        terms << QStringLiteral("%1 × %2").arg(fac(x[m]), fac(w));
        total += double(x[m]) * w;
    }
    QString s;
    const QString wName = QString::fromStdString(weightName).toHtmlEscaped();
    if (v1)
        s += QStringLiteral("<p>") +
             Derive::tr("%1<sub>%2</sub> · column %3 of %4 (x @ W):")
                 .arg(xSym)
                 .arg(c.row)
                 .arg(c.col)
                 .arg(wName) +
             QStringLiteral("</p>");
    else
        s += QStringLiteral("<p>") +
             Derive::tr(
                 "%1<sub>%2</sub> · row %3 of %4 (nn.Linear stores W transposed, y = x "
                 "W<sup>T</sup> + b):")
                 .arg(xSym)
                 .arg(c.row)
                 .arg(c.col)
                 .arg(wName) +
             QStringLiteral("</p>");
    const auto bi = c.tr.parameters.find(biasName);
    if (bi != c.tr.parameters.end()) {
        const double b = bi->second.at({c.col});
        terms << Derive::tr("bias %1").arg(fac(b));
        total += b;
    }
    s += QStringLiteral("<p>") + sumText(terms, total, c.result(total)) + QStringLiteral("</p>");
    return s;
}

// Σ_j w_ij · v_j[k] with its products, ending on the cell's value, or (endsOnCell false: a
// switched-off head's sum, which the cell does not hold) on the sum alone.
QString weightedSum(const Cell& c, const std::string& wId, const QString& wSym, const QString& vSym,
                    int64_t vCol, const std::function<float(int64_t)>& vOf, bool endsOnCell) {
    QStringList terms;
    double total = 0;
    for (int64_t j = 0; j < c.T; ++j) {
        const double w = c.at(wId, c.tt(c.row, j));
        const double v = vOf(j);
        terms << QStringLiteral("%1 × %2").arg(fac(w), fac(v));
        total += w * v;
    }
    return QStringLiteral("<p>Σ<sub>j</sub> %1<sub>%2,j</sub> · %3<sub>j</sub>[%4] = ")
               .arg(wSym)
               .arg(c.row)
               .arg(vSym)
               .arg(vCol) +
           sumText(terms, total, endsOnCell ? c.result(total) : QString()) + QStringLiteral("</p>");
}

// The weighted sum that makes element `k` of head `head`'s context vector of the cell's row:
// Σ_j w_ij · v_j[k] with the actual products. Every step that only moves or copies that number
// (context, context_transposed, the wrapper's torch.cat, output = context) ends on it, so the
// derivation always reaches the arithmetic instead of naming another step.
QString contextSum(const Cell& cell, int64_t head, int64_t k, bool endsOnCell = true) {
    Cell c = cell;
    c.head = head;
    std::function<float(int64_t)> vOf;
    QString vSym = QStringLiteral("v");
    if (c.simplified) {
        vSym = QStringLiteral("x");
        vOf = [&](int64_t t) { return c.at(step_id::kInputs, {c.batch, t, k}); };
    } else if (c.mha) {
        vOf = [&](int64_t t) { return c.at(c.vId, {c.batch, c.head, t, k}); };
    } else if (c.wrapper) {
        vOf = [&](int64_t t) { return c.at(step_id::kValues, {c.head, c.batch, t, k}); };
    } else {
        vOf = [&](int64_t t) { return c.at(step_id::kValues, {c.batch, t, k}); };
    }
    const QString wSym = c.dropout ? QStringLiteral("w′") : QStringLiteral("w");
    QString html = QStringLiteral("<p>") +
                   Derive::tr(
                       "Component %1 of the context vector of %2: every token's %3, weighted by "
                       "how much %2 attends to it.")
                       .arg(k)
                       .arg(quoted(c.tokens, c.row),
                            c.simplified ? Derive::tr("input vector") : Derive::tr("value vector"));
    if (c.mha || c.wrapper)
        html += QLatin1Char(' ') + Derive::tr("Head %1's weights and values:").arg(head);
    return html + QStringLiteral("</p>") +
           weightedSum(c, c.usedWeights(), wSym, vSym, k, vOf, endsOnCell);
}

QString para(const QString& text) {
    return QStringLiteral("<p>") + text + QStringLiteral("</p>");
}

// "id[i, j, ...] = value": the last line of a cell whose number is read, not computed (a view, a
// copy, a table), with the cell's value as it prints.
QString readLine(const Cell& c, const QString& lhs) {
    return para(lhs + QStringLiteral(" = ") + c.result(c.value));
}

// The cells of the steps only the modules after chapter 3 have, and the projections they make
// from other inputs (the latent's keys and values, the groups' slices). Empty for a step the
// chapter-3 derivation explains as it stands.
QString afterChapter3Cell(const Cell& c, const Config& cfg) {
    const std::string& id = c.id;
    const int64_t t = c.row, k = c.col, hd = c.hd, half = hd / 2;
    const auto row = [&](const std::string& sid, int64_t head) {
        std::vector<float> out;
        for (int64_t m = 0; m < hd; ++m)
            out.push_back(c.at(sid, {c.batch, head, t, m}));
        return out;
    };
    // On a key/value group step c.head is the query head; its group is head / perGroup.
    const int64_t g = c.head / std::max<int64_t>(1, c.perGroup);
    const QString group = QString::number(g);
    if (id == step_id::kLatent) {
        std::vector<float> x;
        for (int64_t m = 0; m < cfg.dIn; ++m)
            x.push_back(c.at(step_id::kInputs, {c.batch, t, m}));
        return para(Derive::tr("The latent keeps %1 numbers of this token; its keys and values "
                               "are rebuilt from them.")
                        .arg(cfg.effectiveLatentDim())) +
               projection(c, x, "W_DKV.weight", "W_DKV.bias", false, QStringLiteral("x"));
    }
    if (cfg.variant == Variant::Latent && (id == step_id::kKeys || id == step_id::kValues)) {
        std::vector<float> latent;
        for (int64_t m = 0; m < cfg.effectiveLatentDim(); ++m)
            latent.push_back(c.at(step_id::kLatent, {c.batch, t, m}));
        const std::string w = id == step_id::kKeys ? "W_UK" : "W_UV";
        return para(Derive::tr("Up-projected from the token's latent c, not from its embedding.")) +
               projection(c, latent, w + ".weight", w + ".bias", false, QStringLiteral("c"));
    }
    const bool grouped = variantHasKvGroups(cfg.variant);
    if (grouped && (id == step_id::kKeysSplit || id == step_id::kValuesSplit)) {
        const int64_t g = k / hd, m = k % hd;
        const QString base = QString::fromStdString(id.substr(0, id.size() - 6));
        return para(Derive::tr(
                        "%1 = %2[%3, %4, %5·%6 + %7] = %2[%3, %4, %8]: element %7 of key/value "
                        "group %5's slice.")
                        .arg(indexText(id, {c.batch, t, g, m}), base)
                        .arg(c.batch)
                        .arg(t)
                        .arg(g)
                        .arg(hd)
                        .arg(m)
                        .arg(k)) +
               para(Derive::tr("Nothing is computed: .view reads the same memory.")) +
               readLine(c, indexText(id, {c.batch, t, g, m}));
    }
    if (id == step_id::kKeysGroups || id == step_id::kValuesGroups) {
        const QString base =
            id == step_id::kKeysGroups ? QStringLiteral("keys") : QStringLiteral("values");
        const int64_t first = g * c.perGroup;
        return para(c.perGroup == 1
                        ? Derive::tr("Group %1 serves query head %1 alone.").arg(group)
                        : Derive::tr("Group %1 serves query heads %2 to %3: they all read these "
                                     "numbers.")
                              .arg(group)
                              .arg(first)
                              .arg(first + c.perGroup - 1)) +
               readLine(c, Derive::tr("%1 = %2_split[%3, %4, %5, %6] = %2[%3, %4, %5·%7 + %6]")
                               .arg(indexText(id, {c.batch, g, t, k}), base)
                               .arg(c.batch)
                               .arg(t)
                               .arg(g)
                               .arg(k)
                               .arg(hd));
    }
    if (id == step_id::kQueriesNormed || id == step_id::kKeysNormed) {
        const bool q = id == step_id::kQueriesNormed;
        const std::string src = q ? step_id::kQueriesHeads : step_id::kKeysGroups;
        const std::vector<float> x = row(src, q ? c.head : g);
        QStringList squares;
        double sum = 0;
        for (float v : x) {
            squares << fac(v) + QStringLiteral("<sup>2</sup>");
            sum += double(v) * v;
        }
        const double mean = sum / double(hd);
        const double rms = std::sqrt(mean + 1e-6);
        const auto scale = c.tr.parameters.find(q ? "q_norm.scale" : "k_norm.scale");
        const double gk = scale == c.tr.parameters.end() ? 1.0 : scale->second.at({k});
        // A fresh module's scale is ones; a trained model's is learned, and its text must not
        // claim ones.
        bool ones = true;
        if (scale != c.tr.parameters.end())
            for (int64_t m = 0; m < scale->second.numel(); ++m)
                ones = ones && scale->second.data()[m] == 1.0f;
        const QString what = q ? Derive::tr("query") : Derive::tr("key");
        return para(
                   Derive::tr("Mean of the squares of this %1 (head size %2): ").arg(what).arg(hd) +
                   QStringLiteral("(") +
                   squares.mid(0, kDerivationMaxTerms).join(QStringLiteral(" + ")) +
                   (squares.size() > kDerivationMaxTerms
                        ? Derive::tr(" + … (%1 terms)").arg(squares.size())
                        : QString()) +
                   QStringLiteral(") / %1 = <b>%2</b>").arg(hd).arg(f4(mean))) +
               para((ones ? Derive::tr("Every %1 of every head now has a root mean square of "
                                       "about 1 (times the learned scale g, ones here), however "
                                       "large the projection made it.")
                          : Derive::tr("Every %1 of every head now has a root mean square of "
                                       "about 1 (times the learned scale g), however large the "
                                       "projection made it."))
                        .arg(what)) +
               para(QStringLiteral("%1 / √(%2 + 10<sup>−6</sup>) × g[%3] = %4 / %5 × %6 = %7")
                        .arg(fac(x[size_t(k)]))
                        .arg(f4(mean))
                        .arg(k)
                        .arg(fac(x[size_t(k)]))
                        .arg(f4(rms))
                        .arg(f4(gk))
                        .arg(c.result(double(x[size_t(k)]) / rms * gk)));
    }
    // The angle of pair `pair` at position t: t times the pair's frequency base^(-2i/hd). A
    // model's RoPE scaling (Llama 3's rope_scaling, Gemma 3's linear factor) changes the
    // frequencies and the trace holds the tables it made, so the frequency is the table's own
    // (the angle at position 1, below π for every pair), named as scaled where it differs.
    // A small angle (a slow pair, a scaled frequency) keeps its digits: 4 decimals would read 0.
    const auto angle = [](double theta) {
        return theta != 0.0 && std::abs(theta) < 1e-3 ? QString::number(theta, 'g', 4) : f4(theta);
    };
    const auto angleText = [&](int64_t pair) {
        const double plain = std::pow(cfg.ropeBase, -2.0 * double(pair) / double(hd));
        double freq = plain;
        if (c.T > 1) {
            const double atOne = std::atan2(double(c.at(step_id::kRopeSin, {1, pair})),
                                            double(c.at(step_id::kRopeCos, {1, pair})));
            if (std::isfinite(atOne) && std::abs(atOne - plain) > 1e-4 * plain)
                freq = atOne;
        }
        if (freq == plain)
            return std::pair<double, QString>(
                double(t) * freq,
                Derive::tr("θ = position × base<sup>−2i/hd</sup> = %1 × %2<sup>−%3/%4</sup> = %1 "
                           "× %5 = %6")
                    .arg(t)
                    .arg(QString::number(cfg.ropeBase, 'g', 10))
                    .arg(2 * pair)
                    .arg(hd)
                    .arg(QString::number(plain, 'g', 4))
                    .arg(angle(double(t) * plain)));
        return std::pair<double, QString>(
            double(t) * freq,
            Derive::tr("The model's RoPE scaling changes this pair's frequency from "
                       "base<sup>−2i/hd</sup> = %1<sup>−%2/%3</sup> = %4 to %5 (its table's angle "
                       "at position 1), so θ = position × %5 = %6 × %5 = %7")
                .arg(QString::number(cfg.ropeBase, 'g', 10))
                .arg(2 * pair)
                .arg(hd)
                .arg(QString::number(plain, 'g', 4))
                .arg(QString::number(freq, 'g', 4))
                .arg(t)
                .arg(angle(double(t) * freq)));
    };
    if (id == step_id::kRopeCos || id == step_id::kRopeSin) {
        const int64_t pair = k % half;
        const auto [theta, text] = angleText(pair);
        const bool cosine = id == step_id::kRopeCos;
        return para(Derive::tr("Position %1, dimension %2 (pair %3: dimensions %3 and %4).")
                        .arg(t)
                        .arg(k)
                        .arg(pair)
                        .arg(pair + half)) +
               para(Derive::tr(
                   "Both dimensions of a pair share the angle, so the table's two halves "
                   "repeat. Pair 0 turns fastest; the last pairs turn slowly.")) +
               para(text) +
               para(QStringLiteral("%1(%2) = %3")
                        .arg(cosine ? QStringLiteral("cos") : QStringLiteral("sin"), angle(theta),
                             c.result(cosine ? std::cos(theta) : std::sin(theta))));
    }
    if (id == step_id::kQueriesRotated || id == step_id::kKeysRotated) {
        const bool q = id == step_id::kQueriesRotated;
        const std::string src = q ? (c.tr.find(step_id::kQueriesNormed) ? step_id::kQueriesNormed
                                                                        : step_id::kQueriesHeads)
                                  : (c.tr.find(step_id::kKeysNormed)   ? step_id::kKeysNormed
                                     : c.tr.find(step_id::kKeysGroups) ? step_id::kKeysGroups
                                                                       : step_id::kKeysHeads);
        const std::vector<float> x = row(src, q ? c.head : g);
        const int64_t pair = k % half, partner = k < half ? k + half : k - half;
        const double cs = c.at(step_id::kRopeCos, {t, k}), sn = c.at(step_id::kRopeSin, {t, k});
        const QString sym = q ? QStringLiteral("q") : QStringLiteral("k");
        const auto [theta, text] = angleText(pair);
        const double xk = x[size_t(k)], xp = x[size_t(partner)];
        const QString formula =
            QString::fromUtf8(
                k < half ? "%1′[%2] = %1[%2] cos θ − %1[%3] sin θ = %4 × %5 − %6 × %7 = %8"
                         : "%1′[%2] = %1[%2] cos θ + %1[%3] sin θ = %4 × %5 + %6 × %7 = %8")
                .arg(sym)
                .arg(k)
                .arg(partner)
                .arg(fac(xk), fac(cs), fac(xp), fac(sn),
                     c.result(k < half ? xk * cs - xp * sn : xk * cs + xp * sn));
        return para(Derive::tr(
                        "RoPE turns the pair (dimension %1, dimension %2) of %3 at position %4 "
                        "by its angle:")
                        .arg(std::min(k, partner))
                        .arg(std::max(k, partner))
                        .arg(quoted(c.tokens, t))
                        .arg(t)) +
               para(text) +
               para(Derive::tr(
                        "From %1 (%2): a rotation changes the direction of the pair, never its "
                        "length.")
                        .arg(QString::fromStdString(src))
                        .arg(q ? Derive::tr("the query") : Derive::tr("the key"))) +
               para(formula);
    }
    if (id == step_id::kKeysRepeated || id == step_id::kValuesRepeated) {
        const bool keys = id == step_id::kKeysRepeated;
        const std::string src = keys ? (c.tr.find(step_id::kKeysRotated)  ? step_id::kKeysRotated
                                        : c.tr.find(step_id::kKeysNormed) ? step_id::kKeysNormed
                                                                          : step_id::kKeysGroups)
                                     : step_id::kValuesGroups;
        return para(Derive::tr("Query head %1 uses key/value group ⌊%1 / %2⌋ = %3. The repetition "
                               "is a view: the %4 numbers exist once, in group %3, however many "
                               "heads read them.")
                        .arg(c.head)
                        .arg(c.perGroup)
                        .arg(g)
                        .arg(keys ? Derive::tr("key") : Derive::tr("value"))) +
               readLine(c, QStringLiteral("%1 = %2").arg(indexText(id, {c.batch, c.head, t, k}),
                                                         indexText(src, {c.batch, g, t, k})));
    }
    return {};
}

// The cells of chapter 3's steps (and of the later modules' steps they share), each ending on
// the cell's value: what explains the number first, the arithmetic that makes it last. Empty for
// a step it has no derivation for.
QString chapter3Cell(const Cell& c, const Config& cfg, const StepInfo& info) {
    const std::string& stepId = c.id;
    const Trace& trace = c.tr;
    const QStringList& tokens = c.tokens;
    const int64_t i = c.row, j = c.col, col = c.col;
    QString html;
    if (stepId == step_id::kInputs) {
        // A model layer's input is its block's first norm, not an embedding (StepSource).
        html += para(info.source == StepSource::LayerInput
                         ? Derive::tr("Component %1 of %2's vector after the block's first norm: "
                                      "the input of this layer's attention, computed before it "
                                      "from the residual stream (block_input).")
                               .arg(col)
                               .arg(quoted(tokens, i))
                         : Derive::tr("Component %1 of the embedding of %2. This is an input: it "
                                      "comes from the embedding layer (token + position) or the "
                                      "book's given vectors, not from a computation in this "
                                      "module.")
                               .arg(col)
                               .arg(quoted(tokens, i)));
        html += readLine(c, indexText(stepId, {c.batch, i, col}));
    } else if (stepId == step_id::kQueries || stepId == step_id::kKeys ||
               stepId == step_id::kValues) {
        std::vector<float> x;
        for (int64_t m = 0; m < cfg.dIn; ++m)
            x.push_back(c.at(step_id::kInputs, {c.batch, i, m}));
        const std::string mat = stepId == step_id::kQueries ? "W_query"
                                : stepId == step_id::kKeys  ? "W_key"
                                                            : "W_value";
        if (c.v1) {
            html += projection(c, x, mat, "", true, QStringLiteral("x"));
        } else {
            const std::string prefix =
                c.wrapper ? "heads." + std::to_string(c.head) + "." + mat : mat;
            html +=
                projection(c, x, prefix + ".weight", prefix + ".bias", false, QStringLiteral("x"));
        }
    } else if (stepId == step_id::kContextTransposed) {
        const int64_t hh = col / c.hd, k = col % c.hd;
        html += para(Derive::tr("%1 = context_heads[%2, %3, %4, %5]: the transpose only moves "
                                "head %3's result for token %6 next to the other heads'.")
                         .arg(indexText(stepId, {c.batch, i, hh, k}))
                         .arg(c.batch)
                         .arg(hh)
                         .arg(i)
                         .arg(k)
                         .arg(quoted(tokens, i))) +
                contextSum(c, hh, k);
    } else if (stepId.ends_with("_split")) {
        const int64_t hh = col / c.hd, k = col % c.hd;
        const QString base = QString::fromStdString(stepId.substr(0, stepId.size() - 6));
        html += para(Derive::tr("%1 = %2[%3, %4, %5·%6 + %7] = %2[%3, %4, %8]: element %7 of head "
                                "%5's slice (columns %9 to %10 of %2).")
                         .arg(indexText(stepId, {c.batch, i, hh, k}), base)
                         .arg(c.batch)
                         .arg(i)
                         .arg(hh)
                         .arg(c.hd)
                         .arg(k)
                         .arg(col)
                         .arg(hh * c.hd)
                         .arg(hh * c.hd + c.hd - 1));
        html += para(Derive::tr("Nothing is computed: .view reads the same memory.")) +
                readLine(c, indexText(stepId, {c.batch, i, hh, k}));
    } else if (stepId.ends_with("_heads") && stepId != step_id::kContextHeads) {
        // queries_heads, keys_heads, values_heads: a view of the projection. context_heads is
        // computed (the weighted sum of the values), below.
        const QString base = QString::fromStdString(stepId.substr(0, stepId.size() - 6));
        html += para(c.hd == 1 ? Derive::tr("Head %1 sees column %2 of %3; the transpose only "
                                            "regroups the columns by head.")
                                     .arg(c.head)
                                     .arg(c.head)
                                     .arg(base)
                               : Derive::tr("Head %1 sees columns %2 to %3 of %4; the transpose "
                                            "only regroups the columns by head.")
                                     .arg(c.head)
                                     .arg(c.head * c.hd)
                                     .arg(c.head * c.hd + c.hd - 1)
                                     .arg(base));
        html += readLine(
            c, Derive::tr("%1 = %2_split[%3, %5, %4, %6] = %2[%3, %5, %4·%7 + %6] = %2[%3, %5, "
                          "%8]")
                   .arg(indexText(stepId, {c.batch, c.head, i, j}), base)
                   .arg(c.batch)
                   .arg(c.head)
                   .arg(i)
                   .arg(j)
                   .arg(c.hd)
                   .arg(c.head * c.hd + j));
    } else if (stepId == step_id::kScores) {
        html += para((c.simplified ? Derive::tr("The dot product multiplies the embeddings of %1 "
                                                "and %2 component by component and adds the "
                                                "products: no weights, no queries or keys.")
                                   : Derive::tr("The dot product multiplies the query of %1 and "
                                                "the key of %2 component by component and adds "
                                                "the products."))
                         .arg(quoted(tokens, i), quoted(tokens, j)));
        if (c.perGroup > 1) {
            const int64_t group = c.head / c.perGroup, first = group * c.perGroup;
            html += para(Derive::tr("Head %1 reads the keys of key/value group ⌊%1 / %2⌋ = %3, "
                                    "which heads %4 to %5 share: k<sub>%6</sub> is that group's "
                                    "key of %7.")
                             .arg(c.head)
                             .arg(c.perGroup)
                             .arg(group)
                             .arg(first)
                             .arg(first + c.perGroup - 1)
                             .arg(j)
                             .arg(quoted(tokens, j)));
        }
        html += para(dotProduct(c));
    } else if (stepId == step_id::kMask) {
        html += para(c.hidden(i, j) ? Derive::tr("1 = hidden: %1.").arg(c.whyHidden(i, j))
                                    : (c.simplified ? Derive::tr("0 = visible: %1 is at or before "
                                                                 "%2.")
                                                    : Derive::tr("0 = visible: the key %1 is at or "
                                                                 "before the query %2."))
                                          .arg(quoted(tokens, j), quoted(tokens, i)));
        html += readLine(c, indexText(stepId, {i, j}));  // one (T, T) mask for every head
    } else if (stepId == step_id::kMaskedScores) {
        if (c.hidden(i, j))
            html += para(Derive::tr("<b>-inf</b> (−∞): masked_fill replaced the score %1 because "
                                    "%2. After softmax, exp(−∞) = 0, so this cell becomes a "
                                    "weight of 0.")
                             .arg(f4(c.at(step_id::kScores, c.tt(i, j))), c.whyHidden(i, j))) +
                    readLine(c, indexText(stepId, c.tt(i, j)));
        else
            html += para((c.simplified ? Derive::tr("Unchanged: the token is visible, so "
                                                    "masked_scores = scores = %1.")
                                       : Derive::tr("Unchanged: the key is visible, so "
                                                    "masked_scores = scores = %1."))
                             .arg(c.result(c.value)));
    } else if (stepId == step_id::kScaledScores) {
        const std::string src =
            trace.find(step_id::kMaskedScores) ? step_id::kMaskedScores : step_id::kScores;
        const double s = c.at(src, c.tt(i, j));
        const double root = std::sqrt(c.scaleSize());
        if (std::isinf(s))
            html += para(Derive::tr("<b>-inf</b>: −∞ / √%1 is still −∞ (masked: %2); softmax "
                                    "turns it into 0.")
                             .arg(c.scaleSize())
                             .arg(c.whyHidden(i, j))) +
                    readLine(c, indexText(stepId, c.tt(i, j)));
        else
            html += para(QStringLiteral("z<sub>%1,%2</sub> = %3 / √%8 = %4 / √%5 = %4 / %6 = %7")
                             .arg(i)
                             .arg(j)
                             .arg(QString::fromStdString(src))
                             .arg(f4(s))
                             .arg(c.scaleSize())
                             .arg(f4(root))
                             .arg(c.result(s / root))
                             .arg(c.scaleName()));
    } else if (stepId == step_id::kWeights) {
        html += softmaxCell(c, c.softmaxInput(), 1.0,
                            rowSumText(c, step_id::kWeights, QStringLiteral("w")));
    } else if (stepId == step_id::kWeightsUnmasked) {
        html += para(Derive::tr("Softmax of the scores%1 without any mask:")
                         .arg(c.simplified ? QString() : QStringLiteral(" / √") + c.scaleName()));
        html += softmaxCell(
            c, step_id::kScores, c.simplified ? 1.0 : std::sqrt(c.scaleSize()),
            c.hidden(i, j) ? para(Derive::tr("Not masked yet, although %1.").arg(c.whyHidden(i, j)))
                           : QString());
    } else if (stepId == step_id::kWeightsTril) {
        const double u = c.at(step_id::kWeightsUnmasked, c.tt(i, j));
        const double m = c.hidden(i, j) ? 1 : 0;
        if (m != 0)
            html += para(Derive::tr("Zeroed because %1.").arg(c.whyHidden(i, j)));
        bool anyHidden = false;
        for (int64_t k = 0; k < c.T; ++k)
            anyHidden = anyHidden || c.hidden(i, k);
        html += rowSumText(c, step_id::kWeightsTril, QStringLiteral("t"), !anyHidden);
        html += para(QStringLiteral("t<sub>%1,%2</sub> = u<sub>%1,%2</sub> · (1 − "
                                    "mask<sub>%1,%2</sub>) = %3 × (1 − %4) = %5")
                         .arg(i)
                         .arg(j)
                         .arg(f4(u))
                         .arg(m)
                         .arg(c.result(u * (1 - m))));
    } else if (stepId == step_id::kWeightsRenormalized) {
        double sum = 0;
        QStringList terms;
        for (int64_t k = 0; k < c.T; ++k) {
            const double t = c.at(step_id::kWeightsTril, c.tt(i, k));
            sum += t;
            terms << f4(t);
        }
        const double t = c.at(step_id::kWeightsTril, c.tt(i, j));
        html += para(Derive::tr("row sum of weights_tril: ") + sumText(terms, sum));
        html += rowSumText(c, step_id::kWeightsRenormalized, QStringLiteral("r"));
        html += para(Derive::tr("The same as softmax of the masked scores gives (weights: %1):")
                         .arg(f4(c.at(step_id::kWeights, c.tt(i, j)))));
        html += para(QStringLiteral("r<sub>%1,%2</sub> = %3 / %4 = %5")
                         .arg(i)
                         .arg(j)
                         .arg(f4(t), f4(sum), c.result(t / sum)));
    } else if (stepId == step_id::kDropoutMask) {
        const double p = cfg.dropout;
        if (c.value != 0.0f)
            html += para(Derive::tr("1 = <b>kept</b> (each weight is kept with probability 1 − p "
                                    "= %1). Kept weights are multiplied by 1/(1 − p) = %2.")
                             .arg(f4(1 - p), f4(1 / (1 - p))));
        else
            html += para(Derive::tr("0 = <b>dropped</b> (probability p = %1): this weight becomes "
                                    "0 in training.")
                             .arg(f4(p)));
        html += readLine(c, indexText(stepId, c.tt(i, j)));
    } else if (stepId == step_id::kDroppedWeights) {
        const double p = cfg.dropout;
        const double w = c.at(step_id::kWeights, c.tt(i, j));
        const double keep = c.at(step_id::kDropoutMask, c.tt(i, j));
        html +=
            para(keep != 0 ? Derive::tr("Kept, and scaled up so the expected total stays the same.")
                           : Derive::tr("Dropped by dropout: it contributes nothing to the "
                                        "context."));
        html += para(QStringLiteral("w′<sub>%1,%2</sub> = w<sub>%1,%2</sub> × keep<sub>%1,%2</sub> "
                                    "× 1/(1 − p) = %3 × %4 × %5 = %6")
                         .arg(i)
                         .arg(j)
                         .arg(f4(w), f4(keep), f4(1 / (1 - p)), c.result(w * keep / (1 - p))));
    } else if (stepId == step_id::kContextHeads || (stepId == step_id::kContext && !c.mha)) {
        html += contextSum(c, c.head, j);
    } else if (stepId == step_id::kContext) {  // multi-head: the concatenation
        const int64_t hh = col / c.hd, k = col % c.hd;
        // A model layer's switched-off head (ablation): `context` holds what the forward used,
        // 0 or the head's mean over the positions, in place of what the head computed, which
        // context_heads still holds.
        const double own = c.at(step_id::kContextHeads, {c.batch, hh, i, k});
        const bool off = std::abs(own - double(c.value)) > 1e-5 * (1.0 + std::abs(own));
        html += para((off ? Derive::tr("context[%1, %2, %3] is where element %5 of head %4's "
                                       "context vector for %6 goes (d_out = h·hd: column %3 = "
                                       "%4·%7 + %5).")
                          : Derive::tr("context[%1, %2, %3] = context_transposed[%1, %2, %4, %5] = "
                                       "context_heads[%1, %4, %2, %5]: element %5 of head %4's "
                                       "context vector for %6 (d_out = h·hd: column %3 = %4·%7 + "
                                       "%5)."))
                         .arg(c.batch)
                         .arg(i)
                         .arg(col)
                         .arg(hh)
                         .arg(k)
                         .arg(quoted(tokens, i))
                         .arg(c.hd));
        html += contextSum(c, hh, k, !off);
        if (off)
            html += para((c.value == 0.0f
                              ? Derive::tr("Head %1 is switched off: the forward uses 0 in place "
                                           "of this sum, so the cell holds %2.")
                              : Derive::tr("Head %1 is switched off: the forward uses the head's "
                                           "mean over the text's positions in place of this sum, "
                                           "so the cell holds %2."))
                             .arg(hh)
                             .arg(c.shown()));
    } else if (stepId == step_id::kOutput) {
        if (c.mha) {
            std::vector<float> z;
            for (int64_t m = 0; m < c.dOut; ++m)
                z.push_back(c.at(step_id::kContext, {c.batch, i, m}));
            html +=
                para(Derive::tr("out_proj mixes the heads' results into one vector per "
                                "token."));
            html +=
                projection(c, z, "out_proj.weight", "out_proj.bias", false, QStringLiteral("z"));
        } else if (c.wrapper) {
            const int64_t hh = col / c.dOut, k = col % c.dOut;
            html += para(Derive::tr("output[%1, %2, %3] = context[%4, %1, %2, %5]: element %5 of "
                                    "head %4's context vector (torch.cat puts head %4 in columns "
                                    "%6 to %7).")
                             .arg(c.batch)
                             .arg(i)
                             .arg(col)
                             .arg(hh)
                             .arg(k)
                             .arg(hh * c.dOut)
                             .arg(hh * c.dOut + c.dOut - 1)) +
                    contextSum(c, hh, k);
        } else {
            html += para(Derive::tr("The module returns the context vectors unchanged: output = "
                                    "context.")) +
                    contextSum(c, c.head, j);
        }
    }
    return html;
}

// The two residual connections of a model layer's block around its attention (model mode): each
// adds what its sublayer computed to the residual stream, cell by cell, from numbers the trace
// holds. The norm, feed-forward and input steps around them have no derivation here.
QString blockCell(const Cell& c) {
    const int64_t i = c.row, k = c.col;
    const auto cellOf = [&](const char* id) { return double(c.at(id, {c.batch, i, k})); };
    const auto sum = [&](const char* a, const char* b, double x, double y) {
        return para(QStringLiteral("%1 + %2 = %3 + %4 = %5")
                        .arg(indexText(a, {c.batch, i, k}), indexText(b, {c.batch, i, k}), f4(x),
                             fac(y), c.result(x + y)));
    };
    if (c.id == step_id::kBlockOutput) {
        if (!c.tr.find(step_id::kResidualAfterAttention) || !c.tr.find(step_id::kFfOutput))
            return {};
        return para(Derive::tr("The second residual connection: the block adds what the "
                               "feed-forward computed (ff_output) to the stream after attention. "
                               "The sum is the next block's input.")) +
               sum(step_id::kResidualAfterAttention, step_id::kFfOutput,
                   cellOf(step_id::kResidualAfterAttention), cellOf(step_id::kFfOutput));
    }
    if (c.id != step_id::kResidualAfterAttention || !c.tr.find(step_id::kBlockInput) ||
        !c.tr.find(step_id::kOutput))
        return {};
    const Tensor& out = c.tr.find(step_id::kOutput)->value;
    const int64_t d = out.size(-1);
    // What attention adds is its output, or, where a norm follows the sublayer (Gemma 3's
    // post_attention_layernorm, StepInfo::block's sandwichNorms), that output normalised.
    const StepInfo& info = c.tr.find(step_id::kResidualAfterAttention)->info;
    const bool normed = info.block && info.block->sandwichNorms;
    double squares = 0.0;
    for (int64_t m = 0; m < d; ++m) {
        const double o = out.at({c.batch, i, m});
        squares += o * o;
    }
    const double x = cellOf(step_id::kBlockInput), o = cellOf(step_id::kOutput);
    if (!normed)
        return para(Derive::tr("The residual connection: the block adds what attention computed "
                               "(output, after out_proj) to its input, so the stream keeps the "
                               "token's own vector and adds what the token gathered.")) +
               sum(step_id::kBlockInput, step_id::kOutput, x, o);
    const double rms = std::sqrt(squares / double(d));
    const double added = double(c.value) - x;  // the normed output, as the stream received it
    return para(Derive::tr("This model normalises what attention computed before adding it (a "
                           "norm after the sublayer, like Gemma 3's post_attention_layernorm): "
                           "the row output[%1] has a root mean square of %2, so output[%1, %3] = "
                           "%4 becomes %4 / %2 = %5, and the norm's learned scale makes it %6.")
                    .arg(i)
                    .arg(f4(rms))
                    .arg(k)
                    .arg(fac(o))
                    .arg(f4(rms > 0 ? o / rms : 0.0))
                    .arg(f4(added))) +
           para(QStringLiteral("%1 + %2 = %3 + %4 = %5")
                    .arg(indexText(step_id::kBlockInput, {c.batch, i, k}),
                         Derive::tr("normed output"), f4(x), fac(added), c.result(x + added)));
}

}  // namespace

QString deriveCellHtml(const Trace& trace, const QStringList& tokens, const std::string& stepId,
                       int head, int batch, int row, int col,
                       const std::vector<unsigned char>& quizHidden, int decimals) {
    const Step* st = trace.find(stepId);
    if (!st)
        return {};
    const Step* maskStep = trace.find(step_id::kMask);
    const HeatmapData hm = sliceStep(*st, tokens, head, batch, maskStep);
    if (row < 0 || col < 0 || row >= hm.rows || col >= hm.cols)
        return {};

    Cell c{trace, tokens, stepId};
    const Config& cfg = trace.config;
    const bool after = variantIsAfterChapter3(cfg.variant);
    c.mha = cfg.variant == Variant::MultiHead || after;
    if (after) {
        const auto first = [&](std::initializer_list<const char*> ids) {
            for (const char* id : ids)
                if (trace.find(id))
                    return std::string(id);
            return std::string();
        };
        c.qId = first({step_id::kQueriesRotated, step_id::kQueriesNormed, step_id::kQueriesHeads});
        c.kId = first({step_id::kKeysRepeated, step_id::kKeysRotated, step_id::kKeysNormed,
                       step_id::kKeysHeads});
        c.vId = first({step_id::kValuesRepeated, step_id::kValuesHeads});
        c.perGroup = cfg.effectiveHeads() / std::max<int64_t>(1, cfg.effectiveKvGroups());
    }
    c.wrapper = cfg.variant == Variant::MultiHeadWrapper;
    c.simplified = cfg.variant == Variant::Simplified;
    c.v1 = cfg.variant == Variant::SelfAttentionV1;
    c.dropout = cfg.dropoutActive();
    c.T = trace.tokens;
    c.dOut = c.simplified ? cfg.dIn : cfg.queryWidth();
    c.H = cfg.effectiveHeads();
    c.hd = c.mha ? cfg.headSize() : c.dOut;
    c.mask = cfg.effectiveMask();
    c.head = std::max(0, hm.head);
    c.batch = hm.batch;
    c.row = row;
    c.col = col;
    if (!quizHidden.empty()) {
        c.quiz = &quizHidden;
        c.quizCols = hm.cols;
    }
    c.value = hm.value(row, col);
    c.decimals = printedDecimals(hm, decimals);
    const float value = c.value;
    const QString id = QString::fromStdString(stepId);

    QString html;
    // Heading: which cell, its value.
    QString where;
    if (hm.rowsAreTokens && hm.colsAreTokens)
        where = pairText(c);
    else if (hm.rowsAreTokens)
        where =
            Derive::tr("token %1, column %2").arg(quoted(tokens, row)).arg(hm.colLabels.value(col));
    else
        where = Derive::tr("row %1, column %2").arg(row).arg(col);
    QStringList ctx;
    if (hm.head >= 0)
        ctx << Derive::tr("head %1").arg(hm.head);
    // Grouped-query attention: every step of a query head names the key/value group it reads.
    if (hm.head >= 0 && st->info.headAxisIsGroups())
        ctx << Derive::tr("key/value group %1").arg(hm.head / st->info.queryHeadsPerIndex());
    else if (hm.head >= 0 && c.perGroup > 1)
        ctx << Derive::tr("key/value group %1").arg(hm.head / c.perGroup);
    if (trace.config.batch > 1)
        ctx << Derive::tr("batch %1").arg(c.batch);
    html += QStringLiteral("<p><b>%1</b> — %2%3 = %4</p>")
                .arg(id.toHtmlEscaped(), where,
                     ctx.isEmpty()
                         ? QString()
                         : QStringLiteral(" (") + ctx.join(QStringLiteral(", ")) + QLatin1Char(')'),
                     hm.isMasked(row, col) && std::isfinite(value)
                         ? c.result(value) + Derive::tr(" (masked)")
                         : c.result(value));

    if (c.quizHides(row, col))
        return QStringLiteral("<p><b>%1</b> — %2 = <b>?</b></p><p>%3</p>")
            .arg(id.toHtmlEscaped(), where,
                 Derive::tr("Hidden by the quiz: click the cell to reveal it and see where its "
                            "number comes from."));
    if (after) {
        const QString more = afterChapter3Cell(c, cfg);
        if (!more.isEmpty())
            return html + more;
    }
    return html + chapter3Cell(c, cfg, st->info) + blockCell(c);
}

}  // namespace attn

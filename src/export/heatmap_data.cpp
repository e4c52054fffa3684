#include "export/heatmap_data.h"

#include <QCoreApplication>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "export/colormap_tables.h"

namespace attn {

namespace {

class HeatmapText {
    Q_DECLARE_TR_FUNCTIONS(attn::HeatmapText)
};

bool isNegInf(float v) {
    return std::isinf(v) && v < 0;
}

// An axis title for a named dim when it is not a token axis.
QString featureAxisName(const std::string& dim) {
    if (dim == "T")
        return HeatmapText::tr("token");
    if (dim == "h" || dim == "head")
        return HeatmapText::tr("head");
    return QString::fromStdString(dim);
}

}  // namespace

bool HeatmapData::signedValues() const {
    return std::any_of(values.begin(), values.end(),
                       [](float v) { return std::isfinite(v) && v < 0; });
}

bool HeatmapData::isMasked(int row, int col) const {
    if (row < 0 || col < 0 || row >= rows || col >= cols)
        return false;
    const size_t i = size_t(row) * size_t(cols) + size_t(col);
    return isNegInf(values[i]) || (i < hidden.size() && hidden[i]);
}

int HeatmapData::maskedCount() const {
    int n = 0;
    for (size_t i = 0; i < values.size(); ++i)
        if (isNegInf(values[i]) || (i < hidden.size() && hidden[i]))
            ++n;
    return n;
}

const std::vector<Colormap>& allColormaps() {
    static const std::vector<Colormap> all = {Colormap::Viridis, Colormap::Magma, Colormap::Cividis,
                                              Colormap::Diverging};
    return all;
}

QString colormapDisplayName(Colormap c) {
    switch (c) {
        case Colormap::Viridis:
            return HeatmapText::tr("Viridis");
        case Colormap::Magma:
            return HeatmapText::tr("Magma");
        case Colormap::Cividis:
            return HeatmapText::tr("Cividis");
        case Colormap::Diverging:
            return HeatmapText::tr("Diverging (blue - white - red)");
    }
    return {};
}

QColor colormapColor(Colormap c, double t) {
    if (!std::isfinite(t))
        t = 0;
    t = std::clamp(t, 0.0, 1.0);
    if (c == Colormap::Diverging) {
        const double x = t * 10.0;
        const int i = std::min(int(x), 9);
        const double f = x - i;
        const QColor a(QRgb(detail::kRdBuReversed[i]));
        const QColor b(QRgb(detail::kRdBuReversed[i + 1]));
        return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                                float(a.greenF() + (b.greenF() - a.greenF()) * f),
                                float(a.blueF() + (b.blueF() - a.blueF()) * f));
    }
    const float(*table)[3] = c == Colormap::Magma     ? detail::kMagma
                             : c == Colormap::Cividis ? detail::kCividis
                                                      : detail::kViridis;
    const int i = std::clamp(int(t * 256.0), 0, 255);  // matplotlib's lookup: floor(t * N)
    return QColor::fromRgbF(table[i][0], table[i][1], table[i][2]);
}

std::vector<std::pair<double, QColor>> colormapStops(Colormap c) {
    std::vector<std::pair<double, QColor>> stops;
    if (c == Colormap::Diverging) {
        for (int i = 0; i < 11; ++i)
            stops.emplace_back(i / 10.0, QColor(QRgb(detail::kRdBuReversed[i])));
        return stops;
    }
    const float(*table)[3] = c == Colormap::Magma     ? detail::kMagma
                             : c == Colormap::Cividis ? detail::kCividis
                                                      : detail::kViridis;
    stops.reserve(256);
    for (int i = 0; i < 256; ++i)
        stops.emplace_back(i / 255.0, QColor::fromRgbF(table[i][0], table[i][1], table[i][2]));
    return stops;
}

std::pair<double, double> colorRange(const HeatmapData& data, Colormap c) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    for (float v : data.values) {
        if (!std::isfinite(v))
            continue;
        lo = std::min(lo, double(v));
        hi = std::max(hi, double(v));
    }
    if (!std::isfinite(lo))
        return {0.0, 1.0};  // nothing finite to show
    if (c == Colormap::Diverging) {
        double m = std::max(std::abs(lo), std::abs(hi));
        if (m == 0)
            m = 1;
        return {-m, m};
    }
    switch (data.kind) {
        case StepKind::Mask:
        case StepKind::DropoutMask:
            return {std::min(0.0, lo), std::max(1.0, hi)};
        case StepKind::Weights:
            // Probabilities: 0 at the bottom; snap to 1 when rows are peaked enough that the
            // full scale reads well, otherwise follow the data (many tokens -> small weights).
            if (lo >= 0)
                return {0.0, hi > 0.5 ? std::max(1.0, hi) : (hi > 0 ? hi : 1.0)};
            break;
        default:
            break;
    }
    if (hi - lo < 1e-12)
        return {lo - 0.5, hi + 0.5};
    return {lo, hi};
}

namespace {

bool isZeroOneKind(StepKind k) {
    return k == StepKind::Mask || k == StepKind::DropoutMask;
}

}  // namespace

double ColorScaling::position(float v, int row) const {
    if (std::isnan(v) || isNegInf(v))
        return std::numeric_limits<double>::quiet_NaN();
    if (std::isinf(v))
        return 1.0;
    double t = 0.0;
    switch (scale) {
        case ColorScale::Matrix: {
            const double span = upper - lower;
            t = span > 0 ? (double(v) - lower) / span : 0.5;
            break;
        }
        case ColorScale::Row: {
            if (row < 0 || size_t(row) >= rowRanges.size())
                return 0.5;
            const auto [a, b] = rowRanges[size_t(row)];
            if (!(b > a))
                return symmetric ? 0.5 : 1.0;  // a single distinct value: the row's maximum
            t = (double(v) - a) / (double(b) - a);
            break;
        }
        case ColorScale::Log:
            if (!(v > 0))
                return 0.0;
            t = (std::log10(double(v)) - lower) / (upper - lower);
            break;
    }
    return std::clamp(t, 0.0, 1.0);
}

ColorScaling colorScaling(const HeatmapData& data, Colormap c, ColorScale requested,
                          std::optional<std::pair<double, double>> matrixRange) {
    ColorScaling s;
    s.requested = requested;
    std::tie(s.lower, s.upper) = matrixRange ? *matrixRange : colorRange(data, c);
    if (requested == ColorScale::Matrix)
        return s;
    if (isZeroOneKind(data.kind)) {
        s.fallback = HeatmapText::tr("0/1 values: one scale");
        return s;
    }
    auto shown = [&](int r, int col, float* v) {
        *v = data.value(r, col);
        return std::isfinite(*v) && !data.isMasked(r, col);
    };
    if (requested == ColorScale::Row) {
        s.scale = ColorScale::Row;
        s.symmetric = c == Colormap::Diverging;
        s.lower = 0.0;
        s.upper = 1.0;
        s.rowRanges.reserve(size_t(std::max(0, data.rows)));
        for (int r = 0; r < data.rows; ++r) {
            float lo = std::numeric_limits<float>::infinity(), hi = -lo, v;
            for (int col = 0; col < data.cols; ++col) {
                if (!shown(r, col, &v))
                    continue;
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            if (s.symmetric && lo <= hi) {
                const float m = std::max(std::abs(lo), std::abs(hi));
                lo = -m;
                hi = m;
            }
            s.rowRanges.emplace_back(lo, hi);
        }
        return s;
    }
    double minPositive = std::numeric_limits<double>::infinity(), maxPositive = 0.0;
    bool negative = false;
    for (int r = 0; r < data.rows; ++r)
        for (int col = 0; col < data.cols; ++col) {
            float v;
            if (!shown(r, col, &v))
                continue;
            negative = negative || v < 0;
            if (v > 0) {
                minPositive = std::min(minPositive, double(v));
                maxPositive = std::max(maxPositive, double(v));
            }
        }
    if (negative || maxPositive <= 0) {
        s.fallback = negative ? HeatmapText::tr("log needs values ≥ 0: linear")
                              : HeatmapText::tr("no value above 0: linear");
        return s;
    }
    constexpr double kDecades = 4.0;  // the floor: 1e-4 of the largest value
    const double floorValue = std::max(minPositive, maxPositive * std::pow(10.0, -kDecades));
    // Whole decades, with a little slack so that 1.0 stays 10^0 despite rounding.
    double lower = std::floor(std::log10(floorValue) + 1e-9);
    double upper = std::ceil(std::log10(maxPositive) - 1e-9);
    if (upper <= lower)
        upper = lower + 1;
    s.scale = ColorScale::Log;
    s.lower = lower;
    s.upper = upper;
    return s;
}

std::vector<float> colorPositions(const HeatmapData& data, const ColorScaling& scaling) {
    std::vector<float> t(data.values.size(), std::numeric_limits<float>::quiet_NaN());
    for (int r = 0; r < data.rows; ++r)
        for (int c = 0; c < data.cols; ++c) {
            const size_t i = size_t(r) * size_t(data.cols) + size_t(c);
            if (!data.isMasked(r, c))
                t[i] = float(scaling.position(data.values[i], r));
        }
    return t;
}

HeatmapData pooledSlice(const Step& step, const QStringList& labels, int head, int batch,
                        const Step* mask, int maxCells) {
    const StepSlice slice = sliceStepValues(step, head, batch);
    if (slice.values.dim() != 2 ||
        (slice.values.size(0) <= maxCells && slice.values.size(1) <= maxCells))
        return sliceStep(step, labels, head, batch, mask);
    const Tensor& m = slice.values;
    const int64_t R = m.size(0), C = m.size(1);
    const bool hideZeros = mask && step.info.kind == StepKind::Weights && slice.dims[0] == "T" &&
                           slice.dims[1] == "T" && mask->value.dim() == 2 &&
                           mask->value.size(0) == R && mask->value.size(1) == C;
    const Tensor hidden = hideZeros ? mask->value.contiguous() : Tensor();
    const int rows = int(std::min<int64_t>(R, maxCells));
    const int cols = int(std::min<int64_t>(C, maxCells));
    Tensor pooled = Tensor::uninitialized({rows, cols});
    const float* v = m.data();
    const int64_t rs = m.strides()[0], cs = m.strides()[1];
    for (int r = 0; r < rows; ++r) {
        const int64_t r0 = int64_t(r) * R / rows, r1 = int64_t(r + 1) * R / rows;
        for (int c = 0; c < cols; ++c) {
            const int64_t c0 = int64_t(c) * C / cols, c1 = int64_t(c + 1) * C / cols;
            double sum = 0;
            int n = 0;
            for (int64_t i = r0; i < r1; ++i)
                for (int64_t j = c0; j < c1; ++j) {
                    const float x = v[i * rs + j * cs];
                    if (!std::isfinite(x) || (hideZeros && x == 0.0f && hidden.data()[i * C + j]))
                        continue;
                    sum += x;
                    ++n;
                }
            pooled.mutableData()[int64_t(r) * cols + c] =
                n ? float(sum / n) : -std::numeric_limits<float>::infinity();
        }
    }
    // Token labels of the first token of each block (both axes of a T x T map pool alike).
    QStringList sampled;
    const int64_t tokenAxis = slice.dims[0] == "T" ? R : C;
    const int64_t pooledAxis = slice.dims[0] == "T" ? rows : cols;
    for (int64_t k = 0; k < pooledAxis; ++k) {
        const int64_t first = k * tokenAxis / pooledAxis;
        sampled << (first < labels.size() ? labels[int(first)] : QString::number(first));
    }
    Step small;
    small.info = step.info;
    small.info.dims = slice.dims;
    small.info.shape = {rows, cols};
    small.value = pooled;
    HeatmapData d = sliceStep(small, sampled, 0, 0, nullptr);
    d.head = int(slice.head);
    d.batch = int(std::max<int64_t>(0, slice.batch));
    return d;
}

Colormap defaultColormapFor(const HeatmapData& data) {
    switch (data.kind) {
        case StepKind::Input:
        case StepKind::Projection:
        case StepKind::Scores:
            return data.signedValues() ? Colormap::Diverging : Colormap::Viridis;
        default:
            return Colormap::Viridis;
    }
}

int printedDecimals(const HeatmapData& data, int decimals) {
    for (float v : data.values)
        if (std::isfinite(v) && v != std::round(v))
            return std::clamp(decimals, 0, 6);
    return 0;
}

QString formatCellValue(float v, int decimals) {
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    const double a = std::abs(double(v));
    if (a >= 1000)
        return QString::number(double(v), 'g', 3);
    const double scale = std::pow(10.0, decimals);
    if (std::round(a * scale) == 0)
        return QString::number(0.0, 'f', decimals);  // no "-0.00"
    return QString::number(double(v), 'f', decimals);
}

QString formatExactValue(float v, int decimals) {
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    if (std::abs(double(v)) >= 1e6)
        return QString::number(double(v), 'g', 6);
    const double scale = std::pow(10.0, decimals);
    if (std::round(std::abs(double(v)) * scale) == 0)
        return QString::number(0.0, 'f', decimals);  // no "-0.0000"
    return QString::number(double(v), 'f', decimals);
}

QString escapeControlCharacters(const QString& text, bool keepBreaks) {
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        const ushort u = c.unicode();
        const bool kept = keepBreaks && (u == '\n' || u == '\t' || u == '\r');
        if (!kept && (u < 0x20 || (u >= 0x7f && u < 0xa0)))
            out += QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

QString displayLabel(const QString& text, int maxChars) {
    // A control character other than a line break or a tab (a model's vocabulary has them: a
    // form feed, \x1b) draws as an empty box or nothing, and trimming took a form feed for a
    // space: it is written as its escape, "\x0c", as the next-token list writes it.
    const QString label = escapeControlCharacters(text, true);
    QString s = label.trimmed();
    const bool blank = s.isEmpty();
    if (blank) {
        if (label.isEmpty())
            return QString(QChar(0x2205));  // ∅
        s = label;
    }
    for (QChar& ch : s) {
        if (ch == QLatin1Char('\n'))
            ch = QChar(0x21B5);  // ↵
        else if (ch == QLatin1Char('\t'))
            ch = QChar(0x21E5);  // ⇥
        else if (ch == QLatin1Char('\r'))
            ch = QChar(0x240D);  // ␍
        else if (blank && ch.isSpace())
            ch = QChar(0x00B7);  // ·
    }
    if (maxChars > 1 && s.size() > maxChars)
        s = s.left(maxChars - 1) + QChar(0x2026);
    return s;
}

bool tokenLabelsWithPositions(const HeatmapData& data, LabelPositions positions) {
    if (positions != LabelPositions::Auto)
        return positions == LabelPositions::On;
    auto repeats = [](const QStringList& labels) {
        QSet<QString> seen;
        for (const QString& l : labels) {
            const QString shown = displayLabel(l);
            if (seen.contains(shown))
                return true;
            seen.insert(shown);
        }
        return false;
    };
    return (data.rowsAreTokens && repeats(data.rowLabels)) ||
           (data.colsAreTokens && repeats(data.colLabels));
}

QStringList axisTickLabels(const QStringList& labels, bool tokenAxis, bool withPositions,
                           int maxChars) {
    QStringList out;
    out.reserve(labels.size());
    const bool positions = tokenAxis && withPositions;
    for (int i = 0; i < labels.size(); ++i) {
        const QString shown = displayLabel(labels[i], maxChars);
        out << (positions ? QString::number(i) + QChar(0x00B7) + shown : shown);
    }
    return out;
}

namespace {

QString quotedLabel(const QString& label) {
    QString s = label;
    s.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    s.replace(QLatin1Char('\t'), QStringLiteral("\\t"));
    return QLatin1Char('"') + s + QLatin1Char('"');
}

// One axis of a tooltip: the position, and the token in quotes on token axes (3 "the"); a
// feature axis by its index, with its label when that says more ("2 (1.0)": head 1, feature 0).
QString tooltipAxis(const QStringList& labels, int i, bool tokens) {
    const QString label = i < labels.size() ? labels[i] : QString();
    if (tokens)
        return QString::number(i) + QLatin1Char(' ') + quotedLabel(label);
    if (label.isEmpty() || label == QString::number(i))
        return QString::number(i);
    return QStringLiteral("%1 (%2)").arg(i).arg(label);
}

}  // namespace

QString cellToolTip(const HeatmapData& data, int row, int col, int decimals) {
    if (row < 0 || col < 0 || row >= data.rows || col >= data.cols)
        return {};
    const QString rowText = tooltipAxis(data.rowLabels, row, data.rowsAreTokens);
    const QString colText = tooltipAxis(data.colLabels, col, data.colsAreTokens);
    if (data.isQuizHidden(row, col))
        return HeatmapText::tr("row %1, col %2 = ? (a quiz: click the cell to reveal it)")
            .arg(rowText, colText);
    const float v = data.value(row, col);
    // A mask holds whole numbers, as its cells print them.
    if (data.kind == StepKind::Mask || data.kind == StepKind::DropoutMask)
        decimals = 0;
    if (data.isMasked(row, col) && !isNegInf(v)) {
        return HeatmapText::tr("row %1, col %2 = %3 (masked: this key is hidden from this query)")
            .arg(rowText, colText, formatExactValue(v, decimals));
    }
    if (isNegInf(v)) {
        if (data.colsAreTokens)
            return HeatmapText::tr(
                       "row %1, col %2 = masked (-inf): this key is hidden from this "
                       "query")
                .arg(rowText, colText);
        return HeatmapText::tr("row %1, col %2 = masked (-inf)").arg(rowText, colText);
    }
    return HeatmapText::tr("row %1, col %2 = %3")
        .arg(rowText, colText, formatExactValue(v, decimals));
}

HeatmapData sliceStep(const Step& step, const QStringList& tokens, int head, int batch,
                      const Step* mask) {
    HeatmapData d;
    d.kind = step.info.kind;
    d.stepId = QString::fromStdString(step.info.id);
    if (d.kind == StepKind::Input && step.info.block)
        d.valueName = HeatmapText::tr("normed value");
    const Shape fullShape = step.value.empty() ? step.info.shape : step.value.shape();
    StepSlice slice = sliceStepValues(step, head, batch);
    const Tensor& t = slice.values;
    const std::vector<std::string>& dims = slice.dims;
    if (t.empty() || t.numel() == 0) {
        d.title = d.stepId;
        return d;
    }
    QStringList where;
    if (slice.head >= 0) {
        d.head = int(slice.head);
        where << HeatmapText::tr("head %1").arg(d.head);
    }
    if (slice.batch >= 0) {
        d.batch = int(slice.batch);
        if (slice.batchSize > 1)
            where << HeatmapText::tr("batch %1").arg(d.batch);
    }
    std::vector<std::string> tokenNames;
    tokenNames.reserve(size_t(tokens.size()));
    for (const QString& token : tokens)
        tokenNames.push_back(token.toStdString());
    const SliceLabels labels = sliceLabels(slice, tokenNames);
    for (const std::string& l : labels.rows)
        d.rowLabels << QString::fromStdString(l);
    for (const std::string& l : labels.cols)
        d.colLabels << QString::fromStdString(l);
    d.rows = int(labels.rows.size());
    d.cols = int(labels.cols.size());
    std::vector<float> values = t.toVector();
    if (t.dim() == 1) {
        d.colAxis = featureAxisName(dims[0]);
        d.colsAreTokens = dims[0] == "T";
    } else if (slice.merged()) {
        QStringList names;
        for (size_t k = 1; k < dims.size(); ++k)
            names << QString::fromStdString(dims[k]);
        d.rowAxis = HeatmapText::tr("token");
        d.rowsAreTokens = true;
        d.colAxis = names.join(QStringLiteral(" . "));
    } else if (t.dim() == 2) {
        d.rowsAreTokens = dims[0] == "T";
        d.colsAreTokens = dims[1] == "T";
        if (dims[0] == "T" && dims[1] == "T") {
            d.rowAxis = HeatmapText::tr("query token");
            d.colAxis = HeatmapText::tr("key token");
        } else {
            d.rowAxis = featureAxisName(dims[0]);
            d.colAxis = featureAxisName(dims[1]);
        }
    }
    d.values = std::move(values);

    if (mask && d.kind == StepKind::Weights && d.rowsAreTokens && d.colsAreTokens &&
        mask->value.dim() == 2 && mask->value.size(0) == d.rows && mask->value.size(1) == d.cols) {
        const std::vector<float> m = mask->value.toVector();
        d.hidden.assign(d.values.size(), 0);
        bool any = false;
        for (size_t i = 0; i < d.values.size(); ++i) {
            if (m[i] != 0.0f && d.values[i] == 0.0f) {
                d.hidden[i] = 1;
                any = true;
            }
        }
        if (!any)
            d.hidden.clear();
    }

    d.title = d.stepId;
    if (!where.isEmpty())
        d.title += QStringLiteral("  (") + where.join(QStringLiteral(", ")) + QLatin1Char(')');
    const QString shape = QString::fromStdString(shapeToString(fullShape));
    const QString op = QString::fromStdString(step.info.op);
    d.subtitle = op.isEmpty() ? HeatmapText::tr("shape %1").arg(shape)
                              : HeatmapText::tr("%1   shape %2").arg(op, shape);
    return d;
}

}  // namespace attn

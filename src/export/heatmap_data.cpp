#include "export/heatmap_data.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

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

QString formatExactValue(float v) {
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    return QString::number(double(v), 'g', 6);
}

QString displayLabel(const QString& label, int maxChars) {
    QString s = label.trimmed();
    if (s.isEmpty()) {
        if (label.isEmpty())
            return label;
        // Whitespace tokens: show what they are.
        s = label;
        s.replace(QLatin1Char(' '), QChar(0x2423));  // open box
        s.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
        s.replace(QLatin1Char('\t'), QStringLiteral("\\t"));
        s.replace(QLatin1Char('\r'), QStringLiteral("\\r"));
    }
    s.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    if (maxChars > 1 && s.size() > maxChars)
        s = s.left(maxChars - 1) + QChar(0x2026);
    return s;
}

namespace {

QString quotedLabel(const QString& label) {
    QString s = label;
    s.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    s.replace(QLatin1Char('\t'), QStringLiteral("\\t"));
    return QLatin1Char('"') + s + QLatin1Char('"');
}

}  // namespace

QString cellToolTip(const HeatmapData& data, int row, int col) {
    if (row < 0 || col < 0 || row >= data.rows || col >= data.cols)
        return {};
    const QString r = row < data.rowLabels.size() ? data.rowLabels[row] : QString::number(row);
    const QString c = col < data.colLabels.size() ? data.colLabels[col] : QString::number(col);
    const QString rowText = data.rowsAreTokens ? quotedLabel(r) : r;
    const QString colText = data.colsAreTokens ? quotedLabel(c) : c;
    const float v = data.value(row, col);
    if (data.isMasked(row, col) && !isNegInf(v)) {
        return HeatmapText::tr("row %1, col %2 = %3 (masked: this key is hidden from this query)")
            .arg(rowText, colText, formatExactValue(v));
    }
    if (isNegInf(v)) {
        if (data.colsAreTokens)
            return HeatmapText::tr(
                       "row %1, col %2 = masked (-inf): this key is hidden from this "
                       "query")
                .arg(rowText, colText);
        return HeatmapText::tr("row %1, col %2 = masked (-inf)").arg(rowText, colText);
    }
    return HeatmapText::tr("row %1, col %2 = %3").arg(rowText, colText, formatExactValue(v));
}

HeatmapData sliceStep(const Step& step, const QStringList& tokens, int head, int batch,
                      const Step* mask) {
    HeatmapData d;
    d.kind = step.info.kind;
    d.stepId = QString::fromStdString(step.info.id);
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

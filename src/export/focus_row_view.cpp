#include "export/focus_row_view.h"

#include <QEvent>
#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include "export/heatmap_figure.h"

namespace attn {

namespace {

constexpr double kSin45 = 0.70711;
constexpr int kPad = 8;

// Nice round steps for the value axis: 1, 2, 2.5 or 5 times a power of ten.
double niceStep(double span, int wantedTicks) {
    if (!(span > 0))
        return 1.0;
    const double raw = span / wantedTicks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw)
            return m * mag;
    return 10 * mag;
}

QString axisNumber(double v) {
    if (std::abs(v) < 1e-12)
        return QStringLiteral("0");
    return QString::number(v, 'g', 3);
}

}  // namespace

// Where everything of the chart goes for a canvas size: computed on every resize and new row.
struct FocusLayout {
    QRectF plot;                  // the bars' area
    double pitch = 0;             // pixels per key
    double lower = 0, upper = 1;  // the value axis
    double tickStep = 0.5;
    bool rotateLabels = false;
    int labelStep = 1;
    double titleHeight = 0;
    int valuePixels = 0;  // numbers on the bars' font size, 0 when they do not fit
};

struct FocusRowView::Private {
    HeatmapData data;
    int row = -1;
    Colormap colormap = Colormap::Viridis;
    ColorScale scale = ColorScale::Matrix;
    LabelPositions positions = LabelPositions::Auto;
    double fontScale = 1.0;
    FigureColors colors;
    QStringList labels;               // key labels as drawn
    std::vector<float> rowPositions;  // colormap positions of the row's cells (NaN masked)
    QString title;
    FocusLayout layout;
    int hover = -1;
    QScrollArea* scroll = nullptr;
    Canvas* canvas = nullptr;

    QFont font(double points, bool bold = false) const {
        QFont f = QFontDatabase::systemFont(QFontDatabase::GeneralFont);
        f.setFamily(QFontInfo(f).family());
        f.setPointSizeF(points * fontScale);
        f.setBold(bold);
        return f;
    }
    bool masked(int col) const {
        return data.isMasked(row, col) || std::isnan(data.value(row, col));
    }
    int minimumPitch() const {
        // Labels at 45 degrees need about 1.4 lines between neighbours: every key keeps its
        // label and a long row scrolls instead.
        return std::max(14, int(std::ceil(QFontMetricsF(font(9)).height() / kSin45)) + 1);
    }
    void relayout(const QSize& size);
};

void FocusRowView::Private::relayout(const QSize& size) {
    FocusLayout l;
    if (row < 0) {
        layout = l;
        return;
    }
    const QFontMetricsF tfm(font(10, true));
    const QFontMetricsF fm(font(9));
    l.titleHeight = tfm.height() + 6;
    // The value axis: 0 and the row's finite values, on round ticks.
    double lo = 0, hi = 0;
    for (int c = 0; c < data.cols; ++c) {
        const float v = data.value(row, c);
        if (masked(c) || !std::isfinite(v))
            continue;
        lo = std::min(lo, double(v));
        hi = std::max(hi, double(v));
    }
    if (hi - lo <= 0)
        hi = lo + 1;
    l.tickStep = niceStep(hi - lo, 4);
    l.lower = std::floor(lo / l.tickStep + 1e-9) * l.tickStep;
    l.upper = std::ceil(hi / l.tickStep - 1e-9) * l.tickStep;
    double axisWidth = 0;
    for (double t = l.lower; t <= l.upper + l.tickStep / 2; t += l.tickStep)
        axisWidth = std::max(axisWidth, fm.horizontalAdvance(axisNumber(t)));
    const double left = kPad + axisWidth + 6;
    const int n = std::max(1, data.cols);
    l.pitch = std::max(double(minimumPitch()), (size.width() - left - kPad) / n);
    double widest = 0;
    for (const QString& s : labels)
        widest = std::max(widest, fm.horizontalAdvance(s));
    l.rotateLabels = widest > l.pitch - 6;  // upright labels keep 6 px between them
    const double labelsH = l.rotateLabels ? (widest + fm.height()) * kSin45 : fm.height();
    const double bottom = std::min(labelsH + 8, size.height() * 0.4);
    l.plot = QRectF(left, kPad + l.titleHeight, n * l.pitch,
                    std::max(20.0, size.height() - kPad - l.titleHeight - bottom));
    const double extent = l.rotateLabels ? fm.height() / kSin45 : widest + 6;
    while (l.labelStep * l.pitch < extent && l.labelStep < n)
        l.labelStep = l.labelStep < 2 ? 2 : l.labelStep < 5 ? 5 : l.labelStep * 2;
    // Numbers on the bars: the widest at 8 px or more must fit a bar's width.
    l.valuePixels = 0;
    QFont vf = font(9);
    for (int px = int(std::round(11 * fontScale)); px >= kMinCellValuePixels; --px) {
        vf.setPixelSize(px);
        const QFontMetricsF vfm(vf);
        double w = 0;
        for (int c = 0; c < data.cols; ++c)
            if (!masked(c))
                w = std::max(w, vfm.horizontalAdvance(formatCellValue(data.value(row, c))));
        if (w <= l.pitch * 0.92) {
            l.valuePixels = px;
            break;
        }
    }
    layout = l;
}

class FocusRowView::Canvas : public QWidget {
  public:
    Canvas(FocusRowView* view, FocusRowView::Private* d) : QWidget(view), view_(view), d_(d) {
        setMouseTracking(true);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

    QRectF barRect(int col) const {
        const FocusLayout& l = d_->layout;
        if (d_->row < 0 || col < 0 || col >= d_->data.cols)
            return {};
        const double x = l.plot.left() + col * l.pitch + l.pitch * 0.11;
        const double w = l.pitch * 0.78;
        if (d_->masked(col))
            return QRectF(x, l.plot.top(), w, l.plot.height());
        const auto yOf = [&](double v) {
            return l.plot.bottom() - (v - l.lower) / (l.upper - l.lower) * l.plot.height();
        };
        const float v = d_->data.value(d_->row, col);
        const double value = std::isinf(v) ? l.upper : double(v);
        const double y0 = yOf(0), y1 = yOf(value);
        return QRectF(QPointF(x, std::min(y0, y1)), QPointF(x + w, std::max(y0, y1)));
    }

    int keyAt(const QPoint& pos) const {
        const FocusLayout& l = d_->layout;
        if (d_->row < 0 || !l.plot.contains(QPointF(pos)))
            return -1;
        const int c = int((pos.x() - l.plot.left()) / l.pitch);
        return c >= 0 && c < d_->data.cols ? c : -1;
    }

  protected:
    void resizeEvent(QResizeEvent*) override { d_->relayout(size()); }

    void paintEvent(QPaintEvent* event) override {
        QPainter p(this);
        const FigureColors& colors = d_->colors;
        p.fillRect(event->rect(), colors.background);
        if (d_->row < 0)
            return;
        const FocusLayout& l = d_->layout;
        const HeatmapData& data = d_->data;
        p.setRenderHint(QPainter::TextAntialiasing, true);
        // The title stays in view: it is drawn at the scrolled left edge.
        const int visibleLeft = event->rect().left();
        p.setFont(d_->font(10, true));
        p.setPen(colors.title);
        p.drawText(QRectF(visibleLeft + kPad, kPad, width() - visibleLeft - kPad, l.titleHeight),
                   Qt::AlignLeft | Qt::AlignTop, d_->title);
        // Value axis: ticks and faint grid lines.
        const QFont axisFont = d_->font(9);
        const QFontMetricsF fm(axisFont);
        p.setFont(axisFont);
        const auto yOf = [&](double v) {
            return l.plot.bottom() - (v - l.lower) / (l.upper - l.lower) * l.plot.height();
        };
        for (double t = l.lower; t <= l.upper + l.tickStep / 2; t += l.tickStep) {
            const double y = yOf(t);
            p.setPen(QPen(colors.maskFill, 1));
            p.drawLine(QPointF(l.plot.left(), y), QPointF(l.plot.right(), y));
            p.setPen(colors.text);
            p.drawText(QRectF(0, y - fm.height() / 2, l.plot.left() - 6, fm.height()),
                       Qt::AlignRight | Qt::AlignVCenter, axisNumber(t));
        }
        // Only the keys in view are drawn: a row of 1,000 keys scrolls.
        const int first = std::max(0, int((event->rect().left() - l.plot.left()) / l.pitch) - 1);
        const int last =
            std::min(data.cols - 1, int((event->rect().right() - l.plot.left()) / l.pitch) + 1);
        QFont valueFont = axisFont;
        if (l.valuePixels > 0)
            valueFont.setPixelSize(l.valuePixels);
        const QFontMetricsF vfm(valueFont);
        for (int c = first; c <= last; ++c) {
            const QRectF bar = barRect(c);
            if (d_->masked(c)) {
                p.save();
                p.setOpacity(0.75);
                drawMaskHatch(&p, bar, colors);
                p.restore();
            } else {
                const float t = d_->rowPositions[size_t(c)];
                p.setPen(Qt::NoPen);
                p.setBrush(colormapColor(d_->colormap, std::isnan(t) ? 0.0 : t));
                p.drawRect(bar);
                if (l.valuePixels > 0) {
                    const float v = data.value(d_->row, c);
                    const QString text = formatCellValue(v);
                    const bool below = v < 0;
                    const QRectF box(bar.left() - l.pitch * 0.11,
                                     below ? bar.bottom() + 1 : bar.top() - vfm.height() - 1,
                                     l.pitch, vfm.height());
                    p.setFont(valueFont);
                    p.setPen(colors.text);
                    p.drawText(box, Qt::AlignHCenter | Qt::AlignVCenter, text);
                }
            }
            if (c == d_->hover) {
                p.setPen(QPen(QColor(0xff, 0x40, 0x81), 2));
                p.setBrush(Qt::NoBrush);
                p.drawRect(bar.adjusted(-1, -1, 1, 1));
            }
        }
        // The zero line, then the key labels under the bars (the query's own key in bold).
        p.setPen(QPen(colors.frame, 1));
        p.drawLine(QPointF(l.plot.left(), yOf(0)), QPointF(l.plot.right(), yOf(0)));
        p.setPen(colors.text);
        for (int c = first; c <= last; ++c) {
            const QString label = view_->keyLabel(c);
            if (label.isEmpty())
                continue;
            QFont f = axisFont;
            f.setBold(c == d_->row && data.rowsAreTokens && data.colsAreTokens);
            p.setFont(f);
            const double cx = l.plot.left() + (c + 0.5) * l.pitch;
            const double top = l.plot.bottom() + 4;
            if (!l.rotateLabels) {
                p.drawText(QRectF(cx - l.pitch / 2, top, l.pitch, fm.height()),
                           Qt::AlignHCenter | Qt::AlignTop, label);
                continue;
            }
            // Turned 45 degrees, ending under the bar's centre.
            p.save();
            p.translate(cx, top + fm.ascent() * kSin45);
            p.rotate(-45);
            const double w = fm.horizontalAdvance(label);
            p.drawText(QPointF(-w, fm.ascent() / 2 - fm.descent()), label);
            p.restore();
        }
    }

    void mouseMoveEvent(QMouseEvent* event) override {
        const int c = keyAt(event->position().toPoint());
        if (c != d_->hover) {
            d_->hover = c;
            update();
            emit view_->keyHovered(
                c, c >= 0 ? d_->data.value(d_->row, c) : std::numeric_limits<float>::quiet_NaN());
        }
        if (c >= 0)
            QToolTip::showText(event->globalPosition().toPoint(), cellToolTip(d_->data, d_->row, c),
                               this);
        else
            QToolTip::hideText();
    }
    void leaveEvent(QEvent*) override {
        if (d_->hover >= 0) {
            d_->hover = -1;
            update();
            emit view_->keyHovered(-1, std::numeric_limits<float>::quiet_NaN());
        }
    }
    void mousePressEvent(QMouseEvent* event) override {
        const int c = keyAt(event->position().toPoint());
        if (event->button() == Qt::LeftButton && c >= 0)
            emit view_->keyClicked(c, d_->data.value(d_->row, c));
    }

  private:
    FocusRowView* view_;
    FocusRowView::Private* d_;
};

FocusRowView::FocusRowView(QWidget* parent) : QWidget(parent), d_(std::make_unique<Private>()) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    d_->scroll = new QScrollArea(this);
    d_->scroll->setFrameShape(QFrame::NoFrame);
    d_->scroll->setWidgetResizable(true);
    d_->scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    d_->canvas = new Canvas(this, d_.get());
    d_->scroll->setWidget(d_->canvas);
    layout->addWidget(d_->scroll);
    d_->colors = FigureColors::fromPalette(palette());
    setAccessibleName(tr("Attention of one token over the keys"));
}

FocusRowView::~FocusRowView() = default;

void FocusRowView::setRow(const HeatmapData& data, int row) {
    if (data.isEmpty() || row < 0 || row >= data.rows) {
        clear();
        return;
    }
    d_->data = data;
    d_->row = row;
    d_->hover = -1;
    const QString rowText =
        QStringLiteral("%1 \"%2\"").arg(row).arg(displayLabel(data.rowLabels.value(row)));
    const QString what = data.kind == StepKind::Weights  ? tr("attention weights over the keys")
                         : data.kind == StepKind::Scores ? tr("attention scores over the keys")
                                                         : tr("values over the columns");
    d_->title = tr("row %1: %2").arg(data.rowsAreTokens ? rowText : QString::number(row), what);
    if (data.maskedCount() > 0)
        d_->title += tr("  (hatched = masked)");
    setColorScale(d_->scale);  // colours, labels and layout of the new row
}

void FocusRowView::clear() {
    d_->data = HeatmapData();
    d_->row = -1;
    d_->hover = -1;
    d_->labels.clear();
    d_->rowPositions.clear();
    d_->title.clear();
    d_->canvas->setMinimumWidth(0);
    d_->relayout(d_->canvas->size());
    d_->canvas->update();
}

bool FocusRowView::isEmpty() const {
    return d_->row < 0;
}

int FocusRowView::row() const {
    return d_->row;
}

const HeatmapData& FocusRowView::data() const {
    return d_->data;
}

void FocusRowView::setColormap(Colormap c) {
    d_->colormap = c;
    setColorScale(d_->scale);
}

Colormap FocusRowView::colormap() const {
    return d_->colormap;
}

void FocusRowView::setColorScale(ColorScale scale) {
    d_->scale = scale;
    if (d_->row < 0)
        return;
    const HeatmapData& data = d_->data;
    // The heatmap's colours: the scaling of the whole matrix, read along this row.
    const ColorScaling s = colorScaling(data, d_->colormap, scale);
    d_->rowPositions.assign(size_t(data.cols), std::numeric_limits<float>::quiet_NaN());
    for (int c = 0; c < data.cols; ++c)
        if (!d_->masked(c))
            d_->rowPositions[size_t(c)] = float(s.position(data.value(d_->row, c), d_->row));
    d_->labels = axisTickLabels(data.colLabels, data.colsAreTokens,
                                tokenLabelsWithPositions(data, d_->positions));
    // Wide enough for every key at the minimum pitch; the scroll area scrolls beyond.
    const QFontMetricsF fm(d_->font(9));
    d_->canvas->setMinimumWidth(int(kPad * 2 + fm.horizontalAdvance(QStringLiteral("-0.00")) + 6 +
                                    data.cols * d_->minimumPitch()));
    d_->relayout(d_->canvas->size());
    d_->canvas->update();
}

ColorScale FocusRowView::colorScale() const {
    return d_->scale;
}

void FocusRowView::setLabelPositions(LabelPositions positions) {
    d_->positions = positions;
    setColorScale(d_->scale);
}

void FocusRowView::setFontScale(double scale) {
    if (!(scale > 0))
        return;
    d_->fontScale = scale;
    setColorScale(d_->scale);
}

QString FocusRowView::title() const {
    return d_->title;
}

QRectF FocusRowView::barRect(int col) const {
    return d_->canvas->barRect(col);
}

QString FocusRowView::keyLabel(int col) const {
    if (d_->row < 0 || col < 0 || col >= d_->labels.size() || col % d_->layout.labelStep != 0)
        return {};
    return d_->labels[col];
}

bool FocusRowView::valuesShown() const {
    return d_->row >= 0 && d_->layout.valuePixels > 0;
}

int FocusRowView::keyAt(const QPoint& canvasPos) const {
    return d_->canvas->keyAt(canvasPos);
}

QWidget* FocusRowView::canvas() const {
    return d_->canvas;
}

QSize FocusRowView::sizeHint() const {
    return {480, 220};
}

QSize FocusRowView::minimumSizeHint() const {
    return {160, 120};
}

void FocusRowView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (FigureColors::followPalette(event, palette(), &d_->colors))
        d_->canvas->update();
}

}  // namespace attn

#include "teach/compare_view.h"

#include <qcustomplot.h>
#include <QGridLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

#include "export/heatmap_figure.h"

namespace attn {

struct CompareView::Private {
    HeatmapData a, b, diff;
    QString nameA, nameB;
    double tolerance = 1e-6;
    double fontScale = 1.0;
    double maxDiff = 0.0;
    FigureColors colors;  // the colours the figures were last drawn in
    bool shapesMatch = false;
    bool hasData = false;
    QCustomPlot* plots[3] = {nullptr, nullptr, nullptr};
    QLabel* captions[3] = {nullptr, nullptr, nullptr};
    QLabel* summary = nullptr;
    QLabel* badge = nullptr;
};

namespace {

// An empty plot, in the background colour of the figures around it.
void blank(QCustomPlot* plot, const QColor& background) {
    plot->clearPlottables();
    plot->clearItems();
    plot->setBackground(QBrush(background));
    plot->replot();
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent), d_(std::make_unique<Private>()) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(6, 6, 6, 6);
    grid->setHorizontalSpacing(8);
    for (int k = 0; k < 3; ++k) {
        d_->plots[k] = new QCustomPlot(this);
        d_->plots[k]->setMinimumSize(220, 200);
        d_->plots[k]->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        d_->captions[k] = new QLabel(this);
        d_->captions[k]->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
        d_->captions[k]->setWordWrap(true);
        d_->captions[k]->setTextFormat(Qt::RichText);
        d_->captions[k]->setAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        grid->addWidget(d_->captions[k], 0, k);
        grid->addWidget(d_->plots[k], 1, k);
        grid->setColumnStretch(k, 1);
    }
    auto* bottom = new QHBoxLayout;
    d_->badge = new QLabel(this);
    d_->badge->setAlignment(Qt::AlignCenter);
    d_->summary = new QLabel(this);
    d_->summary->setWordWrap(true);
    d_->summary->setTextFormat(Qt::RichText);
    bottom->addWidget(d_->badge, 0);
    bottom->addWidget(d_->summary, 1);
    grid->addLayout(bottom, 2, 0, 1, 3);
    grid->setRowStretch(1, 1);
    clear();
}

CompareView::~CompareView() = default;

HeatmapData CompareView::differenceOf(const HeatmapData& a, const HeatmapData& b) {
    HeatmapData d;
    d.rows = a.rows;
    d.cols = a.cols;
    d.rowLabels = a.rowLabels;
    d.colLabels = a.colLabels;
    d.rowAxis = a.rowAxis;
    d.colAxis = a.colAxis;
    d.rowsAreTokens = a.rowsAreTokens;
    d.colsAreTokens = a.colsAreTokens;
    d.kind = StepKind::Scores;  // signed
    d.head = a.head;
    d.batch = a.batch;
    d.stepId = QStringLiteral("difference");
    if (a.rows != b.rows || a.cols != b.cols) {
        d.rows = d.cols = 0;
        return d;
    }
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float ninf = -std::numeric_limits<float>::infinity();
    d.values.resize(a.values.size());
    for (int r = 0; r < a.rows; ++r)
        for (int c = 0; c < a.cols; ++c) {
            const size_t i = size_t(r) * size_t(a.cols) + size_t(c);
            const float va = a.values[i], vb = b.values[i];
            const bool ma = std::isinf(va) && va < 0, mb = std::isinf(vb) && vb < 0;
            if (ma && mb)
                d.values[i] = ninf;
            else if (ma || mb || !std::isfinite(va) || !std::isfinite(vb))
                d.values[i] = nan;
            else
                d.values[i] = vb - va;
        }
    // Cells both sides hide stay hatched, so the picture keeps the mask's shape.
    if (!a.hidden.empty() && !b.hidden.empty()) {
        d.hidden.assign(d.values.size(), 0);
        for (size_t i = 0; i < d.values.size(); ++i)
            d.hidden[i] = (a.hidden[i] && b.hidden[i] && d.values[i] == 0.0f) ? 1 : 0;
    }
    return d;
}

void CompareView::setData(const HeatmapData& a, const QString& nameA, const HeatmapData& b,
                          const QString& nameB) {
    d_->a = a;
    d_->b = b;
    d_->nameA = nameA;
    d_->nameB = nameB;
    d_->hasData = true;
    d_->shapesMatch = a.rows == b.rows && a.cols == b.cols && !a.isEmpty();
    d_->diff = differenceOf(a, b);
    double m = 0;
    if (!d_->shapesMatch) {
        m = std::numeric_limits<double>::infinity();
    } else {
        for (float v : d_->diff.values) {
            if (std::isnan(v)) {
                m = std::numeric_limits<double>::infinity();  // masked on one side only
                break;
            }
            if (std::isfinite(v))
                m = std::max(m, double(std::abs(v)));
        }
    }
    d_->maxDiff = m;
    d_->diff.title = tr("B − A");
    d_->diff.subtitle =
        tr("max |difference| = %1").arg(std::isfinite(m) ? QString::number(m, 'g', 3) : tr("∞"));
    rebuild();
}

bool CompareView::setSteps(const Trace& trace, const QStringList& tokens, const std::string& stepA,
                           const std::string& stepB, int head, int batch) {
    const Step* a = trace.find(stepA);
    const Step* b = trace.find(stepB);
    if (!a || !b)
        return false;
    const Step* mask = trace.find("mask");
    setData(sliceStep(*a, tokens, head, batch, mask), QString::fromStdString(stepA),
            sliceStep(*b, tokens, head, batch, mask), QString::fromStdString(stepB));
    return true;
}

void CompareView::clear() {
    d_->a = d_->b = d_->diff = HeatmapData();
    d_->hasData = false;
    d_->shapesMatch = false;
    d_->maxDiff = 0;
    d_->colors = FigureColors::fromPalette(palette());
    for (auto* p : d_->plots)
        blank(p, d_->colors.background);
    for (auto* c : d_->captions)
        c->clear();
    d_->badge->hide();
    d_->summary->setText(tr("Pick two steps or configurations to compare."));
}

void CompareView::setFontScale(double scale) {
    d_->fontScale = std::clamp(scale, 0.5, 4.0);
    QFont f = font();
    for (auto* c : d_->captions) {
        QFont cf = f;
        if (cf.pointSizeF() > 0)
            cf.setPointSizeF(f.pointSizeF() * d_->fontScale);
        c->setFont(cf);
    }
    QFont sf = f;
    if (sf.pointSizeF() > 0)
        sf.setPointSizeF(f.pointSizeF() * d_->fontScale);
    d_->summary->setFont(sf);
    d_->badge->setFont(sf);
    if (d_->hasData)
        rebuild();
}

void CompareView::setTolerance(double tol) {
    d_->tolerance = tol;
    if (d_->hasData)
        rebuild();
}

double CompareView::maxAbsDifference() const {
    return d_->maxDiff;
}
bool CompareView::shapesMatch() const {
    return d_->shapesMatch;
}
bool CompareView::isEqual() const {
    return d_->hasData && d_->shapesMatch && d_->maxDiff <= d_->tolerance;
}
const HeatmapData& CompareView::difference() const {
    return d_->diff;
}
QCustomPlot* CompareView::plotA() const {
    return d_->plots[0];
}
QCustomPlot* CompareView::plotB() const {
    return d_->plots[1];
}
QCustomPlot* CompareView::plotDiff() const {
    return d_->plots[2];
}

QString CompareView::captionText() const {
    if (!d_->hasData)
        return {};
    if (!d_->shapesMatch)
        return tr("A (%1) is %2 × %3 and B (%4) is %5 × %6: they cannot be compared cell by cell.")
            .arg(d_->nameA)
            .arg(d_->a.rows)
            .arg(d_->a.cols)
            .arg(d_->nameB)
            .arg(d_->b.rows)
            .arg(d_->b.cols);
    const QString tol = QString::number(d_->tolerance, 'g', 2);
    if (!std::isfinite(d_->maxDiff))
        return tr("A (%1) and B (%2) mask different cells.").arg(d_->nameA, d_->nameB);
    if (isEqual())
        return tr("A (%1) and B (%2) are equal to %3: max |B − A| = %4.")
            .arg(d_->nameA, d_->nameB, tol, QString::number(d_->maxDiff, 'g', 3));
    return tr("A (%1) and B (%2) differ: max |B − A| = %3.")
        .arg(d_->nameA, d_->nameB, QString::number(d_->maxDiff, 'g', 4));
}

namespace {

// The figure's own "hatched = masked" footnote is too wide for a third of the window; the
// captions above say it instead.
void dropMaskNote(QCustomPlot* plot) {
    QCPLayoutGrid* grid = plot->plotLayout();
    QCPAxisRect* cells = heatmapAxisRect(plot);
    for (int r = grid->rowCount() - 1; r >= 0; --r) {
        QCPLayoutElement* el = grid->element(r, 0);
        if (!el || el == cells)
            break;
        if (!qobject_cast<QCPAxisRect*>(el)) {
            grid->remove(el);
            grid->simplify();
            break;
        }
    }
}

// The difference's colour scale: symmetric, but never narrower than a tenth of the values'
// own scale, so float rounding noise (1e-8) stays white instead of filling the scale.
void setDiffRange(QCustomPlot* plot, double r, const QString& label) {
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto* map = qobject_cast<QCPColorMap*>(plot->plottable(i)))
            map->setDataRange(QCPRange(-r, r));
    QCPAxisRect* cells = heatmapAxisRect(plot);
    for (QCPAxisRect* rect : plot->axisRects()) {
        if (rect == cells)
            continue;
        if (QCPAxis* axis = rect->axis(QCPAxis::atRight)) {
            axis->setRange(-r, r);
            axis->setLabel(label);
        }
    }
}

double maxAbsFinite(const HeatmapData& d) {
    double m = 0;
    for (float v : d.values)
        if (std::isfinite(v))
            m = std::max(m, double(std::abs(v)));
    return m;
}

}  // namespace

void CompareView::rebuild() {
    if (!d_->hasData)
        return;
    const bool eq = isEqual();
    FigureOptions o;
    o.showTitle = false;
    o.colors = FigureColors::fromPalette(palette());
    d_->colors = o.colors;
    o.fontScale = d_->fontScale;
    const HeatmapData* data[3] = {&d_->a, &d_->b, &d_->diff};
    for (int k = 0; k < 3; ++k) {
        QCustomPlot* p = d_->plots[k];
        if (data[k]->isEmpty()) {
            blank(p, o.colors.background);
            d_->captions[k]->clear();
            continue;
        }
        o.colormap = k == 2 ? Colormap::Diverging : defaultColormapFor(*data[k]);
        o.showValues = k < 2 || !eq;  // near-zero noise is not worth printing
        o.width = std::max(220, p->width());
        o.height = std::max(200, p->height());
        drawHeatmap(p, *data[k], o);
        dropMaskNote(p);
        if (k == 2) {
            const double scale = std::max(maxAbsFinite(d_->a), maxAbsFinite(d_->b));
            double r = std::max(std::isfinite(d_->maxDiff) ? d_->maxDiff : 0.0, 0.1 * scale);
            if (r <= 0)
                r = 1;
            setDiffRange(p, r, tr("difference B − A"));
        }
        p->replot();
        const QString name = k == 0   ? tr("A: %1").arg(d_->nameA)
                             : k == 1 ? tr("B: %1").arg(d_->nameB)
                                      : tr("B − A");
        const QString sub = k < 2 ? data[k]->subtitle : d_->diff.subtitle;
        d_->captions[k]->setText(QStringLiteral("<big><b>%1</b></big><br><small>%2</small>")
                                     .arg(name.toHtmlEscaped(), sub.toHtmlEscaped()));
    }
    d_->badge->setVisible(d_->shapesMatch && std::isfinite(d_->maxDiff));
    d_->badge->setText(eq ? tr("✔ equal to %1").arg(QString::number(d_->tolerance, 'g', 2))
                          : tr("✘ different"));
    d_->badge->setStyleSheet(
        eq ? QStringLiteral("QLabel { background: #1b7a3a; color: white; font-weight: bold; "
                            "border-radius: 6px; padding: 4px 10px; }")
           : QStringLiteral("QLabel { background: #b35900; color: white; font-weight: bold; "
                            "border-radius: 6px; padding: 4px 10px; }"));
    QString summary = captionText().toHtmlEscaped();
    if (d_->a.maskedCount() > 0 || d_->b.maskedCount() > 0)
        summary += QStringLiteral("<br><small>") + tr("Hatched cells are masked.").toHtmlEscaped() +
                   QStringLiteral("</small>");
    d_->summary->setText(summary);
}

void CompareView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange && event->type() != QEvent::StyleChange)
        return;
    if (FigureColors::fromPalette(palette()) == d_->colors)
        return;
    if (d_->hasData)
        rebuild();
    else
        clear();
}

void CompareView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (d_->hasData)
        rebuild();
}

}  // namespace attn

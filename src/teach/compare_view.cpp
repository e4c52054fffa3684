#include "teach/compare_view.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QGridLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "engine/step_ids.h"
#include "export/heatmap_figure.h"
#include "tokenizer/tokenizer.h"

namespace attn {

struct CompareView::Private {
    HeatmapData a, b, diff;
    QString nameA, nameB;
    double tolerance = 1e-6;
    double fontScale = 1.0;
    int decimals = 2;
    double maxDiff = 0.0;
    bool shared = true;
    std::pair<double, double> rangeA{0.0, 1.0}, rangeB{0.0, 1.0};
    FigureColors colors;  // the colours the figures were last drawn in
    bool shapesMatch = false;
    bool hasData = false;
    QCustomPlot* plots[3] = {nullptr, nullptr, nullptr};
    QLabel* titles[3] = {nullptr, nullptr, nullptr};     // "A: weights"
    QLabel* subtitles[3] = {nullptr, nullptr, nullptr};  // the op and shape, elided
    QString subtitleText[3];
    QString titleText[3];  // the titles in full; the labels show them elided to the column
    QLabel* summary = nullptr;
    QLabel* badge = nullptr;
    QCheckBox* separate = nullptr;
    QGridLayout* grid = nullptr;
    QHBoxLayout* bottom = nullptr;
    Arrangement arrangement = Arrangement::Row;
    bool arranged = false;
    Colormap sharedMap = Colormap::Viridis;  // A's and B's colormap on a shared scale
    double diffRange = 1.0;                  // the difference's colours span ±this
};

namespace {

// Below this height the view keeps its room for the maps (rebuild).
constexpr int kCompactHeight = 420;
// The least a figure's plot takes, so three fit the right column of a 1280 x 720 window under
// the lesson panel; the arrangement gives them the room.
constexpr int kLeastPlot = 40;

// An empty plot, in the background colour of the figures around it.
// Axes and the hatched cell background go too: a cleared view shows no ghost of the last map.
void blank(QCustomPlot* plot, const QColor& background) {
    plot->clearPlottables();
    plot->clearItems();
    plot->plotLayout()->clear();
    plot->setBackground(QBrush(background));
    plot->replot();
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent), d_(std::make_unique<Private>()) {
    auto* grid = new QGridLayout(this);
    d_->grid = grid;
    grid->setContentsMargins(4, 4, 4, 4);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(2);
    for (int k = 0; k < 3; ++k) {
        d_->plots[k] = new QCustomPlot(this);
        d_->plots[k]->setMinimumSize(kLeastPlot, kLeastPlot);
        // Hovering a cell says its value in A, B and B − A: the cells are often too small
        // for their numbers (beside a lesson at 1280 x 720).
        d_->plots[k]->installEventFilter(this);
        d_->plots[k]->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        d_->titles[k] = new QLabel(this);
        d_->titles[k]->setAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        d_->titles[k]->setTextFormat(Qt::PlainText);
        QFont bold = d_->titles[k]->font();
        bold.setBold(true);
        d_->titles[k]->setFont(bold);
        d_->subtitles[k] = new QLabel(this);
        d_->subtitles[k]->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
        d_->subtitles[k]->setTextFormat(Qt::PlainText);
        d_->subtitles[k]->setForegroundRole(QPalette::PlaceholderText);
        // Elided to the column (updateCaptions): never wider than the figure under it.
        d_->subtitles[k]->setMinimumWidth(1);
        d_->titles[k]->setMinimumWidth(1);
    }
    auto* bottom = new QHBoxLayout;
    d_->bottom = bottom;
    bottom->setSpacing(10);
    d_->badge = new QLabel(this);
    d_->badge->setObjectName(QStringLiteral("compareBadge"));
    d_->badge->setAlignment(Qt::AlignCenter);
    d_->badge->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    d_->summary = new QLabel(this);
    d_->summary->setObjectName(QStringLiteral("compareSummary"));
    d_->summary->setWordWrap(true);
    d_->summary->setTextFormat(Qt::RichText);
    d_->summary->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    d_->separate = new QCheckBox(tr("Separate colour scales"), this);
    d_->separate->setObjectName(QStringLiteral("separateScales"));
    d_->separate->setToolTip(
        tr("Off: A and B share one colour scale, so equal colours mean equal values.\n"
           "On: each has its own scale, showing more contrast within each."));
    connect(d_->separate, &QCheckBox::toggled, this, [this](bool on) { setSharedColorScale(!on); });
    bottom->addWidget(d_->badge, 0, Qt::AlignLeft | Qt::AlignVCenter);
    bottom->addWidget(d_->summary, 1);
    bottom->addWidget(d_->separate, 0, Qt::AlignLeft | Qt::AlignVCenter);
    arrange(Arrangement::Row);
    clear();
}

CompareView::Arrangement CompareView::arrangement() const {
    return d_->arrangement;
}

CompareView::Arrangement CompareView::bestArrangement(QSize room, const QFontMetrics& font) {
    // What a figure needs besides its cells: the token labels left of and under them, a colour
    // bar beside them, the two caption lines above. The side left for the cells decides.
    const int line = font.lineSpacing();
    const int besideCells = font.averageCharWidth() * (8 + 10);  // labels 8, colour bar 10
    const int underCells = font.averageCharWidth() * 7 + 2 * line + 8;
    const int bottomRow = 4 * line;
    const auto side = [&](int columns, int rows) {
        const int w = (room.width() - 6 * (columns - 1)) / columns - besideCells;
        // In the grid the verdict has the fourth quarter: no row of its own.
        const int h = (room.height() - (rows == 2 ? 0 : bottomRow)) / rows - underCells;
        return std::min(w, h);
    };
    const int row = side(3, 1), grid = side(2, 2), column = side(1, 3);
    if (row >= grid && row >= column)
        return Arrangement::Row;
    return grid >= column ? Arrangement::Grid : Arrangement::Column;
}

void CompareView::arrange(Arrangement a) {
    if (d_->arranged && a == d_->arrangement)
        return;
    QGridLayout* grid = d_->grid;
    for (int k = 0; k < 3; ++k) {
        grid->removeWidget(d_->titles[k]);
        grid->removeWidget(d_->subtitles[k]);
        grid->removeWidget(d_->plots[k]);
    }
    if (d_->arranged)
        grid->removeItem(d_->bottom);
    for (int r = 0; r < grid->rowCount(); ++r)
        grid->setRowStretch(r, 0);
    for (int c = 0; c < grid->columnCount(); ++c)
        grid->setColumnStretch(c, 0);
    // Each figure is three rows of the grid: title, subtitle, plot.
    const auto place = [&](int k, int row, int column) {
        grid->addWidget(d_->titles[k], row, column);
        grid->addWidget(d_->subtitles[k], row + 1, column);
        grid->addWidget(d_->plots[k], row + 2, column);
        grid->setRowStretch(row + 2, 1);
        grid->setColumnStretch(column, 1);
    };
    switch (a) {
        case Arrangement::Row:
            for (int k = 0; k < 3; ++k)
                place(k, 0, k);
            d_->bottom->setDirection(QBoxLayout::LeftToRight);
            grid->addLayout(d_->bottom, 3, 0, 1, 3);
            break;
        case Arrangement::Grid:
            // The verdict and the caption take the fourth quarter, beside the difference.
            place(0, 0, 0);
            place(1, 0, 1);
            place(2, 3, 0);
            d_->bottom->setDirection(QBoxLayout::TopToBottom);
            grid->addLayout(d_->bottom, 3, 1, 3, 1);
            break;
        case Arrangement::Column:
            for (int k = 0; k < 3; ++k)
                place(k, 3 * k, 0);
            d_->bottom->setDirection(QBoxLayout::LeftToRight);
            grid->addLayout(d_->bottom, 9, 0);
            break;
    }
    d_->arrangement = a;
    d_->arranged = true;
    grid->activate();  // the plots take their new sizes before they are drawn
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
    const Step* mask = trace.find(step_id::kMask);
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
    for (int k = 0; k < 3; ++k) {
        d_->titles[k]->clear();
        d_->subtitles[k]->clear();
        d_->subtitleText[k].clear();
        d_->titleText[k].clear();
    }
    d_->badge->hide();
    d_->summary->setText(tr("Pick two steps or configurations to compare."));
    d_->summary->show();
    // Nothing to compare: empty frames would look like maps that failed to draw.
    for (int k = 0; k < 3; ++k)
        d_->plots[k]->setVisible(false);
    d_->separate->setVisible(false);
}

void CompareView::setFontScale(double scale) {
    d_->fontScale = std::clamp(scale, 0.5, 4.0);
    const QFont f = font();
    auto scaled = [&](double factor, bool bold) {
        QFont sf = f;
        if (sf.pointSizeF() > 0)
            sf.setPointSizeF(f.pointSizeF() * d_->fontScale * factor);
        sf.setBold(bold);
        return sf;
    };
    for (int k = 0; k < 3; ++k) {
        d_->titles[k]->setFont(scaled(1.0, true));
        d_->subtitles[k]->setFont(scaled(0.85, false));
    }
    d_->summary->setFont(scaled(1.0, false));
    d_->badge->setFont(scaled(1.0, true));
    d_->separate->setFont(scaled(1.0, false));
    if (d_->hasData)
        rebuild();
}

void CompareView::setDecimals(int decimals) {
    if (decimals == d_->decimals)
        return;
    d_->decimals = decimals;
    if (d_->hasData)
        rebuild();
}

void CompareView::setTolerance(double tol) {
    d_->tolerance = tol;
    if (d_->hasData)
        rebuild();
}

void CompareView::setSharedColorScale(bool shared) {
    if (d_->separate->isChecked() == shared) {
        d_->separate->setChecked(!shared);  // comes back here through toggled
        return;
    }
    if (shared == d_->shared)
        return;
    d_->shared = shared;
    if (d_->hasData)
        rebuild();
}

bool CompareView::sharedColorScale() const {
    return d_->shared;
}

std::pair<double, double> CompareView::colorRangeA() const {
    return d_->rangeA;
}

std::pair<double, double> CompareView::colorRangeB() const {
    return d_->rangeB;
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

double maxAbsFinite(const HeatmapData& d) {
    double m = 0;
    for (float v : d.values)
        if (std::isfinite(v))
            m = std::max(m, double(std::abs(v)));
    return m;
}

// A and B as one matrix, for the colormap and range they share.
HeatmapData combined(const HeatmapData& a, const HeatmapData& b) {
    HeatmapData c;
    c.kind = a.kind == b.kind ? a.kind : StepKind::Projection;
    c.values = a.values;
    c.values.insert(c.values.end(), b.values.begin(), b.values.end());
    c.rows = 1;
    c.cols = int(c.values.size());
    return c;
}

}  // namespace

namespace {

// The label `a` and, where B's differs, B's too ("tired/wide"), each shortened to `chars`: one
// axis that stands for A's rows and B's (side by side, B's are not repeated).
QStringList sharedLabels(const QStringList& a, const QStringList& b, int chars) {
    QStringList out;
    for (int i = 0; i < a.size(); ++i) {
        const QString own = displayLabel(a[i], chars);
        const QString other = displayLabel(b.value(i), chars);
        out << (i < b.size() && other != own ? own + QLatin1Char('/') + other : own);
    }
    return out;
}

QStringList shortened(const QStringList& labels, int chars) {
    QStringList out;
    for (const QString& l : labels)
        out << displayLabel(l, chars);
    return out;
}

// Every `step`-th token label is shown when cells of `cell` pixels hold labels `extent` pixels
// long (as the figure's ticker thins them: 1, 2, 5, 10, 20 ...).
int labelStep(double cell, double extent) {
    for (int mag = 1;; mag *= 10)
        for (int m : {1, 2, 5})
            if (m * mag * cell >= extent || m * mag >= 1000000)
                return m * mag;
}

}  // namespace

// What one way of placing the figures gives: the cells' side, every how-many-th token keeps
// its label, and each figure's width at that size.
struct CompareView::Fit {
    Arrangement arrangement = Arrangement::Row;
    double scale = 1.0;        // the figures' font scale
    bool bars = true;          // colour bars where the arrangement has room for them
    int cell = 0;              // A's and B's cells' side
    int cells[3] = {0, 0, 0};  // each figure's (the difference's may be smaller in the grid)
    int step = 1;
    double widths[3] = {0, 0, 0};
    FigureOptions options[3];
    // The figures' data without their values (measure() needs the labels only; copying
    // 1,000 x 1,000 values for every arrangement tried took a tenth of a second): figure()
    // puts them back.
    HeatmapData data[3];
};

namespace {

// `d` without its values, with labels of its own.
HeatmapData shell(const HeatmapData& d) {
    HeatmapData s;
    s.rows = d.rows;
    s.cols = d.cols;
    s.rowLabels = d.rowLabels;
    s.colLabels = d.colLabels;
    s.rowAxis = d.rowAxis;
    s.colAxis = d.colAxis;
    s.title = d.title;
    s.subtitle = d.subtitle;
    s.kind = d.kind;
    s.stepId = d.stepId;
    s.head = d.head;
    s.batch = d.batch;
    s.rowsAreTokens = d.rowsAreTokens;
    s.colsAreTokens = d.colsAreTokens;
    return s;
}

// `values`' cells with `labels`' labels (a shell of it).
HeatmapData figure(const HeatmapData& values, const HeatmapData& labels) {
    HeatmapData d = values;
    d.rowLabels = labels.rowLabels;
    d.colLabels = labels.colLabels;
    return d;
}

}  // namespace

// The figures' options and data for an arrangement at a font scale: which maps label their
// rows, colour bars, label lengths; the rules are in the comments.
void CompareView::prepare(Fit* fit) const {
    const Arrangement arr = fit->arrangement;
    const bool compact = height() > 0 && height() < kCompactHeight;
    FigureOptions base;
    base.showTitle = false;
    // The captions above say what the rows and columns are; the figures keep their room for
    // the cells.
    base.showAxisTitles = false;
    base.colors = FigureColors::fromPalette(palette());
    base.fontScale = fit->scale;
    base.decimals = d_->decimals;
    // The summary says what the colours mean and that hatched cells are masked.
    base.compactColorBar = true;
    // Side by side, rows level however long each map's column labels are.
    base.cellsAtTop = true;
    FigureOptions oa = base, ob = base, od = base;
    // The ranges rebuild() found (the figures would find the same), so a figure measured
    // without its values has its colour bar's numbers.
    oa.valueRange = d_->rangeA;
    ob.valueRange = d_->rangeB;
    if (d_->shared && d_->shapesMatch) {
        oa.colormap = ob.colormap = d_->sharedMap;
        oa.showColorBar = false;  // B's colour bar is A's too
    } else {
        oa.colormap = defaultColormapFor(d_->a);
        ob.colormap = defaultColormapFor(d_->b);
    }
    od.colormap = Colormap::Diverging;
    od.valueRange = std::make_pair(-d_->diffRange, d_->diffRange);
    od.colorBarLabel = tr("difference B − A");
    od.showValues = !isEqual();  // near-zero noise is not worth printing
    // Three maps side by side in a short view (under a lesson at 1280 x 720): two colour bars
    // took a third of the width the cells need. The maps keep it; the badge's tooltip says
    // what the colours span. Elsewhere too where the bars' room labels more tokens (rebuild).
    const bool bare = d_->shapesMatch && (!fit->bars || (compact && arr == Arrangement::Row));
    if (bare) {
        for (FigureOptions* o : {&oa, &ob, &od}) {
            o->showColorBar = false;
            o->tight = true;
        }
    }
    // Token labels short ("25·dar…" among many tokens) where the cells need the width.
    const int chars = bare ? (d_->a.rows > 16 ? 4 : 8) : 14;
    // A map leaves out its row labels beside a map that has them: B beside A in a row and in
    // the grid (A's labels name B's tokens too where they differ: "tired/wide"); the
    // difference beside B in a row, but under A in the grid, and every map in a column.
    const bool rowsShared = d_->shapesMatch && d_->a.rows == d_->b.rows;
    ob.showRowLabels = !rowsShared || arr == Arrangement::Column;
    od.showRowLabels = !rowsShared || arr != Arrangement::Row;
    HeatmapData a = shell(d_->a), b = shell(d_->b), diff = shell(d_->diff);
    a.colLabels = shortened(a.colLabels, chars);
    a.rowLabels = rowsShared && arr != Arrangement::Column
                      ? sharedLabels(d_->a.rowLabels, d_->b.rowLabels, chars)
                      : shortened(a.rowLabels, chars);
    b.rowLabels = shortened(b.rowLabels, chars);
    b.colLabels = shortened(b.colLabels, chars);
    if (rowsShared) {
        diff.rowLabels = sharedLabels(d_->a.rowLabels, d_->b.rowLabels, chars);
        diff.colLabels = sharedLabels(d_->a.colLabels, d_->b.colLabels, chars);
    }
    // Shortened above: a shared label holds two.
    for (FigureOptions* o : {&oa, &ob, &od})
        o->labelChars = 2 * chars + 1;
    fit->options[0] = oa;
    fit->options[1] = ob;
    fit->options[2] = od;
    fit->data[0] = std::move(a);
    fit->data[1] = std::move(b);
    fit->data[2] = std::move(diff);
}

// The largest cells the arrangement holds in the view's size: each figure's labels and colour
// bar measured (HeatmapFrame), the captions above and the verdict beside or under them.
void CompareView::measure(Fit* fit) const {
    const Arrangement arr = fit->arrangement;
    const QMargins margins = d_->grid->contentsMargins();
    const int hs = d_->grid->horizontalSpacing(), vs = d_->grid->verticalSpacing();
    int title = d_->titles[0]->sizeHint().height() + vs;
    if (!d_->subtitles[0]->isHidden())
        title += d_->subtitles[0]->sizeHint().height() + vs;
    const int W = width() - margins.left() - margins.right();
    const int H = height() - margins.top() - margins.bottom();
    // The verdict: the badge, the summary and the check box in a line under the figures, or
    // one above the other in the grid's fourth quarter (as wide as the badge or the check box;
    // the summary wraps).
    const int spacing = d_->bottom->spacing();
    const QSize badge = d_->badge->isHidden() ? QSize() : d_->badge->sizeHint();
    const QSize box = d_->separate->sizeHint();
    QSize bottom;
    if (arr == Arrangement::Grid) {
        bottom.setWidth(std::max(badge.width(), box.width()));
        bottom.setHeight(badge.height() + spacing + box.height());
        if (!d_->summary->isHidden())
            bottom.rheight() += d_->summary->heightForWidth(bottom.width()) + spacing;
    } else {
        const int text = W - badge.width() - box.width() - 2 * spacing;
        bottom.setWidth(W);
        bottom.setHeight(std::max(
            {badge.height(), box.height(),
             d_->summary->isHidden() ? 0 : d_->summary->heightForWidth(std::max(40, text))}));
    }
    std::optional<HeatmapFrame> frames[3];
    for (int k = 0; k < 3; ++k)
        if (!fit->data[k].isEmpty())
            frames[k].emplace(fit->data[k], fit->options[k]);
    const auto sizeOf = [&](int k, double cell) {
        return frames[k] ? frames[k]->sizeFor(cell) : QSizeF(kLeastPlot, kLeastPlot);
    };
    // The largest cell from 1 to `hi` for which `fits` holds (bigger cells need more room).
    const auto largest = [](int hi, const std::function<bool(int)>& fits) {
        int lo = 1;
        if (!fits(lo))
            return lo;
        ++hi;
        while (hi - lo > 1) {
            const int mid = (lo + hi) / 2;
            (fits(mid) ? lo : hi) = mid;
        }
        return lo;
    };
    // In the grid the difference, under A with a colour bar of its own, takes A's column as
    // it is: its cells may be smaller than A's and B's, never A's and B's smaller for it.
    const auto gridDiffCell = [&](int cell) {
        const double column = sizeOf(0, cell).width();
        return largest(cell, [&](int c) { return sizeOf(2, c).width() <= column; });
    };
    const auto fits = [&](int cell) {
        QSizeF s[3];
        for (int k = 0; k < 3; ++k)
            s[k] = sizeOf(k, cell);
        switch (arr) {
            case Arrangement::Row:
                return s[0].width() + s[1].width() + s[2].width() + 2 * hs <= W &&
                       title + std::max({s[0].height(), s[1].height(), s[2].height()}) + vs +
                               bottom.height() <=
                           H;
            case Arrangement::Grid: {
                const QSizeF diff = sizeOf(2, gridDiffCell(cell));
                return s[0].width() + hs + std::max<double>(s[1].width(), bottom.width()) <= W &&
                       2 * title + std::max(s[0].height(), s[1].height()) +
                               std::max<double>(diff.height(), bottom.height()) <=
                           H;
            }
            case Arrangement::Column:
                return std::max({s[0].width(), s[1].width(), s[2].width()}) <= W &&
                       3 * title + s[0].height() + s[1].height() + s[2].height() + vs +
                               bottom.height() <=
                           H;
        }
        return false;
    };
    const int cell = largest(1000, fits);
    for (int k = 0; k < 3; ++k) {
        fit->cells[k] = cell;
        fit->widths[k] = sizeOf(k, cell).width();
    }
    if (arr == Arrangement::Grid) {
        fit->cells[2] = gridDiffCell(cell);
        fit->widths[2] = fit->widths[0];
        fit->widths[1] = std::max<double>(fit->widths[1], bottom.width());
    }
    fit->cell = cell;
    fit->step = 1;
    for (int k = 0; k < 3; ++k)
        if (frames[k])
            fit->step = std::max(fit->step, labelStep(fit->cells[k], frames[k]->labelExtent()));
}

void CompareView::rebuild() {
    if (!d_->hasData)
        return;
    for (int k = 0; k < 3; ++k)
        d_->plots[k]->setVisible(true);
    d_->separate->setVisible(true);
    const bool eq = isEqual();
    d_->colors = FigureColors::fromPalette(palette());
    if (d_->shared && d_->shapesMatch) {
        const HeatmapData both = combined(d_->a, d_->b);
        d_->sharedMap = defaultColormapFor(both);
        d_->rangeA = d_->rangeB = colorRange(both, d_->sharedMap);
    } else {
        d_->rangeA = colorRange(d_->a, defaultColormapFor(d_->a));
        d_->rangeB = colorRange(d_->b, defaultColormapFor(d_->b));
    }
    // The difference: diverging and symmetric about 0, never narrower than a tenth of the
    // values' own scale, so float rounding noise (1e-8) stays white instead of filling it.
    const double scale = std::max(maxAbsFinite(d_->a), maxAbsFinite(d_->b));
    double r = std::max(std::isfinite(d_->maxDiff) ? d_->maxDiff : 0.0, 0.1 * scale);
    if (r <= 0)
        r = 1;
    d_->diffRange = r;
    // Short of height (under a lesson at 1280 x 720) the maps keep it: the badge carries the
    // verdict and the notes as its tooltip, the ops and shapes under the titles step aside.
    const bool compact = height() > 0 && height() < kCompactHeight;
    const bool badge = d_->shapesMatch && std::isfinite(d_->maxDiff);
    d_->grid->setContentsMargins(compact ? QMargins(1, 1, 1, 1) : QMargins(4, 4, 4, 4));
    d_->grid->setHorizontalSpacing(compact ? 3 : 6);
    d_->summary->setVisible(!compact || !badge);
    for (QLabel* sub : d_->subtitles)
        sub->setVisible(!compact);
    d_->badge->setVisible(badge);
    d_->badge->setText(eq ? tr("✔ equal to %1").arg(QString::number(d_->tolerance, 'g', 2))
                          : tr("✘ different"));
    d_->badge->setStyleSheet(eq ? QStringLiteral("QLabel { background: #1b7a3a; color: white; "
                                                 "border-radius: 6px; padding: 4px 10px; }")
                                : QStringLiteral("QLabel { background: #b35900; color: white; "
                                                 "border-radius: 6px; padding: 4px 10px; }"));
    // The summary takes its lines under the figures: its text before they are measured (with
    // colour bars; the arrangement may take them away, and then it says what the colours
    // span, below).
    d_->summary->setText(summaryText(true));

    // The arrangement and the type size that show every token's label in the biggest cells:
    // from the figures' 0.9 of the window's type down to 7 pt labels where that is what labels
    // every token (a 12-token pair beside a lesson at 1280 x 720), else the largest type.
    const int n = std::max(d_->a.rows, d_->b.rows);
    const double basePoints = n > 48 ? 8 : n > 24 ? 9 : 10;  // the figures' label type
    const double top = 0.9 * d_->fontScale;
    std::vector<double> scales = {top};
    for (double points : {8.0, 7.0})
        if (points / basePoints < top - 0.01)
            scales.push_back(points / basePoints);
    const auto bestWith = [&](bool bars) {
        Fit best;
        bool found = false;
        for (double sc : scales) {
            for (Arrangement arr : {Arrangement::Row, Arrangement::Grid, Arrangement::Column}) {
                Fit fit;
                fit.arrangement = arr;
                fit.scale = sc;
                fit.bars = bars;
                prepare(&fit);
                measure(&fit);
                const bool better =
                    !found || fit.step < best.step ||
                    (fit.step == best.step && sc == best.scale && fit.cell > best.cell);
                if (better) {
                    best = std::move(fit);
                    found = true;
                }
            }
            // Every label at this size: larger type wins. Three labels or fewer in five cells
            // (46 tokens in a side panel): a smaller type would not label every token either.
            if (best.step == 1 || best.step > 2)
                break;
        }
        return best;
    };
    // The colour bars stay unless their room labels more tokens (46 tokens in the right
    // column: the difference's bar left its cells a pixel, and its labels went).
    Fit best = bestWith(true);
    if (best.step > 1 && d_->shapesMatch) {
        Fit bare = bestWith(false);
        if (bare.step < best.step)
            best = std::move(bare);
    }
    const HeatmapData* values[3] = {&d_->a, &d_->b, &d_->diff};
    for (int k = 0; k < 3; ++k)
        best.data[k] = figure(*values[k], best.data[k]);
    arrange(best.arrangement);
    // Each column as wide as its figure needs, so the cells of all three are one size.
    const int columns = best.arrangement == Arrangement::Row    ? 3
                        : best.arrangement == Arrangement::Grid ? 2
                                                                : 1;
    for (int c = 0; c < columns; ++c)
        d_->grid->setColumnStretch(c, std::max(1, int(std::lround(best.widths[c]))));
    d_->grid->activate();

    auto draw = [&]() {
        for (int k = 0; k < 3; ++k) {
            QCustomPlot* p = d_->plots[k];
            if (best.data[k].isEmpty()) {
                blank(p, d_->colors.background);
                continue;
            }
            drawHeatmap(p, best.data[k], best.options[k]);
            p->setViewport(p->rect());  // the plot's resize event may still be on its way
            p->replot();
        }
    };
    // One cell size for the maps side by side, so B's and the difference's rows line up with
    // A's labels (in the grid the difference under A may have smaller ones: measure).
    for (int k = 0; k < 3; ++k)
        best.options[k].maxCellSize = best.cells[k];
    draw();
    // The layout rounds: where a figure got a pixel less than measured, those sharing its
    // size take it too.
    const int shared = best.arrangement == Arrangement::Grid ? 2 : 3;
    double cell = best.cell;
    for (int k = 0; k < shared; ++k) {
        const QRectF rc = heatmapCellRect(d_->plots[k], 0, 0);
        if (!best.data[k].isEmpty() && rc.width() > 0)
            cell = std::min(cell, rc.width());
    }
    if (cell < best.cell && d_->shapesMatch) {
        for (int k = 0; k < shared; ++k)
            best.options[k].maxCellSize = cell;
        draw();
    }
    for (int k = 0; k < 3; ++k) {
        if (best.data[k].isEmpty()) {
            d_->titleText[k].clear();
            d_->subtitleText[k].clear();
            continue;
        }
        d_->titleText[k] = k == 0   ? tr("A: %1").arg(d_->nameA)
                           : k == 1 ? tr("B: %1").arg(d_->nameB)
                                    : tr("B − A");
        d_->subtitleText[k] = k < 2 ? best.data[k].subtitle : d_->diff.subtitle;
    }
    updateCaptions();
    d_->summary->setText(summaryText(best.options[2].showColorBar));
    d_->badge->setToolTip(compact ? d_->summary->text() : QString());
}

QString CompareView::summaryText(bool colourBars) const {
    QString summary = captionText().toHtmlEscaped();
    QStringList notes;
    if (!d_->a.rowAxis.isEmpty() && !d_->a.colAxis.isEmpty())
        notes << tr("Rows: %1, columns: %2.").arg(d_->a.rowAxis, d_->a.colAxis);
    if (d_->a.maskedCount() > 0 || d_->b.maskedCount() > 0)
        notes << tr("Hatched cells are masked.");
    if (d_->shared && d_->shapesMatch)
        notes << tr("A and B share one colour scale.");
    if (!colourBars) {
        const double r = d_->diffRange;
        notes << tr("Colours: A and B from %1 to %2, B − A from %3 to %4.")
                     .arg(QString::number(d_->rangeA.first, 'g', 3),
                          QString::number(d_->rangeA.second, 'g', 3), QString::number(-r, 'g', 3),
                          QString::number(r, 'g', 3));
    }
    if (!notes.isEmpty())
        summary += QStringLiteral("<br><small>") + notes.join(QLatin1Char(' ')).toHtmlEscaped() +
                   QStringLiteral("</small>");
    return summary;
}

void CompareView::updateCaptions() {
    for (int k = 0; k < 3; ++k) {
        const int room = std::max(20, d_->plots[k]->width());
        const QString& full = d_->subtitleText[k];
        d_->subtitles[k]->setText(
            QFontMetrics(d_->subtitles[k]->font()).elidedText(full, Qt::ElideMiddle, room));
        d_->subtitles[k]->setToolTip(full);
        // The title too: "B: weights_renormalized" is elided, never cut off at the edge.
        const QString& title = d_->titleText[k];
        d_->titles[k]->setText(
            QFontMetrics(d_->titles[k]->font()).elidedText(title, Qt::ElideRight, room));
        d_->titles[k]->setToolTip(title);
    }
}

bool CompareView::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::ToolTip || !d_->hasData)
        return QWidget::eventFilter(watched, event);
    for (int k = 0; k < 3; ++k) {
        if (watched != d_->plots[k])
            continue;
        const auto* help = static_cast<QHelpEvent*>(event);
        const QString text = cellToolTipAt(k, help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, d_->plots[k]);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

QString CompareView::cellToolTipAt(int figure, QPoint pos) const {
    const HeatmapData* data[3] = {&d_->a, &d_->b, &d_->diff};
    if (!d_->hasData || figure < 0 || figure > 2 || data[figure]->isEmpty())
        return {};
    int row = -1, col = -1;
    if (!heatmapCellAt(d_->plots[figure], *data[figure], pos, &row, &col))
        return {};
    // The book's 4 decimals at least, as the main heatmap's hover says them.
    const int decimals = std::max(4, d_->decimals);
    const QString a = tr("A: %1").arg(cellToolTip(d_->a, row, col, decimals));
    const QString b = tr("B: %1").arg(cellToolTip(d_->b, row, col, decimals));
    if (!d_->shapesMatch)
        return figure == 0 ? a : b;
    return a + QLatin1Char('\n') + b + QLatin1Char('\n') +
           tr("B − A: %1").arg(cellToolTip(d_->diff, row, col, decimals));
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
        rebuild();  // the arrangement and the shared cell size follow the new size
    else
        arrange(bestArrangement(event->size(), fontMetrics()));
}

namespace {

// Each token's end in the text's bytes.
std::vector<size_t> tokenEnds(const std::vector<Token>& tokens) {
    std::vector<size_t> ends;
    size_t at = 0;
    for (const Token& t : tokens)
        ends.push_back(at += t.addedByTokenizer ? 0 : t.bytes.size());
    return ends;
}

// The map of `d` over pieces: piece[i] is token i's piece, `last[p]` piece p's last token.
HeatmapData aggregate(const HeatmapData& d, const std::vector<int>& piece,
                      const std::vector<int>& last, const QStringList& labels) {
    const int P = int(last.size());
    HeatmapData out = d;
    out.rows = out.cols = P;
    out.values.assign(size_t(P) * size_t(P), 0.0f);
    out.hidden.clear();
    out.shownValues.clear();
    out.quizHidden.clear();
    std::vector<unsigned char> seen(size_t(P) * size_t(P), 0);
    for (int p = 0; p < P; ++p) {
        const int row = last[size_t(p)];
        for (int j = 0; j < d.cols; ++j) {
            if (d.isMasked(row, j))
                continue;
            const size_t cell = size_t(p) * size_t(P) + size_t(piece[size_t(j)]);
            out.values[cell] += d.value(row, j);
            seen[cell] = 1;
        }
    }
    for (size_t c = 0; c < seen.size(); ++c)
        if (!seen[c])
            out.values[c] = -std::numeric_limits<float>::infinity();
    out.rowLabels = out.colLabels = labels;
    return out;
}

}  // namespace

std::optional<AlignedMaps> alignByText(const HeatmapData& a, const std::vector<Token>& tokensA,
                                       const HeatmapData& b, const std::vector<Token>& tokensB) {
    const int ta = int(tokensA.size()), tb = int(tokensB.size());
    if (a.rows != ta || a.cols != ta || b.rows != tb || b.cols != tb || ta == 0 || tb == 0)
        return std::nullopt;
    const std::vector<size_t> endsA = tokenEnds(tokensA), endsB = tokenEnds(tokensB);
    if (endsA.back() != endsB.back() || endsA.back() == 0)
        return std::nullopt;
    std::string textA, textB;
    for (const Token& t : tokensA)
        textA += t.addedByTokenizer ? std::string() : t.bytes;
    for (const Token& t : tokensB)
        textB += t.addedByTokenizer ? std::string() : t.bytes;
    if (textA != textB)
        return std::nullopt;
    // The boundaries both have, in order: each ends a piece.
    std::vector<size_t> common;
    for (size_t e : endsA)
        if (e > 0 && std::binary_search(endsB.begin(), endsB.end(), e) &&
            (common.empty() || common.back() != e))
            common.push_back(e);
    AlignedMaps out;
    out.pieces = int(common.size());
    QStringList labels;
    size_t start = 0;
    for (size_t end : common) {
        labels << QString::fromUtf8(textA.data() + start, qsizetype(end - start)).trimmed();
        start = end;
    }
    const auto pieces = [&](const std::vector<size_t>& ends, std::vector<int>* piece,
                            std::vector<int>* last) {
        last->assign(common.size(), -1);
        for (size_t i = 0; i < ends.size(); ++i) {
            const int p =
                int(std::lower_bound(common.begin(), common.end(), std::max<size_t>(ends[i], 1)) -
                    common.begin());
            piece->push_back(p);
            (*last)[size_t(p)] = int(i);
        }
    };
    std::vector<int> pieceA, lastA, pieceB, lastB;
    pieces(endsA, &pieceA, &lastA);
    pieces(endsB, &pieceB, &lastB);
    out.a = aggregate(a, pieceA, lastA, labels);
    out.b = aggregate(b, pieceB, lastB, labels);
    return out;
}

}  // namespace attn

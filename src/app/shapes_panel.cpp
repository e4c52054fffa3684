#include "app/shapes_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/workspace.h"
#include "engine/step_ids.h"

namespace attn {

QString namedShape(const StepInfo& info) {
    if (info.dims.size() != info.shape.size())
        return QString::fromStdString(shapeToString(info.shape));
    QStringList parts;
    for (size_t i = 0; i < info.shape.size(); ++i)
        parts
            << QStringLiteral("%1=%2").arg(QString::fromStdString(info.dims[i])).arg(info.shape[i]);
    return QStringLiteral("(") + parts.join(QStringLiteral(", ")) + QStringLiteral(")");
}

ShapesPanel::ShapesPanel(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("shapeSummaryLabel"));
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    v->addWidget(summary_);

    table_ = new QTableWidget(this);
    table_->setObjectName(QStringLiteral("shapeTable"));
    table_->setColumnCount(3);
    // Step | Shape | Operation. The columns keep the widths they are given: a longer shape
    // after typing never squeezes the op to dots, and the panel never changes its own width
    // (which moved the centre sideways between steps). What does not fit scrolls.
    table_->setHorizontalHeaderLabels({tr("Step"), tr("Shape"), tr("Operation")});
    table_->verticalHeader()->hide();
    QHeaderView* header = table_->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    header->setMinimumSectionSize(60);
    const QFontMetrics fm = table_->fontMetrics();
    table_->setColumnWidth(
        0, fm.horizontalAdvance(QString::fromLatin1(step_id::kWeightsRenormalized)) + 16);
    table_->setColumnWidth(1,
                           fm.horizontalAdvance(QStringLiteral("(b=1, h=12, T=99, hd=64)")) + 12);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setDefaultSectionSize(fm.height() + 6);
    table_->setTextElideMode(Qt::ElideRight);
    table_->setShowGrid(false);
    table_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Expanding);
    v->addWidget(table_, 1);

    parameters_ = new QLabel(this);
    parameters_->setObjectName(QStringLiteral("parametersLabel"));
    parameters_->setTextFormat(Qt::RichText);
    parameters_->setWordWrap(true);
    v->addWidget(parameters_);

    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row >= 0 && row < int(steps_.size()))
            workspace_->selectStep(QString::fromStdString(steps_[size_t(row)].id));
    });
    connect(workspace_, &Workspace::settingsChanged, this, &ShapesPanel::refresh);
    connect(workspace_, &Workspace::resultApplied, this, &ShapesPanel::refresh);
    connect(workspace_, &Workspace::tokensChanged, this, &ShapesPanel::refresh);
    connect(workspace_, &Workspace::staleChanged, table_,
            [this](bool stale) { table_->setEnabled(!stale); });
    refresh();
}

void ShapesPanel::refresh() {
    std::vector<StepInfo> steps = workspace_->plannedSteps();
    const TraceRun* run = workspace_->shownRun();
    if (steps.empty() && run)
        for (const Step& s : run->trace->steps)
            steps.push_back(s.info);
    fill(steps);
    const Step* shown = workspace_->shownStep();
    select(shown ? QString::fromStdString(shown->info.id) : workspace_->settings().step);

    QStringList lines;
    if (run) {
        const Trace& t = *run->trace;
        if (!workspace_->settings().modelMode()) {
            // What the module keeps per token while generating, beside multi-head attention's.
            const uint64_t cache = kvCacheBytesPerToken(t.config);
            const uint64_t mha = multiHeadKvCacheBytesPerToken(t.config);
            QString line = tr("<b>Key/value cache:</b> %L1 bytes per token").arg(cache);
            if (variantIsAfterChapter3(t.config.variant) && cache < mha)
                line += tr(" (multi-head attention with the same heads: %L1 bytes, %2× as many)")
                            .arg(mha)
                            .arg(QString::number(double(mha) / double(cache), 'g', 3));
            else if (variantIsAfterChapter3(t.config.variant) && cache > mha)
                line += tr(" (multi-head attention with the same heads: %L1 bytes; this latent "
                           "is larger than the keys and values it replaces)")
                            .arg(mha);
            lines << line;
        }
        lines << tr("<b>Parameters: %L1</b>").arg(t.parameterCount);
        constexpr int kMaxListed = 8;
        QStringList all;
        int listed = 0;
        for (const auto& [name, tensor] : t.parameters) {
            const QString n = QString::fromStdString(name);
            const QString shape = QString::fromStdString(shapeToString(tensor.shape()));
            all << n + QLatin1Char(' ') + shape;
            if (listed++ < kMaxListed)
                lines << QStringLiteral("<code>%1</code> %2").arg(n.toHtmlEscaped(), shape);
        }
        if (listed > kMaxListed)
            lines << tr("... and %1 more (hover to see all)").arg(listed - kMaxListed);
        parameters_->setToolTip(all.join(QLatin1Char('\n')));
    }
    parameters_->setText(lines.join(QStringLiteral("<br>")));
}

void ShapesPanel::fill(const std::vector<StepInfo>& steps) {
    bool same = steps.size() == steps_.size();
    for (size_t i = 0; same && i < steps.size(); ++i)
        same = steps[i].id == steps_[i].id && steps[i].shape == steps_[i].shape;
    if (same)
        return;
    steps_ = steps;
    const QSignalBlocker block(table_);
    table_->setRowCount(int(steps.size()));
    QFont mono = table_->font();
    mono.setFamily(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(mono.pointSizeF() * 0.9);
    for (int r = 0; r < int(steps.size()); ++r) {
        const StepInfo& s = steps[size_t(r)];
        auto set = [&](int col, const QString& text, const QString& tip) {
            QTableWidgetItem* it = table_->item(r, col);
            if (!it) {
                it = new QTableWidgetItem;
                table_->setItem(r, col, it);
            }
            it->setText(text);
            it->setToolTip(tip);
        };
        set(0, QString::fromStdString(s.id), QString::fromStdString(s.title));
        set(1, namedShape(s), QString::fromStdString(shapeToString(s.shape)));
        set(2, QString::fromStdString(s.op), QString::fromStdString(s.op));
        table_->item(r, 2)->setFont(mono);
    }
    // A step's name and shape are read whole: their columns widen to a longer one (a trained
    // model's "residual_after_attention", "(b=1, T=12, d_ff=512)" were cut at 1280 x 720),
    // never narrow, so the columns do not jump between steps; the op takes what is left and
    // scrolls.
    const QFontMetrics fm = table_->fontMetrics();
    for (int col : {0, 1}) {
        int widest = table_->columnWidth(col);
        for (int r = 0; r < table_->rowCount(); ++r)
            widest = std::max(widest, fm.horizontalAdvance(table_->item(r, col)->text()) + 16);
        table_->setColumnWidth(col, widest);
    }
    if (!steps.empty())
        summary_->setText(
            tr("<b>%1</b> %2 &rarr; <b>%3</b> %4")
                .arg(QString::fromStdString(steps.front().id), namedShape(steps.front()),
                     QString::fromStdString(steps.back().id), namedShape(steps.back())));
}

void ShapesPanel::select(const QString& id) {
    for (int r = 0; r < int(steps_.size()); ++r)
        if (QString::fromStdString(steps_[size_t(r)].id) == id) {
            if (table_->currentRow() != r) {
                const QSignalBlocker block(table_);
                table_->setCurrentCell(r, 0);
                table_->selectRow(r);
            }
            table_->scrollToItem(table_->item(r, 0));
            return;
        }
}

}  // namespace attn

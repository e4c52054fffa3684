#include "app/logit_lens_page.h"

#include <QAbstractTableModel>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "app/panel_helpers.h"
#include "app/workspace.h"
#include "engine/decoder_forward.h"
#include "pipeline/latest_job.h"
#include "teach/next_tokens.h"

namespace attn {

// Layers as rows (the first block at the top, the output at the bottom), positions as columns.
class LogitLensModel : public QAbstractTableModel {
  public:
    using QAbstractTableModel::QAbstractTableModel;

    void setLens(LogitLens lens, std::shared_ptr<const DecoderRun> run) {
        beginResetModel();
        lens_ = std::move(lens);
        run_ = std::move(run);
        texts_.clear();
        for (const auto& layer : lens_) {
            QStringList row;
            for (const auto& top : layer)
                row << (top.empty() ? QString() : visibleTokenText(top[0].id, run_->model.get()));
            texts_ << row;
        }
        endResetModel();
    }
    const LogitLens& lens() const { return lens_; }
    const DecoderRun* run() const { return run_.get(); }
    QString text(int layer, int position) const {
        return layer >= 0 && layer < texts_.size() && position >= 0 &&
                       position < texts_[layer].size()
                   ? texts_[layer][position]
                   : QString();
    }
    // The text's own next token at `position` (-1 at the last).
    int64_t nextId(int position) const {
        return run_ && position + 1 < run_->tokens() ? run_->ids[size_t(position + 1)] : -1;
    }
    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(lens_.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() || lens_.empty() ? 0 : int(lens_.front().size());
    }
    QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid())
            return {};
        const auto& top = lens_[size_t(index.row())][size_t(index.column())];
        if (top.empty())
            return {};
        const double p = top[0].probability;
        const bool predictsText = top[0].id == nextId(index.column());
        switch (role) {
            case Qt::DisplayRole:
                return text(index.row(), index.column());
            case Qt::BackgroundRole: {
                // White to the attention blue by probability (ColorBrewer RdBu's blue).
                const double t = std::clamp(p, 0.0, 1.0);
                return QColor::fromRgbF(float(1.0 + (0x21 / 255.0 - 1.0) * t),
                                        float(1.0 + (0x66 / 255.0 - 1.0) * t),
                                        float(1.0 + (0xac / 255.0 - 1.0) * t));
            }
            case Qt::ForegroundRole:
                return QColor(p > 0.5 ? Qt::white : Qt::black);
            case Qt::FontRole: {
                QFont f;
                f.setBold(predictsText);
                return f;
            }
            case Qt::ToolTipRole: {
                QStringList lines{LogitLensPage::tr("After layer %1, at token %2:")
                                      .arg(index.row())
                                      .arg(index.column())};
                for (size_t k = 0; k < top.size(); ++k)
                    lines << QStringLiteral("%1. \u201c%2\u201d %3")
                                 .arg(k + 1)
                                 .arg(visibleTokenText(top[k].id, run_->model.get()))
                                 .arg(top[k].probability, 0, 'f', 3);
                if (predictsText)
                    lines << LogitLensPage::tr("(bold: the text's own next token)");
                return lines.join(QLatin1Char('\n'));
            }
            default:
                return {};
        }
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
            return {};
        if (o == Qt::Vertical) {
            const bool last = section == rowCount() - 1;
            if (role == Qt::ToolTipRole)
                return last ? LogitLensPage::tr("The last layer: the model's own prediction")
                            : LogitLensPage::tr(
                                  "The residual stream after block %1, read by "
                                  "the final norm and the output head")
                                  .arg(section);
            return last ? LogitLensPage::tr("layer %1 (output)").arg(section)
                        : LogitLensPage::tr("layer %1").arg(section);
        }
        if (!run_ || section >= run_->tokens())
            return {};
        const QString token = visibleTokenText(run_->ids[size_t(section)], run_->model.get());
        return role == Qt::ToolTipRole
                   ? LogitLensPage::tr(
                         "Token %1 \u201c%2\u201d: each cell below is the token "
                         "predicted after it")
                         .arg(section)
                         .arg(token)
                   : QStringLiteral("%1\n%2").arg(section).arg(token);
    }

  private:
    LogitLens lens_;
    std::shared_ptr<const DecoderRun> run_;
    QList<QStringList> texts_;
};

LogitLensPage::LogitLensPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent), workspace_(workspace), job_(std::make_unique<LatestJob>()) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 4, 6, 2);
    intro_ = new QLabel(
        tr("What the model would predict if it stopped after each layer: the final norm and "
           "output head applied to the residual stream. Each cell is the most probable next "
           "token after the token above it, darker when more probable; bold where it is the "
           "text's own next token. Click a cell for its top %1.")
            .arg(kTopK),
        this);
    intro_->setWordWrap(true);
    v->addWidget(intro_);
    // Greyed with the main map while the result is stale: the whole page, since an effect on
    // the table alone (a scroll area) leaves its viewport drawn in colour.
    followStale(workspace_, this);
    model_ = new LogitLensModel(this);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("logitLensTable"));
    table_->setModel(model_);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    v->addWidget(table_, 1);
    detail_ = new QLabel(this);
    detail_->setObjectName(QStringLiteral("logitLensDetail"));
    detail_->setWordWrap(true);
    detail_->setTextFormat(Qt::PlainText);
    v->addWidget(detail_);
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& i) { selectCell(i.row(), i.column()); });
    job_->setErrorHandler([this](const QString& error) { detail_->setText(error); });
    connect(workspace_, &Workspace::resultApplied, this, &LogitLensPage::refresh);
}

LogitLensPage::~LogitLensPage() = default;

void LogitLensPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    QMetaObject::invokeMethod(this, &LogitLensPage::refresh, Qt::QueuedConnection);
}

bool LogitLensPage::isDrawn() const {
    const TraceOutcome* shown = workspace_->shown();
    return !job_->busy() && shown && shown->modelRun && drawnRun_ == shown->modelRun.get();
}

void LogitLensPage::refresh() {
    if (!onScreen(this))
        return;  // computed when it comes on screen
    const TraceOutcome* shown = workspace_->shown();
    if (!shown || !shown->modelRun || shown->modelRun.get() == askedRun_)
        return;
    askedRun_ = shown->modelRun.get();
    detail_->setText(tr("Computing the logit lens\u2026"));
    // Every layer's every position times the output head: the size of the vocabulary times
    // layers x tokens, so off the GUI thread.
    job_->run(
        [run = shown->modelRun](const CancelToken& cancel) {
            return std::make_pair(logitLens(*run, kTopK, &cancel), run);
        },
        [this](std::pair<LogitLens, std::shared_ptr<const DecoderRun>> result) {
            drawnRun_ = result.second.get();
            model_->setLens(std::move(result.first), std::move(result.second));
            // A few layers share the page's height (taller cells read better on a projector);
            // many keep their line each and scroll.
            const int rows = std::max(1, model_->rowCount());
            const int line = table_->fontMetrics().height() + 10;
            const int fill = (table_->viewport()->height() - 4) / rows;
            table_->verticalHeader()->setDefaultSectionSize(std::clamp(fill, line, 3 * line));
            detail_->setText(tr("Click a cell for its top %1 tokens.").arg(kTopK));
            // The end of the text, where the newest token's prediction is, and the output layer.
            const int last = model_->columnCount() - 1;
            if (last >= 0)
                QMetaObject::invokeMethod(
                    this,
                    [this] {
                        table_->horizontalScrollBar()->setValue(
                            table_->horizontalScrollBar()->maximum());
                        table_->verticalScrollBar()->setValue(
                            table_->verticalScrollBar()->maximum());
                    },
                    Qt::QueuedConnection);
        });
}

QString LogitLensPage::topToken(int layer, int position) const {
    return model_->text(layer, position);
}

double LogitLensPage::topProbability(int layer, int position) const {
    const LogitLens& lens = model_->lens();
    if (layer < 0 || size_t(layer) >= lens.size() || position < 0 ||
        size_t(position) >= lens[size_t(layer)].size() ||
        lens[size_t(layer)][size_t(position)].empty())
        return -1.0;
    return lens[size_t(layer)][size_t(position)][0].probability;
}

int LogitLensPage::firstLayerPredictingText(int position) const {
    const LogitLens& lens = model_->lens();
    const int64_t next = model_->nextId(position);
    for (size_t l = 0; l < lens.size() && next >= 0; ++l)
        if (size_t(position) < lens[l].size() && !lens[l][size_t(position)].empty() &&
            lens[l][size_t(position)][0].id == next)
            return int(l);
    return -1;
}

QString LogitLensPage::detailText() const {
    return detail_->text();
}

void LogitLensPage::selectCell(int layer, int position) {
    const LogitLens& lens = model_->lens();
    const DecoderRun* run = model_->run();
    if (!run || layer < 0 || size_t(layer) >= lens.size() || position < 0 ||
        size_t(position) >= lens[size_t(layer)].size())
        return;
    table_->setCurrentIndex(model_->index(layer, position));
    QStringList top;
    for (const TokenProbability& t : lens[size_t(layer)][size_t(position)])
        top << QStringLiteral("\u201c%1\u201d %2")
                   .arg(visibleTokenText(t.id, run->model.get()))
                   .arg(t.probability, 0, 'f', 3);
    detail_->setText(tr("After layer %1, at token %2 \u201c%3\u201d: %4")
                         .arg(layer)
                         .arg(position)
                         .arg(visibleTokenText(run->ids[size_t(position)], run->model.get()))
                         .arg(top.join(QStringLiteral(", "))));
}

}  // namespace attn

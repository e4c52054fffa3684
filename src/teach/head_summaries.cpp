#include "teach/head_summaries.h"

#include <QAbstractTableModel>
#include <QContextMenuEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "engine/decoder_forward.h"
#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"
#include "pipeline/latest_job.h"
#include "tokenizer/hf_tokenizer.h"

namespace attn {

namespace {

constexpr int kSortRole = Qt::UserRole;
constexpr int kColumns = 7;

struct ScoreInfo {
    const char* title;
    const char* tip;
    int decimals;
};

// The scores of the maps and the list, in HeadScoreColumn order from PreviousToken on.
const ScoreInfo kScoreInfo[] = {
    {QT_TRANSLATE_NOOP("attn::HeadSummaries", "previous token"),
     QT_TRANSLATE_NOOP("attn::HeadSummaries",
                       "Mean weight on the token just before (rows 1 and on): near 1 for a "
                       "previous-token head"),
     3},
    {QT_TRANSLATE_NOOP("attn::HeadSummaries", "entropy"),
     QT_TRANSLATE_NOOP("attn::HeadSummaries",
                       "Mean entropy of the rows, in nats: low = the head focuses on a few "
                       "tokens, high = it spreads its attention"),
     3},
    {QT_TRANSLATE_NOOP("attn::HeadSummaries", "distance"),
     QT_TRANSLATE_NOOP("attn::HeadSummaries",
                       "Mean attention distance, in tokens: near 1 = looks at the previous "
                       "token, near 0 = at itself, large = far back (often the first token)"),
     2},
    {QT_TRANSLATE_NOOP("attn::HeadSummaries", "first token"),
     QT_TRANSLATE_NOOP("attn::HeadSummaries",
                       "Mean weight on the first token (rows 1 and on: row 0 sees only it): "
                       "high = an attention sink, where the head parks attention it does not "
                       "need"),
     3},
    {QT_TRANSLATE_NOOP("attn::HeadSummaries", "induction"),
     QT_TRANSLATE_NOOP("attn::HeadSummaries",
                       "On a text said twice: mean weight on the token after the previous "
                       "occurrence of the current one; near 1 for an induction head"),
     3},
};

QString scoreTitle(int score) {
    return HeadSummaries::tr(kScoreInfo[score].title);
}
QString scoreTip(int score) {
    return HeadSummaries::tr(kScoreInfo[score].tip);
}

const std::vector<double>& scoreVector(const HeadScores& s, int score) {
    switch (score) {
        case 0:
            return s.previousToken;
        case 1:
            return s.entropy;
        case 2:
            return s.distance;
        case 3:
            return s.firstWeight;
        default:
            return s.induction;
    }
}

QString formatScore(double v, int decimals) {
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("\u2014");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// One score as a small L x H heatmap.

class ScoreMap : public QWidget {
  public:
    ScoreMap(int score, QWidget* parent) : QWidget(parent), score_(score) {
        setMouseTracking(true);
        setToolTip(scoreTip(score));
        setMinimumSize(90, 90);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }
    std::function<void(int, int)> onClick;
    std::function<void(int, int, const QPoint&)> onMenu;
    std::function<QString(int, int)> cellTip;
    // The height whose cells the width `w` allows: any taller leaves empty space under them.
    int heightForCells(int w) const {
        if (!scores_ || scores_->empty())
            return sizeHint().height();
        const QFontMetrics fm(font()), tm(tickFont());
        const int L = int(scores_->layers), H = int(scores_->heads);
        const int left = tm.horizontalAdvance(QString::number(L - 1)) + 4;
        const int cell = std::max(1, (w - 2 * left) / H);
        return L * cell + 2 * fm.height() + 10 + tm.height() + fm.height() + 4 + tm.height();
    }

    void setScores(const HeadScores* scores, bool pending) {
        scores_ = scores;
        pending_ = pending;
        // The colour scale: 0 .. 1 for weights, 0 .. the largest value for entropy and
        // distance (they have no fixed top).
        hi_ = 1.0;
        if (score_ == 1 || score_ == 2) {
            hi_ = 0.0;
            for (double v : scoreVector(*scores, score_))
                if (std::isfinite(v))
                    hi_ = std::max(hi_, v);
            if (hi_ <= 0.0)
                hi_ = 1.0;
        }
        update();
    }
    void setCurrent(int layer, int head) {
        layer_ = layer;
        head_ = head;
        update();
    }
    QSize sizeHint() const override {
        const bool known = scores_ && !scores_->empty();
        const int L = known ? int(scores_->layers) : 12, H = known ? int(scores_->heads) : 12;
        const int cell = std::clamp(160 / std::max(L, H), 3, 14);
        const QFontMetrics fm(font());
        return {std::max(H * cell + 2 * fm.horizontalAdvance(QStringLiteral("00")),
                         fm.horizontalAdvance(scoreTitle(score_))) +
                    4,
                L * cell + 3 * fm.height() + 12};
    }

  protected:
    // Layer and head numbers beside the cells, in a smaller font.
    QFont tickFont() const {
        QFont f = font();
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * 0.8);
        return f;
    }
    QRect cellsRect() const {
        const QFontMetrics fm(font()), tm(tickFont());
        const int L = int(scores_->layers), H = int(scores_->heads);
        const int left = tm.horizontalAdvance(QString::number(L - 1)) + 4;
        const QRect area(left, fm.height() + 4 + tm.height(), width() - 2 * left,
                         height() - 2 * fm.height() - 10 - tm.height());
        const int cell = std::max(1, std::min(area.width() / H, area.height() / L));
        return {area.left() + (area.width() - cell * H) / 2, area.top(), cell * H, cell * L};
    }
    // Every step-th label, the step (1, 2, 5, 10, 20, ...) leaving `room` pixels per label.
    static int tickStep(int cell, int room) {
        for (int step : {1, 2, 5, 10, 20, 50})
            if (step * cell >= room)
                return step;
        return 100;
    }
    void paintTicks(QPainter& p, const QRect& r, int cell) const {
        const QFontMetrics tm(tickFont());
        const int L = int(scores_->layers), H = int(scores_->heads);
        p.setFont(tickFont());
        p.setPen(palette().color(QPalette::PlaceholderText));
        const int rowStep = tickStep(cell, tm.height());
        for (int l = 0; l < L; l += rowStep)
            p.drawText(QRect(0, r.top() + l * cell + cell / 2 - tm.height() / 2, r.left() - 3,
                             tm.height()),
                       Qt::AlignRight | Qt::AlignVCenter, QString::number(l));
        const int colStep = tickStep(cell, tm.horizontalAdvance(QString::number(H - 1)) + 4);
        for (int h = 0; h < H; h += colStep)
            p.drawText(
                QRect(r.left() + h * cell - 10, r.top() - tm.height(), cell + 20, tm.height()),
                Qt::AlignHCenter | Qt::AlignBottom, QString::number(h));
        p.setFont(font());
    }
    bool cellAt(const QPoint& pos, int* layer, int* head) const {
        if (!scores_ || scores_->empty())
            return false;
        const QRect r = cellsRect();
        if (!r.contains(pos))
            return false;
        const int cell = r.width() / int(scores_->heads);
        *layer = std::min(int(scores_->layers) - 1, (pos.y() - r.top()) / cell);
        *head = std::min(int(scores_->heads) - 1, (pos.x() - r.left()) / cell);
        return true;
    }
    bool event(QEvent* e) override {
        if (e->type() == QEvent::ToolTip) {
            auto* he = static_cast<QHelpEvent*>(e);
            int l = 0, h = 0;
            if (cellTip && cellAt(he->pos(), &l, &h))
                QToolTip::showText(he->globalPos(), cellTip(l, h), this);
            else
                QToolTip::showText(he->globalPos(), toolTip(), this);
            return true;
        }
        return QWidget::event(e);
    }
    void mousePressEvent(QMouseEvent* e) override {
        int l = 0, h = 0;
        if (e->button() == Qt::LeftButton && onClick && cellAt(e->position().toPoint(), &l, &h))
            onClick(l, h);
    }
    void contextMenuEvent(QContextMenuEvent* e) override {
        int l = 0, h = 0;
        if (onMenu && cellAt(e->pos(), &l, &h)) {
            onMenu(l, h, e->globalPos());
            e->accept();
        }
    }
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        const QPalette pal = palette();
        const QFontMetrics fm(font());
        // The title fits the map's width: a narrow page (a dock beside it) sets it smaller, down
        // to 70 %, then elides it, rather than cutting both its ends.
        QFont bold = font();
        bold.setBold(true);
        const QString title = scoreTitle(score_);
        const int room = std::max(1, width() - 4);
        const int natural = QFontMetrics(bold).horizontalAdvance(title);
        if (natural > room) {
            const double f = std::max(0.7, double(room) / natural);
            if (bold.pointSizeF() > 0)
                bold.setPointSizeF(bold.pointSizeF() * f);
            else
                bold.setPixelSize(std::max(1, int(bold.pixelSize() * f)));
        }
        p.setFont(bold);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(0, 0, width(), fm.height() + 2), Qt::AlignHCenter | Qt::AlignVCenter,
                   QFontMetrics(bold).elidedText(title, Qt::ElideRight, room));
        p.setFont(font());
        if (!scores_ || scores_->empty())
            return;
        const QRect r = cellsRect();
        const int L = int(scores_->layers), H = int(scores_->heads);
        const int cell = r.width() / H;
        const std::vector<double>& v = scoreVector(*scores_, score_);
        const FigureColors colors = FigureColors::fromPalette(pal);
        for (int l = 0; l < L; ++l)
            for (int h = 0; h < H; ++h) {
                const QRect c(r.left() + h * cell, r.top() + l * cell, cell, cell);
                const double x = scores_->at(v, l, h);
                if (std::isfinite(x))
                    p.fillRect(c, colormapColor(Colormap::Viridis, x / hi_));
                else
                    p.fillRect(c, colors.maskFill);
            }
        paintTicks(p, r, cell);
        if (pending_) {
            p.setPen(pal.color(QPalette::WindowText));
            p.drawText(r, Qt::AlignCenter, HeadSummaries::tr("computing\u2026"));
        }
        if (layer_ >= 0 && head_ >= 0 && layer_ < L && head_ < H) {
            p.setPen(QPen(pal.color(QPalette::Highlight), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRect(r.left() + head_ * cell - 1, r.top() + layer_ * cell - 1, cell + 1,
                             cell + 1));
        }
        // The scale under the cells.
        const int y = r.bottom() + 6, barH = fm.height() - 4;
        const QString lo = QStringLiteral("0"), hi = formatScore(hi_, hi_ >= 10 ? 0 : 1);
        const int loW = fm.horizontalAdvance(lo) + 4, hiW = fm.horizontalAdvance(hi) + 4;
        const int barW = std::max(10, std::min(r.width(), width() - loW - hiW) - loW - hiW);
        const int x0 = (width() - barW) / 2;
        for (int x = 0; x < barW; ++x)
            p.fillRect(QRect(x0 + x, y + 2, 1, barH),
                       colormapColor(Colormap::Viridis, (x + 0.5) / barW));
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(x0 - loW, y, loW - 2, fm.height()), Qt::AlignRight | Qt::AlignVCenter, lo);
        p.drawText(QRect(x0 + barW + 2, y, hiW, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, hi);
    }

  private:
    int score_;
    const HeadScores* scores_ = nullptr;
    bool pending_ = false;
    double hi_ = 1.0;
    int layer_ = -1, head_ = -1;
};

// ---------------------------------------------------------------------------------------------
// The list: one row per head, in layer-then-head order (the proxy sorts it).

class HeadScoresModel : public QAbstractTableModel {
  public:
    using QAbstractTableModel::QAbstractTableModel;

    void setScores(const HeadScores& scores, bool computing) {
        const bool reset = scores.layers != scores_.layers || scores.heads != scores_.heads;
        if (reset)
            beginResetModel();
        scores_ = scores;
        computing_ = computing;
        if (reset)
            endResetModel();
        else if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, kColumns - 1));
    }
    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(scores_.layers * scores_.heads);
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : kColumns;
    }
    QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid())
            return {};
        const int layer = index.row() / int(scores_.heads), head = index.row() % int(scores_.heads);
        const int column = index.column();
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        const bool off = std::binary_search(ablated_.begin(), ablated_.end(), HeadRef{layer, head});
        if (off && role == Qt::ForegroundRole)
            return QColor(0xd7, 0x30, 0x27);  // the overview's "off" red
        if (column <= int(HeadScoreColumn::Head)) {
            const int v = column == 0 ? layer : head;
            if (role == kSortRole)
                return v;
            if (role == Qt::DisplayRole)
                return off && column == 1 ? HeadSummaries::tr("%1 (off)").arg(v)
                                          : QString::number(v);
            if (role == Qt::ToolTipRole && off)
                return HeadSummaries::tr("Switched off: what this head writes is removed");
            return {};
        }
        const int score = column - int(HeadScoreColumn::PreviousToken);
        const double v = scores_.at(scoreVector(scores_, score), layer, head);
        if (role == kSortRole)  // unknown scores sort below every known one
            return std::isfinite(v) ? v : -std::numeric_limits<double>::infinity();
        if (role == Qt::DisplayRole) {
            if (!std::isfinite(v) && score == 0 && computing_)
                return QStringLiteral("\u2026");
            return formatScore(v, kScoreInfo[score].decimals);
        }
        if (role == Qt::ToolTipRole)
            return scoreTip(score);
        return {};
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if (o != Qt::Horizontal || section < 0 || section >= kColumns)
            return {};
        if (role == Qt::DisplayRole) {
            if (section == 0)
                return HeadSummaries::tr("layer");
            if (section == 1)
                return HeadSummaries::tr("head");
            // One word a line: the columns share the width equally, and "previous token" on
            // one line was cut to "vious tol" in a narrow centre.
            return scoreTitle(section - 2).replace(QLatin1Char(' '), QLatin1Char('\n'));
        }
        if (role == Qt::ToolTipRole) {
            if (section < 2)
                return HeadSummaries::tr("Click to sort by this column");
            return scoreTip(section - 2) + HeadSummaries::tr(" (click to sort)");
        }
        return {};
    }

    void setAblated(std::vector<HeadRef> heads) {
        if (heads == ablated_)
            return;
        ablated_ = std::move(heads);
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, kColumns - 1));
    }

  private:
    HeadScores scores_;
    bool computing_ = false;
    std::vector<HeadRef> ablated_;
};

// ---------------------------------------------------------------------------------------------

HeadSummaries::HeadSummaries(QWidget* parent)
    : QWidget(parent), job_(std::make_unique<LatestJob>()) {
    legend_ = new QLabel(legendText(), this);
    legend_->setWordWrap(true);
    legend_->setTextFormat(Qt::PlainText);
    legend_->setToolTip(tr("What the scores say about a head"));
    best_ = new QLabel(this);
    best_->setTextFormat(Qt::RichText);
    best_->setToolTip(tr("The head that most attends to the previous token (click to select it)"));
    connect(best_, &QLabel::linkActivated, this, [this](const QString& link) {
        const QStringList parts = link.split(QLatin1Char(':'));
        if (parts.size() == 3)
            selectHead(parts[1].toInt(), parts[2].toInt());
    });

    auto* mapsBox = new QWidget(this);
    mapsBox_ = mapsBox;
    mapsBox->installEventFilter(this);
    auto* mapsLayout = new QHBoxLayout(mapsBox);
    mapsLayout->setContentsMargins(0, 0, 0, 0);
    // The induction map (the last) is shown only with induction scores: for a text said twice.
    for (int i = 0; i < kMaps; ++i) {
        maps_[i] = new ScoreMap(i, mapsBox);
        maps_[i]->setObjectName(QStringLiteral("scoreMap%1").arg(i));
        maps_[i]->onClick = [this](int l, int h) { selectHead(l, h); };
        maps_[i]->onMenu = [this](int l, int h, const QPoint& at) {
            emit headMenuRequested(l, h, at);  // no selectHead: that would open the head's steps
        };
        maps_[i]->cellTip = [this, i](int l, int h) {
            return tr("Layer %1, head %2: %3 %4")
                .arg(l)
                .arg(h)
                .arg(scoreTitle(i))
                .arg(
                    formatScore(scores_.at(scoreVector(scores_, i), l, h), kScoreInfo[i].decimals));
        };
        mapsLayout->addWidget(maps_[i]);
    }
    maps_[kMaps - 1]->hide();

    model_ = new HeadScoresModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(kSortRole);
    proxy_->setDynamicSortFilter(true);
    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    for (HeadScoreColumn c : {HeadScoreColumn::Layer, HeadScoreColumn::Head})
        table_->horizontalHeader()->setSectionResizeMode(int(c), QHeaderView::ResizeToContents);
    // No column narrower than its title's longest word and the sort arrow: a narrow page
    // scrolls the list sideways rather than cut "previous" to "reviou".
    {
        QFont bold = table_->horizontalHeader()->font();
        bold.setBold(true);
        const QFontMetrics fm(bold);
        int widest = 0;
        for (int c = 0; c < model_->columnCount(); ++c)
            for (const QString& word :
                 model_->headerData(c, Qt::Horizontal, Qt::DisplayRole)
                     .toString()
                     .split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
                widest = std::max(widest, fm.horizontalAdvance(word));
        table_->horizontalHeader()->setMinimumSectionSize(widest + 2 * fm.height());
    }
    table_->setAlternatingRowColors(true);
    table_->setToolTip(
        tr("Every head with its scores: click a column header to sort, a row to "
           "select that head"));
    table_->setColumnHidden(int(HeadScoreColumn::Induction), true);
    table_->setContextMenuPolicy(Qt::CustomContextMenu);
    table_->viewport()->installEventFilter(this);
    connect(table_, &QTableView::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = table_->indexAt(pos);
        if (!index.isValid())
            return;
        const auto [l, h] = rowHead(index.row());
        if (l >= 0)
            emit headMenuRequested(l, h, table_->viewport()->mapToGlobal(pos));
    });
    sortBy(HeadScoreColumn::PreviousToken, Qt::DescendingOrder);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (selecting_ || !current.isValid())
                    return;
                const auto [l, h] = rowHead(current.row());
                selectHead(l, h);
            });

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(mapsBox);
    splitter->addWidget(table_);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(legend_);
    layout->addWidget(best_);
    layout->addWidget(splitter, 1);

    job_->setErrorHandler([this](const QString& error) {
        computing_ = false;
        showScores();
        best_->setText(error.toHtmlEscaped());
    });
    showScores();
}

HeadSummaries::~HeadSummaries() = default;

QString HeadSummaries::legendText(const RepeatSpan& repeat) {
    const QString scores =
        tr("Rows are layers, columns heads. Previous token near 1: the head looks at the "
           "token just before. Distance near 1: the previous token; near 0: the token "
           "itself; large: far back. Low entropy: focused on a few tokens. High first-token "
           "weight: an attention sink.");
    // The induction score is only measured where the text repeats itself (headScores), so it
    // is explained only when its column is there, with the tokens it was measured on.
    if (!repeat.found())
        return scores;
    return scores + QLatin1Char(' ') +
           tr("Induction, on tokens %1 to %2, which repeat the tokens %3 before them: near 1 "
              "for heads that look at the token after the previous occurrence of the current "
              "one.")
               .arg(repeat.first)
               .arg(repeat.end - 1)
               .arg(repeat.period);
}

void HeadSummaries::setAblated(std::vector<HeadRef> heads) {
    model_->setAblated(std::move(heads));
}

QString HeadSummaries::legend() const {
    return legend_->text();
}

void HeadSummaries::clear() {
    sinkToken_.clear();
    job_->cancel();
    computing_ = false;
    scores_ = {};
    currentLayer_ = currentHead_ = -1;
    showScores();
    emit scoresChanged();
}

void HeadSummaries::setRun(std::shared_ptr<const DecoderRun> run) {
    if (!run || !run->model) {
        clear();
        return;
    }
    job_->cancel();
    // Where the tokenizer puts a beginning-of-text token first, the first-token weight is the
    // weight on it (the sink every text has), which the legend says.
    sinkToken_.clear();
    if (run->model->tokenizer && !run->ids.empty() &&
        run->ids.front() == run->model->tokenizer->addedAtStart())
        sinkToken_ = QString::fromStdString(run->model->tokenizer->token(run->ids.front()).display);
    if (run->attentionKept()) {
        // L x H x T weights to read: 2.5 ms at GPT-2 small and 1,024 tokens (model_ui_bench).
        scores_ = headScores(*run);
        computing_ = false;
    } else {
        scores_ = runSummaries(*run);
        computing_ = true;
        job_->run([run](const CancelToken& cancel) { return headScores(*run, &cancel); },
                  [this](HeadScores s) {
                      computing_ = false;
                      scores_ = std::move(s);
                      showScores();
                      emit scoresChanged();
                  });
    }
    showScores();
    emit scoresChanged();
}

void HeadSummaries::setScores(const HeadScores& scores) {
    job_->cancel();
    computing_ = false;
    scores_ = scores;
    showScores();
    emit scoresChanged();
}

void HeadSummaries::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        showScores();
}

bool HeadSummaries::isComputing() const {
    return computing_;
}

int HeadSummaries::droppedResults() const {
    return job_->droppedResults();
}

void HeadSummaries::showScores() {
    if (currentLayer_ >= scores_.layers || currentHead_ >= scores_.heads)
        currentLayer_ = currentHead_ = -1;
    for (ScoreMap* m : maps_) {
        m->setScores(&scores_, computing_ && m == maps_[0]);
        m->setCurrent(currentLayer_, currentHead_);
        m->updateGeometry();
    }
    maps_[kMaps - 1]->setVisible(!scores_.induction.empty());
    model_->setScores(scores_, computing_);
    fitMapsHeight();
    table_->setColumnHidden(int(HeadScoreColumn::Induction), scores_.induction.empty());
    QString legend = legendText(scores_.induction.empty() ? RepeatSpan{} : scores_.repeat);
    if (!sinkToken_.isEmpty())
        legend += QLatin1Char(' ') +
                  tr("Here the first token is %1, the beginning-of-text token the model's "
                     "tokenizer puts before every text: the first-token weight is the weight on "
                     "it.")
                      .arg(sinkToken_);
    legend_->setText(legend);
    const HeadPick best = strongestPreviousTokenHead(scores_);
    if (scores_.empty())
        best_->setText(tr("No model run yet."));
    else if (computing_)
        best_->setText(tr("Computing the previous-token scores\u2026"));
    else if (best.valid())
        // The link in the selection colour: the palette's link blue is unreadable on a dark
        // window.
        best_->setText(tr("Strongest previous-token head: <a style=\"color:%4\" "
                          "href=\"head:%1:%2\">layer %1, head %2</a> (%3)")
                           .arg(best.layer)
                           .arg(best.head)
                           .arg(formatScore(best.score, 2))
                           .arg(palette().color(QPalette::Highlight).name()));
    else
        best_->setText(tr("No previous-token scores (the text has one token)."));
    setCurrent(currentLayer_, currentHead_);
}

bool HeadSummaries::eventFilter(QObject* watched, QEvent* event) {
    if (watched == mapsBox_ && event->type() == QEvent::Resize)
        QTimer::singleShot(0, this, &HeadSummaries::fitMapsHeight);
    // A right-click asks for a row's menu: it must not make the row current, which opens its
    // head's steps (the context menu event comes all the same).
    if (table_ && watched == table_->viewport() && event->type() == QEvent::MouseButtonPress &&
        static_cast<QMouseEvent*>(event)->button() == Qt::RightButton)
        return true;
    return QWidget::eventFilter(watched, event);
}

// The maps' cells are square, so their width decides how tall they can usefully be; the list
// below gets the rest of the height instead of a gap under the maps.
void HeadSummaries::fitMapsHeight() {
    int h = 0;
    for (ScoreMap* m : maps_)
        if (!m->isHidden())
            h = std::max(h, m->heightForCells(m->width()));
    h = std::max(h, mapsBox_->minimumSizeHint().height());
    if (mapsBox_->maximumHeight() != h)
        mapsBox_->setMaximumHeight(h);
}

void HeadSummaries::setCurrent(int layer, int head) {
    if (layer < 0 || head < 0 || layer >= scores_.layers || head >= scores_.heads)
        layer = head = -1;
    currentLayer_ = layer;
    currentHead_ = head;
    for (ScoreMap* m : maps_)
        m->setCurrent(layer, head);
    selecting_ = true;
    if (layer < 0) {
        table_->clearSelection();
    } else {
        const QModelIndex source = model_->index(int(scores_.index(layer, head)), 0);
        const QModelIndex shown = proxy_->mapFromSource(source);
        // A current index set from outside never scrolls the list: a visible view would scroll
        // to it at once, a hidden one (the page behind another) when it is shown, so the page
        // would open past its top rows, the strongest heads. Keys and clicks still scroll.
        table_->setAutoScroll(false);
        table_->selectionModel()->setCurrentIndex(
            shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        table_->setAutoScroll(true);
    }
    selecting_ = false;
}

void HeadSummaries::selectHead(int layer, int head) {
    setCurrent(layer, head);
    if (currentLayer_ < 0)
        return;
    // Only a head picked here (a map tile, the strongest-head link) scrolls the list to its row:
    // a new result or the layer control leaves the list where the reader has it, which at first
    // is its top, the strongest heads.
    table_->scrollTo(table_->currentIndex());
    emit headSelected(currentLayer_, currentHead_);
}

void HeadSummaries::sortBy(HeadScoreColumn column, Qt::SortOrder order) {
    table_->sortByColumn(int(column), order);
}

std::pair<int, int> HeadSummaries::rowHead(int row) const {
    if (row < 0 || row >= proxy_->rowCount() || scores_.heads < 1)
        return {-1, -1};
    const int source = proxy_->mapToSource(proxy_->index(row, 0)).row();
    return {source / int(scores_.heads), source % int(scores_.heads)};
}

QAbstractItemModel* HeadSummaries::tableModel() const {
    return proxy_;
}

}  // namespace attn

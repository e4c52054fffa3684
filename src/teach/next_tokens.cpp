#include "teach/next_tokens.h"

#include "pipeline/model_request.h"

#include <QAbstractTableModel>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

#include "export/heatmap_data.h"
#include "pipeline/latest_job.h"
#include "tokenizer/tokenizer.h"

namespace attn {

namespace {

enum Column { RankColumn, TokenColumn, ProbabilityColumn, ColumnCount };

// Numbers in the reader's locale ("12,8%" and "5,529" in German), as the lesson texts and the
// model's validation loss write them.
QString percentText(double p) {
    if (!std::isfinite(p))
        return QStringLiteral("\u2014");
    const QLocale locale;
    if (p >= 0.001)
        return locale.toString(100.0 * p, 'f', p >= 0.1 ? 1 : 2) + QLatin1Char('%');
    return QLatin1Char('<') + locale.toString(0.1, 'f', 1) + QLatin1Char('%');
}

// "= 12.3%", or "< 0.1%" for a probability too small to print: "p = <0.1%" says two things.
QString probabilityRelation(double p) {
    const QString text = percentText(p);
    return text.startsWith(QLatin1Char('<')) ? QStringLiteral("< ") + text.mid(1)
                                             : QStringLiteral("= ") + text;
}

// The probability column: a bar as long as the probability (0 to 100 %) behind its value.
class ProbabilityDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override {
        QStyleOptionViewItem o = option;
        initStyleOption(&o, index);
        const QString text = o.text;
        o.text.clear();
        QStyle* style = o.widget ? o.widget->style() : nullptr;
        if (style)
            style->drawControl(QStyle::CE_ItemViewItem, &o, painter, o.widget);
        const double p = index.data(Qt::UserRole).toDouble();
        const QRect r = option.rect.adjusted(3, 3, -3, -3);
        // On a selected row the bar takes the selection's text colour, so it still shows.
        const bool selected = option.state & QStyle::State_Selected;
        QColor bar =
            option.palette.color(selected ? QPalette::HighlightedText : QPalette::Highlight);
        if (!(option.state & QStyle::State_Enabled))
            bar = option.palette.color(QPalette::Mid);
        bar.setAlpha(selected ? 90 : 150);
        painter->fillRect(QRect(r.left(), r.top(),
                                int(std::lround(r.width() * std::clamp(p, 0.0, 1.0))), r.height()),
                          bar);
        painter->setPen(option.palette.color(
            option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
        painter->setFont(o.font);
        painter->drawText(r.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
    }
};

}  // namespace

QString visibleTokenText(const std::string& display, bool partialUtf8) {
    QString s = QString::fromStdString(display);
    if (partialUtf8)
        return QStringLiteral("\u2039%1\u203a").arg(s);
    s.replace(QLatin1Char(' '), QChar(0x00B7));
    s.replace(QLatin1Char('\n'), QChar(0x21B5));
    s.replace(QLatin1Char('\r'), QStringLiteral("\\r"));
    s.replace(QLatin1Char('\t'), QChar(0x2192));
    // Every other control character (a model's vocabulary has them: \x00 to \x1f, DEL, C1)
    // draws as an empty box or nothing at all: written as its escape, "\x1b".
    return escapeControlCharacters(s);
}

QString visibleTokenText(int64_t id, const DecoderModel* model) {
    try {
        const Token t = modelToken(model, id);
        return visibleTokenText(t.display, t.partialUtf8);
    } catch (const std::out_of_range&) {
        return QStringLiteral("#%1").arg(id);
    }
}

// ---------------------------------------------------------------------------------------------

class NextTokensModel : public QAbstractTableModel {
  public:
    using QAbstractTableModel::QAbstractTableModel;

    void setPredictions(std::vector<TokenProbability> rows, int64_t actualId,
                        const DecoderModel* model, std::vector<double> before = {}) {
        beginResetModel();
        rows_ = std::move(rows);
        before_ = std::move(before);
        texts_.clear();
        for (const TokenProbability& t : rows_)
            texts_ << visibleTokenText(t.id, model);
        actualId_ = actualId;
        endResetModel();
    }
    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(rows_.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : ColumnCount;
    }
    QVariant data(const QModelIndex& index, int role) const override {
        if (!index.isValid() || index.row() >= int(rows_.size()))
            return {};
        const TokenProbability& t = rows_[size_t(index.row())];
        const bool actual = t.id == actualId_;
        switch (role) {
            case Qt::DisplayRole:
                if (index.column() == RankColumn)
                    return index.row() + 1;
                if (index.column() == TokenColumn)
                    return texts_[index.row()];
                if (size_t(index.row()) < before_.size())
                    return NextTokensPanel::tr("%1 (was %2)")
                        .arg(percentText(t.probability), percentText(before_[size_t(index.row())]));
                return percentText(t.probability);
            case Qt::UserRole:
                return t.probability;
            case Qt::FontRole: {
                // Token text in a fixed-pitch font, where · and ↵ line up and read clearly.
                QFont f = index.column() == TokenColumn
                              ? QFontDatabase::systemFont(QFontDatabase::FixedFont)
                              : QFont();
                f.setBold(actual);
                return f;
            }
            case Qt::TextAlignmentRole:
                return index.column() == RankColumn ? int(Qt::AlignRight | Qt::AlignVCenter)
                                                    : int(Qt::AlignLeft | Qt::AlignVCenter);
            case Qt::ToolTipRole: {
                QString tip = NextTokensPanel::tr("Token %1 \"%2\": probability %3")
                                  .arg(t.id)
                                  .arg(texts_[index.row()])
                                  .arg(QLocale().toString(t.probability, 'g', 4));
                if (size_t(index.row()) < before_.size())
                    tip += NextTokensPanel::tr("\nWith every head switched on: %1")
                               .arg(QLocale().toString(before_[size_t(index.row())], 'g', 4));
                if (actual)
                    tip += NextTokensPanel::tr("\nThe text really goes on with this token.");
                return tip + NextTokensPanel::tr("\nDouble-click to append it to the text.");
            }
            default:
                return {};
        }
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if (o != Qt::Horizontal)
            return {};
        if (role == Qt::DisplayRole) {
            switch (section) {
                case RankColumn:
                    return QStringLiteral("#");
                case TokenColumn:
                    return NextTokensPanel::tr("next token");
                default:
                    return NextTokensPanel::tr("probability");
            }
        }
        if (role == Qt::ToolTipRole) {
            switch (section) {
                case RankColumn:
                    return NextTokensPanel::tr("Rank: 1 = the most probable next token");
                case TokenColumn:
                    return NextTokensPanel::tr(
                        "The token's text: \u00b7 is a space, \u21b5 a "
                        "newline, \u2039hex\u203a part of a character");
                default:
                    return NextTokensPanel::tr("Softmax of the logits over the whole vocabulary");
            }
        }
        return {};
    }

  private:
    std::vector<TokenProbability> rows_;
    std::vector<double> before_;  // each row's probability with every head on, when ablated
    QStringList texts_;
    int64_t actualId_ = -1;
};

// ---------------------------------------------------------------------------------------------

TextLoss textLoss(const DecoderRun& run, const DecoderRun* baseline, const CancelToken* cancel) {
    const auto mean = [](const std::vector<double>& logp, std::vector<double>* each) {
        double sum = 0.0;
        for (double v : logp) {
            sum -= v;
            each->push_back(-v);
        }
        return logp.empty() ? std::numeric_limits<double>::quiet_NaN() : sum / double(logp.size());
    };
    TextLoss out;
    out.loss = mean(tokenLogProbabilities(run, cancel), &out.tokenLosses);
    if (baseline)
        out.lossBefore = mean(tokenLogProbabilities(*baseline, cancel), &out.tokenLossesBefore);
    return out;
}

// What a prediction job gives back.
struct NextTokensPanel::Prediction {
    std::vector<TokenProbability> top;
    std::vector<double> before;  // with heads switched off: each top token's p with every head
    int64_t actualId = -1;       // the text's own next token, when the position is not the last
    double actualProbability = 0.0;
    int64_t actualRank = 0;  // 1 = most probable
};

struct NextTokensPanel::Kept {
    std::map<int, Prediction> byPosition;  // of run_; emptied when run_ is another run
    std::optional<TextLoss> loss;          // of run_ (and baseline_)
};

NextTokensPanel::Prediction NextTokensPanel::predict(const DecoderRun& run,
                                                     const DecoderRun* baseline, int position,
                                                     const CancelToken& cancel) {
    // One product with the output head for everything the panel says about the position.
    const Tensor logits = nextTokenLogits(run, position);
    throwIfCancelled(&cancel);
    Prediction p;
    p.top = topTokens(logits, NextTokensPanel::kTopK);
    if (baseline) {
        const Tensor was = nextTokenLogits(*baseline, position);
        for (const TokenProbability& t : p.top)
            p.before.push_back(std::exp(tokenLogProbability(was, t.id)));
    }

    if (position + 1 >= run.tokens())
        return p;
    p.actualId = run.ids[size_t(position) + 1];
    p.actualRank = tokenRank(logits, p.actualId);
    p.actualProbability = std::exp(tokenLogProbability(logits, p.actualId));
    return p;
}

NextTokensPanel::NextTokensPanel(QWidget* parent)
    : QWidget(parent),
      job_(std::make_unique<LatestJob>()),
      lossJob_(std::make_unique<LatestJob>()),
      kept_(std::make_unique<Kept>()) {
    heading_ = new QLabel(this);
    heading_->setTextFormat(Qt::PlainText);
    heading_->setWordWrap(true);
    // Always two lines high: a heading that wraps (a long token) must not move the Append
    // buttons under it, which a student clicks again and again.
    heading_->setFixedHeight(2 * heading_->fontMetrics().lineSpacing());
    heading_->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    heading_->setToolTip(tr("The position whose next token the model predicts"));
    positionBox_ = new QSpinBox(this);
    positionBox_->setToolTip(tr("Which token to predict after (0 = the first token)"));
    positionBox_->setEnabled(false);
    connect(positionBox_, &QSpinBox::valueChanged, this, [this](int v) {
        if (v == position_ || !run_)
            return;
        setPosition(v);
        emit positionChanged(position_);
    });
    auto* positionLabel = new QLabel(tr("position"), this);
    positionLabel->setBuddy(positionBox_);
    positionLabel->setToolTip(positionBox_->toolTip());

    model_ = new NextTokensModel(this);
    list_ = new QTableView(this);
    list_->setModel(model_);
    list_->setItemDelegateForColumn(ProbabilityColumn, new ProbabilityDelegate(list_));
    list_->setSelectionBehavior(QAbstractItemView::SelectRows);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    list_->verticalHeader()->hide();
    list_->setShowGrid(false);
    list_->horizontalHeader()->setSectionResizeMode(RankColumn, QHeaderView::ResizeToContents);
    // The tokens take what they need, the probabilities the rest: with heads switched off each
    // says what it was ("99.5% (was 99.8%)"), which half the list's width cut short.
    list_->horizontalHeader()->setSectionResizeMode(TokenColumn, QHeaderView::ResizeToContents);
    list_->horizontalHeader()->setSectionResizeMode(ProbabilityColumn, QHeaderView::Stretch);
    list_->setToolTip(
        tr("The most probable next tokens: click to select, double-click to "
           "append to the text"));
    connect(list_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid() && !isComputing() && atLastPosition() &&
            size_t(index.row()) < predictions_.size())
            emit appendRequested(predictions_[size_t(index.row())].id);
    });
    connect(list_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { updateButtons(); });

    lossLabel_ = new QLabel(this);
    lossLabel_->setObjectName(QStringLiteral("textLoss"));
    lossLabel_->setTextFormat(Qt::PlainText);
    lossLabel_->setWordWrap(true);
    lossLabel_->setToolTip(
        tr("The text's loss: the mean over its tokens of -ln p(the token | the tokens before "
           "it), in nats. Lower means the model found the text more predictable."));
    actualLabel_ = new QLabel(this);
    actualLabel_->setTextFormat(Qt::PlainText);
    actualLabel_->setWordWrap(true);
    actualLabel_->setToolTip(
        tr("The token that really follows in the text, and how the model "
           "rated it"));
    appendTopButton_ = new QPushButton(tr("Append top token"), this);
    appendTopButton_->setToolTip(tr("Add the most probable next token to the text"));
    appendSelectedButton_ = new QPushButton(tr("Append selected"), this);
    appendSelectedButton_->setToolTip(tr("Add the token selected in the list to the text"));
    connect(appendTopButton_, &QPushButton::clicked, this, &NextTokensPanel::appendTop);
    connect(appendSelectedButton_, &QPushButton::clicked, this, &NextTokensPanel::appendSelected);

    auto* top = new QHBoxLayout;
    top->addWidget(heading_, 1);
    top->addWidget(positionLabel);
    top->addWidget(positionBox_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(appendTopButton_);
    buttons->addWidget(appendSelectedButton_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    // The buttons above the list: on a 720-pixel screen the list's end is below the left
    // column's fold, and Append is what a student generating text presses again and again.
    layout->addLayout(buttons);
    layout->addWidget(list_, 1);
    layout->addWidget(actualLabel_);
    layout->addWidget(lossLabel_);

    job_->setErrorHandler([this](const QString& error) {
        actual_.clear();
        actualLabel_->setText(error);
        list_->setEnabled(true);
        updateButtons();
    });
    lossJob_->setErrorHandler([this](const QString& error) { lossLabel_->setText(error); });
    lossDelay_.setSingleShot(true);
    lossDelay_.setInterval(kLossDelayMs);
    connect(&lossDelay_, &QTimer::timeout, this, [this] {
        if (!run_)
            return;
        lossJob_->run(
            [run = run_, baseline = baseline_](const CancelToken& cancel) {
                return textLoss(*run, baseline.get(), &cancel);
            },
            [this](const TextLoss& loss) {
                kept_->loss = loss;
                lossLabel_->setText(lossText(loss));
            });
    });
    clear();
}

NextTokensPanel::~NextTokensPanel() = default;

void NextTokensPanel::clear() {
    job_->cancel();
    lossJob_->cancel();
    lossDelay_.stop();
    kept_->byPosition.clear();
    kept_->loss.reset();
    run_.reset();
    baseline_.reset();
    lossLabel_->clear();
    position_ = -1;
    appendTopPending_ = false;
    predictions_.clear();
    actual_.clear();
    model_->setPredictions({}, -1, nullptr);
    {
        const QSignalBlocker block(positionBox_);
        positionBox_->setRange(0, 0);
        positionBox_->setEnabled(false);
    }
    heading_->setText(headingText());
    actualLabel_->clear();
    updateButtons();
}

void NextTokensPanel::setRun(std::shared_ptr<const DecoderRun> run,
                             std::shared_ptr<const DecoderRun> baseline) {
    if (!run || run->tokens() == 0) {
        clear();
        return;
    }
    const int T = int(run->tokens());
    const bool wasLast = !run_ || position_ < 0 || position_ >= int(run_->tokens()) - 1;
    if (run != run_ || baseline != baseline_) {  // both alive here: another address, another run
        kept_->byPosition.clear();
        kept_->loss.reset();
        lossLabel_->setText(tr("Loss on this text: computing\u2026"));
        // The loss multiplies every position by the output head: on GPT-2 small at 64 tokens
        // some 100 ms of both cores, which while typing would compete with the next
        // keystroke's forward (measured: keystroke median 77 -> 112 ms). So it waits until the
        // text has been still for a moment (lossDelay_), in a job of its own.
        lossJob_->cancel();
        lossDelay_.start();
    }
    if (run != run_)
        appendTopPending_ = false;  // asked of another text
    run_ = std::move(run);
    baseline_ = std::move(baseline);
    // Following the end of the text as it grows is what typing wants; a position picked in
    // the middle stays while it exists.
    position_ = wasLast || position_ >= T ? T - 1 : position_;
    {
        const QSignalBlocker block(positionBox_);
        positionBox_->setRange(0, T - 1);
        positionBox_->setValue(position_);
        positionBox_->setEnabled(true);
    }
    request();
}

void NextTokensPanel::setPosition(int position) {
    appendTopPending_ = false;  // the user went on reading: nothing is appended behind her back
    moveTo(position);
}

void NextTokensPanel::moveTo(int position) {
    if (!run_)
        return;
    const int T = int(run_->tokens());
    position = position < 0 ? T - 1 : std::min(position, T - 1);
    if (position == position_ && (isComputing() || !predictions_.empty()))
        return;
    position_ = position;
    {
        const QSignalBlocker block(positionBox_);
        positionBox_->setValue(position_);
    }
    request();
}

void NextTokensPanel::request() {
    predictions_.clear();
    actual_.clear();
    heading_->setText(headingText());
    actualLabel_->setText(tr("computing\u2026"));
    list_->setEnabled(false);  // the old list stays, greyed, until the new one is in
    updateButtons();
    const int position = position_;
    if (const auto it = kept_->byPosition.find(position); it != kept_->byPosition.end()) {
        job_->cancel();  // an answer for another position is no longer wanted
        showPrediction(it->second);
        return;
    }
    job_->run(
        [run = run_, baseline = baseline_, position](const CancelToken& cancel) {
            return predict(*run, baseline.get(), position, cancel);
        },
        [this, position](const Prediction& p) {
            kept_->byPosition[position] = p;
            showPrediction(p);
        });
}

void NextTokensPanel::showPrediction(const Prediction& p) {
    predictions_ = p.top;
    model_->setPredictions(p.top, p.actualId, run_->model.get(), p.before);
    list_->scrollToTop();  // a new list starts at its most probable token
    if (p.actualId >= 0)
        actual_ = tr("The text goes on with \"%1\": p %2, rank %3.")
                      .arg(visibleTokenText(p.actualId, run_->model.get()))
                      .arg(probabilityRelation(p.actualProbability))
                      .arg(p.actualRank);
    actualLabel_->setText(actual_);
    list_->setEnabled(true);
    heading_->setText(headingText());
    updateButtons();
    if (appendTopPending_ && atLastPosition() && !predictions_.empty()) {
        appendTopPending_ = false;
        emit appendRequested(predictions_.front().id);
    }
}

QString NextTokensPanel::lossText() const {
    return kept_->loss ? lossText(*kept_->loss) : QString();
}

QString NextTokensPanel::probabilityText(double p) {
    return percentText(p);
}

QString NextTokensPanel::lossText(const TextLoss& loss) {
    if (!std::isfinite(loss.loss))
        return tr("Loss: one token predicts nothing; type more to see the text's loss.");
    const QLocale locale;
    const QString now =
        tr("Loss on this text: %1 nats per token").arg(locale.toString(loss.loss, 'f', 3));
    if (!std::isfinite(loss.lossBefore))
        return now + QLatin1Char('.');
    const double change = loss.loss - loss.lossBefore;
    return tr("%1 (with every head: %2, %3%4).")
        .arg(now, locale.toString(loss.lossBefore, 'f', 3),
             change >= 0 ? QStringLiteral("+") : QStringLiteral("\u2212"),
             locale.toString(std::abs(change), 'f', 3));
}

QString NextTokensPanel::headingText() const {
    if (!run_ || position_ < 0)
        return tr("No model run yet.");
    // As the list shows tokens: a line break as ↵, never a real one in the heading.
    QString label = visibleTokenText(run_->ids[size_t(position_)], run_->model.get());
    if (label.size() > 24)
        label = label.left(23) + QChar(0x2026);
    const QString after = tr("After token %1 \"%2\"").arg(position_).arg(label);
    return isComputing() ? tr("%1: computing\u2026").arg(after)
                         : tr("%1, the model predicts:").arg(after);
}

bool NextTokensPanel::isComputing() const {
    return job_->busy();
}

int NextTokensPanel::droppedResults() const {
    return job_->droppedResults();
}

int NextTokensPanel::selectedRow() const {
    const QModelIndexList rows = list_->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.front().row();
}

void NextTokensPanel::selectRow(int row) {
    if (row < 0 || row >= model_->rowCount())
        list_->clearSelection();
    else
        list_->selectRow(row);
}

bool NextTokensPanel::atLastPosition() const {
    return run_ && position_ == int(run_->tokens()) - 1;
}

void NextTokensPanel::appendTop() {
    if (!run_)
        return;
    if (!atLastPosition()) {
        // The list is about a position inside the text; the text goes on after its end.
        appendTopPending_ = true;
        moveTo(-1);
        return;
    }
    if (!isComputing() && !predictions_.empty())
        emit appendRequested(predictions_.front().id);
}

void NextTokensPanel::appendSelected() {
    const int row = selectedRow();
    if (!isComputing() && atLastPosition() && row >= 0 && size_t(row) < predictions_.size())
        emit appendRequested(predictions_[size_t(row)].id);
}

void NextTokensPanel::updateButtons() {
    const bool ready = !isComputing() && !predictions_.empty();
    // A button that loses the keyboard focus as it is disabled hands it to the next control
    // in the tab order, and the scroll area around the panel scrolls to show that one (the
    // sampling bar's spin box): the buttons jumped away from under the pointer. The panel
    // itself takes the focus instead, where nothing moves.
    const auto setEnabled = [this](QPushButton* button, bool on) {
        if (!on && button->hasFocus())
            setFocus(Qt::OtherFocusReason);
        button->setEnabled(on);
    };
    setEnabled(appendTopButton_, run_ && (ready || !atLastPosition()));
    setEnabled(appendSelectedButton_, ready && atLastPosition() && selectedRow() >= 0);
    appendSelectedButton_->setToolTip(
        atLastPosition() || !run_
            ? tr("Add the token selected in the list to the text")
            : tr("The list shows what the model predicts after token %1, inside the text; "
                 "Append continues the text after its last token (position %2).")
                  .arg(position_)
                  .arg(run_->tokens() - 1));
    heading_->setText(headingText());
}

}  // namespace attn

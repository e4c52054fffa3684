#pragma once
// Finding the interesting heads of a trained model: per layer x head scores (head_scores.h) as
// small heatmaps (rows = layers, columns = heads) and as a list sortable by any score, so
// previous-token heads, induction heads and attention sinks stand out. A click on a heatmap
// cell or a list row selects that head.
//
// The previous-token score needs every layer's attention: read from the run when it kept it,
// otherwise recomputed layer by layer off the GUI thread (the map says "computing..." meanwhile).

#include <QWidget>
#include <memory>
#include <utility>

#include "engine/ablation.h"
#include "engine/head_scores.h"

class QAbstractItemModel;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace attn {

struct DecoderRun;
class LatestJob;
class HeadScoresModel;
class ScoreMap;

// The list's columns, in order.
enum class HeadScoreColumn {
    Layer,
    Head,
    PreviousToken,
    Entropy,
    Distance,
    FirstWeight,
    Induction
};

class HeadSummaries : public QWidget {
    Q_OBJECT
  public:
    explicit HeadSummaries(QWidget* parent = nullptr);
    ~HeadSummaries() override;

    void clear();
    // A finished run: entropy, distance and first-token weight at once; previous-token scores
    // at once when the run kept its attention, else computed off the GUI thread.
    void setRun(std::shared_ptr<const DecoderRun> run);
    // Scores computed elsewhere (e.g. with induction scores for a repeated text). Cancels a
    // previous-token computation still running for an earlier run.
    void setScores(const HeadScores& scores);
    const HeadScores& scores() const { return scores_; }
    // The previous-token scores are still being computed.
    bool isComputing() const;
    // Results of earlier runs thrown away because a newer one came in while they computed.
    int droppedResults() const;

    // Highlights a head in the maps and the list without emitting headSelected or scrolling the
    // list.
    void setCurrent(int layer, int head);
    int currentLayer() const { return currentLayer_; }
    int currentHead() const { return currentHead_; }

    // Sorts the list (the user can click a column header too). Default: previous-token score,
    // highest first.
    void sortBy(HeadScoreColumn column, Qt::SortOrder order);
    // The head shown in the list's row `row` as sorted now; (-1, -1) outside the list.
    std::pair<int, int> rowHead(int row) const;
    QTableView* table() const { return table_; }
    QAbstractItemModel* tableModel() const;  // the sorted list

    // Heads switched off (DESIGN.md, Asking a model why: ablation): marked "(off)" in red in the
    // list.
    void setAblated(std::vector<HeadRef> heads);

    // The short guide under the title: what each score shown says (induction only where the text
    // repeats itself, naming the tokens it was measured on).
    static QString legendText(const RepeatSpan& repeat = {});
    // The legend shown: legendText, and what the first token is when the tokenizer added it.
    QString legend() const;

  signals:
    // The user picked a head (a heatmap cell or a list row).
    void headSelected(int layer, int head);
    // A right-click on a head (a heatmap cell or a list row): the page offers what can be
    // done to it.
    void headMenuRequested(int layer, int head, const QPoint& globalPos);
    // New scores are in (setRun, setScores, or the previous-token scores arrived).
    void scoresChanged();

  protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void showScores();
    void fitMapsHeight();
    void selectHead(int layer, int head);

    QLabel* legend_ = nullptr;
    QLabel* best_ = nullptr;
    QWidget* mapsBox_ = nullptr;
    // previous token, entropy, distance, first token, induction (HeadScoreColumn's order).
    static constexpr int kMaps = 5;
    ScoreMap* maps_[kMaps] = {};
    QTableView* table_ = nullptr;
    HeadScoresModel* model_ = nullptr;
    QSortFilterProxyModel* proxy_ = nullptr;
    HeadScores scores_;
    bool computing_ = false;
    int currentLayer_ = -1;
    int currentHead_ = -1;
    bool selecting_ = false;  // setCurrent moving the list: not the user's choice
    std::unique_ptr<LatestJob> job_;
    QString sinkToken_;  // the beginning-of-text token the run starts with, else empty
};

}  // namespace attn

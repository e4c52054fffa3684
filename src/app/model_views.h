#pragma once
// Model mode's views beyond one layer's steps: every layer and head at a glance (the overview
// page), the per-head scores that find the interesting heads (the scores page), and what the
// model predicts after a position of the text, with Append (the predictions panel). They read
// the workspace's result and change only what it shows (layer, head) or its text.

#include <QWidget>
#include <memory>

class QLabel;

namespace attn {

struct GptRun;
struct LayerUpdate;
class HeadSummaries;
class ModelOverview;
class NextTokensPanel;
class Workspace;

// The layers x heads overview (with its own tools: each tile on its own scale, zoom, how many
// layers are done). It fills in layer by layer while a forward runs.
class OverviewPage : public QWidget {
    Q_OBJECT
  public:
    OverviewPage(Workspace* workspace, QWidget* parent = nullptr);
    ModelOverview* overview() const { return overview_; }
    void setFontScale(double scale);

  signals:
    // A tile was double-clicked (or Enter pressed on it): show that head's steps.
    void headOpened(int layer, int head);
    // The user asked to save the overview as a figure.
    void exportRequested();

  private:
    void onLayer(const LayerUpdate& update);
    void onResult();
    void followSelection();

    Workspace* workspace_;
    ModelOverview* overview_ = nullptr;
    quint64 filling_ = 0;  // the generation whose layers are arriving
    const GptRun* shownRun_ = nullptr;
};

// Per layer x head scores as small heatmaps and a sortable list: previous-token heads,
// induction heads and attention sinks stand out. A click opens the head's steps.
class HeadScoresPage : public QWidget {
    Q_OBJECT
  public:
    HeadScoresPage(Workspace* workspace, QWidget* parent = nullptr);
    HeadSummaries* summaries() const { return summaries_; }

  signals:
    void headOpened(int layer, int head);

  private:
    void onResult();

    Workspace* workspace_;
    HeadSummaries* summaries_ = nullptr;
    const GptRun* shownRun_ = nullptr;
};

// The next-token top-k for the selected position (the last token, or the row of a clicked
// cell), and Append, which adds the top or the chosen token to the text: a few appends
// generate text and show the attention of the generated tokens.
class PredictionPanel : public QWidget {
    Q_OBJECT
  public:
    PredictionPanel(Workspace* workspace, QWidget* parent = nullptr);
    NextTokensPanel* panel() const { return panel_; }
    QString note() const;

  private:
    void onResult();
    void append(qint64 tokenId);

    Workspace* workspace_;
    NextTokensPanel* panel_ = nullptr;
    QLabel* note_ = nullptr;
    const GptRun* shownRun_ = nullptr;
};

}  // namespace attn

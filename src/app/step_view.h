#pragma once
// The centre of the window: the pipeline strip, the selected step's caption and selectors, the
// heatmap (the largest thing on screen) with the heads beside it, the focus-on-one-query bar
// chart, the hover readout, and in presentation mode the step's one-line caption and a clicked
// cell's derivation. Everything it shows comes from the workspace.

#include <QWidget>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"

class QBoxLayout;
class QCheckBox;
class QComboBox;
class QMenu;
class QLabel;
class QSpinBox;
class QTextBrowser;
class QToolButton;

namespace attn {

class FocusRowView;
class HeadGrid;
class HeatmapView;
class StepStrip;
class Workspace;

class StepView : public QWidget {
    Q_OBJECT
  public:
    StepView(Workspace* workspace, QWidget* parent = nullptr);
    ~StepView() override;

    HeatmapView* heatmap() const { return heatmap_; }
    HeadGrid* headGrid() const { return heads_; }
    // What a head's context menu in the head grid offers (model mode: the head switches).
    void setHeadActions(std::function<void(QMenu*, int layer, int head)> add) {
        headActions_ = std::move(add);
    }
    StepStrip* strip() const { return strip_; }
    FocusRowView* focusRow() const { return focus_; }
    // The caption of the shown step as plain text ("weights  torch.softmax(...)  (1, 2, 6, 6)").
    QString caption() const;
    QString hoverText() const;
    // The figure as the user sees it, for export: the shown slice, and options with the print
    // colours (files stay white in a dark window) and the figure's own size.
    const HeatmapData& shownData() const;
    FigureOptions exportOptions() const;

    // Presentation mode: larger text, no hover readout or head grid, the step's caption in
    // words, and a clicked cell's derivation beside the heatmap.
    void setPresentation(bool on, double fontScale);
    bool isPresenting() const { return presenting_; }
    // Shows or hides the bar chart of one query's row (View > Focus on one query).
    void setFocusRowVisible(bool on);
    bool isFocusRowVisible() const;

    // Quiz mode (View > Quiz): the numbers and colours of the shown step (or of one row: the
    // clicked cell's, else the last) are hidden for the class to predict; a click on a hidden
    // cell reveals it, revealAll() the rest. Every step shown starts hidden again. The head
    // thumbnails and the row's bar chart, which would give the answer away, step aside.
    enum class Quiz { Off, Step, Row };
    void setQuiz(Quiz quiz);
    Quiz quiz() const { return quiz_; }
    void revealAll();
    int quizHiddenCells() const;  // cells still hidden in the shown matrix

  signals:
    void focusRowVisibleChanged(bool on);
    void quizChanged(attn::StepView::Quiz quiz);
    // The cells the quiz hides changed (a reveal, another step, row or quiz): what explains or
    // colours by the shown matrix hides them too (heatmap()->data().quizHidden).
    void quizCellsChanged();

  protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void placeHeads(bool beside);
    void choosePlacement();  // the heads beside the heatmap or under it, for the room
    void refresh();
    void refreshPipeline();
    void refreshSelectors(const class Step* step);
    void refreshFocusRow();
    void refreshDerivation();
    void showData(const HeatmapData& data);

    Workspace* workspace_;
    StepStrip* strip_ = nullptr;
    QLabel* caption_ = nullptr;
    QLabel* layerLabel_ = nullptr;
    QSpinBox* layer_ = nullptr;
    QLabel* headLabel_ = nullptr;
    QComboBox* head_ = nullptr;
    QLabel* batchLabel_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QComboBox* scale_ = nullptr;
    QToolButton* focusButton_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
    HeadGrid* heads_ = nullptr;
    std::function<void(QMenu*, int, int)> headActions_;
    QBoxLayout* bar_ = nullptr;         // the caption beside, or above, the selectors
    QBoxLayout* controls_ = nullptr;    // layer, head, batch entry, scale (and focus on one row)
    QBoxLayout* captionRow_ = nullptr;  // the caption (and focus on two rows)
    void fitBar();
    QBoxLayout* body_ = nullptr;  // heatmap and side_: a row, or a column when tall
    QBoxLayout* side_ = nullptr;  // heads and presentation derivation
    bool headsBeside_ = true;
    FocusRowView* focus_ = nullptr;
    QLabel* hover_ = nullptr;
    QLabel* sentence_ = nullptr;          // presentation: what the step does, in words
    QTextBrowser* derivation_ = nullptr;  // presentation: the clicked cell's arithmetic
    bool presenting_ = false;
    Quiz quiz_ = Quiz::Off;
    std::vector<unsigned char> revealed_;  // rows x cols of the shown matrix: revealed cells
    QString quizKey_;                      // the matrix revealed_ belongs to (step, head, batch)
    void applyQuiz();
    void refreshSide();
    void refreshHeadsVisible();
    int focusedRow(int rows) const;  // the clicked cell's row, else the last
    double fontScale_ = 1.0;
    struct Shown;
    std::unique_ptr<Shown> shown_;
};

// The rows of the weights step `step` (of `tokens` tokens) that `quiz`'s quiz hides a cell of:
// 1 for a withheld query row, for every head (the hidden head is one of them); empty when no
// quiz runs on that step. The Token view and the Text view withhold them alike.
std::vector<uint8_t> quizWithheldRows(const StepView* quiz, const QString& step, int tokens);

}  // namespace attn

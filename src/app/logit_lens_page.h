#pragma once
// Model mode's logit lens page (DESIGN.md, Asking a model why): for each layer and position, the
// token the model would predict if its computation stopped after that layer (the final norm and
// output head applied to the residual stream leaving the block): a layers x positions grid of top-1
// tokens coloured by their probability, the text's own next token in bold where it is the top one,
// and a click showing a cell's top 5. Computed off the GUI thread when the page is on screen.

#include <QWidget>
#include <memory>

class QLabel;
class QTableView;

namespace attn {

class LatestJob;
class LogitLensModel;
class Workspace;

class LogitLensPage : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kTopK = 5;

    LogitLensPage(Workspace* workspace, QWidget* parent = nullptr);
    ~LogitLensPage() override;
    QTableView* table() const { return table_; }
    // The lens of the shown run has arrived and is shown.
    bool isDrawn() const;
    // The top-1 token's text (as the next-token list writes it) and probability at a cell;
    // empty and -1 outside the lens.
    QString topToken(int layer, int position) const;
    double topProbability(int layer, int position) const;
    // The line under the grid: the selected cell's top 5.
    QString detailText() const;
    // The first layer whose top-1 token at `position` is the text's next token, -1 for none.
    int firstLayerPredictingText(int position) const;
    void selectCell(int layer, int position);

  protected:
    void showEvent(QShowEvent* event) override;

  public slots:
    void refresh();

  private:
    Workspace* workspace_;
    QLabel* intro_ = nullptr;
    QTableView* table_ = nullptr;
    LogitLensModel* model_ = nullptr;
    QLabel* detail_ = nullptr;
    std::unique_ptr<LatestJob> job_;
    const void* drawnRun_ = nullptr;
    const void* askedRun_ = nullptr;
};

}  // namespace attn

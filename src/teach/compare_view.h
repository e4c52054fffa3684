#pragma once
// Two heatmaps side by side and their difference (B − A, diverging colormap, symmetric about
// 0), with captions naming both configurations and the largest |difference|, and an "equal to
// 1e-6" badge when they match: e.g. the chapter's two masking methods, weights vs
// weights_renormalized. A and B share one colour scale unless asked otherwise, so the same
// colour means the same value in both (causal vs no mask does not mislead).

#include <QWidget>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "export/heatmap_data.h"

class QCheckBox;
class QFontMetrics;
class QCustomPlot;
class QLabel;

namespace attn {

struct Token;

// Two token x token maps of one text cut into different tokens (two models' tokenizers), made
// comparable: the text is split at every place where both tokenizations have a token boundary
// (the coarsest pieces both share); each piece's row is the query at its last token (which has
// seen the whole piece), each piece's column the weights on its tokens summed (so rows still
// sum to 1). A piece no key of which the query may see is masked. Tokens with no text (a <bos>
// the tokenizer adds) count with the first piece. Labels are the pieces' text. Empty when the
// tokens' bytes are not the same text, or a map is not tokens x tokens.
struct AlignedMaps {
    HeatmapData a, b;
    int pieces = 0;
};
std::optional<AlignedMaps> alignByText(const HeatmapData& a, const std::vector<Token>& tokensA,
                                       const HeatmapData& b, const std::vector<Token>& tokensB);

class CompareView : public QWidget {
    Q_OBJECT
  public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    // nameA/nameB name the configurations or steps ("weights (masked_fill)").
    void setData(const HeatmapData& a, const QString& nameA, const HeatmapData& b,
                 const QString& nameB);
    // Two steps of one trace for the same head and batch, e.g. "weights" and
    // "weights_renormalized"; masked cells marked from the trace's mask. False if a step is
    // missing.
    bool setSteps(const Trace& trace, const QStringList& tokens, const std::string& stepA,
                  const std::string& stepB, int head = 0, int batch = 0);
    void clear();
    void setFontScale(double scale);
    void setTolerance(double tol);   // default 1e-6
    void setDecimals(int decimals);  // the numbers in the cells (FigureOptions::decimals)
    // One colormap and value range for A and B (the default; the range spans both), or each
    // its own (more contrast in each, colours not comparable). Also a check box in the view.
    void setSharedColorScale(bool shared);
    bool sharedColorScale() const;
    // The value range A's and B's colours span.
    std::pair<double, double> colorRangeA() const;
    std::pair<double, double> colorRangeB() const;

    double maxAbsDifference()
        const;  // over cells finite or masked alike in both; inf if shapes differ
    bool shapesMatch() const;
    bool isEqual() const;  // shapes match and max |B − A| <= tolerance
    const HeatmapData& difference() const;
    QString captionText() const;  // the plain caption under the figures

    // B − A cell by cell; a cell masked in both stays masked, masked in one only becomes NaN.
    static HeatmapData differenceOf(const HeatmapData& a, const HeatmapData& b);

    QCustomPlot* plotA() const;
    QCustomPlot* plotB() const;
    QCustomPlot* plotDiff() const;

    // How the three figures share the view: side by side, A and B over the difference, or one
    // above the other. The view picks the one that gives the cells the most room for its size
    // (a side panel is narrow and tall, a floating window wide).
    enum class Arrangement { Row, Grid, Column };
    Arrangement arrangement() const;
    static Arrangement bestArrangement(QSize room, const QFontMetrics& font);

    // What hovering a figure's cell at `pos` (in the figure's plot) says: the cell's value in
    // A, B and B − A; empty off the cells.
    QString cellToolTipAt(int figure, QPoint pos) const;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // the cells' tooltips
    void resizeEvent(QResizeEvent* event) override;  // one cell size and captions for the size
    void changeEvent(QEvent* event) override;        // redraws in the new palette's colours

  private:
    struct Fit;
    void prepare(Fit* fit) const;
    void measure(Fit* fit) const;
    void arrange(Arrangement a);
    void rebuild();
    void updateCaptions();
    QString summaryText(bool colourBars) const;  // the caption and notes under the figures
    struct Private;
    std::unique_ptr<Private> d_;
};

}  // namespace attn

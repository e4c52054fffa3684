#pragma once
// One query token's row of a token x token step as a bar chart over the keys: how much that
// token draws from each key (weights) or how well it matches each (scores). Bars are coloured as
// the heatmap's cells, masked keys are hatched (never a bar of 0), and a long row scrolls.

#include <QWidget>
#include <memory>

#include "export/heatmap_data.h"

namespace attn {

class FocusRowView : public QWidget {
    Q_OBJECT
  public:
    explicit FocusRowView(QWidget* parent = nullptr);
    ~FocusRowView() override;

    // Shows row `row` of `data`, a bar per key in order. A row out of range or empty data
    // clears the view.
    void setRow(const HeatmapData& data, int row);
    void clear();
    bool isEmpty() const;
    int row() const;  // -1 when empty
    const HeatmapData& data() const;

    // The bars take the heatmap's colours: pass it the same colormap and scale.
    void setColormap(Colormap c);
    Colormap colormap() const;
    void setColorScale(ColorScale scale);
    ColorScale colorScale() const;
    void setLabelPositions(LabelPositions positions);  // key labels carry positions (Auto)
    void setFontScale(double scale);                   // presentation mode

    // What the view says above the bars: `row 3 "the": attention weights over the keys`.
    QString title() const;
    // Geometry in canvas() coordinates, for tests and hit tests: the bar of key `col` (the
    // hatched slot of a masked key), empty out of range; the label drawn under it ("" where
    // labels are thinned out).
    QRectF barRect(int col) const;
    QString keyLabel(int col) const;
    bool valuesShown() const;  // numbers on the bars (when they fit the bars' width)
    int keyAt(const QPoint& canvasPos) const;  // -1 outside the bars
    QWidget* canvas() const;  // the surface the bars are drawn on, scrolled when long

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void keyHovered(int col, float value);  // (-1, NaN) on leaving the bars
    void keyClicked(int col, float value);

  protected:
    void changeEvent(QEvent* event) override;  // follows the palette like the heatmap

  private:
    class Canvas;
    struct Private;
    std::unique_ptr<Private> d_;
};

}  // namespace attn

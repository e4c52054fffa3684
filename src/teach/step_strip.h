#pragma once
// The step strip (the window and the guide call it the pipeline strip, as UI.md does): the steps of
// a trace as one row of chips grouped by stage (input, Q K V, split heads, dot product, mask,
// scale, softmax, the simple masking method as a side branch off softmax, dropout, context,
// output). When the row is wider than the widget, the stages away from the current step collapse to
// one chip each, farthest first; when even that is too wide the row scrolls. It never wraps, so its
// height does not depend on its width.

#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "engine/trace.h"

namespace attn {

class StepStrip : public QWidget {
    Q_OBJECT
  public:
    // One stage as the strip shows it.
    struct Stage {
        QString key;          // "qkv", "heads", ...; "other" holds step ids the strip does not know
        QString caption;      // above the chips: "Q K V"
        QString foldedLabel;  // on the one chip of the folded stage: usually the caption
        QStringList stepIds;  // in trace order
        bool branch = false;  // a side branch (the simple masking method), not the main flow
    };

    explicit StepStrip(QWidget* parent = nullptr);

    // The steps of the current trace, in trace order. The current step stays current when the
    // new steps still have it, else no step is current. Emits nothing.
    void setSteps(const std::vector<StepInfo>& steps);
    // Emits nothing; an id the strip does not have leaves no step current.
    void setCurrentStep(const QString& id);
    QString currentStep() const;
    // Display order: stage by stage, trace order inside a stage (the trace order itself for the
    // steps of every variant). Left/Right walk this order.
    QStringList stepIds() const;
    const std::vector<StepInfo>& steps() const { return steps_; }  // display order
    void setFontScale(double scale);                               // presentation mode, e.g. 1.6
    double fontScale() const { return fontScale_; }

    const std::vector<Stage>& stages() const { return stages_; }
    // The key of the stage a step id belongs to, "other" when it is not a chapter-3 step.
    static QString stageKeyOf(const QString& id);
    // The text on a step's chip inside its stage ("queries", "Q split", "scaled", ...).
    static QString chipLabel(const QString& id);
    // The chip of a step as planned or computed: a model layer's own norm and feed-forward.
    static QString chipLabelOf(const StepInfo& step);
    // What a step is, in plain text: its title, PyTorch op and named shape (what screen readers
    // read for its chip; the tooltip says the same).
    QString stepDescription(const QString& id) const;

    bool isCollapsed(int stage) const;
    bool isScrolling() const { return geometry().scrolling; }
    // Where a click selects this step: its chip, or its stage's chip while the stage is
    // collapsed, in widget coordinates; empty when that chip is scrolled out of view.
    QRect clickableRect(const QString& id) const;
    // Where a stage's caption and chips show, in widget coordinates (clipped to the row).
    QRect stageRect(int stage) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    // The user picked a step (click, keys); setSteps and setCurrentStep never emit it.
    void stepSelected(const QString& id);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

  private:
    struct Metrics {
        QFont chipFont, captionFont;
        double chipHeight = 0, captionHeight = 0, padX = 0, chipGap = 0, separatorWidth = 0;
        double margin = 0, arrowWidth = 0, captionGap = 0;
        double chipWidth(const QString& text) const;
    };
    // A chip in content coordinates (x from the start of the row, before scrolling).
    struct Chip {
        int stage = -1;
        int step = -1;  // index into steps_; -1 for a collapsed stage's one chip
        QRectF rect;
    };
    struct Geometry {
        std::vector<Chip> chips;
        std::vector<QRectF> stageFrames;  // chips and caption of each stage
        std::vector<bool> collapsed;
        std::vector<double> separators;  // x centre of the arrow before stage i + 1
        double contentWidth = 0;
        bool scrolling = false;
    };
    enum class Arrow { None, Left, Right };

    Metrics metrics() const;
    Geometry computeGeometry() const;
    // The layout for the current width, computed when first needed after a change.
    const Geometry& geometry() const;
    void invalidateLayout();
    void scrollToCurrent() const;
    void scrollBy(double dx);
    double maxOffset() const;
    QRectF viewportRect() const;  // where the row shows, between the scroll arrows
    QRectF arrowRect(Arrow arrow) const;
    int chipAt(const QPointF& pos) const;  // index into geometry_.chips, -1 for none
    Arrow arrowAt(const QPointF& pos) const;
    QRectF chipInWidget(const Chip& chip) const;
    QString chipText(const Chip& chip) const;
    QString chipToolTip(const Chip& chip) const;
    void selectByUser(int step);
    void updateAccessibleText();

    std::vector<StepInfo> steps_;   // display order
    std::vector<int> stageOfStep_;  // parallel to steps_
    std::vector<Stage> stages_;
    std::vector<std::vector<int>> stageSteps_;  // indices into steps_
    std::vector<int> lastInStage_;              // step last current in each stage, -1 for none yet
    int current_ = -1;                          // index into steps_
    mutable int hoverChip_ = -1;                // index into geometry_.chips
    Arrow hoverArrow_ = Arrow::None;
    mutable double offset_ = 0;  // horizontal scroll, content pixels
    double fontScale_ = 1.0;
    mutable Geometry geometry_;
    mutable bool layoutDirty_ = true;
    mutable int laidOutWidth_ = -1;
};

}  // namespace attn

#pragma once
// A BertViz-style head view: the tokens in two columns (queries left, keys right) joined by lines
// whose opacity is the attention weight, for one head or all heads at once in distinct
// colour-blind-safe colours (Okabe-Ito). Hovering a token keeps only its lines.

#include <QColor>
#include <QStringList>
#include <QWidget>
#include <string>
#include <vector>

namespace attn {

struct Trace;

// The per-head T*T matrices TokenView::setAttention takes, from an attention step of a trace
// ("weights", "dropped_weights", ...) for one batch entry. Empty if the step is not T x T.
std::vector<std::vector<float>> tokenViewWeights(const Trace& trace, int batch = 0,
                                                 const std::string& stepId = "weights");

class TokenView : public QWidget {
    Q_OBJECT
  public:
    enum class Side { None, Query, Key };
    struct Hit {
        Side side = Side::None;
        int index = -1;
        bool operator==(const Hit&) const = default;
    };
    // One line the view draws: query row -> key col of a head, alpha in [0, 1].
    struct Line {
        int head = 0;
        int query = 0;
        int key = 0;
        float weight = 0;
    };

    explicit TokenView(QWidget* parent = nullptr);

    // h matrices of T*T weights, row-major (row = query, col = key). Non-finite weights draw
    // nothing. Resets the hover.
    void setAttention(const std::vector<std::vector<float>>& perHeadWeights,
                      const QStringList& tokens);
    void setHead(int head);  // -1 = all heads
    int head() const { return head_; }
    int headCount() const { return int(weights_.size()); }
    int tokenCount() const { return int(tokens_.size()); }
    void setFontScale(double scale);  // presentation mode

    // The token under a point in widget coordinates.
    Hit hitTest(const QPointF& pos) const;
    // Isolates one token's lines (what hovering does); Side::None shows all again.
    void setHovered(const Hit& hit);
    Hit hovered() const { return hovered_; }
    // The lines that are drawn now (head selection and hover isolation applied, weight > 0).
    std::vector<Line> visibleLines() const;
    // The box of a token label in widget coordinates.
    QRectF tokenRect(Side side, int index) const;

    // Okabe-Ito, without black: colour of head h (wraps around).
    static QColor headColor(int head);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void tokenHovered(int side /* 0 none, 1 query, 2 key */, int index);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    struct Layout {
        double top = 0, rowH = 0, leftX = 0, rightX = 0, colW = 0, headerY = 0;
        bool legend = false;
    };
    Layout layout() const;
    QFont tokenFont() const;
    double legendWidth() const;

    std::vector<std::vector<float>> weights_;
    QStringList tokens_;
    int head_ = -1;
    Hit hovered_;
    double fontScale_ = 1.0;
};

}  // namespace attn

#pragma once
// A BertViz-style head view: the tokens in two columns (queries left, keys right) joined by lines
// whose opacity is the attention weight, for one head or all heads at once in distinct
// colour-blind-safe colours (Okabe-Ito). Hovering a token keeps only its lines.
//
// At a thousand tokens and twelve heads there are twelve million weights, far more lines than a
// screen can show or a frame can draw. So the view draws, per head and query, only the strongest
// links (at most kLinksPerQuery, none below kMinLinkWeight) and says so; it renders those lines
// into an image on a worker thread and paints the image, and it paints only the token rows in
// view (long inputs scroll). The GUI thread never touches the T x T weights while painting.

#include <QColor>
#include <QImage>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/step_ids.h"

class QScrollBar;

namespace attn {

class LatestJob;

struct Trace;

// The per-head T*T matrices TokenView::setAttention takes, from an attention step of a trace
// ("weights", "dropped_weights", ...) for one batch entry. Empty if the step is not T x T.
std::vector<std::vector<float>> tokenViewWeights(const Trace& trace, int batch = 0,
                                                 const std::string& stepId = step_id::kWeights);
// Which keys each query may not see, T*T row-major (row = query, 1 = hidden), from the trace's
// "mask" step; empty when the configuration masks nothing.
std::vector<uint8_t> tokenViewHidden(const Trace& trace);

// The attention step the token views draw for the step shown: a weight step as it is
// (weights, weights_tril, dropped_weights, ...), anything else the attention weights.
std::string tokenViewStepId(const Trace& trace, const std::string& shownStepId);

// What the token and text views draw of one weight step, cut from a trace (off the GUI thread:
// at 1,000 tokens and 12 heads the matrices are 48 MB): tokenViewWeights, and tokenViewHidden
// except for weights_unmasked, the simple method's softmax before any mask.
struct TokenViewInput {
    std::vector<std::vector<float>> weights;
    std::vector<uint8_t> hidden;
};
TokenViewInput tokenViewInput(const Trace& trace, int batch, const std::string& stepId);

// The labels the view shows: each token as an axis shows it, and where the same label stands
// more than once, its position in front ("3·the"), so "the" at 3 and "the" at 7 can be told
// apart.
QStringList tokenViewLabels(const QStringList& tokens);

// One line of the view: query row -> key column of a head, weight in (0, 1].
struct AttentionLink {
    int head = 0;
    int query = 0;
    int key = 0;
    float weight = 0;
    bool operator==(const AttentionLink&) const = default;
};

// The links worth drawing and how many were left out.
struct LinkSelection {
    // Per head and query, its strongest keys: at most perQuery, weight >= minWeight, hidden
    // keys and weights that are not finite and positive never. Ordered by head, query, then
    // descending weight (ties: lower key first).
    std::vector<AttentionLink> links;
    int64_t omitted = 0;  // positive, visible weights not among the links
};
LinkSelection selectAttentionLinks(const std::vector<std::vector<float>>& perHeadWeights,
                                   int tokens, const std::vector<uint8_t>& hidden, int perQuery,
                                   float minWeight);

class TokenView : public QWidget {
    Q_OBJECT
  public:
    // The strongest links per query and head that are drawn, and the weakest one that is.
    static constexpr int kLinksPerQuery = 8;
    static constexpr float kMinLinkWeight = 0.01f;

    enum class Side { None, Query, Key };
    struct Hit {
        Side side = Side::None;
        int index = -1;
        bool operator==(const Hit&) const = default;
    };
    using Line = AttentionLink;

    explicit TokenView(QWidget* parent = nullptr);
    ~TokenView() override;

    // h matrices of T*T weights, row-major (row = query, col = key), and optionally which keys
    // each query may not see (T*T, 1 = hidden; tokenViewHidden): those read "masked", never
    // "0.00". Pass the matrices with std::move: at T = 1,000 a copy costs the GUI thread
    // milliseconds. Resets the hover and the scroll position.
    void setAttention(std::vector<std::vector<float>> perHeadWeights, const QStringList& tokens,
                      std::vector<uint8_t> hidden = {});
    void setHead(int head);  // -1 = all heads
    int head() const { return head_; }
    // Queries whose weights a quiz hides (one flag per token; empty: none): their rows are
    // withheld in every head and in all heads at once (the hidden head is one of them), so no
    // line, readout or tooltip shows them until the quiz reveals them.
    void setQuizRows(std::vector<uint8_t> rows);
    bool isWithheld(int query) const;
    int headCount() const;
    int tokenCount() const { return int(tokens_.size()); }
    void setFontScale(double scale);  // presentation mode
    QStringList labels() const { return labels_; }

    // The token under a point in widget coordinates (only rows in view count).
    Hit hitTest(const QPointF& pos) const;
    // Isolates one token's lines (what hovering does); Side::None shows all again.
    void setHovered(const Hit& hit);
    Hit hovered() const { return hovered_; }
    // The lines drawn now: the selected links (selectAttentionLinks) of the heads shown, only
    // the hovered token's while one is hovered.
    std::vector<Line> visibleLines() const;
    // The box of a token label in widget coordinates (outside the widget when scrolled away).
    QRectF tokenRect(Side side, int index) const;
    // Brings a token's row into view.
    void scrollToToken(int index);
    int scrollPosition() const;

    // What the view writes for the weight of query -> key in a head: "0.55", "<0.01" for a weight
    // that rounds to zero, "masked" for a hidden key, "?" for a query the quiz withholds. Every
    // readout (labels next to the tokens, tooltips) uses it.
    QString weightText(int head, int query, int key) const;
    // The tooltip of a token: its label and position, for a query its strongest keys in the
    // head shown and how many keys the mask hides from it, for a key how many queries it is
    // hidden from.
    QString toolTipText(const Hit& hit) const;
    // The line above the column titles that says what is left out: "The 8 strongest links per
    // token ...", and, when the rows scroll, that hovering a token shows all of its links (the
    // picture leaves out links to rows far out of view); empty when neither applies.
    QString linkNote() const;

    // True once the lines of the current attention, head, size and scroll position are in the
    // image the view paints (they are rendered off the GUI thread).
    bool linesReady() const;
    // A render is out on a worker thread.
    bool isRendering() const { return renderRunning_; }
    // Renders whose result was thrown away because the view changed while they ran.
    int droppedRenders() const { return droppedRenders_; }

    // Okabe-Ito, without black: colour of head h (wraps around).
    static QColor headColor(int head);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void tokenHovered(int side /* 0 none, 1 query, 2 key */, int index);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

  public:
    // What a render needs, all values (the matrices are shared, never written after
    // setAttention), and what it gives back. Public so the worker function can be a free
    // function of the .cpp; not part of the view's interface.
    struct Data;
    struct RenderJob;
    struct RenderResult;

  private:
    struct Layout {
        QFont font, smallFont;
        double rowH = 0, colW = 0, leftX = 0, rightX = 0, legendY = 0, noteY = 0, headerY = 0;
        double rowsTop = 0, rowsBottom = 0;  // the scrolling rows area, widget coordinates
        double contentH = 0;                 // all rows
        double lineH = 0;                    // one text line of the font
        bool legend = false, legendCompact = false, note = false;
        QSize size;
    };
    const Layout& layout() const;  // for the current size and settings, computed when needed
    void invalidate();             // settings changed: new layout and new lines
    QFont tokenFont() const;
    QString legendLabel(int head, bool compact) const;
    double legendWidth(const QFont& font, bool compact) const;
    void updateScrollBar() const;
    int firstVisibleRow() const;
    int lastVisibleRow() const;
    const LinkSelection* readySelection() const;
    std::vector<AttentionLink> visibleLinesOf(int head, int query) const;
    void requestRender();
    void startRender();
    void acceptRender(RenderResult result);
    bool imageCoversView() const;
    std::vector<QRgb> lineColors() const;
    float weightAt(int head, int query, int key) const;
    bool isHidden(int query, int key) const;

    std::shared_ptr<const Data> data_;
    std::vector<uint8_t> quizRows_;
    QStringList tokens_;
    QStringList labels_;
    int head_ = -1;
    Hit hovered_;
    double fontScale_ = 1.0;
    QScrollBar* scrollBar_ = nullptr;

    mutable Layout layout_;
    mutable bool layoutDirty_ = true;
    mutable double colWCache_ = -1;  // widest label; only new tokens or fonts change it

    // Off-thread rendering. renderKey_ changes with everything that changes the picture except
    // scrolling; a result with an older key is dropped. One render runs at a time, a request
    // made meanwhile runs when it is done.
    quint64 renderKey_ = 1;
    quint64 dataGeneration_ = 1;  // changes with the attention only: the selection's stamp
    bool renderRunning_ = false;
    bool renderWanted_ = false;
    int droppedRenders_ = 0;
    mutable std::shared_ptr<const LinkSelection> selection_;  // of data_, once known
    QImage image_;
    quint64 imageKey_ = 0;
    double imageTop_ = 0;                   // content y of the image's top row
    std::unique_ptr<LatestJob> renderJob_;  // renders on the thread pool
};

}  // namespace attn

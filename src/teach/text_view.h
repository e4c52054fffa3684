#pragma once
// The sentence as text, each token's background coloured by the attention it gets from one
// query token (CircuitsVis's coloured tokens): for one head or the mean of all heads. A click on
// a token makes it the query; the query is outlined; masked keys stay uncoloured and grey. The
// colour of a key is its weight over the row's strongest weight (said in the caption), so a long
// row of small weights still shows where the query looks.

#include <QString>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <vector>

namespace attn {

class TextView : public QWidget {
    Q_OBJECT
  public:
    explicit TextView(QWidget* parent = nullptr);

    // Per-head T*T weights (tokenViewWeights), the tokens' text as the tokenizer gives it
    // (leading spaces kept) and which keys each query may not see (tokenViewHidden; empty:
    // none). The query stays when it is still a token, else it becomes the last token.
    void setAttention(std::vector<std::vector<float>> weights, const QStringList& tokens,
                      std::vector<uint8_t> hidden = {});
    int tokenCount() const { return int(tokens_.size()); }
    int headCount() const { return int(weights_.size()); }

    // Instead of attention, one value per token (NaN: none, drawn uncoloured): 0 .. the largest
    // in the attention colour (sequential), or -m .. m from blue through white to red
    // (diverging), with the caption said above the text. Empty values: attention again.
    void setTokenValues(std::vector<double> values, bool diverging, const QString& caption);
    bool showsValues() const { return !values_.empty(); }
    double valueOf(int token) const;

    // The queries whose rows a quiz hides (one flag per token; empty: none): with such a query
    // the text stays uncoloured and the caption says why, so the text never gives the answer.
    void setQuizRows(std::vector<uint8_t> rows);
    bool isWithheld() const;  // the query's row is hidden by the quiz

    void setQuery(int query);
    int query() const { return query_; }
    void setHead(int head);  // -1: the mean over the heads
    int head() const { return head_; }
    void setFontScale(double scale);

    // The weight key `key` gets from the query (of the head shown, or the mean); 0 if hidden, or
    // withheld by a quiz.
    float weightOf(int key) const;
    bool isHidden(int key) const;
    // The row's strongest visible weight: the colour scale's top.
    float rowMaximum() const;
    // The fill of a key's box (the view's colours: light or dark palette).
    QColor fillOf(int key) const;
    // What the caption under the text says: query, head and the colour scale.
    QString caption() const;
    // Where a token's box is drawn, in widget coordinates (empty out of range); the token at a
    // point, -1 between tokens.
    QRect tokenRect(int token) const;
    int tokenAt(const QPoint& pos) const;

    // The view as an image or an SVG file for slides, at its size in the view's colours
    // (white-background print colours when `print`). False when the file cannot be written.
    bool saveImage(const QString& path, bool print = true) const;

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

  signals:
    void queryChanged(int query);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    struct Box {
        QRect rect;
        QString text;
    };
    std::vector<Box> layoutFor(int width, int* height) const;
    void relayout();
    void paintTo(QPainter& p, const QPalette& palette) const;

    std::vector<std::vector<float>> weights_;
    QStringList tokens_;
    std::vector<uint8_t> hidden_;
    std::vector<uint8_t> quizRows_;
    std::vector<double> values_;
    bool diverging_ = false;
    QString valuesCaption_;
    QColor fillFor(int key, const QColor& base) const;
    int query_ = -1;
    int head_ = -1;
    double fontScale_ = 1.0;
    std::vector<Box> boxes_;
    int contentHeight_ = 0;
};

}  // namespace attn

#pragma once
// The tokens of the sentence as a flow of small chips: the token text on top, its id below.
// Tokens that are only part of a UTF-8 character show their bytes in hex.

#include <QLabel>
#include <QWidget>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace attn {

class FlowLayout;

class TokenChips : public QWidget {
    Q_OBJECT
  public:
    explicit TokenChips(QWidget* parent = nullptr);

    void setTokens(const std::vector<Token>& tokens);
    void setMessage(const QString& text);  // instead of chips, e.g. for file input
    int chipCount() const { return shown_; }
    int tokenCount() const { return total_; }
    // Text of chip i (for tests): "Your\n7120".
    QString chipText(int i) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int w) const override;

    static constexpr int kMaxChips = 400;

  protected:
    // Keeps the minimum height at heightForWidth(width()): layouts inside a scroll area (the
    // settings column) size by minimum heights and would otherwise cut the last rows of chips.
    void resizeEvent(QResizeEvent* event) override;

  private:
    void fitHeight();
    FlowLayout* flow_ = nullptr;
    std::vector<QLabel*> chips_;
    QLabel* more_ = nullptr;
    int shown_ = 0;
    int total_ = 0;
};

}  // namespace attn

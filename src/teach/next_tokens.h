#pragma once
// What a trained model predicts after a position of the text: the k most probable next tokens
// with their probabilities as bars, the token text made visible (a leading space as ·, a
// newline as ↵), and buttons that append the top or the selected token to the text.
//
// The top-k is a product of the vocabulary by the hidden state (50,257 x 768 at GPT-2 small,
// some 20 ms): it runs off the GUI thread, and only the answer for the latest run and position
// is shown ("computing..." meanwhile).

#include <QString>
#include <QStringList>
#include <QTimer>
#include <QWidget>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/decoder_forward.h"

class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace attn {

class LatestJob;
class NextTokensModel;

// A token's text as the panel shows it: spaces as ·, newlines as ↵, tabs as →, a carriage
// return as \r and any other control character as its escape ("\x1b"), a token that is
// only part of a UTF-8 character as its bytes in hex in angle brackets ("‹e4 bd›"), and "#id"
// for an id outside the vocabulary. The token is `model`'s (its own tokenizer's, else GPT-2's).
QString visibleTokenText(int64_t id, const DecoderModel* model = nullptr);
// The same rules for a token's display text (tokenizer.h's Token::display).
QString visibleTokenText(const std::string& display, bool partialUtf8);

// The text's loss (DESIGN.md, Asking a model why): each token's -ln p(token | the tokens before
// it), in nats, and their mean; with heads switched off, the same with every head on. Token 0
// predicts nothing, so the lists hold T - 1 values (loss of token i + 1 at i); a one-token text's
// loss is NaN.
struct TextLoss {
    double loss = std::numeric_limits<double>::quiet_NaN();
    double lossBefore = std::numeric_limits<double>::quiet_NaN();  // NaN without a baseline
    std::vector<double> tokenLosses;
    std::vector<double> tokenLossesBefore;
};
TextLoss textLoss(const DecoderRun& run, const DecoderRun* baseline = nullptr,
                  const CancelToken* cancel = nullptr);

class NextTokensPanel : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kTopK = 10;

    explicit NextTokensPanel(QWidget* parent = nullptr);
    ~NextTokensPanel() override;

    // The run to predict from (its ids name the tokens: "after token 7 'cat'"). Keeps the
    // position when it is still inside the text, else goes to the last token. Null: clear.
    // With heads switched off, `baseline` is the same text with every head on: each
    // probability and the loss then say what they were ("was").
    void setRun(std::shared_ptr<const DecoderRun> run,
                std::shared_ptr<const DecoderRun> baseline = nullptr);
    void clear();
    // The position whose next token is predicted (0-based; clamped to the text; -1 = last).
    void setPosition(int position);
    int position() const { return position_; }

    // The predictions shown, most probable first (empty while computing).
    const std::vector<TokenProbability>& predictions() const { return predictions_; }
    bool isComputing() const;
    // Predictions thrown away because the run or position changed while they computed.
    int droppedResults() const;
    // The row selected in the list, -1 for none.
    int selectedRow() const;
    void selectRow(int row);
    // The line above the list: "After token 7 'cat', the model predicts:".
    QString headingText() const;
    // What the text really continues with, when the position is not the last: "The text goes
    // on with '·sat' (p = 0.12, rank 3)". Empty otherwise.
    QString actualText() const { return actual_; }
    // The line under the list: "Loss on this text: 2.456 nats per token (with every head:
    // 2.892, −0.436)."; empty until computed.
    QString lossText() const;
    static QString lossText(const TextLoss& loss);
    // A probability as the list writes it: "12.8%", "0.35%", "<0.1%" (in the reader's locale).
    static QString probabilityText(double p);

    // Emit appendRequested for the most probable token after the text's last position, or for
    // the selected row of the last position's list (nothing when there is none). Append
    // continues the text: with another position picked (to read its predictions) the top
    // token waits for the last position's prediction, and Append selected is off, since its
    // list is about the middle of the text.
    void appendTop();
    void appendSelected();

  signals:
    void appendRequested(int64_t tokenId);
    // The user changed the position in the panel's own box.
    void positionChanged(int position);

  private:
    void request();
    void updateButtons();
    void moveTo(int position);
    bool atLastPosition() const;

    QLabel* heading_ = nullptr;
    QSpinBox* positionBox_ = nullptr;
    QTableView* list_ = nullptr;
    NextTokensModel* model_ = nullptr;
    QLabel* actualLabel_ = nullptr;
    QLabel* lossLabel_ = nullptr;
    QPushButton* appendTopButton_ = nullptr;
    QPushButton* appendSelectedButton_ = nullptr;

    std::shared_ptr<const DecoderRun> run_;
    std::shared_ptr<const DecoderRun> baseline_;
    int position_ = -1;
    // Append top token was asked for while another position was shown: the last position's top
    // token is appended as soon as its prediction is in.
    bool appendTopPending_ = false;
    std::vector<TokenProbability> predictions_;
    QString actual_;
    std::unique_ptr<LatestJob> job_;
    std::unique_ptr<LatestJob> lossJob_;
    QTimer lossDelay_;  // starts lossJob_ once the run has stayed the same for kLossDelayMs
    static constexpr int kLossDelayMs = 250;
    // Each position's predictions for run_, kept while the run is the same (another layer or
    // step reuses it): going back to a position shows them at once.
    struct Prediction;
    struct Kept;
    std::unique_ptr<Kept> kept_;
    static Prediction predict(const DecoderRun& run, const DecoderRun* baseline, int position,
                              const CancelToken& cancel);
    void showPrediction(const Prediction& p);
};

}  // namespace attn

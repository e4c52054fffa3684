#pragma once
// Model mode's predictions: what the model predicts after a position of the text, with Append.

#include <QWidget>

class QLabel;
class QSpinBox;

namespace attn {

struct DecoderRun;
class AblationBar;
class NextTokensPanel;
class SamplingBar;
class Workspace;

// The next-token top-k for the selected position (the last token, or the row of a clicked
// cell), and Append, which adds the top or the chosen token to the text: a few appends
// generate text and show the attention of the generated tokens.
class PredictionPanel : public QWidget {
    Q_OBJECT
  public:
    PredictionPanel(Workspace* workspace, QWidget* parent = nullptr);
    NextTokensPanel* panel() const { return panel_; }
    AblationBar* ablationBar() const { return ablationBar_; }
    SamplingBar* samplingBar() const { return sampling_; }
    QString note() const;

  private:
    void onResult();
    void append(qint64 tokenId);

    Workspace* workspace_;
    AblationBar* ablationBar_ = nullptr;
    NextTokensPanel* panel_ = nullptr;
    SamplingBar* sampling_ = nullptr;
    QLabel* note_ = nullptr;
    const DecoderRun* shownRun_ = nullptr;
};

}  // namespace attn

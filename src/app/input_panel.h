#pragma once
// The Input panel: the sentence, the tokenizer, the preset, where x and the weights come from,
// and the tokens as chips. It edits the workspace's settings and shows their problems beside
// its controls.

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QScrollArea;

namespace attn {

class FieldErrors;
class TokenChips;
class Workspace;
struct Settings;

class InputPanel : public QWidget {
    Q_OBJECT
  public:
    InputPanel(Workspace* workspace, QWidget* parent = nullptr);

    // The problem shown beside a control of this panel ("input", "embeddings", "weights").
    QString fieldError(const QString& field) const;
    TokenChips* tokenChips() const { return chips_; }
    QPlainTextEdit* textEdit() const { return text_; }
    // Puts the cursor in the sentence with its text selected (Edit > Edit the sentence).
    void focusText();
    // Why a file could not be opened, beside the control it was for ("input" for a text file,
    // "embeddings", "weights"); an empty text clears it.
    void setFileError(const QString& field, const QString& text);

    // The fields this panel shows the problems of.
    static const QStringList& fields();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void fromSettings();
    void showText();
    void onTextEdited();
    void onTokenizer(int index);
    void onPreset(int index);
    void onTokens();
    void fitChipsHeight();
    QString sourceText(const Settings& s) const;

    Workspace* workspace_;
    QPlainTextEdit* text_ = nullptr;
    QComboBox* tokenizer_ = nullptr;
    QComboBox* preset_ = nullptr;
    QFormLayout* form_ = nullptr;  // tokenizer and preset rows
    QLabel* source_ = nullptr;
    QLabel* notes_ = nullptr;
    QScrollArea* chipsScroll_ = nullptr;
    TokenChips* chips_ = nullptr;
    FieldErrors* errors_ = nullptr;
};

}  // namespace attn

#pragma once
// The PyTorch code of the current configuration: read-only, monospace, with simple Python
// highlighting, a Copy button and a caption saying the code gives the same `output`.

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <QWidget>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTextDocument;

namespace attn {

class PythonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
  public:
    enum class Role { Keyword, Builtin, Number, String, Comment, Decorator };
    explicit PythonHighlighter(QTextDocument* parent);
    // The format a role is drawn with (for tests and theming).
    QTextCharFormat format(Role role) const;
    // Role of the highlighted text at (block, position in block), if any.
    static bool isKeyword(const QString& word);

  protected:
    void highlightBlock(const QString& text) override;

  private:
    struct Rule {
        QRegularExpression pattern;
        Role role;
    };
    std::vector<Rule> rules_;
    QTextCharFormat formats_[6];
};

class PyTorchPanel : public QWidget {
    Q_OBJECT
  public:
    explicit PyTorchPanel(QWidget* parent = nullptr);
    void setCode(const QString& code);
    QString code() const;
    // The line above the code, saying when it gives the view's numbers (rich text).
    void setCaption(const QString& html);
    QString caption() const;
    QPlainTextEdit* editor() const { return editor_; }
    PythonHighlighter* highlighter() const { return highlighter_; }
    void setFontScale(double scale);

  public slots:
    void copyToClipboard();

  signals:
    void copied();

  private:
    QPlainTextEdit* editor_ = nullptr;
    PythonHighlighter* highlighter_ = nullptr;
    QPushButton* copyButton_ = nullptr;
    QLabel* caption_ = nullptr;
    int baseFontPt_ = 10;
};

}  // namespace attn

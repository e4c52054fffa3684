#include "teach/pytorch_panel.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QTimer>
#include <QVBoxLayout>

namespace attn {

namespace {
const QStringList& keywords() {
    static const QStringList k = {
        QStringLiteral("False"),  QStringLiteral("None"),     QStringLiteral("True"),
        QStringLiteral("and"),    QStringLiteral("as"),       QStringLiteral("assert"),
        QStringLiteral("async"),  QStringLiteral("await"),    QStringLiteral("break"),
        QStringLiteral("class"),  QStringLiteral("continue"), QStringLiteral("def"),
        QStringLiteral("del"),    QStringLiteral("elif"),     QStringLiteral("else"),
        QStringLiteral("except"), QStringLiteral("finally"),  QStringLiteral("for"),
        QStringLiteral("from"),   QStringLiteral("global"),   QStringLiteral("if"),
        QStringLiteral("import"), QStringLiteral("in"),       QStringLiteral("is"),
        QStringLiteral("lambda"), QStringLiteral("nonlocal"), QStringLiteral("not"),
        QStringLiteral("or"),     QStringLiteral("pass"),     QStringLiteral("raise"),
        QStringLiteral("return"), QStringLiteral("try"),      QStringLiteral("while"),
        QStringLiteral("with"),   QStringLiteral("yield")};
    return k;
}
}  // namespace

PythonHighlighter::PythonHighlighter(QTextDocument* parent) : QSyntaxHighlighter(parent) {
    // Colours readable on the editor's background (light or dark system palette) and chosen to
    // stay distinct for colour-blind readers.
    const bool dark = QApplication::palette().color(QPalette::Base).lightness() < 128;
    formats_[int(Role::Keyword)].setForeground(dark ? QColor(0x6c, 0xb4, 0xff)
                                                    : QColor(0x00, 0x4d, 0x99));
    formats_[int(Role::Keyword)].setFontWeight(QFont::Bold);
    formats_[int(Role::Builtin)].setForeground(dark ? QColor(0xc9, 0xa0, 0xff)
                                                    : QColor(0x6f, 0x2d, 0xa8));
    formats_[int(Role::Number)].setForeground(dark ? QColor(0xff, 0xb8, 0x6b)
                                                   : QColor(0xa3, 0x4a, 0x00));
    formats_[int(Role::String)].setForeground(dark ? QColor(0x8f, 0xd6, 0x94)
                                                   : QColor(0x1b, 0x6e, 0x35));
    formats_[int(Role::Comment)].setForeground(dark ? QColor(0xa8, 0xa8, 0xa8)
                                                    : QColor(0x6a, 0x6a, 0x6a));
    formats_[int(Role::Comment)].setFontItalic(true);
    formats_[int(Role::Decorator)].setForeground(dark ? QColor(0xf0, 0xc0, 0x60)
                                                      : QColor(0x8a, 0x5a, 0x00));

    rules_.push_back(
        {QRegularExpression(QStringLiteral("\\b(%1)\\b").arg(keywords().join(QLatin1Char('|')))),
         Role::Keyword});
    rules_.push_back(
        {QRegularExpression(QStringLiteral("\\b(print|range|len|super|self|torch|nn|int|float|list|"
                                           "dict|tuple|isinstance|zip|enumerate)\\b")),
         Role::Builtin});
    rules_.push_back(
        {QRegularExpression(QStringLiteral(
             "\\b(0[xX][0-9a-fA-F]+|\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)\\b")),
         Role::Number});
    rules_.push_back({QRegularExpression(QStringLiteral("^\\s*@[\\w.]+")), Role::Decorator});
}

QTextCharFormat PythonHighlighter::format(Role role) const {
    return formats_[int(role)];
}

bool PythonHighlighter::isKeyword(const QString& word) {
    return keywords().contains(word);
}

void PythonHighlighter::highlightBlock(const QString& text) {
    for (const Rule& r : rules_) {
        auto it = r.pattern.globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), formats_[int(r.role)]);
        }
    }
    // Strings and comments last, scanning left to right so '#' inside a string stays a string
    // and quotes inside a comment stay a comment. Triple-quoted strings may span blocks.
    int i = 0;
    const int n = int(text.size());
    if (previousBlockState() == 1 || previousBlockState() == 2) {
        const QString delim =
            previousBlockState() == 1 ? QStringLiteral("\"\"\"") : QStringLiteral("'''");
        const int end = int(text.indexOf(delim));
        if (end < 0) {
            setFormat(0, n, formats_[int(Role::String)]);
            setCurrentBlockState(previousBlockState());
            return;
        }
        setFormat(0, end + 3, formats_[int(Role::String)]);
        i = end + 3;
    }
    setCurrentBlockState(0);
    while (i < n) {
        const QChar ch = text[i];
        if (ch == QLatin1Char('#')) {
            setFormat(i, n - i, formats_[int(Role::Comment)]);
            return;
        }
        if (ch == QLatin1Char('"') || ch == QLatin1Char('\'')) {
            const QString triple = QString(3, ch);
            if (text.mid(i, 3) == triple) {
                const int end = int(text.indexOf(triple, i + 3));
                if (end < 0) {
                    setFormat(i, n - i, formats_[int(Role::String)]);
                    setCurrentBlockState(ch == QLatin1Char('"') ? 1 : 2);
                    return;
                }
                setFormat(i, end + 3 - i, formats_[int(Role::String)]);
                i = end + 3;
                continue;
            }
            int j = i + 1;
            while (j < n && text[j] != ch)
                j += text[j] == QLatin1Char('\\') ? 2 : 1;
            const int len = std::min(j + 1, n) - i;
            setFormat(i, len, formats_[int(Role::String)]);
            i += len;
            continue;
        }
        ++i;
    }
}

PyTorchPanel::PyTorchPanel(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 6, 6, 6);
    auto* top = new QHBoxLayout;
    caption_ = new QLabel(this);
    caption_->setTextFormat(Qt::RichText);
    caption_->setWordWrap(true);
    copyButton_ = new QPushButton(tr("Copy"), this);
    copyButton_->setToolTip(tr("Copy the whole script to the clipboard"));
    copyButton_->setIcon(QIcon::fromTheme(QStringLiteral("edit-copy")));
    top->addWidget(caption_, 1);
    top->addWidget(copyButton_, 0);
    v->addLayout(top);
    editor_ = new QPlainTextEdit(this);
    editor_->setReadOnly(true);
    editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
    editor_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    baseFontPt_ = mono.pointSize() > 0 ? mono.pointSize() : 10;
    editor_->setFont(mono);
    editor_->setTabStopDistance(4 * QFontMetricsF(mono).horizontalAdvance(QLatin1Char(' ')));
    editor_->setPlaceholderText(tr("The PyTorch code of the current configuration appears here."));
    editor_->setAccessibleName(tr("PyTorch code"));
    highlighter_ = new PythonHighlighter(editor_->document());
    v->addWidget(editor_, 1);
    connect(copyButton_, &QPushButton::clicked, this, &PyTorchPanel::copyToClipboard);
}

void PyTorchPanel::setCode(const QString& code) {
    if (code == editor_->toPlainText())
        return;
    // The listing ends on the step on screen: when only that end changed (another step), the
    // view stays where it was instead of jumping back to the imports.
    const int scroll = editor_->verticalScrollBar()->value();
    const QString before = editor_->toPlainText();
    qsizetype same = 0;
    while (same < before.size() && same < code.size() && before[same] == code[same])
        ++same;
    const bool sameStart = same > 0 && before.left(same).count(QLatin1Char('\n')) > 20;
    editor_->setPlainText(code);
    if (sameStart)
        editor_->verticalScrollBar()->setValue(scroll);
    copyButton_->setEnabled(!code.isEmpty());
    copyButton_->setText(tr("Copy"));
}

QString PyTorchPanel::code() const {
    return editor_->toPlainText();
}

void PyTorchPanel::setCaption(const QString& html) {
    caption_->setText(html);
}

QString PyTorchPanel::caption() const {
    return caption_->text();
}

void PyTorchPanel::setFontScale(double scale) {
    QFont f = editor_->font();
    f.setPointSizeF(baseFontPt_ * std::clamp(scale, 0.5, 4.0));
    editor_->setFont(f);
}

void PyTorchPanel::copyToClipboard() {
    if (QClipboard* cb = QGuiApplication::clipboard())
        cb->setText(code());
    copyButton_->setText(tr("Copied"));
    QTimer::singleShot(1500, copyButton_,
                       [b = copyButton_] { b->setText(PyTorchPanel::tr("Copy")); });
    emit copied();
}

}  // namespace attn

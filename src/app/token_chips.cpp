#include "app/token_chips.h"

#include "app/flow_layout.h"
#include "export/heatmap_data.h"

namespace attn {

namespace {

// A chip's text: spaces as a middle dot, newlines and tabs as arrows, other control characters
// as escapes, never empty; a token that is only part of a UTF-8 character shows its bytes in
// hex (its display text).
QString chipTextForToken(const Token& t) {
    QString s = QString::fromUtf8(t.display.data(), qsizetype(t.display.size()));
    if (t.partialUtf8)
        return s;
    s.replace(QLatin1Char('\n'), QChar(0x21B5));  // ↵
    s.replace(QLatin1Char('\r'), QChar(0x240D));  // ␍
    s.replace(QLatin1Char('\t'), QChar(0x21E5));  // ⇥
    s.replace(QLatin1Char(' '), QChar(0x00B7));   // ·
    // Every other control character (a form feed, \x1b) draws as a box or nothing: its escape,
    // as the next-token list and the heatmap write it.
    const QString out = escapeControlCharacters(s);
    return out.isEmpty() ? QStringLiteral("\u2205") : out;
}

}  // namespace

TokenChips::TokenChips(QWidget* parent) : QWidget(parent) {
    flow_ = new FlowLayout(this, 4, 4);
    more_ = new QLabel(this);
    more_->setObjectName(QStringLiteral("tokenChipsMore"));
    more_->setStyleSheet(QStringLiteral("color: palette(mid); padding: 2px;"));
    more_->hide();
    flow_->addWidget(more_);
    QSizePolicy sp(QSizePolicy::Preferred, QSizePolicy::Preferred);
    sp.setHeightForWidth(true);
    setSizePolicy(sp);
}

int TokenChips::heightForWidth(int w) const {
    return flow_->heightForWidth(w);
}

void TokenChips::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitHeight();
}

void TokenChips::fitHeight() {
    const int h = heightForWidth(width());
    if (minimumHeight() != h)
        setMinimumHeight(h);
}

QString TokenChips::chipText(int i) const {
    if (i < 0 || i >= shown_)
        return {};
    return chips_[size_t(i)]->text();
}

void TokenChips::setMessage(const QString& text) {
    for (int i = 0; i < shown_; ++i)
        chips_[size_t(i)]->hide();
    shown_ = 0;
    total_ = 0;
    more_->setText(text);
    more_->setVisible(!text.isEmpty());
    flow_->invalidate();
    updateGeometry();
    fitHeight();
}

void TokenChips::setTokens(const std::vector<Token>& tokens) {
    setUpdatesEnabled(false);
    total_ = int(tokens.size());
    const int n = std::min<int>(total_, kMaxChips);
    // Reuse labels: typing changes one or two tokens, so most chips only get new text.
    flow_->removeWidget(more_);
    while (int(chips_.size()) < n) {
        auto* chip = new QLabel(this);
        chip->setAlignment(Qt::AlignCenter);
        chip->setTextFormat(Qt::PlainText);
        flow_->addWidget(chip);
        chips_.push_back(chip);
    }
    flow_->addWidget(more_);
    static const QString normal = QStringLiteral(
        "QLabel { border: 1px solid palette(mid); border-radius: 4px; padding: 1px 4px;"
        " background: palette(base); }");
    static const QString partial = QStringLiteral(
        "QLabel { border: 1px dashed #b0620e; border-radius: 4px; padding: 1px 4px;"
        " background: #fff4e5; color: #7a3d00; font-family: monospace; }");
    // A token the tokenizer put there (Gemma's <bos>) is not in the text: dotted, in italics.
    static const QString added = QStringLiteral(
        "QLabel { border: 1px dotted palette(mid); border-radius: 4px; padding: 1px 4px;"
        " background: palette(window); font-style: italic; }");
    for (int i = 0; i < n; ++i) {
        const Token& t = tokens[size_t(i)];
        QLabel* chip = chips_[size_t(i)];
        const QString text = chipTextForToken(t) + QLatin1Char('\n') + QString::number(t.id);
        if (chip->text() != text)
            chip->setText(text);
        const QString& style = t.addedByTokenizer ? added : t.partialUtf8 ? partial : normal;
        if (chip->styleSheet() != style)
            chip->setStyleSheet(style);
        chip->setToolTip(
            t.addedByTokenizer
                ? tr("Token %1 (%2) at position %3: added by the model's tokenizer, not in the "
                     "text")
                      .arg(t.id)
                      .arg(chipTextForToken(t))
                      .arg(i)
            : t.partialUtf8 ? tr("Token %1: part of a UTF-8 character, bytes %2")
                                  .arg(t.id)
                                  .arg(chipTextForToken(t))
                            : tr("Token %1 at position %2").arg(t.id).arg(i));
        chip->show();
    }
    for (int i = n; i < int(chips_.size()); ++i)
        chips_[size_t(i)]->hide();
    shown_ = n;
    if (total_ > n) {
        more_->setText(tr("+ %1 more tokens").arg(total_ - n));
        more_->show();
    } else if (total_ == 0) {
        more_->setText(tr("(no tokens)"));
        more_->show();
    } else {
        more_->hide();
    }
    flow_->invalidate();
    updateGeometry();
    fitHeight();
    setUpdatesEnabled(true);
}

}  // namespace attn

#include "app/setting_controls.h"

#include <QRegularExpressionValidator>
#include <cmath>

namespace attn {

CappedSpinBox::CappedSpinBox(QWidget* parent) : QSpinBox(parent) {
    setKeyboardTracking(true);
    setAccelerated(true);
}

QValidator::State CappedSpinBox::validate(QString& text, int& pos) const {
    QValidator::State state = QSpinBox::validate(text, pos);
    bool ok = false;
    const qlonglong typed = text.trimmed().toLongLong(&ok);
    const bool over = ok && typed > maximum();
    if (over != over_) {
        over_ = over;
        emit const_cast<CappedSpinBox*>(this)->capExceeded(over ? text.trimmed() : QString());
    }
    // Keep the keystroke: the text stays as typed and the panel says what the cap is; leaving
    // the field puts the last valid value back.
    return over ? QValidator::Intermediate : state;
}

RateSpinBox::RateSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
    setDecimals(12);  // the value keeps every digit a user or a file gave
    setRange(0.0, std::nextafter(1.0, 0.0));
    setSingleStep(0.05);
}

QString RateSpinBox::textFromValue(double value) const {
    return locale().toString(value, 'g', 12);
}

double RateSpinBox::valueFromText(const QString& text) const {
    return locale().toDouble(text.trimmed());
}

QSize RateSpinBox::sizeHint() const {
    QSize s = QDoubleSpinBox::sizeHint();
    const QFontMetrics fm(font());
    const int full = fm.horizontalAdvance(textFromValue(maximum()));
    const int compact = fm.horizontalAdvance(QStringLiteral("0.0000"));
    s.setWidth(s.width() - std::max(0, full - compact));
    return s;
}

QSize RateSpinBox::minimumSizeHint() const {
    QSize s = QDoubleSpinBox::minimumSizeHint();
    s.setWidth(std::min(s.width(), sizeHint().width()));
    return s;
}

QValidator::State RateSpinBox::validate(QString& text, int&) const {
    const QString t = text.trimmed();
    if (t.isEmpty() || t == locale().decimalPoint() || t == QLatin1String("0") + locale().decimalPoint())
        return QValidator::Intermediate;
    bool ok = false;
    const double v = locale().toDouble(t, &ok);
    if (!ok)
        return QValidator::Invalid;
    return v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
}

SeedEdit::SeedEdit(QWidget* parent) : QLineEdit(parent) {
    // Up to 20 digits (2^64 - 1 has 20), or a negative number that wraps.
    setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("-?\\d{0,20}")),
                                                 this));
    setInputMethodHints(Qt::ImhDigitsOnly);
    connect(this, &QLineEdit::textEdited, this, [this](const QString& text) {
        bool ok = false;
        const qulonglong u = text.toULongLong(&ok);
        if (ok) {
            emit seedEdited(u);
            return;
        }
        const qlonglong s = text.toLongLong(&ok);
        if (ok && s < 0)
            emit seedEdited(uint64_t(s));
    });
}

uint64_t SeedEdit::seed() const {
    bool ok = false;
    const qulonglong u = text().toULongLong(&ok);
    if (ok)
        return u;
    return uint64_t(text().toLongLong());
}

void SeedEdit::setSeed(uint64_t seed) {
    const QString t = QString::number(qulonglong(seed));
    if (text() != t)
        setText(t);
}

void makeCompact(QComboBox* combo, int chars) {
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(chars);
}

}  // namespace attn

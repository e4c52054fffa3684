#pragma once
// Input controls that hold exactly the values a setting may take, so nothing a session, a launch
// option or the user gives is silently changed: sizes up to the engine's limit (and a message
// instead of a swallowed keystroke beyond it), dropout rates with every digit, 64-bit seeds.

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <cstdint>

namespace attn {

// A whole-number spin box that tells when the typed number is above its maximum instead of
// refusing the keystroke (QSpinBox would silently keep 6553 of a typed 65536).
class CappedSpinBox : public QSpinBox {
    Q_OBJECT
  public:
    explicit CappedSpinBox(QWidget* parent = nullptr);

  signals:
    // The text is a number above maximum() (`typed`), or fits again (`typed` empty).
    void capExceeded(const QString& typed);

  protected:
    QValidator::State validate(QString& text, int& pos) const override;

  private:
    mutable bool over_ = false;
};

// A rate in [0, 1) shown with as many digits as it has (0.125 stays 0.125, 0.1 is not
// "0.1000000000"), stepping by 0.05.
class RateSpinBox : public QDoubleSpinBox {
    Q_OBJECT
  public:
    explicit RateSpinBox(QWidget* parent = nullptr);
    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;
    QValidator::State validate(QString& text, int& pos) const override;
    // As wide as a rate with a few digits: the twelve decimals it can hold would make the box,
    // and the panel around it, as wide as "0.999999999999".
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
};

// A seed as torch.manual_seed takes it: 0 .. 2^64-1 (a negative seed is stored as its 64-bit
// two's complement, as PyTorch does).
class SeedEdit : public QLineEdit {
    Q_OBJECT
  public:
    explicit SeedEdit(QWidget* parent = nullptr);
    uint64_t seed() const;
    void setSeed(uint64_t seed);

  signals:
    void seedEdited(uint64_t seed);  // a complete, valid seed was typed
};

// A combo box as wide as `chars` characters however long its items are: long items ("default
// (Debian's PyTorch, AMD)") are elided in the box and shown whole in the open list, so the
// settings panel stays narrow at large fonts and the heatmap keeps the room.
void makeCompact(QComboBox* combo, int chars = 10);

}  // namespace attn

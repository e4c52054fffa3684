#pragma once
// The Model panel: the module (variant, sizes, heads, mask, dropout, seeds, bias, batch,
// context length, and after chapter 3 the key/value groups, latent size, head size, QK-norm and
// RoPE), each control with its range in its tooltip and its problems beside it. It edits the
// workspace's settings.

#include <QList>
#include <QWidget>
#include <functional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;

namespace attn {

class CappedSpinBox;
class FieldErrors;
class RateSpinBox;
class SeedEdit;
class Workspace;
struct Settings;

class ModulePanel : public QWidget {
    Q_OBJECT
  public:
    ModulePanel(Workspace* workspace, QWidget* parent = nullptr);

    // The problem shown beside the control of `field` ("heads", "d_out", ...); problems of no
    // control of either panel ("memory", internal errors) show under the form as "general".
    QString fieldError(const QString& field) const;

  private:
    void build();
    void fromSettings();
    void refreshEnabled(const Settings& s);
    // Changes the settings with `edit` as one undoable step named `what`.
    void edit(const QString& what, const std::function<void(Settings&)>& edit);
    CappedSpinBox* sizeSpin(const QString& objectName, const QString& tip);
    // Returns the row's cell (the field and its error line).
    QWidget* addRow(const QString& label, QWidget* field, const QString& errorField,
                    const QList<QWidget*>& outlined);

    Workspace* workspace_;
    QFormLayout* form_ = nullptr;
    FieldErrors* errors_ = nullptr;
    QComboBox* variant_ = nullptr;
    CappedSpinBox* dIn_ = nullptr;
    CappedSpinBox* dOut_ = nullptr;
    CappedSpinBox* heads_ = nullptr;
    QComboBox* mask_ = nullptr;
    CappedSpinBox* window_ = nullptr;
    RateSpinBox* dropout_ = nullptr;
    QComboBox* mode_ = nullptr;
    QComboBox* dropoutRng_ = nullptr;
    SeedEdit* seed_ = nullptr;
    SeedEdit* embeddingSeed_ = nullptr;
    QCheckBox* positions_ = nullptr;
    QCheckBox* qkvBias_ = nullptr;
    CappedSpinBox* batch_ = nullptr;
    CappedSpinBox* contextLength_ = nullptr;
    // After chapter 3: each row shows only for the variants that have the option.
    CappedSpinBox* kvGroups_ = nullptr;
    CappedSpinBox* latentDim_ = nullptr;
    CappedSpinBox* headDim_ = nullptr;
    QCheckBox* qkNorm_ = nullptr;
    QCheckBox* rope_ = nullptr;
    QDoubleSpinBox* ropeBase_ = nullptr;
    QWidget* dOutRow_ = nullptr;
    QWidget* kvGroupsRow_ = nullptr;
    QWidget* latentRow_ = nullptr;
    QWidget* headDimRow_ = nullptr;
    QWidget* rotaryRow_ = nullptr;
    QWidget* ropeBaseRow_ = nullptr;
    QList<QWidget*> chapterRows_;  // the rows a trained model has nothing for
    QLabel* modelNote_ = nullptr;
    QLabel* general_ = nullptr;
};

}  // namespace attn

#pragma once
// The left column: which model, the input, the next-token predictions (model mode) and the
// attention module's settings, in one scrolling column, so the window fits small screens and no
// control is ever squeezed below its size (the column scrolls instead).

#include <QScrollArea>
#include <QStringList>

class QLabel;
class QVBoxLayout;

namespace attn {

class InputPanel;
class ModelPicker;
class ModulePanel;
class PredictionPanel;
class Workspace;

class SettingsColumn : public QScrollArea {
    Q_OBJECT
  public:
    explicit SettingsColumn(Workspace* workspace, QWidget* parent = nullptr);
    ModelPicker* picker() const { return picker_; }
    InputPanel* input() const { return input_; }
    ModulePanel* module() const { return module_; }
    PredictionPanel* predictions() const { return predictions_; }
    // The message beside the control of `field` ("heads", "d_out", "input", ...), empty if none.
    QString fieldError(const QString& field) const;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void refreshModelMode();
    void showNewProblems();
    void revealProblems(const QStringList& added);

    Workspace* workspace_;
    ModelPicker* picker_ = nullptr;
    InputPanel* input_ = nullptr;
    ModulePanel* module_ = nullptr;
    PredictionPanel* predictions_ = nullptr;
    QVBoxLayout* column_ = nullptr;  // its last item is the spare-height stretch
    QLabel* predictionTitle_ = nullptr;
    QStringList problemFields_;  // the fields with a message when the last result came
};

}  // namespace attn

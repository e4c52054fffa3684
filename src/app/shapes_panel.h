#pragma once
// The Shapes panel: every step of the trace with its named shape and PyTorch op, the step shown
// highlighted (click one to show it), and the module's parameters.

#include <QWidget>
#include <vector>

#include "engine/trace.h"

class QLabel;
class QTableWidget;

namespace attn {

class Workspace;

class ShapesPanel : public QWidget {
    Q_OBJECT
  public:
    ShapesPanel(Workspace* workspace, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }

  private:
    void refresh();
    void fill(const std::vector<StepInfo>& steps);
    void select(const QString& id);

    Workspace* workspace_;
    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* parameters_ = nullptr;
    std::vector<StepInfo> steps_;
};

// "(b=1, h=2, T=6, T=6)": a shape with the names of its dims.
QString namedShape(const StepInfo& info);

}  // namespace attn

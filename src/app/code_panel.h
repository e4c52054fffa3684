#pragma once
// The PyTorch listing beside the heatmap: code that rebuilds the shown input and module (or
// model) in PyTorch and prints the step on screen.
#include <QWidget>
#include <string>

class QShowEvent;

namespace attn {

class PyTorchPanel;
class Workspace;

class CodePanel : public QWidget {
    Q_OBJECT
  public:
    CodePanel(Workspace* workspace, QWidget* parent = nullptr);
    PyTorchPanel* panel() const { return panel_; }

  signals:
    void updated();  // the listing was regenerated

  protected:
    void showEvent(QShowEvent* event) override;

  public slots:
    // Draws the panel for the shown result when it is on screen (a tab behind another, or a
    // hidden dock, waits): the window calls it when the panel's tab comes to the front.
    void refresh();

  private:
    Workspace* workspace_;
    PyTorchPanel* panel_ = nullptr;
    quint64 generation_ = 0;
    std::string stepId_;  // the step the listing prints last
};

}  // namespace attn

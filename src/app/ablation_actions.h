#pragma once
// Model mode's head switches (DESIGN.md, Asking a model why: ablation): the Heads menu (switch the
// selected head off or back on, Ctrl+K; every head back on, Ctrl+Shift+K; what a switched-off head
// writes: zero or its mean over the text), the context menu of a head in All layers and Head
// scores, and the bar over the predictions that lists the switched-off heads with Restore all.
// Every change goes through the workspace, so it is undoable, recomputes every view and is kept by
// sessions.

#include <QObject>
#include <QWidget>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QMenu;
class QPushButton;

namespace attn {

class FlowLayout;
class Workspace;

class AblationActions : public QObject {
    Q_OBJECT
  public:
    AblationActions(Workspace* workspace, QWidget* window);
    QMenu* menu() const { return menu_; }
    QAction* toggleAction() const { return toggle_; }
    QAction* restoreAllAction() const { return restoreAll_; }
    // The entries of head `head` of layer `layer`'s context menu: switch it off (or back on),
    // every head back on. Nothing outside model mode.
    void addHeadActions(QMenu* menu, int layer, int head);

  private:
    void update();
    Workspace* workspace_;
    QWidget* window_;
    QMenu* menu_ = nullptr;
    QAction* toggle_ = nullptr;
    QAction* restoreAll_ = nullptr;
    QActionGroup* modes_ = nullptr;
};

// The switched-off heads, each a button that switches it back on, what they write (zero or
// their mean), and Restore all; hidden while every head is on.
class AblationBar : public QWidget {
    Q_OBJECT
  public:
    AblationBar(Workspace* workspace, QWidget* parent = nullptr);
    // "Switched off: L0H1, L2H3" as shown (for tests and the lesson's checks).
    QString summary() const;

  private:
    void update();
    Workspace* workspace_;
    FlowLayout* flow_ = nullptr;
    QLabel* title_ = nullptr;
    QComboBox* mode_ = nullptr;
    QPushButton* restoreAll_ = nullptr;
    std::vector<QWidget*> headButtons_;
};

}  // namespace attn

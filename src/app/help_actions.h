#pragma once
// The Help menu: User Guide (F1), Keyboard Shortcuts and About Attention Lens. Each dialog opens
// once; choosing it again brings the open one to the front.

#include <QObject>
#include <QPointer>

#include "app/help_dialogs.h"

class QAction;
class QMainWindow;
class QMenu;

namespace attn {

class HelpActions : public QObject {
    Q_OBJECT
  public:
    // Adds the actions to `menu`; the dialogs belong to `window`.
    HelpActions(QMainWindow* window, QMenu* menu);

    QAction* userGuideAction() const { return userGuide_; }
    QAction* shortcutsAction() const { return shortcuts_; }
    QAction* aboutAction() const { return about_; }
    // The open dialogs; null when closed.
    UserGuideDialog* userGuideDialog() const { return guideDialog_; }
    ShortcutsDialog* shortcutsDialog() const { return shortcutsDialog_; }

    void showUserGuide();
    void showShortcuts();
    void showAbout();

  private:
    QMainWindow* window_;
    QAction* userGuide_;
    QAction* shortcuts_;
    QAction* about_;
    QPointer<UserGuideDialog> guideDialog_;
    QPointer<ShortcutsDialog> shortcutsDialog_;
};

}  // namespace attn

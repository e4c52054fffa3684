#include "app/help_actions.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>

#include "app/help_dialogs.h"

namespace attn {

HelpActions::HelpActions(QMainWindow* window, QMenu* menu) : QObject(window), window_(window) {
    userGuide_ = menu->addAction(tr("&User Guide"), this, &HelpActions::showUserGuide);
    userGuide_->setShortcut(QKeySequence::HelpContents);
    userGuide_->setToolTip(tr("How to use Attention Lens, inside the app"));
    shortcuts_ = menu->addAction(tr("&Keyboard Shortcuts"), this, &HelpActions::showShortcuts);
    shortcuts_->setToolTip(tr("Every key the window answers to"));
    menu->addSeparator();
    about_ = menu->addAction(tr("&About Attention Lens"), this, &HelpActions::showAbout);
}

void HelpActions::showUserGuide() {
    if (!guideDialog_)
        guideDialog_ = new UserGuideDialog(window_);
    guideDialog_->show();
    guideDialog_->raise();
    guideDialog_->activateWindow();
}

void HelpActions::showShortcuts() {
    if (!shortcutsDialog_)
        shortcutsDialog_ = new ShortcutsDialog(window_, window_);
    shortcutsDialog_->show();
    shortcutsDialog_->raise();
    shortcutsDialog_->activateWindow();
}

void HelpActions::showAbout() {
    QMessageBox::about(window_, tr("About Attention Lens"), aboutText());
}

}  // namespace attn

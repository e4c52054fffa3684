#pragma once
// The Help menu's windows: the user guide (docs/USER_GUIDE.md, inside the app so it works
// offline), the keyboard shortcuts (read from the window's actions, so the list is always the
// one that works, plus the keys of the widgets that handle keys themselves) and About's text.

#include <QDialog>
#include <QList>
#include <QString>

class QMainWindow;
class QVBoxLayout;
class QTextBrowser;
class QTreeWidget;

namespace attn {

// A dialog deleted when closed, titled, with `content` above a Close button; the layout, for more
// above or below. Every Help window and the model's metadata use it.
QVBoxLayout* setUpCloseDialog(QDialog* dialog, const QString& title, QWidget* content);
// Resizes `dialog` to `wanted`, at most 90 % of the screen it opens on (a 720-pixel projector
// or a scaled laptop screen keeps its title bar and Close button in view).
void fitDialogToScreen(QDialog* dialog, QSize wanted);

// One line of the shortcuts list: where it acts ("File > Save session", "Pipeline strip: next
// step") and its keys as this platform writes them ("Ctrl+S").
struct ShortcutEntry {
    QString group;  // "Menus", "Buttons", "Pipeline strip", ...
    QString action;
    QString keys;
};

// Every shortcut of `window`: the actions of its menu bar and their submenus with their menu path,
// actions outside the menus (presentation mode keeps them), buttons with a key of their own, then
// the keys the pipeline strip, the head grid, the layers x heads overview and presentation mode
// handle.
QList<ShortcutEntry> collectShortcuts(const QMainWindow* window);

// Help > Keyboard Shortcuts: collectShortcuts() of the window as a list grouped by where they act.
// Deleted when closed.
class ShortcutsDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ShortcutsDialog(const QMainWindow* window, QWidget* parent = nullptr);
    QTreeWidget* list() const { return list_; }

  private:
    QTreeWidget* list_;
};

// The user guide in the interface's language: docs/USER_GUIDE.<language>.md when the app ships
// one for the language of QLocale() (which installTranslations sets), else the English
// docs/USER_GUIDE.md. A resource path (":/docs/...").
QString userGuidePath();

// Help > User Guide: userGuidePath() rendered from the app's resources. Deleted when closed.
class UserGuideDialog : public QDialog {
    Q_OBJECT
  public:
    explicit UserGuideDialog(QWidget* parent = nullptr);
    QTextBrowser* browser() const { return browser_; }

  private:
    QTextBrowser* browser_;
};

// About's text: the version (the one of project() in CMake), what the app is, the licences.
QString aboutText();

}  // namespace attn

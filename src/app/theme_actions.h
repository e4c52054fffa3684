#pragma once
// The window's theme: the platform's own style and palette, or Fusion with a light or a dark
// palette whatever the desktop uses (a classroom projector often reads better light). The choice
// is remembered in QSettings and applied at start-up, before the window is shown.

#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QPalette;
class QWidget;

namespace attn {

enum class Theme { System, Light, Dark };

QString themeKey(Theme theme);  // "system", "light", "dark": QSettings and --theme
// The theme a key names; false for anything else.
bool parseTheme(const QString& key, Theme* theme);

// Fusion's palettes for the forced themes: every colour role, disabled ones included, so the
// heatmaps (which follow the palette) and every widget read well on both.
QPalette lightPalette();
QPalette darkPalette();

// Sets the application's style and palette. Theme::System goes back to the style and palette
// the platform gave the application when it started (the first call records them).
void applyTheme(Theme theme);
// The theme applied last (System before any call).
Theme currentTheme();

// The theme saved with rememberTheme(); System when none is (or an unknown one).
Theme rememberedTheme();
void rememberTheme(Theme theme);

// View > Theme: System / Light / Dark as one exclusive group, checked at the current theme;
// choosing one applies and remembers it.
class ThemeActions : public QObject {
    Q_OBJECT
  public:
    explicit ThemeActions(QWidget* window);

    QMenu* menu() const { return menu_; }
    QAction* action(Theme theme) const;

  private:
    QMenu* menu_ = nullptr;
    QAction* actions_[3] = {};
};

}  // namespace attn

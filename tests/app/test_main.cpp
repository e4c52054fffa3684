// GoogleTest main for the GUI tests: one QApplication for the whole run, offscreen unless the
// environment asks for another platform, on a 1280 x 720 screen: the smallest classroom
// projector, so the window opens as it does there (the offscreen default is 800 x 600).
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

int main(int argc, char** argv) {
    QTemporaryDir screenDir;
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (platform.isEmpty() || platform == "offscreen") {
        const QString config = screenDir.filePath(QStringLiteral("screen.json"));
        QFile f(config);
        if (!f.open(QIODevice::WriteOnly) ||
            f.write("{\"screens\": [{\"name\": \"projector\", \"x\": 0, \"y\": 0, \"width\": 1280, "
                    "\"height\": 720, \"logicalDpi\": 96, \"logicalBaseDpi\": 96, \"dpr\": 1}]}") < 0)
            return 2;
        f.close();
        qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + QFile::encodeName(config));
    }
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

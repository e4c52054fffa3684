// Screenshots of the teaching panels for a person to look at (not compared to anything):
//   ATTN_SHOT_DIR=/tmp build/tests/app/app_tests --gtest_filter='TeachingShots.*'
// writes teach_explain.png, teach_tokens.png, teach_pytorch.png, teach_compare*.png,
// teach_lesson.png, teach_present*.png and the dark-palette variants into that folder.
// Skipped when ATTN_SHOT_DIR is not set.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QPalette>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleFactory>

#include "app/heatmap_view.h"
#include "app/teaching_docks.h"
#include "app_test_util.h"
#include "teach/lesson.h"

using namespace attn;
using attn::testing::darkPalette;
using attn::testing::settle;
using attn::testing::testOptions;

namespace {

QString shotDir() {
    return qEnvironmentVariable("ATTN_SHOT_DIR");
}

void save(QWidget& w, const QString& name) {
    QCoreApplication::processEvents();
    const QString path = QDir(shotDir()).filePath(name);
    ASSERT_TRUE(w.grab().save(path)) << path.toStdString();
}

void shootAll(const QString& suffix) {
    MainWindow w(testOptions());
    w.resize(1600, 1000);
    w.show();
    ASSERT_TRUE(settle(w));
    TeachingDocks* t = w.teaching();
    emit w.heatmapView()->cellClicked(1, 0, w.heatmapView()->data().value(1, 0));
    save(w, QStringLiteral("teach_explain%1.png").arg(suffix));

    t->tokenDock()->raise();
    t->allHeadsCheck()->setChecked(true);
    save(w, QStringLiteral("teach_tokens%1.png").arg(suffix));
    t->pytorchDock()->raise();
    save(w, QStringLiteral("teach_pytorch%1.png").arg(suffix));

    w.findChild<QAction*>(QStringLiteral("actionCompare"))->trigger();
    t->setComparePreset(TeachingDocks::ComparePreset::MaskingMethods);
    save(w, QStringLiteral("teach_compare%1.png").arg(suffix));
    t->setComparePreset(TeachingDocks::ComparePreset::MaskNoneCausal);
    QSignalSpy spy(t, &TeachingDocks::compareUpdated);
    while (t->compareMessage().contains(QStringLiteral("Computing")) && spy.wait(5000)) {
    }
    save(w, QStringLiteral("teach_compare_modified%1.png").arg(suffix));

    t->startLesson();
    ASSERT_TRUE(settle(w));
    t->lessonPanel()->next();
    t->lessonPanel()->next();
    ASSERT_TRUE(settle(w));
    save(w, QStringLiteral("teach_lesson%1.png").arg(suffix));
    t->lessonDock()->hide();

    w.setState(AppState());  // the book example
    ASSERT_TRUE(settle(w));
    w.findChild<QAction*>(QStringLiteral("actionPresentation"))->setChecked(true);
    w.selectStep(QStringLiteral("scaled_scores"));
    save(w, QStringLiteral("teach_present%1.png").arg(suffix));
    t->presentationNext();
    save(w, QStringLiteral("teach_present_fade%1.png").arg(suffix));
    w.findChild<QAction*>(QStringLiteral("actionPresentation"))->setChecked(false);
    save(w, QStringLiteral("teach_restored%1.png").arg(suffix));
}

}  // namespace

TEST(TeachingShots, Light) {
    if (shotDir().isEmpty())
        GTEST_SKIP() << "set ATTN_SHOT_DIR to write screenshots";
    shootAll(QString());
}

TEST(TeachingShots, DarkFusion) {
    if (shotDir().isEmpty())
        GTEST_SKIP() << "set ATTN_SHOT_DIR to write screenshots";
    const QPalette oldPalette = QApplication::palette();
    const QString oldStyle = QApplication::style()->name();
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("fusion")));
    QApplication::setPalette(darkPalette());
    shootAll(QStringLiteral("_dark"));
    QApplication::setPalette(oldPalette);
    QApplication::setStyle(QStyleFactory::create(oldStyle));
}

// Every kind of background job is running when the window closes, the model changes or the step
// changes: nothing the jobs bring back may reach a destroyed widget. In CI these run under
// AddressSanitizer, which reports any use after free; in every build they check that the newest
// request's answer is the one shown.
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QTemporaryDir>
#include <memory>

#include "app/export_actions.h"
#include "app/main_window.h"
#include "app/step_view.h"
#include "app/token_view_panel.h"
#include "app/workspace.h"
#include "app_test_util.h"
#include "export/head_grid.h"
#include "export/heatmap_view.h"
#include "teach/token_view.h"

namespace attn {
namespace {

using testing::settle;
using testing::testOptions;
using testing::waitUntil;

QString fixture(const char* name) {
    return QStringLiteral(ATTN_FIXTURES_DIR "/models/") + QString::fromLatin1(name);
}

// Big enough that each job takes a while (the step view's slice is cut in the background from
// 65,536 cells: 300 tokens give 90,000 per head).
Settings bigSettings() {
    Settings s;
    s.source = InputSource::Text;
    s.text = QStringLiteral("the cat sat on the mat ").repeated(50);
    s.config.variant = Variant::MultiHead;
    s.config.dIn = 96;
    s.config.dOut = 96;
    s.config.heads = 12;
    s.config.contextLength = 1024;
    return s;
}

void showTokenView(MainWindow& w) {
    QDockWidget* d = w.dock(QStringLiteral("tokenDock"));
    d->show();
    d->raise();
}

// Starts, without waiting for any of them: a trace, a big slice, the thumbnails, the token
// view's weights, and an export of every step.
void startEveryChapterJob(MainWindow& w, const QString& exportDir, const QString& text) {
    Settings s = bigSettings();
    s.text = text;
    w.workspace()->reset({s, {}});                         // the trace
    w.workspace()->selectStep(QStringLiteral("scores"));   // a slice and thumbnails
    w.exports()->startExportAllSteps(exportDir, QStringLiteral("png"), false);
    QCoreApplication::processEvents();  // the submitted trace starts; the views ask again
}

TEST(JobLifetime, TheWindowClosesWhileEveryKindOfJobRuns) {
    QTemporaryDir dir;
    for (int round = 0; round < 3; ++round) {
        auto w = std::make_unique<MainWindow>(testOptions());
        w->show();
        showTokenView(*w);
        w->workspace()->reset({bigSettings(), {}});
        ASSERT_TRUE(settle(*w));
        // A result is there: every view now has jobs of its own to start for the next one.
        startEveryChapterJob(*w, dir.filePath(QString::number(round)),
                             QStringLiteral("a dog ran in the park ").repeated(40 + round));
        w->workspace()->selectStep(QStringLiteral("weights"));
        QCoreApplication::processEvents();
        w.reset();  // closed mid-way
        // What the jobs bring back lands now, on receivers that outlived their owners.
        waitUntil([] { return false; }, 300);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
}

TEST(JobLifetime, StepAndTextChangesWhileJobsRunShowTheNewestAnswer) {
    MainWindow w(testOptions());
    w.show();
    showTokenView(w);
    w.workspace()->reset({bigSettings(), {}});
    ASSERT_TRUE(settle(w));
    for (const char* step : {"scores", "weights", "masked_scores", "weights"}) {
        w.workspace()->selectStep(QLatin1String(step));
        QCoreApplication::processEvents();
    }
    Settings s = bigSettings();
    s.text = QStringLiteral("one two three four ").repeated(60);
    w.workspace()->reset({s, {}});
    w.workspace()->selectStep(QStringLiteral("scores"));
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(waitUntil([&] {
        return !w.stepView()->headGrid()->isLoading() && w.tokenPanel()->isDrawn();
    }));
    // What is drawn is the newest text's scores, not an earlier request's.
    const int64_t T = w.workspace()->shownRun()->input.count();
    EXPECT_EQ(T, 241);  // 60 x 4 words and the trailing space
    EXPECT_EQ(w.tokenPanel()->view()->tokenCount(), T);
    EXPECT_EQ(w.stepView()->heatmap()->data().rows, T);
    EXPECT_EQ(w.workspace()->shownStep()->info.id, "scores");
}

TEST(JobLifetime, TheModelChangesAndTheWindowClosesWhileTheModelJobsRun) {
    QTemporaryDir dir;
    auto w = std::make_unique<MainWindow>(testOptions());
    w->show();
    showTokenView(*w);
    w->workspace()->openModel(fixture("hf_tied_f32.safetensors"));
    ASSERT_TRUE(waitUntil([&] { return !w->workspace()->isLoadingModel(); }));
    w->exports()->setMessageHook([](const QString&, const QString&) {});
    testing::change(*w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("a b c d a b c d");
    });
    ASSERT_TRUE(settle(*w));
    ASSERT_NE(w->workspace()->shown()->modelRun, nullptr);
    // Another model is read while the forward, the overview, the next tokens, the head scores
    // and the export of every layer's attention run; then the window closes.
    EXPECT_TRUE(w->exports()->exportAttentionNpy(dir.filePath(QStringLiteral("attention.npy"))));
    w->workspace()->selectLayer(1);
    w->workspace()->openModel(fixture("hf_tied_f16.safetensors"));
    QCoreApplication::processEvents();
    w->workspace()->selectStep(QStringLiteral("scores"));
    w.reset();
    waitUntil([] { return false; }, 300);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

}  // namespace
}  // namespace attn

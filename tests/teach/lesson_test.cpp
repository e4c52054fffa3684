// The chapter-3 tour: every screen runs, shows a step its configuration has, in the book's order.
#include <gtest/gtest.h>

#include <QLabel>
#include <QSignalSpy>

#include "teach/explanations.h"
#include "teach/lesson.h"
#include "teach_test_util.h"

namespace attn {
namespace {

TEST(Lesson, ScreensFormAValidSequence) {
    const auto& screens = chapter3Lesson();
    ASSERT_GE(screens.size(), 12u);
    QString lastSection;
    for (size_t i = 0; i < screens.size(); ++i) {
        const LessonScreen& s = screens[i];
        SCOPED_TRACE(std::to_string(i) + " " + s.title.toStdString());
        EXPECT_FALSE(s.title.isEmpty());
        EXPECT_FALSE(s.html.isEmpty());
        EXPECT_EQ(s.inputPreset, QStringLiteral("book"));
        EXPECT_TRUE(validate(s.config, 6).empty());
        bool found = false;
        for (const StepInfo& st : planSteps(s.config, 6))
            found = found || st.id == s.stepId;
        EXPECT_TRUE(found) << s.stepId;
        EXPECT_LT(s.head, int(s.config.effectiveHeads()));
        EXPECT_LT(s.batch, int(s.config.batch));
        // Sections never go backwards: 3.3 -> 3.6.2.
        EXPECT_GE(s.section, lastSection);
        lastSection = s.section;
        // It runs, and the step it shows has an explanation.
        const Trace t = testing::bookTrace(s.config);
        ASSERT_NE(t.find(s.stepId), nullptr);
        EXPECT_FALSE(explainStepHtml(t, s.stepId).isEmpty());
    }
    // The book's seeds and sizes.
    EXPECT_EQ(screens.front().config.variant, Variant::Simplified);
    EXPECT_EQ(screens.back().config.variant, Variant::MultiHead);
    EXPECT_EQ(screens.back().config.seed, 123u);
    EXPECT_EQ(screens.back().config.batch, 2);
    EXPECT_EQ(screens.back().config.heads, 2);
    EXPECT_EQ(screens.back().config.dOut, 2);
    bool v1 = false, v2 = false, drop = false, wrapper = false, simple = false;
    for (const LessonScreen& s : screens) {
        v1 = v1 || (s.config.variant == Variant::SelfAttentionV1 && s.config.seed == 123);
        v2 = v2 || (s.config.variant == Variant::SelfAttention && s.config.seed == 789);
        drop = drop ||
               (s.config.dropout == 0.5 && s.config.seed == 123 && s.stepId == "dropped_weights");
        wrapper =
            wrapper || (s.config.variant == Variant::MultiHeadWrapper && s.config.seed == 123);
        simple = simple || s.stepId == "weights_renormalized";
    }
    EXPECT_TRUE(v1 && v2 && drop && wrapper && simple);
}

TEST(Lesson, PanelStepsThroughScreens) {
    LessonPanel panel;
    const int n = panel.count();
    ASSERT_EQ(n, int(chapter3Lesson().size()));
    EXPECT_EQ(panel.currentIndex(), 0);
    EXPECT_EQ(panel.progressText(), QStringLiteral("1 / %1").arg(n));
    QSignalSpy changed(&panel, &LessonPanel::screenChanged);
    QSignalSpy finished(&panel, &LessonPanel::finished);
    panel.next();
    panel.next();
    EXPECT_EQ(panel.currentIndex(), 2);
    EXPECT_EQ(panel.progressText(), QStringLiteral("3 / %1").arg(n));
    ASSERT_EQ(changed.count(), 2);
    const auto screen = changed.at(1).at(0).value<LessonScreen>();
    EXPECT_EQ(screen.stepId, chapter3Lesson()[2].stepId);
    panel.back();
    EXPECT_EQ(panel.currentIndex(), 1);
    panel.setCurrentIndex(n + 5);
    EXPECT_EQ(panel.currentIndex(), n - 1);
    panel.next();
    EXPECT_EQ(finished.count(), 1);
    panel.restart();
    EXPECT_EQ(panel.currentIndex(), 0);

    panel.setCurrentIndex(11);
    panel.resize(460, 380);
    EXPECT_TRUE(testing::savePng(&panel, QStringLiteral("lesson_panel.png")));
}

}  // namespace
}  // namespace attn

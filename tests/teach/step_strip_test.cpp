// The pipeline strip: how it groups every variant's steps, how it collapses and scrolls instead
// of wrapping, keyboard and mouse selection, and that only the user's actions emit stepSelected.
// PNGs of the strip at several widths, light and dark, go to build/.../png for a look.
#include <gtest/gtest.h>

#include <QAccessible>
#include <QApplication>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleFactory>
#include <QTest>
#include <QTranslator>

#include <map>

#include "engine/decoder_model.h"
#include "pipeline/model_request.h"
#include "teach/step_strip.h"
#include "teach_test_util.h"

namespace attn {
namespace {

// The stage every module step id belongs to (chapter 3 and after), written out independently of the
// widget.
const std::map<std::string, std::string>& expectedStage() {
    static const std::map<std::string, std::string> m = {
        {"inputs", "input"},
        {"queries", "qkv"},
        {"keys", "qkv"},
        {"values", "qkv"},
        {"queries_split", "heads"},
        {"keys_split", "heads"},
        {"values_split", "heads"},
        {"queries_heads", "heads"},
        {"keys_heads", "heads"},
        {"values_heads", "heads"},
        {"latent", "qkv"},
        {"keys_groups", "heads"},
        {"values_groups", "heads"},
        {"queries_normed", "qk_norm"},
        {"keys_normed", "qk_norm"},
        {"rope_cos", "rope"},
        {"rope_sin", "rope"},
        {"queries_rotated", "rope"},
        {"keys_rotated", "rope"},
        {"keys_repeated", "repeat"},
        {"values_repeated", "repeat"},
        {"scores", "scores"},
        {"mask", "mask"},
        {"masked_scores", "mask"},
        {"scaled_scores", "scale"},
        {"weights", "softmax"},
        {"weights_unmasked", "simple_mask"},
        {"weights_tril", "simple_mask"},
        {"weights_renormalized", "simple_mask"},
        {"dropout_mask", "dropout"},
        {"dropped_weights", "dropout"},
        {"context_heads", "context"},
        {"context_transposed", "context"},
        {"context", "context"},
        {"output", "output"},
    };
    return m;
}

const QStringList kStageOrder = {"input",       "qkv",     "heads",   "qk_norm", "rope",
                                 "repeat",      "scores",  "mask",    "scale",   "softmax",
                                 "simple_mask", "dropout", "context", "output",  "other"};

// Every step a variant can have: a mask (so the simple masking steps) and dropout in training.
Config fullConfig(Variant v, MaskSpec mask = {MaskKind::Causal, 0}) {
    Config c = testing::bookConfig(v);
    c.mask = mask;
    c.dropout = 0.1;
    return c;
}

QStringList idsOf(const std::vector<StepInfo>& steps) {
    QStringList ids;
    for (const StepInfo& s : steps)
        ids << QString::fromStdString(s.id);
    return ids;
}

int stageIndex(const StepStrip& strip, const QString& key) {
    for (int i = 0; i < int(strip.stages().size()); ++i)
        if (strip.stages()[size_t(i)].key == key)
            return i;
    return -1;
}

int stageOfStep(const StepStrip& strip, const QString& id) {
    for (int i = 0; i < int(strip.stages().size()); ++i)
        if (strip.stages()[size_t(i)].stepIds.contains(id))
            return i;
    return -1;
}

void click(StepStrip& strip, const QRect& r) {
    QTest::mouseClick(&strip, Qt::LeftButton, Qt::NoModifier, r.center());
}

TEST(StepStrip, GroupsEveryVariantsStepsByStage) {
    const std::vector<MaskSpec> masks = {
        {MaskKind::None, 0}, {MaskKind::Causal, 0}, {MaskKind::Window, 2}};
    for (Variant v : allVariants()) {
        for (const MaskSpec& mask : masks) {
            SCOPED_TRACE(variantName(v) + " " + maskName(mask));
            const std::vector<StepInfo> plan = planSteps(fullConfig(v, mask), 6);
            StepStrip strip;
            strip.setSteps(plan);
            // Every step is there, once, in trace order.
            EXPECT_EQ(strip.stepIds(), idsOf(plan));
            QStringList grouped;
            QStringList keys;
            for (const StepStrip::Stage& s : strip.stages()) {
                grouped += s.stepIds;
                keys << s.key;
                EXPECT_FALSE(s.stepIds.isEmpty());
                EXPECT_EQ(s.branch, s.key == QLatin1String("simple_mask"));
                for (const QString& id : s.stepIds)
                    EXPECT_EQ(s.key.toStdString(), expectedStage().at(id.toStdString()))
                        << id.toStdString();
            }
            EXPECT_EQ(grouped, idsOf(plan));
            // Stages appear in the chapter's order, each once.
            int last = -1;
            for (const QString& k : keys) {
                const int at = int(kStageOrder.indexOf(k));
                EXPECT_GT(at, last) << k.toStdString();
                last = at;
            }
            EXPECT_FALSE(keys.contains(QStringLiteral("other")));
            EXPECT_EQ(keys.contains(QStringLiteral("mask")), mask.kind != MaskKind::None);
            EXPECT_EQ(keys.contains(QStringLiteral("simple_mask")), mask.kind != MaskKind::None);
            EXPECT_EQ(keys.contains(QStringLiteral("heads")),
                      v == Variant::MultiHead || variantIsAfterChapter3(v));
            // After chapter 3: the groups shared by several heads, QK-norm and the rotation.
            EXPECT_EQ(keys.contains(QStringLiteral("repeat")), variantHasKvGroups(v));
            EXPECT_EQ(keys.contains(QStringLiteral("qk_norm")), v == Variant::Rotary);
            EXPECT_EQ(keys.contains(QStringLiteral("rope")), v == Variant::Rotary);
        }
    }
}

TEST(StepStrip, UnknownStepsGoToAStageOfTheirOwnAtTheEnd) {
    std::vector<StepInfo> plan = planSteps(fullConfig(Variant::Causal), 6);
    StepInfo extra;
    extra.id = "attention_entropy";
    extra.title = "Entropy of each row";
    plan.insert(plan.begin() + 2, extra);
    StepStrip strip;
    strip.setSteps(plan);
    ASSERT_FALSE(strip.stages().empty());
    EXPECT_EQ(strip.stages().back().key, QStringLiteral("other"));
    EXPECT_EQ(strip.stages().back().stepIds, QStringList{QStringLiteral("attention_entropy")});
    EXPECT_EQ(strip.stepIds().size(), qsizetype(plan.size()));
    EXPECT_EQ(strip.stepIds().last(), QStringLiteral("attention_entropy"));
    EXPECT_EQ(StepStrip::stageKeyOf(QStringLiteral("attention_entropy")), QStringLiteral("other"));
    // Two steps, two names: the causal mask and dropout's keep mask.
    EXPECT_NE(StepStrip::chipLabel(QStringLiteral("dropout_mask")),
              StepStrip::chipLabel(QStringLiteral("mask")));
    EXPECT_EQ(StepStrip::chipLabel(QStringLiteral("attention_entropy")),
              QStringLiteral("attention_entropy"));
}

TEST(StepStrip, WrapperStepsGroupLikeTheOthers) {
    // The wrapper's steps carry a leading head dim; the ids, and so the stages, are the same.
    StepStrip strip;
    strip.setSteps(planSteps(fullConfig(Variant::MultiHeadWrapper), 6));
    QStringList keys;
    for (const auto& s : strip.stages())
        keys << s.key;
    EXPECT_EQ(keys, (QStringList{"input", "qkv", "scores", "mask", "scale", "softmax",
                                 "simple_mask", "dropout", "context", "output"}));
}

TEST(StepStrip, OneRowWhoseHeightDoesNotDependOnTheWidth) {
    StepStrip strip;
    strip.setSteps(planSteps(fullConfig(Variant::MultiHead), 6));
    strip.setCurrentStep(QStringLiteral("weights"));
    const int h = strip.sizeHint().height();
    EXPECT_EQ(strip.minimumSizeHint().height(), h);
    EXPECT_LE(strip.minimumSizeHint().width(), 200);
    // About two lines of text: a small caption line and the chips.
    EXPECT_LE(h, int(2.8 * QFontMetrics(strip.font()).height()));
    for (int w : {160, 300, 500, 700, 1000, 1400, 1900, 2600}) {
        SCOPED_TRACE(w);
        strip.resize(w, h);
        EXPECT_EQ(strip.sizeHint().height(), h);
        EXPECT_EQ(strip.heightForWidth(w), -1);
        // Every chip that shows sits on the same row.
        int top = -1;
        for (const QString& id : strip.stepIds()) {
            const QRect r = strip.clickableRect(id);
            if (r.isEmpty())
                continue;
            if (top < 0)
                top = r.top();
            EXPECT_EQ(r.top(), top) << id.toStdString();
            EXPECT_LE(r.bottom(), h);
        }
        EXPECT_GE(top, 0);
    }
}

TEST(StepStrip, WideEnoughShowsEveryChip) {
    StepStrip strip;
    strip.setSteps(planSteps(fullConfig(Variant::MultiHead), 6));
    strip.setCurrentStep(QStringLiteral("weights"));
    strip.resize(1900, strip.sizeHint().height());
    EXPECT_FALSE(strip.isScrolling());
    for (int s = 0; s < int(strip.stages().size()); ++s)
        EXPECT_FALSE(strip.isCollapsed(s)) << s;
    QSet<QRect> seen;
    for (const QString& id : strip.stepIds()) {
        const QRect r = strip.clickableRect(id);
        EXPECT_FALSE(r.isEmpty()) << id.toStdString();
        EXPECT_FALSE(seen.contains(r)) << id.toStdString();  // a chip of its own
        seen.insert(r);
    }
}

// A stage whose caption is wider than its chips ("dot product" over "scores"; German's
// "Skalarprodukt") centres its chips under the caption: no gap on one side only.
TEST(StepStrip, ChipsSitInTheMiddleOfTheirStage) {
    QTranslator german;
    ASSERT_TRUE(german.load(QStringLiteral(":/i18n/attention-lens_de.qm")));
    QCoreApplication::installTranslator(&german);
    const auto removeGerman = qScopeGuard([&] { QCoreApplication::removeTranslator(&german); });
    StepStrip strip;
    strip.setSteps(planSteps(fullConfig(Variant::MultiHead), 6));
    strip.setCurrentStep(QStringLiteral("weights"));
    strip.resize(1900, strip.sizeHint().height());
    ASSERT_FALSE(strip.isScrolling());
    int wider = 0;
    for (int s = 0; s < int(strip.stages().size()); ++s) {
        const QStringList ids = strip.stages()[size_t(s)].stepIds;
        const QRect stage = strip.stageRect(s);
        const QRect chips =
            strip.clickableRect(ids.front()).united(strip.clickableRect(ids.back()));
        ASSERT_FALSE(stage.isEmpty()) << s;
        ASSERT_TRUE(stage.contains(chips)) << s;
        if (!strip.stages()[size_t(s)].branch && stage.width() > chips.width() + 6)
            ++wider;
        EXPECT_NEAR(chips.center().x(), stage.center().x(), 1.5)
            << strip.stages()[size_t(s)].key.toStdString();
    }
    EXPECT_GE(wider, 1);  // the test sees a caption wider than its chips ("Skalarprodukt")
}

TEST(StepStrip, NarrowCollapsesAndScrollsKeepingTheCurrentStepVisible) {
    StepStrip strip;
    const std::vector<StepInfo> plan = planSteps(fullConfig(Variant::MultiHead), 6);
    strip.setSteps(plan);
    strip.resize(500, strip.sizeHint().height());
    strip.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&strip));
    QSignalSpy spy(&strip, &StepStrip::stepSelected);

    // Whatever step is current, its stage is open and its chip in view.
    for (const QString& id : strip.stepIds()) {
        SCOPED_TRACE(id.toStdString());
        strip.setCurrentStep(id);
        EXPECT_FALSE(strip.isCollapsed(stageOfStep(strip, id)));
        const QRect r = strip.clickableRect(id);
        EXPECT_FALSE(r.isEmpty());
        EXPECT_TRUE(strip.rect().contains(r));
    }
    EXPECT_EQ(spy.count(), 0);

    strip.setCurrentStep(QStringLiteral("keys_heads"));
    strip.setCurrentStep(QStringLiteral("weights"));
    // Too narrow for anything but the current stage: every other stage of several steps folds.
    for (int s = 0; s < int(strip.stages().size()); ++s)
        if (strip.stages()[size_t(s)].stepIds.size() > 1) {
            EXPECT_TRUE(strip.isCollapsed(s)) << s;
        }
    EXPECT_FALSE(strip.isCollapsed(stageIndex(strip, QStringLiteral("softmax"))));
    EXPECT_TRUE(strip.isScrolling());

    // Every stage can be reached with the mouse: scroll with the wheel until its chip shows,
    // click it, and the strip selects a step of that stage.
    for (int s = 0; s < int(strip.stages().size()); ++s) {
        const StepStrip::Stage stage = strip.stages()[size_t(s)];
        SCOPED_TRACE(stage.key.toStdString());
        const QString first = stage.stepIds.front();
        // Towards the stage: left when it lies before the current one, else right.
        const bool before = s < stageOfStep(strip, strip.currentStep());
        for (int tries = 0; tries < 40 && strip.clickableRect(first).width() < 8; ++tries) {
            QWheelEvent wheel(QPointF(250, 10), strip.mapToGlobal(QPointF(250, 10)), QPoint(),
                              QPoint(0, before ? 120 : -120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(&strip, &wheel);
        }
        const QRect r = strip.clickableRect(first);
        ASSERT_GE(r.width(), 8);
        const int signalsBefore = int(spy.count());
        const QString was = strip.currentStep();
        click(strip, r);
        EXPECT_EQ(stageOfStep(strip, strip.currentStep()), s);
        EXPECT_EQ(spy.count(), signalsBefore + (strip.currentStep() != was ? 1 : 0));
        EXPECT_FALSE(strip.clickableRect(strip.currentStep()).isEmpty());
    }

    // A folded stage opens at the step last shown in it.
    strip.setCurrentStep(QStringLiteral("weights"));
    const int heads = stageIndex(strip, QStringLiteral("heads"));
    ASSERT_TRUE(strip.isCollapsed(heads));
    const QRect headsChip = strip.clickableRect(QStringLiteral("queries_split"));
    EXPECT_EQ(headsChip, strip.clickableRect(QStringLiteral("keys_heads")));  // one chip
    if (!headsChip.isEmpty()) {
        click(strip, headsChip);
        EXPECT_EQ(strip.currentStep(), QStringLiteral("queries_split"));  // clicked above
    }
}

TEST(StepStrip, ArrowButtonsScroll) {
    StepStrip strip;
    strip.setSteps(planSteps(fullConfig(Variant::MultiHead), 6));
    strip.setCurrentStep(QStringLiteral("inputs"));
    strip.resize(420, strip.sizeHint().height());
    ASSERT_TRUE(strip.isScrolling());
    EXPECT_TRUE(strip.clickableRect(QStringLiteral("output")).isEmpty());
    QSignalSpy spy(&strip, &StepStrip::stepSelected);
    for (int i = 0; i < 30 && strip.clickableRect(QStringLiteral("output")).isEmpty(); ++i)
        QTest::mouseClick(&strip, Qt::LeftButton, Qt::NoModifier,
                          QPoint(strip.width() - 4, strip.height() / 2));
    EXPECT_FALSE(strip.clickableRect(QStringLiteral("output")).isEmpty());
    EXPECT_EQ(spy.count(), 0);  // scrolling selects nothing
    EXPECT_EQ(strip.currentStep(), QStringLiteral("inputs"));
}

TEST(StepStrip, KeyboardWalksTheStepsInOrder) {
    const std::vector<StepInfo> plan = planSteps(fullConfig(Variant::MultiHead), 6);
    StepStrip strip;
    strip.setSteps(plan);
    strip.resize(600, strip.sizeHint().height());
    strip.show();
    strip.setFocus();
    EXPECT_EQ(strip.focusPolicy(), Qt::StrongFocus);
    QSignalSpy spy(&strip, &StepStrip::stepSelected);

    QTest::keyClick(&strip, Qt::Key_Home);
    QStringList walked = {strip.currentStep()};
    for (size_t i = 1; i < plan.size(); ++i) {
        QTest::keyClick(&strip, Qt::Key_Right);
        walked << strip.currentStep();
        EXPECT_FALSE(strip.clickableRect(strip.currentStep()).isEmpty());
    }
    EXPECT_EQ(walked, idsOf(plan));
    QTest::keyClick(&strip, Qt::Key_Right);  // at the end it stays
    EXPECT_EQ(strip.currentStep(), QStringLiteral("output"));
    EXPECT_EQ(spy.count(), int(plan.size()));
    QTest::keyClick(&strip, Qt::Key_Left);
    EXPECT_EQ(strip.currentStep(), QString::fromStdString(plan[plan.size() - 2].id));
    QTest::keyClick(&strip, Qt::Key_Home);
    EXPECT_EQ(strip.currentStep(), QStringLiteral("inputs"));
    QTest::keyClick(&strip, Qt::Key_Left);  // at the start it stays
    EXPECT_EQ(strip.currentStep(), QStringLiteral("inputs"));
    QTest::keyClick(&strip, Qt::Key_End);
    EXPECT_EQ(strip.currentStep(), QStringLiteral("output"));
    EXPECT_EQ(spy.count(), int(plan.size()) + 3);
    EXPECT_EQ(spy.last().at(0).toString(), QStringLiteral("output"));

    // The focus ring around the current chip, for a look.
    strip.activateWindow();
    if (QTest::qWaitForWindowActive(&strip)) {
        strip.setFocus();
        QTest::keyClick(&strip, Qt::Key_Left);
        EXPECT_TRUE(strip.hasFocus());
        EXPECT_TRUE(testing::savePng(&strip, QStringLiteral("pipeline_focus_600.png")));
    }
}

TEST(StepStrip, OnlyTheUserEmitsStepSelected) {
    StepStrip strip;
    QSignalSpy spy(&strip, &StepStrip::stepSelected);
    strip.setSteps(planSteps(fullConfig(Variant::Causal), 6));
    strip.setCurrentStep(QStringLiteral("scores"));
    strip.resize(1200, strip.sizeHint().height());
    strip.setFontScale(1.6);
    strip.resize(500, strip.sizeHint().height());
    strip.setFontScale(1.0);
    strip.setSteps(planSteps(fullConfig(Variant::MultiHead), 6));  // keeps "scores"
    EXPECT_EQ(strip.currentStep(), QStringLiteral("scores"));
    strip.setSteps(planSteps(fullConfig(Variant::Simplified, {MaskKind::None, 0}), 6));
    EXPECT_EQ(strip.currentStep(), QStringLiteral("scores"));
    strip.setCurrentStep(QStringLiteral("no_such_step"));
    EXPECT_TRUE(strip.currentStep().isEmpty());
    EXPECT_EQ(spy.count(), 0);

    strip.setCurrentStep(QStringLiteral("weights"));
    strip.resize(1400, strip.sizeHint().height());
    click(strip, strip.clickableRect(QStringLiteral("context")));
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).toString(), QStringLiteral("context"));
    click(strip, strip.clickableRect(QStringLiteral("context")));  // already current
    EXPECT_EQ(spy.count(), 1);
}

TEST(StepStrip, AccessibleNameAndToolTips) {
    StepStrip strip;
    strip.setSteps(planSteps(fullConfig(Variant::MultiHead), 6));
    strip.setCurrentStep(QStringLiteral("weights"));
    EXPECT_FALSE(strip.accessibleName().isEmpty());
    EXPECT_TRUE(strip.accessibleDescription().contains(QStringLiteral("weights")));

    // A tab list with one tab per step, the current one selected.
    strip.resize(1900, strip.sizeHint().height());
    QAccessibleInterface* list = QAccessible::queryAccessibleInterface(&strip);
    ASSERT_NE(list, nullptr);
    EXPECT_EQ(list->role(), QAccessible::PageTabList);
    ASSERT_EQ(list->childCount(), int(strip.stepIds().size()));
    int selected = 0;
    for (int i = 0; i < list->childCount(); ++i) {
        QAccessibleInterface* tab = list->child(i);
        ASSERT_NE(tab, nullptr);
        EXPECT_EQ(tab->role(), QAccessible::PageTab);
        EXPECT_EQ(list->indexOfChild(tab), i);
        EXPECT_EQ(tab->parent(), list);
        const QString id = strip.stepIds()[i];
        EXPECT_TRUE(tab->text(QAccessible::Name).contains(id)) << id.toStdString();
        EXPECT_EQ(tab->text(QAccessible::Description), strip.stepDescription(id));
        if (tab->state().selected) {
            ++selected;
            EXPECT_EQ(id, QStringLiteral("weights"));
        }
        EXPECT_FALSE(tab->state().offscreen);
    }
    EXPECT_EQ(selected, 1);
    EXPECT_EQ(list->child(int(strip.stepIds().indexOf("queries_split")))->text(QAccessible::Name),
              QStringLiteral("Q split (queries_split)"));
    EXPECT_TRUE(strip.stepDescription(QStringLiteral("weights"))
                    .contains(QStringLiteral("torch.softmax(scaled_scores, dim=-1)")));
    EXPECT_TRUE(strip.stepDescription(QStringLiteral("weights"))
                    .contains(QStringLiteral("(b=1, h=2, T=6, T=6)")));
}

// A model layer's chips name its own block (StepInfo::block): GPT-2's LayerNorms and GELU, a
// Llama's RMSNorms and SwiGLU, Gemma 3's GeGLU, on screen and for a screen reader.
TEST(StepStrip, AModelLayersChipsNameItsOwnNormAndFeedForward) {
    auto chips = [](const DecoderArchitecture& a) {
        StepStrip strip;
        strip.setSteps(plannedModelSteps(a, 0, 5));
        strip.resize(1900, strip.sizeHint().height());
        std::map<QString, QString> byId;
        QAccessibleInterface* list = QAccessible::queryAccessibleInterface(&strip);
        for (int i = 0; i < int(strip.steps().size()); ++i) {
            byId[strip.stepIds()[i]] = StepStrip::chipLabelOf(strip.steps()[size_t(i)]);
            EXPECT_TRUE(
                list->child(i)->text(QAccessible::Name).startsWith(byId[strip.stepIds()[i]]));
        }
        for (const StepStrip::Stage& stage : strip.stages())
            if (stage.key == QLatin1String("input"))
                byId["stage:input"] = stage.caption;
        return byId;
    };
    DecoderArchitecture gpt2 = gpt2Architecture(2, 64, 4, 100, 32, 256, true, true);
    auto g = chips(gpt2);
    EXPECT_EQ(g["norm2"], "LayerNorm 2");
    EXPECT_EQ(g["ff_hidden"], "GELU");
    EXPECT_EQ(g["stage:input"], "LayerNorm 1");

    DecoderArchitecture llama = gpt2;
    llama.norm = NormKind::RmsNorm;
    llama.feedForward = FeedForwardKind::SwiGlu;
    llama.rope = true;
    llama.kvHeads = 2;
    auto l = chips(llama);
    EXPECT_EQ(l["norm2"], "RMSNorm 2");
    EXPECT_EQ(l["ff_hidden"], "SwiGLU");
    EXPECT_EQ(l["stage:input"], "RMSNorm 1");
    EXPECT_EQ(l["queries"], StepStrip::chipLabel(QStringLiteral("queries")));

    DecoderArchitecture gemma = llama;
    gemma.norm = NormKind::RmsNormOnePlus;
    gemma.feedForward = FeedForwardKind::GeGlu;
    EXPECT_EQ(chips(gemma)["ff_hidden"], "GeGLU");
}

// Light and dark, at the widths the main window can give it, normal and presentation size.
TEST(StepStrip, RendersLightAndDark) {
    struct Case {
        const char* name;
        Config config;
        const char* current;
    };
    const std::vector<Case> cases = {
        {"mha", fullConfig(Variant::MultiHead), "weights"},
        {"causal", fullConfig(Variant::Causal), "masked_scores"},
        {"simplified", fullConfig(Variant::Simplified, {MaskKind::None, 0}), "weights"},
    };
    QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    ASSERT_NE(fusion, nullptr);
    for (const bool dark : {false, true}) {
        for (const Case& c : cases) {
            for (const double scale : {1.0, 1.6}) {
                for (const int w : {500, 900, 1400, 1900}) {
                    QWidget frame;
                    frame.setStyle(fusion);
                    frame.setAutoFillBackground(true);
                    if (dark)
                        frame.setPalette(testing::darkPalette());
                    auto* strip = new StepStrip(&frame);
                    strip->setStyle(fusion);
                    strip->setSteps(planSteps(c.config, 6));
                    strip->setCurrentStep(QString::fromLatin1(c.current));
                    strip->setFontScale(scale);
                    strip->setFocus();
                    frame.resize(w, strip->sizeHint().height());
                    strip->resize(frame.size());
                    const QString name =
                        QStringLiteral("pipeline_%1_%2_x%3_%4.png")
                            .arg(QLatin1String(c.name))
                            .arg(w)
                            .arg(scale, 0, 'f', 1)
                            .arg(dark ? QStringLiteral("dark") : QStringLiteral("light"));
                    EXPECT_TRUE(testing::savePng(&frame, name));
                    EXPECT_FALSE(strip->clickableRect(strip->currentStep()).isEmpty());
                }
            }
        }
    }
    delete fusion;
}

}  // namespace
}  // namespace attn

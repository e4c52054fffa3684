// The main window end to end: typing, validation beside the controls, stale results, rapid
// requests, the pipeline strip, the shape trace of every variant, undo, the controls' limits,
// the panels' toggles and a window that fits a classroom projector.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include "app/input_panel.h"
#include "app/module_panel.h"
#include "app/shapes_panel.h"
#include "app/status_line.h"
#include "app/step_view.h"
#include "app/token_chips.h"
#include "app_test_util.h"
#include "engine/embeddings.h"
#include "export/head_grid.h"
#include "export/heatmap_view.h"
#include "teach/step_strip.h"
#include "tokenizer/tokenizer.h"

using namespace attn;
using attn::testing::change;
using attn::testing::settle;
using attn::testing::testOptions;

namespace {

Settings bookSettingsWith(Variant v) {
    Settings s;
    s.config.variant = v;
    s.config.heads = 2;
    s.config.mask = defaultMask(v);
    if (v == Variant::Rotary)
        s.config.headDim = 2;  // d_in / heads = 1.5 is no head size; RoPE turns pairs
    return s;
}

QStringList tableColumn(QTableWidget* t, int col) {
    QStringList out;
    for (int r = 0; r < t->rowCount(); ++r)
        out << (t->item(r, col) ? t->item(r, col)->text() : QString());
    return out;
}

const TraceRun& shown(MainWindow& w) {
    return *w.workspace()->shownRun();
}

}  // namespace

TEST(MainWindow, StartsWithTheBookExample) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.windowTitle(), QStringLiteral("Attention Lens"));
    ASSERT_NE(w.workspace()->shownRun(), nullptr);
    EXPECT_FALSE(w.workspace()->isStale());
    EXPECT_EQ(w.workspace()->settings().step, QStringLiteral("weights"));
    const HeatmapData& d = w.stepView()->heatmap()->data();
    EXPECT_EQ(d.rows, 6);
    EXPECT_EQ(d.cols, 6);
    EXPECT_EQ(w.inputPanel()->tokenChips()->tokenCount(), 6);
    const QString caption = w.stepView()->caption();
    EXPECT_TRUE(caption.contains(QStringLiteral("weights")));
    EXPECT_TRUE(caption.contains(QStringLiteral("softmax")));
    EXPECT_TRUE(caption.contains(QStringLiteral("(1, 2, 6, 6)")));
    // Not computing: no progress bar, no Cancel button.
    EXPECT_FALSE(w.status()->progress()->isVisible());
    EXPECT_FALSE(w.status()->cancel()->isVisible());
    EXPECT_EQ(w.findChild<QComboBox*>("presetCombo")->currentData().toString(), "book");
}

// A token that is a control character (GPT-2's 200 is a form feed, Qwen's vocabulary has \x0f)
// shows its escape on its chip, as the next-token list does: the chip was blank or a box.
TEST(MainWindow, AControlCharacterTokensChipShowsItsEscape) {
    TokenChips chips;
    chips.setTokens({gpt2Token(200), gpt2Token(198), gpt2Token(220)});
    EXPECT_EQ(chips.chipText(0), QStringLiteral("\\x0c\n200"));
    EXPECT_EQ(chips.chipText(1), QString(QChar(0x21B5)) + QStringLiteral("\n198"));  // a line break
    EXPECT_EQ(chips.chipText(2), QString(QChar(0x00B7)) + QStringLiteral("\n220"));  // a space
}

TEST(MainWindow, TypingUpdatesTokenChipsAndHeatmap) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* edit = w.inputPanel()->textEdit();
    edit->clear();
    edit->setFocus();
    QSignalSpy applied(w.workspace(), &Workspace::resultApplied);
    QTest::keyClicks(edit, QStringLiteral("Hello world"));
    ASSERT_TRUE(settle(w));
    EXPECT_GE(applied.count(), 1);
    EXPECT_EQ(w.workspace()->settings().source, InputSource::Text);
    // GPT-2: "Hello" = 15496, " world" = 995.
    TokenChips* chips = w.inputPanel()->tokenChips();
    ASSERT_EQ(chips->tokenCount(), 2);
    EXPECT_EQ(chips->chipText(0), QStringLiteral("Hello\n15496"));
    EXPECT_TRUE(chips->chipText(1).endsWith(QStringLiteral("\n995")));
    EXPECT_EQ(w.stepView()->heatmap()->data().rows, 2);
    EXPECT_EQ(shown(w).settings.text, QStringLiteral("Hello world"));

    QTest::keyClicks(edit, QStringLiteral(" again"));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(chips->tokenCount(), 3);
    EXPECT_EQ(w.stepView()->heatmap()->data().rows, 3);
}

TEST(MainWindow, PartialUtf8TokensShowHex) {
    MainWindow w(testOptions());
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("\U0001F600");  // an emoji is several byte-level tokens
    });
    ASSERT_TRUE(settle(w));
    TokenChips* chips = w.inputPanel()->tokenChips();
    ASSERT_GE(chips->tokenCount(), 1);
    EXPECT_TRUE(chips->chipText(0).contains(
        QRegularExpression(QStringLiteral("^[0-9a-f]{2}( [0-9a-f]{2})*\n"))))
        << chips->chipText(0).toStdString();
}

TEST(MainWindow, InvalidHeadCountShowsMessageBesideControlAndKeepsStaleResult) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    const quint64 goodGeneration = w.workspace()->shown()->generation;
    auto* heads = w.findChild<QSpinBox*>("headsSpin");
    ASSERT_NE(heads, nullptr);
    heads->setValue(3);  // d_out = 2
    ASSERT_TRUE(settle(w));
    const QString msg = w.fieldError(QStringLiteral("heads"));
    EXPECT_EQ(msg, QStringLiteral("d_out = 2 is not divisible by 3 heads, so the heads cannot "
                                  "share it equally. Valid head counts for d_out = 2: 1, 2."));
    auto* label = w.findChild<QLabel*>("error_heads");
    ASSERT_NE(label, nullptr);
    EXPECT_TRUE(label->isVisible());
    EXPECT_TRUE(heads->property("attnError").toBool());  // red outline
    // The last good result stays, greyed and labelled stale.
    EXPECT_EQ(w.workspace()->shown()->generation, goodGeneration);
    EXPECT_EQ(shown(w).trace->config.heads, 2);
    EXPECT_TRUE(w.workspace()->isStale());
    EXPECT_TRUE(w.stepView()->heatmap()->isStale());
    EXPECT_TRUE(w.fieldError(QStringLiteral("d_out")).isEmpty());
    // The status bar describes the settings, and says what is shown instead.
    EXPECT_EQ(w.status()->module()->text(),
              QStringLiteral("multi-head, 3 heads  (showing the last valid result: multi-head, 2 "
                             "heads)"));

    heads->setValue(1);
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.fieldError(QStringLiteral("heads")).isEmpty());
    EXPECT_FALSE(label->isVisible());
    EXPECT_FALSE(heads->property("attnError").toBool());
    EXPECT_FALSE(w.workspace()->isStale());
    EXPECT_EQ(shown(w).trace->config.heads, 1);
    EXPECT_EQ(w.status()->module()->text(), QStringLiteral("multi-head, 1 head"));
}

TEST(MainWindow, EmptyTextShowsInputError) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.inputPanel()->textEdit()->clear();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.fieldError(QStringLiteral("input")),
              QStringLiteral("The text has no tokens: type a word or two."));
    EXPECT_TRUE(w.workspace()->isStale());
}

TEST(MainWindow, NumbersBeyondAControlsLimitAreNamedNotTruncated) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* dOut = w.findChild<QSpinBox*>("d_outSpin");
    dOut->setFocus();
    dOut->selectAll();
    QTest::keyClicks(dOut, QStringLiteral("2000000"));
    EXPECT_EQ(dOut->text(), QStringLiteral("2000000"));  // the keystroke is kept, not dropped
    EXPECT_EQ(w.fieldError(QStringLiteral("d_out")),
              QStringLiteral("2000000 is more than this setting takes: at most 1,048,576."));
    // The setting keeps the last number the box could take (typing passed through 200000),
    // and the note says why the box's number is not used.
    EXPECT_EQ(w.workspace()->settings().config.dOut, 200000);
    QTest::keyClick(dOut, Qt::Key_Backspace);
    EXPECT_TRUE(w.fieldError(QStringLiteral("d_out")).isEmpty());
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().config.dOut, 200000);
    // Seeds take all 64 bits, as torch.manual_seed does.
    auto* seed = w.findChild<QLineEdit*>("seedEdit");
    seed->selectAll();
    QTest::keyClicks(seed, QStringLiteral("18446744073709551615"));
    EXPECT_EQ(w.workspace()->settings().config.seed, 18446744073709551615ull);
}

TEST(MainWindow, UndoBringsBackTheSettingsAndTheBookExample) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QUndoStack* undo = w.workspace()->undoStack();
    const Settings book = w.workspace()->settings();
    // Typing over the book example turns it into typed text, with chapter-2 embeddings.
    auto* edit = w.inputPanel()->textEdit();
    edit->setFocus();
    edit->moveCursor(QTextCursor::End);
    QTest::keyClicks(edit, QStringLiteral("!"));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().source, InputSource::Text);
    EXPECT_FALSE(shown(w).x == bookInputs());  // same words, chapter-2 vectors
    w.findChild<QSpinBox*>("d_outSpin")->setValue(4);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(shown(w).trace->config.dOut, 4);
    EXPECT_EQ(undo->count(), 2);
    EXPECT_EQ(undo->undoText(), QStringLiteral("Change d_out"));
    undo->undo();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.findChild<QSpinBox*>("d_outSpin")->value(), 2);
    EXPECT_EQ(shown(w).trace->config.dOut, 2);
    undo->undo();
    ASSERT_TRUE(settle(w));
    // The book's vectors again, not the same sentence through chapter-2 embeddings.
    EXPECT_EQ(w.workspace()->settings(), book);
    EXPECT_EQ(shown(w).settings.source, InputSource::Book);
    EXPECT_EQ(edit->toPlainText(), book.inputText());
    undo->redo();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().source, InputSource::Text);
}

TEST(MainWindow, RapidChangesDeliverOnlyTheNewestResult) {
    MainWindow w(testOptions());
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.config.dIn = s.config.dOut = 768;
        s.config.heads = 12;
        s.text = QStringLiteral("start");
    });
    ASSERT_TRUE(settle(w));
    QSignalSpy applied(w.workspace(), &Workspace::resultApplied);
    auto* edit = w.inputPanel()->textEdit();
    QString text;
    quint64 lastSubmitted = 0;
    for (int i = 0; i < 50; ++i) {
        text += QStringLiteral("w%1 ").arg(i);
        edit->setPlainText(text);
        QCoreApplication::processEvents();  // let the change be submitted
        lastSubmitted = w.workspace()->latestGeneration();
    }
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->appliedGeneration(), lastSubmitted);
    EXPECT_EQ(w.workspace()->shown()->generation, lastSubmitted);
    EXPECT_EQ(shown(w).settings.text, text);
    EXPECT_EQ(shown(w).trace->config.dOut, 768);
    quint64 prev = 0;
    for (const auto& args : applied) {
        const quint64 g = args.at(0).toULongLong();
        EXPECT_GT(g, prev);
        prev = g;
    }
    EXPECT_EQ(prev, lastSubmitted);
    EXPECT_EQ(w.stepView()->heatmap()->data().rows, shown(w).trace->tokens);
}

TEST(MainWindow, StepStripIsKeyboardNavigableAndKeepsTheStep) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    StepStrip* strip = w.stepView()->strip();
    const QStringList ids = strip->stepIds();
    ASSERT_FALSE(ids.isEmpty());
    strip->setFocus();
    QTest::keyClick(strip, Qt::Key_Home);
    EXPECT_EQ(w.workspace()->settings().step, ids.first());
    EXPECT_EQ(w.stepView()->heatmap()->data().stepId, ids.first());
    QTest::keyClick(strip, Qt::Key_Right);
    EXPECT_EQ(w.workspace()->settings().step, ids.at(1));
    QTest::keyClick(strip, Qt::Key_End);
    EXPECT_EQ(w.workspace()->settings().step, ids.last());
    QTest::keyClick(strip, Qt::Key_Left);
    EXPECT_EQ(w.workspace()->settings().step, ids.at(ids.size() - 2));

    // The step survives a change of module when it still exists.
    w.workspace()->selectStep(QStringLiteral("scores"));
    auto* variant = w.findChild<QComboBox*>("variantCombo");
    const int causal = variant->findData(int(Variant::Causal));
    variant->setCurrentIndex(causal);
    emit variant->activated(causal);
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.stepView()->heatmap()->data().stepId, QStringLiteral("scores"));
    EXPECT_EQ(strip->currentStep(), QStringLiteral("scores"));
    // The shape table highlights it, and a click in the table selects a step.
    QTableWidget* table = w.shapesPanel()->table();
    ASSERT_GE(table->currentRow(), 0);
    EXPECT_EQ(table->item(table->currentRow(), 0)->text(), QStringLiteral("scores"));
    const int row = int(tableColumn(table, 0).indexOf(QStringLiteral("context")));
    ASSERT_GE(row, 0);
    table->setCurrentCell(row, 1);
    EXPECT_EQ(w.workspace()->settings().step, QStringLiteral("context"));
}

TEST(MainWindow, HeadSelectorAndGridFollowPerHeadSteps) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->selectStep(QStringLiteral("weights"));
    QTRY_COMPARE(w.stepView()->headGrid()->headCount(), 2);
    EXPECT_TRUE(w.stepView()->headGrid()->isVisible());
    w.workspace()->selectHead(1);
    EXPECT_EQ(w.stepView()->heatmap()->data().head, 1);
    EXPECT_EQ(w.findChild<QComboBox*>("headCombo")->currentIndex(), 1);
    w.workspace()->selectStep(QStringLiteral("inputs"));
    EXPECT_FALSE(w.stepView()->headGrid()->isVisible());
    EXPECT_FALSE(w.findChild<QComboBox*>("headCombo")->isVisible());
}

TEST(MainWindow, ShapeTraceListsTheStepsOfEveryVariant) {
    // The book example: b = 1, T = 6, d_in = 3, d_out = 2, h = 2, hd = 1.
    const std::map<Variant, std::map<QString, QString>> expected = {
        {Variant::Simplified,
         {{"inputs", "(b=1, T=6, d_in=3)"},
          {"scores", "(b=1, T=6, T=6)"},
          {"output", "(b=1, T=6, d_in=3)"}}},
        {Variant::SelfAttentionV1,
         {{"queries", "(b=1, T=6, d_out=2)"}, {"weights", "(b=1, T=6, T=6)"}}},
        {Variant::Causal, {{"mask", "(T=6, T=6)"}, {"masked_scores", "(b=1, T=6, T=6)"}}},
        {Variant::MultiHeadWrapper,
         {{"weights", "(head=2, b=1, T=6, T=6)"}, {"output", "(b=1, T=6, h*d_out=4)"}}},
        {Variant::MultiHead,
         {{"queries_split", "(b=1, T=6, h=2, hd=1)"},
          {"queries_heads", "(b=1, h=2, T=6, hd=1)"},
          {"weights", "(b=1, h=2, T=6, T=6)"},
          {"context", "(b=1, T=6, d_out=2)"}}},
        {Variant::GroupedQuery,  // one key/value group for the two heads
         {{"keys", "(b=1, T=6, G*hd=1)"},
          {"keys_groups", "(b=1, G=1, T=6, hd=1)"},
          {"keys_repeated", "(b=1, h=2, T=6, hd=1)"}}},
        {Variant::Latent, {{"latent", "(b=1, T=6, latent=16)"}, {"keys", "(b=1, T=6, d_out=2)"}}},
        {Variant::Rotary,
         {{"queries", "(b=1, T=6, h*hd=4)"},
          {"rope_cos", "(T=6, hd=2)"},
          {"keys_rotated", "(b=1, G=1, T=6, hd=2)"},
          {"output", "(b=1, T=6, d_in=3)"}}},
    };
    MainWindow w(testOptions());
    w.show();
    QTableWidget* table = w.shapesPanel()->table();
    for (Variant v : allVariants()) {
        SCOPED_TRACE(variantName(v));
        const Settings s = bookSettingsWith(v);
        w.workspace()->reset({s, {}});
        ASSERT_TRUE(settle(w));
        EXPECT_FALSE(w.workspace()->isStale());
        QStringList planIds, planShapes;
        for (const auto& st : planSteps(s.config, 6)) {
            planIds << QString::fromStdString(st.id);
            planShapes << namedShape(st);
        }
        EXPECT_EQ(tableColumn(table, 0), planIds);
        EXPECT_EQ(tableColumn(table, 1), planShapes);
        EXPECT_EQ(w.stepView()->strip()->stepIds(), planIds);
        EXPECT_EQ(planIds.last(), QStringLiteral("output"));
        if (expected.count(v))
            for (const auto& [id, shape] : expected.at(v)) {
                const int row = int(planIds.indexOf(id));
                ASSERT_GE(row, 0) << id.toStdString();
                EXPECT_EQ(table->item(row, 1)->text(), shape) << id.toStdString();
            }
    }
}

TEST(MainWindow, PresetsSetTheModelAndEditsMakeItCustom) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* preset = w.findChild<QComboBox*>("presetCombo");
    const int idx = preset->findData(QStringLiteral("gpt2-small"));
    ASSERT_GE(idx, 0);
    preset->setCurrentIndex(idx);
    emit preset->activated(idx);
    ASSERT_TRUE(settle(w));
    const Settings& s = w.workspace()->settings();
    EXPECT_EQ(s.config.dIn, 768);
    EXPECT_EQ(s.config.dOut, 768);
    EXPECT_EQ(s.config.heads, 12);
    EXPECT_EQ(s.source, InputSource::Text);
    EXPECT_EQ(shown(w).trace->config.heads, 12);
    w.findChild<QSpinBox*>("headsSpin")->setValue(6);
    EXPECT_EQ(preset->currentData().toString(), QStringLiteral("custom"));
    // A lesson screen on the book's vectors reads as the book example, whatever its module.
    Settings lesson;
    lesson.config.variant = Variant::SelfAttentionV1;
    lesson.config.mask = defaultMask(Variant::SelfAttentionV1);
    w.workspace()->reset({lesson, {}});
    EXPECT_EQ(preset->currentData().toString(), QStringLiteral("book"));
}

TEST(MainWindow, SettingsAreRememberedThroughTheCodec) {
    QSettings().clear();
    {
        MainWindow w;  // with settings (a directory of this test process, see test_main.cpp)
        w.show();
        ASSERT_TRUE(settle(w));
        change(w, [](Settings& s) {
            s.source = InputSource::Text;
            s.text = QStringLiteral("remember me");
            s.config.variant = Variant::Causal;
            s.config.mask = defaultMask(Variant::Causal);
            s.config.dOut = 4;
            s.config.seed = 18446744073709551615ull;
            s.colorScale = ColorScale::Row;
        });
        w.workspace()->selectStep(QStringLiteral("scores"));
        ASSERT_TRUE(settle(w));
        w.close();
    }
    EXPECT_EQ(QSettings().value("settings/d_out").toLongLong(), 4);
    MainWindow again;
    again.show();
    ASSERT_TRUE(settle(again));
    const Settings& s = again.workspace()->settings();
    EXPECT_EQ(s.text, QStringLiteral("remember me"));
    EXPECT_EQ(s.config.variant, Variant::Causal);
    EXPECT_EQ(s.config.dOut, 4);
    EXPECT_EQ(s.config.seed, 18446744073709551615ull);
    EXPECT_EQ(s.colorScale, ColorScale::Row);
    EXPECT_EQ(s.step, QStringLiteral("scores"));
    QSettings().clear();
}

TEST(MainWindow, PresentationModeHidesPanelsAndCopyImageFillsClipboard) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QAction* presentation = w.findChild<QAction*>("actionPresentation");
    ASSERT_NE(presentation, nullptr);
    presentation->setChecked(true);
    EXPECT_FALSE(w.dock("inputDock")->isVisible());
    EXPECT_FALSE(w.dock("explainDock")->isVisible());
    // The hover readout stays off the projector.
    EXPECT_FALSE(w.findChild<QLabel*>("hoverLabel")->isVisible());
    presentation->setChecked(false);
    EXPECT_TRUE(w.dock("inputDock")->isVisible());
    EXPECT_TRUE(w.dock("explainDock")->isVisible());

    QApplication::clipboard()->clear();
    w.findChild<QAction*>("actionCopyImage")->trigger();
    const QImage image = QApplication::clipboard()->image();
    ASSERT_FALSE(image.isNull());
    // The figure's own size at 2x: square cells for the 6 x 6 weights.
    EXPECT_GT(image.width(), 600);
}

TEST(MainWindow, PanelShortcutsRaiseATabbedPanelAndHideOneOnTop) {
    MainWindow w(testOptions());
    w.resize(1280, 720);
    w.show();
    ASSERT_TRUE(settle(w));
    QDockWidget* explain = w.dock("explainDock");
    QDockWidget* tokens = w.dock("tokenDock");
    explain->raise();
    QCoreApplication::processEvents();
    ASSERT_TRUE(tokens->visibleRegion().isEmpty());  // a tab behind Explain
    QAction* toggle = w.findChild<QAction*>("action_tokenDock");
    toggle->trigger();
    QCoreApplication::processEvents();
    EXPECT_TRUE(tokens->isVisible());
    EXPECT_FALSE(tokens->visibleRegion().isEmpty());  // raised, not hidden
    toggle->trigger();
    QCoreApplication::processEvents();
    EXPECT_FALSE(tokens->isVisible());
    toggle->trigger();
    EXPECT_TRUE(tokens->isVisible());
}

TEST(MainWindow, EveryVisibleControlGetsItsMinimumSizeAt1280x720) {
    MainWindow w(testOptions());
    // What the window needs with every panel open fits a 1280 x 720 projector.
    EXPECT_LE(w.minimumSizeHint().width(), 1280);
    EXPECT_LE(w.minimumSizeHint().height(), 690);
    w.resize(1280, 690);
    w.show();
    ASSERT_TRUE(settle(w));
    // The longest error lines and a sentence, as a user would cause them.
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("A longer sentence to tokenize, with several words in it.");
        s.config.heads = 3;
    });
    ASSERT_TRUE(settle(w));
    w.workspace()->selectStep(QStringLiteral("weights_unmasked"));
    QCoreApplication::processEvents();
    int checked = 0;
    for (QWidget* c : w.findChildren<QWidget*>()) {
        // Qt's own parts of a control (a spin box's line edit, a dock's title buttons) are
        // sized by their owner.
        if (!c->isVisible() || c->isWindow() || qobject_cast<QScrollArea*>(c->parentWidget()) ||
            c->objectName().startsWith(QLatin1String("qt_")))
            continue;
        const bool control = qobject_cast<QAbstractSpinBox*>(c) || qobject_cast<QComboBox*>(c) ||
                             qobject_cast<QAbstractButton*>(c) || qobject_cast<QLineEdit*>(c);
        if (!control)
            continue;
        // Inside a scroll area (the settings column) the viewport may cut it; the control
        // itself must still have its size.
        const QSize min = c->minimumSizeHint();
        EXPECT_GE(c->width(), min.width())
            << c->objectName().toStdString() << " " << c->metaObject()->className();
        EXPECT_GE(c->height(), min.height()) << c->objectName().toStdString();
        ++checked;
    }
    EXPECT_GT(checked, 15);
    // The settings column is wide enough for its widest control: no control is cut at the right.
    auto* scroll = w.findChild<QScrollArea*>("settingsScroll");
    ASSERT_NE(scroll, nullptr);
    EXPECT_GE(scroll->viewport()->width(), scroll->widget()->minimumSizeHint().width());
    // The heatmap is the largest thing on screen.
    const QSize heat = w.stepView()->heatmap()->size();
    for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
        if (d->isVisible()) {
            EXPECT_LT(d->width() * d->height(), heat.width() * heat.height())
                << d->objectName().toStdString();
        }
    }
}

TEST(MainWindow, TypingAtGpt2SmallSizesKeepsTheEventLoopRunningWhileTheWorkerComputes) {
    // How long the GUI thread may stall is a speed goal and lives in
    // bench/app_latency_bench.cpp. This test checks the property behind it, which holds on any
    // machine: while a 1,000-token trace is being computed the GUI thread keeps running its event
    // loop, and every key typed meanwhile ends up in the result.
    MainWindow w(testOptions());
    w.resize(1600, 1000);
    w.show();
    QString text;
    while (text.size() < 5200)
        text += QStringLiteral("Attention lets every token look back at the tokens before it. ");
    change(w, [&](Settings& s) {
        s.source = InputSource::Text;
        s.text = text;
        s.config.dIn = s.config.dOut = 768;
        s.config.heads = 12;
    });
    ASSERT_TRUE(settle(w, 180000));
    ASSERT_GE(shown(w).trace->tokens, 1000);
    w.dock("tokenDock")->raise();  // with the token view showing

    auto* edit = w.inputPanel()->textEdit();
    edit->setFocus();
    edit->moveCursor(QTextCursor::End);
    int ticksWhileBusy = 0;
    QTimer probe;
    probe.setInterval(1);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        if (w.workspace()->isBusy())
            ++ticksWhileBusy;
    });
    probe.start();
    for (int i = 0; i < 15; ++i) {
        QTest::keyClick(edit, Qt::Key_A);
        QTest::qWait(40);
    }
    ASSERT_TRUE(settle(w, 180000));
    probe.stop();
    EXPECT_GT(ticksWhileBusy, 0) << "no event was handled while the worker computed";
    EXPECT_TRUE(shown(w).settings.text.endsWith(QStringLiteral("aaaaaaaaaaaaaaa")));
    EXPECT_EQ(shown(w).settings.text.size(), text.size() + 15);
}

// A message in the status bar ("Saved ...", a session's title) takes the place of the token
// count and the module: shown before the window was (a session opened at start) it was painted
// over them, both readable as neither.
TEST(MainWindow, AStatusMessageTakesThePlaceOfTheStatusLabels) {
    MainWindow w(testOptions());
    w.statusBar()->showMessage(QStringLiteral("Saved lesson.attnlens"), 60000);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    auto* tokens = w.findChild<QLabel*>(QStringLiteral("tokensStatus"));
    auto* module = w.findChild<QLabel*>(QStringLiteral("moduleStatus"));
    ASSERT_TRUE(tokens && module);
    QCoreApplication::processEvents();
    EXPECT_FALSE(tokens->isVisible());
    EXPECT_FALSE(module->isVisible());
    w.statusBar()->clearMessage();
    QCoreApplication::processEvents();
    EXPECT_TRUE(tokens->isVisible());
    EXPECT_TRUE(module->isVisible());
    // And a message while the window shows.
    w.statusBar()->showMessage(QStringLiteral("Exported weights.png"), 60000);
    QCoreApplication::processEvents();
    EXPECT_FALSE(tokens->isVisible());
    w.statusBar()->clearMessage();
    QCoreApplication::processEvents();
    EXPECT_TRUE(tokens->isVisible());
}

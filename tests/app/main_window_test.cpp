// The main window end to end: typing, validation beside the controls, stale results, rapid
// requests, the pipeline strip and the shape trace of every variant.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QTimer>

#include "app/heatmap_view.h"
#include "app/token_chips.h"
#include "app_test_util.h"
#include "engine/trace.h"

using namespace attn;
using attn::testing::settle;
using attn::testing::testOptions;

namespace {

AppState bookState(Variant v) {
    AppState s;
    s.source = InputSource::Book;
    s.config.variant = v;
    s.config.dIn = 3;
    s.config.dOut = 2;
    s.config.heads = 2;
    s.config.mask = defaultMask(v);
    return s;
}

QStringList tableColumn(QTableWidget* t, int col) {
    QStringList out;
    for (int r = 0; r < t->rowCount(); ++r)
        out << (t->item(r, col) ? t->item(r, col)->text() : QString());
    return out;
}

}  // namespace

TEST(MainWindow, StartsWithTheBookExample) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.windowTitle(), QStringLiteral("Attention Lens"));
    ASSERT_NE(w.shownResult(), nullptr);
    EXPECT_FALSE(w.isStale());
    EXPECT_EQ(w.currentStep(), QStringLiteral("weights"));
    const HeatmapData& d = w.heatmapView()->data();
    EXPECT_EQ(d.rows, 6);
    EXPECT_EQ(d.cols, 6);
    EXPECT_EQ(w.tokenChips()->tokenCount(), 6);
    EXPECT_TRUE(w.stepCaption().contains(QStringLiteral("weights")));
    EXPECT_TRUE(w.stepCaption().contains(QStringLiteral("softmax")));
    EXPECT_TRUE(w.stepCaption().contains(QStringLiteral("(1, 2, 6, 6)")));
    // Not computing: no progress bar, no Cancel button.
    EXPECT_FALSE(w.findChild<QProgressBar*>("traceProgress")->isVisible());
    EXPECT_FALSE(w.findChild<QPushButton*>("cancelButton")->isVisible());
}

TEST(MainWindow, TypingUpdatesTokenChipsAndHeatmap) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* edit = w.findChild<QPlainTextEdit*>("textEdit");
    ASSERT_NE(edit, nullptr);
    edit->clear();
    edit->setFocus();
    QSignalSpy applied(&w, &MainWindow::resultApplied);
    QTest::keyClicks(edit, QStringLiteral("Hello world"));
    ASSERT_TRUE(settle(w));
    EXPECT_GE(applied.count(), 1);
    EXPECT_EQ(w.state().source, InputSource::Text);
    // GPT-2: "Hello" = 15496, " world" = 995.
    ASSERT_EQ(w.tokenChips()->tokenCount(), 2);
    EXPECT_EQ(w.tokenChips()->chipText(0), QStringLiteral("Hello\n15496"));
    EXPECT_TRUE(w.tokenChips()->chipText(1).endsWith(QStringLiteral("\n995")));
    const HeatmapData& d = w.heatmapView()->data();
    EXPECT_EQ(d.rows, 2);
    EXPECT_EQ(d.cols, 2);
    EXPECT_EQ(w.shownResult()->request.text, QStringLiteral("Hello world"));

    QTest::keyClicks(edit, QStringLiteral(" again"));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.tokenChips()->tokenCount(), 3);
    EXPECT_EQ(w.heatmapView()->data().rows, 3);
}

TEST(MainWindow, PartialUtf8TokensShowHex) {
    MainWindow w(testOptions());
    AppState s = w.state();
    s.source = InputSource::Text;
    s.text = QStringLiteral("\U0001F600");  // an emoji is several byte-level tokens
    w.setState(s);
    ASSERT_TRUE(settle(w));
    ASSERT_GE(w.tokenChips()->tokenCount(), 1);
    const QString chip = w.tokenChips()->chipText(0);
    EXPECT_TRUE(chip.contains(QRegularExpression(QStringLiteral("^[0-9a-f]{2}( [0-9a-f]{2})*\n"))))
        << chip.toStdString();
}

TEST(MainWindow, InvalidHeadCountShowsMessageBesideControlAndKeepsStaleResult) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    ASSERT_NE(w.shownResult(), nullptr);
    const quint64 goodGeneration = w.shownResult()->generation;
    auto* heads = w.findChild<QSpinBox*>("headsSpin");
    ASSERT_NE(heads, nullptr);
    heads->setValue(3);  // d_out = 2
    ASSERT_TRUE(settle(w));
    const QString msg = w.fieldError(QStringLiteral("heads"));
    EXPECT_TRUE(msg.contains(QStringLiteral("divisible"))) << msg.toStdString();
    EXPECT_TRUE(msg.contains(QStringLiteral("1, 2"))) << msg.toStdString();
    auto* label = w.findChild<QLabel*>("error_heads");
    ASSERT_NE(label, nullptr);
    EXPECT_TRUE(label->isVisible());
    EXPECT_TRUE(heads->property("attnError").toBool());  // red outline
    auto* outline = w.findChild<QWidget*>("errorOutline_headsSpin");
    ASSERT_NE(outline, nullptr);
    EXPECT_TRUE(outline->isVisible());
    // The last good result stays, greyed and labelled stale.
    ASSERT_NE(w.shownResult(), nullptr);
    EXPECT_EQ(w.shownResult()->generation, goodGeneration);
    EXPECT_EQ(w.shownResult()->trace->config.heads, 2);
    EXPECT_TRUE(w.isStale());
    EXPECT_TRUE(w.heatmapView()->isStale());
    EXPECT_TRUE(w.fieldError(QStringLiteral("d_out")).isEmpty());

    heads->setValue(1);
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.fieldError(QStringLiteral("heads")).isEmpty());
    EXPECT_FALSE(label->isVisible());
    EXPECT_FALSE(heads->property("attnError").toBool());
    EXPECT_FALSE(outline->isVisible());
    EXPECT_FALSE(w.isStale());
    EXPECT_EQ(w.shownResult()->trace->config.heads, 1);
}

TEST(MainWindow, EmptyTextShowsInputError) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.findChild<QPlainTextEdit*>("textEdit")->clear();
    ASSERT_TRUE(settle(w));
    EXPECT_FALSE(w.fieldError(QStringLiteral("input")).isEmpty());
    EXPECT_TRUE(w.isStale());
}

TEST(MainWindow, RapidChangesDeliverOnlyTheNewestResult) {
    MainWindow w(testOptions());
    AppState s = w.state();
    s.source = InputSource::Text;
    s.config.dIn = s.config.dOut = 768;
    s.config.heads = 12;
    s.text = QStringLiteral("start");
    w.setState(s);
    ASSERT_TRUE(settle(w));
    QSignalSpy applied(&w, &MainWindow::resultApplied);
    auto* edit = w.findChild<QPlainTextEdit*>("textEdit");
    QString text;
    quint64 lastSubmitted = 0;
    for (int i = 0; i < 50; ++i) {
        text += QStringLiteral("w%1 ").arg(i);
        edit->setPlainText(text);
        QCoreApplication::processEvents();  // let the change be submitted
        lastSubmitted = w.controller()->latestGeneration();
    }
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.appliedGeneration(), lastSubmitted);
    ASSERT_NE(w.shownResult(), nullptr);
    EXPECT_EQ(w.shownResult()->generation, lastSubmitted);
    EXPECT_EQ(w.shownResult()->request.text, text);
    EXPECT_EQ(w.shownResult()->trace->config.dOut, 768);
    // Every applied generation is increasing, and far fewer than 50 results were shown.
    quint64 prev = 0;
    for (const auto& args : applied) {
        const quint64 g = args.at(0).toULongLong();
        EXPECT_GT(g, prev);
        prev = g;
    }
    EXPECT_EQ(prev, lastSubmitted);
    EXPECT_LE(applied.count(), 50);
    const int64_t tokens = w.shownResult()->trace->tokens;
    EXPECT_EQ(w.heatmapView()->data().rows, tokens);
}

TEST(MainWindow, PipelineStripIsKeyboardNavigableAndKeepsTheStep) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* list = w.findChild<QListWidget*>("pipelineList");
    ASSERT_NE(list, nullptr);
    const QStringList ids = w.pipelineSteps();
    ASSERT_FALSE(ids.isEmpty());
    list->setFocus();
    QTest::keyClick(list, Qt::Key_Home);
    EXPECT_EQ(w.currentStep(), ids.first());
    EXPECT_EQ(w.heatmapView()->data().stepId, ids.first());
    QTest::keyClick(list, Qt::Key_Right);
    EXPECT_EQ(w.currentStep(), ids.at(1));
    QTest::keyClick(list, Qt::Key_End);
    EXPECT_EQ(w.currentStep(), ids.last());
    QTest::keyClick(list, Qt::Key_Left);
    EXPECT_EQ(w.currentStep(), ids.at(ids.size() - 2));

    // The step survives a configuration change when it still exists.
    w.selectStep(QStringLiteral("scores"));
    auto* variant = w.findChild<QComboBox*>("variantCombo");
    variant->setCurrentIndex(variant->findData(QStringLiteral("causal")));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.currentStep(), QStringLiteral("scores"));
    EXPECT_EQ(w.heatmapView()->data().stepId, QStringLiteral("scores"));
    // The shape table highlights it.
    auto* table = w.findChild<QTableWidget*>("shapeTable");
    ASSERT_GE(table->currentRow(), 0);
    EXPECT_EQ(table->item(table->currentRow(), 0)->text(), QStringLiteral("scores"));
    // Clicking a row in the table selects the step.
    const int row = int(tableColumn(table, 0).indexOf(QStringLiteral("context")));
    ASSERT_GE(row, 0);
    table->setCurrentCell(row, 1);
    EXPECT_EQ(w.currentStep(), QStringLiteral("context"));
}

TEST(MainWindow, HeadSelectorAndGridFollowPerHeadSteps) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.selectStep(QStringLiteral("weights"));
    EXPECT_EQ(w.headGrid()->headCount(), 2);
    w.selectHead(1);
    EXPECT_EQ(w.heatmapView()->data().head, 1);
    w.selectStep(QStringLiteral("inputs"));
    EXPECT_FALSE(w.headGrid()->isVisible());
}

TEST(MainWindow, ShapeTraceListsSpecStepsForEveryVariant) {
    // SPEC section 4, book example: b = 1, T = 6, d_in = 3, d_out = 2, h = 2, hd = 1.
    const std::map<Variant, std::map<QString, QString>> expected = {
        {Variant::Simplified,
         {{"inputs", "(1, 6, 3)"},
          {"scores", "(1, 6, 6)"},
          {"weights", "(1, 6, 6)"},
          {"context", "(1, 6, 3)"},
          {"output", "(1, 6, 3)"}}},
        {Variant::SelfAttentionV1,
         {{"inputs", "(1, 6, 3)"},
          {"queries", "(1, 6, 2)"},
          {"keys", "(1, 6, 2)"},
          {"values", "(1, 6, 2)"},
          {"scores", "(1, 6, 6)"},
          {"weights", "(1, 6, 6)"},
          {"context", "(1, 6, 2)"},
          {"output", "(1, 6, 2)"}}},
        {Variant::SelfAttention,
         {{"queries", "(1, 6, 2)"},
          {"scores", "(1, 6, 6)"},
          {"weights", "(1, 6, 6)"},
          {"output", "(1, 6, 2)"}}},
        {Variant::Causal,
         {{"queries", "(1, 6, 2)"},
          {"scores", "(1, 6, 6)"},
          {"mask", "(6, 6)"},
          {"masked_scores", "(1, 6, 6)"},
          {"scaled_scores", "(1, 6, 6)"},
          {"weights", "(1, 6, 6)"},
          {"context", "(1, 6, 2)"},
          {"output", "(1, 6, 2)"}}},
        {Variant::MultiHeadWrapper,
         {{"inputs", "(1, 6, 3)"}, {"weights", "(2, 1, 6, 6)"}, {"output", "(1, 6, 4)"}}},
        {Variant::MultiHead,
         {{"inputs", "(1, 6, 3)"},
          {"queries", "(1, 6, 2)"},
          {"queries_split", "(1, 6, 2, 1)"},
          {"queries_heads", "(1, 2, 6, 1)"},
          {"keys_heads", "(1, 2, 6, 1)"},
          {"values_heads", "(1, 2, 6, 1)"},
          {"scores", "(1, 2, 6, 6)"},
          {"mask", "(6, 6)"},
          {"weights", "(1, 2, 6, 6)"},
          {"context_heads", "(1, 2, 6, 1)"},
          {"context_transposed", "(1, 6, 2, 1)"},
          {"context", "(1, 6, 2)"},
          {"output", "(1, 6, 2)"}}},
    };
    MainWindow w(testOptions());
    w.show();
    auto* table = w.findChild<QTableWidget*>("shapeTable");
    ASSERT_NE(table, nullptr);
    for (Variant v : allVariants()) {
        SCOPED_TRACE(variantName(v));
        const AppState s = bookState(v);
        w.setState(s);
        ASSERT_TRUE(settle(w));
        ASSERT_NE(w.shownResult(), nullptr);
        EXPECT_FALSE(w.isStale());
        const auto plan = planSteps(s.config, 6);
        QStringList planIds, planShapes;
        for (const auto& st : plan) {
            planIds << QString::fromStdString(st.id);
            planShapes << namedShape(st);
        }
        EXPECT_EQ(tableColumn(table, 0), planIds);
        EXPECT_EQ(tableColumn(table, 1), planShapes);
        EXPECT_EQ(w.pipelineSteps(), planIds);
        EXPECT_EQ(planIds.last(), QStringLiteral("output"));
        for (const auto& [id, shape] : expected.at(v)) {
            const int row = int(planIds.indexOf(id));
            ASSERT_GE(row, 0) << id.toStdString();
            EXPECT_EQ(plainShape(plan[size_t(row)].shape), shape) << id.toStdString();
            // The table shows the shape with named dims, e.g. (b=1, h=2, T=6, T=6).
            const QString named = table->item(row, 1)->text();
            EXPECT_TRUE(named.startsWith(QLatin1Char('(')) && named.contains(QLatin1Char('=')))
                << named.toStdString();
        }
    }
    // Multi-head weights as the SPEC names them.
    w.setState(bookState(Variant::MultiHead));
    ASSERT_TRUE(settle(w));
    const int row = int(tableColumn(table, 0).indexOf(QStringLiteral("weights")));
    ASSERT_GE(row, 0);
    EXPECT_EQ(table->item(row, 1)->text(), QStringLiteral("(b=1, h=2, T=6, T=6)"));
}

TEST(MainWindow, PresetsSetTheModel) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* preset = w.findChild<QComboBox*>("presetCombo");
    EXPECT_EQ(preset->currentData().toString(), QStringLiteral("book"));
    const int idx = preset->findData(QStringLiteral("gpt2-small"));
    ASSERT_GE(idx, 0);
    preset->setCurrentIndex(idx);
    emit preset->activated(idx);
    ASSERT_TRUE(settle(w));
    const AppState s = w.state();
    EXPECT_EQ(s.config.dIn, 768);
    EXPECT_EQ(s.config.dOut, 768);
    EXPECT_EQ(s.config.heads, 12);
    EXPECT_EQ(s.config.variant, Variant::MultiHead);
    EXPECT_EQ(s.source, InputSource::Text);
    EXPECT_EQ(w.shownResult()->trace->config.heads, 12);
    // Changing a model control turns the preset into Custom.
    w.findChild<QSpinBox*>("headsSpin")->setValue(6);
    EXPECT_EQ(preset->currentData().toString(), QStringLiteral("custom"));
    ASSERT_TRUE(settle(w));
}

TEST(MainWindow, SettingsRememberTheLastConfiguration) {
    QSettings().clear();
    {
        MainWindow w;  // with settings (test-mode paths, see test_main.cpp)
        w.show();
        ASSERT_TRUE(settle(w));
        AppState s = w.state();
        s.source = InputSource::Text;
        s.text = QStringLiteral("remember me");
        s.config.variant = Variant::Causal;
        s.config.mask = defaultMask(Variant::Causal);
        s.config.dOut = 4;
        s.step = QStringLiteral("scores");
        w.setState(s);
        ASSERT_TRUE(settle(w));
        w.close();
    }
    MainWindow again;
    again.show();
    ASSERT_TRUE(settle(again));
    const AppState s = again.state();
    EXPECT_EQ(s.text, QStringLiteral("remember me"));
    EXPECT_EQ(s.config.variant, Variant::Causal);
    EXPECT_EQ(s.config.dOut, 4);
    EXPECT_EQ(again.currentStep(), QStringLiteral("scores"));
    QSettings().clear();
}

TEST(MainWindow, PresentationModeHidesPanelsAndCopyImageFillsClipboard) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QAction* presentation = w.findChild<QAction*>("actionPresentation");
    ASSERT_NE(presentation, nullptr);
    presentation->setChecked(true);
    EXPECT_FALSE(w.findChild<QDockWidget*>("inputDock")->isVisible());
    EXPECT_FALSE(w.findChild<QDockWidget*>("shapesDock")->isVisible());
    presentation->setChecked(false);
    EXPECT_TRUE(w.findChild<QDockWidget*>("inputDock")->isVisible());
    EXPECT_TRUE(w.findChild<QDockWidget*>("shapesDock")->isVisible());

    QApplication::clipboard()->clear();
    w.findChild<QAction*>("actionCopyImage")->trigger();
    EXPECT_FALSE(QApplication::clipboard()->image().isNull());
}

TEST(MainWindow, TypingAtGpt2SmallSizesKeepsTheEventLoopRunningWhileTheWorkerComputes) {
    // How long the GUI thread may stall is a speed goal and lives in
    // bench/app_latency_bench.cpp (max_stall_typing_ms). This test checks the property behind
    // it, which holds on any machine: while a 1,000-token trace is being computed the GUI
    // thread keeps running its event loop (a trace computed on it would let no timer fire
    // while the controller is busy), and every key typed meanwhile ends up in the result.
    MainWindow w(testOptions());
    w.resize(1600, 1000);
    w.show();
    AppState s = w.state();
    s.source = InputSource::Text;
    QString text;
    while (text.size() < 5200)
        text += QStringLiteral("Attention lets every token look back at the tokens before it. ");
    s.text = text;
    s.config.dIn = s.config.dOut = 768;
    s.config.heads = 12;
    w.setState(s);
    ASSERT_TRUE(settle(w, 180000));
    ASSERT_GE(w.shownResult()->trace->tokens, 1000);

    auto* edit = w.findChild<QPlainTextEdit*>("textEdit");
    edit->setFocus();
    edit->moveCursor(QTextCursor::End);
    int ticksWhileBusy = 0;
    QTimer probe;
    probe.setInterval(1);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        if (w.controller()->isBusy())
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
    EXPECT_TRUE(w.shownResult()->request.text.endsWith(QStringLiteral("aaaaaaaaaaaaaaa")));
    EXPECT_EQ(w.shownResult()->request.text.size(), text.size() + 15);
}

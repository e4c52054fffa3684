// Model mode in the real window: a small trained-format checkpoint (2 layers x 4 heads, d 32,
// vocabulary 300) opened as a user would, then every view that reads its forward.
#include <gtest/gtest.h>
#include <QComboBox>
#include <QTextBrowser>

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include "app/app_test_util.h"
#include "app/centre_pages.h"
#include "app/explain_panel.h"
#include "app/export_actions.h"
#include "app/head_scores_page.h"
#include "app/input_panel.h"
#include "app/main_window.h"
#include "app/open_actions.h"
#include "app/overview_page.h"
#include "app/prediction_panel.h"
#include "app/session_actions.h"
#include "app/step_view.h"
#include "app/token_view_panel.h"
#include "app/workspace.h"
#include "engine/decoder_forward.h"
#include "engine/head_scores.h"
#include "export/heatmap_view.h"
#include "io/model_file.h"
#include "io/npy.h"
#include "teach/head_summaries.h"
#include "teach/lesson.h"
#include "teach/model_overview.h"
#include "teach/next_tokens.h"
#include "teach/step_strip.h"
#include "teach/token_view.h"
#include "tokenizer/hf_tokenizer.h"
#include "tokenizer/tokenizer.h"

using namespace attn;
using namespace attn::testing;

namespace {

// Every token of this text is inside the fixture's 300-token vocabulary ("a", " b", " c", " d"
// and " a" are ids 64, 275, 269, 288 and 257).
const QString kText = QStringLiteral("a b c d a b c d");

QString fixture(const char* name) {
    return QStringLiteral(ATTN_FIXTURES_DIR "/models/") + QString::fromLatin1(name);
}

// Opens the model and types kText, as a user does; waits until every view has drawn.
bool openModelWithText(MainWindow& w, const char* file) {
    w.workspace()->openModel(fixture(file));
    if (!waitUntil([&] { return !w.workspace()->isLoadingModel(); }))
        return false;
    if (!w.workspace()->model())
        return false;
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = kText;
    });
    return settle(w) && waitUntil([&] { return w.isSettled(); });
}

// A file named like a model that holds no model.
QString writeNotAModel(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("broken.safetensors"));
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("not a model");
    return path;
}

const DecoderRun* modelRun(MainWindow& w) {
    const TraceOutcome* shown = w.workspace()->shown();
    return shown && shown->modelRun ? shown->modelRun.get() : nullptr;
}

}  // namespace

TEST(ModelMode, OpeningAModelShowsItsArchitectureAndThePagesOfEveryLayer) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    // The chapter-3 module: one page, no tab bar, no predictions.
    EXPECT_FALSE(w.centrePages()->isTabVisible(1));
    EXPECT_FALSE(w.predictionPanel()->isVisible());

    ASSERT_TRUE(openModelWithText(w, "hf_tied_f32.safetensors"));
    EXPECT_TRUE(w.workspace()->settings().modelMode());
    EXPECT_EQ(w.workspace()->model()->arch.layers, 2);
    EXPECT_EQ(w.workspace()->model()->arch.heads, 4);
    EXPECT_TRUE(w.centrePages()->isTabVisible(1));
    EXPECT_TRUE(w.centrePages()->isTabVisible(2));
    EXPECT_TRUE(w.predictionPanel()->isVisible());
    // The sizes are the file's: no preset to pick (a greyed "Custom" said nothing).
    auto* preset = w.findChild<QComboBox*>(QStringLiteral("presetCombo"));
    EXPECT_TRUE(preset->isHidden());
    const DecoderRun* run = modelRun(w);
    ASSERT_NE(run, nullptr);
    EXPECT_EQ(run->ids, (std::vector<int64_t>{64, 275, 269, 288, 257, 275, 269, 288}));

    // The pipeline strip puts the layer's attention inside its block: residual stream in,
    // LayerNorm, the chapter's steps, the residual sum, the feed-forward, the block's output.
    const QStringList ids = w.stepView()->strip()->stepIds();
    ASSERT_FALSE(ids.isEmpty());
    EXPECT_EQ(ids.first(), QStringLiteral("block_input"));
    EXPECT_TRUE(ids.contains(QStringLiteral("weights")));
    EXPECT_TRUE(ids.contains(QStringLiteral("ff_hidden")));
    EXPECT_EQ(ids.last(), QStringLiteral("block_output"));

    // Back to the chapter's module: undo restores it, the model pages go away.
    w.workspace()->undoStack()->undo();
    ASSERT_TRUE(settle(w));
    w.workspace()->undoStack()->undo();
    ASSERT_TRUE(settle(w));
    EXPECT_FALSE(w.workspace()->settings().modelMode());
    EXPECT_FALSE(w.centrePages()->isTabVisible(1));
    EXPECT_FALSE(preset->isHidden());
}

// Under the picker the bundled model gives its validation loss against a bigram model (its file's
// metadata) in a line; the link and the tooltip give the rest: what the model is, its licence,
// every metadata entry.
TEST(ModelMode, ThePickerSaysWhatTheBundledModelIsAndShowsItsMetadata) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* origin = w.findChild<QLabel*>(QStringLiteral("modelOrigin"));
    ASSERT_NE(origin, nullptr);
    EXPECT_TRUE(origin->isHidden());  // the chapter's module has no file to describe

    w.workspace()->openModel(QStringLiteral("tiny-shakespeare"));
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }));
    ASSERT_NE(w.workspace()->model(), nullptr);
    ASSERT_TRUE(waitUntil([&] { return !origin->isHidden(); }));
    // The picker names it, not the Llama listed after it (whose name it begins).
    auto* picker = w.findChild<QComboBox*>(QStringLiteral("modelCombo"));
    ASSERT_NE(picker, nullptr);
    EXPECT_EQ(picker->currentText(), QStringLiteral("tiny-shakespeare (trained, bundled)"));
    // Every bundled model's name fits the picker whole in a 1366-pixel-wide window (the
    // longest, tiny-shakespeare-llama, was cut mid-word).
    w.resize(1366, 740);
    QCoreApplication::processEvents();
    for (int i = 0; i < picker->count(); ++i) {
        if (!picker->itemText(i).contains(QLatin1String("bundled")))
            continue;
        EXPECT_LT(picker->fontMetrics().horizontalAdvance(picker->itemText(i)),
                  picker->width() - 24)
            << picker->itemText(i).toStdString() << " in " << picker->width();
    }
    const auto& metadata = w.workspace()->model()->metadata;
    const QString description = QString::fromStdString(metadata.at("description"));
    EXPECT_EQ(origin->text(),
              QStringLiteral("Validation loss %1 nats per token (a bigram model: %2). "
                             "<a href=\"metadata\">About this model...</a>")
                  .arg(QString::fromStdString(metadata.at("validation_loss")),
                       QString::fromStdString(metadata.at("baseline_bigram_validation_loss"))));
    EXPECT_TRUE(origin->toolTip().startsWith(description)) << origin->toolTip().toStdString();
    EXPECT_TRUE(origin->toolTip().endsWith(
        QStringLiteral("Licence: CC0-1.0 (weights); the training text is public domain.")))
        << origin->toolTip().toStdString();

    // The link opens a modal dialog with the description on top and every entry below; it
    // closes with its Close button.
    emit origin->linkActivated(QStringLiteral("metadata"));
    auto* browser = w.findChild<QTextBrowser*>(QStringLiteral("modelMetadata"));
    ASSERT_NE(browser, nullptr);
    QWidget* dialog = browser->window();
    EXPECT_NE(dialog, &w);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_TRUE(dialog->isModal());
    const QString about = dialog->findChild<QLabel*>(QStringLiteral("modelDescription"))->text();
    const QString listed = browser->toPlainText();
    EXPECT_EQ(about, origin->toolTip());
    for (const auto& [key, value] : metadata) {
        EXPECT_TRUE(listed.contains(QString::fromStdString(key))) << key;
        EXPECT_TRUE(listed.contains(QString::fromStdString(value))) << key;
    }
    QPointer<QWidget> closing = dialog;
    dialog->close();
    EXPECT_TRUE(waitUntil([&] { return closing.isNull(); }));  // deleted when closed

    // A checkpoint whose metadata gives no description or loss shows only the link.
    ASSERT_TRUE(openModelWithText(w, "hf_tied_f32.safetensors"));
    ASSERT_TRUE(waitUntil([&] {
        return origin->text() == QStringLiteral("<a href=\"metadata\">File metadata...</a>");
    }));
    EXPECT_TRUE(origin->toolTip().isEmpty());
}

// A 1920 x 1080 screen at scale 2 (a classroom's high-DPI laptop) is 960 x 540 logical pixels:
// the window with every panel open fits its width, for the chapter's module and for a model,
// whose layer boxes widen the heatmap's bar and the token view's.
TEST(ModelMode, TheWindowFitsA960PixelWideScreenInBothModes) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    EXPECT_LE(w.minimumSizeHint().width(), 960);
    w.workspace()->openModel(QStringLiteral("tiny-shakespeare"));
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }));
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(w.workspace()->settings().modelMode());
    EXPECT_LE(w.minimumSizeHint().width(), 960);
}

TEST(ModelMode, TheHeatmapShowsTheSelectedLayerAndHeadOfTheForward) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w, "hf_tied_f32.safetensors"));
    const DecoderRun* run = modelRun(w);
    ASSERT_NE(run, nullptr);
    ASSERT_EQ(run->attention.dim(), 4);
    const int64_t T = run->tokens();
    for (const auto& [layer, head] : {std::pair{0, 0}, std::pair{1, 2}, std::pair{1, 3}}) {
        w.workspace()->selectLayer(layer);
        w.workspace()->selectHead(head);
        w.workspace()->selectStep(QStringLiteral("weights"));
        ASSERT_TRUE(settle(w));
        const HeatmapData& shown = w.stepView()->shownData();
        ASSERT_EQ(shown.rows, T);
        ASSERT_EQ(shown.cols, T);
        EXPECT_EQ(shown.head, head);
        for (int64_t i = 0; i < T; ++i)
            for (int64_t j = 0; j <= i; ++j)
                EXPECT_NEAR(shown.values[size_t(i * T + j)], run->attention.at({layer, head, i, j}),
                            1e-6)
                    << "layer " << layer << " head " << head << " cell " << i << "," << j;
    }
}

TEST(ModelMode, OverviewFillsEveryLayerAndATileOpensItsHead) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w, "hf_tied_f32.safetensors"));
    ASSERT_TRUE(w.showPage(QStringLiteral("overview")));
    // The Explain panel explains the page in view, not the step last selected.
    auto* explain = w.findChild<QTextBrowser*>(QStringLiteral("explainBrowser"));
    EXPECT_TRUE(explain->toPlainText().startsWith(QStringLiteral("All layers: every head")))
        << explain->toPlainText().left(80).toStdString();
    ModelOverview* o = w.overviewPage()->overview();
    ASSERT_TRUE(waitUntil([o] { return o->tilesReady(); }));
    EXPECT_EQ(o->layers(), 2);
    EXPECT_EQ(o->heads(), 4);
    EXPECT_EQ(o->layersDone(), 2);

    // A click selects the head everywhere; the page stays.
    emit o->tileClicked(1, 3);
    EXPECT_EQ(w.workspace()->settings().layer, 1);
    EXPECT_EQ(w.workspace()->settings().head, 3);
    EXPECT_EQ(w.centrePages()->currentWidget(), w.overviewPage());
    // A double-click opens its steps.
    emit o->tileActivated(0, 2);
    EXPECT_EQ(w.workspace()->settings().layer, 0);
    EXPECT_EQ(w.workspace()->settings().head, 2);
    EXPECT_EQ(w.centrePages()->currentWidget(), static_cast<QWidget*>(w.stepView()));
    ASSERT_TRUE(settle(w));
    EXPECT_FALSE(explain->toPlainText().contains(QStringLiteral("All layers")));
    EXPECT_TRUE(explain->toPlainText().contains(QStringLiteral("Where this number comes from")));
    EXPECT_EQ(o->currentLayer(), 0);
    EXPECT_EQ(o->currentHead(), 2);
}

TEST(ModelMode, HeadScoresListEveryHeadAndAPickOpensIt) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w, "hf_tied_f32.safetensors"));
    ASSERT_TRUE(w.showPage(QStringLiteral("scores")));
    const QString explained =
        w.findChild<QTextBrowser*>(QStringLiteral("explainBrowser"))->toPlainText();
    EXPECT_TRUE(explained.startsWith(QStringLiteral("Head scores:"))) << explained.toStdString();
    EXPECT_TRUE(
        explained.contains(QStringLiteral("previous token = the mean over i ≥ 1 of "
                                          "wi,i−1")))
        << explained.toStdString();
    HeadSummaries* s = w.headScoresPage()->summaries();
    ASSERT_TRUE(waitUntil([s] { return !s->isComputing() && !s->scores().empty(); }));
    EXPECT_EQ(s->scores().layers, 2);
    EXPECT_EQ(s->scores().heads, 4);
    emit s->headSelected(1, 1);
    EXPECT_EQ(w.workspace()->settings().layer, 1);
    EXPECT_EQ(w.workspace()->settings().head, 1);
    EXPECT_EQ(w.centrePages()->currentWidget(), static_cast<QWidget*>(w.stepView()));
}

// "Test for induction" replaces the text with random tokens of the model said twice, undoably;
// the scores page then shows induction scores measured on the second time, and another press
// draws other tokens.
TEST(ModelMode, TheInductionTestSaysRandomTokensTwiceAndScoresThem) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w, "hf_tied_f32.safetensors"));
    ASSERT_TRUE(w.showPage(QStringLiteral("scores")));
    HeadScoresPage* page = w.headScoresPage();
    EXPECT_TRUE(page->inductionTestButton()->isEnabled());
    // A context of 24: two copies of 11 (no <|endoftext|> in a vocabulary of 300).
    EXPECT_EQ(page->testTokens()->maximum(), 11);
    EXPECT_EQ(page->testTokens()->value(), 11);
    const QString text = w.workspace()->settings().text;
    page->testTokens()->setValue(8);
    page->inductionTestButton()->click();
    ASSERT_TRUE(settle(w));
    const std::vector<int64_t> ids = w.workspace()->settings().inputIds;
    ASSERT_EQ(ids.size(), 16u);
    EXPECT_TRUE(std::equal(ids.begin(), ids.begin() + 8, ids.begin() + 8));
    EXPECT_EQ(modelRun(w)->ids, ids);
    HeadSummaries* s = page->summaries();
    ASSERT_TRUE(waitUntil([s] { return !s->isComputing() && !s->scores().induction.empty(); }));
    EXPECT_EQ(s->scores().repeat, (RepeatSpan{8, 8, 16}));
    EXPECT_TRUE(s->legend().contains(QStringLiteral("on tokens 8 to 15")));
    w.workspace()->undoStack()->undo();
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.workspace()->settings().inputIds.empty());
    EXPECT_EQ(w.workspace()->settings().text, text);
    page->inductionTestButton()->click();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().inputIds.size(), 16u);
    EXPECT_NE(w.workspace()->settings().inputIds, ids);
}

TEST(ModelMode, AppendAddsThePredictedTokenToTheTextUndoably) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w, "hf_tied_f32.safetensors"));
    NextTokensPanel* p = w.predictionPanel()->panel();
    ASSERT_TRUE(waitUntil([p] { return !p->isComputing() && !p->predictions().empty(); }));
    EXPECT_EQ(p->position(), 7);  // the last token
    // Most probable first, probabilities of one softmax over the whole vocabulary.
    const auto& top = p->predictions();
    for (size_t i = 1; i < top.size(); ++i)
        EXPECT_GE(top[i - 1].probability, top[i].probability);
    EXPECT_GT(top.front().probability, 0.0);
    EXPECT_LE(top.front().probability, 1.0);

    // " d" (id 288) is in the list (the CLI's `model` ranks it fourth); append it.
    int row = -1;
    for (size_t i = 0; i < top.size(); ++i)
        if (top[i].id == 288)
            row = int(i);
    ASSERT_GE(row, 0);
    p->selectRow(row);
    p->appendSelected();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().text, kText + QStringLiteral(" d"));
    EXPECT_EQ(w.workspace()->undoStack()->undoText(), QStringLiteral("Append \u201c\u00b7d\u201d"));
    ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    ASSERT_NE(modelRun(w), nullptr);
    EXPECT_EQ(modelRun(w)->tokens(), 9);
    EXPECT_EQ(p->position(), 8);  // the prediction follows the new end

    // A clicked cell's row picks the position whose next token is predicted.
    w.workspace()->selectCell(3, 1);
    EXPECT_EQ(p->position(), 3);

    w.workspace()->undoStack()->undo();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().text, kText);
}

TEST(ModelMode, TokenViewHasALayerSelector) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w, "hf_tied_f32.safetensors"));
    TokenViewPanel* t = w.tokenPanel();
    auto* dockWidget = w.findChild<QWidget*>(QStringLiteral("tokenDock"));
    ASSERT_NE(dockWidget, nullptr);
    dockWidget->show();
    dockWidget->raise();
    QCoreApplication::processEvents();
    ASSERT_TRUE(waitUntil([t] { return t->isDrawn() && t->view()->tokenCount() > 0; }));
    EXPECT_EQ(t->view()->tokenCount(), 8);
    EXPECT_EQ(t->view()->headCount(), 4);
    QSpinBox* layer = t->layerSpin();
    ASSERT_TRUE(layer->isVisible());
    EXPECT_EQ(layer->maximum(), 1);
    layer->setValue(1);
    EXPECT_EQ(w.workspace()->settings().layer, 1);
}

TEST(ModelMode, ExportsTheOverviewAndEveryLayersAttention) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(openModelWithText(w, "hf_tied_f32.safetensors"));
    EXPECT_TRUE(w.exports()->exportOverviewAction()->isVisible());
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("overview.png"));
    ASSERT_TRUE(w.exports()->exportOverview(png, false));
    QFile f(png);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.read(8).startsWith("\x89PNG"));

    const QString npy = dir.filePath(QStringLiteral("attention.npy"));
    QSignalSpy exported(w.exports(), &ExportActions::attentionExported);
    ASSERT_TRUE(w.exports()->exportAttentionNpy(npy));
    EXPECT_FALSE(QFile::exists(npy));  // written in the background, never inside the call
    ASSERT_TRUE(exported.wait(10000));
    EXPECT_TRUE(exported.first().first().toBool());
    const Tensor saved = io::readNpy(npy.toStdString());
    const DecoderRun* run = modelRun(w);
    ASSERT_NE(run, nullptr);
    ASSERT_EQ(saved.shape(), run->attention.shape());
    for (int64_t i = 0; i < saved.numel(); ++i)
        ASSERT_EQ(saved.flat(i), run->attention.flat(i));
}

TEST(ModelMode, AFileThatIsNotAModelKeepsTheModuleAndSaysWhy) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QTemporaryDir dir;
    const QString bad = writeNotAModel(dir);
    QString failure;
    QObject::connect(w.workspace(), &Workspace::modelFailed,
                     [&](const QString&, const QString& message) { failure = message; });
    w.workspace()->openModel(bad);
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }));
    EXPECT_FALSE(failure.isEmpty());
    EXPECT_FALSE(w.workspace()->settings().modelMode());
    EXPECT_EQ(w.workspace()->model(), nullptr);
}

TEST(ModelMode, ALessonScreenOpensItsModelAndShowsTheStrongestPreviousTokenHead) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    LessonScreen model;
    model.title = QStringLiteral("A previous-token head");
    model.html = QStringLiteral("<p>text</p>");
    model.model = fixture("hf_tied_f32.safetensors");
    model.text = kText;
    model.layer = 0;
    model.stepId = "weights";
    model.page = QStringLiteral("overview");
    model.pick = LessonHead::BestPreviousToken;
    LessonScreen chapter = chapter3Lesson().front();
    w.lessonPanel()->setScreens({model, chapter});
    w.lessonPanel()->setCurrentIndex(0);
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }));
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(waitUntil([&] { return w.isSettled(); }));
    EXPECT_EQ(w.workspace()->settings().text, kText);
    EXPECT_EQ(w.centrePages()->currentWidget(), w.overviewPage());
    const DecoderRun* run = modelRun(w);
    ASSERT_NE(run, nullptr);
    const HeadPick best = strongestPreviousTokenHead(headScores(*run));
    ASSERT_TRUE(best.valid());
    // The screen opens on layer 0, head 0; the fixture's strongest is another head, so the
    // pick has to move the view.
    EXPECT_FALSE(best.layer == 0 && best.head == 0);
    ASSERT_TRUE(waitUntil([&] {
        return w.workspace()->settings().layer == best.layer &&
               w.workspace()->settings().head == best.head;
    }));
    // Opening the model for a lesson is not an undo step.
    EXPECT_FALSE(w.workspace()->undoStack()->canUndo());

    // The next screen is chapter 3's: the module and the book's input again.
    w.lessonPanel()->next();
    ASSERT_TRUE(settle(w));
    EXPECT_FALSE(w.workspace()->settings().modelMode());
    EXPECT_EQ(w.workspace()->settings().source, InputSource::Book);
    EXPECT_EQ(w.centrePages()->currentWidget(), static_cast<QWidget*>(w.stepView()));
}

TEST(ModelMode, AModelTheSettingsNameButThatCannotBeReadFallsBackToTheModule) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QTemporaryDir dir;
    const QString bad = writeNotAModel(dir);
    // As a session or the command line names a model: the workspace reads it, fails once, and
    // shows the chapter-3 module with a note instead of trying again and again.
    Settings s = w.workspace()->settings();
    s.modelFile = bad;
    s.source = InputSource::Text;
    s.text = kText;
    w.workspace()->reset({s, {}});
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->settings().modelMode(); }));
    ASSERT_TRUE(settle(w));
    EXPECT_FALSE(w.workspace()->isLoadingModel());
    ASSERT_EQ(w.workspace()->fileNotes().size(), 1);
    EXPECT_TRUE(w.workspace()->fileNotes().front().contains(QStringLiteral("could not be read")));
    EXPECT_NE(w.workspace()->shownRun(), nullptr);
}

namespace {

QString familyFixture(const char* name) {
    return QStringLiteral(ATTN_FIXTURES_DIR "/families/") + QString::fromLatin1(name);
}

// Copies a fixture model folder into `dir` (the test may change it).
QString copyFolder(const QString& from, const QTemporaryDir& dir) {
    const QString to = dir.filePath(QFileInfo(from).fileName());
    EXPECT_TRUE(QDir().mkpath(to));
    for (const QFileInfo& f : QDir(from).entryInfoList(QDir::Files))
        EXPECT_TRUE(QFile::copy(f.filePath(), QDir(to).filePath(f.fileName())));
    return to;
}

}  // namespace

// A Qwen3 folder opened as a user does: the picker names the folder and says the family and
// the shared key/value heads, the tokens are the model's own tokenizer's, and a saved session
// brings the folder back (and says when it changed since).
TEST(ModelMode, AFamilysFolderShowsItsFamilyAndTokensAndComesBackInASession) {
    QTemporaryDir dir;
    const QString folder = copyFolder(familyFixture("qwen3"), dir);
    const QString session = dir.filePath(QStringLiteral("qwen.attnlens"));
    {
        MainWindow w(testOptions());
        w.show();
        ASSERT_TRUE(settle(w));
        w.workspace()->openModel(folder);
        ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }));
        ASSERT_NE(w.workspace()->model(), nullptr);
        change(w, [](Settings& s) {
            s.source = InputSource::Text;
            s.text = QStringLiteral("The animal");
        });
        ASSERT_TRUE(settle(w));
        auto* combo = w.findChild<QComboBox*>(QStringLiteral("modelCombo"));
        EXPECT_EQ(combo->currentText(), QStringLiteral("qwen3 (folder)"));
        EXPECT_TRUE(combo->findText(QStringLiteral("Open model folder...")) >= 0);
        auto* about = w.findChild<QLabel*>(QStringLiteral("modelAbout"));
        EXPECT_TRUE(about->text().startsWith(
            QStringLiteral("qwen3, 2 layers, 4 query heads sharing 2 key/value heads of 16")))
            << about->text().toStdString();
        // The module panel shows the layer's attention as the book's rotary module with the
        // file's groups and head size, read-only.
        auto* variant = w.findChild<QComboBox*>(QStringLiteral("variantCombo"));
        EXPECT_EQ(variant->currentData().toInt(), int(Variant::Rotary));
        auto* groups = w.findChild<QSpinBox*>(QStringLiteral("kv_groupsSpin"));
        EXPECT_TRUE(groups->isVisibleTo(&w));
        EXPECT_FALSE(groups->isEnabled());
        EXPECT_EQ(groups->value(), 2);
        EXPECT_EQ(w.findChild<QSpinBox*>(QStringLiteral("head_dimSpin"))->value(), 16);
        EXPECT_TRUE(w.findChild<QLabel*>(QStringLiteral("modelNote"))
                        ->text()
                        .contains(QStringLiteral("grouped-query attention with RoPE and QK-norm")));
        auto* tokenizer = w.findChild<QComboBox*>(QStringLiteral("tokenizerCombo"));
        EXPECT_EQ(tokenizer->currentText(), QStringLiteral("The model's (tokenizer.json)"));
        EXPECT_FALSE(tokenizer->isEnabled());
        const DecoderRun* run = modelRun(w);
        ASSERT_NE(run, nullptr);
        EXPECT_EQ(run->ids, w.workspace()->model()->tokenizer->encodeIds("The animal"));
        // Its hash arrives after the first view, and is the folder's.
        ASSERT_TRUE(waitUntil([&] { return !w.workspace()->modelSha256().isEmpty(); }));
        EXPECT_EQ(w.workspace()->modelSha256().toStdString(),
                  io::modelContentSha256(folder.toStdString()));
        ASSERT_TRUE(w.sessions()->saveSessionTo(session));
    }
    {
        MainWindow w(testOptions());
        ASSERT_TRUE(w.sessions()->openSession(session));
        ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }));
        ASSERT_TRUE(settle(w));
        EXPECT_TRUE(w.sessions()->notes().isEmpty())
            << w.sessions()->notes().join(' ').toStdString();
        EXPECT_EQ(QFileInfo(w.workspace()->settings().modelFile), QFileInfo(folder));
        EXPECT_EQ(w.workspace()->settings().text, QStringLiteral("The animal"));
        ASSERT_TRUE(waitUntil(
            [&] { return w.workspace()->model() && !w.workspace()->modelSha256().isEmpty(); }));
        EXPECT_TRUE(w.workspace()->fileNotes().isEmpty());
    }
    // The config changes (a space more): the same model is read, and the window says it changed.
    QFile config(QDir(folder).filePath(QStringLiteral("config.json")));
    ASSERT_TRUE(config.open(QIODevice::Append));
    config.write(" ");
    config.close();
    MainWindow w(testOptions());
    ASSERT_TRUE(w.sessions()->openSession(session));
    ASSERT_TRUE(waitUntil(
        [&] { return w.workspace()->model() && !w.workspace()->modelSha256().isEmpty(); }));
    EXPECT_TRUE(w.workspace()->fileNotes().join(' ').contains(
        QStringLiteral("has changed since the session was saved")))
        << w.workspace()->fileNotes().join(' ').toStdString();
}

// A Llama model's weights alone: the window asks for the config.json, reads the file with it,
// and remembers it; without an answer nothing changes and the picker says why.
TEST(ModelMode, AFamilysSingleFileAsksForItsConfig) {
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("llama.safetensors"));
    ASSERT_TRUE(QFile::copy(familyFixture("llama") + QStringLiteral("/model.safetensors"), file));
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QString answer;
    QStringList asked;
    w.opens()->setFileHook([&](const QString& caption, const QString&, const QString&) {
        asked << caption;
        return answer;
    });
    w.workspace()->openModel(file);
    ASSERT_TRUE(waitUntil([&] { return !w.workspace()->isLoadingModel(); }));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(asked, QStringList{QStringLiteral("Choose the config.json of llama.safetensors")});
    EXPECT_FALSE(w.workspace()->settings().modelMode());
    auto* error = w.findChild<QLabel*>(QStringLiteral("error_model"));
    EXPECT_TRUE(error->text().contains(QStringLiteral("need their config.json")))
        << error->text().toStdString();

    answer = familyFixture("llama") + QStringLiteral("/config.json");
    w.workspace()->openModel(file);
    ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(asked.size(), 2);
    EXPECT_EQ(w.workspace()->model()->arch.family, Family::Llama);
    EXPECT_EQ(w.workspace()->settings().modelConfigFile, answer);
    EXPECT_TRUE(error->text().isEmpty());

    // The weights file of a folder: read with the folder's config.json, without asking.
    const QString folder = copyFolder(familyFixture("qwen3"), dir);
    const QString weights = QDir(folder).filePath(QStringLiteral("model.safetensors"));
    w.workspace()->openModel(weights);
    ASSERT_TRUE(waitUntil([&] {
        return w.workspace()->model() && w.workspace()->model()->arch.family == Family::Qwen3;
    }));
    EXPECT_EQ(asked.size(), 2);
    EXPECT_EQ(w.workspace()->settings().modelConfigFile,
              QDir(folder).filePath(QStringLiteral("config.json")));
    EXPECT_NE(w.workspace()->model()->tokenizer, nullptr);  // the folder's tokenizer.json
    // A GPT-2 file needs no config: a config.json that happens to lie beside it is not used.
    const QString gpt2 = dir.filePath(QStringLiteral("gpt2.safetensors"));
    ASSERT_TRUE(QFile::copy(fixture("hf_tied_f32.safetensors"), gpt2));
    ASSERT_TRUE(QFile::copy(QDir(folder).filePath(QStringLiteral("config.json")),
                            dir.filePath(QStringLiteral("config.json"))));
    w.workspace()->openModel(gpt2);
    ASSERT_TRUE(waitUntil([&] {
        return w.workspace()->model() && w.workspace()->model()->arch.family == Family::Gpt2;
    }));
    EXPECT_TRUE(w.workspace()->settings().modelConfigFile.isEmpty());
    EXPECT_EQ(asked.size(), 2);
}

// The next token of a model with its own tokenizer is named by that tokenizer, and appending it
// keeps its id: the model reads the token it predicted, after the <bos> the tokenizer adds.
TEST(ModelMode, AFamilysNextTokenIsItsOwnTokenAndAppendingKeepsItsId) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->openModel(familyFixture("gemma3"));
    ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }));
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("a b");
    });
    ASSERT_TRUE(settle(w));
    const DecoderModel& model = *w.workspace()->model();
    const std::vector<int64_t> before = modelRun(w)->ids;
    ASSERT_FALSE(before.empty());
    EXPECT_EQ(before, model.tokenizer->encodeIds("a b"));
    EXPECT_TRUE(w.workspace()->tokens().tokens.front().addedByTokenizer);
    // Head scores: the first token is the <bos> the tokenizer adds, and the legend says so.
    w.showPage(QStringLiteral("scores"));
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.headScoresPage()->summaries()->legend().contains(
        QStringLiteral("Here the first token is <bos>, the beginning-of-text token")))
        << w.headScoresPage()->summaries()->legend().toStdString();
    NextTokensPanel* panel = w.predictionPanel()->panel();
    ASSERT_TRUE(waitUntil([&] { return !panel->predictions().empty(); }));
    // "After token 2 '·b'": the model's token, not GPT-2's id 2.
    const QString last = visibleTokenText(model.tokenizer->token(before.back()).display, false);
    EXPECT_TRUE(panel->headingText().contains(last)) << panel->headingText().toStdString();
    // The most probable token that is whole characters (a random model likes byte tokens).
    int row = 0;
    while (row + 1 < int(panel->predictions().size()) &&
           model.tokenizer->token(panel->predictions()[size_t(row)].id).partialUtf8)
        ++row;
    const int64_t top = panel->predictions()[size_t(row)].id;
    ASSERT_FALSE(model.tokenizer->token(top).partialUtf8);
    panel->selectRow(row);
    panel->appendSelected();
    ASSERT_TRUE(settle(w));
    std::vector<int64_t> after = before;
    after.push_back(top);
    EXPECT_EQ(modelRun(w)->ids, after);
    EXPECT_EQ(w.workspace()->settings().text.toStdString(),
              "a b" + model.tokenizer->token(top).bytes);
}

// Ids given instead of a text (--ids) are the tokens, and the input box shows what they spell,
// not the sentence it held before; typing there replaces the ids with the typed text's tokens.
TEST(ModelMode, GivenIdsShowTheirTextAndTypingReplacesThem) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->openModel(familyFixture("qwen3"));
    ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }));
    const std::vector<int64_t> ids = {5, 6, 7, 8};
    change(w, [&](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("Your journey starts with one step");
        s.inputIds = ids;
    });
    ASSERT_TRUE(settle(w));
    const DecoderModel& model = *w.workspace()->model();
    EXPECT_EQ(modelRun(w)->ids, ids);
    std::string spelled;
    for (int64_t id : ids)
        spelled += model.tokenizer->token(id).bytes;
    QPlainTextEdit* edit = w.inputPanel()->textEdit();
    EXPECT_EQ(edit->toPlainText().toStdString(), spelled);
    EXPECT_TRUE(w.findChild<QLabel*>(QStringLiteral("sourceLabel"))
                    ->text()
                    .contains(QStringLiteral("The tokens were given as ids")));

    edit->setFocus();
    edit->moveCursor(QTextCursor::End);
    QTest::keyClicks(edit, QStringLiteral(" a"));
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.workspace()->settings().inputIds.empty());
    EXPECT_EQ(modelRun(w)->ids, model.tokenizer->encodeIds(spelled + " a"));
    EXPECT_EQ(edit->toPlainText().toStdString(), spelled + " a");
}

// Token ids given instead of text (--ids: a folder without tokenizer.json, whose vocabulary
// GPT-2's tokens of a sentence overshoot) are the text: the box shows what they spell, Append
// continues them (it appended to the hidden sentence and the tokens stayed as they were), and
// typing replaces them (the box was dead).
TEST(ModelMode, TokenIdsGivenInsteadOfTextAreTheTextAppendAndTypingGoOnFromThem) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->openModel(familyFixture("llama"));
    ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }));
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("Your journey starts with one step");
        s.inputIds = {1, 25, 37};  // '"', ':', 'F' in GPT-2's tokens
    });
    ASSERT_TRUE(settle(w) && waitUntil([&] { return w.isSettled(); }));
    ASSERT_NE(modelRun(w), nullptr);
    EXPECT_EQ(modelRun(w)->ids, (std::vector<int64_t>{1, 25, 37}));
    QPlainTextEdit* edit = w.inputPanel()->textEdit();
    EXPECT_EQ(edit->toPlainText(), QStringLiteral("\":F"));
    NextTokensPanel* panel = w.predictionPanel()->panel();
    emit panel->appendRequested(42);  // 'K', as Append top token does
    ASSERT_TRUE(settle(w) && waitUntil([&] { return w.isSettled(); }));
    ASSERT_NE(modelRun(w), nullptr);
    EXPECT_EQ(modelRun(w)->ids, (std::vector<int64_t>{1, 25, 37, 42}));
    EXPECT_TRUE(w.workspace()->settings().inputIds.empty());
    EXPECT_EQ(w.workspace()->settings().text, QStringLiteral("\":FK"));
    EXPECT_EQ(edit->toPlainText(), QStringLiteral("\":FK"));
    // Undo brings the ids back; typing then reads the typed text.
    w.workspace()->undoStack()->undo();
    ASSERT_TRUE(settle(w) && waitUntil([&] { return w.isSettled(); }));
    ASSERT_EQ(w.workspace()->settings().inputIds, (std::vector<int64_t>{1, 25, 37}));
    edit->setPlainText(QStringLiteral("a b"));
    ASSERT_TRUE(settle(w) && waitUntil([&] { return w.isSettled(); }));
    ASSERT_NE(modelRun(w), nullptr);
    EXPECT_TRUE(w.workspace()->settings().inputIds.empty());
    EXPECT_EQ(modelRun(w)->ids, (std::vector<int64_t>{64, 275}));  // "a", " b"
}

// A text the model cannot read (GPT-2's ids beyond a folder's vocabulary of 300, without its
// tokenizer.json): the empty map says why, not "Type a sentence" under a typed sentence.
TEST(ModelMode, TheEmptyMapSaysWhyNothingIsComputed) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->openModel(familyFixture("llama"));
    ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }));
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("Your journey starts with one step");
    });
    ASSERT_TRUE(settle(w) && waitUntil([&] { return w.isSettled(); }));
    ASSERT_FALSE(w.workspace()->issues().empty());
    const QString empty = w.stepView()->heatmap()->emptyText();
    EXPECT_TRUE(empty.startsWith(QStringLiteral("Nothing can be computed yet: ")))
        << empty.toStdString();
    EXPECT_TRUE(empty.contains(QStringLiteral("beyond the model's vocabulary of 300")))
        << empty.toStdString();
    change(w, [](Settings& s) { s.inputIds = {1, 25, 37}; });
    ASSERT_TRUE(settle(w) && waitUntil([&] { return w.isSettled(); }));
    EXPECT_EQ(w.stepView()->heatmap()->emptyText(),
              QStringLiteral("Type a sentence to see its attention."));
}

namespace {

// The id of the token that is the single byte `b` (a piece of a character) in `tokenizer`.
int64_t byteToken(const HfTokenizer& tokenizer, unsigned char b) {
    for (int64_t id = 0; id < tokenizer.vocabSize(); ++id)
        if (tokenizer.token(id).bytes == std::string(1, char(b)))
            return id;
    return -1;
}

}  // namespace

// A byte token the model generated (a piece of a character) is appended and kept: the text
// shows U+FFFD until the rest of the character comes, the run reads the ids themselves, and a
// saved session brings them back; re-tokenizing "\ufffd" would give other tokens.
TEST(ModelMode, AppendedByteTokensKeepTheirIdsInTheRunAndTheSession) {
    QTemporaryDir dir;
    const QString folder = copyFolder(familyFixture("qwen3"), dir);
    const QString session = dir.filePath(QStringLiteral("bytes.attnlens"));
    std::vector<int64_t> expected;
    {
        MainWindow w(testOptions());
        w.show();
        ASSERT_TRUE(settle(w));
        w.workspace()->openModel(folder);
        ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }));
        change(w, [](Settings& s) {
            s.source = InputSource::Text;
            s.text = QStringLiteral("The animal");
        });
        ASSERT_TRUE(settle(w) && waitUntil([&] { return w.isSettled(); }));
        const HfTokenizer& tokenizer = *w.workspace()->model()->tokenizer;
        const int64_t first = byteToken(tokenizer, 0xC3), second = byteToken(tokenizer, 0xA9);
        ASSERT_GE(first, 0);
        ASSERT_GE(second, 0);
        ASSERT_TRUE(tokenizer.token(first).partialUtf8);
        ASSERT_NE(modelRun(w), nullptr);
        expected = modelRun(w)->ids;
        NextTokensPanel* panel = w.predictionPanel()->panel();
        emit panel->appendRequested(first);  // as Append selected on that row does
        ASSERT_TRUE(settle(w) && waitUntil([&] { return w.isSettled(); }));
        expected.push_back(first);
        ASSERT_NE(modelRun(w), nullptr);
        EXPECT_EQ(modelRun(w)->ids, expected);
        EXPECT_EQ(w.workspace()->tokens().count(), qsizetype(expected.size()));
        EXPECT_EQ(w.workspace()->settings().text, QStringLiteral("The animal\ufffd"));
        EXPECT_TRUE(w.predictionPanel()->note().contains(QStringLiteral("part of a character")))
            << w.predictionPanel()->note().toStdString();
        // The character's second byte: the text shows it whole, the ids stay the two bytes.
        emit panel->appendRequested(second);
        ASSERT_TRUE(settle(w) && waitUntil([&] { return w.isSettled(); }));
        expected.push_back(second);
        EXPECT_EQ(modelRun(w)->ids, expected);
        EXPECT_EQ(w.workspace()->settings().text, QStringLiteral("The animal\u00e9"));
        ASSERT_TRUE(w.sessions()->saveSessionTo(session));
    }
    MainWindow w(testOptions());
    ASSERT_TRUE(w.sessions()->openSession(session));
    ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }));
    ASSERT_TRUE(settle(w) && waitUntil([&] { return w.isSettled(); }));
    ASSERT_NE(modelRun(w), nullptr);
    EXPECT_EQ(modelRun(w)->ids, expected);
}

// A folder without tokenizer.json is read with GPT-2's tokenizer, and the window says so: the
// tokenizer control does not call it the model's, and a GPT-2 id beyond the model's vocabulary
// says that is why.
TEST(ModelMode, AFolderWithoutItsTokenizerSaysGpt2StandsIn) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->openModel(familyFixture("llama"));
    ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }));
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("The animal");
    });
    ASSERT_TRUE(settle(w));
    auto* tokenizer = w.findChild<QComboBox*>(QStringLiteral("tokenizerCombo"));
    EXPECT_EQ(tokenizer->currentText(), QStringLiteral("GPT-2 BPE (not the model's)"));
    EXPECT_TRUE(tokenizer->toolTip().contains(QStringLiteral("without its tokenizer.json")))
        << tokenizer->toolTip().toStdString();
    EXPECT_TRUE(w.workspace()
                    ->issue(QStringLiteral("input"))
                    .contains(QStringLiteral("beyond the model's vocabulary of 300 tokens. "
                                             "GPT-2's tokenizer cut the text, since the model "
                                             "has no tokenizer.json.")))
        << w.workspace()->issue(QStringLiteral("input")).toStdString();
    // A GPT-2 model's tokenizer is GPT-2's own.
    w.workspace()->openModel(fixture("hf_tied_f32.safetensors"));
    ASSERT_TRUE(waitUntil([&] {
        return w.workspace()->model() && w.workspace()->model()->arch.family == Family::Gpt2;
    }));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(tokenizer->currentText(), QStringLiteral("GPT-2 BPE (the model's)"));
}

// A text file far longer than the model's context is refused by its size before it is read
// (reading 31 MB into the text box kept the window busy for a minute); a long typed text is
// refused by the worker after tokenizing its beginning.
TEST(ModelMode, ATextFarBeyondTheContextIsRefusedCheaply) {
    QTemporaryDir dir;
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->openModel(familyFixture("qwen3"));
    ASSERT_TRUE(waitUntil([&] { return w.workspace()->model() != nullptr; }));
    change(w, [](Settings& s) {
        s.source = InputSource::Text;
        s.text = QStringLiteral("The animal");
    });
    ASSERT_TRUE(settle(w));
    QFile file(dir.filePath(QStringLiteral("long.txt")));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    for (int i = 0; i < 20000; ++i)
        file.write("the animal was too tired\n");
    file.close();
    w.opens()->setFileHook(
        [&](const QString&, const QString&, const QString&) { return file.fileName(); });
    // Today's main asks with a file dialog of its own: closed, so the test ends either way.
    QTimer::singleShot(3000, [] {
        if (QWidget* modal = QApplication::activeModalWidget())
            modal->close();
    });
    w.opens()->openTextAction()->trigger();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().text, QStringLiteral("The animal"));
    EXPECT_TRUE(w.fieldError(QStringLiteral("input"))
                    .contains(QStringLiteral("long.txt is 500.0 kB, too long for the context "
                                             "length of 64 tokens")))
        << w.fieldError(QStringLiteral("input")).toStdString();

    change(w, [](Settings& s) {
        s.text = QStringLiteral("the animal was too tired ").repeated(4000);
    });
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.workspace()
                    ->issue(QStringLiteral("input"))
                    .contains(QStringLiteral("The text is too long for the context length of 64 "
                                             "tokens: its first 4.1 kB alone make")))
        << w.workspace()->issue(QStringLiteral("input")).toStdString();
}

// File menu: sessions through the window, the recent list, export of every step and of the
// data, write errors, and loading weights files.
#include <gtest/gtest.h>

#include <qcustomplot.h>
#include <QApplication>
#include <QComboBox>
#include <QDataStream>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStatusBar>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWindow>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>

#include "app/export_actions.h"
#include "app/input_panel.h"
#include "app/session.h"
#include "app/session_actions.h"
#include "app/step_view.h"
#include "app_test_util.h"
#include "export/heatmap_view.h"
#include "io/file_io.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "pipeline/step_files.h"

using namespace attn;
using attn::testing::change;
using attn::testing::settle;
using attn::testing::testOptions;

namespace {

// Collects the messages that would otherwise pop up as modal boxes.
struct Messages {
    QStringList titles;
    QStringList texts;
    void attach(MainWindow& w) {
        auto hook = [this](const QString& title, const QString& text) {
            titles << title;
            texts << text;
        };
        w.sessions()->setMessageHook(hook);
        w.exports()->setMessageHook(hook);
    }
};

void expectSameTensor(const Tensor& a, const Tensor& b) {
    ASSERT_EQ(a.shape(), b.shape());
    const std::vector<float> va = a.toVector();
    const std::vector<float> vb = b.toVector();
    for (size_t i = 0; i < va.size(); ++i) {
        if (std::isnan(va[i]) && std::isnan(vb[i]))
            continue;
        ASSERT_EQ(va[i], vb[i]) << "element " << i;
    }
}

Settings customState() {
    Settings s;
    s.source = InputSource::Text;
    s.text = QStringLiteral("The quick brown fox jumps over the lazy dog");
    s.tokenizer = TokenizerKind::Gpt2;
    s.config.variant = Variant::MultiHead;
    s.config.dIn = 8;
    s.config.dOut = 6;
    s.config.heads = 3;
    s.config.mask = MaskSpec{MaskKind::Window, 3};
    s.config.dropout = 0.1;
    s.config.mode = Mode::Train;
    s.config.dropoutRng = DropoutRng::Mkl;
    s.config.seed = 42;
    s.config.qkvBias = true;
    s.config.batch = 2;
    s.config.contextLength = 64;
    s.embeddingSeed = 7;
    s.positions = false;
    s.step = QStringLiteral("scaled_scores");
    s.head = 2;
    s.batchIndex = 1;
    s.colormap = QStringLiteral("magma");
    s.showValues = false;
    return s;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeText(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

}  // namespace

TEST(Sessions, RoundTripThroughTheWindowGivesTheSameView) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("fox lesson.attnlens"));
    Settings saved;
    std::shared_ptr<const Trace> before;
    {
        MainWindow w(testOptions());
        w.show();
        w.workspace()->reset({customState(), {}});
        ASSERT_TRUE(settle(w));
        ASSERT_NE(w.workspace()->shownRun(), nullptr);
        EXPECT_EQ(w.windowTitle(), QStringLiteral("Attention Lens"));
        w.findChild<QDockWidget*>(QStringLiteral("shapesDock"))->hide();  // part of the layout
        ASSERT_TRUE(w.sessions()->saveSessionTo(path));
        EXPECT_TRUE(QFile::exists(path));
        EXPECT_EQ(w.sessions()->sessionPath(), QFileInfo(path).absoluteFilePath());
        EXPECT_TRUE(w.windowTitle().startsWith(QStringLiteral("fox lesson[*]")));
        EXPECT_FALSE(w.isWindowModified());
        saved = w.workspace()->settings();
        before = w.workspace()->shownRun()->trace;

        // A change marks the title; undoing it clears the mark.
        w.workspace()->selectHead(0);
        EXPECT_TRUE(w.sessions()->isModified());
        EXPECT_TRUE(w.isWindowModified());
        w.workspace()->selectHead(2);
        EXPECT_FALSE(w.isWindowModified());
    }
    EXPECT_EQ(saved.head, 2);
    EXPECT_EQ(saved.step, QStringLiteral("scaled_scores"));

    // Next day: a fresh window opens the file.
    MainWindow w2(testOptions());
    w2.show();
    ASSERT_TRUE(settle(w2));
    Messages messages;
    messages.attach(w2);
    EXPECT_FALSE(w2.findChild<QDockWidget*>(QStringLiteral("shapesDock"))->isHidden());
    ASSERT_TRUE(w2.sessions()->openSession(path));
    ASSERT_TRUE(settle(w2));
    EXPECT_TRUE(w2.findChild<QDockWidget*>(QStringLiteral("shapesDock"))->isHidden());
    EXPECT_TRUE(messages.texts.isEmpty()) << messages.texts.join('\n').toStdString();
    EXPECT_TRUE(w2.sessions()->notes().isEmpty());
    EXPECT_FALSE(w2.sessions()->notesWidget()->isVisibleTo(&w2));
    EXPECT_EQ(w2.workspace()->settings(), saved);
    EXPECT_EQ(w2.workspace()->settings().step, QStringLiteral("scaled_scores"));
    EXPECT_EQ(w2.workspace()->settings().head, 2);
    EXPECT_EQ(w2.workspace()->settings().config.seed, 42u);
    EXPECT_EQ(w2.workspace()->settings().embeddingSeed, 7u);
    EXPECT_EQ(w2.workspace()->settings().colormap, QStringLiteral("magma"));
    EXPECT_FALSE(w2.workspace()->settings().showValues);
    EXPECT_TRUE(w2.windowTitle().startsWith(QStringLiteral("fox lesson[*]")));
    EXPECT_FALSE(w2.isWindowModified());
    ASSERT_NE(w2.workspace()->shownRun(), nullptr);
    const Trace& after = *w2.workspace()->shownRun()->trace;
    ASSERT_EQ(after.steps.size(), before->steps.size());
    expectSameTensor(after.output(), before->output());
    expectSameTensor(after.find("dropout_mask")->value, before->find("dropout_mask")->value);
    // The heatmap shows the same slice: step, head 2, batch entry 1.
    EXPECT_EQ(w2.stepView()->heatmap()->data().stepId, QStringLiteral("scaled_scores"));
    EXPECT_EQ(w2.stepView()->heatmap()->data().head, 2);
    EXPECT_EQ(w2.stepView()->heatmap()->data().batch, 1);
    EXPECT_EQ(SessionActions::recentSessions().value(0), QFileInfo(path).absoluteFilePath());
}

// A session's window geometry is restored with the whole frame, title bar included, on the
// screen's available area (the test screen is 1280 x 720), saved at 1280 x 720, at 1366 x 768,
// by a platform without a frame or above the screen. Qt places a restored window by its client
// area and the frame it knows then; on X11 the title bar arrived later, without a move event,
// and sat at y = -20, off the screen.
TEST(Sessions, AnOpenedSessionKeepsTheWholeFrameOnTheScreen) {
    // What QWidget::saveGeometry() writes (format 3): frame, normal geometry, screen number,
    // maximized, full screen, the screen's width, geometry.
    const auto geometry = [](QRect frame, QRect client, int screenWidth) {
        QByteArray bytes;
        QDataStream out(&bytes, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_4_0);
        out << quint32(0x1D9D0CB) << quint16(3) << quint16(0) << frame << client << qint32(0)
            << quint8(0) << quint8(0) << qint32(screenWidth) << client;
        return bytes;
    };
    const struct {
        const char* what;
        QByteArray geometry;
    } saved[] = {
        {"filling 1280 x 720, framed", geometry({0, 0, 1280, 720}, {1, 20, 1278, 695}, 1280)},
        {"filling 1366 x 768, framed", geometry({0, 0, 1366, 768}, {1, 20, 1364, 743}, 1366)},
        {"at the top left, no frame", geometry({0, 0, 1000, 600}, {0, 0, 1000, 600}, 1280)},
        {"above the screen", geometry({100, -20, 1000, 600}, {101, 0, 998, 579}, 1280)},
    };
    QTemporaryDir dir;
    MainWindow source(testOptions());
    const QString path = dir.filePath(QStringLiteral("lesson.attnlens"));
    ASSERT_TRUE(source.sessions()->saveSessionTo(path));
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    const QRect avail = w.screen()->availableGeometry();
    for (const auto& s : saved) {
        SCOPED_TRACE(s.what);
        Session session = readSession(path, nullptr);
        session.windowGeometry = s.geometry;
        writeSession(path, session);
        ASSERT_TRUE(w.sessions()->openSession(path));
        // What X11 makes of it: Qt placed the client area by the frame it knew, and the window
        // manager's title bar, arriving later, sits above the screen (y = -20 at 1280 x 720).
        w.windowHandle()->setFramePosition(QPoint(w.frameGeometry().x(), avail.top() - 20));
        ASSERT_TRUE(settle(w));
        // The frame is checked again while a window manager frames the window: within 2 s.
        EXPECT_TRUE(
            attn::testing::waitUntil([&] { return avail.contains(w.frameGeometry()); }, 2500))
            << w.frameGeometry().x() << "," << w.frameGeometry().y() << " "
            << w.frameGeometry().width() << "x" << w.frameGeometry().height();
    }
}

TEST(Sessions, ClosingWithUnsavedChangesAsksAndCancelKeepsTheWindowOpen) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lesson.attnlens"));
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QStringList asked;
    int answer = QMessageBox::Cancel;
    w.sessions()->setQuestionHook([&](const QString& title, const QString& text) {
        asked << title + QStringLiteral(": ") + text;
        return answer;
    });

    // No session file, or a saved one without changes: closing does not ask.
    ASSERT_TRUE(w.sessions()->saveSessionTo(path));
    const QByteArray savedBytes = [&] {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }();
    ASSERT_FALSE(savedBytes.isEmpty());
    EXPECT_TRUE(w.sessions()->maybeSaveChanges());
    EXPECT_TRUE(asked.isEmpty());

    Settings changed = w.workspace()->settings();
    changed.config.seed = 99;
    w.workspace()->reset({changed, {}});
    ASSERT_TRUE(settle(w));
    ASSERT_TRUE(w.isWindowModified());

    // Cancel: the window stays open, still modified, the file untouched.
    EXPECT_FALSE(w.close());
    EXPECT_TRUE(w.isVisible());
    ASSERT_EQ(asked.size(), 1);
    EXPECT_EQ(asked.front(),
              QStringLiteral("Save changes?: The session lesson.attnlens has changes that are not "
                             "saved. Save them before it closes?"));
    EXPECT_TRUE(w.isWindowModified());

    // Save: the file now holds seed 99 and the window closes.
    answer = QMessageBox::Save;
    EXPECT_TRUE(w.close());
    EXPECT_FALSE(w.isVisible());
    EXPECT_EQ(asked.size(), 2);
    QStringList notes;
    const Session reread = readSession(path, &notes);
    EXPECT_EQ(reread.settings.config.seed, 99u);
    EXPECT_FALSE(w.isWindowModified());

    // Discard: closes without writing.
    w.show();
    changed.config.seed = 5;
    w.workspace()->reset({changed, {}});
    ASSERT_TRUE(settle(w));
    answer = QMessageBox::Discard;
    EXPECT_TRUE(w.close());
    EXPECT_EQ(asked.size(), 3);
    EXPECT_EQ(readSession(path, &notes).settings.config.seed, 99u);
}

TEST(Sessions, CorruptOrNewerFileIsRefusedAndNothingChanges) {
    QTemporaryDir dir;
    MainWindow w(testOptions());
    w.show();
    w.workspace()->reset({customState(), {}});
    ASSERT_TRUE(settle(w));
    Messages messages;
    messages.attach(w);
    const Settings stateBefore = w.workspace()->settings();
    const quint64 generation = w.workspace()->latestGeneration();
    const QString title = w.windowTitle();
    const Trace* trace = w.workspace()->shownRun()->trace.get();

    const QString corrupt = dir.filePath(QStringLiteral("broken.attnlens"));
    writeText(corrupt, "{\"format\": \"attention-lens-session\", \"version\": 1, \"d_in\": ");
    EXPECT_FALSE(w.sessions()->openSession(corrupt));
    const QString newer = dir.filePath(QStringLiteral("future.attnlens"));
    writeText(newer, "{\"format\": \"attention-lens-session\", \"version\": 99, \"text\": \"x\"}");
    EXPECT_FALSE(w.sessions()->openSession(newer));
    const QString wrongType = dir.filePath(QStringLiteral("wrong.attnlens"));
    writeText(wrongType,
              "{\"format\": \"attention-lens-session\", \"version\": 1, \"heads\": \"two\"}");
    EXPECT_FALSE(w.sessions()->openSession(wrongType));

    ASSERT_EQ(messages.texts.size(), 3);
    EXPECT_EQ(messages.titles[0], QStringLiteral("Cannot open the session"));
    EXPECT_TRUE(messages.texts[0].contains(QStringLiteral("broken.attnlens")))
        << messages.texts[0].toStdString();
    EXPECT_TRUE(messages.texts[0].contains(QStringLiteral("not a valid Attention Lens session")));
    EXPECT_TRUE(messages.texts[1].contains(QStringLiteral("newer Attention Lens")))
        << messages.texts[1].toStdString();
    EXPECT_TRUE(messages.texts[1].contains(QStringLiteral("version 99")));
    EXPECT_TRUE(messages.texts[2].contains(
        QStringLiteral("\"heads\" expects a whole number from 1 to 1048576, got \"two\"")))
        << messages.texts[2].toStdString();

    // Nothing in the window changed: state, no new request, the same result, title, no notes.
    EXPECT_FALSE(w.workspace()->hasPendingWork());
    EXPECT_EQ(w.workspace()->latestGeneration(), generation);
    EXPECT_EQ(w.workspace()->settings(), stateBefore);
    EXPECT_EQ(w.workspace()->shownRun()->trace.get(), trace);
    EXPECT_EQ(w.windowTitle(), title);
    EXPECT_TRUE(w.sessions()->sessionPath().isEmpty());
    EXPECT_FALSE(w.sessions()->notesWidget()->isVisibleTo(&w));
    EXPECT_FALSE(SessionActions::recentSessions().contains(QFileInfo(corrupt).absoluteFilePath()));
}

TEST(Sessions, MissingOrChangedFilesAreNotedAndTheRestOpens) {
    QTemporaryDir dir;
    const QString emb = dir.filePath(QStringLiteral("x.json"));
    writeText(emb, "[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9], [1.0, 1.1, 1.2]]");
    const QString wf = dir.filePath(QStringLiteral("w.json"));
    writeText(
        wf,
        "{\"W_query.weight\": [[1, 0, 0], [0, 1, 0]], \"W_key.weight\": [[1, 0, 0], [0, 1, 0]],"
        " \"W_value.weight\": [[0, 0, 1], [1, 0, 0]]}");
    const QString path = dir.filePath(QStringLiteral("files.attnlens"));
    {
        MainWindow w(testOptions());
        Settings s = w.workspace()->settings();
        s.config.variant = Variant::SelfAttention;
        s.config.mask = defaultMask(Variant::SelfAttention);
        s.step = QStringLiteral("queries");
        w.workspace()->reset({s, {}});
        ASSERT_TRUE(settle(w));
        QString error;
        ASSERT_TRUE(w.workspace()->openEmbeddings(emb, &error)) << error.toStdString();
        ASSERT_TRUE(w.workspace()->openWeights(wf, &error)) << error.toStdString();
        ASSERT_TRUE(settle(w));
        ASSERT_TRUE(w.sessions()->saveSessionTo(path));
        const QJsonObject o = QJsonDocument::fromJson(readAll(path)).object();
        EXPECT_EQ(o["embeddings_file"].toObject()["path"].toString(),
                  QFileInfo(emb).absoluteFilePath());
        EXPECT_EQ(o["weights_file"].toObject()["sha256"].toString(),
                  QString::fromStdString(io::fileSha256(wf.toStdString())));

        // Both files come back as they were.
        MainWindow again(testOptions());
        ASSERT_TRUE(again.sessions()->openSession(path));
        ASSERT_TRUE(settle(again));
        EXPECT_TRUE(again.sessions()->notes().isEmpty());
        EXPECT_EQ(again.workspace()->settings().source, InputSource::File);
        EXPECT_EQ(again.workspace()->shownRun()->trace->tokens, 4);
        EXPECT_EQ(again.workspace()->settings().weightsFile, QFileInfo(wf).absoluteFilePath());
        EXPECT_FLOAT_EQ(again.workspace()->shownRun()->trace->find("queries")->value.at({0, 1, 0}),
                        0.4f);
    }
    // The embeddings disappear, the weights change (still a valid file).
    ASSERT_TRUE(QFile::remove(emb));
    writeText(
        wf,
        "{\"W_query.weight\": [[2, 0, 0], [0, 2, 0]], \"W_key.weight\": [[1, 0, 0], [0, 1, 0]],"
        " \"W_value.weight\": [[0, 0, 1], [1, 0, 0]]}");
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    Messages messages;
    messages.attach(w);
    ASSERT_TRUE(w.sessions()->openSession(path));
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(messages.texts.isEmpty());  // non-modal: notes, not boxes
    const QString notes = w.sessions()->notes().join('\n');
    EXPECT_TRUE(notes.contains(QStringLiteral("embeddings file")) &&
                notes.contains(QStringLiteral("missing")))
        << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("has changed since the session was saved")))
        << notes.toStdString();
    EXPECT_TRUE(w.sessions()->notesWidget()->isVisibleTo(&w));
    EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("note")))
        << w.statusBar()->currentMessage().toStdString();
    // The rest opened: the variant and step, typed text for x, the changed weights in use.
    EXPECT_EQ(w.workspace()->settings().config.variant, Variant::SelfAttention);
    EXPECT_EQ(w.workspace()->settings().step, QStringLiteral("queries"));
    EXPECT_EQ(w.workspace()->settings().source, InputSource::Text);
    ASSERT_NE(w.workspace()->shownRun(), nullptr);
    EXPECT_FALSE(w.workspace()->settings().weightsFile.isEmpty());
    const Tensor& x = w.workspace()->shownRun()->trace->find("inputs")->value;
    EXPECT_FLOAT_EQ(w.workspace()->shownRun()->trace->find("queries")->value.at({0, 0, 0}),
                    2 * x.at({0, 0, 0}));
}

TEST(Sessions, EverySettingASessionHoldsIsShownAsItIsNotAdjusted) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("edited.attnlens"));
    Session edited;
    edited.settings.source = InputSource::Text;
    edited.settings.text = QStringLiteral("a b c");
    edited.settings.tokenizer = TokenizerKind::Words;
    edited.settings.config.dIn = 4;
    edited.settings.config.batch = 100;
    edited.settings.config.dropout = 0.125;
    edited.settings.config.seed = 18446744073709551615ull;
    writeSession(path, edited);
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    Messages messages;
    messages.attach(w);
    ASSERT_TRUE(w.sessions()->openSession(path));
    ASSERT_TRUE(settle(w));
    EXPECT_TRUE(w.sessions()->notes().isEmpty()) << w.sessions()->notes().join('\n').toStdString();
    EXPECT_EQ(w.workspace()->settings().config.batch, 100);
    EXPECT_EQ(w.workspace()->settings().config.dropout, 0.125);
    EXPECT_EQ(w.workspace()->shownRun()->trace->config.batch, 100);
    // The controls show the values exactly.
    EXPECT_EQ(w.findChild<QSpinBox*>("batchSpin")->value(), 100);
    EXPECT_EQ(w.findChild<QDoubleSpinBox*>("dropoutSpin")->text(), QStringLiteral("0.125"));
    EXPECT_EQ(w.findChild<QLineEdit*>("seedEdit")->text(), QStringLiteral("18446744073709551615"));
    EXPECT_FALSE(w.sessions()->isModified());
}

TEST(Sessions, OlderFileOpensWithNotesAboutDefaults) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("old.attnlens"));
    writeText(path,
              "{\"format\": \"attention-lens-session\", \"version\": 0, \"source\": \"text\","
              " \"text\": \"Hello there\", \"variant\": \"causal\"}");
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(w.sessions()->openSession(path));
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().text, QStringLiteral("Hello there"));
    EXPECT_EQ(w.workspace()->settings().config.variant, Variant::Causal);
    const QStringList notes = w.sessions()->notes();
    // One line names every setting the file lacks.
    ASSERT_EQ(notes.size(), 1) << notes.join('\n').toStdString();
    EXPECT_TRUE(notes[0].startsWith(
        QStringLiteral("The session was saved by an older version and lacks 23 settings")))
        << notes[0].toStdString();
    EXPECT_TRUE(notes[0].contains(QStringLiteral(" seed,"))) << notes[0].toStdString();
    EXPECT_TRUE(w.sessions()->notesWidget()->isVisibleTo(&w));
    // The box names the missing settings on one line rather than one line each.
    auto* label = w.findChild<QLabel*>(QStringLiteral("sessionNotesLabel"));
    ASSERT_NE(label, nullptr);
    EXPECT_TRUE(label->text().startsWith(QStringLiteral("Opened old.attnlens with notes:")))
        << label->text().toStdString();
    EXPECT_TRUE(label->text().contains(QStringLiteral("older version")))
        << label->text().toStdString();
    EXPECT_TRUE(label->text().contains(QStringLiteral("seed")));
    EXPECT_EQ(label->text().count(QLatin1Char('\n')), 1) << label->text().toStdString();
}

TEST(Sessions, RecentListIsNewestFirstWithoutDuplicatesAndCapped) {
    SessionActions::clearRecentSessions();
    QTemporaryDir dir;
    for (int i = 0; i < 10; ++i)
        SessionActions::addRecentSession(dir.filePath(QStringLiteral("s%1.attnlens").arg(i)));
    QStringList list = SessionActions::recentSessions();
    ASSERT_EQ(list.size(), SessionActions::kMaxRecent);
    EXPECT_EQ(list.front(), dir.filePath(QStringLiteral("s9.attnlens")));
    EXPECT_EQ(list.back(), dir.filePath(QStringLiteral("s2.attnlens")));
    SessionActions::addRecentSession(dir.filePath(QStringLiteral("s5.attnlens")));
    list = SessionActions::recentSessions();
    ASSERT_EQ(list.size(), 8);
    EXPECT_EQ(list.front(), dir.filePath(QStringLiteral("s5.attnlens")));
    EXPECT_EQ(list.count(dir.filePath(QStringLiteral("s5.attnlens"))), 1);
    EXPECT_EQ(list[1], dir.filePath(QStringLiteral("s9.attnlens")));

    // The menu lists them in that order and "Clear recent" empties it.
    MainWindow w(testOptions());
    auto* menu = w.findChild<QMenu*>(QStringLiteral("menuRecentSessions"));
    ASSERT_NE(menu, nullptr);
    emit menu->aboutToShow();
    QStringList paths;
    QAction* clear = nullptr;
    for (QAction* a : menu->actions()) {
        if (a->data().isValid())
            paths << a->data().toString();
        if (a->objectName() == QLatin1String("actionClearRecent"))
            clear = a;
    }
    EXPECT_EQ(paths, list);
    ASSERT_NE(clear, nullptr);
    clear->trigger();
    EXPECT_TRUE(SessionActions::recentSessions().isEmpty());
    emit menu->aboutToShow();
    EXPECT_FALSE(menu->actions().front()->isEnabled());  // "(no recent sessions)"
}

// The names the app gives every step's figure: those of `render --all-steps`.
QStringList allStepsFileNames(MainWindow& w, const QString& format, bool everyBatchEntry = false) {
    QStringList names;
    for (const StepFigure& f :
         allStepFigures(*w.workspace()->shownRun()->trace, format, everyBatchEntry))
        names << f.fileName;
    return names;
}

TEST(FileExport, AllStepsOfTheBookExampleWithCliNamesAndValidSvg) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    const Trace& t = *w.workspace()->shownRun()->trace;
    ASSERT_EQ(t.config.heads, 2);
    QStringList expected;
    int position = 0;
    for (const Step& s : t.steps) {
        const int64_t hd = s.info.headAxis();
        const QString id = QStringLiteral("%1_").arg(++position, 2, 10, QLatin1Char('0')) +
                           QString::fromStdString(s.info.id);
        if (hd < 0)
            expected << id + ".svg";
        else
            for (int64_t h = 0; h < s.value.size(hd); ++h)
                expected << QStringLiteral("%1_head%2.svg").arg(id).arg(h);
    }
    EXPECT_TRUE(expected.contains(QStringLiteral("01_inputs.svg")));
    EXPECT_EQ(expected.filter(QRegularExpression("^\\d\\d_mask\\.svg$")).size(), 1);
    EXPECT_EQ(expected.filter(QRegularExpression("^\\d\\d_weights_head[01]\\.svg$")).size(), 2);
    EXPECT_TRUE(expected.last().endsWith(QStringLiteral("_output.svg")));
    EXPECT_EQ(allStepsFileNames(w, QStringLiteral("svg")), expected);

    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("figures"));
    std::vector<int> seen;
    const auto r = w.exports()->exportAllSteps(out, QStringLiteral("svg"), false,
                                               [&](int done, int total, const QString&) {
                                                   seen.push_back(done);
                                                   EXPECT_EQ(total, int(expected.size()));
                                                   return true;
                                               });
    EXPECT_TRUE(r.ok());
    EXPECT_FALSE(r.cancelled);
    EXPECT_EQ(r.total, int(expected.size()));
    EXPECT_EQ(int(seen.size()), r.total + 1);
    QStringList written = QDir(out).entryList(QDir::Files, QDir::Name);
    QStringList want = expected;
    want.sort();
    EXPECT_EQ(written, want);
    for (const QString& f : written) {
        QSvgRenderer svg(QDir(out).filePath(f));
        EXPECT_TRUE(svg.isValid()) << f.toStdString();
    }

    // Cancel after three files: exactly three complete files, nothing half written.
    const QString out2 = dir.filePath(QStringLiteral("cancelled"));
    const auto c = w.exports()->exportAllSteps(
        out2, QStringLiteral("png"), false, [](int done, int, const QString&) { return done < 3; });
    EXPECT_TRUE(c.cancelled);
    EXPECT_FALSE(c.ok());
    ASSERT_EQ(c.files.size(), 3);
    written = QDir(out2).entryList(QDir::Files | QDir::Hidden, QDir::Name);
    QStringList first3 = expected.mid(0, 3);
    for (QString& f : first3)
        f.replace(QStringLiteral(".svg"), QStringLiteral(".png"));
    first3.sort();
    EXPECT_EQ(written, first3);
    for (const QString& f : written)
        EXPECT_FALSE(QImage(QDir(out2).filePath(f)).isNull()) << f.toStdString();
}

// The menu's Export all steps runs from the event loop, one file per turn (it used to draw every
// file inside the call, calling processEvents between them): the call returns before any file
// exists, the window keeps running, and Cancel leaves only complete files.
TEST(FileExport, ExportAllStepsFromTheMenuLeavesTheEventLoopRunning) {
    MainWindow w(testOptions());
    w.show();
    change(w, [](Settings& s) { s.config.variant = Variant::MultiHead; });
    ASSERT_TRUE(settle(w));
    ExportActions* e = w.exports();
    const QStringList expected = allStepsFileNames(w, QStringLiteral("svg"));
    QTemporaryDir dir;
    std::optional<StepFiguresResult> result;
    QObject::connect(e, &ExportActions::allStepsExported,
                     [&](const StepFiguresResult& r) { result = r; });
    int ticks = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&] { ++ticks; });
    tick.start(0);
    ASSERT_TRUE(e->startExportAllSteps(dir.path(), QStringLiteral("svg"), false));
    EXPECT_TRUE(QDir(dir.path()).entryList(QDir::Files).isEmpty());  // nothing inside the call
    EXPECT_TRUE(e->isExporting());
    EXPECT_FALSE(e->startExportAllSteps(dir.path(), QStringLiteral("svg"), false));  // one at once
    QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 20000);
    EXPECT_TRUE(result->ok()) << result->error.toStdString();
    EXPECT_EQ(result->files.size(), expected.size());
    EXPECT_GE(ticks, int(expected.size()) / 2);  // the loop turned between files
    EXPECT_FALSE(e->isExporting());

    // Cancel from the progress dialog once two files are there: only complete files stay.
    const QString out = dir.filePath(QStringLiteral("cancelled"));
    result.reset();
    ASSERT_TRUE(e->startExportAllSteps(out, QStringLiteral("png"), false));
    QTRY_VERIFY(QDir(out).entryList(QDir::Files).size() >= 2);
    QProgressDialog* progress = nullptr;
    for (QProgressDialog* d : w.findChildren<QProgressDialog*>())
        if (!d->wasCanceled() && d->isVisible())
            progress = d;  // the first export's dialog may not be deleted yet
    ASSERT_NE(progress, nullptr);
    progress->cancel();
    QTRY_VERIFY(result.has_value());
    EXPECT_TRUE(result->cancelled);
    EXPECT_LT(result->files.size(), expected.size());
    const QStringList written = QDir(out).entryList(QDir::Files | QDir::Hidden, QDir::Name);
    EXPECT_EQ(written.size(), result->files.size());
    for (const QString& f : written)
        EXPECT_FALSE(QImage(QDir(out).filePath(f)).isNull()) << f.toStdString();
}

TEST(FileExport, EveryBatchEntryWhenAskedAndFiguresAtTheirOwnSize) {
    MainWindow w(testOptions());
    w.show();
    change(w, [](Settings& s) { s.config.batch = 2; });
    ASSERT_TRUE(settle(w));
    QTemporaryDir dir;
    const auto r = w.exports()->exportAllSteps(dir.path(), QStringLiteral("png"), true);
    ASSERT_TRUE(r.ok()) << r.error.toStdString();
    const QStringList names = QDir(dir.path()).entryList(QDir::Files, QDir::Name);
    const auto named = [&](const QString& pattern) {
        return names.filter(QRegularExpression(QStringLiteral("^\\d\\d_") + pattern + "$"));
    };
    EXPECT_EQ(named(QStringLiteral("weights_head1_batch1\\.png")).size(), 1);
    EXPECT_EQ(named(QStringLiteral("weights_head1_batch0\\.png")).size(), 1);
    EXPECT_EQ(named(QStringLiteral("mask\\.png")).size(), 1);  // the same for every entry
    QStringList all = allStepsFileNames(w, QStringLiteral("png"), true);
    all.sort();
    EXPECT_EQ(names, all);
    // The 6 x 6 weights at their own size: square cells, not the window's aspect.
    const QImage weights(
        QDir(dir.path()).filePath(named(QStringLiteral("weights_head0_batch0\\.png")).value(0)));
    ASSERT_FALSE(weights.isNull());
    EXPECT_LT(double(weights.width()) / weights.height(), 1.6);
    EXPECT_GT(double(weights.width()) / weights.height(), 0.8);
}

TEST(FileExport, StepDataAsCsvNpyJsonAndTraceAsNpz) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    w.workspace()->selectStep(QStringLiteral("weights"));
    w.workspace()->selectHead(1);
    QTemporaryDir dir;
    Messages messages;
    messages.attach(w);
    const Trace& t = *w.workspace()->shownRun()->trace;
    const Step* weights = t.find("weights");
    ASSERT_NE(weights, nullptr);

    const QString csv = dir.filePath(QStringLiteral("weights_head1.csv"));
    ASSERT_TRUE(w.exports()->exportStepCsv(csv));
    const QStringList lines = QString::fromUtf8(readAll(csv)).split('\n', Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 7);
    EXPECT_EQ(lines[0], QStringLiteral(",Your,journey,starts,with,one,step"));
    const Tensor m = stepMatrix(*weights, 1, 0);
    for (int r = 0; r < 6; ++r) {
        const QStringList cells = lines[r + 1].split(',');
        ASSERT_EQ(cells.size(), 7);
        EXPECT_EQ(cells[0], lines[0].split(',')[r + 1]);
        for (int c = 0; c < 6; ++c)
            EXPECT_EQ(cells[c + 1].toFloat(), m.at({r, c})) << r << "," << c;
    }
    EXPECT_EQ(lines[1].split(',')[1].toFloat(), 1.0f);  // "Your" attends only to itself

    // A split step's CSV holds the matrix its heatmap shows: tokens as rows, the heads' features
    // side by side as "head.feature" columns (book example: 2 heads of 1 number each).
    w.workspace()->selectStep(QStringLiteral("keys_split"));
    const QString splitCsv = dir.filePath(QStringLiteral("keys_split.csv"));
    ASSERT_TRUE(w.exports()->exportStepCsv(splitCsv));
    const QStringList split = QString::fromUtf8(readAll(splitCsv)).split('\n', Qt::SkipEmptyParts);
    const HeatmapData shown = w.stepView()->heatmap()->data();
    ASSERT_EQ(shown.rows, 6);
    ASSERT_EQ(shown.cols, 2);
    ASSERT_EQ(split.size(), 7);
    EXPECT_EQ(split[0], QStringLiteral(",0.0,1.0"));
    const Step* keysSplit = t.find("keys_split");
    ASSERT_NE(keysSplit, nullptr);
    for (int r = 0; r < 6; ++r) {
        const QStringList cells = split[r + 1].split(',');
        ASSERT_EQ(cells.size(), 3);
        EXPECT_EQ(cells[0], shown.rowLabels[r]);
        for (int c = 0; c < 2; ++c) {
            EXPECT_EQ(cells[c + 1].toFloat(), shown.value(r, c)) << r << "," << c;
            EXPECT_EQ(cells[c + 1].toFloat(), keysSplit->value.at({0, r, c, 0}));
        }
    }

    w.workspace()->selectStep(QStringLiteral("weights"));

    const QString npy = dir.filePath(QStringLiteral("weights.npy"));
    ASSERT_TRUE(w.exports()->exportStepNpy(npy));
    const QByteArray npyBytes = readAll(npy);
    ASSERT_TRUE(npyBytes.startsWith(QByteArray("\x93NUMPY", 6)));
    EXPECT_TRUE(npyBytes.contains("'descr': '<f4'"));
    EXPECT_TRUE(npyBytes.contains("'shape': (1, 2, 6, 6)")) << npyBytes.left(128).toStdString();
    expectSameTensor(io::readNpy(npy.toStdString()), weights->value);

    const QString json = dir.filePath(QStringLiteral("weights.json"));
    ASSERT_TRUE(w.exports()->exportStepJson(json));
    const QJsonObject o = QJsonDocument::fromJson(readAll(json)).object();
    EXPECT_EQ(o["id"].toString(), QStringLiteral("weights"));
    EXPECT_EQ(o["shape"].toArray(), (QJsonArray{1, 2, 6, 6}));
    EXPECT_EQ(o["data"].toArray().size(), 72);

    const QString npz = dir.filePath(QStringLiteral("trace.npz"));
    ASSERT_TRUE(w.exports()->exportTraceNpz(npz));
    const io::NamedTensors arrays = io::readNpz(npz.toStdString());
    ASSERT_EQ(arrays.size(), t.steps.size());
    for (size_t i = 0; i < arrays.size(); ++i) {
        EXPECT_EQ(arrays[i].first, t.steps[i].info.id);
        EXPECT_EQ(arrays[i].second.shape(), t.steps[i].value.shape());
    }
    EXPECT_TRUE(messages.texts.isEmpty());
}

TEST(FileExport, WriteFailuresShowAnErrorAndLeaveNoFile) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    Messages messages;
    messages.attach(w);
    if (QFileInfo::exists(QStringLiteral("/dev/full"))) {
        EXPECT_FALSE(w.exports()->exportStepCsv(QStringLiteral("/dev/full")));
        ASSERT_EQ(messages.texts.size(), 1);
        EXPECT_EQ(messages.titles[0], QStringLiteral("Export failed"));
        EXPECT_TRUE(messages.texts[0].contains(QStringLiteral("Cannot write /dev/full")))
            << messages.texts[0].toStdString();
        EXPECT_FALSE(w.exports()->exportTraceNpz(QStringLiteral("/dev/full")));
        EXPECT_EQ(messages.texts.size(), 2);
        EXPECT_FALSE(w.sessions()->saveSessionTo(QStringLiteral("/dev/full")));
        ASSERT_EQ(messages.texts.size(), 3);
        EXPECT_EQ(messages.titles[2], QStringLiteral("Cannot save the session"));
        EXPECT_TRUE(w.sessions()->sessionPath().isEmpty());
        messages.texts.clear();
        messages.titles.clear();
    }
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("no/such/folder/weights.npy"));
    EXPECT_FALSE(w.exports()->exportStepNpy(missing));
    ASSERT_EQ(messages.texts.size(), 1);
    EXPECT_TRUE(messages.texts[0].contains(QStringLiteral("does not exist")))
        << messages.texts[0].toStdString();
    EXPECT_FALSE(QFile::exists(missing));
    // A file where the folder should be: the export of every step stops with a message.
    writeText(dir.filePath(QStringLiteral("file")), "x");
    const auto r = w.exports()->exportAllSteps(dir.filePath(QStringLiteral("file")),
                                               QStringLiteral("svg"), false);
    EXPECT_FALSE(r.ok());
    EXPECT_TRUE(r.files.isEmpty());
    EXPECT_TRUE(r.error.contains(QStringLiteral("Cannot create the folder")))
        << r.error.toStdString();
    // Nothing but the one file we made is in the folder (no temporary leftovers).
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
              QStringList{QStringLiteral("file")});
}

TEST(FileWeights, SafetensorsFromSeed7AreUsedWhileTheSeedIs123) {
    MainWindow w(testOptions());
    w.show();
    Settings s =
        w.workspace()
            ->settings();  // the book example: MultiHeadAttention, d_in 3, d_out 2, 2 heads
    s.config.seed = 7;
    w.workspace()->reset({s, {}});
    ASSERT_TRUE(settle(w));
    const std::shared_ptr<const Trace> seven = w.workspace()->shownRun()->trace;
    ASSERT_FALSE(seven->parameters.empty());
    EXPECT_TRUE(seven->parameters.count("out_proj.weight"));

    s.config.seed = 123;
    w.workspace()->reset({s, {}});
    ASSERT_TRUE(settle(w));
    const std::shared_ptr<const Trace> base = w.workspace()->shownRun()->trace;
    EXPECT_NE(base->output().at({0, 5, 0}), seven->output().at({0, 5, 0}));

    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("mha_seed7.safetensors"));
    io::writeSafetensors(file.toStdString(), seven->parameters);
    QString error;
    ASSERT_TRUE(w.workspace()->openWeights(file, &error)) << error.toStdString();
    ASSERT_TRUE(settle(w));
    EXPECT_EQ(w.workspace()->settings().config.seed, 123u);
    ASSERT_NE(w.workspace()->shownRun(), nullptr);
    expectSameTensor(w.workspace()->shownRun()->trace->output(), seven->output());
    expectSameTensor(w.workspace()->shownRun()->trace->find("weights")->value,
                     seven->find("weights")->value);

    // BF16 weights: the same numbers rounded to bfloat16 give the same output as F32 weights
    // holding those rounded numbers.
    WeightMap rounded = seven->parameters;
    std::string header = "{";
    std::string data;
    for (auto& [name, tensor] : rounded) {
        Tensor copy = tensor.clone();
        float* p = copy.mutableData();
        const size_t begin = data.size();
        for (int64_t i = 0; i < copy.numel(); ++i) {
            uint32_t bits;
            std::memcpy(&bits, &p[i], 4);
            bits &= 0xFFFF0000u;
            std::memcpy(&p[i], &bits, 4);
            const uint16_t top = uint16_t(bits >> 16);
            data.append(reinterpret_cast<const char*>(&top), 2);
        }
        tensor = copy;
        std::string shape;
        for (int64_t d : copy.shape()) {
            if (!shape.empty())
                shape += ',';
            shape += std::to_string(d);
        }
        if (header.size() > 1)
            header += ",";
        header += "\"" + name + "\":{\"dtype\":\"BF16\",\"shape\":[" + shape +
                  "],\"data_offsets\":[" + std::to_string(begin) + "," +
                  std::to_string(data.size()) + "]}";
    }
    header += "}";
    while (header.size() % 8)
        header += ' ';
    std::string bytes(8, '\0');
    const uint64_t n = header.size();
    std::memcpy(bytes.data(), &n, 8);
    bytes += header + data;
    const QString bf16 = dir.filePath(QStringLiteral("bf16.safetensors"));
    writeText(bf16, QByteArray(bytes.data(), qsizetype(bytes.size())));
    const QString f32 = dir.filePath(QStringLiteral("rounded.safetensors"));
    io::writeSafetensors(f32.toStdString(), rounded);
    ASSERT_TRUE(w.workspace()->openWeights(f32, &error)) << error.toStdString();
    ASSERT_TRUE(settle(w));
    const std::shared_ptr<const Trace> fromF32 = w.workspace()->shownRun()->trace;
    ASSERT_TRUE(w.workspace()->openWeights(bf16, &error)) << error.toStdString();
    ASSERT_TRUE(settle(w));
    expectSameTensor(w.workspace()->shownRun()->trace->output(), fromF32->output());
    EXPECT_NE(w.workspace()->shownRun()->trace->output().at({0, 5, 0}),
              seven->output().at({0, 5, 0}));

    // Weights of another shape: refused with the expected and the found shape.
    WeightMap wrong = seven->parameters;
    wrong["W_query.weight"] = Tensor(Shape{4, 3});
    const QString bad = dir.filePath(QStringLiteral("wrong.safetensors"));
    io::writeSafetensors(bad.toStdString(), wrong);
    EXPECT_FALSE(w.workspace()->openWeights(bad, &error));
    EXPECT_TRUE(error.contains(
        QStringLiteral("W_query.weight has shape (4, 3) but this model needs (2, 3)")))
        << error.toStdString();
    EXPECT_EQ(w.workspace()->settings().weightsFile, bf16);  // the last good file stays in use
}

TEST(FileMenu, SessionAndExportActionsWithShortcutsAndAHeatmapMenu) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    auto* file = w.findChild<QMenu*>(QStringLiteral("menuFile"));
    ASSERT_NE(file, nullptr);
    QStringList names;
    for (QAction* a : file->actions()) {
        if (!a->isVisible())
            continue;  // model-mode actions are hidden with the chapter-3 module
        names << (a->isSeparator() ? QStringLiteral("-")
                  : a->menu()      ? a->menu()->objectName()
                                   : a->objectName());
    }
    EXPECT_EQ(names,
              (QStringList{"actionOpenSession", "menuRecentSessions", "actionSaveSession",
                           "actionSaveSessionAs", "-", "actionOpenModelFolder", "actionOpenModel",
                           "actionOpenText", "actionLoadEmbeddings", "actionLoadWeights",
                           "actionForgetFiles", "-", "actionExportImage", "actionExportAllSteps",
                           "menuExportData", "-", "actionQuit"}))
        << names.join(' ').toStdString();
    auto shortcut = [&](const char* name) {
        auto* a = w.findChild<QAction*>(QString::fromLatin1(name));
        return a ? a->shortcut() : QKeySequence();
    };
    EXPECT_EQ(shortcut("actionOpenSession"), QKeySequence(QKeySequence::Open));
    EXPECT_EQ(shortcut("actionSaveSession"), QKeySequence(QKeySequence::Save));
    EXPECT_EQ(shortcut("actionSaveSessionAs"), QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    EXPECT_EQ(shortcut("actionExportAllSteps"), QKeySequence(QStringLiteral("Ctrl+Shift+E")));
    EXPECT_EQ(shortcut("actionExportImage"), QKeySequence(QStringLiteral("Ctrl+E")));

    // No two actions of the window share a shortcut.
    QMap<QString, QString> owners;
    for (QAction* a : w.findChildren<QAction*>()) {
        for (const QKeySequence& k : a->shortcuts()) {
            const QString key = k.toString();
            EXPECT_FALSE(owners.contains(key))
                << key.toStdString() << ": " << a->text().toStdString() << " and "
                << owners.value(key).toStdString();
            owners[key] = a->text();
        }
    }

    std::unique_ptr<QMenu> menu(w.exports()->createHeatmapMenu(&w));
    QStringList items;
    for (QAction* a : menu->actions())
        if (!a->isSeparator())
            items << (a->menu() ? a->menu()->objectName() : a->objectName());
    EXPECT_EQ(items, (QStringList{"actionExportImage", "actionCopyImage", "actionExportAllSteps",
                                  "menuExportData"}));
    EXPECT_TRUE(w.findChild<QAction*>(QStringLiteral("actionExportAllSteps"))->isEnabled());
    EXPECT_EQ(w.stepView()->heatmap()->contextMenuPolicy(), Qt::CustomContextMenu);
}

namespace {

// Answers the modal dialogs the menu actions open, one handler per dialog, in order: the
// handlers run from a timer while the dialog's own event loop runs.
class DialogDriver : public QObject {
  public:
    using Handler = std::function<bool(QWidget* dialog)>;  // true when it handled the dialog
    explicit DialogDriver(QList<Handler> handlers) : handlers_(std::move(handlers)) {
        connect(&timer_, &QTimer::timeout, this, [this] {
            QWidget* modal = QApplication::activeModalWidget();
            if (!modal)
                return;
            if (modal == last_) {
                // Handled but still open after a few seconds: close it so the test fails, not
                // hangs.
                if (++stuckTicks_ == 250) {
                    unexpected_ << QStringLiteral("a dialog did not close: ") +
                                       modal->windowTitle();
                    if (auto* dialog = qobject_cast<QDialog*>(modal))
                        dialog->reject();
                }
                return;
            }
            stuckTicks_ = 0;
            // A message box nobody expected: note it and close it, so the test fails, not hangs.
            if (auto* box = qobject_cast<QMessageBox*>(modal)) {
                unexpected_ << box->text() + QLatin1Char(' ') + box->informativeText();
                last_ = modal;
                box->reject();
                return;
            }
            if (handlers_.isEmpty())
                return;
            if (handlers_.front()(modal)) {
                last_ = modal;
                handlers_.removeFirst();
                ++handled_;
            }
        });
        timer_.start(20);
    }
    int handled() const { return handled_; }
    QStringList unexpected() const { return unexpected_; }

  private:
    QTimer timer_;
    QList<Handler> handlers_;
    QPointer<QWidget> last_;
    int handled_ = 0;
    QStringList unexpected_;
    int stuckTicks_ = 0;
};

DialogDriver::Handler chooseFile(const QString& path) {
    return [path](QWidget* w) {
        auto* d = qobject_cast<QFileDialog*>(w);
        if (!d)
            return false;
        // Typed as a full path, as a user would: independent of the folder the dialog shows and
        // of its (asynchronously loaded) file list.
        auto* edit = d->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        if (!edit)
            return false;
        edit->setText(path);
        static_cast<QDialog*>(d)->accept();  // QFileDialog::accept is protected; QDialog's is not
        return true;
    };
}

// Export all steps: the folder typed in, the file type picked, then Export.
DialogDriver::Handler exportAllInto(const QString& dir, const QString& format) {
    return [dir, format](QWidget* w) {
        if (w->objectName() != QLatin1String("exportAllDialog"))
            return false;
        w->findChild<QLineEdit*>(QStringLiteral("exportFolder"))->setText(dir);
        auto* type = w->findChild<QComboBox*>(QStringLiteral("exportFormat"));
        type->setCurrentIndex(type->findData(format));
        static_cast<QDialog*>(w)->accept();
        return true;
    };
}

}  // namespace

TEST(FileMenu, SaveAsksForANameOnlyTheFirstTimeAndExportAllRunsFromTheMenu) {
    QTemporaryDir dir;
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    const QString path = dir.filePath(QStringLiteral("lesson.attnlens"));
    {
        DialogDriver driver({chooseFile(dir.filePath(QStringLiteral("lesson")))});  // suffix added
        w.findChild<QAction*>(QStringLiteral("actionSaveSession"))->trigger();
        EXPECT_EQ(driver.handled(), 1);
        EXPECT_TRUE(driver.unexpected().isEmpty()) << driver.unexpected().join('\n').toStdString();
    }
    ASSERT_TRUE(QFile::exists(path));
    EXPECT_EQ(w.sessions()->sessionPath(), path);
    w.workspace()->selectStep(QStringLiteral("scores"));
    EXPECT_TRUE(w.isWindowModified());
    {
        DialogDriver driver({});
        w.findChild<QAction*>(QStringLiteral("actionSaveSession"))->trigger();  // no dialog now
        EXPECT_EQ(driver.handled(), 0);
        EXPECT_TRUE(driver.unexpected().isEmpty()) << driver.unexpected().join('\n').toStdString();
    }
    EXPECT_FALSE(w.isWindowModified());
    EXPECT_EQ(QJsonDocument::fromJson(readAll(path)).object()["step"].toString(),
              QStringLiteral("scores"));

    const QString out = dir.filePath(QStringLiteral("pdfs"));
    ASSERT_TRUE(QDir().mkpath(out));
    {
        DialogDriver driver({exportAllInto(out, QStringLiteral("pdf"))});
        w.findChild<QAction*>(QStringLiteral("actionExportAllSteps"))->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!w.exports()->isExporting(), 30000);  // one file per turn
        EXPECT_EQ(driver.handled(), 1);
        EXPECT_TRUE(driver.unexpected().isEmpty()) << driver.unexpected().join('\n').toStdString();
    }
    QStringList want = allStepsFileNames(w, QStringLiteral("pdf"));
    want.sort();
    EXPECT_EQ(QDir(out).entryList(QDir::Files, QDir::Name), want);
    EXPECT_TRUE(w.statusBar()->currentMessage().startsWith(
        QStringLiteral("Exported %1 files").arg(want.size())))
        << w.statusBar()->currentMessage().toStdString();
}

TEST(FileMenu, ExportAllStaysResponsiveAndCancelLeavesOnlyCompleteFiles) {
    MainWindow w(testOptions());
    w.show();
    Settings s = w.workspace()->settings();
    s.source = InputSource::Text;
    s.text = QStringLiteral("The quick brown fox jumps over the lazy dog again and again");
    s.config.dIn = 48;
    s.config.dOut = 48;
    s.config.heads = 12;
    w.workspace()->reset({s, {}});
    ASSERT_TRUE(settle(w));
    const int total = int(allStepsFileNames(w, QStringLiteral("svg")).size());
    ASSERT_GT(total, 100);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("svgs"));
    ASSERT_TRUE(QDir().mkpath(out));
    int seenAt = -1;
    {
        DialogDriver driver({exportAllInto(out, QStringLiteral("svg")), [&seenAt](QWidget* d) {
                                 // The progress window is up and timers still run: press Cancel.
                                 auto* progress = qobject_cast<QProgressDialog*>(d);
                                 if (!progress || progress->value() < 3)
                                     return false;
                                 seenAt = progress->value();
                                 progress->cancel();
                                 return true;
                             }});
        w.findChild<QAction*>(QStringLiteral("actionExportAllSteps"))->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!w.exports()->isExporting(), 30000);
        EXPECT_EQ(driver.handled(), 2);
        EXPECT_TRUE(driver.unexpected().isEmpty()) << driver.unexpected().join('\n').toStdString();
    }
    ASSERT_GE(seenAt, 3);
    const QStringList written = QDir(out).entryList(QDir::Files | QDir::Hidden, QDir::Name);
    EXPECT_GE(written.size(), seenAt);
    EXPECT_LT(written.size(), total);
    for (const QString& f : written) {
        EXPECT_TRUE(f.endsWith(QLatin1String(".svg"))) << f.toStdString();
        EXPECT_TRUE(QSvgRenderer(QDir(out).filePath(f)).isValid()) << f.toStdString();
    }
    EXPECT_TRUE(w.statusBar()->currentMessage().startsWith(
        QStringLiteral("Export cancelled: %1 complete files").arg(written.size())))
        << w.statusBar()->currentMessage().toStdString();
}

TEST(FileWeights, WrongWeightsFromTheMenuAreExplainedBesideTheSource) {
    MainWindow w(testOptions());
    w.show();
    ASSERT_TRUE(settle(w));
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("wrong.json"));
    writeText(
        bad,
        "{\"W_query.weight\": [[1, 0, 0], [0, 1, 0]], \"W_kee.weight\": [[1, 0, 0], [0, 1, 0]]}");
    {
        DialogDriver driver({chooseFile(bad)});
        w.findChild<QAction*>(QStringLiteral("actionLoadWeights"))->trigger();
        EXPECT_EQ(driver.handled(), 1);
        EXPECT_TRUE(driver.unexpected().isEmpty()) << driver.unexpected().join('\n').toStdString();
    }
    const QString message = w.fieldError(QStringLiteral("weights"));
    EXPECT_TRUE(message.startsWith(QStringLiteral("wrong.json: missing W_key.weight (2, 3)")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("unexpected W_kee.weight")))
        << message.toStdString();
    EXPECT_TRUE(w.workspace()->settings().weightsFile.isEmpty());
    EXPECT_FALSE(w.workspace()->hasPendingWork());  // nothing changed: the seeded weights stay
}

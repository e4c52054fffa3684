// Sessions: round trip, older files, corrupt files, newer versions.

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include "app/session.h"

namespace attn {
namespace {

Session sample() {
    Session s;
    s.state.source = InputSource::Text;
    s.state.text = QStringLiteral("Héllo wörld 你好 👋");
    s.state.tokenizer = TokenizerKind::Words;
    s.state.config.variant = Variant::MultiHeadWrapper;
    s.state.config.dIn = 16;
    s.state.config.dOut = 8;
    s.state.config.heads = 3;
    s.state.config.mask = MaskSpec{MaskKind::Window, 3};
    s.state.config.dropout = 0.25;
    s.state.config.mode = Mode::Eval;
    s.state.config.dropoutRng = DropoutRng::Mkl;
    s.state.config.seed = 18446744073709551615ull;  // 2^64 - 1 survives (stored as text)
    s.state.config.qkvBias = true;
    s.state.config.batch = 2;
    s.state.config.contextLength = 77;
    s.state.embeddingSeed = 9;
    s.state.positions = false;
    s.state.step = QStringLiteral("scaled_scores");
    s.state.head = 2;
    s.state.batchIndex = 1;
    s.state.colormap = QStringLiteral("magma");
    s.state.showValues = false;
    s.weights = {QStringLiteral("/data/w.safetensors"), QStringLiteral("ab12")};
    s.windowGeometry = QByteArray("\x01\x02\x00geometry", 11);
    s.windowState = QByteArray("state\xff", 6);
    return s;
}

TEST(Session, RoundTripKeepsEverything) {
    QTemporaryDir dir;
    const QString path = dir.filePath("lesson.attnlens");
    writeSession(path, sample());
    QStringList notes;
    const Session s = readSession(path, &notes);
    EXPECT_TRUE(notes.isEmpty()) << notes.join('\n').toStdString();
    const Session want = sample();
    EXPECT_EQ(s.state.source, InputSource::Text);
    EXPECT_EQ(s.state.text, want.state.text);
    EXPECT_EQ(s.state.tokenizer, TokenizerKind::Words);
    EXPECT_EQ(s.state.config.variant, Variant::MultiHeadWrapper);
    EXPECT_EQ(s.state.config.dIn, 16);
    EXPECT_EQ(s.state.config.dOut, 8);
    EXPECT_EQ(s.state.config.heads, 3);
    EXPECT_EQ(s.state.config.effectiveMask(), (MaskSpec{MaskKind::Window, 3}));
    EXPECT_EQ(s.state.config.dropout, 0.25);
    EXPECT_EQ(s.state.config.mode, Mode::Eval);
    EXPECT_EQ(s.state.config.dropoutRng, DropoutRng::Mkl);
    EXPECT_EQ(s.state.config.seed, 18446744073709551615ull);
    EXPECT_TRUE(s.state.config.qkvBias);
    EXPECT_EQ(s.state.config.batch, 2);
    EXPECT_EQ(s.state.config.contextLength, 77);
    EXPECT_EQ(s.state.embeddingSeed, 9u);
    EXPECT_FALSE(s.state.positions);
    EXPECT_EQ(s.state.step, "scaled_scores");
    EXPECT_EQ(s.state.head, 2);
    EXPECT_EQ(s.state.batchIndex, 1);
    EXPECT_EQ(s.state.colormap, "magma");
    EXPECT_FALSE(s.state.showValues);
    EXPECT_EQ(s.weights.path, "/data/w.safetensors");
    EXPECT_EQ(s.weights.sha256, "ab12");
    EXPECT_TRUE(s.embeddings.path.isEmpty());
    EXPECT_EQ(s.windowGeometry, want.windowGeometry);
    EXPECT_EQ(s.windowState, want.windowState);
}

TEST(Session, OlderFileKeepsDefaultsAndSaysSo) {
    const QByteArray v0 = R"({"format": "attention-lens-session", "version": 1, "source": "book",
                              "variant": "causal", "d_out": 4})";
    QStringList notes;
    const Session s = sessionFromJson(v0, "old.attnlens", &notes);
    EXPECT_EQ(s.state.config.variant, Variant::Causal);
    EXPECT_EQ(s.state.config.dOut, 4);
    EXPECT_EQ(s.state.config.dIn, 3);
    EXPECT_EQ(s.state.config.seed, 123u);
    EXPECT_TRUE(notes.contains("The session has no \"seed\"; the default is used."));
    EXPECT_TRUE(notes.contains("The session has no \"heads\"; the default is used."));
}

void expectRefused(const QByteArray& bytes, const std::string& message) {
    try {
        sessionFromJson(bytes, "x.attnlens", nullptr);
        FAIL() << "accepted: " << bytes.toStdString();
    } catch (const EngineError& e) {
        EXPECT_EQ(e.field(), "session");
        EXPECT_EQ(std::string(e.what()), message);
    }
}

TEST(Session, CorruptFilesAreRefused) {
    expectRefused(
        "{\"format\": \"attention-lens-session\", \"version\": 1,",
        "x.attnlens: not a valid Attention Lens session (unterminated object at byte 50).");
    expectRefused(
        "[1, 2]",
        "x.attnlens: not a valid Attention Lens session (the file is not a JSON object).");
    expectRefused("{\"version\": 1}",
                  "x.attnlens: not a valid Attention Lens session (it does not say \"format\": "
                  "\"attention-lens-session\").");
    expectRefused(
        R"({"format": "attention-lens-session", "version": 1, "d_in": "three"})",
        "x.attnlens: not a valid Attention Lens session (\"d_in\" should be a whole number).");
    expectRefused(R"({"format": "attention-lens-session", "version": 1, "variant": "transformer"})",
                  "x.attnlens: not a valid Attention Lens session (unknown variant).");
    expectRefused(R"({"format": "attention-lens-session", "version": 1, "seed": 5})",
                  "x.attnlens: not a valid Attention Lens session (\"seed\" should be a seed).");
    expectRefused(R"({"format": "attention-lens-session", "version": 1, "source": "file"})",
                  "x.attnlens: not a valid Attention Lens session (the input is a file but no "
                  "embeddings file is named).");
}

TEST(Session, NewerVersionExplainsItself) {
    expectRefused(
        R"({"format": "attention-lens-session", "version": 7})",
        "x.attnlens was saved by a newer Attention Lens (session version 7; this one reads "
        "up to 1). Update the app to open it.");
}

TEST(Session, UnwritablePathLeavesNothing) {
    EXPECT_THROW(writeSession("/etc/hostname/s.attnlens", sample()), EngineError);
    EXPECT_THROW(writeSession("/dev/full", sample()), EngineError);
    EXPECT_THROW(readSession("/nonexistent/s.attnlens", nullptr), EngineError);
}

TEST(Session, FileHash) {
    QTemporaryDir dir;
    QFile f(dir.filePath("w.json"));
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("abc");
    f.close();
    EXPECT_EQ(fileSha256(dir.filePath("w.json")),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_TRUE(fileSha256(dir.filePath("missing")).isEmpty());
}

}  // namespace
}  // namespace attn

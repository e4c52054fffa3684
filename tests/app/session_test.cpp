// Sessions: round trip, older files, corrupt files, newer versions.

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include "app/session.h"
#include "io/file_io.h"

namespace attn {
namespace {

Session sample() {
    Session s;
    s.settings.source = InputSource::Text;
    s.settings.text = QStringLiteral("Héllo wörld 你好 👋");
    s.settings.tokenizer = TokenizerKind::Words;
    s.settings.config.variant = Variant::MultiHeadWrapper;
    s.settings.config.dIn = 16;
    s.settings.config.dOut = 8;
    s.settings.config.heads = 3;
    s.settings.config.mask = MaskSpec{MaskKind::Window, 3};
    s.settings.config.dropout = 0.25;
    s.settings.config.mode = Mode::Eval;
    s.settings.config.dropoutRng = DropoutRng::Mkl;
    s.settings.config.seed = 18446744073709551615ull;  // 2^64 - 1 survives (stored as text)
    s.settings.config.qkvBias = true;
    s.settings.config.batch = 2;
    s.settings.config.contextLength = 77;
    s.settings.embeddingSeed = 9;
    s.settings.positions = false;
    s.settings.step = QStringLiteral("scaled_scores");
    s.settings.head = 2;
    s.settings.batchIndex = 1;
    s.settings.colormap = QStringLiteral("magma");
    s.settings.showValues = false;
    s.settings.colorScale = ColorScale::Row;
    s.weights = {QStringLiteral("/data/w.safetensors"), QStringLiteral("ab12")};
    s.settings.weightsFile = s.weights.path;
    s.windowGeometry = QByteArray("\x01\x02\x00geometry", 11);
    s.windowState = QByteArray("state\xff", 6);
    return s;
}

TEST(Session, RoundTripKeepsEverything) {
    QTemporaryDir dir;
    const QString path = dir.filePath("lesson.attnlens");
    writeSession(path, sample());
    QStringList missing;
    const Session s = readSession(path, &missing);
    EXPECT_TRUE(missing.isEmpty()) << missing.join('\n').toStdString();
    const Session want = sample();
    EXPECT_EQ(s.settings, want.settings);
    EXPECT_EQ(s.settings.source, InputSource::Text);
    EXPECT_EQ(s.settings.text, want.settings.text);
    EXPECT_EQ(s.settings.tokenizer, TokenizerKind::Words);
    EXPECT_EQ(s.settings.config.variant, Variant::MultiHeadWrapper);
    EXPECT_EQ(s.settings.config.dIn, 16);
    EXPECT_EQ(s.settings.config.dOut, 8);
    EXPECT_EQ(s.settings.config.heads, 3);
    EXPECT_EQ(s.settings.config.effectiveMask(), (MaskSpec{MaskKind::Window, 3}));
    EXPECT_EQ(s.settings.config.dropout, 0.25);
    EXPECT_EQ(s.settings.config.mode, Mode::Eval);
    EXPECT_EQ(s.settings.config.dropoutRng, DropoutRng::Mkl);
    EXPECT_EQ(s.settings.config.seed, 18446744073709551615ull);
    EXPECT_TRUE(s.settings.config.qkvBias);
    EXPECT_EQ(s.settings.config.batch, 2);
    EXPECT_EQ(s.settings.config.contextLength, 77);
    EXPECT_EQ(s.settings.embeddingSeed, 9u);
    EXPECT_FALSE(s.settings.positions);
    EXPECT_EQ(s.settings.step, "scaled_scores");
    EXPECT_EQ(s.settings.head, 2);
    EXPECT_EQ(s.settings.batchIndex, 1);
    EXPECT_EQ(s.settings.colormap, "magma");
    EXPECT_FALSE(s.settings.showValues);
    EXPECT_EQ(s.settings.colorScale, ColorScale::Row);
    EXPECT_EQ(s.weights.path, "/data/w.safetensors");
    EXPECT_EQ(s.weights.sha256, "ab12");
    EXPECT_TRUE(s.embeddings.path.isEmpty());
    EXPECT_EQ(s.windowGeometry, want.windowGeometry);
    EXPECT_EQ(s.windowState, want.windowState);
}

TEST(Session, OlderFileKeepsDefaultsAndListsWhatItLacks) {
    const QByteArray v0 = R"({"format": "attention-lens-session", "version": 1, "source": "book",
                              "variant": "causal", "d_out": 4})";
    QStringList missing;
    const Session s = sessionFromJson(v0, "old.attnlens", &missing);
    EXPECT_EQ(s.settings.config.variant, Variant::Causal);
    EXPECT_EQ(s.settings.config.dOut, 4);
    EXPECT_EQ(s.settings.config.dIn, 3);
    EXPECT_EQ(s.settings.config.seed, 123u);
    EXPECT_TRUE(missing.contains("seed"));
    EXPECT_TRUE(missing.contains("heads"));
    EXPECT_FALSE(missing.contains("d_out"));
}

void expectRefused(const QByteArray& bytes, const std::string& message) {
    try {
        sessionFromJson(bytes, "x.attnlens", nullptr);
        FAIL() << "accepted: " << bytes.toStdString();
    } catch (const UserError& e) {
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
        "x.attnlens: not a valid Attention Lens session (\"d_in\" expects a whole number from 1 "
        "to 1048576, got \"three\").");
    expectRefused(R"({"format": "attention-lens-session", "version": 1, "d_out": 0})",
                  "x.attnlens: not a valid Attention Lens session (\"d_out\" expects a whole "
                  "number from 1 to 1048576, got \"0\").");
    expectRefused(R"({"format": "attention-lens-session", "version": 1, "variant": "transformer"})",
                  "x.attnlens: not a valid Attention Lens session (Unknown variant "
                  "\"transformer\"; use simplified, self-attention-v1, self-attention, causal, "
                  "multi-head-wrapper, multi-head, grouped-query, latent or rotary).");
    expectRefused(R"({"format": "attention-lens-session", "version": 1, "seed": "lots"})",
                  "x.attnlens: not a valid Attention Lens session (\"seed\" expects a whole "
                  "number from -2^63 to 2^64-1, got \"lots\").");
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
    EXPECT_THROW(writeSession("/etc/hostname/s.attnlens", sample()), UserError);
    EXPECT_THROW(writeSession("/dev/full", sample()), UserError);
    EXPECT_THROW(readSession("/nonexistent/s.attnlens", nullptr), UserError);
}

TEST(Session, FileHash) {
    QTemporaryDir dir;
    QFile f(dir.filePath("w.json"));
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("abc");
    f.close();
    EXPECT_EQ(QString::fromStdString(io::fileSha256(dir.filePath("w.json").toStdString())),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_TRUE(io::fileSha256(dir.filePath("missing").toStdString()).empty());
}

}  // namespace
}  // namespace attn

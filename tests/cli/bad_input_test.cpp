// The bad-input battery for the command line: every case ends with a clear message and exit 2
// (or a valid result), never a crash, a hang or a partial file.

#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Result runCli(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(ATTN_CLI_PATH), args);
    EXPECT_TRUE(p.waitForFinished(120000)) << "hung: " << args.join(' ').left(200).toStdString();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    return path;
}

void expectExit2(const QStringList& args, const QString& contains) {
    const Result r = runCli(args);
    EXPECT_EQ(r.exitCode, 2) << args.join(' ').left(200).toStdString() << "\n"
                             << r.err.toStdString();
    EXPECT_TRUE(r.out.isEmpty());
    EXPECT_EQ(r.err.count('\n'), 1) << r.err.toStdString();
    EXPECT_TRUE(QString::fromUtf8(r.err).contains(contains))
        << "stderr: " << r.err.toStdString() << "\nexpected: " << contains.toStdString();
}

TEST(BadInput, EmptyAndWhitespaceText) {
    expectExit2({"trace", "--text", ""}, "The text has no tokens");
    // Whitespace is a token for GPT-2, so this one runs.
    EXPECT_EQ(runCli({"trace", "--text", "   "}).exitCode, 0);
    expectExit2({"trace", "--text", "   ", "--tokenizer", "words"}, "The text has no tokens");
}

TEST(BadInput, VeryLongText) {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "long.txt", QByteArray("lorem ipsum ").repeated(10000));
    // Refused from its beginning, without tokenizing all 120 KB.
    expectExit2({"trace", "--text-file", path},
                "The text is too long for the context length of 1024 tokens: its first");
    const Result tok = runCli({"tokenize", "--text-file", path});
    ASSERT_EQ(tok.exitCode, 0);
    // "lorem ipsum " is 5 GPT-2 tokens ("l", "orem", " ipsum", " " merging into the next " l").
    EXPECT_GT(QJsonDocument::fromJson(tok.out).object()["ids"].toArray().size(), 20000);
}

TEST(BadInput, InvalidUtf8IsRefusedWithItsOffsetAndNulBytesAreText) {
    QTemporaryDir dir;
    // "Caf\xe9" is Latin-1: the 0xE9 at offset 3 cannot start a UTF-8 character.
    const QString latin1 = writeFile(dir, "cafe.txt", QByteArray("Caf\xe9 au lait", 12));
    expectExit2({"tokenize", "--text-file", latin1}, "the byte 0xe9 at offset 3");
    expectExit2({"trace", "--text-file", latin1}, "cafe.txt is not UTF-8 text");
    // A lone surrogate (CESU-8) is not UTF-8 either; the offset counts a dropped BOM too.
    const QString surrogate =
        writeFile(dir, "sur.txt", QByteArray("\xef\xbb\xbfok \xed\xa0\x80 end", 13));
    expectExit2({"tokenize", "--text-file", surrogate}, "the byte 0xed at offset 6");
    // A leading byte-order mark is dropped, not tokenized.
    const QString bom = writeFile(dir, "bom.txt", QByteArray("\xef\xbb\xbfHello", 8));
    const Result r = runCli({"tokenize", "--text-file", bom});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_EQ(QJsonDocument::fromJson(r.out).object()["ids"].toArray(), (QJsonArray{15496}));
    const QString nul = writeFile(dir, "nul.txt", QByteArray("a\0b", 3));
    EXPECT_EQ(runCli({"trace", "--text-file", nul}).exitCode, 0);
}

TEST(BadInput, SeedsAtTheEdges) {
    EXPECT_EQ(runCli({"trace", "--seed", "0"}).exitCode, 0);
    EXPECT_EQ(runCli({"trace", "--seed", "18446744073709551615"}).exitCode, 0);
    EXPECT_EQ(runCli({"trace", "--seed", "-1", "--text", "x", "--embedding-seed", "-5"}).exitCode,
              0);
    expectExit2({"trace", "--seed", "18446744073709551616"}, "--seed expects a whole number");
}

TEST(BadInput, HugeConfigurations) {
    expectExit2({"trace", "--text", "a b c", "--d-in", "100000000"},
                "--d-in expects a whole number from 1 to 1048576, got \"100000000\".");
    expectExit2({"trace", "--text", "a b c", "--d-in", "100000"},
                "The chapter-2 embeddings go up to d_in = 8192");
    expectExit2({"trace", "--preset", "book", "--batch", "1000000"},
                "This configuration needs about");
    expectExit2({"trace", "--text", QString("x ").repeated(1000), "--d-in", "64", "--d-out", "1024",
                 "--heads", "1024", "--context-length", "2048"},
                "This configuration needs about");
    expectExit2({"trace", "--heads", "99999999999999999999"},
                "--heads expects a whole number from 1");
}

TEST(BadInput, MalformedEmbeddingFiles) {
    QTemporaryDir dir;
    expectExit2({"trace", "--embeddings", writeFile(dir, "t.npy", "\x93NUMPY\x01\x00")}, "t.npy");
    expectExit2({"trace", "--embeddings", writeFile(dir, "n.json", "[[1, NaN], [2, 3]]")},
                "n.json");
    expectExit2({"trace", "--embeddings", writeFile(dir, "r.json", "[[1, 2], [3]]")}, "r.json");
    expectExit2({"trace", "--embeddings",
                 writeFile(dir, "d.json", QByteArray(5000, '[') + QByteArray(5000, ']'))},
                "d.json");
    expectExit2({"trace", "--embeddings", writeFile(dir, "s.json", "{\"a\": 1}")}, "s.json");
    expectExit2({"trace", "--embeddings", writeFile(dir, "c.csv", "1,2\n3,x\n")}, "c.csv");
    expectExit2({"trace", "--embeddings", writeFile(dir, "e.txt", "1 2 3")}, "e.txt");
    // A good file with the wrong width for the given d_in.
    const QString good = writeFile(dir, "g.json", "[[1, 2, 3], [4, 5, 6]]");
    expectExit2({"trace", "--embeddings", good, "--d-in", "4"},
                "The embeddings file has 3 numbers per token, so d_in must be 3 (it is 4).");
    EXPECT_EQ(runCli({"trace", "--embeddings", good}).exitCode, 0);
}

TEST(BadInput, MalformedWeightFiles) {
    QTemporaryDir dir;
    expectExit2(
        {"trace", "--variant", "self-attention", "--weights", writeFile(dir, "w.json", "{}")},
        "W_query.weight");
    QByteArray lying("\xff\xff\xff\xff\x00\x00\x00\x00{}", 10);
    expectExit2({"trace", "--weights", writeFile(dir, "l.safetensors", lying)}, "l.safetensors");
    expectExit2({"trace", "--variant", "self-attention", "--weights",
                 writeFile(dir, "shape.json",
                           "{\"W_query.weight\": [[1,2,3]], \"W_key.weight\": [[1,2,3],[1,2,3]],"
                           " \"W_value.weight\": [[1,2,3],[1,2,3]]}")},
                "W_query.weight");
}

TEST(BadInput, NoPartialOutputFiles) {
    QTemporaryDir dir;
    const QString out = dir.filePath("trace.json");
    expectExit2({"trace", "--heads", "3", "--out", out}, "Valid head counts");
    EXPECT_FALSE(QFile::exists(out));
    expectExit2({"export", "--step", "weights", "--out", "/dev/full/x.npy"}, "Cannot write");
    expectExit2({"export", "--out", "/etc/hostname/all.npz"}, "Cannot write /etc/hostname/all.npz");
}

}  // namespace

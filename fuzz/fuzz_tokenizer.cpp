// fuzz_tokenizer: tokenize(gpt2|words|chars) on arbitrary bytes. tokenize() must never throw
// for text, and these invariants must hold:
//  - every tokenizer: the tokens' bytes, concatenated, are utf8::sanitize(input);
//  - gpt2: ids in [0, 50257), gpt2Decode(ids) == sanitize(input) (so == input for valid UTF-8),
//    partialUtf8 exactly when the token's bytes are not valid UTF-8;
//  - words/chars: ids numbered by first appearance, equal strings get equal ids.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "fuzz_common.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

using namespace attn;

namespace {

std::string hexOf(std::string_view s) {
    return bytesToHex(s);
}

void checkKind(TokenizerKind kind, std::string_view input, const std::string& clean) {
    std::vector<Token> tokens;
    try {
        tokens = tokenize(kind, input);
    } catch (const std::exception& e) {
        fuzz::fail("tokenize", tokenizerName(kind) + " threw " + e.what() + " on " + hexOf(input));
    }
    std::string joined;
    for (const Token& t : tokens)
        joined += t.bytes;
    if (kind != TokenizerKind::Words)  // words drops whitespace
        fuzz::check(joined == clean, "tokens do not cover the input",
                    tokenizerName(kind) + " input " + hexOf(input));

    if (kind == TokenizerKind::Gpt2) {
        std::vector<int64_t> ids = tokenIds(tokens);
        for (const Token& t : tokens) {
            fuzz::check(t.id >= 0 && t.id < gpt2VocabSize(), "gpt2 id out of range");
            fuzz::check(t.partialUtf8 == !utf8::isValid(t.bytes), "gpt2 partialUtf8 flag wrong",
                        hexOf(t.bytes));
            fuzz::check(!t.bytes.empty(), "gpt2 empty token");
        }
        std::string decoded;
        try {
            decoded = gpt2Decode(ids);
        } catch (const std::exception& e) {
            fuzz::fail("gpt2Decode", std::string("threw on tokenize() ids: ") + e.what());
        }
        fuzz::check(decoded == clean, "gpt2Decode(tokenize(x)) != x", hexOf(input));
        if (utf8::isValid(input))
            fuzz::check(decoded == input, "gpt2 round trip of valid UTF-8 failed", hexOf(input));
    } else {
        std::map<std::string, int64_t> seen;
        for (const Token& t : tokens) {
            fuzz::check(!t.partialUtf8, "words/chars partialUtf8 set");
            fuzz::check(t.display == t.bytes, "words/chars display != bytes");
            fuzz::check(!t.bytes.empty(), "words/chars empty token");
            const auto [it, fresh] = seen.emplace(t.bytes, static_cast<int64_t>(seen.size()));
            fuzz::check(t.id == it->second, "words/chars id not by first appearance",
                        tokenizerName(kind) + " " + hexOf(t.bytes));
            (void)fresh;
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::string clean = utf8::sanitize(input);
    fuzz::check(utf8::isValid(clean), "sanitize() output is not valid UTF-8", hexOf(input));
    if (utf8::isValid(input))
        fuzz::check(clean == input, "sanitize() changed valid UTF-8", hexOf(input));
    fuzz::check(utf8::sanitize(clean) == clean, "sanitize() not idempotent", hexOf(input));
    for (TokenizerKind k : {TokenizerKind::Gpt2, TokenizerKind::Words, TokenizerKind::Chars})
        checkKind(k, input, clean);
    return 0;
}

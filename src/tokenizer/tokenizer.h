#pragma once
// Text -> token ids. `gpt2` is byte-level BPE identical to tiktoken's "gpt2" encoding; `words`
// and `chars` are simple teaching alternatives (ids by first appearance).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

enum class TokenizerKind { Gpt2, Words, Chars };

std::string tokenizerName(TokenizerKind k);  // "gpt2", "words", "chars"
std::optional<TokenizerKind> parseTokenizer(std::string_view s);

struct Token {
    int64_t id = 0;
    std::string bytes;    // the raw bytes the token stands for
    std::string display;  // UTF-8 text to show; for a token that is only part of a UTF-8
                          // character, its bytes in hex ("e4 bd")
    bool partialUtf8 = false;
    // Put there by the tokenizer's post-processor (Gemma 3's <bos> at the start), not in the text.
    bool addedByTokenizer = false;
};

// Invalid UTF-8 (and lone surrogates) become U+FFFD before tokenizing; never throws for text.
// Thread-safe. The GPT-2 vocabulary is loaded once, on first use.
//
// Exact rules (after the U+FFFD repair, see utf8::sanitize() for which bytes become how many):
//  - gpt2: tiktoken's encoding "gpt2" with allowed_special="all": `<|endoftext|>` anywhere in
//    the text is id 50256, the rest is byte-level BPE (gpt2_bpe.h tells the steps). A token whose
//    bytes are not complete UTF-8 (a piece of a CJK character or an emoji) has partialUtf8 set
//    and display = its bytes as lowercase hex pairs separated by spaces ("e6 b3").
//  - words: a word is a maximal run of code points that are neither whitespace nor punctuation.
//    Whitespace is Unicode White_Space (as GPT-2's `\s`) and is dropped. Punctuation is any code
//    point of general category P* or S* (so also symbols such as $ + and emoji), and each one is
//    its own token: "don't!" -> "don" "'" "t" "!". Letters, digits, combining marks and other
//    format characters (ZWJ) belong to words.
//  - chars: one token per code point, whitespace included ("a b" -> "a" " " "b").
//  - words and chars number tokens by first appearance from 0: the same string (compared
//    byte for byte, so case-sensitively and without normalisation) gets the same id.
//  - bytes and display are the token's UTF-8 for words and chars; partialUtf8 is false.
std::vector<Token> tokenize(TokenizerKind kind, std::string_view utf8);
std::vector<int64_t> tokenIds(const std::vector<Token>& tokens);

// GPT-2: ids -> bytes (the concatenation of the tokens' bytes). Throws std::out_of_range for
// an id outside the vocabulary.
std::string gpt2Decode(const std::vector<int64_t>& ids);
int64_t gpt2VocabSize();  // 50257
// The most bytes of text one GPT-2 token stands for (its longest token's bytes): a text of more
// bytes than this x n has more than n GPT-2 tokens.
int64_t gpt2MaxTokenBytes();
// The GPT-2 token of an id, shown as tokenize() shows it (hex for a part of a character).
// Throws std::out_of_range for an id outside the vocabulary.
Token gpt2Token(int64_t id);

// Loads the GPT-2 vocabulary now instead of on the first gpt2 tokenize() (a few ms), e.g. from
// a background thread at start-up. Throws std::runtime_error only if the built-in resource is
// missing, which is a build error.
void gpt2Preload();

// Lowercase hex of bytes without separators ("e4bd"), as token_bytes_hex in the CLI.
std::string bytesToHex(std::string_view bytes);

}  // namespace attn

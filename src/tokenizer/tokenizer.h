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
};

// Invalid UTF-8 (and lone surrogates) become U+FFFD before tokenizing; never throws for text.
// Thread-safe. The GPT-2 vocabulary is loaded once, on first use.
std::vector<Token> tokenize(TokenizerKind kind, std::string_view utf8);
std::vector<int64_t> tokenIds(const std::vector<Token>& tokens);

// GPT-2: ids -> bytes (the concatenation of the tokens' bytes). Throws std::out_of_range for
// an id outside the vocabulary.
std::string gpt2Decode(const std::vector<int64_t>& ids);
int64_t gpt2VocabSize();  // 50257

// Lowercase hex of bytes without separators ("e4bd"), as token_bytes_hex in the CLI.
std::string bytesToHex(std::string_view bytes);

}  // namespace attn

#include "tokenizer/tokenizer.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "tokenizer/gpt2_bpe.h"
#include "tokenizer/utf8.h"

namespace attn {

std::string tokenizerName(TokenizerKind k) {
    switch (k) {
        case TokenizerKind::Gpt2:
            return "gpt2";
        case TokenizerKind::Words:
            return "words";
        case TokenizerKind::Chars:
            return "chars";
    }
    return "gpt2";
}

std::optional<TokenizerKind> parseTokenizer(std::string_view s) {
    if (s == "gpt2")
        return TokenizerKind::Gpt2;
    if (s == "words")
        return TokenizerKind::Words;
    if (s == "chars")
        return TokenizerKind::Chars;
    return std::nullopt;
}

std::string bytesToHex(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        out += kDigits[b >> 4];
        out += kDigits[b & 0x0F];
    }
    return out;
}

namespace {

std::string spacedHex(std::string_view bytes) {
    std::string hex = bytesToHex(bytes);
    std::string out;
    out.reserve(hex.size() * 3 / 2);
    for (size_t i = 0; i < hex.size(); i += 2) {
        if (i > 0)
            out += ' ';
        out.append(hex, i, 2);
    }
    return out;
}

Token gpt2TokenOf(const gpt2::Vocabulary& vocab, int32_t id) {
    Token t;
    t.id = id;
    t.bytes = vocab.bytes(id);
    // Byte-level BPE can split a multi-byte character between tokens; such a fragment has no
    // text of its own, so it is shown as its bytes.
    if (utf8::isValid(t.bytes)) {
        t.display = t.bytes;
    } else {
        t.display = spacedHex(t.bytes);
        t.partialUtf8 = true;
    }
    return t;
}

std::vector<Token> tokenizeGpt2(std::string_view text) {
    const gpt2::Vocabulary& vocab = gpt2::vocabulary();
    const std::vector<int32_t> ids = gpt2::encode(text);
    std::vector<Token> tokens;
    tokens.reserve(ids.size());
    for (int32_t id : ids)
        tokens.push_back(gpt2TokenOf(vocab, id));
    return tokens;
}

// Gives each distinct string the next id in order of first appearance.
class FirstAppearanceIds {
  public:
    void add(std::vector<Token>& tokens, std::string_view text) {
        const auto [it, inserted] =
            ids_.try_emplace(std::string(text), static_cast<int64_t>(ids_.size()));
        Token t;
        t.id = it->second;
        t.bytes = text;
        t.display = t.bytes;
        tokens.push_back(std::move(t));
    }

  private:
    std::unordered_map<std::string, int64_t> ids_;
};

std::vector<Token> tokenizeWords(std::string_view text) {
    std::vector<Token> tokens;
    FirstAppearanceIds ids;
    size_t wordStart = 0;
    bool inWord = false;
    for (size_t i = 0; i < text.size();) {
        const size_t at = i;
        const char32_t cp = utf8::decodeAt(text, i);
        const bool space = utf8::isWhiteSpace(cp);
        const bool punct = !space && utf8::isPunctuationOrSymbol(cp);
        if (!space && !punct) {
            if (!inWord)
                wordStart = at;
            inWord = true;
            continue;
        }
        if (inWord)
            ids.add(tokens, text.substr(wordStart, at - wordStart));
        inWord = false;
        if (punct)
            ids.add(tokens, text.substr(at, i - at));
    }
    if (inWord)
        ids.add(tokens, text.substr(wordStart));
    return tokens;
}

std::vector<Token> tokenizeChars(std::string_view text) {
    std::vector<Token> tokens;
    tokens.reserve(text.size());
    FirstAppearanceIds ids;
    for (size_t i = 0; i < text.size();) {
        const size_t at = i;
        utf8::decodeAt(text, i);
        ids.add(tokens, text.substr(at, i - at));
    }
    return tokens;
}

}  // namespace

std::vector<Token> tokenize(TokenizerKind kind, std::string_view utf8Text) {
    const std::string text = utf8::sanitize(utf8Text);
    switch (kind) {
        case TokenizerKind::Gpt2:
            return tokenizeGpt2(text);
        case TokenizerKind::Words:
            return tokenizeWords(text);
        case TokenizerKind::Chars:
            return tokenizeChars(text);
    }
    return {};
}

std::vector<int64_t> tokenIds(const std::vector<Token>& tokens) {
    std::vector<int64_t> ids;
    ids.reserve(tokens.size());
    for (const Token& t : tokens)
        ids.push_back(t.id);
    return ids;
}

Token gpt2Token(int64_t id) {
    const gpt2::Vocabulary& vocab = gpt2::vocabulary();
    if (id < 0 || id >= vocab.size())
        throw std::out_of_range("GPT-2 token id " + std::to_string(id) +
                                " is outside the vocabulary (0.." +
                                std::to_string(vocab.size() - 1) + ")");
    return gpt2TokenOf(vocab, static_cast<int32_t>(id));
}

std::string gpt2Decode(const std::vector<int64_t>& ids) {
    const gpt2::Vocabulary& vocab = gpt2::vocabulary();
    std::string out;
    for (int64_t id : ids) {
        if (id < 0 || id >= vocab.size()) {
            throw std::out_of_range("GPT-2 token id " + std::to_string(id) +
                                    " is outside the vocabulary (0.." +
                                    std::to_string(vocab.size() - 1) + ")");
        }
        out += vocab.bytes(static_cast<int32_t>(id));
    }
    return out;
}

int64_t gpt2VocabSize() {
    return gpt2::kVocabSize;
}

int64_t gpt2MaxTokenBytes() {
    static const int64_t longest = [] {
        const gpt2::Vocabulary& vocab = gpt2::vocabulary();
        size_t most = 1;
        for (int32_t id = 0; id < int32_t(vocab.size()); ++id)
            most = std::max(most, vocab.bytes(id).size());
        return int64_t(most);
    }();
    return longest;
}

void gpt2Preload() {
    gpt2::vocabulary();
}

}  // namespace attn

#pragma once
// A tokenizer defined by a Hugging Face `tokenizer.json` (the `tokenizers` library's format), as
// Llama 3, Qwen, SmolLM2, Gemma 3 and TinyLlama ship it (DESIGN.md, Tokenizers from
// tokenizer.json). encode() gives the ids Hugging Face's Tokenizer.encode(text, add_special_tokens)
// gives:
//  1. Added tokens (special or not) are found in the raw text first, leftmost and longest
//     first (Aho-Corasick's leftmost-longest), honouring lstrip, rstrip and single_word; those
//     marked `normalized` are found in the normalized text instead.
//  2. The normalizer runs on each stretch between them: NFC, NFKC, NFD, NFKD, Lowercase,
//     Replace (a string or a regex), Prepend, Strip, and Sequence.
//  3. The pre-tokenizer cuts the stretch into pieces: Split (a string or a regex, with its
//     behaviour and invert), ByteLevel (its GPT-2 regex when use_regex, its prefix space, then
//     every byte as its symbol), Metaspace, Digits, Sequence. Regexes run in PCRE2 with Unicode
//     properties (\p{L}, \p{N}), case-insensitive groups and lookahead.
//  4. BPE on each piece: with ignore_merges a piece that is a vocabulary entry is one token;
//     otherwise its characters (each a vocabulary entry; else with byte_fallback its UTF-8 bytes
//     as <0xXX> tokens; else the unknown token, consecutive ones fused with fuse_unk) are merged
//     by rank, the lowest-ranked adjacent pair first, leftmost on a tie.
//  5. With add_special_tokens, the post-processor's TemplateProcessing (single) adds its
//     special tokens around the text (Gemma 3's <bos>); ByteLevel post-processing adds nothing.
// Anything else in a file (another model type, normalizer or pre-tokenizer) is refused when the
// file is read, with a message naming it, rather than tokenized differently from Hugging Face.
//
// Immutable after loading; encode() is thread-safe.

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace attn {

// What is wrong with a tokenizer.json: what() is the English message; `format` (with %1, %2,
// ... for its arguments: JSON paths, names and numbers from the file, never words) and `args`
// are its pieces, so that an interface can show the message in its own language.
class TokenizerJsonError : public std::invalid_argument {
  public:
    TokenizerJsonError(std::string format, std::vector<std::string> args);
    const std::string& format() const { return format_; }
    const std::vector<std::string>& args() const { return args_; }

  private:
    std::string format_;
    std::vector<std::string> args_;
};

class HfTokenizer {
  public:
    // Reads the JSON text of a tokenizer.json. Throws TokenizerJsonError naming what is wrong
    // (e.g. `model.type is "WordPiece"; ...`), without the file name.
    static std::shared_ptr<const HfTokenizer> fromJson(std::string_view json);
    ~HfTokenizer();

    // The tokens of `text` (invalid UTF-8 is repaired to U+FFFD first, as utf8::sanitize()
    // says). Each token's bytes are what it stands for ("▁" a space, <0xE4> the byte E4, a
    // byte-level symbol its byte); `display` shows them as tokenize() does. The tokens the
    // post-processor adds have addedByTokenizer set.
    std::vector<Token> encode(std::string_view text, bool addSpecialTokens = true) const;
    std::vector<int64_t> encodeIds(std::string_view text, bool addSpecialTokens = true) const;

    // The token of an id, as encode() gives it. Throws std::out_of_range beyond vocabSize().
    Token token(int64_t id) const;
    // One more than the largest id (added tokens included).
    int64_t vocabSize() const;
    // One more than the largest id of the BPE model's own vocabulary (model.vocab), without the
    // added tokens: Gemma 3's tokenizer adds <image_soft_token> as id 262,144 beyond the text
    // model's 262,144 embeddings, and only that token, typed literally, reaches past them.
    int64_t modelVocabSize() const;
    // True for an added token marked special (<bos>, <|endoftext|>, ...).
    bool isSpecial(int64_t id) const;
    // What the post-processor adds at the start with add_special_tokens (Gemma 3: <bos>), or -1.
    int64_t addedAtStart() const;
    // The most bytes of text one token can stand for, so that a text of more bytes than
    // maxTextBytesPerToken() x n has more than n tokens: the longest token's bytes, times 4
    // when a normalizer runs (NFKC makes a 3-byte fullwidth letter 1 byte). -1 when no such
    // bound holds: fuse_unk fuses any run of unknown characters into one token, and an added
    // token that strips the whitespace beside it takes any run of it.
    int64_t maxTextBytesPerToken() const;
    // "bpe, byte-level" or "bpe, byte fallback": what kind of tokenizer the file defines.
    std::string description() const;

    struct Impl;

  private:
    explicit HfTokenizer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace attn

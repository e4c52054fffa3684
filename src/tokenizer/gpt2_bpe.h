#pragma once
// Internals of the `gpt2` tokenizer, exposed for the tests and the benchmark. The public API is
// tokenizer.h.
//
// How tiktoken's "gpt2" encoding works, and so how this one does:
//  1. The text is split around the special token <|endoftext|> wherever it occurs (tiktoken's
//     encode(text, allowed_special="all")); each occurrence becomes id 50256.
//  2. Each stretch between them is cut into pieces by the pattern
//     's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//     (leftmost alternative first, as a backtracking regex does). splitPieces() is a
//     hand-written matcher for it; `\s` is Rust's (utf8::isWhiteSpace()).
//  3. A piece that is itself a vocabulary entry is one token. Otherwise its bytes are merged by
//     byte-pair encoding: repeatedly join the adjacent pair whose concatenation has the lowest
//     rank (leftmost on a tie) until no adjacent pair is in the vocabulary. Ranks are token ids.
//  4. Ranks come from vocab.bpe exactly as tiktoken's data_gym_to_mergeable_bpe_ranks() builds
//     them: the 256 single bytes first (printable bytes in order, then the rest), then merge
//     number k of vocab.bpe gets rank 256 + k. The result equals encoder.json (a test checks).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn::gpt2 {

inline constexpr int32_t kEndOfText = 50256;
inline constexpr int32_t kVocabSize = 50257;
inline constexpr std::string_view kEndOfTextText = "<|endoftext|>";

class Vocabulary {
  public:
    // Builds the ranks from the text of vocab.bpe. Throws std::runtime_error when the text is
    // not a GPT-2 vocab.bpe (wrong merge count, a symbol outside the byte alphabet).
    static std::unique_ptr<Vocabulary> fromVocabBpe(std::string_view vocabBpe);

    // Rank (= id) of a byte string, or -1 when it is not a token. Never matches <|endoftext|>,
    // which only the special-token split produces.
    int32_t rank(std::string_view bytes) const {
        const auto it = ranks_.find(bytes);
        return it == ranks_.end() ? -1 : it->second;
    }
    // Bytes of token `id` (0 <= id < size()), including <|endoftext|> for 50256.
    const std::string& bytes(int32_t id) const { return tokens_[static_cast<size_t>(id)]; }
    int32_t size() const { return static_cast<int32_t>(tokens_.size()); }

    // The bytes a vocab.bpe / encoder.json symbol ("Ġthe") stands for (" the"); false when the
    // symbol has a character outside GPT-2's byte alphabet.
    static bool symbolToBytes(std::string_view symbol, std::string& out);
    // The other way: each byte as its symbol, UTF-8 encoded (what a Hugging Face ByteLevel
    // pre-tokenizer does to a piece).
    static void bytesToSymbols(std::string_view bytes, std::string& out);

  private:
    std::vector<std::string> tokens_;  // by id; the map's keys point into these strings
    std::unordered_map<std::string_view, int32_t> ranks_;
};

// The shared vocabulary, loaded from the Qt resource on first use (std::call_once).
const Vocabulary& vocabulary();

// A fresh vocabulary from the Qt resource, bypassing the shared one (for the load benchmark).
std::unique_ptr<Vocabulary> loadVocabulary();

// Contents of a file in the library's resources (":/gpt2/vocab.bpe", ":/gpt2/encoder.json");
// throws std::runtime_error when it is missing.
std::string readResource(const char* path);

// Step 2: the pieces of well-formed UTF-8 text that contains no special token. The views point
// into `text`; their concatenation is `text`.
std::vector<std::string_view> splitPieces(std::string_view text);

// Step 3 for one piece, appending ids to `out`. Uses a simple O(n^2) scan for short pieces and a
// heap for long ones (a 10,000-letter word); both give tiktoken's result.
void bytePairEncode(const Vocabulary& vocab, std::string_view piece, std::vector<int32_t>& out);
void bytePairEncodeScan(const Vocabulary& vocab, std::string_view piece, std::vector<int32_t>& out);
void bytePairEncodeHeap(const Vocabulary& vocab, std::string_view piece, std::vector<int32_t>& out);

// Steps 1-3 over well-formed UTF-8 (utf8::sanitize() first). Thread-safe; pieces that need BPE
// are cached across calls.
std::vector<int32_t> encode(std::string_view text);

}  // namespace attn::gpt2

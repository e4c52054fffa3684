#pragma once
// The chapter-2 input pipeline: token ids -> nn.Embedding rows (+ positional rows), exactly as
//   torch.manual_seed(seed); tok = nn.Embedding(vocab, d_in); pos = nn.Embedding(ctx, d_in)
//   x = tok(ids) + pos(arange(T))
// Only the rows in use are turned into normals; the generator is still stepped through the whole
// table because PyTorch draws it all.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/cancel.h"
#include "engine/tensor.h"

namespace attn {

constexpr int64_t kGpt2VocabSize = 50257;
// PyTorch draws the whole (vocab, d_in) table, and so must we to get the same rows: above this
// d_in that takes seconds, so the chapter-2 embeddings refuse it.
constexpr int64_t kMaxEmbeddingDim = 8192;

struct EmbeddingConfig {
    uint64_t seed = 123;
    int64_t dIn = 3;
    int64_t contextLength = 1024;
    bool positions = true;
    int64_t vocabSize = kGpt2VocabSize;
};

// (T, d_in). Throws UserError for ids outside the vocabulary or T > context_length.
// Thread-safe; results are cached per (seed, d_in, context_length, vocab).
Tensor chapterTwoEmbeddings(const EmbeddingConfig& config, const std::vector<int64_t>& ids,
                            const CancelToken* cancel = nullptr);

// Row `row` of a float32 (rows, cols) table filled by normal_(0, 1) right after manual_seed:
// exposed for tests.
std::vector<float> normalTableRows(uint64_t seed, int64_t rows, int64_t cols,
                                   const std::vector<int64_t>& wanted);

// The book's six 3-d vectors for "Your journey starts with one step", one per word.
Tensor bookInputs();
const std::vector<std::string>& bookTokens();
// The words of bookTokens() joined by spaces: the sentence the chapter starts from.
std::string bookSentence();

}  // namespace attn

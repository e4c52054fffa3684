#include "engine/embeddings.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <list>
#include <map>
#include <mutex>
#include <numbers>
#include <tuple>

#include "engine/config.h"
#include "engine/rng.h"

namespace attn {

namespace {

using RowMap = std::map<int64_t, std::vector<float>>;

// The draws of torch.manual_seed(seed)'s mt19937, with a saved engine state every kStride draws,
// so that draw number i costs at most kStride steps instead of i. The chapter-2 token table
// alone is 50257 x d_in draws (38.6 million at d_in = 768): a new token while typing then costs
// a fraction of a millisecond instead of a pass over the whole table.
class DrawStream {
  public:
    static constexpr uint64_t kStride = uint64_t(1) << 16;

    explicit DrawStream(uint64_t seed) : seed_(seed) {}
    uint64_t seed() const { return seed_; }

    // The engine positioned at draw `index`.
    std::mt19937 at(uint64_t index, const CancelToken* cancel) {
        const uint64_t cp = index / kStride;
        if (checkpoints_.empty())
            checkpoints_.emplace_back(static_cast<uint32_t>(seed_));
        while (checkpoints_.size() <= cp) {
            std::mt19937 e = checkpoints_.back();
            e.discard(kStride);
            checkpoints_.push_back(e);
            if (checkpoints_.size() % 64 == 0)
                throwIfCancelled(cancel);
        }
        std::mt19937 e = checkpoints_[cp];
        e.discard(index - cp * kStride);
        return e;
    }

  private:
    uint64_t seed_;
    std::vector<std::mt19937> checkpoints_;
};

// Rows `wanted` of a float32 (rows, cols) table filled by normal_ whose draws start at stream
// position `base`, as PyTorch makes it: from 16 elements, all uniforms first, then blocks of 16,
// the last 16 redone from 16 fresh draws when rows * cols is not a multiple of 16.
// Returns the stream position after the table.
uint64_t normalTableFromStream(DrawStream& stream, uint64_t base, int64_t rows, int64_t cols,
                               const std::vector<int64_t>& wanted, RowMap& out,
                               const CancelToken* cancel) {
    const int64_t n = rows * cols;
    if (n < 16) {
        // Double Box-Muller one value at a time: two values per 4 draws.
        TorchGenerator gen(stream.at(base, cancel));
        std::vector<float> all(static_cast<size_t>(n));
        gen.normal(all.data(), n);
        for (int64_t r : wanted)
            out[r] = std::vector<float>(all.begin() + r * cols, all.begin() + (r + 1) * cols);
        return base + static_cast<uint64_t>((n + 1) / 2) * 4;
    }
    const bool redoTail = n % 16 != 0;
    const int64_t tailStart = n - 16;
    // The blocks of 16 that hold an element of a wanted row outside the redone tail, visited in
    // stream order so one walk serves them all.
    std::vector<int64_t> need;
    for (int64_t r : wanted) {
        const int64_t first = r * cols;
        const int64_t last =
            redoTail ? std::min((r + 1) * cols, tailStart) - 1 : (r + 1) * cols - 1;
        for (int64_t b = first / 16; first <= last && b <= last / 16; ++b)
            need.push_back(b);
    }
    std::sort(need.begin(), need.end());
    need.erase(std::unique(need.begin(), need.end()), need.end());
    std::map<int64_t, std::array<float, 16>> blocks;
    std::mt19937 engine;
    uint64_t position = 0;  // stream position of `engine`; 0 = not positioned yet
    auto readBlock = [&](uint64_t at, float* v) {
        if (position == 0 || at < position || at - position >= DrawStream::kStride) {
            engine = stream.at(at, cancel);
        } else {
            engine.discard(at - position);
        }
        TorchGenerator gen(engine);
        gen.rand(v, 16);
        engine.discard(16);
        position = at + 16;
        normalFill16(v);
    };
    for (int64_t b : need)
        readBlock(base + static_cast<uint64_t>(b) * 16, blocks[b].data());
    std::array<float, 16> tail{};
    if (redoTail)
        readBlock(base + static_cast<uint64_t>(n), tail.data());
    for (int64_t r : wanted) {
        std::vector<float> row(static_cast<size_t>(cols));
        for (int64_t c = 0; c < cols; ++c) {
            const int64_t e = r * cols + c;
            row[static_cast<size_t>(c)] = (redoTail && e >= tailStart)
                                              ? tail[static_cast<size_t>(e - tailStart)]
                                              : blocks[e / 16][static_cast<size_t>(e % 16)];
        }
        out[r] = std::move(row);
    }
    return base + static_cast<uint64_t>(n) + (redoTail ? 16 : 0);
}

struct CacheEntry {
    std::tuple<uint64_t, int64_t, int64_t, int64_t> key;  // seed, d_in, context, vocab
    RowMap tokenRows;
    RowMap positionRows;
};

std::mutex cacheMutex;
std::list<CacheEntry> cache;  // most recently used first
constexpr size_t kCacheEntries = 4;
std::list<DrawStream> streams;  // by seed, most recently used first
constexpr size_t kStreams = 4;

DrawStream& streamFor(uint64_t seed) {
    auto it = std::find_if(streams.begin(), streams.end(),
                           [&](const DrawStream& s) { return s.seed() == seed; });
    if (it != streams.end()) {
        streams.splice(streams.begin(), streams, it);
    } else {
        streams.emplace_front(seed);
        while (streams.size() > kStreams)
            streams.pop_back();
    }
    return streams.front();
}

}  // namespace

std::vector<float> normalTableRows(uint64_t seed, int64_t rows, int64_t cols,
                                   const std::vector<int64_t>& wanted) {
    DrawStream stream(seed);
    RowMap out;
    std::vector<int64_t> sorted = wanted;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    normalTableFromStream(stream, 0, rows, cols, sorted, out, nullptr);
    std::vector<float> flat;
    for (int64_t r : wanted)
        flat.insert(flat.end(), out[r].begin(), out[r].end());
    return flat;
}

Tensor chapterTwoEmbeddings(const EmbeddingConfig& config, const std::vector<int64_t>& ids,
                            const CancelToken* cancel) {
    const int64_t T = static_cast<int64_t>(ids.size());
    if (config.dIn < 1)
        throw UserError("d_in", "d_in (the embedding size) must be at least 1 (it is " +
                                      std::to_string(config.dIn) + ").");
    if (config.dIn > kMaxEmbeddingDim)
        throw UserError(
            "d_in", "d_in = " + std::to_string(config.dIn) +
                        " is too large for the chapter-2 embeddings: PyTorch draws the "
                        "whole " +
                        std::to_string(config.vocabSize) +
                        " x d_in table, "
                        "which would take too long. Use d_in up to " +
                        std::to_string(kMaxEmbeddingDim) + ", or load embeddings from a file.");
    if (T < 1)
        throw UserError("input", "There are no tokens: type some text or pick a preset.");
    if (T > config.contextLength)
        throw UserError("input", "The input has " + std::to_string(T) +
                                       " tokens, more than the context length of " +
                                       std::to_string(config.contextLength) +
                                       ". Shorten the text or raise the context length.");
    for (int64_t id : ids)
        if (id < 0 || id >= config.vocabSize)
            throw UserError("input", "Token id " + std::to_string(id) +
                                           " is outside the vocabulary of " +
                                           std::to_string(config.vocabSize) + " tokens.");

    const auto key =
        std::make_tuple(config.seed, config.dIn, config.contextLength, config.vocabSize);
    std::vector<int64_t> missingTok, missingPos;
    RowMap tokRows, posRows;
    {
        std::lock_guard lock(cacheMutex);
        auto it = std::find_if(cache.begin(), cache.end(),
                               [&](const CacheEntry& e) { return e.key == key; });
        if (it != cache.end())
            cache.splice(cache.begin(), cache, it);
        for (int64_t id : ids) {
            if (it != cache.end() && it->tokenRows.count(id))
                tokRows[id] = it->tokenRows[id];
            else
                missingTok.push_back(id);
        }
        for (int64_t t = 0; t < (config.positions ? T : 0); ++t) {
            if (it != cache.end() && it->positionRows.count(t))
                posRows[t] = it->positionRows[t];
            else
                missingPos.push_back(t);
        }
    }
    if (!missingTok.empty() || !missingPos.empty()) {
        std::sort(missingTok.begin(), missingTok.end());
        missingTok.erase(std::unique(missingTok.begin(), missingTok.end()), missingTok.end());
        std::lock_guard lock(cacheMutex);
        DrawStream& stream = streamFor(config.seed);
        RowMap newTok, newPos;
        // tok = nn.Embedding(vocab, d_in) draws first, then pos = nn.Embedding(ctx, d_in).
        const uint64_t posBase = normalTableFromStream(stream, 0, config.vocabSize, config.dIn,
                                                       missingTok, newTok, cancel);
        if (!missingPos.empty())
            normalTableFromStream(stream, posBase, config.contextLength, config.dIn, missingPos,
                                  newPos, cancel);
        auto it = std::find_if(cache.begin(), cache.end(),
                               [&](const CacheEntry& e) { return e.key == key; });
        if (it == cache.end()) {
            cache.push_front(CacheEntry{key, {}, {}});
            it = cache.begin();
            while (cache.size() > kCacheEntries)
                cache.pop_back();
        }
        for (auto& [r, v] : newTok) {
            tokRows[r] = v;
            it->tokenRows[r] = std::move(v);
        }
        for (auto& [r, v] : newPos) {
            posRows[r] = v;
            it->positionRows[r] = std::move(v);
        }
    }

    // x = tok(ids) + pos(arange(T))
    Tensor x(Shape{T, config.dIn});
    float* out = x.mutableData();
    for (int64_t t = 0; t < T; ++t) {
        const std::vector<float>& tok = tokRows[ids[static_cast<size_t>(t)]];
        for (int64_t c = 0; c < config.dIn; ++c) {
            float v = tok[static_cast<size_t>(c)];
            if (config.positions)
                v += posRows[t][static_cast<size_t>(c)];
            out[t * config.dIn + c] = v;
        }
    }
    return x;
}

Tensor bookInputs() {
    // The chapter's embeddings of bookSentence() (section 3.3.1).
    return Tensor(Shape{6, 3}, {0.43f, 0.15f, 0.89f,    // Your     (x^1)
                                0.55f, 0.87f, 0.66f,    // journey  (x^2)
                                0.57f, 0.85f, 0.64f,    // starts   (x^3)
                                0.22f, 0.58f, 0.33f,    // with     (x^4)
                                0.77f, 0.25f, 0.10f,    // one      (x^5)
                                0.05f, 0.80f, 0.55f});  // step   (x^6)
}

const std::vector<std::string>& bookTokens() {
    static const std::vector<std::string> tokens = {"Your", "journey", "starts",
                                                    "with", "one",     "step"};
    return tokens;
}

std::string bookSentence() {
    std::string s;
    for (const std::string& word : bookTokens())
        s += (s.empty() ? "" : " ") + word;
    return s;
}

}  // namespace attn

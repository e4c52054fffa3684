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

// Steps `gen` exactly as `normal_` on a (rows, cols) float32 table would, but turns into normals
// only the blocks of 16 that overlap the wanted rows; those rows are added to `out`.
void sparseNormalTable(TorchGenerator& gen, int64_t rows, int64_t cols,
                       const std::vector<int64_t>& wanted, RowMap& out, const CancelToken* cancel) {
    const int64_t n = rows * cols;
    if (n < 16) {
        std::vector<float> all(static_cast<size_t>(n));
        gen.normal(all.data(), n);
        for (int64_t r : wanted)
            out[r] = std::vector<float>(all.begin() + r * cols, all.begin() + (r + 1) * cols);
        return;
    }
    const bool redoTail = n % 16 != 0;
    const int64_t tailStart = n - 16;
    // Blocks (of the first pass) that hold an element of a wanted row outside the redone tail.
    std::vector<int64_t> blocks;
    for (int64_t r : wanted) {
        const int64_t first = r * cols;
        int64_t last = (r + 1) * cols - 1;
        if (redoTail) last = std::min(last, tailStart - 1);
        for (int64_t b = first / 16; first <= last && b <= last / 16; ++b) blocks.push_back(b);
    }
    std::sort(blocks.begin(), blocks.end());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());

    std::map<int64_t, std::array<float, 16>> blockValues;
    int64_t position = 0;  // draws consumed so far within this table
    int64_t sinceCheck = 0;
    for (int64_t b : blocks) {
        const int64_t skip = b * 16 - position;
        gen.discard(static_cast<uint64_t>(skip));
        sinceCheck += skip;
        if (sinceCheck > (int64_t(1) << 22)) {
            throwIfCancelled(cancel);
            sinceCheck = 0;
        }
        std::array<float, 16> v;
        gen.rand(v.data(), 16);
        normalFill16(v.data());
        blockValues[b] = v;
        position = b * 16 + 16;
    }
    // The rest of the first pass (every element gets a uniform draw), in chunks so a cancel
    // request is seen quickly.
    while (position < n) {
        const int64_t chunk = std::min<int64_t>(n - position, int64_t(1) << 22);
        gen.discard(static_cast<uint64_t>(chunk));
        position += chunk;
        throwIfCancelled(cancel);
    }
    std::array<float, 16> tail{};
    if (redoTail) {
        gen.rand(tail.data(), 16);
        normalFill16(tail.data());
    }
    for (int64_t r : wanted) {
        std::vector<float> row(static_cast<size_t>(cols));
        for (int64_t c = 0; c < cols; ++c) {
            const int64_t e = r * cols + c;
            row[static_cast<size_t>(c)] = (redoTail && e >= tailStart)
                                              ? tail[static_cast<size_t>(e - tailStart)]
                                              : blockValues[e / 16][static_cast<size_t>(e % 16)];
        }
        out[r] = std::move(row);
    }
}

struct CacheEntry {
    std::tuple<uint64_t, int64_t, int64_t, int64_t> key;  // seed, d_in, context, vocab
    RowMap tokenRows;
    RowMap positionRows;
};

std::mutex cacheMutex;
std::list<CacheEntry> cache;  // most recently used first
constexpr size_t kCacheEntries = 4;

}  // namespace

std::vector<float> normalTableRows(uint64_t seed, int64_t rows, int64_t cols,
                                   const std::vector<int64_t>& wanted) {
    TorchGenerator gen(seed);
    RowMap out;
    std::vector<int64_t> sorted = wanted;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    sparseNormalTable(gen, rows, cols, sorted, out, nullptr);
    std::vector<float> flat;
    for (int64_t r : wanted) flat.insert(flat.end(), out[r].begin(), out[r].end());
    return flat;
}

Tensor chapterTwoEmbeddings(const EmbeddingConfig& config, const std::vector<int64_t>& ids,
                            const CancelToken* cancel) {
    const int64_t T = static_cast<int64_t>(ids.size());
    if (config.dIn < 1)
        throw EngineError("d_in", "d_in (the embedding size) must be at least 1 (it is " +
                                      std::to_string(config.dIn) + ").");
    if (config.dIn > kMaxEmbeddingDim)
        throw EngineError("d_in", "d_in = " + std::to_string(config.dIn) +
                                      " is too large for the chapter-2 embeddings: PyTorch draws the "
                                      "whole " + std::to_string(config.vocabSize) + " x d_in table, "
                                      "which would take too long. Use d_in up to " +
                                      std::to_string(kMaxEmbeddingDim) + ", or load embeddings from a file.");
    if (T < 1) throw EngineError("input", "There are no tokens: type some text or pick a preset.");
    if (T > config.contextLength)
        throw EngineError("input", "The input has " + std::to_string(T) +
                                       " tokens, more than the context length of " +
                                       std::to_string(config.contextLength) +
                                       ". Shorten the text or raise the context length.");
    for (int64_t id : ids)
        if (id < 0 || id >= config.vocabSize)
            throw EngineError("input", "Token id " + std::to_string(id) +
                                           " is outside the vocabulary of " +
                                           std::to_string(config.vocabSize) + " tokens.");

    const auto key = std::make_tuple(config.seed, config.dIn, config.contextLength, config.vocabSize);
    std::vector<int64_t> missingTok, missingPos;
    RowMap tokRows, posRows;
    {
        std::lock_guard lock(cacheMutex);
        auto it = std::find_if(cache.begin(), cache.end(), [&](const CacheEntry& e) { return e.key == key; });
        if (it != cache.end()) cache.splice(cache.begin(), cache, it);
        for (int64_t id : ids) {
            if (it != cache.end() && it->tokenRows.count(id)) tokRows[id] = it->tokenRows[id];
            else missingTok.push_back(id);
        }
        for (int64_t t = 0; t < (config.positions ? T : 0); ++t) {
            if (it != cache.end() && it->positionRows.count(t)) posRows[t] = it->positionRows[t];
            else missingPos.push_back(t);
        }
    }
    if (!missingTok.empty() || !missingPos.empty()) {
        std::sort(missingTok.begin(), missingTok.end());
        missingTok.erase(std::unique(missingTok.begin(), missingTok.end()), missingTok.end());
        // Positions: ask for every missing row up to T at once, the pass costs the same.
        TorchGenerator gen(config.seed);
        RowMap newTok, newPos;
        sparseNormalTable(gen, config.vocabSize, config.dIn, missingTok, newTok, cancel);
        if (!missingPos.empty())
            sparseNormalTable(gen, config.contextLength, config.dIn, missingPos, newPos, cancel);
        std::lock_guard lock(cacheMutex);
        auto it = std::find_if(cache.begin(), cache.end(), [&](const CacheEntry& e) { return e.key == key; });
        if (it == cache.end()) {
            cache.push_front(CacheEntry{key, {}, {}});
            it = cache.begin();
            while (cache.size() > kCacheEntries) cache.pop_back();
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
            if (config.positions) v += posRows[t][static_cast<size_t>(c)];
            out[t * config.dIn + c] = v;
        }
    }
    return x;
}

Tensor bookInputs() {
    // The chapter's embeddings of "Your journey starts with one step" (section 3.3.1).
    return Tensor(Shape{6, 3}, {0.43f, 0.15f, 0.89f,  // Your     (x^1)
                                0.55f, 0.87f, 0.66f,  // journey  (x^2)
                                0.57f, 0.85f, 0.64f,  // starts   (x^3)
                                0.22f, 0.58f, 0.33f,  // with     (x^4)
                                0.77f, 0.25f, 0.10f,  // one      (x^5)
                                0.05f, 0.80f, 0.55f});  // step   (x^6)
}

const std::vector<std::string>& bookTokens() {
    static const std::vector<std::string> tokens = {"Your", "journey", "starts", "with", "one", "step"};
    return tokens;
}

}  // namespace attn

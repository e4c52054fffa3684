#include "tokenizer/gpt2_bpe.h"

#include <QByteArray>
#include <QFile>
#include <algorithm>
#include <array>
#include <limits>
#include <mutex>
#include <queue>
#include <shared_mutex>
#include <stdexcept>

#include "tokenizer/utf8.h"

// Q_INIT_RESOURCE declares qInitResources_<name>() in the enclosing namespace, and rcc defines
// it at global scope, so the call has to sit outside namespace attn. In a static library the
// linker may drop rcc's self-registering initializer, since nothing refers to it; calling the
// function keeps it and registers :/gpt2/ however the library is linked.
static void initGpt2Resources() {
    Q_INIT_RESOURCE(gpt2_vocab);
}

namespace attn::gpt2 {

namespace {

constexpr int32_t kNoRank = std::numeric_limits<int32_t>::max();

// GPT-2's byte <-> symbol alphabet (bytes_to_unicode() in OpenAI's encoder.py): printable bytes
// stand for themselves, the other 68 become U+0100.. in byte order, so every byte has a visible,
// non-space symbol. Also tiktoken's rank order of the 256 single-byte tokens.
struct ByteAlphabet {
    std::array<int16_t, 324> byteOfSymbol{};  // symbol code point -> byte, -1 if none
    std::array<uint8_t, 256> byteOfRank{};    // rank 0..255 -> byte

    ByteAlphabet() {
        byteOfSymbol.fill(-1);
        auto printable = [](int b) {
            return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        };
        int rank = 0;
        for (int b = 0; b < 256; ++b) {
            if (printable(b)) {
                byteOfSymbol[static_cast<size_t>(b)] = static_cast<int16_t>(b);
                byteOfRank[static_cast<size_t>(rank++)] = static_cast<uint8_t>(b);
            }
        }
        int n = 0;
        for (int b = 0; b < 256; ++b) {
            if (!printable(b)) {
                byteOfSymbol[static_cast<size_t>(256 + n++)] = static_cast<int16_t>(b);
                byteOfRank[static_cast<size_t>(rank++)] = static_cast<uint8_t>(b);
            }
        }
    }
};

const ByteAlphabet& alphabet() {
    static const ByteAlphabet a;
    return a;
}

}  // namespace

bool Vocabulary::symbolToBytes(std::string_view symbol, std::string& out) {
    const ByteAlphabet& a = alphabet();
    size_t i = 0;
    while (i < symbol.size()) {
        const char32_t cp = utf8::decodeAt(symbol, i);
        if (cp >= a.byteOfSymbol.size() || a.byteOfSymbol[cp] < 0)
            return false;
        out += static_cast<char>(a.byteOfSymbol[cp]);
    }
    return true;
}

void Vocabulary::bytesToSymbols(std::string_view bytes, std::string& out) {
    // Symbols by byte, UTF-8 encoded once.
    static const std::array<std::string, 256> symbols = [] {
        std::array<std::string, 256> t;
        const ByteAlphabet& a = alphabet();
        for (size_t cp = 0; cp < a.byteOfSymbol.size(); ++cp)
            if (a.byteOfSymbol[cp] >= 0)
                utf8::append(t[static_cast<uint8_t>(a.byteOfSymbol[cp])], char32_t(cp));
        return t;
    }();
    for (unsigned char b : bytes)
        out += symbols[b];
}

std::unique_ptr<Vocabulary> Vocabulary::fromVocabBpe(std::string_view text) {
    auto vocab = std::make_unique<Vocabulary>();
    std::vector<std::string>& tokens = vocab->tokens_;
    tokens.reserve(kVocabSize);
    for (uint8_t b : alphabet().byteOfRank)
        tokens.emplace_back(1, static_cast<char>(b));

    size_t pos = 0;
    bool first = true;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        // The first line is "#version: 0.2"; tiktoken skips it without looking at it.
        if (first) {
            first = false;
            if (line.starts_with("#"))
                continue;
        }
        if (line.empty())
            continue;
        const size_t space = line.find(' ');
        if (space == std::string_view::npos ||
            line.find(' ', space + 1) != std::string_view::npos) {
            throw std::runtime_error("vocab.bpe: a merge line is not two symbols: " +
                                     std::string(line));
        }
        std::string merged;
        if (!symbolToBytes(line.substr(0, space), merged) ||
            !symbolToBytes(line.substr(space + 1), merged)) {
            throw std::runtime_error("vocab.bpe: symbol outside the byte alphabet: " +
                                     std::string(line));
        }
        tokens.push_back(std::move(merged));
    }
    if (tokens.size() != static_cast<size_t>(kEndOfText)) {
        throw std::runtime_error("vocab.bpe: expected 50000 merges, found " +
                                 std::to_string(tokens.size() - 256));
    }
    tokens.emplace_back(kEndOfTextText);

    // Keys are views into `tokens`, which no longer grows, so they stay valid.
    vocab->ranks_.reserve(tokens.size());
    for (int32_t id = 0; id < kEndOfText; ++id) {
        if (!vocab->ranks_.emplace(tokens[static_cast<size_t>(id)], id).second) {
            throw std::runtime_error("vocab.bpe: a merge repeats an earlier token");
        }
    }
    return vocab;
}

std::string readResource(const char* path) {
    static std::once_flag registered;
    std::call_once(registered, initGpt2Resources);
    QFile file(QString::fromUtf8(path));
    if (!file.open(QIODevice::ReadOnly)) {
        throw std::runtime_error(std::string("missing built-in resource ") + path);
    }
    const QByteArray data = file.readAll();
    return std::string(data.constData(), static_cast<size_t>(data.size()));
}

std::unique_ptr<Vocabulary> loadVocabulary() {
    return Vocabulary::fromVocabBpe(readResource(":/gpt2/vocab.bpe"));
}

namespace {

std::once_flag vocabOnce;
std::unique_ptr<Vocabulary> sharedVocab;

}  // namespace

const Vocabulary& vocabulary() {
    // If loading throws, call_once stays unset and the next call tries again.
    std::call_once(vocabOnce, [] { sharedVocab = loadVocabulary(); });
    return *sharedVocab;
}

std::vector<std::string_view> splitPieces(std::string_view text) {
    using utf8::CharClass;
    // Decode once: the matcher looks ahead and needs random access by code point.
    struct Char {
        char32_t cp;
        CharClass cls;
        uint32_t offset;
    };
    std::vector<Char> chars;
    chars.reserve(text.size() + 1);
    for (size_t i = 0; i < text.size();) {
        const auto offset = static_cast<uint32_t>(i);
        const char32_t cp = utf8::decodeAt(text, i);
        chars.push_back({cp, utf8::classify(cp), offset});
    }
    const size_t n = chars.size();
    chars.push_back({0, CharClass::Other, static_cast<uint32_t>(text.size())});  // sentinel

    // End (exclusive) of the run of class `cls` starting at p.
    auto runEnd = [&](size_t p, CharClass cls) {
        while (p < n && chars[p].cls == cls)
            ++p;
        return p;
    };
    // The first alternative of the pattern that matches at i (always one does: every code
    // point is a letter, a number, whitespace or "other").
    auto matchAt = [&](size_t i) -> size_t {
        // 's|'t|'re|'ve|'m|'ll|'d  (lower case only, as in the pattern)
        if (chars[i].cp == U'\'' && i + 1 < n) {
            const char32_t a = chars[i + 1].cp;
            if (a == U's' || a == U't' || a == U'm' || a == U'd')
                return i + 2;
            if (i + 2 < n) {
                const char32_t b = chars[i + 2].cp;
                if ((a == U'r' && b == U'e') || (a == U'v' && b == U'e') ||
                    (a == U'l' && b == U'l')) {
                    return i + 3;
                }
            }
        }
        // ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`: an optional U+0020, then a run of one
        // class. When s[i] is a space not followed by such a run, the variant without the space
        // cannot match either (a space is none of these classes).
        const size_t p = chars[i].cp == U' ' ? i + 1 : i;
        if (p < n) {
            const CharClass cls = chars[p].cls;
            if (cls != CharClass::Space)
                return runEnd(p, cls);
        }
        // `\s+(?!\S)|\s+`: a whitespace run; when text follows it, the last whitespace is left
        // to start the next piece (" word"), unless the run is a single character.
        const size_t r = runEnd(i, CharClass::Space);
        if (r == n || r - i == 1)
            return r;
        return r - 1;
    };

    std::vector<std::string_view> pieces;
    for (size_t i = 0; i < n;) {
        const size_t j = matchAt(i);
        pieces.push_back(text.substr(chars[i].offset, chars[j].offset - chars[i].offset));
        i = j;
    }
    return pieces;
}

void bytePairEncodeScan(const Vocabulary& vocab, std::string_view piece,
                        std::vector<int32_t>& out) {
    // tiktoken's byte_pair_merge: parts[k] = (start of part k, rank of part k joined with part
    // k+1). Two trailing entries mark the end, so a pair's end is always parts[k + 2].start.
    struct Part {
        size_t start;
        int32_t rank;
    };
    const size_t n = piece.size();
    std::vector<Part> parts;
    parts.reserve(n + 1);
    for (size_t i = 0; i + 1 < n; ++i) {
        const int32_t r = vocab.rank(piece.substr(i, 2));
        parts.push_back({i, r < 0 ? kNoRank : r});
    }
    parts.push_back({n - 1, kNoRank});
    parts.push_back({n, kNoRank});

    auto rankOf = [&](size_t k) {
        // Rank of parts k..k+1 once part k+1 has absorbed k+2, i.e. bytes [k, k+3).
        if (k + 3 < parts.size()) {
            const int32_t r =
                vocab.rank(piece.substr(parts[k].start, parts[k + 3].start - parts[k].start));
            return r < 0 ? kNoRank : r;
        }
        return kNoRank;
    };
    while (parts.size() > 1) {
        int32_t best = kNoRank;
        size_t at = 0;
        for (size_t k = 0; k + 1 < parts.size(); ++k) {
            if (parts[k].rank < best) {
                best = parts[k].rank;
                at = k;
            }
        }
        if (best == kNoRank)
            break;
        parts[at].rank = rankOf(at);
        if (at > 0)
            parts[at - 1].rank = rankOf(at - 1);
        parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(at) + 1);
    }
    for (size_t k = 0; k + 1 < parts.size(); ++k) {
        out.push_back(
            vocab.rank(piece.substr(parts[k].start, parts[k + 1].start - parts[k].start)));
    }
}

void bytePairEncodeHeap(const Vocabulary& vocab, std::string_view piece,
                        std::vector<int32_t>& out) {
    // Same merges as the scan in O(n log n): parts are a linked list over their start bytes,
    // candidate pairs sit in a min-heap ordered by (rank, start) - the scan's "lowest rank,
    // leftmost first" - and entries made stale by a neighbour's merge are skipped when popped.
    const size_t n = piece.size();
    std::vector<size_t> next(n), prev(n);
    std::vector<bool> alive(n, true);
    for (size_t i = 0; i < n; ++i) {
        next[i] = i + 1;
        prev[i] = i - 1;  // wraps for i == 0; never read there
    }
    struct Candidate {
        int32_t rank;
        size_t start;
        size_t end;  // end of the pair when it was pushed; differs once it is stale
        bool operator>(const Candidate& o) const {
            return rank != o.rank ? rank > o.rank : start > o.start;
        }
    };
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
    auto push = [&](size_t start) {
        const size_t mid = next[start];
        if (mid >= n)
            return;
        const size_t end = next[mid];
        const int32_t r = vocab.rank(piece.substr(start, end - start));
        if (r >= 0)
            heap.push({r, start, end});
    };
    for (size_t i = 0; i + 1 < n; ++i)
        push(i);
    while (!heap.empty()) {
        const Candidate c = heap.top();
        heap.pop();
        if (!alive[c.start] || next[c.start] >= n || next[next[c.start]] != c.end)
            continue;
        const size_t mid = next[c.start];
        alive[mid] = false;
        next[c.start] = c.end;
        if (c.end < n)
            prev[c.end] = c.start;
        push(c.start);
        if (c.start > 0)
            push(prev[c.start]);
    }
    for (size_t i = 0; i < n; i = next[i])
        out.push_back(vocab.rank(piece.substr(i, next[i] - i)));
}

void bytePairEncode(const Vocabulary& vocab, std::string_view piece, std::vector<int32_t>& out) {
    // The scan is quadratic but allocation-light; above this size the heap wins.
    constexpr size_t kHeapFrom = 64;
    if (piece.empty())
        return;
    if (piece.size() == 1) {
        out.push_back(vocab.rank(piece));
        return;
    }
    if (piece.size() < kHeapFrom) {
        bytePairEncodeScan(vocab, piece, out);
    } else {
        bytePairEncodeHeap(vocab, piece, out);
    }
}

namespace {

// Pieces that needed BPE -> their ids. Words recur, so text of any length mostly hits here.
class PieceCache {
  public:
    bool find(std::string_view piece, std::vector<int32_t>& out) const {
        std::shared_lock lock(mutex_);
        const auto it = map_.find(piece);
        if (it == map_.end())
            return false;
        out.insert(out.end(), it->second.begin(), it->second.end());
        return true;
    }
    void insert(std::string_view piece, const int32_t* ids, size_t count) {
        // Bounded so a stream of unique pieces cannot grow memory without limit; long pieces
        // are rare and cheap relative to their own BPE.
        constexpr size_t kMaxEntries = 200'000;
        constexpr size_t kMaxPieceBytes = 256;
        if (piece.size() > kMaxPieceBytes)
            return;
        std::unique_lock lock(mutex_);
        if (map_.size() >= kMaxEntries)
            map_.clear();
        map_.try_emplace(std::string(piece), ids, ids + count);
    }

  private:
    // Transparent hashing: look up by string_view without building a std::string.
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    mutable std::shared_mutex mutex_;
    std::unordered_map<std::string, std::vector<int32_t>, Hash, std::equal_to<>> map_;
};

PieceCache& pieceCache() {
    static PieceCache cache;
    return cache;
}

void encodeOrdinary(const Vocabulary& vocab, std::string_view text, std::vector<int32_t>& out) {
    PieceCache& cache = pieceCache();
    for (std::string_view piece : splitPieces(text)) {
        const int32_t whole = vocab.rank(piece);
        if (whole >= 0) {
            out.push_back(whole);
            continue;
        }
        if (cache.find(piece, out))
            continue;
        const size_t before = out.size();
        bytePairEncode(vocab, piece, out);
        cache.insert(piece, out.data() + before, out.size() - before);
    }
}

}  // namespace

std::vector<int32_t> encode(std::string_view text) {
    const Vocabulary& vocab = vocabulary();
    std::vector<int32_t> out;
    out.reserve(text.size() / 3 + 1);
    size_t pos = 0;
    while (true) {
        const size_t special = text.find(kEndOfTextText, pos);
        encodeOrdinary(
            vocab, text.substr(pos, special == std::string_view::npos ? text.npos : special - pos),
            out);
        if (special == std::string_view::npos)
            break;
        out.push_back(kEndOfText);
        pos = special + kEndOfTextText.size();
    }
    return out;
}

}  // namespace attn::gpt2

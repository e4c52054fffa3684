// Tokenizer speed. Targets (docs/TOKENIZER.md): the first gpt2 call, vocabulary load included,
// under 100 ms; 10,000 words under 10 ms once warm.
//
// BM_Gpt2FirstCall must run first in a fresh process, since the vocabulary loads once per
// process: it is registered first and runs one iteration. Running it alone with a filter
// (--benchmark_filter=FirstCall) gives the same cold start; with --benchmark_repetitions only
// the first repetition is cold.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tokenizer/gpt2_bpe.h"
#include "tokenizer/tokenizer.h"

namespace {

// 10,000 words of mixed text: common English words, made-up words that need several BPE
// merges, numbers and punctuation. A 32-bit LCG keeps it the same on every run.
std::string tenThousandWords() {
    static const char* const kCommon[] = {
        "the",    "of",    "and",     "to",         "in",        "attention",   "is",
        "a",      "that",  "for",     "it",         "as",        "was",         "with",
        "be",     "by",    "on",      "not",        "he",        "this",        "are",
        "or",     "his",   "from",    "at",         "which",     "but",         "have",
        "an",     "had",   "they",    "you",        "were",      "their",       "one",
        "all",    "we",    "can",     "her",        "has",       "there",       "been",
        "if",     "more",  "when",    "will",       "would",     "who",         "so",
        "no",     "query", "key",     "value",      "token",     "weights",     "softmax",
        "causal", "mask",  "dropout", "multi-head", "embedding", "transformer", "don't",
        "it's"};
    constexpr int kCommonCount = sizeof(kCommon) / sizeof(kCommon[0]);
    uint32_t x = 2024;
    auto next = [&x] {
        x = x * 1664525u + 1013904223u;
        return x >> 8;
    };
    std::string text;
    text.reserve(70'000);
    for (int w = 0; w < 10'000; ++w) {
        if (w > 0)
            text += (next() % 12 == 0) ? "\n" : " ";
        const uint32_t kind = next() % 10;
        if (kind < 7) {
            std::string word = kCommon[next() % kCommonCount];
            if (next() % 8 == 0)
                word[0] = static_cast<char>(word[0] - 'a' + 'A');
            text += word;
        } else if (kind < 9) {
            const int length = 3 + static_cast<int>(next() % 8);
            for (int i = 0; i < length; ++i)
                text += static_cast<char>('a' + next() % 26);
        } else {
            text += std::to_string(next() % 100000);
        }
        if (next() % 10 == 0)
            text += (next() % 2) ? "," : ".";
    }
    return text;
}

// Cold start: vocabulary load plus BPE of every piece of the 10,000 words (nothing cached yet).
void BM_Gpt2FirstCall(benchmark::State& state) {
    const std::string text = tenThousandWords();
    for (auto _ : state) {
        auto tokens = attn::tokenize(attn::TokenizerKind::Gpt2, text);
        benchmark::DoNotOptimize(tokens);
    }
}
BENCHMARK(BM_Gpt2FirstCall)->Iterations(1)->Unit(benchmark::kMillisecond);

// Reading the resource and building the rank table, on its own, repeated.
void BM_Gpt2VocabularyLoad(benchmark::State& state) {
    for (auto _ : state) {
        auto vocab = attn::gpt2::loadVocabulary();
        benchmark::DoNotOptimize(vocab);
    }
}
BENCHMARK(BM_Gpt2VocabularyLoad)->Unit(benchmark::kMillisecond);

void tokenizeWarm(benchmark::State& state, attn::TokenizerKind kind) {
    const std::string text = tenThousandWords();
    auto warmup = attn::tokenize(kind, text);  // vocabulary and piece cache
    for (auto _ : state) {
        auto tokens = attn::tokenize(kind, text);
        benchmark::DoNotOptimize(tokens);
    }
    state.counters["tokens"] = static_cast<double>(warmup.size());
    state.SetItemsProcessed(state.iterations() * 10'000);
    state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}

void BM_Gpt2TenThousandWordsWarm(benchmark::State& state) {
    tokenizeWarm(state, attn::TokenizerKind::Gpt2);
}
BENCHMARK(BM_Gpt2TenThousandWordsWarm)->Unit(benchmark::kMillisecond);

void BM_WordsTenThousandWords(benchmark::State& state) {
    tokenizeWarm(state, attn::TokenizerKind::Words);
}
BENCHMARK(BM_WordsTenThousandWords)->Unit(benchmark::kMillisecond);

void BM_CharsTenThousandWords(benchmark::State& state) {
    tokenizeWarm(state, attn::TokenizerKind::Chars);
}
BENCHMARK(BM_CharsTenThousandWords)->Unit(benchmark::kMillisecond);

// One piece of 10,000 letters: the BPE merge loop alone (heap path, not cached).
void BM_Gpt2TenThousandLettersOnePiece(benchmark::State& state) {
    std::string word;
    uint32_t x = 12345;
    for (int i = 0; i < 10'000; ++i) {
        x = x * 1664525u + 1013904223u;
        word += static_cast<char>('a' + (x >> 16) % 26);
    }
    const attn::gpt2::Vocabulary& vocab = attn::gpt2::vocabulary();
    for (auto _ : state) {
        std::vector<int32_t> ids;
        attn::gpt2::bytePairEncode(vocab, word, ids);
        benchmark::DoNotOptimize(ids);
    }
}
BENCHMARK(BM_Gpt2TenThousandLettersOnePiece)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

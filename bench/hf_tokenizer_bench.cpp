// tokenizer.json speed (SPEC 9.3; figures in docs/PERFORMANCE.md): loading a model's tokenizer
// and encoding a sentence (Gemma 3's 33 MB file: under 300 ms), and encoding 1 MB of text (at
// most as long as Hugging Face's Rust tokenizers take: bench/compare_tokenizers.sh times both in
// one run). The tokenizer.json files are read from ATTN_TOKENIZER_CACHE (default
// ~/.cache/attention-lens/tokenizers/<model>/tokenizer.json, which scripts/fetch-tokenizers.sh
// fills); the text is the first 1,000,000 bytes of ATTN_CORPUS (../shared/corpus's
// tinyshakespeare.txt).

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tokenizer/hf_tokenizer.h"

namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

fs::path tokenizerFile(const std::string& model) {
    const char* cache = std::getenv("ATTN_TOKENIZER_CACHE");
    const char* home = std::getenv("HOME");
    const fs::path dir = cache
                             ? fs::path(cache)
                             : fs::path(home ? home : "/root") / ".cache/attention-lens/tokenizers";
    return dir / model / "tokenizer.json";
}

const std::string& megabyte() {
    static const std::string text = [] {
        const char* corpus = std::getenv("ATTN_CORPUS");
        std::string t = readAll(corpus ? corpus : "../shared/corpus/tinyshakespeare.txt");
        t.resize(std::min<size_t>(t.size(), 1'000'000));
        return t;
    }();
    return text;
}

// Reading the file (from the page cache), parsing it and encoding the book's sentence: what
// opening a model folder costs before its first tokens show.
void BM_LoadAndEncodeSentence(benchmark::State& state, const std::string& model) {
    const fs::path file = tokenizerFile(model);
    if (!fs::exists(file)) {
        state.SkipWithError("tokenizer.json not fetched");
        return;
    }
    for (auto _ : state) {
        const auto tok = attn::HfTokenizer::fromJson(readAll(file));
        auto ids = tok->encodeIds("The animal didn't cross the street because it was too tired");
        benchmark::DoNotOptimize(ids);
    }
}
BENCHMARK_CAPTURE(BM_LoadAndEncodeSentence, qwen3, std::string("qwen3"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadAndEncodeSentence, llama3, std::string("llama3"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadAndEncodeSentence, gemma3, std::string("gemma3"))
    ->Unit(benchmark::kMillisecond);

void BM_EncodeMegabyte(benchmark::State& state, const std::string& model) {
    const fs::path file = tokenizerFile(model);
    if (!fs::exists(file)) {
        state.SkipWithError("tokenizer.json not fetched");
        return;
    }
    const auto tok = attn::HfTokenizer::fromJson(readAll(file));
    const std::string& text = megabyte();
    size_t tokens = 0;
    for (auto _ : state) {
        auto ids = tok->encodeIds(text, true);
        tokens = ids.size();
        benchmark::DoNotOptimize(ids);
    }
    state.counters["tokens"] = double(tokens);
    state.SetBytesProcessed(state.iterations() * int64_t(text.size()));
}
BENCHMARK_CAPTURE(BM_EncodeMegabyte, qwen3, std::string("qwen3"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_EncodeMegabyte, llama3, std::string("llama3"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_EncodeMegabyte, gemma3, std::string("gemma3"))->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

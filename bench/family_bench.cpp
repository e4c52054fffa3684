// Today's model families at their real sizes, random weights (SPEC 9.2; figures and the
// side-by-side run with PyTorch in docs/PERFORMANCE.md, bench/compare_pytorch_llama.sh):
//  - BM_SmolForward/T: a SmolLM2-135M-size llama folder (float32), the forward that keeps every
//    layer's attention and the last position's logits, as the app runs it.
//  - BM_Qwen3Load: opening a Qwen3-0.6B-size bfloat16 folder (1.2 GB), which must stay under
//    1 s: the weights stay in the memory-mapped file.
//  - BM_Qwen3PeakRss: one T = 256 forward of it; its peak resident memory must stay under the
//    file's size plus 800 MB. Run it alone in a fresh process (--benchmark_filter=PeakRss).
// Folders: $ATTN_BENCH_DIR (default /tmp)/attn_smollm2_random and attn_qwen3_random, written the
// first time.

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "engine/decoder_forward.h"
#include "io/file_io.h"
#include "io/model_file.h"
#include "random_family_model.h"

namespace {

std::shared_ptr<const attn::DecoderModel> smol() {
    static const auto m = [] {
        return attn::io::loadDecoderModel(
            attn::bench::randomFamilyFolder("attn_smollm2_random", attn::bench::kSmolLm2));
    }();
    return m;
}

std::vector<int64_t> ids(int64_t T, int64_t vocab) {
    std::vector<int64_t> v(static_cast<size_t>(T));
    for (int64_t i = 0; i < T; ++i)
        v[size_t(i)] = (i * 7919 + 13) % vocab;
    return v;
}

void BM_SmolForward(benchmark::State& state) {
    attn::DecoderRequest r;
    r.model = smol();
    r.ids = ids(state.range(0), r.model->arch.vocab);
    for (auto _ : state) {
        auto run = attn::runDecoder(r);
        auto next = attn::nextTokens(*run, run->tokens() - 1, 5);
        benchmark::DoNotOptimize(next);
        if (!run->attentionKept())
            state.SkipWithError("attention not kept");
    }
}
BENCHMARK(BM_SmolForward)->Arg(64)->Arg(1024)->Unit(benchmark::kMillisecond)->UseRealTime();

std::string qwen3() {
    return attn::bench::randomFamilyFolder("attn_qwen3_random", attn::bench::kQwen3);
}

void BM_Qwen3Load(benchmark::State& state) {
    const std::string f = qwen3();
    for (auto _ : state) {
        auto m = attn::io::loadDecoderModel(f);
        benchmark::DoNotOptimize(m.get());
    }
    state.counters["file_MB"] = double(std::filesystem::file_size(f + "/model.safetensors")) / 1e6;
}
BENCHMARK(BM_Qwen3Load)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

void BM_Qwen3PeakRss(benchmark::State& state) {
    const std::string f = qwen3();
    attn::DecoderRequest r;
    r.model = attn::io::loadDecoderModel(f);
    r.ids = ids(256, r.model->arch.vocab);
    for (auto _ : state) {
        auto run = attn::runDecoder(r);
        auto next = attn::nextTokens(*run, run->tokens() - 1, 5);
        benchmark::DoNotOptimize(next);
    }
    state.counters["file_MB"] = double(std::filesystem::file_size(f + "/model.safetensors")) / 1e6;
    state.counters["peak_RSS_MB"] = double(attn::io::processPeakResidentBytes()) / 1e6;
}
BENCHMARK(BM_Qwen3PeakRss)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();

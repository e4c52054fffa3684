// Model mode on a GPT-2-small-sized model (12 layers, d 768, 12 heads, vocabulary 50,257,
// context 1,024): random float32 weights with Hugging Face names, written once to
// $ATTN_BENCH_MODEL (default /tmp/attn_gpt2_small_random.safetensors) and memory-mapped like a
// real checkpoint. Compare with bench/compare_pytorch_gpt.sh, which times PyTorch's forward on
// the same file.
//
//   BM_GptLoad           mapping the file, checking and converting every weight
//   BM_GptForward/T      the forward keeping every layer's attention, T = 64, 256, 1024
//   BM_GptTypingOneToken one more token at T = 64 with the previous run reused (typing)
//   BM_GptNextTokens     top-5 next tokens at the last position (the output head)
//   BM_GptCancel         time from setting the cancel token to the T = 1024 forward stopping
//   BM_GptPeakRss        one T = 1024 forward in a fresh process: run it alone, with
//                        --benchmark_filter=BM_GptPeakRss, to read the peak resident memory

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "engine/decoder_forward.h"
#include "io/file_io.h"
#include "io/model_file.h"
#include "random_gpt2_model.h"

namespace {

using attn::bench::kVocab;
using attn::bench::modelPath;

std::shared_ptr<const attn::DecoderModel> model() {
    static std::shared_ptr<const attn::DecoderModel> m = [] {
        return attn::io::loadDecoderModel(attn::bench::randomModelFile());
    }();
    return m;
}

std::vector<int64_t> ids(int64_t T) {
    std::vector<int64_t> out(static_cast<size_t>(T));
    for (int64_t i = 0; i < T; ++i)
        out[size_t(i)] = (i * 7919 + 13) % kVocab;
    return out;
}

double peakRssMb() {
    return static_cast<double>(attn::io::processPeakResidentBytes()) / (1024.0 * 1024.0);
}

void BM_GptLoad(benchmark::State& state) {
    attn::bench::randomModelFile();
    for (auto _ : state) {
        auto m = attn::io::loadDecoderModel(modelPath());
        benchmark::DoNotOptimize(m.get());
    }
    state.counters["file_MB"] = double(std::filesystem::file_size(modelPath())) / 1e6;
}
BENCHMARK(BM_GptLoad)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

void BM_GptForward(benchmark::State& state) {
    attn::DecoderRequest r;
    r.model = model();
    r.ids = ids(state.range(0));
    for (auto _ : state) {
        auto run = attn::runDecoder(r);
        benchmark::DoNotOptimize(run.get());
    }
    state.counters["kept_MB"] =
        double(attn::estimateDecoderRunBytes(r.model->arch, state.range(0), 64, true)) / 1e6;
}
BENCHMARK(BM_GptForward)
    ->Arg(64)
    ->Arg(256)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Typing: the text grows from 63 to 64 tokens; the run of 63 is reused.
void BM_GptTypingOneToken(benchmark::State& state) {
    attn::DecoderRequest r;
    r.model = model();
    r.ids = ids(63);
    const auto previous = attn::runDecoder(r);
    r.ids = ids(64);
    r.previous = previous;
    for (auto _ : state) {
        auto run = attn::runDecoder(r);
        auto top = attn::nextTokens(*run, 63, 5);
        benchmark::DoNotOptimize(top.data());
    }
}
BENCHMARK(BM_GptTypingOneToken)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_GptNextTokens(benchmark::State& state) {
    attn::DecoderRequest r;
    r.model = model();
    r.ids = ids(64);
    const auto run = attn::runDecoder(r);
    for (auto _ : state) {
        auto top = attn::nextTokens(*run, 63, 5);
        benchmark::DoNotOptimize(top.data());
    }
}
BENCHMARK(BM_GptNextTokens)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_GptCancel(benchmark::State& state) {
    attn::DecoderRequest r;
    r.model = model();
    r.ids = ids(1024);
    for (auto _ : state) {
        attn::CancelToken token;
        r.cancel = &token;
        std::thread worker([&] {
            try {
                attn::runDecoder(r);
            } catch (const attn::Cancelled&) {
            }
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(400));  // well into the forward
        const auto t0 = std::chrono::steady_clock::now();
        token.cancel();
        worker.join();
        state.SetIterationTime(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
}
BENCHMARK(BM_GptCancel)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_GptPeakRss(benchmark::State& state) {
    attn::DecoderRequest r;
    r.model = model();
    r.ids = ids(1024);
    for (auto _ : state) {
        auto run = attn::runDecoder(r);
        benchmark::DoNotOptimize(run.get());
    }
    state.counters["weights_MB"] = double(std::filesystem::file_size(modelPath())) / 1e6;
    state.counters["peak_RSS_MB"] = peakRssMb() * 1.048576;  // MB, like the file size
}
BENCHMARK(BM_GptPeakRss)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace

BENCHMARK_MAIN();

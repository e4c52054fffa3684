// Full traces of GPT-2-small-sized multi-head attention (every step kept) and the chapter-2
// embeddings. Compare with bench/compare_pytorch.sh, which times PyTorch's forward.

#include <benchmark/benchmark.h>

#include <chrono>
#include <random>
#include <thread>

#include "engine/embeddings.h"
#include "engine/trace.h"
#include "io/file_io.h"

namespace {

attn::Tensor randomInputs(int64_t T, int64_t d) {
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> data(static_cast<size_t>(T * d));
    for (float& v : data)
        v = u(gen);
    return attn::Tensor(attn::Shape{T, d}, std::move(data));
}

// Times the full trace of `config` on T random tokens: the forward pass keeping every step.
void timeTrace(benchmark::State& state, const attn::Config& config) {
    const int64_t T = state.range(0);
    attn::TraceRequest r;
    r.config = config;
    r.inputs = randomInputs(T, config.dIn);
    // The weights are drawn once: the benchmark is about the forward pass and its trace.
    const attn::WeightMap weights = attn::runTrace(r).parameters;
    r.weights = &weights;
    for (auto _ : state) {
        attn::Trace t = attn::runTrace(r);
        benchmark::DoNotOptimize(t.steps.data());
    }
    state.counters["trace_MB"] =
        static_cast<double>(attn::estimateComputedTraceBytes(r.config, T)) / (1024.0 * 1024.0);
    // Peak resident memory of the process so far; the sizes run in increasing order, so at each
    // size it is that size's peak (one trace alive at a time).
    state.counters["peak_RSS_MB"] =
        static_cast<double>(attn::io::processPeakResidentBytes()) / (1024.0 * 1024.0);
}

void BM_MultiHeadTrace(benchmark::State& state) {
    attn::Config c;
    c.variant = attn::Variant::MultiHead;
    c.dIn = c.dOut = 768;
    c.heads = 12;
    timeTrace(state, c);
}
BENCHMARK(BM_MultiHeadTrace)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Qwen3-0.6B's attention (section 9.1's rotary): d_in 1,024, 16 query heads sharing 8 key/value
// groups of 128, QK-norm, RoPE base 1,000,000, causal; every step kept, as the app keeps them.
void BM_RotaryTrace(benchmark::State& state) {
    attn::Config c;
    c.variant = attn::Variant::Rotary;
    c.dIn = 1024;
    c.heads = 16;
    c.kvGroups = 8;
    c.headDim = 128;
    c.qkNorm = true;
    c.ropeBase = 1e6;
    timeTrace(state, c);
}
BENCHMARK(BM_RotaryTrace)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// How long a running T = 2048 GPT-2-small trace takes to stop after its cancel token is set
// (the app cancels the running request whenever the user changes something).
void BM_CancelLatencyT2048(benchmark::State& state) {
    attn::TraceRequest r;
    r.config.variant = attn::Variant::MultiHead;
    r.config.dIn = r.config.dOut = 768;
    r.config.heads = 12;
    r.config.contextLength = 2048;
    r.config.simpleMaskSteps = false;  // keeps the trace inside the 2 GiB budget
    r.inputs = randomInputs(2048, 768);
    for (auto _ : state) {
        attn::CancelToken token;
        r.cancel = &token;
        std::thread worker([&] {
            try {
                attn::runTrace(r);
            } catch (const attn::Cancelled&) {
            }
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(150));  // well into the trace
        const auto t0 = std::chrono::steady_clock::now();
        token.cancel();
        worker.join();
        state.SetIterationTime(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
}
BENCHMARK(BM_CancelLatencyT2048)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

// Cold: a new seed each time, so nothing comes from the cache.
void BM_Embeddings1024Cold(benchmark::State& state) {
    std::vector<int64_t> ids(1024);
    for (size_t i = 0; i < ids.size(); ++i)
        ids[i] = static_cast<int64_t>((i * 7919) % 50257);
    uint64_t seed = 1000;
    for (auto _ : state) {
        attn::EmbeddingConfig e;
        e.seed = seed++;
        e.dIn = 768;
        attn::Tensor x = attn::chapterTwoEmbeddings(e, ids);
        benchmark::DoNotOptimize(x.data());
    }
}
BENCHMARK(BM_Embeddings1024Cold)->Unit(benchmark::kMillisecond)->Iterations(5);

// Typing: the generator's checkpoints exist (same seed as before), one token is new.
void BM_EmbeddingsOneNewToken(benchmark::State& state) {
    attn::EmbeddingConfig e;
    e.seed = 77;
    e.dIn = 768;
    std::vector<int64_t> ids = {7120, 7002, 4940, 351, 530, 2239};
    attn::chapterTwoEmbeddings(e, ids);  // builds the checkpoints once
    int64_t next = 10;
    for (auto _ : state) {
        ids.back() = next;
        next = (next + 7919) % 50257;
        attn::Tensor x = attn::chapterTwoEmbeddings(e, ids);
        benchmark::DoNotOptimize(x.data());
    }
}
BENCHMARK(BM_EmbeddingsOneNewToken)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();

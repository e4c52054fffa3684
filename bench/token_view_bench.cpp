// The token view's cost on the GUI thread at T = 1,000 tokens and 12 heads: what a frame, a new
// attention or a hover change costs there. The goal is well under 50 ms for each; the line
// rendering runs on a worker thread, so its latency is measured apart (LinesReady), as is the
// link selection the worker does and the weights' extraction from a trace the app does.
//
// Run: QT_QPA_PLATFORM=offscreen build/bench/token_view_bench
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <cmath>
#include <random>

#include "engine/trace.h"
#include "qt_benchmark_main.h"
#include "teach/token_view.h"

namespace attn {
namespace {

constexpr int kTokens = 1000;
constexpr int kHeads = 12;
const QSize kViewSize(900, 700);

// Attention shaped like a trained model's: every row softmax over its earlier keys, with a sink
// on the first token, a bump on the last few tokens, and noise. Causal.
struct Input {
    std::vector<std::vector<float>> weights;
    std::vector<uint8_t> hidden;
    QStringList tokens;
};

const Input& input() {
    static const Input in = [] {
        Input r;
        std::mt19937 rng(2024);
        std::normal_distribution<float> noise(0.0f, 1.0f);
        r.weights.assign(kHeads, std::vector<float>(size_t(kTokens) * kTokens, 0.0f));
        for (int h = 0; h < kHeads; ++h) {
            for (int q = 0; q < kTokens; ++q) {
                float* row = r.weights[size_t(h)].data() + size_t(q) * kTokens;
                double sum = 0;
                for (int k = 0; k <= q; ++k) {
                    float logit = noise(rng);
                    if (k == 0)
                        logit += 4.0f + 0.2f * float(h);
                    if (q - k < 4)
                        logit += 3.0f;
                    sum += row[k] = std::exp(logit);
                }
                for (int k = 0; k <= q; ++k)
                    row[k] = float(row[k] / sum);
            }
        }
        r.hidden.assign(size_t(kTokens) * kTokens, 0);
        for (int q = 0; q < kTokens; ++q)
            for (int k = q + 1; k < kTokens; ++k)
                r.hidden[size_t(q) * kTokens + k] = 1;
        const char* words[] = {"The", " cat", " sat",  " on", " the",   " mat",
                               ",",   " and", " then", " it", " slept", "."};
        for (int i = 0; i < kTokens; ++i)
            r.tokens << QString::fromUtf8(words[i % 12]);
        return r;
    }();
    return in;
}

// Lets the worker's result land, so the next iteration starts from a quiet view.
void settle(const TokenView& view) {
    QElapsedTimer t;
    t.start();
    while ((view.isRendering() || !view.linesReady()) && t.elapsed() < 10000)
        QApplication::processEvents(QEventLoop::AllEvents, 5);
}

void ready(TokenView& view, QImage& canvas) {
    view.resize(kViewSize);
    view.setAttention(input().weights, input().tokens, input().hidden);
    view.render(&canvas);
    settle(view);
}

// setAttention with the matrices moved in (no copy), then one paint. With untilLinesShow the
// clock runs on until the worker's lines are in the view (latency, not GUI-thread time).
void setAttentionLoop(benchmark::State& state, bool untilLinesShow) {
    TokenView view;
    QImage canvas(kViewSize, QImage::Format_ARGB32_Premultiplied);
    ready(view, canvas);
    for (auto _ : state) {
        state.PauseTiming();
        auto weights = input().weights;
        auto hidden = input().hidden;
        state.ResumeTiming();
        view.setAttention(std::move(weights), input().tokens, std::move(hidden));
        view.render(&canvas);
        if (!untilLinesShow)
            state.PauseTiming();
        settle(view);
        if (!untilLinesShow)
            state.ResumeTiming();
    }
}

void BM_SetAttentionAndPaint(benchmark::State& state) {
    setAttentionLoop(state, false);
}
BENCHMARK(BM_SetAttentionAndPaint)->Unit(benchmark::kMillisecond)->Iterations(20);

// Not GUI-thread time: from setAttention until the lines show (worker selection and render,
// and the event loop delivering the result).
void BM_LinesReady(benchmark::State& state) {
    setAttentionLoop(state, true);
}
BENCHMARK(BM_LinesReady)->Unit(benchmark::kMillisecond)->Iterations(10);

// The same with the matrices copied in, as a caller holding on to them pays.
void BM_SetAttentionCopyAndPaint(benchmark::State& state) {
    TokenView view;
    QImage canvas(kViewSize, QImage::Format_ARGB32_Premultiplied);
    ready(view, canvas);
    for (auto _ : state) {
        view.setAttention(input().weights, input().tokens, input().hidden);
        view.render(&canvas);
        state.PauseTiming();
        settle(view);
        state.ResumeTiming();
    }
}
BENCHMARK(BM_SetAttentionCopyAndPaint)->Unit(benchmark::kMillisecond)->Iterations(20);

// A frame once the lines are in the cached image.
void BM_Paint(benchmark::State& state) {
    TokenView view;
    QImage canvas(kViewSize, QImage::Format_ARGB32_Premultiplied);
    ready(view, canvas);
    for (auto _ : state)
        view.render(&canvas);
}
BENCHMARK(BM_Paint)->Unit(benchmark::kMillisecond);

// Hover changes, each followed by a paint: the hovered token's lines are drawn on the GUI
// thread, all heads shown. `next` picks the token of iteration i.
template <typename Next>
void hoverLoop(benchmark::State& state, Next next) {
    TokenView view;
    QImage canvas(kViewSize, QImage::Format_ARGB32_Premultiplied);
    ready(view, canvas);
    int i = 0;
    for (auto _ : state) {
        view.setHovered(next(i++));
        view.render(&canvas);
    }
}

// Another query each time: up to 8 links per head.
void BM_HoverQueryAndPaint(benchmark::State& state) {
    hoverLoop(state, [](int i) { return TokenView::Hit{TokenView::Side::Query, 5 + i % 20}; });
}
BENCHMARK(BM_HoverQueryAndPaint)->Unit(benchmark::kMillisecond);

// The sink token (every query of every head attends to it: 12,000 links, bundled) and its
// neighbour in turn.
void BM_HoverSinkKeyAndPaint(benchmark::State& state) {
    hoverLoop(state, [](int i) { return TokenView::Hit{TokenView::Side::Key, i % 2}; });
}
BENCHMARK(BM_HoverSinkKeyAndPaint)->Unit(benchmark::kMillisecond);

// Scrolling one screen down: the image is reused until the worker sends the new band.
void BM_ScrollAndPaint(benchmark::State& state) {
    TokenView view;
    QImage canvas(kViewSize, QImage::Format_ARGB32_Premultiplied);
    ready(view, canvas);
    int row = 0;
    for (auto _ : state) {
        row = (row + 25) % kTokens;
        view.scrollToToken(row);
        view.render(&canvas);
        state.PauseTiming();
        settle(view);
        state.ResumeTiming();
    }
}
BENCHMARK(BM_ScrollAndPaint)->Unit(benchmark::kMillisecond)->Iterations(40);

// The worker's link selection alone: 12 million weights.
void BM_SelectLinks(benchmark::State& state) {
    const Input& in = input();
    for (auto _ : state) {
        LinkSelection s = selectAttentionLinks(
            in.weights, kTokens, in.hidden, TokenView::kLinksPerQuery, TokenView::kMinLinkWeight);
        benchmark::DoNotOptimize(s.links.data());
    }
}
BENCHMARK(BM_SelectLinks)->Unit(benchmark::kMillisecond);

// What the app does on the GUI thread before setAttention: the weights out of a GPT-2-small
// sized multi-head trace at T = 1,000.
void BM_TokenViewWeightsFromTrace(benchmark::State& state) {
    Config c;
    c.variant = Variant::MultiHead;
    c.dIn = 768;
    c.dOut = 768;
    c.heads = kHeads;
    c.contextLength = 1024;
    c.mask = MaskSpec{MaskKind::Causal, 0};
    TraceRequest r;
    r.config = c;
    std::vector<float> x(size_t(kTokens) * 768);
    std::mt19937 rng(1);
    std::normal_distribution<float> n(0.0f, 1.0f);
    for (float& v : x)
        v = n(rng);
    r.inputs = Tensor({kTokens, 768}, x);
    const Trace trace = runTrace(r);
    for (auto _ : state) {
        auto w = tokenViewWeights(trace, 0, "weights");
        auto hidden = tokenViewHidden(trace);
        benchmark::DoNotOptimize(w.data());
        benchmark::DoNotOptimize(hidden.data());
    }
}
BENCHMARK(BM_TokenViewWeightsFromTrace)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace attn

int main(int argc, char** argv) {
    return attn::bench::runQtBenchmarks(argc, argv);
}

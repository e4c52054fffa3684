// Model mode's widgets at GPT-2 sizes: building the overview's tile pictures and painting the
// overview (GPT-2 XL's 48 x 25 heads of 64 x 64 thumbnails, and GPT-2 small's 12 x 12), the
// head scores the summaries show (from kept attention, and recomputing every layer of a
// GPT-2-small-sized model), and the overview figure files.
//
// Run: QT_QPA_PLATFORM=offscreen build/bench/model_ui_bench
#include <benchmark/benchmark.h>

#include <QCoreApplication>
#include <QImage>

#include <cmath>
#include <random>

#include "engine/decoder_forward.h"
#include "engine/head_scores.h"
#include "export/model_figure.h"
#include "qt_benchmark_main.h"
#include "teach/model_overview.h"

namespace attn {
namespace {

// Thumbnails (L, H, P, P) shaped like a trained model's: causal, every row a softmax of noise
// plus a pull towards the first token or the previous one, depending on the head.
Tensor thumbnails(int64_t L, int64_t H, int64_t P) {
    Tensor t({L, H, P, P});
    std::mt19937 rng(7);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    float* v = t.mutableData();
    for (int64_t lh = 0; lh < L * H; ++lh)
        for (int64_t i = 0; i < P; ++i) {
            float* row = v + (lh * P + i) * P;
            double sum = 0;
            for (int64_t j = 0; j < P; ++j) {
                if (j > i) {
                    row[j] = -std::numeric_limits<float>::infinity();
                    continue;
                }
                const float pull =
                    (lh % 3 == 0 && j == 0) || (lh % 3 == 1 && j == i - 1) ? 4.0f : 0.0f;
                sum += row[j] = std::exp(noise(rng) + pull);
            }
            for (int64_t j = 0; j <= i; ++j)
                row[j] = float(row[j] / sum);
        }
    return t;
}

const Tensor& xlThumbnails() {
    static const Tensor t = thumbnails(48, 25, 64);
    return t;
}

void BM_OverviewTileImagesXl(benchmark::State& state) {
    for (auto _ : state)
        for (int64_t l = 0; l < 48; ++l)
            benchmark::DoNotOptimize(
                overviewTileImages(xlThumbnails().select(0, l), Colormap::Viridis, false));
}
BENCHMARK(BM_OverviewTileImagesXl)->Unit(benchmark::kMillisecond);

// One layer arriving while the forward runs: what setLayer costs the GUI thread.
void BM_OverviewSetLayerXl(benchmark::State& state) {
    ModelOverview o;
    o.resize(1200, 900);
    o.setArchitecture(48, 25);
    int l = 0;
    for (auto _ : state) {
        o.setLayer(l, xlThumbnails().select(0, l));
        l = (l + 1) % 48;
    }
}
BENCHMARK(BM_OverviewSetLayerXl)->Unit(benchmark::kMicrosecond);

// A frame of the overview: the tiles in view, their scaled pictures kept from the frame
// before (range(0) = 0), or made anew after a zoom (range(0) = 1).
void paintOverview(benchmark::State& state, int64_t L, int64_t H, QSize size,
                   const Tensor& thumbs) {
    ModelOverview o;
    o.resize(size);
    o.show();
    QCoreApplication::processEvents();
    o.setArchitecture(int(L), int(H));
    for (int64_t l = 0; l < L; ++l)
        o.setLayer(int(l), thumbs.select(0, l));
    o.setCurrent(int(L) / 2, int(H) / 2);
    QImage frame(size, QImage::Format_ARGB32_Premultiplied);
    o.render(&frame);
    bool zoomed = false;
    for (auto _ : state) {
        if (state.range(0)) {
            zoomed ? o.zoomToFit() : o.zoomIn();
            zoomed = !zoomed;
        }
        o.render(&frame);
        benchmark::DoNotOptimize(frame.bits());
    }
    state.counters["tile_px"] = o.tileSize();
}

void BM_OverviewPaintXl(benchmark::State& state) {
    paintOverview(state, 48, 25, QSize(1200, 900), xlThumbnails());
}
BENCHMARK(BM_OverviewPaintXl)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_OverviewPaintSmall(benchmark::State& state) {
    static const Tensor t = thumbnails(12, 12, 64);
    paintOverview(state, 12, 12, QSize(700, 560), t);
}
BENCHMARK(BM_OverviewPaintSmall)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// A run that kept its attention, (L, H, T, T), made by hand: only what headScores reads.
std::shared_ptr<DecoderRun> keptRun(int64_t L, int64_t H, int64_t T) {
    auto model = std::make_shared<DecoderModel>();
    model->arch.layers = L;
    model->arch.heads = H;
    model->arch.dModel = 64 * H;
    auto run = std::make_shared<DecoderRun>();
    run->model = model;
    run->ids.assign(size_t(T), 0);
    run->attention = Tensor({L, H, T, T});
    float* a = run->attention.mutableData();
    for (int64_t lh = 0; lh < L * H; ++lh)
        for (int64_t i = 0; i < T; ++i)
            for (int64_t j = 0; j <= i; ++j)
                a[(lh * T + i) * T + j] = 1.0f / float(i + 1);
    for (Tensor* s : {&run->meanEntropy, &run->meanDistance, &run->meanFirstWeight})
        *s = Tensor({L, H});
    return run;
}

void BM_HeadScoresKept(benchmark::State& state) {
    const int64_t L = state.range(0), H = state.range(1), T = state.range(2);
    const auto run = keptRun(L, H, T);
    for (auto _ : state)
        benchmark::DoNotOptimize(headScores(*run));
}
BENCHMARK(BM_HeadScoresKept)
    ->Args({12, 12, 1024})
    ->Args({48, 25, 256})
    ->Unit(benchmark::kMillisecond);

// GPT-2 small's blocks (12 layers, d 768, 12 heads) with random weights and a small
// vocabulary (the scores never touch the output head): what the summaries' worker does for a
// run that kept no attention.
std::shared_ptr<const DecoderModel> gpt2SmallBlocks() {
    static const std::shared_ptr<const DecoderModel> model = [] {
        const int64_t d = 768, F = 4 * d, vocab = 1024, context = 1024;
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> u(-0.05f, 0.05f);
        auto tensor = [&](const Shape& shape, float offset = 0.0f) {
            Tensor t(shape);
            for (int64_t i = 0; i < t.numel(); ++i)
                t.mutableData()[i] = offset + u(rng);
            return t;
        };
        auto linear = [&](int64_t in, int64_t out) {
            DecoderLinear l;
            l.weight = tensor({out, in});
            l.bias = tensor({out});
            return l;
        };
        auto m = std::make_shared<DecoderModel>();
        m->arch = gpt2Architecture(12, d, 12, vocab, context, F, true, true);
        m->tokenEmbedding = tensor({vocab, d});
        m->positionEmbedding = tensor({context, d});
        for (int l = 0; l < 12; ++l) {
            DecoderBlock b;
            b.norm1Scale = tensor({d}, 1.0f);
            b.norm1Shift = tensor({d});
            b.query = linear(d, d);
            b.key = linear(d, d);
            b.value = linear(d, d);
            b.outProj = linear(d, d);
            b.norm2Scale = tensor({d}, 1.0f);
            b.norm2Shift = tensor({d});
            b.ffIn = linear(d, F);
            b.ffOut = linear(F, d);
            m->blocks.push_back(b);
        }
        m->finalNormScale = tensor({d}, 1.0f);
        m->finalNormShift = tensor({d});
        m->outHead.weight = m->tokenEmbedding;
        checkDecoderModel(*m);
        return m;
    }();
    return model;
}

void BM_HeadScoresRecomputedGpt2Small(benchmark::State& state) {
    const int64_t T = state.range(0);
    DecoderRequest r;
    r.model = gpt2SmallBlocks();
    for (int64_t i = 0; i < T; ++i)
        r.ids.push_back(i % 1024);
    r.memoryBudgetBytes = estimateDecoderRunBytes(r.model->arch, T, 64, false);
    const auto run = runDecoder(r);
    if (run->attentionKept())
        state.SkipWithError("the run kept its attention");
    for (auto _ : state)
        benchmark::DoNotOptimize(headScores(*run));
}
BENCHMARK(BM_HeadScoresRecomputedGpt2Small)
    ->Arg(256)
    ->Arg(1024)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_OverviewFigure(benchmark::State& state) {
    static const Tensor small = thumbnails(12, 12, 64);
    const Tensor& t = state.range(0) ? xlThumbnails() : small;
    const auto format = ImageFormat(state.range(1));
    OverviewFigureOptions o;
    o.title = QStringLiteral("benchmark");
    qint64 bytes = 0;
    for (auto _ : state)
        bytes = renderOverviewBytes(t, o, format).size();
    state.counters["file_kB"] = double(bytes) / 1024.0;
}
BENCHMARK(BM_OverviewFigure)
    ->Args({0, int(ImageFormat::Png)})
    ->Args({0, int(ImageFormat::Svg)})
    ->Args({0, int(ImageFormat::Pdf)})
    ->Args({1, int(ImageFormat::Png)})
    ->Args({1, int(ImageFormat::Svg)})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace attn

int main(int argc, char** argv) {
    return attn::bench::runQtBenchmarks(argc, argv);
}

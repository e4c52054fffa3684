// The heatmap figure at the sizes users meet: the book's 6 x 6 and a 1,000 x 1,000 causal map,
// built (drawHeatmap) and laid out and drawn (replot) in an offscreen QCustomPlot of the window's
// size, in each colour scale; and the default export size. Runs on the offscreen platform.

#include <benchmark/benchmark.h>
#include <qcustomplot.h>

#include <QApplication>

#include <cmath>
#include <random>

#include "export/heatmap_data.h"
#include "export/heatmap_figure.h"

namespace {

// T x T causal attention weights: softmax of random scores over the visible keys, the zeros
// above the diagonal marked hidden as the mask marks them.
attn::HeatmapData causalWeights(int T) {
    attn::HeatmapData d;
    d.rows = d.cols = T;
    d.kind = attn::StepKind::Weights;
    d.rowsAreTokens = d.colsAreTokens = true;
    d.rowAxis = QStringLiteral("query token");
    d.colAxis = QStringLiteral("key token");
    d.values.assign(size_t(T) * size_t(T), 0.0f);
    d.hidden.assign(d.values.size(), 0);
    std::mt19937 gen(7);
    std::normal_distribution<float> score(0.0f, 1.5f);
    for (int r = 0; r < T; ++r) {
        float sum = 0;
        for (int c = 0; c <= r; ++c)
            sum += d.values[size_t(r) * T + c] = std::exp(score(gen));
        for (int c = 0; c < T; ++c) {
            if (c <= r)
                d.values[size_t(r) * T + c] /= sum;
            else
                d.hidden[size_t(r) * T + c] = 1;
        }
    }
    static const char* words[] = {"The", " cat", " sat", " on", " the", " mat"};
    for (int i = 0; i < T; ++i)
        d.rowLabels << QString::fromUtf8(words[i % 6]);
    d.colLabels = d.rowLabels;
    return d;
}

void BM_DrawAndReplot(benchmark::State& state) {
    const attn::HeatmapData data = causalWeights(int(state.range(0)));
    attn::FigureOptions o;
    o.showTitle = false;
    o.colorScale = attn::ColorScale(state.range(1));
    QCustomPlot plot;
    plot.resize(700, 560);
    for (auto _ : state) {
        attn::drawHeatmap(&plot, data, o);
        plot.replot(QCustomPlot::rpImmediateRefresh);
    }
    state.SetLabel(QString::fromStdString(attn::colorScaleName(o.colorScale)).toStdString());
}
// Args: tokens, colour scale (0 Matrix, 1 Row, 2 Log).
BENCHMARK(BM_DrawAndReplot)
    ->Args({6, 0})
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Args({1000, 2})
    ->Unit(benchmark::kMillisecond);

// A replot alone, as hovering and panning cause.
void BM_Replot(benchmark::State& state) {
    const attn::HeatmapData data = causalWeights(int(state.range(0)));
    attn::FigureOptions o;
    o.showTitle = false;
    QCustomPlot plot;
    plot.resize(700, 560);
    attn::drawHeatmap(&plot, data, o);
    for (auto _ : state)
        plot.replot(QCustomPlot::rpImmediateRefresh);
}
BENCHMARK(BM_Replot)->Arg(6)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_SuggestedFigureSize(benchmark::State& state) {
    const attn::HeatmapData data = causalWeights(int(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(attn::suggestedFigureSize(data));
}
BENCHMARK(BM_SuggestedFigureSize)->Arg(6)->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

#pragma once
// main() of the benchmarks that need a QApplication (widgets, figures): offscreen unless the
// environment names a platform.
#include <benchmark/benchmark.h>

#include <QApplication>

namespace attn::bench {

inline int runQtBenchmarks(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

}  // namespace attn::bench

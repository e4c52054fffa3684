// Desktop app latency: a keystroke in the sentence field until the views show the new result
// and have repainted, with the real window, workspace, worker thread and widgets, offscreen at
// the size of a 1366 x 768 laptop screen.
//
//   app_latency_bench [--benchmark_filter=...]
//
// Each iteration appends one character with a real QKeyEvent, waits for Workspace::resultApplied
// of the generation it caused and lets the queued repaints run. Reported: the median (and p90,
// max) milliseconds per keystroke.

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QKeyEvent>
#include <QPlainTextEdit>
#include <QTimer>
#include <algorithm>
#include <memory>
#include <vector>

#include "app/input_panel.h"
#include "app/main_window.h"
#include "app/workspace.h"
#include "engine/decoder_forward.h"
#include "pipeline/model_request.h"
#include "qt_benchmark_main.h"
#include "random_family_model.h"
#include "random_gpt2_model.h"

namespace {

using attn::InputSource;
using attn::MainWindow;
using attn::Settings;
using attn::Workspace;

// Waits until the window has applied the newest generation (no sleeping: an event loop that
// quits on resultApplied), then runs the repaints that queued.
bool waitApplied(Workspace& w, int timeoutMs = 30000) {
    QElapsedTimer t;
    t.start();
    while (w.hasPendingWork() || w.appliedGeneration() != w.latestGeneration()) {
        if (t.elapsed() > timeoutMs)
            return false;
        if (w.hasPendingWork()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
            continue;
        }
        QEventLoop loop;
        QObject::connect(&w, &Workspace::resultApplied, &loop, &QEventLoop::quit);
        QTimer::singleShot(1000, &loop, &QEventLoop::quit);
        loop.exec();
    }
    QCoreApplication::processEvents();
    return true;
}

MainWindow::Options benchOptions() {
    MainWindow::Options o;
    o.useSettings = false;
    o.restoreSettings = false;
    return o;
}

void typeChar(QWidget* target, QChar c) {
    QKeyEvent press(QEvent::KeyPress, 0, Qt::NoModifier, QString(c));
    QKeyEvent release(QEvent::KeyRelease, 0, Qt::NoModifier, QString(c));
    QCoreApplication::sendEvent(target, &press);
    QCoreApplication::sendEvent(target, &release);
}

void runKeystrokes(benchmark::State& state, const Settings& initial, int maxTokens) {
    MainWindow w(benchOptions());
    w.resize(1366, 740);
    w.show();
    Workspace& ws = *w.workspace();
    ws.reset({initial, {}});
    if (!waitApplied(ws)) {
        state.SkipWithError("first result never arrived");
        return;
    }
    QPlainTextEdit* edit = w.inputPanel()->textEdit();
    edit->setFocus();
    edit->moveCursor(QTextCursor::End);
    const QString alphabet = QStringLiteral("abcdefghij klmnopqrst uvwxyz ");
    std::vector<double> ms;
    int k = 0;
    for (auto _ : state) {
        // Keep T within the limit: start over from the initial text when it grows too long.
        if (ws.shownRun() && ws.shownRun()->trace->tokens >= maxTokens) {
            state.PauseTiming();
            edit->setPlainText(initial.text);
            edit->moveCursor(QTextCursor::End);
            waitApplied(ws);
            state.ResumeTiming();
        }
        QElapsedTimer t;
        t.start();
        typeChar(edit, alphabet[k++ % alphabet.size()]);
        if (!waitApplied(ws)) {
            state.SkipWithError("no result within 30 s");
            return;
        }
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
        if (!ws.shownRun() || ws.isStale()) {
            state.SkipWithError("result not applied");
            return;
        }
    }
    if (ms.empty())
        return;
    std::sort(ms.begin(), ms.end());
    state.counters["median_ms"] = ms[ms.size() / 2];
    state.counters["p90_ms"] = ms[std::min(ms.size() - 1, ms.size() * 9 / 10)];
    state.counters["max_ms"] = ms.back();
    state.counters["tokens"] = double(ws.shownRun()->trace->tokens);
}

void BM_KeystrokeBook(benchmark::State& state) {
    // The book example's model (multi-head, d 3 -> 2, 2 heads, causal) on typed text.
    Settings s;
    s.source = InputSource::Text;
    runKeystrokes(state, s, 64);
}

void BM_KeystrokeGpt2Small(benchmark::State& state) {
    // GPT-2 small sizes: d_in = d_out = 768, 12 heads, causal; T grows up to 64 tokens.
    Settings s;
    s.source = InputSource::Text;
    s.text = QStringLiteral(
        "The quick brown fox jumps over the lazy dog while the students watch every step of "
        "attention on the projector");
    s.config.dIn = s.config.dOut = 768;
    s.config.heads = 12;
    runKeystrokes(state, s, 64);
}

// Responsiveness with GPT-2 small sizes and ~1,000 tokens, with the token view showing: a key
// every 60 ms for 30 keys while a 5 ms timer measures how long the GUI thread is ever blocked;
// then the wait for the final result. Counters: max_stall_typing_ms (the window must stay
// responsive while typing), max_stall_apply_ms (showing a 12 x 1000 x 1000 result), final_ms
// (last key to result).
void BM_Typing1000TokensGpt2Small(benchmark::State& state) {
    Settings s;
    s.source = InputSource::Text;
    QString text;
    while (text.size() < 5100)
        text += QStringLiteral("Attention lets every token look back at the tokens before it. ");
    s.text = text;
    s.config.dIn = s.config.dOut = 768;
    s.config.heads = 12;
    MainWindow w(benchOptions());
    w.resize(1366, 740);
    w.show();
    w.dock(QStringLiteral("tokenDock"))->raise();
    Workspace& ws = *w.workspace();
    ws.reset({s, {}});
    if (!waitApplied(ws, 120000)) {
        state.SkipWithError("first result never arrived");
        return;
    }
    QPlainTextEdit* edit = w.inputPanel()->textEdit();
    edit->setFocus();
    edit->moveCursor(QTextCursor::End);
    for (auto _ : state) {
        double maxTyping = 0, maxApply = 0;
        QElapsedTimer tick;
        tick.start();
        bool typing = true;
        QTimer probe;
        probe.setInterval(5);
        QObject::connect(&probe, &QTimer::timeout, [&] {
            const double gap = double(tick.nsecsElapsed()) / 1e6;
            tick.restart();
            (typing ? maxTyping : maxApply) = std::max(typing ? maxTyping : maxApply, gap);
        });
        probe.start();
        for (int i = 0; i < 30; ++i) {
            typeChar(edit, QChar(u'a' + i % 26));
            QEventLoop loop;
            QTimer::singleShot(60, &loop, &QEventLoop::quit);
            loop.exec();
        }
        QElapsedTimer fin;
        fin.start();
        typing = false;
        tick.restart();
        if (!waitApplied(ws, 120000)) {
            state.SkipWithError("no final result");
            return;
        }
        const double finalMs = double(fin.nsecsElapsed()) / 1e6;
        QCoreApplication::processEvents();
        probe.stop();
        state.counters["max_stall_typing_ms"] = maxTyping;
        state.counters["max_stall_apply_ms"] = maxApply;
        state.counters["final_ms"] = finalMs;
        state.counters["tokens"] = double(ws.shownRun()->trace->tokens);
    }
}

// Waits until every view has drawn the newest result (model mode: the overview's tiles, the
// head scores and the predictions too).
bool waitSettled(MainWindow& w, int timeoutMs = 60000) {
    if (!waitApplied(*w.workspace(), timeoutMs))
        return false;
    QElapsedTimer t;
    t.start();
    while (!w.isSettled()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// The random models: GPT-2 small's sizes (a file), SmolLM2-135M's (a llama folder; no
// tokenizer.json, so it reads GPT-2's tokens) and Qwen3-0.6B's (BF16, with Qwen3's tokenizer).
QString gpt2Small() {
    return QString::fromStdString(attn::bench::randomModelFile());
}
QString smolLm2() {
    return QString::fromStdString(
        attn::bench::randomFamilyFolder("attn_smollm2_random", attn::bench::kSmolLm2));
}
QString qwen3Bf16() {
    return QString::fromStdString(attn::bench::randomFamilyFolder(
        "attn_qwen3_random", attn::bench::kQwen3, ATTN_QWEN3_TOKENIZER));
}

// Opens the model at `path` in the window and sets its text (not undoable typing: the model's
// first forward).
bool openModelWithText(MainWindow& w, const QString& path, const QString& text) {
    Workspace& ws = *w.workspace();
    ws.openModel(path);
    QElapsedTimer t;
    t.start();
    while (ws.isLoadingModel() && t.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    if (!ws.model())
        return false;
    Settings s = ws.settings();
    s.source = InputSource::Text;
    s.text = text;
    ws.change(s, QStringLiteral("bench"));
    return waitSettled(w, 120000);
}

// Model mode, T <= 64: a key in the sentence field until the step view, the overview, the head
// scores and the predictions have all been redrawn; a 5 ms timer measures the longest the GUI
// thread is ever blocked meanwhile (max_stall_ms).
void modelKeystrokes(benchmark::State& state, const QString& model) {
    const QString initial = QStringLiteral(
        "The quick brown fox jumps over the lazy dog while the students watch every step of "
        "attention on the projector");
    MainWindow w(benchOptions());
    w.resize(1366, 740);
    w.show();
    if (!openModelWithText(w, model, initial)) {
        state.SkipWithError("the model never loaded");
        return;
    }
    Workspace& ws = *w.workspace();
    QPlainTextEdit* edit = w.inputPanel()->textEdit();
    edit->setFocus();
    edit->moveCursor(QTextCursor::End);
    const QString alphabet = QStringLiteral("abcdefghij klmnopqrst uvwxyz ");
    std::vector<double> ms;
    double maxStall = 0;
    QElapsedTimer tick;
    QTimer probe;
    probe.setInterval(5);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        maxStall = std::max(maxStall, double(tick.nsecsElapsed()) / 1e6);
        tick.restart();
    });
    int k = 0;
    for (auto _ : state) {
        if (ws.shownRun() && ws.shownRun()->trace->tokens >= 64) {
            state.PauseTiming();
            probe.stop();
            edit->setPlainText(initial);
            edit->moveCursor(QTextCursor::End);
            waitSettled(w);
            state.ResumeTiming();
        }
        tick.start();
        probe.start();
        QElapsedTimer t;
        t.start();
        typeChar(edit, alphabet[k++ % alphabet.size()]);
        if (!waitSettled(w)) {
            state.SkipWithError("no result within 60 s");
            return;
        }
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
        probe.stop();
    }
    std::sort(ms.begin(), ms.end());
    state.counters["median_ms"] = ms[ms.size() / 2];
    state.counters["p90_ms"] = ms[std::min(ms.size() - 1, ms.size() * 9 / 10)];
    state.counters["max_ms"] = ms.back();
    state.counters["max_stall_ms"] = maxStall;
}

void BM_ModelKeystrokeGpt2Small(benchmark::State& state) {
    modelKeystrokes(state, gpt2Small());
}
void BM_ModelKeystrokeSmolLm2(benchmark::State& state) {
    modelKeystrokes(state, smolLm2());
}

// Opening a Qwen3-0.6B-size BF16 folder until its first view is on screen (the model read, the
// text's forward done and every view drawn; its hash comes after).
void BM_ModelOpenQwen3Bf16(benchmark::State& state) {
    const QString model = qwen3Bf16();
    for (auto _ : state) {
        MainWindow w(benchOptions());
        w.resize(1366, 740);
        w.show();
        QElapsedTimer t;
        t.start();
        if (!openModelWithText(w, model, QStringLiteral("The animal didn't cross the street"))) {
            state.SkipWithError("the model never loaded");
            return;
        }
        state.counters["first_view_ms"] = double(t.nsecsElapsed()) / 1e6;
    }
}

// Model mode at T = 1024: how soon the overview shows its first layer and all of them after a
// change (it fills in layer by layer), and how long Cancel takes to stop a forward that has
// begun (cancel_ms: from Workspace::cancel to the worker being idle).
void modelOverviewT1024(benchmark::State& state, const QString& model) {
    QString text;
    while (text.size() < 4600)
        text += QStringLiteral("Attention lets every token look back at the tokens before it. ");
    MainWindow w(benchOptions());
    w.resize(1366, 740);
    w.show();
    w.showPage(QStringLiteral("overview"));
    if (!openModelWithText(w, model, text)) {
        state.SkipWithError("the model never loaded");
        return;
    }
    Workspace& ws = *w.workspace();
    for (auto _ : state) {
        double firstMs = -1, allMs = -1;
        int layers = 0;
        QElapsedTimer t;
        const auto c =
            QObject::connect(&ws, &Workspace::layerComputed, [&](const attn::LayerUpdate& u) {
                ++layers;
                if (firstMs < 0)
                    firstMs = double(t.nsecsElapsed()) / 1e6;
                if (u.layer + 1 == u.layers)
                    allMs = double(t.nsecsElapsed()) / 1e6;
            });
        Settings s = ws.settings();
        s.text += QStringLiteral(" Again");
        t.start();
        ws.change(s, QStringLiteral("bench"));
        if (!waitSettled(w, 120000)) {
            state.SkipWithError("no result");
            return;
        }
        // Cancel a forward as soon as its first layer is on screen.
        layers = 0;
        s.text += QStringLiteral(" And");
        ws.change(s, QStringLiteral("bench"));
        QElapsedTimer wait;
        wait.start();
        while (layers == 0 && wait.elapsed() < 60000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
        QObject::disconnect(c);
        QElapsedTimer cancel;
        cancel.start();
        ws.cancel();
        while (ws.isBusy() && cancel.elapsed() < 10000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
        state.counters["first_layer_ms"] = firstMs;
        state.counters["all_layers_ms"] = allMs;
        state.counters["cancel_ms"] = double(cancel.nsecsElapsed()) / 1e6;
        state.counters["tokens"] = double(ws.tokens().labels.size());
    }
}

void BM_ModelOverviewT1024(benchmark::State& state) {
    modelOverviewT1024(state, gpt2Small());
}
void BM_ModelOverviewQwen3Bf16T1024(benchmark::State& state) {
    modelOverviewT1024(state, qwen3Bf16());
}

}  // namespace

BENCHMARK(BM_ModelKeystrokeGpt2Small)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(30);
BENCHMARK(BM_ModelOverviewT1024)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_ModelKeystrokeSmolLm2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(30);
BENCHMARK(BM_ModelOpenQwen3Bf16)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_ModelOverviewQwen3Bf16T1024)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK(BM_Typing1000TokensGpt2Small)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_KeystrokeBook)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(60);
BENCHMARK(BM_KeystrokeGpt2Small)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(40);

int main(int argc, char** argv) {
    return attn::bench::runQtBenchmarks(argc, argv);
}

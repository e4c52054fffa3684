#!/usr/bin/env bash
# The threading tests under ThreadSanitizer: the engine's shared caches and cancellation from
# several threads, the tokenizer's shared vocabulary and piece cache, LatestJob (the one way the
# app runs background work) on the shared pool and on a thread of its own, and the app's trace
# controller with its worker thread (the hand-over through Qt's event queue, whose locks TSan
# cannot see in Debian's Qt, is annotated in src/app/thread_inbox.cpp).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTN_SANITIZE=thread \
    -DATTN_BUILD_GUI=ON -DATTN_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan --target engine_tests tokenizer_tests latest_job_tests controller_tests
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan.supp"
build-tsan/tests/engine/engine_tests --gtest_filter='Concurrency.*:TraceStructure.Cancel*'
build-tsan/tests/tokenizer/tokenizer_tests --gtest_filter='*ManyThreads*'
build-tsan/tests/pipeline/latest_job_tests
QT_QPA_PLATFORM=offscreen build-tsan/tests/app/controller_tests

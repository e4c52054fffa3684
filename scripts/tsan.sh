#!/usr/bin/env bash
# The threading tests under ThreadSanitizer: the engine's shared caches and cancellation from
# several threads, and the tokenizer's shared vocabulary and piece cache. (The app's controller
# runs on Qt's QThread, whose uninstrumented locks ThreadSanitizer cannot see through.)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTN_SANITIZE=thread \
    -DATTN_BUILD_GUI=OFF -DATTN_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan --target engine_tests tokenizer_tests
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
build-tsan/tests/engine/engine_tests --gtest_filter='Concurrency.*:TraceStructure.Cancel*'
build-tsan/tests/tokenizer/tokenizer_tests --gtest_filter='*ManyThreads*'

#!/usr/bin/env bash
# Installs what is missing, builds, runs the whole test suite, and checks what installing gives
# (scripts/check-install.sh: desktop entry, metainfo, MIME type, icons, man pages, the .deb).
#   ./scripts/test.sh               the Release build and every test
#   ./scripts/test.sh --sanitizers  then the same suite under AddressSanitizer + UBSan, and the
#                                   threading tests under ThreadSanitizer (CI does this: CI=true)
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizers=0
if [[ ${CI:-} == true || ${1:-} == --sanitizers ]]; then
    sanitizers=1
fi

./scripts/install-deps.sh
./scripts/build.sh
# Llama 3's and Gemma 3's tokenizer.json, which the tokenizer tests compare with Hugging Face.
./scripts/fetch-tokenizers.sh
export ATTN_REQUIRE_TOKENIZERS=1
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure -j "$(nproc)"
echo "== Installed files and the Debian package =="
./scripts/check-install.sh build

if ((sanitizers)); then
    echo "== ThreadSanitizer: the threading tests =="
    ./scripts/tsan.sh
    echo "== AddressSanitizer + UndefinedBehaviorSanitizer: the whole suite =="
    cmake --preset asan >/dev/null
    cmake --build --preset asan
    # Qt's own libraries are not instrumented; leak reports from them are not ours.
    export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)"
fi

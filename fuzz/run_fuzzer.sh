#!/bin/sh
# Runs one fuzz target: fuzz/run_fuzzer.sh <target> [seconds] [build dir]
# New inputs go to <build>/corpus/<target> (the committed seeds in fuzz/corpus/<target> are
# only read), crashes to <build>/artifacts/<target>/, the log to <build>/logs/<target>.log.
# Fork mode with -ignore_crashes: a crash is saved and reported in the log, and fuzzing goes
# on for the whole time (so one known bug does not stop the search for others).
set -eu
target=$1
secs=${2:-600}
here=$(cd "$(dirname "$0")" && pwd)
build=${3:-$here/../build-fuzz}
mkdir -p "$build/corpus/$target" "$build/artifacts/$target" "$build/logs"
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
exec "$build/$target" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
    -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$target/" \
    "$build/corpus/$target" "$here/corpus/$target" >"$build/logs/$target.log" 2>&1

#!/usr/bin/env bash
# Times the chapter's PyTorch MultiHeadAttention forward (d_in = d_out = 768, 12 heads, b = 1) and
# our full trace (every step kept) at T = 64, 128, 256, 512, 1024 on this machine, and prints
# ours/theirs. Needs Debian's python3-torch with libopenblas0-openmp (a real BLAS); both use 2
# threads. BUILD_DIR=build-m bench/compare_pytorch.sh builds and uses another build tree.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
    echo "Installing python3-torch and libopenblas0-openmp (for this comparison only)..."
    sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-torch libopenblas0-openmp
fi
build=${BUILD_DIR:-build}
if [[ $build == build ]]; then ./scripts/build.sh >/dev/null; else cmake --build "$build" --target engine_bench >/dev/null; fi
# Older OpenBLAS builds need OPENBLAS_CORETYPE on some CPUs; it slows current ones, so drop it here.
theirs=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=2 /usr/bin/python3 bench/compare_pytorch.py 64 128 256 512 1024)
ours=$(OMP_NUM_THREADS=2 "$build/bench/engine_bench" --benchmark_filter=BM_MultiHeadTrace --benchmark_format=json \
       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>/dev/null)
/usr/bin/python3 - "$theirs" "$ours" <<'PY'
import json, sys
theirs = json.loads(sys.argv[1])
ours = json.loads(sys.argv[2])
med = {}
for b in ours["benchmarks"]:
    if b.get("aggregate_name") == "median":
        T = b["run_name"].split("/")[1]
        med[T] = b["real_time"]
print(f"PyTorch {theirs['torch']} forward ({theirs['threads']} threads) vs Attention Lens full trace")
print(f"{'T':>6} {'PyTorch ms':>12} {'ours ms':>10} {'ours/theirs':>12}")
for T, t in theirs["median_ms"].items():
    o = med.get(T)
    print(f"{T:>6} {t:12.2f} {o:10.2f} {o / t:12.2f}")
PY

#!/usr/bin/env bash
# Times the chapter's PyTorch MultiHeadAttention forward (d_in = d_out = 768, 12 heads, b = 1) and
# our full trace (every step kept) at T = 64, 128, 256, 512, 1024 on this machine, and prints
# ours/theirs (size by size, alternating, ROUNDS rounds). MODULE=rotary times Qwen3's attention
# at Qwen3-0.6B's sizes instead (d_in 1,024, 16 heads, 8 key/value groups of 128, QK-norm) against
# BM_RotaryTrace. Needs Debian's python3-torch with libopenblas0-openmp (a real BLAS); both use
# 2 threads. BUILD_DIR=build-m bench/compare_pytorch.sh builds and uses another build tree.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
    echo "Installing python3-torch and libopenblas0-openmp (for this comparison only)..."
    sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-torch libopenblas0-openmp
fi
build=${BUILD_DIR:-build}
if [[ $build == build ]]; then ./scripts/build.sh >/dev/null; else cmake --build "$build" --target engine_bench >/dev/null; fi
# The machine's speed drifts (a virtual machine whose host takes CPU time of its own), so the two
# sides run alternately, size by size, ROUNDS times (default 3): each ratio compares two runs a
# few seconds apart, and the median of the rounds' ratios is the figure to quote.
rounds=${ROUNDS:-3}
case ${MODULE:-multi-head} in
    multi-head) script=bench/compare_pytorch.py; bench=BM_MultiHeadTrace; what="MultiHeadAttention" ;;
    rotary) script=bench/compare_pytorch_rotary.py; bench=BM_RotaryTrace; what="Qwen3's GroupedQueryAttention" ;;
    *) echo "MODULE is multi-head or rotary" >&2; exit 2 ;;
esac
results=()
for ((i = 0; i < rounds; ++i)); do
    for T in 64 128 256 512 1024; do
        # Older OpenBLAS builds need OPENBLAS_CORETYPE on some CPUs; it slows current ones.
        theirs=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=2 /usr/bin/python3 "$script" "$T")
        ours=$(OMP_NUM_THREADS=2 "$build/bench/engine_bench" --benchmark_filter="$bench/$T/" \
               --benchmark_format=json --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>/dev/null)
        results+=("$i" "$theirs" "$ours")
    done
done
/usr/bin/python3 - "$what" "${results[@]}" <<'PY'
import json, statistics, sys
what = sys.argv[1]
args = sys.argv[2:]
ratios = {}
rows = {}
for k in range(0, len(args), 3):
    r, theirs, ours = int(args[k]), json.loads(args[k + 1]), json.loads(args[k + 2])
    for b in ours["benchmarks"]:
        if b.get("aggregate_name") == "median":
            T = b["run_name"].split("/")[1]
            t = theirs["median_ms"][T]
            ratios.setdefault(T, []).append(b["real_time"] / t)
            rows.setdefault(r, []).append((T, t, b["real_time"]))
torch_version = json.loads(args[1])["torch"]
for r, lines in rows.items():
    print(f"round {r + 1}: PyTorch {torch_version} {what} forward (2 threads) vs Attention Lens full trace")
    print(f"{'T':>6} {'PyTorch ms':>12} {'ours ms':>10} {'ours/theirs':>12}")
    for T, t, o in lines:
        print(f"{T:>6} {t:12.2f} {o:10.2f} {o / t:12.2f}")
print("median of the rounds' ratios: " +
      ", ".join(f"T = {T}: {statistics.median(v):.2f}" for T, v in ratios.items()))
PY

#!/usr/bin/env bash
# Times the forward of a SmolLM2-135M-size llama model (30 layers, d 576, 9 heads sharing 3
# key/value heads, intermediate 1,536, vocabulary 49,152; random float32 weights) in PyTorch (the
# book's Llama 3 classes, keeping every layer's attention weights) and in Attention Lens
# (family_bench's BM_SmolForward) at T = 64 and 1,024 on this machine, one after the other, and
# prints ours/theirs; then the Qwen3-0.6B-size bfloat16 folder's load time and the peak memory of
# one T = 256 forward in a fresh process. Both use 2 threads; PyTorch uses Debian's OpenBLAS.
#   BUILD_DIR=build-m bench/compare_pytorch_llama.sh   (default: build, made by scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
    echo "Installing python3-torch and libopenblas0-openmp (for this comparison only)..."
    sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-torch libopenblas0-openmp
fi
cmake --build "$build" --target family_bench >/dev/null
ours=$(OMP_NUM_THREADS=2 "$build/bench/family_bench" --benchmark_filter='BM_SmolForward/' --benchmark_format=json \
       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>/dev/null)
theirs=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=2 /usr/bin/python3 bench/compare_pytorch_llama.py 64 1024)
load=$(OMP_NUM_THREADS=2 "$build/bench/family_bench" --benchmark_filter=BM_Qwen3Load --benchmark_format=json 2>/dev/null)
rss=$(OMP_NUM_THREADS=2 "$build/bench/family_bench" --benchmark_filter=BM_Qwen3PeakRss --benchmark_format=json 2>/dev/null)
/usr/bin/python3 - "$theirs" "$ours" "$load" "$rss" <<'PY'
import json, sys
theirs = json.loads(sys.argv[1])
ours = json.loads(sys.argv[2])
load = json.loads(sys.argv[3])["benchmarks"][0]
rss = json.loads(sys.argv[4])["benchmarks"][0]
med = {}
for b in ours["benchmarks"]:
    if b.get("aggregate_name") == "median":
        med[b["run_name"].split("/")[1]] = b["real_time"]
print(f"PyTorch {theirs['torch']} ({theirs['threads']} threads) vs Attention Lens, SmolLM2-135M-size llama forward keeping attention")
print(f"{'T':>6} {'PyTorch ms':>11} {'ours ms':>9} {'ours/theirs':>12} {'PyTorch all-T logits ms':>24}")
for T, t in theirs["median_ms"].items():
    o = med.get(T)
    print(f"{T:>6} {t:11.1f} {o:9.1f} {o / t:12.2f} {theirs['median_ms_all_logits'][T]:24.1f}")
print(f"Qwen3-0.6B-size BF16 folder: load {load['real_time']:.0f} ms ({load['file_MB']:.0f} MB); "
      f"peak RSS of one T = 256 forward: {rss['peak_RSS_MB']:.0f} MB")
PY

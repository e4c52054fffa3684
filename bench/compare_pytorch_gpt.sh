#!/usr/bin/env bash
# Times the forward of a GPT-2-small-sized model (12 layers, d 768, 12 heads, vocabulary 50,257;
# random float32 weights written by gpt_bench) in PyTorch (the book's GPTModel, keeping every
# layer's attention weights) and in Attention Lens (gpt_bench's BM_GptForward) at T = 64, 256,
# 1024 on this machine, one after the other, and prints ours/theirs. Then the peak memory of one
# T = 1,024 forward in a fresh process. Both use 2 threads; PyTorch uses Debian's OpenBLAS.
#   BUILD_DIR=build-m bench/compare_pytorch_gpt.sh   (default: build, made by scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
if ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
    echo "Installing python3-torch and libopenblas0-openmp (for this comparison only)..."
    sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-torch libopenblas0-openmp
fi
if [[ $build == build ]]; then ./scripts/build.sh >/dev/null; else cmake --build "$build" --target gpt_bench >/dev/null; fi
model=${ATTN_BENCH_MODEL:-/tmp/attn_gpt2_small_random.safetensors}
export ATTN_BENCH_MODEL=$model
# The first gpt_bench run writes the model file when it is missing.
OMP_NUM_THREADS=2 "$build/bench/gpt_bench" --benchmark_filter=BM_GptLoad >/dev/null 2>&1
ours=$(OMP_NUM_THREADS=2 "$build/bench/gpt_bench" --benchmark_filter='BM_GptForward/' --benchmark_format=json \
       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>/dev/null)
# Older OpenBLAS builds need OPENBLAS_CORETYPE on some CPUs; it slows current ones, so drop it here.
theirs=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=2 /usr/bin/python3 bench/compare_pytorch_gpt.py "$model" 64 256 1024)
rss=$(OMP_NUM_THREADS=2 "$build/bench/gpt_bench" --benchmark_filter=BM_GptPeakRss --benchmark_format=json 2>/dev/null)
/usr/bin/python3 - "$theirs" "$ours" "$rss" <<'PY'
import json, sys
theirs = json.loads(sys.argv[1])
ours = json.loads(sys.argv[2])
rss = json.loads(sys.argv[3])["benchmarks"][0]
med = {}
for b in ours["benchmarks"]:
    if b.get("aggregate_name") == "median":
        med[b["run_name"].split("/")[1]] = b["real_time"]
print(f"PyTorch {theirs['torch']} ({theirs['threads']} threads) vs Attention Lens, GPT-2 small forward keeping attention")
print(f"{'T':>6} {'PyTorch ms':>11} {'ours ms':>9} {'ours/theirs':>12} {'PyTorch all-T logits ms':>24}")
for T, t in theirs["median_ms"].items():
    o = med.get(T)
    print(f"{T:>6} {t:11.1f} {o:9.1f} {o / t:12.2f} {theirs['median_ms_all_logits'][T]:24.1f}")
print(f"peak RSS of one T = 1024 forward: {rss['peak_RSS_MB']:.0f} MB (weights file {rss['weights_MB']:.0f} MB)")
PY

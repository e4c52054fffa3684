"""Times the book's Llama 3 forward in PyTorch (CPU, float32, eval mode, no_grad; the classes of
tests/fixtures/make_family_fixtures.py, which follow pkg/llms_from_scratch/llama3.py) at
SmolLM2-135M's sizes with random weights, keeping every layer's attention weights as Attention
Lens does, and prints JSON {"torch", "threads", "median_ms": {T: ms},
"median_ms_all_logits": {T: ms}}. Used by compare_pytorch_llama.sh.

"median_ms" is the work of family_bench's BM_SmolForward: embeddings, every block (each
attention module keeps its weights), the final norm, and the output head for the last position.
"median_ms_all_logits" multiplies every position by the output head, as Llama3Model.forward
does (for reference). RoPE's tables and the causal mask are made once, as the book's model
registers them as buffers.

Usage: compare_pytorch_llama.py T...
"""
import json
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "fixtures"))
import make_family_fixtures as fam  # noqa: E402  the book's Llama 3 / Qwen3 / Gemma 3 classes

SMOLLM2 = {"family": "llama", "d": 576, "heads": 9, "kv": 3, "hd": 64, "ff": 1536,
           "vocab": 49152, "ctx": 8192, "eps": 1e-5, "rope_base": 100000.0,
           "rope_local_base": 100000.0, "qk_norm": False, "qkv_bias": False, "tied": True,
           "windows": [0] * 30}


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [64, 1024]
    torch.set_num_threads(2)
    torch.manual_seed(123)
    model = fam.Model(SMOLLM2).eval()
    cos, sin = fam.compute_rope_params(SMOLLM2["hd"], SMOLLM2["rope_base"], SMOLLM2["ctx"])
    mask = torch.triu(torch.ones(max(sizes), max(sizes), dtype=torch.bool), diagonal=1)

    def blocks(idx):
        T = idx.shape[1]
        x = model.tok_emb(idx)
        for block in model.blocks:
            x = block(x, mask[:T, :T], cos, sin)
        return model.final_norm(x), [b.att.last_weights for b in model.blocks]

    def forward_last(idx):
        x, kept = blocks(idx)
        return model.out_head(x[:, -1, :]), kept

    def forward_all(idx):
        x, kept = blocks(idx)
        return model.out_head(x), kept

    out = {"torch": torch.__version__, "threads": torch.get_num_threads(), "median_ms": {},
           "median_ms_all_logits": {}}
    with torch.no_grad():
        for T in sizes:
            idx = torch.tensor([[(i * 7919 + 13) % SMOLLM2["vocab"] for i in range(T)]])
            for key, fn in (("median_ms", forward_last), ("median_ms_all_logits", forward_all)):
                result = fn(idx)  # warm-up
                times = []
                for _ in range(10 if T <= 256 else 5):
                    del result
                    t0 = time.perf_counter()
                    result = fn(idx)
                    times.append((time.perf_counter() - t0) * 1000.0)
                out[key][str(T)] = statistics.median(times)
    print(json.dumps(out))


if __name__ == "__main__":
    main()

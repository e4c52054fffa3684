"""Times the book's chapter-4 GPTModel forward in PyTorch (CPU, float32, eval mode, no_grad) on
the model file gpt_bench uses, keeping every layer's attention weights as Attention Lens does, and
prints JSON {"torch", "threads", "median_ms": {T: ms}, "median_ms_all_logits": {T: ms}}.
Used by compare_pytorch_gpt.sh.

"median_ms" is the same work as gpt_bench's BM_GptForward: embeddings, every block (attention
weights kept in a list), the final norm, and the output head for the last position only (next-
token probabilities). "median_ms_all_logits" is GPTModel.forward as the book writes it, which
multiplies every position by the output head (for reference; Attention Lens computes logits only
for the position asked for).

Usage: compare_pytorch_gpt.py MODEL.safetensors T...
"""
import json
import os
import statistics
import struct
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "fixtures"))
import make_model_fixtures as ch4  # noqa: E402  the book's GPTModel (chapter 4)


class KeepSoftmax:
    """torch.softmax that also keeps what it returns. The book's forward keeps nothing; in this
    model softmax runs only in attention, so this keeps every layer's attention weights (what a
    visualisation needs) without changing the book's code."""

    def __init__(self):
        self.original = torch.softmax
        self.kept = []

    def __call__(self, *args, **kwargs):
        w = self.original(*args, **kwargs)
        self.kept.append(w)
        return w


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + n)
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        begin, end = e["data_offsets"]
        out[name] = torch.from_numpy(np.frombuffer(data[begin:end], dtype="<f4")
                                     .reshape(e["shape"]).copy())
    return out, header.get("__metadata__", {})


def weights_from_hf(sd):
    """Hugging Face GPT-2 names (Conv1D, x @ W) -> the canonical nn.Linear layout."""
    d = sd["wte.weight"].shape[1]
    layers = 1 + max(int(k.split(".")[1]) for k in sd if k.startswith("h."))
    w = {"tok": sd["wte.weight"], "pos": sd["wpe.weight"], "final_scale": sd["ln_f.weight"],
         "final_shift": sd["ln_f.bias"], "head": sd.get("lm_head.weight"), "blocks": []}
    for i in range(layers):
        p = f"h.{i}."
        qkv = sd[p + "attn.c_attn.weight"]
        bias = sd[p + "attn.c_attn.bias"]
        w["blocks"].append({
            "n1_scale": sd[p + "ln_1.weight"], "n1_shift": sd[p + "ln_1.bias"],
            "Wq": qkv[:, :d].T, "Wk": qkv[:, d:2 * d].T, "Wv": qkv[:, 2 * d:].T,
            "bq": bias[:d], "bk": bias[d:2 * d], "bv": bias[2 * d:],
            "Wo": sd[p + "attn.c_proj.weight"].T, "bo": sd[p + "attn.c_proj.bias"],
            "n2_scale": sd[p + "ln_2.weight"], "n2_shift": sd[p + "ln_2.bias"],
            "W1": sd[p + "mlp.c_fc.weight"].T, "b1": sd[p + "mlp.c_fc.bias"],
            "W2": sd[p + "mlp.c_proj.weight"].T, "b2": sd[p + "mlp.c_proj.bias"]})
    return w


def main():
    path = sys.argv[1]
    sizes = [int(a) for a in sys.argv[2:]] or [64, 256, 1024]
    torch.set_num_threads(2)
    sd, meta = read_safetensors(path)
    heads = int(meta.get("heads", sd["wte.weight"].shape[1] // 64))
    ctx = sd["wpe.weight"].shape[0]
    model = ch4.book_module(weights_from_hf(sd), heads, ctx, qkv_bias=True)
    del sd
    vocab = model.tok_emb.weight.shape[0]

    keep = KeepSoftmax()
    torch.softmax = keep

    def forward_last(idx):
        keep.kept = []
        T = idx.shape[1]
        x = model.tok_emb(idx) + model.pos_emb(torch.arange(T))
        x = model.trf_blocks(x)
        x = model.final_norm(x)
        logits = model.out_head(x[:, -1, :])
        return logits, keep.kept

    def forward_all(idx):
        keep.kept = []
        return model(idx), keep.kept

    out = {"torch": torch.__version__, "threads": torch.get_num_threads(), "median_ms": {},
           "median_ms_all_logits": {}}
    with torch.no_grad():
        for T in sizes:
            idx = torch.tensor([[(i * 7919 + 13) % vocab for i in range(T)]])
            for key, fn in (("median_ms", forward_last), ("median_ms_all_logits", forward_all)):
                result = fn(idx)  # warm-up
                times = []
                repeat = 10 if T <= 256 else 5
                for _ in range(repeat):
                    del result
                    t0 = time.perf_counter()
                    result = fn(idx)
                    times.append((time.perf_counter() - t0) * 1000.0)
                out[key][str(T)] = statistics.median(times)
                del result
    print(json.dumps(out))


if __name__ == "__main__":
    main()

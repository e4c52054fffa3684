"""Times the chapter's MultiHeadAttention forward in PyTorch (CPU, float32) for the sizes of
engine_bench.cpp and prints JSON: {"T": median_ms, ...}. Used by compare_pytorch.sh."""
import json
import statistics
import sys
import time

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):  # chapter 3, listing 3.5
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1] ** 0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [64, 256, 1024]
    torch.set_num_threads(2)
    torch.manual_seed(123)
    mha = MultiHeadAttention(768, 768, 1024, 0.0, 12)
    out = {}
    with torch.no_grad():
        for T in sizes:
            x = torch.rand(1, T, 768)
            for _ in range(3):
                mha(x)
            times = []
            repeat = 50 if T <= 256 else 15
            for _ in range(repeat):
                t0 = time.perf_counter()
                mha(x)
                times.append((time.perf_counter() - t0) * 1000.0)
            out[str(T)] = statistics.median(times)
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(),
                      "median_ms": out}))


if __name__ == "__main__":
    main()

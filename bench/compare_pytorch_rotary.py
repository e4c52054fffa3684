"""Times Qwen3's attention in PyTorch (CPU, float32) at Qwen3-0.6B's sizes (d_in 1,024, 16 query
heads, 8 key/value groups, head_dim 128, QK-norm, RoPE base 1,000,000, causal mask) and prints
JSON: {"T": median_ms, ...}. The class is pkg/llms_from_scratch/qwen3.py's GroupedQueryAttention
as the book builds it (written out here, float32, no KV cache); the mask, cos and sin are made
once outside the timed call, as Qwen3Model makes them once per forward. Used by
compare_pytorch.sh with MODULE=rotary."""
import json
import statistics
import sys
import time

import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, emb_dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(emb_dim))

    def forward(self, x):
        variance = x.pow(2).mean(dim=-1, keepdim=True)
        return x * torch.rsqrt(variance + self.eps) * self.scale


def compute_rope_params(head_dim, theta_base, context_length):
    inv_freq = 1.0 / (theta_base ** (torch.arange(0, head_dim, 2, dtype=torch.float32)[: head_dim // 2] / head_dim))
    positions = torch.arange(context_length, dtype=torch.float32)
    angles = positions[:, None] * inv_freq[None, :]
    angles = torch.cat([angles, angles], dim=1)
    return torch.cos(angles), torch.sin(angles)


def apply_rope(x, cos, sin):
    _, _, seq_len, head_dim = x.shape
    x1 = x[..., : head_dim // 2]
    x2 = x[..., head_dim // 2:]
    cos = cos[:seq_len, :].unsqueeze(0).unsqueeze(0)
    sin = sin[:seq_len, :].unsqueeze(0).unsqueeze(0)
    rotated = torch.cat((-x2, x1), dim=-1)
    return (x * cos) + (rotated * sin)


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_in, num_heads, num_kv_groups, head_dim, qk_norm):
        super().__init__()
        self.num_heads = num_heads
        self.num_kv_groups = num_kv_groups
        self.group_size = num_heads // num_kv_groups
        self.head_dim = head_dim
        self.d_out = num_heads * head_dim
        self.W_query = nn.Linear(d_in, self.d_out, bias=False)
        self.W_key = nn.Linear(d_in, num_kv_groups * head_dim, bias=False)
        self.W_value = nn.Linear(d_in, num_kv_groups * head_dim, bias=False)
        self.out_proj = nn.Linear(self.d_out, d_in, bias=False)
        self.q_norm = RMSNorm(head_dim) if qk_norm else None
        self.k_norm = RMSNorm(head_dim) if qk_norm else None

    def forward(self, x, mask, cos, sin):
        b, num_tokens, _ = x.shape
        queries = self.W_query(x)
        keys = self.W_key(x)
        values = self.W_value(x)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        keys = keys.view(b, num_tokens, self.num_kv_groups, self.head_dim).transpose(1, 2)
        values = values.view(b, num_tokens, self.num_kv_groups, self.head_dim).transpose(1, 2)
        if self.q_norm:
            queries = self.q_norm(queries)
        if self.k_norm:
            keys = self.k_norm(keys)
        queries = apply_rope(queries, cos, sin)
        keys = apply_rope(keys, cos, sin)
        keys = keys.repeat_interleave(self.group_size, dim=1)
        values = values.repeat_interleave(self.group_size, dim=1)
        attn_scores = queries @ keys.transpose(2, 3)
        attn_scores = attn_scores.masked_fill(mask, -torch.inf)
        attn_weights = torch.softmax(attn_scores / self.head_dim ** 0.5, dim=-1)
        context = (attn_weights @ values).transpose(1, 2).reshape(b, num_tokens, self.d_out)
        return self.out_proj(context)


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [64, 256, 1024]
    torch.set_num_threads(2)
    torch.manual_seed(123)
    att = GroupedQueryAttention(1024, 16, 8, 128, True)
    cos, sin = compute_rope_params(128, 1_000_000.0, 1024)
    out = {}
    with torch.no_grad():
        for T in sizes:
            x = torch.rand(1, T, 1024)
            mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
            for _ in range(3):
                att(x, mask, cos, sin)
            times = []
            repeat = 50 if T <= 256 else 15
            for _ in range(repeat):
                t0 = time.perf_counter()
                att(x, mask, cos, sin)
                times.append((time.perf_counter() - t0) * 1000.0)
            out[str(T)] = statistics.median(times)
    print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(),
                      "median_ms": out}))


if __name__ == "__main__":
    main()

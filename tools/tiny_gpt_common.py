"""Shared helpers for the bundled tiny-shakespeare model (training and checking).

Used by tools/train_bundled_model.py and tools/check_bundled_model.py; run both with Debian's
/usr/bin/python3 (PyTorch 1.13 from python3-torch, CPU only, no network).

Everything here works on the *shipped* form of the model: a dict of Hugging Face names to float32
tensors, GPT-2's (Conv1D weights used as `x @ W`) or Llama's (tiny-shakespeare-llama; nn.Linear
weights, `x @ W.T`). The forwards below are plain functions of that dict, so the numbers they give
depend on the file alone, not on the training code's nn.Modules. Where a function takes `arch`,
it is what the file does not say itself: for GPT-2 the number of heads (an int), for Llama the
folder's config.json (a dict).
"""

import json
import math
import os
import struct
import subprocess

import numpy as np
import torch

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CLI = os.path.join(REPO_ROOT, "build", "src", "cli", "attention-lens-cli")
DEFAULT_CORPUS = os.path.normpath(os.path.join(REPO_ROOT, "..", "shared", "corpus", "tinyshakespeare.txt"))
DEFAULT_MODEL = os.path.join(REPO_ROOT, "resources", "models", "tiny-shakespeare.safetensors")
DEFAULT_LLAMA_MODEL = os.path.join(REPO_ROOT, "resources", "models", "tiny-shakespeare-llama")
SONNET_PATH = os.path.join(REPO_ROOT, "tests", "fixtures", "text", "sonnet18.txt")
GPT2_VOCAB = 50257
LN_EPS = 1e-5

# The split of the token ids (not of the text): the last 10 % of the corpus's GPT-2 tokens, one
# contiguous block, is held out. Everything that reports a validation loss uses this function.
VAL_FRACTION_DENOMINATOR = 10


# ----------------------------------------------------------------------------------------------
# Tokenizing: always through the app's own CLI so the ids are exactly the app's (tiktoken's).
# ----------------------------------------------------------------------------------------------

def tokenize_file(cli, path):
    """GPT-2 ids of a UTF-8 file, from `attention-lens-cli tokenize --text-file`."""
    if not os.path.exists(cli):
        raise SystemExit(f"error: CLI not found at {cli}; build it (see docs/MODEL.md) or pass --cli")
    out = subprocess.run([cli, "tokenize", "--text-file", path], check=True, capture_output=True)
    return json.loads(out.stdout)["ids"]


def tokenize_text(cli, text):
    """GPT-2 ids and token strings of a text, from `attention-lens-cli tokenize --text`."""
    out = subprocess.run([cli, "tokenize", "--text", text], check=True, capture_output=True)
    d = json.loads(out.stdout)
    return d["ids"], d["tokens"]


def split_ids(ids):
    """(train, validation): validation is the last len // 10 ids, contiguous."""
    n_val = len(ids) // VAL_FRACTION_DENOMINATOR
    return ids[: len(ids) - n_val], ids[len(ids) - n_val:]


# ----------------------------------------------------------------------------------------------
# safetensors, by hand (no `safetensors` package on Debian 12).
# ----------------------------------------------------------------------------------------------

_DTYPES = {"F16": (np.float16, 2), "F32": (np.float32, 4), "BF16": (None, 2)}


def write_safetensors(path, tensors, metadata):
    """Write {name: np.ndarray (float16 or float32)} in the given order, with string metadata.

    Layout: u64 little-endian header length, JSON header padded with spaces to a multiple of 8,
    then the raw little-endian data of each tensor back to back.
    """
    header = {}
    offset = 0
    blobs = []
    for name, arr in tensors.items():
        arr = np.ascontiguousarray(arr)
        dtype = {np.dtype(np.float16): "F16", np.dtype(np.float32): "F32"}[arr.dtype]
        raw = arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()
        header[name] = {"dtype": dtype, "shape": list(arr.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items())
    header["__metadata__"] = metadata
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=True).encode("utf-8")
    text += b" " * (-len(text) % 8)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for raw in blobs:
            f.write(raw)
    os.replace(tmp, path)


def read_safetensors(path):
    """({name: float32 torch.Tensor}, metadata, {name: stored dtype}) of a safetensors file."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8: 8 + n].decode("utf-8"))
    metadata = header.pop("__metadata__", {})
    base = 8 + n
    tensors, dtypes = {}, {}
    for name, info in header.items():
        begin, end = info["data_offsets"]
        raw = data[base + begin: base + end]
        if info["dtype"] == "BF16":
            u16 = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
            arr = u16.view(np.float32)
        else:
            arr = np.frombuffer(raw, dtype=np.dtype(_DTYPES[info["dtype"]][0]).newbyteorder("<"))
        tensors[name] = torch.from_numpy(arr.astype(np.float32).reshape(info["shape"]).copy())
        dtypes[name] = info["dtype"]
    return tensors, metadata, dtypes


# ----------------------------------------------------------------------------------------------
# The plain functional forward of a GPT-2 checkpoint (HF names), float32, eval mode.
# This is the forward of SPEC section 8 and of the book's GPTModel with tied output head.
# ----------------------------------------------------------------------------------------------

def n_layers(w):
    if "model.embed_tokens.weight" in w:
        return 1 + max(int(k.split(".")[2]) for k in w if k.startswith("model.layers."))
    return 1 + max(int(k.split(".")[1]) for k in w if k.startswith("h."))


def layer_norm(x, weight, bias):
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, keepdim=True, unbiased=False)  # biased variance, as GPT-2 and the book
    return weight * (x - mean) / torch.sqrt(var + LN_EPS) + bias


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))


def ablate_heads(ctx, layer, hd, ablate, mode):
    """SPEC 10's ablation on one layer's context (B, T, H * hd), before the output projection:
    each (layer, head) in `ablate` gets 0 ("zero") or its mean over the positions ("mean")."""
    if not ablate:
        return ctx
    ctx = ctx.clone()
    for l, h in ablate:
        if l != layer:
            continue
        cols = slice(h * hd, (h + 1) * hd)
        if mode == "mean":
            ctx[:, :, cols] = ctx[:, :, cols].mean(dim=1, keepdim=True)
        else:
            ctx[:, :, cols] = 0.0
    return ctx


def forward(w, ids, arch, want_attention=False, logits_for=None, ablate=None, ablate_mode="zero",
            residuals=None):
    """ids: LongTensor (B, T). Returns (logits (B, T, V) or None, [attention (B, H, T, T)] per layer).

    arch: a GPT-2 file's number of heads, or a Llama folder's config.json (see llama_forward).
    logits_for: None for logits at every position, "none" to skip the (large) output layer.
    ablate: (layer, head) pairs switched off as ablate_mode says (ablate_heads).
    residuals: a list that gets the residual stream leaving each block, (B, T, d) each.
    """
    if isinstance(arch, dict):
        return llama_forward(w, ids, arch, want_attention, logits_for, ablate, ablate_mode, residuals)
    heads = arch
    B, T = ids.shape
    d = w["wte.weight"].shape[1]
    hd = d // heads
    x = w["wte.weight"][ids] + w["wpe.weight"][:T]
    causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    attentions = []
    for i in range(n_layers(w)):
        p = f"h.{i}."
        a = layer_norm(x, w[p + "ln_1.weight"], w[p + "ln_1.bias"])
        qkv = a @ w[p + "attn.c_attn.weight"] + w[p + "attn.c_attn.bias"]
        q, k, v = qkv.split(d, dim=-1)
        # (B, T, d) -> (B, H, T, hd): head h owns columns h*hd .. h*hd+hd-1, as in the book and HF.
        q, k, v = (t.view(B, T, heads, hd).transpose(1, 2) for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)).masked_fill(causal, float("-inf"))
        weights = torch.softmax(scores / math.sqrt(hd), dim=-1)
        if want_attention:
            attentions.append(weights)
        ctx = ablate_heads((weights @ v).transpose(1, 2).reshape(B, T, d), i, hd, ablate, ablate_mode)
        x = x + ctx @ w[p + "attn.c_proj.weight"] + w[p + "attn.c_proj.bias"]
        m = layer_norm(x, w[p + "ln_2.weight"], w[p + "ln_2.bias"])
        m = gelu_tanh(m @ w[p + "mlp.c_fc.weight"] + w[p + "mlp.c_fc.bias"])
        x = x + m @ w[p + "mlp.c_proj.weight"] + w[p + "mlp.c_proj.bias"]
        if residuals is not None:
            residuals.append(x)
    if logits_for == "none":
        return None, attentions
    h = layer_norm(x, w["ln_f.weight"], w["ln_f.bias"])
    head = w.get("lm_head.weight", w["wte.weight"])  # tied when there is no lm_head
    return h @ head.T, attentions


# ----------------------------------------------------------------------------------------------
# The plain functional forward of a Llama checkpoint (HF names, tiny-shakespeare-llama), float32:
# Hugging Face's LlamaForCausalLM and the book's Llama3Model (tools/tiny_llama_model.py), which
# tools/check_bundled_model.py compares with this and with the app.
# ----------------------------------------------------------------------------------------------

def rms_norm(x, weight, eps):
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps) * weight


def rope(x, theta):
    """x: (B, heads, T, hd); split halves (HF's rotate_half, the book's apply_rope)."""
    T, hd = x.shape[2], x.shape[3]
    inv_freq = 1.0 / (theta ** (torch.arange(0, hd, 2, dtype=torch.float32) / hd))
    angles = torch.arange(T, dtype=torch.float32)[:, None] * inv_freq[None, :]
    angles = torch.cat([angles, angles], dim=1)
    x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
    return x * torch.cos(angles) + torch.cat((-x2, x1), dim=-1) * torch.sin(angles)


def final_norm(w, x, arch):
    """The model's final norm (ln_f, or model.norm for a Llama): what the logit lens applies to
    each block's residual stream before the output head."""
    if isinstance(arch, dict):
        return rms_norm(x, w["model.norm.weight"], arch["rms_norm_eps"])
    return layer_norm(x, w["ln_f.weight"], w["ln_f.bias"])


def output_head(w):
    return w.get("lm_head.weight", w.get("wte.weight", w.get("model.embed_tokens.weight")))


def llama_forward(w, ids, config, want_attention=False, logits_for=None, ablate=None,
                  ablate_mode="zero", residuals=None):
    """The forward above for a Llama config.json (GQA, RoPE, RMSNorm, SwiGLU, no biases)."""
    B, T = ids.shape
    H, G = config["num_attention_heads"], config["num_key_value_heads"]
    hd, eps = config["head_dim"], config["rms_norm_eps"]
    x = w["model.embed_tokens.weight"][ids]
    causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    attentions = []
    for i in range(n_layers(w)):
        p = f"model.layers.{i}."
        a = rms_norm(x, w[p + "input_layernorm.weight"], eps)
        q = (a @ w[p + "self_attn.q_proj.weight"].T).view(B, T, H, hd).transpose(1, 2)
        k = (a @ w[p + "self_attn.k_proj.weight"].T).view(B, T, G, hd).transpose(1, 2)
        v = (a @ w[p + "self_attn.v_proj.weight"].T).view(B, T, G, hd).transpose(1, 2)
        q, k = rope(q, config["rope_theta"]), rope(k, config["rope_theta"])
        # Query head h reads key/value group h // (H / G): [K1, K1, K2, K2].
        k, v = k.repeat_interleave(H // G, dim=1), v.repeat_interleave(H // G, dim=1)
        scores = (q @ k.transpose(-2, -1)).masked_fill(causal, float("-inf"))
        weights = torch.softmax(scores / math.sqrt(hd), dim=-1)
        if want_attention:
            attentions.append(weights)
        ctx = ablate_heads((weights @ v).transpose(1, 2).reshape(B, T, H * hd), i, hd, ablate, ablate_mode)
        x = x + ctx @ w[p + "self_attn.o_proj.weight"].T
        m = rms_norm(x, w[p + "post_attention_layernorm.weight"], eps)
        gated = torch.nn.functional.silu(m @ w[p + "mlp.gate_proj.weight"].T) * (m @ w[p + "mlp.up_proj.weight"].T)
        x = x + gated @ w[p + "mlp.down_proj.weight"].T
        if residuals is not None:
            residuals.append(x)
    if logits_for == "none":
        return None, attentions
    h = rms_norm(x, w["model.norm.weight"], eps)
    head = w.get("lm_head.weight", w["model.embed_tokens.weight"])  # tied when there is none
    return h @ head.T, attentions


def read_model(path):
    """(weights, metadata, dtypes, arch, ctx, file) of a shipped model: a GPT-2 .safetensors
    (arch = the metadata's heads) or a Llama folder (arch = its config.json)."""
    if os.path.isdir(path):
        with open(os.path.join(path, "config.json"), encoding="utf-8") as f:
            config = json.load(f)
        file = os.path.join(path, "model.safetensors")
        w, meta, dtypes = read_safetensors(file)
        return w, meta, dtypes, config, config["max_position_embeddings"], file
    w, meta, dtypes = read_safetensors(path)
    return w, meta, dtypes, int(meta["heads"]), int(meta["context_length"]), path


def windows(ids, ctx):
    """Cut a token list into evaluation windows: inputs ids[s : s+L], targets ids[s+1 : s+L+1],
    s = 0, ctx, 2 ctx, ...; L = ctx except for the last, shorter window. Every id but the first is
    a target exactly once, predicted from the ids before it in its window (at least one of them)."""
    out = []
    for s in range(0, len(ids) - 1, ctx):
        L = min(ctx, len(ids) - 1 - s)
        out.append((ids[s: s + L], ids[s + 1: s + L + 1]))
    return out


@torch.no_grad()
def full_vocab_loss(w, ids, arch, ctx, batch=4):
    """Mean cross-entropy (nats per token) over the full 50,257-way softmax, windows as above."""
    total, count = 0.0, 0
    wins = windows(ids, ctx)
    # Full-length windows go through in batches; a shorter last one goes alone.
    for i in range(0, len(wins), batch):
        group = wins[i: i + batch]
        for same_len in ([g for g in group if len(g[0]) == ctx], [g for g in group if len(g[0]) != ctx]):
            if not same_len:
                continue
            x = torch.tensor([g[0] for g in same_len], dtype=torch.long)
            y = torch.tensor([g[1] for g in same_len], dtype=torch.long)
            logits, _ = forward(w, x, arch)
            total += torch.nn.functional.cross_entropy(
                logits.reshape(-1, logits.shape[-1]), y.reshape(-1), reduction="sum").item()
            count += y.numel()
    return total / count, count


# ----------------------------------------------------------------------------------------------
# Head scores.
# ----------------------------------------------------------------------------------------------

@torch.no_grad()
def previous_token_scores(w, ids, arch):
    """[layer][head]: mean attention weight from position i to i-1, over positions i >= 1."""
    _, att = forward(w, torch.tensor([ids], dtype=torch.long), arch, want_attention=True, logits_for="none")
    T = len(ids)
    idx = torch.arange(1, T)
    return [[a[0, h, idx, idx - 1].mean().item() for h in range(a.shape[1])] for a in att]


@torch.no_grad()
def attention_profile(w, ids, arch):
    """Two more per-head summaries over positions i >= 1 of one text, [layer][head] each: the mean
    weight on the first token (an "attention sink"), and the mean entropy of the row divided by the
    entropy of uniform attention over the i + 1 visible tokens (1 = uniform, 0 = one token)."""
    _, att = forward(w, torch.tensor([ids], dtype=torch.long), arch, want_attention=True, logits_for="none")
    T = len(ids)
    visible = torch.log(torch.arange(2, T + 1, dtype=torch.float32))  # log(i + 1), i = 1 .. T-1
    first, entropy = [], []
    for a in att:
        p = a[0, :, 1:, :]  # (H, T-1, T)
        ent = -(p * torch.log(p.clamp_min(1e-30))).sum(-1) / visible
        first.append([p[h, :, 0].mean().item() for h in range(p.shape[0])])
        entropy.append([ent[h].mean().item() for h in range(p.shape[0])])
    return first, entropy


def induction_sequences(vocab_ids, n, trials, seed):
    """`trials` sequences of n distinct random ids (from vocab_ids) repeated twice, fixed seed."""
    g = torch.Generator().manual_seed(seed)
    vocab = torch.tensor(sorted(vocab_ids), dtype=torch.long)
    seqs = []
    for _ in range(trials):
        first = vocab[torch.randperm(len(vocab), generator=g)[:n]]
        seqs.append(torch.cat([first, first]).tolist())
    return seqs


@torch.no_grad()
def induction_scores(w, arch, seqs, ablate=None, ablate_mode="zero", offset=1):
    """[layer][head]: for positions t in the second half (t = n + j), the mean attention weight on
    position j + 1, the token right after the previous occurrence of token t. Averaged over seqs.
    The first half's ids are distinct, so the previous occurrence is unique. With `ablate`, the
    same with those heads switched off (an induction head reads what a previous-token head
    wrote, so switching that one off should take the induction head's stripe away). `offset`
    other than 1 scores another stripe: 0 the earlier occurrence itself, 2 the token after next
    (for diagnosis)."""
    x = torch.tensor(seqs, dtype=torch.long)
    n = x.shape[1] // 2
    _, att = forward(w, x, arch, want_attention=True, logits_for="none", ablate=ablate, ablate_mode=ablate_mode)
    t = torch.arange(n, 2 * n)
    return [[a[:, h, t, t - n + offset].mean().item() for h in range(a.shape[1])] for a in att]


# ----------------------------------------------------------------------------------------------
# Count-based baselines on the same split, normalised over the full GPT-2 vocabulary.
# ----------------------------------------------------------------------------------------------

class UnigramBigram:
    """Unigram with add-alpha smoothing over all 50,257 ids, and an interpolated absolute-
    discounting bigram that backs off to it:

        p1(w)     = (c(w) + alpha) / (N + alpha * V)
        p2(w | v) = max(c(v, w) - D, 0) / c(v) + D * n(v) / c(v) * p1(w)    (c(v) > 0)
        p2(w | v) = p1(w)                                                    (c(v) = 0)

    with n(v) the number of distinct successors of v. Both sum to 1 over the full vocabulary.
    alpha and D are chosen on the training split only (fit on its first 90 %, scored on its last
    10 %), then the counts are refitted on the whole training split: the validation text is never
    used to pick them."""

    def __init__(self, train, alpha=None, discount=None):
        if alpha is None or discount is None:
            inner_fit, inner_held = split_ids(train)
            alphas = [0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0]
            discounts = [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]
            alpha = min(alphas, key=lambda a: UnigramBigram(inner_fit, a, 0.75).unigram_loss(inner_held))
            discount = min(discounts, key=lambda d: UnigramBigram(inner_fit, alpha, d).bigram_loss(inner_held))
        self.alpha, self.discount = alpha, discount
        t = np.asarray(train, dtype=np.int64)
        self.N = len(t)
        self.c1 = np.bincount(t, minlength=GPT2_VOCAB).astype(np.float64)
        self.p1 = (self.c1 + alpha) / (self.N + alpha * GPT2_VOCAB)
        # Bigram counts as a dict keyed by v * V + w (sparse: a dense V x V table would be 20 GB).
        keys, counts = np.unique(t[:-1] * GPT2_VOCAB + t[1:], return_counts=True)
        self.c2 = dict(zip(keys.tolist(), counts.tolist()))
        self.cv = np.bincount(t[:-1], minlength=GPT2_VOCAB).astype(np.float64)  # c(v) as a context
        self.nv = np.bincount(keys // GPT2_VOCAB, minlength=GPT2_VOCAB).astype(np.float64)

    def unigram_loss(self, ids):
        """Mean -log p1 over ids[1:] (the same targets as the bigram and the model)."""
        return float(-np.log(self.p1[np.asarray(ids[1:])]).mean())

    def bigram_prob(self, v, w):
        cv = self.cv[v]
        if cv == 0:
            return self.p1[w]
        c = self.c2.get(v * GPT2_VOCAB + w, 0)
        return max(c - self.discount, 0.0) / cv + self.discount * self.nv[v] / cv * self.p1[w]

    def bigram_loss(self, ids):
        return float(-np.mean([math.log(self.bigram_prob(v, w)) for v, w in zip(ids[:-1], ids[1:])]))

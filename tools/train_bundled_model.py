#!/usr/bin/python3
"""Train the small models that ship with Attention Lens: tiny-shakespeare (GPT-2), tiny-shakespeare-llama and tiny-circuit.

Run by hand, never in CI (about 52 minutes on one core of the 2-core machine for the GPT-2
model, 42 for the Llama one), with Debian's PyTorch and OpenBLAS (without libopenblas0-openmp,
torch falls back to the reference BLAS and every step is about 12 times slower):

    apt-get install -y python3-torch python3-numpy libopenblas0-openmp
    cmake --build build --target attention-lens-cli     # the tokenizer the app itself uses
    /usr/bin/python3 tools/train_bundled_model.py                  # GPT-2
    /usr/bin/python3 tools/train_bundled_model.py --family llama   # Llama
    # tiny-circuit (14 min; the whole command is in its metadata and tools/train_tiny_circuit.log):
    /usr/bin/python3 tools/train_bundled_model.py --layers 2 --name tiny-circuit \
        --init-from resources/models/tiny-shakespeare.safetensors --steps 1000 --lr 1.5e-3 \
        --min-lr 1.5e-4 --dropout 0 --attention-lr-mult 2 --common 500 --copy-rows 64 \
        --copy-length 32 --copy-long-rows 4 --eval-every 250 --log-every 50

`--family gpt2` (the default) writes resources/models/tiny-shakespeare.safetensors (Hugging Face
GPT-2 names, float16) and tools/train_bundled_model.log. `--family llama` writes the Hugging Face
folder resources/models/tiny-shakespeare-llama/ (config.json, model.safetensors with Llama names,
float16) and tools/train_bundled_llama.log. docs/MODEL.md explains every choice made here; the
numbers in it come from tools/check_bundled_model.py, which reads only the shipped files.

The GPT-2 model is the book's GPTModel (Raschka, "Build a Large Language Model From Scratch",
ch. 4), written out again below with the book's module and attribute names, so the export to GPT-2
names is the same mapping as the book's chapter-5 `load_weights_into_gpt`, run backwards. The
Llama model is the book's Llama 3 (ch05/07_gpt_to_llama), in tools/tiny_llama_model.py, exported
by its `load_weights_into_llama` mapping run backwards. Both share everything else here: the
tokenizer, the split, the compact vocabulary below, the initialisation of the token embedding,
the optimiser and its schedule, the evaluations and the baselines, so the two validation losses
compare the architectures and little else: the Llama model has more dropout (with the GPT-2
model's it learnt the text by heart) and, to finish within an hour on a machine shared with a
C++ build, 3,000 steps to the GPT-2 model's 3,600. The Llama model differs where Llama does:
no position embedding but RoPE in every head, RMSNorm, a SwiGLU feed-forward, no biases, and
grouped-query attention (4 query heads share 2 key/value heads); its LLAMA_CONFIG says why each
size is what it is.

Compact vocabulary. The text uses about 11,000 of GPT-2's 50,257 ids; the output layer over all
of them would be ~80 % of the work. Training uses one row per id seen in the training split plus
ONE shared row, "unseen", that stands for every other id. The shipped file repeats that row for all
of them. Because those ids share one vector, the full 50,257-way softmax is *exactly* the compact
softmax with the unseen row's logit raised by log(number of unseen ids): so training optimises the
full-vocabulary loss, the mass left on unseen ids is learnt, not guessed. The unseen row is also
trained as an *input*: a random half of the training split's rarest tokens (seen at most twice) are
replaced by it, so an id the model never saw reads as "some rare word" and the model still predicts from the context around it. The same replacement in the
targets teaches it how often a word it does not know comes next (about 1 % of tokens here), the
Good-Turing idea: the mass on all unseen ids together is learnt from the rarest seen ones.
"""

import argparse
import json
import math
import os
import sys
import time

# OpenMP threads that spin while waiting lose badly when other jobs share the two cores (measured:
# 2 to 4 times slower per step under a parallel C++ build). Passive waiting changes no number.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiny_gpt_common as common  # noqa: E402
import tiny_llama_model as llama  # noqa: E402

# The Llama model's default number of steps (see --steps).
LLAMA_STEPS = 3000

CONFIG = {
    "context_length": 256,
    "emb_dim": 128,
    "n_heads": 4,
    "n_layers": 4,
    "drop_rate": 0.1,  # the book's: on the embeddings and both residual branches
    # None on the attention weights: a head that puts all its weight on one token (the previous
    # one, say) loses everything when that weight is dropped, so attention dropout trains heads to
    # spread out, and this model's heads did not sharpen with it.
    "att_drop_rate": 0.0,
    "qkv_bias": True,  # GPT-2 has biases on the query/key/value projections; so do we
}

# The Llama model (--family llama): the GPT-2 model's width, depth, heads and context, so that the
# two differ in architecture only.
LLAMA_CONFIG = {
    "context_length": 256,
    "emb_dim": 128,
    "n_heads": 4,  # query heads of 32, as the GPT-2 model's heads
    # Two key/value groups: heads 0 and 1 share one key/value head, 2 and 3 the other. Grouped-
    # query attention is what the lesson shows in a Llama (Llama 3 8B: 32 query heads, 8 groups);
    # one group (multi-query) would leave the four heads a single set of keys to look at, and four
    # would be plain multi-head attention.
    "n_kv_groups": 2,
    "n_layers": 4,
    # SwiGLU has three matrices where GPT-2's feed-forward has two, so Llama shrinks the hidden
    # width to about 2/3 of 4 d (Llama 1 and 2: 8 d / 3, rounded up). 384 = 3 d: with it each block
    # has exactly the GPT-2 block's 196,608 matrix weights (GQA saves 2 x 128 x 64 = 16,384 on the
    # keys and values; SwiGLU at 384 spends 3 x 128 x 384 - 2 x 128 x 512 = 16,384 more), so the
    # comparison is at equal size, no position embedding and no biases aside.
    "hidden_dim": 384,
    # RoPE base 10,000 (the original RoPE's, Llama 1 and 2's, for 2k-4k contexts), not Llama 3's
    # 500,000, which is chosen for 8k-128k tokens: the base sets how slowly the slow pairs of a
    # head turn, and a 256-token context needs less slowness. With 10,000, 9 of a head's 16
    # frequency pairs turn at least a quarter turn across the context, with 500,000 only 7 (the
    # fastest turns 1 radian per token either way). The book lowers Llama 3's base in proportion
    # to a shorter context (rescale_theta) for the same reason.
    "rope_base": 10_000.0,
    # Dropout 0.2 on the embedding and both residual branches, twice the GPT-2 model's: with
    # 0.1 (everything else as here) the Llama model fitted the training text much faster and then
    # only memorised it, validation loss flat at 4.61 from step 1,500 on, 4.6170 at the end with a
    # train loss of 3.01 (the GPT-2 model: 4.5529 and 3.41). 0.2 was the one other setting tried
    # (docs/MODEL.md).
    "drop_rate": 0.2,
    "att_drop_rate": 0.0,  # as the GPT-2 model, for the same reason
}


# ----------------------------------------------------------------------------------------------
# The book's GPTModel (chapter 4), own code, book names.
# ----------------------------------------------------------------------------------------------

class LayerNorm(nn.Module):
    def __init__(self, emb_dim):
        super().__init__()
        self.eps = 1e-5
        self.scale = nn.Parameter(torch.ones(emb_dim))
        self.shift = nn.Parameter(torch.zeros(emb_dim))

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, keepdim=True, unbiased=False)
        return self.scale * (x - mean) / torch.sqrt(var + self.eps) + self.shift


class GELU(nn.Module):
    def forward(self, x):
        return common.gelu_tanh(x)


class FeedForward(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d = cfg["emb_dim"]
        self.layers = nn.Sequential(nn.Linear(d, 4 * d), GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        return self.layers(x)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias):
        super().__init__()
        assert d_out % num_heads == 0
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, T, _ = x.shape
        split = lambda t: t.view(b, T, self.num_heads, self.head_dim).transpose(1, 2)  # noqa: E731
        q, k, v = split(self.W_query(x)), split(self.W_key(x)), split(self.W_value(x))
        scores = (q @ k.transpose(2, 3)).masked_fill(self.mask.bool()[:T, :T], -torch.inf)
        weights = self.dropout(torch.softmax(scores / self.head_dim ** 0.5, dim=-1))
        ctx = (weights @ v).transpose(1, 2).contiguous().view(b, T, self.d_out)
        return self.out_proj(ctx)


class TransformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d = cfg["emb_dim"]
        self.att = MultiHeadAttention(d, d, cfg["context_length"], cfg["att_drop_rate"], cfg["n_heads"], cfg["qkv_bias"])
        self.ff = FeedForward(cfg)
        self.norm1, self.norm2 = LayerNorm(d), LayerNorm(d)
        self.drop_shortcut = nn.Dropout(cfg["drop_rate"])

    def forward(self, x):
        x = x + self.drop_shortcut(self.att(self.norm1(x)))
        return x + self.drop_shortcut(self.ff(self.norm2(x)))


class GPTModel(nn.Module):
    """The book's GPTModel with the output head tied to the token embedding (as GPT-2; it halves
    the shipped file, which must stay under 16 MB) and one extra logit offset for the shared
    "unseen" row (see the module docstring)."""

    def __init__(self, cfg, vocab_size, unseen_multiplicity):
        super().__init__()
        d = cfg["emb_dim"]
        self.tok_emb = nn.Embedding(vocab_size, d)
        self.pos_emb = nn.Embedding(cfg["context_length"], d)
        self.drop_emb = nn.Dropout(cfg["drop_rate"])
        self.trf_blocks = nn.Sequential(*[TransformerBlock(cfg) for _ in range(cfg["n_layers"])])
        self.final_norm = LayerNorm(d)
        # out_head.weight is tok_emb.weight (tied); the last row is the shared unseen row, whose
        # logit stands for log(sum over the unseen ids of exp(logit)) = logit + log(count).
        offset = torch.zeros(vocab_size)
        offset[-1] = math.log(unseen_multiplicity)
        self.register_buffer("logit_offset", offset)
        self._init_weights(cfg)

    def _init_weights(self, cfg):
        # GPT-2's initialisation (normal, std 0.02; residual projections scaled by 1/sqrt(2 L))
        # rather than PyTorch's defaults: with a tied head, N(0, 1) embeddings give huge first logits.
        for name, p in self.named_parameters():
            if name.endswith("scale"):
                nn.init.ones_(p)
            elif name.endswith("shift") or name.endswith("bias"):
                nn.init.zeros_(p)
            else:
                std = 0.02
                if name.endswith("out_proj.weight") or name.endswith("ff.layers.2.weight"):
                    std /= math.sqrt(2 * cfg["n_layers"])
                nn.init.normal_(p, mean=0.0, std=std)

    def forward(self, in_idx):
        T = in_idx.shape[1]
        x = self.tok_emb(in_idx) + self.pos_emb(torch.arange(T))
        x = self.trf_blocks(self.drop_emb(x))
        return self.final_norm(x) @ self.tok_emb.weight.T + self.logit_offset


# ----------------------------------------------------------------------------------------------
# Export to the shipped form: Hugging Face GPT-2 names, Conv1D (in, out) weights, full vocabulary.
# ----------------------------------------------------------------------------------------------

def export_hf(model, compact_to_gpt2):
    """{HF name: float32 tensor}. wte gets the trained row of every seen id and the shared unseen
    row everywhere else. Linear weights (out, in) become Conv1D (in, out): x @ W."""
    sd = {k: v.detach().clone() for k, v in model.state_dict().items()}
    emb = sd["tok_emb.weight"]
    wte = emb[-1].repeat(common.GPT2_VOCAB, 1)
    wte[torch.tensor(compact_to_gpt2)] = emb[:-1]
    out = {"wte.weight": wte, "wpe.weight": sd["pos_emb.weight"]}
    for i in range(CONFIG["n_layers"]):
        b, h = f"trf_blocks.{i}.", f"h.{i}."
        out[h + "ln_1.weight"], out[h + "ln_1.bias"] = sd[b + "norm1.scale"], sd[b + "norm1.shift"]
        out[h + "attn.c_attn.weight"] = torch.cat(
            [sd[b + f"att.{m}.weight"].T for m in ("W_query", "W_key", "W_value")], dim=1)
        out[h + "attn.c_attn.bias"] = torch.cat([sd[b + f"att.{m}.bias"] for m in ("W_query", "W_key", "W_value")])
        out[h + "attn.c_proj.weight"], out[h + "attn.c_proj.bias"] = sd[b + "att.out_proj.weight"].T, sd[b + "att.out_proj.bias"]
        out[h + "ln_2.weight"], out[h + "ln_2.bias"] = sd[b + "norm2.scale"], sd[b + "norm2.shift"]
        out[h + "mlp.c_fc.weight"], out[h + "mlp.c_fc.bias"] = sd[b + "ff.layers.0.weight"].T, sd[b + "ff.layers.0.bias"]
        out[h + "mlp.c_proj.weight"], out[h + "mlp.c_proj.bias"] = sd[b + "ff.layers.2.weight"].T, sd[b + "ff.layers.2.bias"]
    out["ln_f.weight"], out["ln_f.bias"] = sd["final_norm.scale"], sd["final_norm.shift"]
    return {k: v.contiguous() for k, v in out.items()}


def import_hf(model, w, compact_to_gpt2):
    """The reverse of export_hf, for a warm start (--init-from): a shipped GPT-2 file's weights
    {HF name: tensor} into `model`, its first len(model.trf_blocks) blocks only. Each compact row
    takes its id's row of wte; the shared unseen row takes the file's row for an id the text
    never uses (all of those are that one row)."""
    seen = set(compact_to_gpt2)
    unseen_id = next(i for i in range(common.GPT2_VOCAB) if i not in seen)
    sd = {"tok_emb.weight": torch.cat([w["wte.weight"][torch.tensor(compact_to_gpt2)],
                                       w["wte.weight"][unseen_id: unseen_id + 1]]),
          "pos_emb.weight": w["wpe.weight"],
          "final_norm.scale": w["ln_f.weight"], "final_norm.shift": w["ln_f.bias"]}
    for i in range(len(model.trf_blocks)):
        b, h = f"trf_blocks.{i}.", f"h.{i}."
        sd[b + "norm1.scale"], sd[b + "norm1.shift"] = w[h + "ln_1.weight"], w[h + "ln_1.bias"]
        q, k, v = w[h + "attn.c_attn.weight"].chunk(3, dim=1)
        qb, kb, vb = w[h + "attn.c_attn.bias"].chunk(3)
        for m, weight, bias in (("W_query", q, qb), ("W_key", k, kb), ("W_value", v, vb)):
            sd[b + f"att.{m}.weight"], sd[b + f"att.{m}.bias"] = weight.T, bias
        sd[b + "att.out_proj.weight"], sd[b + "att.out_proj.bias"] = w[h + "attn.c_proj.weight"].T, w[h + "attn.c_proj.bias"]
        sd[b + "norm2.scale"], sd[b + "norm2.shift"] = w[h + "ln_2.weight"], w[h + "ln_2.bias"]
        sd[b + "ff.layers.0.weight"], sd[b + "ff.layers.0.bias"] = w[h + "mlp.c_fc.weight"].T, w[h + "mlp.c_fc.bias"]
        sd[b + "ff.layers.2.weight"], sd[b + "ff.layers.2.bias"] = w[h + "mlp.c_proj.weight"].T, w[h + "mlp.c_proj.bias"]
    model.load_state_dict({k: v.float().contiguous() for k, v in sd.items()}, strict=False)


def round_f16(w):
    """The weights exactly as the shipped float16 file gives them back (as float32)."""
    return {k: v.half().float() for k, v in w.items()}


# ----------------------------------------------------------------------------------------------
# Training.
# ----------------------------------------------------------------------------------------------

class Log:
    """Prints and appends to the log file; every line carries the elapsed time and load average."""

    def __init__(self, path):
        self.path, self.t0 = path, time.time()
        open(path, "w").close()

    def __call__(self, msg):
        load = os.getloadavg()[0]
        line = f"[{time.time() - self.t0:7.1f}s load {load:4.2f}] {msg}"
        print(line, flush=True)
        with open(self.path, "a") as f:
            f.write(line + "\n")


@torch.no_grad()
def compact_eval_loss(model, ids, gpt2_to_compact, unk, unseen_multiplicity, ctx, batch=8):
    """Full-vocabulary validation loss from the training model, in the compact form: a target id
    outside the training vocabulary is the unseen row, whose class probability covers all unseen
    ids, so one of them gets that probability / their count."""
    model.eval()
    total, count = 0.0, 0
    wins = common.windows(ids, ctx)
    for i in range(0, len(wins), batch):
        group = wins[i: i + batch]
        for same in ([g for g in group if len(g[0]) == ctx], [g for g in group if len(g[0]) != ctx]):
            if not same:
                continue
            x = torch.tensor([[gpt2_to_compact.get(t, unk) for t in g[0]] for g in same])
            y = torch.tensor([[gpt2_to_compact.get(t, unk) for t in g[1]] for g in same])
            logits = model(x)
            total += nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), reduction="sum").item()
            total += (y == unk).sum().item() * math.log(unseen_multiplicity)
            count += y.numel()
    model.train()
    return total / count


def add_repeats(x, y, args, pool, gen):
    """Writes a recurring span into a share of the rows of x (B, T), in place, with y = the
    targets (x shifted by one) kept consistent. The span of length L is placed at a and again at
    b >= a + L; random spans (ids drawn from `pool`, compact ids) leave their first copy's targets
    out of the loss (-100)."""
    B, T = x.shape
    for r in range(B):
        if torch.rand((), generator=gen).item() >= args.repeat_share:
            continue
        L = int(torch.randint(args.repeat_min, min(args.repeat_max, T // 2 - 1) + 1, (), generator=gen))
        a = int(torch.randint(0, T - 2 * L, (), generator=gen))
        b = int(torch.randint(a + L, T - L, (), generator=gen))
        row = torch.cat([x[r], y[r, -1:]])  # the T + 1 tokens of the window
        random_span = torch.rand((), generator=gen).item() < 0.5
        if random_span:
            span = pool[torch.randint(0, len(pool), (L,), generator=gen)]
            row[a: a + L] = span
        else:
            span = row[a: a + L].clone()
        row[b: b + L] = span
        x[r], y[r] = row[:-1], row[1:]
        if random_span and a > 0:
            y[r, a - 1: a + L - 1] = -100  # the targets that are the first copy's tokens
        elif random_span:
            y[r, : L - 1] = -100


def copy_rows(n_rows, length, pool, gen):
    """(x, y) of n_rows short rows of `length` random ids from `pool` (compact ids), each with one
    span of 4 to length / 2 ids written twice (the second copy anywhere after the first). Only
    the second copy's targets count (y = -100 elsewhere): nothing but copying predicts them."""
    x = pool[torch.randint(0, len(pool), (n_rows, length + 1), generator=gen)]
    y = torch.full((n_rows, length), -100, dtype=torch.long)
    for r in range(n_rows):
        L = int(torch.randint(4, length // 2 + 1, (), generator=gen))
        a = int(torch.randint(0, length + 1 - 2 * L + 1, (), generator=gen))
        b = int(torch.randint(a + L, length + 1 - L + 1, (), generator=gen))
        x[r, b: b + L] = x[r, a: a + L]
        y[r, b: b + L - 1] = x[r, b + 1: b + L]
    return x[:, :-1], y


def pool_logits(model, idx, pool):
    """The model's logits for the ids of `pool` only: its forward pass with the tied output head
    cut down to those rows. A copying row's targets are all pool ids, and a softmax over the
    pool's 500 ids costs a 22nd of one over the 11,000 training ids; the text rows, which run the
    full softmax, teach the model to keep the other ids down."""
    if isinstance(model, GPTModel):
        x = model.trf_blocks(model.drop_emb(model.tok_emb(idx) + model.pos_emb(torch.arange(idx.shape[1]))))
    else:
        x = model.drop_emb(model.tok_emb(idx))
        for block in model.trf_blocks:
            x = block(x, model.cos, model.sin)
    return model.final_norm(x) @ model.tok_emb.weight[pool].T


def describe(family, cfg, previous_token, induction, repeat_length, circuit=None):
    """The file's one-paragraph description, which the app shows under its model picker: the
    model's size and what its strongest heads do. A head counts as an induction head only when its
    score is at least three times uniform attention's on the same positions (the second copy's
    positions n .. 2n - 1, each of which can see i + 1 tokens), and only past layer 0: `induction`
    is the best head of layers 1 and up. An induction head matches its query against what a
    previous-token head in an earlier layer wrote, which a layer-0 head has not got; the Llama
    model's layer-0 heads score up to 0.02 only because they look back at the earlier copy of
    the token itself (offset n) and, RoPE being smooth in the offset, a little at its neighbour
    n - 1, the induction target (docs/MODEL.md)."""
    (prev_head, prev_score), (ind_head, ind_score) = previous_token, induction
    n = repeat_length
    uniform = sum(1 / (i + 1) for i in range(n, 2 * n)) / n
    if family == "llama":
        size = (f"A small Llama-architecture model for teaching: {cfg['n_layers']} layers of {cfg['n_heads']} "
                f"query heads sharing {cfg['n_kv_groups']} key/value heads (grouped-query attention), RoPE, "
                f"RMSNorm and SwiGLU, d_model {cfg['emb_dim']}, trained on Shakespeare's plays"
                + (" and on short rows of random common words with a stretch said twice, to learn to copy."
                   if circuit else "."))
    else:
        size = (f"A small GPT-2-architecture model for teaching: {cfg['n_layers']} layers of {cfg['n_heads']} "
                f"heads, d_model {cfg['emb_dim']}, trained on Shakespeare's plays"
                + (" and on short rows of random common words with a stretch said twice, to learn to copy."
                   if circuit else "."))
    if circuit:
        # A model trained to copy: its circuit, the previous-token head below the induction head
        # and what switching it off leaves (evaluate()).
        p_head, p_score, i_head, i_score, i_off = circuit
        return (f"{size} Its previous-token head {p_head} (mean weight {p_score:.2f} on the token before, over "
                f"Sonnet 18) feeds its induction head {i_head} ({i_score:.2f} on the token after the earlier "
                f"copy, on a repeated sequence of random common words; {i_off:.2f} with {p_head} switched off).")
    text = (f"{size} Its strongest previous-token "
            f"head is {prev_head} (mean weight {prev_score:.2f} on the token before, over the whole of Sonnet 18, "
            f"which the plays do not contain). ")
    if ind_score >= 3 * uniform:
        return text + f"Its strongest induction head is {ind_head} ({ind_score:.2f} on a repeated random sequence)."
    return text + (f"It has no induction head: on a repeated random sequence the best head past layer 0 "
                   f"({ind_head}) scores {ind_score:.3f}, {'below' if ind_score < 0.75 * uniform else 'about'} "
                   f"what uniform attention gives ({uniform:.3f}).")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--family", choices=("gpt2", "llama"), default="gpt2",
                    help="gpt2: tiny-shakespeare; llama: tiny-shakespeare-llama (LLAMA_CONFIG)")
    ap.add_argument("--cli", default=common.DEFAULT_CLI, help="attention-lens-cli, for GPT-2 tokenizing")
    ap.add_argument("--corpus", default=common.DEFAULT_CORPUS)
    ap.add_argument("--out", help="the .safetensors file (gpt2) or model folder (llama) to write; "
                                  "default the shipped one")
    ap.add_argument("--log", help="default tools/train_bundled_model.log (gpt2) or "
                                  "tools/train_bundled_llama.log (llama)")
    # 3,600 steps took 50 minutes for the GPT-2 model with the other core busy. The Llama model
    # gets fewer: it had to finish in under an hour while C++ was being compiled on the same two
    # cores. A step of it costs a little less (0.78 s against 0.83: no position embedding, smaller
    # key/value projections), so 3,000 steps took 39 minutes, 42 in all (docs/MODEL.md).
    ap.add_argument("--steps", type=int, help="default 3600 (gpt2) or LLAMA_STEPS (llama)")
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--lr", type=float, default=1.5e-3, help="peak learning rate")
    ap.add_argument("--min-lr", type=float, default=1.5e-4)
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--weight-decay", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=123)
    ap.add_argument("--context-length", type=int, default=CONFIG["context_length"])
    ap.add_argument("--heads", type=int, default=CONFIG["n_heads"])
    ap.add_argument("--layers", type=int, help="default 4 (both families)")
    ap.add_argument("--name", help="the model's name in its metadata (default tiny-shakespeare or "
                                   "tiny-shakespeare-llama)")
    ap.add_argument("--dropout", type=float,
                    help="dropout on the embeddings and the residual branches (default: the family's "
                         "config, CONFIG or LLAMA_CONFIG)")
    ap.add_argument("--attention-dropout", type=float, default=CONFIG["att_drop_rate"])
    ap.add_argument("--token-init-std", type=float, default=0.09,
                    help="standard deviation of the starting token embeddings (GPT-2: 0.02)")
    # A Llama's layer 0 sees nothing but the token: RMSNorm(embedding) -> query and key. A head
    # there can only attend by offset (RoPE) through a part of the query and key that is the same
    # for every token, and random embeddings have none, so its previous-token heads form in later
    # layers (tiny-shakespeare-llama: layers 2 and 3), too late to feed an induction head in a
    # 2-layer model. One vector added to every row gives all tokens that shared part from the
    # start; the tied output head adds the same logit to every id with it, which softmax ignores.
    # Tried for tiny-circuit: no layer-0 previous-token head on text in 750 steps (docs/MODEL.md).
    ap.add_argument("--token-init-shared", type=float, default=0.0,
                    help="add one random vector of this standard deviation to every starting token "
                         "embedding (0: none)")
    # A warm start: a 2-layer model's layer 0 needs a previous-token head on text before an
    # induction head in layer 1 can read it, and tiny-shakespeare's layer 0 has one (head 1,
    # 0.64 on Sonnet 18) that took 3,600 steps to grow. Starting from its first layers keeps it.
    ap.add_argument("--init-from", help="start from this shipped GPT-2 file's embeddings, final norm and "
                                        "first --layers blocks (gpt2 only)")
    ap.add_argument("--pos-init-rms", type=float, default=0.15,
                    help="start the position embeddings as sinusoids of this RMS (0: GPT-2's "
                         "N(0, 0.02)); gpt2 only, the Llama model has RoPE instead")
    ap.add_argument("--pos-max-frequency", type=float, default=2.5,
                    help="the sinusoids' highest angular frequency, in radians per token")
    ap.add_argument("--attention-lr-mult", type=float, default=4.0,
                    help="learning rate of W_query, W_key and the position embeddings (gpt2), as a "
                         "multiple of the others'")
    ap.add_argument("--kv-groups", type=int, default=LLAMA_CONFIG["n_kv_groups"], help="llama only")
    ap.add_argument("--rope-base", type=float, default=LLAMA_CONFIG["rope_base"], help="llama only")
    # Induction heads (issue 27): a head that finds the earlier occurrence of the current token and
    # copies what followed it only pays off on text that repeats. Shakespeare repeats names and
    # phrases, but rarely within one 256-token window, and 4,000 steps of it alone grew a
    # previous-token head and no induction head. So a share of the windows get a span that
    # recurs: half of them random training ids (the purest case: nothing but copying predicts the
    # second copy), half a stretch of the window's own text written again further on. The first
    # copy of a random span is unpredictable, so those targets are left out of the loss (they
    # would only teach the model that any id may follow).
    ap.add_argument("--repeat-share", type=float, default=0.0,
                    help="share of training windows holding a repeated span (0 to 1)")
    ap.add_argument("--repeat-min", type=int, default=8, help="shortest repeated span, in tokens")
    ap.add_argument("--repeat-max", type=int, default=96, help="longest repeated span, in tokens")
    # Random spans of common words: the induction test the issue sets is "a repeated sequence of
    # random common words", and a head can only match tokens whose embeddings (and whose copy by
    # a previous-token head, 32 numbers of a head) it tells apart, which the training text's
    # rare tokens never trained. 0: every training id.
    ap.add_argument("--common", type=int, default=0,
                    help="draw random spans and the induction test's sequences from the N most "
                         "frequent training ids (0: all)")
    # Short rows of random common ids with a span said twice, beside each batch of text (a second
    # forward pass; its mean loss is added to the text's). In a 256-token window one recurring
    # span is a weak signal: before a head has learnt to find the earlier copy, attention spread
    # over the window brings back a hundredth of it, and 2-layer probes sat on the uniform loss
    # for thousands of steps. In 32-token rows the same spread brings back a tenth; there the
    # copying loss fell from uniform to 0.2 nats within 2,000 steps (docs/MODEL.md).
    ap.add_argument("--copy-rows", type=int, default=0, help="short copying rows per step (0: none)")
    ap.add_argument("--copy-length", type=int, default=32, help="tokens in each copying row")
    # Copying learnt on 32-token rows only finds an earlier copy up to 31 tokens back; RoPE turns
    # query and key by their distance, and a match learnt at short distances need not hold at
    # 100. A few rows as long as the context (spans up to half of it) teach the long distances.
    ap.add_argument("--copy-long-rows", type=int, default=0,
                    help="copying rows as long as the context, per step (0: none)")
    ap.add_argument("--log-every", type=int, default=25)
    ap.add_argument("--eval-every", type=int, default=250)
    # One thread by default: a float sum's order depends on the thread count, so the shipped
    # file's numbers then come out the same on any machine, whatever its number of cores.
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-train-eval", action="store_true", help="skip the final full-vocabulary train loss (slow)")
    args = ap.parse_args()
    is_llama = args.family == "llama"
    if args.out is None and args.name:  # resources/models/<name> (a folder for the Llama family)
        args.out = os.path.join(common.REPO_ROOT, "resources", "models", args.name + ("" if is_llama else ".safetensors"))
    if args.out is None:
        args.out = common.DEFAULT_LLAMA_MODEL if is_llama else common.DEFAULT_MODEL
    if args.log is None and args.name:  # tools/train_<name>.log
        args.log = os.path.join(common.REPO_ROOT, "tools", f"train_{args.name.replace('-', '_')}.log")
    if args.log is None:
        args.log = os.path.join(common.REPO_ROOT, "tools", "train_bundled_llama.log" if is_llama else "train_bundled_model.log")
    if args.steps is None:
        args.steps = LLAMA_STEPS if is_llama else 3600
    cfg = LLAMA_CONFIG if is_llama else CONFIG
    cfg["context_length"] = args.context_length
    cfg["n_heads"] = args.heads
    if args.layers is not None:
        cfg["n_layers"] = args.layers
    if args.dropout is not None:
        cfg["drop_rate"] = args.dropout
    cfg["att_drop_rate"] = args.attention_dropout
    if is_llama:
        cfg["n_kv_groups"] = args.kv_groups
        cfg["rope_base"] = args.rope_base

    # Reproducibility: fixed thread count (a float sum's order depends on it), fixed seeds, one
    # generator for the data order, deterministic kernels only.
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    data_gen = torch.Generator().manual_seed(args.seed + 1)

    log = Log(args.log)
    log(f"{os.cpu_count()} CPUs, OMP_WAIT_POLICY={os.environ['OMP_WAIT_POLICY']}, torch {torch.__version__}, threads {torch.get_num_threads()}, numpy {np.__version__}, "
        f"python {sys.version.split()[0]}")
    log(f"family {args.family}, config {cfg}")
    log(f"args {vars(args)}")

    ids = common.tokenize_file(args.cli, args.corpus)
    train, val = common.split_ids(ids)
    log(f"corpus {args.corpus}: {len(ids)} GPT-2 tokens, {len(set(ids))} distinct; "
        f"train = first {len(train)}, validation = last {len(val)} (contiguous)")

    # Compact vocabulary: the ids of the training split, sorted; then the shared unseen row.
    compact_to_gpt2 = sorted(set(train))
    gpt2_to_compact = {t: i for i, t in enumerate(compact_to_gpt2)}
    unk = len(compact_to_gpt2)
    unseen_multiplicity = common.GPT2_VOCAB - unk
    n_val_unseen = sum(1 for t in val[1:] if t not in gpt2_to_compact)
    log(f"compact vocabulary: {unk} training ids + 1 shared row for the other {unseen_multiplicity} ids; "
        f"{n_val_unseen} of {len(val) - 1} validation targets are ids the training split never uses")

    train_t = torch.tensor([gpt2_to_compact[t] for t in train], dtype=torch.long)
    counts = torch.bincount(train_t, minlength=unk)
    rare = counts <= 2  # hapax and dis legomena of the training split: stand-ins for unseen ids
    log(f"rare ids (count <= 2): {int(rare.sum())} ids, {int(rare[train_t].sum())} training positions; "
        f"each such token is replaced by the unseen row with probability 0.5 (input and target)")

    sonnet = common.tokenize_file(args.cli, common.SONNET_PATH)[: cfg["context_length"]]
    # The most frequent training ids, most frequent first (compact ids and GPT-2 ids).
    by_count = torch.argsort(counts, descending=True, stable=True)
    pool = by_count[: args.common] if args.common > 0 else torch.arange(unk)
    pool_index = torch.full((unk + 1,), -100, dtype=torch.long)
    pool_index[pool] = torch.arange(len(pool))
    induction = common.induction_sequences([compact_to_gpt2[int(i)] for i in pool],
                                           n=min(100, cfg["context_length"] // 2), trials=8, seed=args.seed)
    induction_short = common.induction_sequences([compact_to_gpt2[int(i)] for i in pool], n=16, trials=8,
                                                 seed=args.seed)

    if is_llama:
        model = llama.Llama3Model(cfg, unk + 1, unseen_multiplicity)
        # What the shared functions of tiny_gpt_common take to run the exported weights: the
        # config.json the folder will hold.
        arch = llama.hf_config(cfg, common.GPT2_VOCAB)

        def export(m):
            return llama.export_hf(m, compact_to_gpt2, cfg["n_layers"], common.GPT2_VOCAB)
    else:
        model = GPTModel(cfg, unk + 1, unseen_multiplicity)
        arch = cfg["n_heads"]

        def export(m):
            return export_hf(m, compact_to_gpt2)
    # Where a head may look is decided by query . key, and "the token before me" is a statement
    # about positions. With GPT-2's start (every embedding N(0, 0.02)) and decay on wpe, this model
    # ended with position embeddings a seventh of the token embeddings' size and no head that
    # follows position at all (docs/MODEL.md). Three choices make positions usable early:
    # - Token embeddings start at the size trained ones reach (RMS about 0.09 at d = 128), and
    #   position embeddings start as sinusoids somewhat larger (RMS 0.15): after LayerNorm the
    #   position part then carries more of each vector, and the query . key gap between i - 1
    #   and i - 2 that a previous-token head needs grows with it. Side by side, 1,500 steps in,
    #   the best previous-token score was 0.35 with RMS 0.09 and 0.56 with 0.15, at a lower
    #   validation loss (docs/MODEL.md).
    # - The sinusoids' frequencies run geometrically from pos_max_frequency radians per token down
    #   to one cycle per two context lengths. For any offset k, position i - k is a fixed rotation
    #   of position i in each frequency's (sin, cos) pair, so one W_query/W_key pair can point
    #   every position at the one k before it; the fast pairs (periods of 2.5 to 10 tokens) tell
    #   i - 1 from i and i - 2, which the original Transformer's base-10000 frequencies (at most
    #   one radian per token, and only a few pairs above 0.5) barely do.
    # - The position embeddings stay trainable (and are not decayed): the model is free to
    #   reshape them, as GPT-2 does.
    # The Llama model has no position embedding: RoPE turns each query and key by its position
    # inside the head, so query . key depends on the offset i - j by construction and a previous-
    # token head needs no help from the start. It keeps the token embedding's start (its tied head
    # starts with the same logits as the GPT-2 model's).
    with torch.no_grad():
        if args.token_init_std > 0:
            nn.init.normal_(model.tok_emb.weight, mean=0.0, std=args.token_init_std)
        if args.token_init_shared > 0:
            model.tok_emb.weight += torch.randn(cfg["emb_dim"]) * args.token_init_shared
        if args.pos_init_rms > 0 and not is_llama:
            n_pairs = cfg["emb_dim"] // 2
            slowest = 2 * math.pi / (2 * cfg["context_length"])
            k = torch.arange(n_pairs, dtype=torch.float32) / (n_pairs - 1)
            frequency = args.pos_max_frequency * (slowest / args.pos_max_frequency) ** k
            angle = torch.arange(cfg["context_length"], dtype=torch.float32)[:, None] * frequency
            pe = torch.zeros(cfg["context_length"], cfg["emb_dim"])
            pe[:, 0::2], pe[:, 1::2] = torch.sin(angle), torch.cos(angle)
            model.pos_emb.weight.copy_(pe * args.pos_init_rms / pe.pow(2).mean().sqrt())
    if args.init_from:
        if is_llama:
            sys.exit("--init-from is for --family gpt2")
        start, _, _, start_heads, _, _ = common.read_model(args.init_from)
        if start_heads != cfg["n_heads"]:
            sys.exit(f"{args.init_from} has {start_heads} heads, this model {cfg['n_heads']}")
        with torch.no_grad():
            import_hf(model, start, compact_to_gpt2)
        log(f"started from {args.init_from}: its token and position embeddings, final norm and first "
            f"{cfg['n_layers']} blocks")
    n_params = sum(p.numel() for p in model.parameters())
    log(f"trainable parameters (compact vocabulary): {n_params}")

    # AdamW as in the book's chapter 5, with decay on matrices and the token embedding only (not
    # on the position embedding, LayerNorm scale/shift or biases), betas as GPT-2/GPT-3 training.
    # The query and key projections and the position embedding learn attention_lr_mult times
    # faster: a head only attends sharply once its query . key differences reach several units,
    # which needs those weights several times their starting size; at the common rate they grew
    # so slowly that the heads were still nearly uniform after 5 M tokens. 4x brought the
    # previous-token head on; 10x was unstable (docs/MODEL.md). The Llama model's W_query and
    # W_key get the same 4x: RoPE decides which offsets a head *can* prefer, but how sharply it
    # does is still the size of query . key.
    def attention_rate(name):
        return "W_query" in name or "W_key" in name or name == "pos_emb.weight"

    def decays(name, p):
        return p.dim() >= 2 and name != "pos_emb.weight"

    groups = []
    for fast in (False, True):
        for decay in (True, False):
            params = [p for n, p in model.named_parameters() if attention_rate(n) == fast and decays(n, p) == decay]
            if params:
                groups.append({"params": params, "weight_decay": args.weight_decay if decay else 0.0,
                               "lr_mult": args.attention_lr_mult if fast else 1.0})
    opt = torch.optim.AdamW(groups, lr=args.lr, betas=(0.9, 0.95))

    def lr_at(step):  # linear warm-up, then cosine decay to min_lr at the last step
        if step < args.warmup:
            return args.lr * (step + 1) / args.warmup
        progress = (step - args.warmup) / max(1, args.steps - 1 - args.warmup)
        return args.min_lr + 0.5 * (args.lr - args.min_lr) * (1 + math.cos(math.pi * progress))

    def evaluate(step):
        vl = compact_eval_loss(model, val, gpt2_to_compact, unk, unseen_multiplicity, cfg["context_length"])
        w = export(model)
        prev = common.previous_token_scores(w, sonnet, arch)
        ind = common.induction_scores(w, arch, induction)
        best = lambda s: max((v, f"L{l}H{h}") for l, row in enumerate(s) for h, v in enumerate(row))  # noqa: E731
        (pv, ph), (iv, ih) = best(prev), best(ind)
        # The circuit test: the best induction head past layer 0, the best previous-token head in
        # the layers below it, and the induction head's score again with that head off.
        il, ihh = max(((l, h) for l in range(1, len(ind)) for h in range(len(ind[l]))), key=lambda lh: ind[lh[0]][lh[1]])
        pl, phh = max(((l, h) for l in range(il) for h in range(len(prev[l]))), key=lambda lh: prev[lh[0]][lh[1]])
        off = common.induction_scores(w, arch, induction, ablate=[(pl, phh)])[il][ihh]
        # Where the later layers look instead, if not at the token after the earlier copy: the
        # earlier copy itself (t - n) or the token two after it (t - n + 2); and the stripe on
        # short repeats (16 words), which a match learnt at short distances finds first.
        shifted = common.induction_scores(w, arch, induction, offset=2)
        same = common.induction_scores(w, arch, induction, offset=0)
        short = common.induction_scores(w, arch, induction_short)
        top = lambda s: max(v for row in s[1:] for v in row)  # noqa: E731
        log(f"eval step {step:5d} | later layers' best weight on the earlier copy {top(same):.3f}, on the token "
            f"after it {top(ind):.3f}, two after it {top(shifted):.3f}; on {len(induction_short[0]) // 2}-word "
            f"repeats, after it {top(short):.3f}")
        log(f"eval step {step:5d} | val loss {vl:.4f} | best previous-token head {ph} {pv:.3f} "
            f"| best induction head {ih} {iv:.3f} | circuit: L{pl}H{phh} {prev[pl][phh]:.3f} below L{il}H{ihh} "
            f"{ind[il][ihh]:.3f}, {off:.3f} with L{pl}H{phh} off")
        # For describe(): the best induction score past layer 0 (see there).
        later = max((v, f"L{l}H{h}") for l, row in enumerate(ind) if l > 0 for h, v in enumerate(row))
        circuit = (f"L{pl}H{phh}", prev[pl][phh], f"L{il}H{ihh}", ind[il][ihh], off)
        return (ph, pv), (later[1], later[0]), circuit

    ctx, B = cfg["context_length"], args.batch_size
    log(f"training: {args.steps} steps x {B} x {ctx} tokens = {args.steps * B * ctx} tokens "
        f"({args.steps * B * ctx / len(train):.2f} epochs)")
    model.train()
    running, running_copy, t_start = [], [], time.time()
    for step in range(args.steps):
        if step % args.eval_every == 0:
            evaluate(step)
        # B random windows of ctx + 1 tokens; a rare token is replaced by the unseen row with
        # probability 0.5 in the window, so both as an input and as the target before it.
        starts = torch.randint(0, len(train_t) - ctx - 1, (B,), generator=data_gen)
        win = torch.stack([train_t[s: s + ctx + 1] for s in starts.tolist()])
        replace = rare[win] & (torch.rand(win.shape, generator=data_gen) < 0.5)
        win = torch.where(replace, torch.full_like(win, unk), win)
        x, y = win[:, :-1], win[:, 1:].clone()
        if args.repeat_share > 0:
            add_repeats(x, y, args, pool, data_gen)

        for g in opt.param_groups:
            g["lr"] = lr_at(step) * g["lr_mult"]
        logits = model(x)
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        running.append(loss.item())
        if args.copy_rows > 0:
            copy_sum, copy_count = 0.0, 0
            for n_rows, length in ((args.copy_rows, args.copy_length), (args.copy_long_rows, ctx)):
                if n_rows == 0:
                    continue
                cx, cy = copy_rows(n_rows, length, pool, data_gen)
                copy_logits = pool_logits(model, cx, pool)
                cy = torch.where(cy >= 0, pool_index[cy.clamp(min=0)], cy)  # compact id -> place in pool
                copy_sum = copy_sum + nn.functional.cross_entropy(
                    copy_logits.reshape(-1, copy_logits.shape[-1]), cy.reshape(-1), reduction="sum")
                copy_count += int((cy >= 0).sum())
            copy_loss = copy_sum / copy_count
            running_copy.append(copy_loss.item())
            loss = loss + copy_loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()

        if (step + 1) % args.log_every == 0:
            done = time.time() - t_start
            log(f"step {step + 1:5d}/{args.steps} | lr {lr_at(step):.2e} | train loss (mean of last "
                f"{len(running)} batches, dropout on) {sum(running) / len(running):.4f} | "
                f"{f'copying rows {sum(running_copy) / len(running_copy):.4f} | ' if running_copy else ''}"
                f"{(step + 1) * B * ctx / done:.0f} tokens/s")
            running, running_copy = [], []
    train_time = time.time() - t_start
    (prev_head, prev_score), (ind_head, ind_score), circuit = evaluate(args.steps)
    log(f"training time {train_time / 60:.1f} min")

    # The shipped weights: float16. Every reported number is computed from them, through the
    # plain functional forward over the full 50,257-way softmax, exactly as the file will be read.
    w16 = round_f16(export(model))
    heads = cfg["n_heads"]
    val_loss, n_val_targets = common.full_vocab_loss(w16, val, arch, ctx)
    log(f"final validation loss (shipped float16 weights, full vocabulary): {val_loss:.4f} "
        f"over {n_val_targets} targets")
    train_loss = float("nan")
    if not args.no_train_eval:
        train_loss, n_train_targets = common.full_vocab_loss(w16, train, arch, ctx)
        log(f"final train loss (shipped float16 weights, full vocabulary): {train_loss:.4f} "
            f"over {n_train_targets} targets")
    base = common.UnigramBigram(train)
    uni, bi = base.unigram_loss(val), base.bigram_loss(val)
    log(f"baselines on the same validation targets: unigram (add-{base.alpha}) {uni:.4f}, "
        f"bigram (absolute discounting D={base.discount}) {bi:.4f}")

    shipped_params = sum(v.numel() for v in w16.values())
    # The same entries for both models (the app shows description, validation_loss,
    # baseline_bigram_validation_loss and licence); the Llama file adds its key/value heads.
    # Its config.json says its architecture to a reader; these say it to a person.
    metadata = {
        "name": args.name or ("tiny-shakespeare-llama" if is_llama else "tiny-shakespeare"),
        "format": ("Hugging Face Llama names, config.json beside it; nn.Linear weights (out, in) used as "
                   "x @ W.T; lm_head tied to model.embed_tokens" if is_llama else
                   "Hugging Face GPT-2 names; Conv1D weights used as x @ W; lm_head tied to wte"),
        "tokenizer": "gpt2",
        "heads": str(heads),
        **({"kv_heads": str(cfg["n_kv_groups"]), "rope_theta": f"{cfg['rope_base']:g}",
            "intermediate_size": str(cfg["hidden_dim"])} if is_llama else {}),
        "layers": str(cfg["n_layers"]),
        "d_model": str(cfg["emb_dim"]),
        "context_length": str(ctx),
        "vocab": str(common.GPT2_VOCAB),
        "parameters": str(shipped_params),
        "trained_parameters": f"{n_params} (the {unk} token rows seen in training and one shared row "
                              f"repeated for the other {unseen_multiplicity} GPT-2 ids)",
        "training_text": "tiny Shakespeare: about 40,000 lines of Shakespeare's plays (public domain), "
                         "the selection distributed with karpathy/char-rnn (data/tinyshakespeare/input.txt), "
                         f"1,115,394 bytes, {len(ids)} GPT-2 tokens; trained on the first {len(train)} tokens"
                         + (f"; and, beside each batch, {args.copy_rows} rows of {args.copy_length} and "
                            f"{args.copy_long_rows} of {ctx} random ids of the {len(pool)} most frequent, each "
                            f"with a span said twice (copying rows)"
                            if args.copy_rows > 0 else ""),
        "validation_loss": f"{val_loss:.4f}",
        "validation_split": f"the last {len(val)} GPT-2 tokens of the text (10 %, contiguous), "
                            f"{n_val_targets} next-token targets in windows of {ctx}; nats per token, "
                            "full 50,257-way softmax, float16 weights as stored",
        "train_loss": f"{train_loss:.4f}",
        "baseline_unigram_validation_loss": f"{uni:.4f}",
        "baseline_bigram_validation_loss": f"{bi:.4f}",
        "trained_on": time.strftime("%Y-%m-%d"),
        "training": f"tools/train_bundled_model.py {' '.join(sys.argv[1:]) or '(defaults)'}, seed {args.seed}, "
                    f"{args.steps} steps of {B} x {ctx} tokens, "
                    f"AdamW, {train_time / 60:.0f} min on {args.threads} CPU thread{'s' if args.threads != 1 else ''}",
        "licence": "CC0-1.0 (weights); the training text is public domain",
        "description": describe(args.family, cfg, (prev_head, prev_score), (ind_head, ind_score), len(induction[0]) // 2,
                                circuit=circuit if args.copy_rows > 0 else None),
    }
    tensors = {k: v.numpy().astype(np.float16) for k, v in w16.items()}
    if is_llama:
        # A Hugging Face folder: config.json and model.safetensors, no tokenizer.json (the app
        # uses GPT-2's for a model without one, and so would tokenizer="gpt2" in transformers).
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "config.json"), "w", encoding="utf-8") as f:
            json.dump(arch, f, indent=2)
            f.write("\n")
        weights_file = os.path.join(args.out, "model.safetensors")
    else:
        weights_file = args.out
    common.write_safetensors(weights_file, tensors, metadata)
    log(f"wrote {weights_file}: {os.path.getsize(weights_file)} bytes, {shipped_params} parameters (float16)")


if __name__ == "__main__":
    main()

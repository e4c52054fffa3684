"""The book's Llama 3 model, small, for the bundled tiny-shakespeare-llama (training and checking).

Used by tools/train_bundled_model.py --family llama (which trains it) and
tools/check_bundled_model.py (which loads the shipped folder back into it). Run with Debian's
/usr/bin/python3 (PyTorch 1.13).

The classes are the book's Llama 3 (Raschka, "Build a Large Language Model From Scratch",
ch05/07_gpt_to_llama and pkg/llms_from_scratch/llama3.py), written out again with the book's
names: Llama3Model, TransformerBlock, GroupedQueryAttention, FeedForward, compute_rope_params,
apply_rope. They differ from the book's in four ways, each for this model:

- RMSNorm is written out (PyTorch 1.13 has no nn.RMSNorm); its parameter is `weight`, as
  nn.RMSNorm's and Hugging Face's, and it computes x / sqrt(mean(x^2) + eps) * weight as both do.
- No Llama 3 RoPE frequency scaling (rope_freq) and no rescale_theta: the model is trained at its
  own context of 256 tokens, so there is no longer original context to stretch.
- The output head is tied to the token embedding (as GPT-2, and as Llama 3.2 1B and 3B): one
  50,257 x 128 matrix in F16 is 12.9 MB, two would not fit the 16 MB the shipped file may take.
- Dropout, the book's GPT-2 kind (after the embedding and on both residual branches), which the
  book's Llama has not: the model sees one small text 20 times, and without enough dropout it
  learns the text by heart (docs/MODEL.md). It is off in eval mode, so the shipped weights are a
  plain Llama.

The export writes Hugging Face Llama names. The book's loader (load_weights_into_llama) maps
q_proj to W_query and so on with no permutation, because the book's apply_rope rotates split
halves (x1 = first half of a head, x2 = second half) exactly as Hugging Face's rotate_half does;
a model trained this way needs none either.
"""

import math

import torch
import torch.nn as nn

RMS_EPS = 1e-5  # the book's (nn.RMSNorm(eps=1e-5)) and Llama 3's config (rms_norm_eps)


class RMSNorm(nn.Module):
    def __init__(self, emb_dim, eps=RMS_EPS):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(emb_dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps) * self.weight


def compute_rope_params(head_dim, theta_base, context_length):
    """cos, sin of shape (context_length, head_dim): pair i (dimensions i and i + head_dim / 2)
    turns by theta_base ** (-2 i / head_dim) radians per position, as the book and Hugging Face."""
    assert head_dim % 2 == 0
    inv_freq = 1.0 / (theta_base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    angles = torch.arange(context_length, dtype=torch.float32)[:, None] * inv_freq[None, :]
    angles = torch.cat([angles, angles], dim=1)
    return torch.cos(angles), torch.sin(angles)


def apply_rope(x, cos, sin):
    """x: (b, heads, T, head_dim). Split halves, as the book's apply_rope and HF's rotate_half."""
    T, hd = x.shape[2], x.shape[3]
    x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
    rotated = torch.cat((-x2, x1), dim=-1)
    return x * cos[:T] + rotated * sin[:T]


class FeedForward(nn.Module):
    """SwiGLU: fc3(silu(fc1(x)) * fc2(x)), the book's names (HF: gate_proj, up_proj, down_proj)."""

    def __init__(self, cfg):
        super().__init__()
        self.fc1 = nn.Linear(cfg["emb_dim"], cfg["hidden_dim"], bias=False)
        self.fc2 = nn.Linear(cfg["emb_dim"], cfg["hidden_dim"], bias=False)
        self.fc3 = nn.Linear(cfg["hidden_dim"], cfg["emb_dim"], bias=False)

    def forward(self, x):
        return self.fc3(nn.functional.silu(self.fc1(x)) * self.fc2(x))


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_in, d_out, num_heads, num_kv_groups, context_length, dropout):
        super().__init__()
        assert d_out % num_heads == 0 and num_heads % num_kv_groups == 0
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.num_kv_groups, self.group_size = num_kv_groups, num_heads // num_kv_groups
        self.W_query = nn.Linear(d_in, d_out, bias=False)
        self.W_key = nn.Linear(d_in, num_kv_groups * self.head_dim, bias=False)
        self.W_value = nn.Linear(d_in, num_kv_groups * self.head_dim, bias=False)
        self.out_proj = nn.Linear(d_out, d_out, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1).bool(),
                             persistent=False)

    def forward(self, x, cos, sin):
        b, T, _ = x.shape
        q = self.W_query(x).view(b, T, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.W_key(x).view(b, T, self.num_kv_groups, self.head_dim).transpose(1, 2)
        v = self.W_value(x).view(b, T, self.num_kv_groups, self.head_dim).transpose(1, 2)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        # Query heads 0 .. group_size-1 read key/value group 0, and so on: [K1, K1, K2, K2], as
        # the book's repeat_interleave and Hugging Face's repeat_kv.
        k = k.repeat_interleave(self.group_size, dim=1)
        v = v.repeat_interleave(self.group_size, dim=1)
        scores = (q @ k.transpose(2, 3)).masked_fill(self.mask[:T, :T], -torch.inf)
        weights = self.dropout(torch.softmax(scores / self.head_dim ** 0.5, dim=-1))
        ctx = (weights @ v).transpose(1, 2).reshape(b, T, self.d_out)
        return self.out_proj(ctx)


class TransformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d = cfg["emb_dim"]
        self.att = GroupedQueryAttention(d, d, cfg["n_heads"], cfg["n_kv_groups"], cfg["context_length"],
                                         cfg["att_drop_rate"])
        self.ff = FeedForward(cfg)
        self.norm1, self.norm2 = RMSNorm(d), RMSNorm(d)
        self.drop_shortcut = nn.Dropout(cfg["drop_rate"])

    def forward(self, x, cos, sin):
        x = x + self.drop_shortcut(self.att(self.norm1(x), cos, sin))
        return x + self.drop_shortcut(self.ff(self.norm2(x)))


class Llama3Model(nn.Module):
    """The book's Llama3Model with the output head tied to tok_emb and, for training on the compact
    vocabulary, the same "unseen" logit offset as the GPT-2 model (tools/train_bundled_model.py's
    docstring): the last row stands for `unseen_multiplicity` ids. With unseen_multiplicity = 1
    (a model loaded from the shipped file, every id its own row) the offset is zero."""

    def __init__(self, cfg, vocab_size, unseen_multiplicity=1):
        super().__init__()
        d = cfg["emb_dim"]
        self.tok_emb = nn.Embedding(vocab_size, d)
        self.drop_emb = nn.Dropout(cfg["drop_rate"])
        self.trf_blocks = nn.ModuleList([TransformerBlock(cfg) for _ in range(cfg["n_layers"])])
        self.final_norm = RMSNorm(d)
        cos, sin = compute_rope_params(d // cfg["n_heads"], cfg["rope_base"], cfg["context_length"])
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        offset = torch.zeros(vocab_size)
        offset[-1] = math.log(unseen_multiplicity)
        self.register_buffer("logit_offset", offset, persistent=False)
        self._init_weights(cfg)

    def _init_weights(self, cfg):
        # As the GPT-2 model (GPT-2's scheme): matrices N(0, 0.02), the two projections that write
        # into the residual stream (out_proj, fc3) scaled by 1/sqrt(2 L), RMSNorm weights 1.
        # PyTorch's defaults would start a tied head at absurd logits.
        for name, p in self.named_parameters():
            if name.endswith("norm1.weight") or name.endswith("norm2.weight") or name == "final_norm.weight":
                nn.init.ones_(p)
            else:
                std = 0.02
                if name.endswith("out_proj.weight") or name.endswith("ff.fc3.weight"):
                    std /= math.sqrt(2 * cfg["n_layers"])
                nn.init.normal_(p, mean=0.0, std=std)

    def forward(self, in_idx):
        x = self.drop_emb(self.tok_emb(in_idx))
        for block in self.trf_blocks:
            x = block(x, self.cos, self.sin)
        return self.final_norm(x) @ self.tok_emb.weight.T + self.logit_offset


# ----------------------------------------------------------------------------------------------
# The shipped form: a Hugging Face Llama folder (config.json + model.safetensors).
# ----------------------------------------------------------------------------------------------

# The book's names -> Hugging Face's, per block (the reverse of the book's load_weights_into_llama).
BLOCK_NAMES = {
    "att.W_query.weight": "self_attn.q_proj.weight",
    "att.W_key.weight": "self_attn.k_proj.weight",
    "att.W_value.weight": "self_attn.v_proj.weight",
    "att.out_proj.weight": "self_attn.o_proj.weight",
    "ff.fc1.weight": "mlp.gate_proj.weight",
    "ff.fc2.weight": "mlp.up_proj.weight",
    "ff.fc3.weight": "mlp.down_proj.weight",
    "norm1.weight": "input_layernorm.weight",
    "norm2.weight": "post_attention_layernorm.weight",
}


def hf_config(cfg, vocab_size):
    """config.json of the shipped folder: the keys Hugging Face's LlamaConfig and our reader
    (src/io/model_config.cpp) take. bos/eos are GPT-2's <|endoftext|> as in GPT-2's own
    config.json (LlamaConfig's defaults, 1 and 2, would be '"' and '#' in GPT-2's vocabulary);
    the training text has no such token, so the model has never seen it."""
    return {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "hidden_size": cfg["emb_dim"],
        "intermediate_size": cfg["hidden_dim"],
        "num_hidden_layers": cfg["n_layers"],
        "num_attention_heads": cfg["n_heads"],
        "num_key_value_heads": cfg["n_kv_groups"],
        "head_dim": cfg["emb_dim"] // cfg["n_heads"],
        "hidden_act": "silu",
        "rms_norm_eps": RMS_EPS,
        "rope_theta": float(cfg["rope_base"]),
        "rope_scaling": None,
        "max_position_embeddings": cfg["context_length"],
        "vocab_size": vocab_size,
        "tie_word_embeddings": True,
        "attention_bias": False,
        "mlp_bias": False,
        "attention_dropout": 0.0,
        "initializer_range": 0.02,
        "bos_token_id": 50256,
        "eos_token_id": 50256,
        "torch_dtype": "float16",
    }


def export_hf(model, compact_to_gpt2, n_layers, full_vocab):
    """{HF name: float32 tensor}. embed_tokens gets the trained row of every seen id and the shared
    unseen row everywhere else; Linear weights stay (out, in), as Hugging Face's nn.Linear keeps
    them. No lm_head.weight: tie_word_embeddings."""
    sd = {k: v.detach().clone() for k, v in model.state_dict().items()}
    emb = sd["tok_emb.weight"]
    full = emb[-1].repeat(full_vocab, 1)
    full[torch.tensor(compact_to_gpt2)] = emb[:-1]
    out = {"model.embed_tokens.weight": full}
    for i in range(n_layers):
        for book, hf in BLOCK_NAMES.items():
            out[f"model.layers.{i}.{hf}"] = sd[f"trf_blocks.{i}.{book}"]
    out["model.norm.weight"] = sd["final_norm.weight"]
    return {k: v.contiguous() for k, v in out.items()}


def book_cfg_from_hf(config, drop_rate=0.0):
    """The book's cfg dict from a config.json (for loading the shipped folder back)."""
    assert config["head_dim"] * config["num_attention_heads"] == config["hidden_size"]
    return {"context_length": config["max_position_embeddings"], "emb_dim": config["hidden_size"],
            "n_heads": config["num_attention_heads"], "n_kv_groups": config["num_key_value_heads"],
            "n_layers": config["num_hidden_layers"], "hidden_dim": config["intermediate_size"],
            "rope_base": config["rope_theta"], "drop_rate": drop_rate, "att_drop_rate": 0.0}


def load_hf(w, config):
    """A Llama3Model (eval mode) holding the shipped weights {HF name: tensor}: the book's
    load_weights_into_llama, for a tied head."""
    cfg = book_cfg_from_hf(config)
    model = Llama3Model(cfg, config["vocab_size"])
    sd = {"tok_emb.weight": w["model.embed_tokens.weight"], "final_norm.weight": w["model.norm.weight"]}
    for i in range(cfg["n_layers"]):
        for book, hf in BLOCK_NAMES.items():
            sd[f"trf_blocks.{i}.{book}"] = w[f"model.layers.{i}.{hf}"]
    model.load_state_dict(sd, strict=True)
    return model.eval()

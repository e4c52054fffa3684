#include "pipeline/pytorch_code.h"

#include "pipeline/step_files.h"

#include <QFileInfo>
#include <cmath>

#include "engine/embeddings.h"
#include "engine/step_ids.h"
#include "engine/weight_names.h"
#include "io/text_format.h"

namespace attn {

namespace {

std::string pyBool(bool b) {
    return b ? "True" : "False";
}

std::string pyFloat(double v) {
    // Whole numbers as Python writes them (500000.0, not 5e+05): RoPE bases are.
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(static_cast<long long>(v)) + ".0";
    std::string s;
    io::appendDouble(s, v);
    if (s.find_first_of(".en") == std::string::npos)
        s += ".0";
    return s;
}

// A nested Python list literal of a tensor's values (float32 shortest repr, which Python reads
// back to the same float32 once torch.tensor rounds it).
std::string pyTensorLiteral(const Tensor& t, const std::string& indent) {
    const std::vector<float> v = t.toVector();
    std::string out;
    size_t k = 0;
    auto rec = [&](auto&& self, size_t d) -> void {
        out += "[";
        for (int64_t i = 0; i < t.shape()[d]; ++i) {
            if (i)
                out += d + 1 == t.shape().size() ? ", " : ",\n" + indent + std::string(d + 1, ' ');
            if (d + 1 == t.shape().size())
                io::appendFloat(out, v[k++]);
            else
                self(self, d + 1);
        }
        out += "]";
    };
    rec(rec, 0);
    return out;
}

std::string maskFunction(const MaskSpec& m) {
    std::string s =
        "def make_mask(context_length):\n"
        "    # 1 marks a key a query may not see (masked_fill puts -inf there).\n"
        "    mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)\n";
    if (m.kind == MaskKind::Window)
        s += "    # Window of " + std::to_string(m.window) + ": also hide keys more than " +
             std::to_string(m.window - 1) +
             " tokens back.\n"
             "    mask = mask + torch.tril(torch.ones(context_length, context_length), diagonal=-" +
             std::to_string(m.window) + ")\n";
    return s + "    return mask\n\n\n";
}

// The attention part of a single-head forward, from attn_scores on (chapter order: mask, scale,
// softmax, dropout).
std::string singleHeadTail(bool masked, bool scale, bool dropout, const std::string& values) {
    std::string s;
    if (masked)
        s += "        num_tokens = x.shape[-2]\n"
             "        attn_scores = attn_scores.masked_fill(self.mask.bool()[:num_tokens, "
             ":num_tokens], -torch.inf)\n";
    s += scale ? "        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)\n"
               : "        attn_weights = torch.softmax(attn_scores, dim=-1)\n";
    if (dropout)
        s += "        attn_weights = self.dropout(attn_weights)\n";
    s += "        context_vec = attn_weights @ " + values + "\n        return context_vec\n";
    return s;
}

// The attention part shared by the classes after chapter 3, from attn_scores on.
std::string afterChapter3Tail(const Config& c, bool masked, bool dropout) {
    std::string s;
    if (masked)
        s += c.variant == Variant::Rotary
                 ? "        attn_scores = attn_scores.masked_fill(mask, -torch.inf)\n"
                 : "        attn_scores = attn_scores.masked_fill(make_mask(num_tokens).bool(), "
                   "-torch.inf)\n";
    s += c.variant == Variant::Rotary
             ? "        attn_weights = torch.softmax(attn_scores / self.head_dim**0.5, dim=-1)\n"
             : "        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)\n";
    if (dropout)
        s += std::string("        attn_weights = self.dropout(attn_weights)") +
             (c.variant == Variant::Rotary ? "  # an extension: the book's class has none" : "") +
             "\n";
    s += "        context_vec = (attn_weights @ values).transpose(1, 2)\n"
         "        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)\n"
         "        return self.out_proj(context_vec)\n";
    return s;
}

// The first lines of both grouped-query forwards: the projections, the queries split into
// heads and the keys and values into their groups.
const char* const kGroupedProjections =
    "        b, num_tokens, _ = x.shape\n"
    "        queries = self.W_query(x)\n"
    "        keys = self.W_key(x)\n"
    "        values = self.W_value(x)\n"
    "        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)\n"
    "        keys = keys.view(b, num_tokens, self.num_kv_groups, self.head_dim).transpose(1, 2)\n"
    "        values = values.view(b, num_tokens, self.num_kv_groups, self.head_dim).transpose(1, "
    "2)\n";

// The book's bonus-material classes (section 9.1) without their KV caches: a trace is one
// forward over the whole text. Each local keeps the book's name and is reassigned as the book
// does, so the step recorder finds every step among its values.
std::string afterChapter3Classes(const Config& c, bool masked, bool dropout) {
    const std::string dropInit = dropout ? "        self.dropout = nn.Dropout(dropout)\n" : "";
    const std::string maskNote =
        masked && c.effectiveMask().kind != MaskKind::Causal
            ? "        # The book masks causally; make_mask gives the mask picked in the app.\n"
            : "";
    switch (c.variant) {
        case Variant::GroupedQuery:
            return "class GroupedQueryAttention(nn.Module):\n"
                   "    # ch04/04_gqa: num_kv_groups key/value heads, each shared by num_heads / "
                   "num_kv_groups\n"
                   "    # query heads.\n"
                   "    def __init__(self, d_in, d_out, dropout, num_heads, num_kv_groups, "
                   "qkv_bias=False):\n"
                   "        super().__init__()\n"
                   "        assert d_out % num_heads == 0, \"d_out must be divisible by "
                   "num_heads\"\n"
                   "        assert num_heads % num_kv_groups == 0, \"num_heads must be divisible "
                   "by num_kv_groups\"\n"
                   "        self.d_out = d_out\n"
                   "        self.num_heads = num_heads\n"
                   "        self.head_dim = d_out // num_heads\n"
                   "        self.W_key = nn.Linear(d_in, num_kv_groups * self.head_dim, "
                   "bias=qkv_bias)\n"
                   "        self.W_value = nn.Linear(d_in, num_kv_groups * self.head_dim, "
                   "bias=qkv_bias)\n"
                   "        self.num_kv_groups = num_kv_groups\n"
                   "        self.group_size = num_heads // num_kv_groups\n"
                   "        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)\n"
                   "        self.out_proj = nn.Linear(d_out, d_out, bias=False)\n" +
                   dropInit + "\n    def forward(self, x):\n" + kGroupedProjections +
                   "        # Each group's keys and values once for every query head that shares "
                   "them.\n"
                   "        keys = keys.repeat_interleave(self.group_size, dim=1)\n"
                   "        values = values.repeat_interleave(self.group_size, dim=1)\n"
                   "        attn_scores = queries @ keys.transpose(2, 3)\n" +
                   maskNote + afterChapter3Tail(c, masked, dropout);
        case Variant::Latent:
            return "class MultiHeadLatentAttention(nn.Module):\n"
                   "    # ch04/05_mla: keys and values rebuilt from a small latent per token "
                   "(what a cache keeps).\n"
                   "    def __init__(self, d_in, d_out, dropout, num_heads, qkv_bias=False, "
                   "latent_dim=None):\n"
                   "        super().__init__()\n"
                   "        assert d_out % num_heads == 0, \"d_out must be divisible by "
                   "num_heads\"\n"
                   "        self.d_out = d_out\n"
                   "        self.num_heads = num_heads\n"
                   "        self.head_dim = d_out // num_heads\n"
                   "        self.latent_dim = latent_dim if latent_dim is not None else max(16, "
                   "d_out // 8)\n"
                   "        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)\n"
                   "        self.W_DKV = nn.Linear(d_in, self.latent_dim, bias=qkv_bias)\n"
                   "        self.W_UK = nn.Linear(self.latent_dim, d_out, bias=qkv_bias)\n"
                   "        self.W_UV = nn.Linear(self.latent_dim, d_out, bias=qkv_bias)\n"
                   "        self.out_proj = nn.Linear(d_out, d_out)\n" +
                   dropInit +
                   "\n    @staticmethod\n"
                   "    def _reshape_to_heads(x, num_heads, head_dim):\n"
                   "        # (b, T, d_out) -> (b, num_heads, T, head_dim)\n"
                   "        b, num_tokens, _ = x.shape\n"
                   "        return x.view(b, num_tokens, num_heads, head_dim).transpose(1, "
                   "2).contiguous()\n"
                   "\n    def forward(self, x):\n"
                   "        b, num_tokens, _ = x.shape\n"
                   "        queries = self.W_query(x)\n"
                   "        latent = self.W_DKV(x)\n"
                   "        keys = self.W_UK(latent)\n"
                   "        values = self.W_UV(latent)\n"
                   "        queries = self._reshape_to_heads(queries, self.num_heads, "
                   "self.head_dim)\n"
                   "        keys = self._reshape_to_heads(keys, self.num_heads, self.head_dim)\n"
                   "        values = self._reshape_to_heads(values, self.num_heads, "
                   "self.head_dim)\n"
                   "        attn_scores = queries @ keys.transpose(-2, -1)\n" +
                   maskNote + afterChapter3Tail(c, masked, dropout);
        default:
            break;
    }
    return std::string(
               "class RMSNorm(nn.Module):\n"
               "    # pkg/llms_from_scratch/qwen3.py: x / sqrt(mean(x^2) + eps), times a scale.\n"
               "    def __init__(self, emb_dim, eps=1e-6):\n"
               "        super().__init__()\n"
               "        self.eps = eps\n"
               "        self.scale = nn.Parameter(torch.ones(emb_dim))\n"
               "\n    def forward(self, x):\n"
               "        variance = x.pow(2).mean(dim=-1, keepdim=True)\n"
               "        return x * torch.rsqrt(variance + self.eps) * self.scale\n\n\n"
               "def compute_rope_params(head_dim, theta_base=10_000, context_length=4096):\n"
               "    # One frequency per pair of dims (i, i + head_dim/2); angle = position x "
               "frequency.\n"
               "    assert head_dim % 2 == 0, \"Embedding dimension must be even\"\n"
               "    inv_freq = 1.0 / (theta_base ** (torch.arange(0, head_dim, 2, "
               "dtype=torch.float32)[: head_dim // 2] / head_dim))\n"
               "    positions = torch.arange(context_length, dtype=torch.float32)\n"
               "    angles = positions[:, None] * inv_freq[None, :]\n"
               "    angles = torch.cat([angles, angles], dim=1)\n"
               "    return torch.cos(angles), torch.sin(angles)\n\n\n"
               "def apply_rope(x, cos, sin):\n"
               "    # Split halves: (x1, x2) turned by each position's angles.\n"
               "    _, _, seq_len, head_dim = x.shape\n"
               "    x1 = x[..., : head_dim // 2]\n"
               "    x2 = x[..., head_dim // 2:]\n"
               "    cos = cos[:seq_len, :].unsqueeze(0).unsqueeze(0)\n"
               "    sin = sin[:seq_len, :].unsqueeze(0).unsqueeze(0)\n"
               "    rotated = torch.cat((-x2, x1), dim=-1)\n"
               "    return (x * cos) + (rotated * sin)\n\n\n"
               "class GroupedQueryAttention(nn.Module):\n"
               "    # pkg/llms_from_scratch/qwen3.py: Qwen3's attention (Llama 3's without "
               "QK-norm).\n"
               "    def __init__(self, d_in, num_heads, num_kv_groups, head_dim=None, "
               "qk_norm=False") +
           (dropout ? ", dropout=0.0" : "") +
           "):\n"
           "        super().__init__()\n"
           "        assert num_heads % num_kv_groups == 0, \"num_heads must be divisible by "
           "num_kv_groups\"\n"
           "        self.num_heads = num_heads\n"
           "        self.num_kv_groups = num_kv_groups\n"
           "        self.group_size = num_heads // num_kv_groups\n"
           "        if head_dim is None:\n"
           "            assert d_in % num_heads == 0, \"`d_in` must be divisible by `num_heads` "
           "if `head_dim` is not set\"\n"
           "            head_dim = d_in // num_heads\n"
           "        self.head_dim = head_dim\n"
           "        self.d_out = num_heads * head_dim\n"
           "        self.W_query = nn.Linear(d_in, self.d_out, bias=False)\n"
           "        self.W_key = nn.Linear(d_in, num_kv_groups * head_dim, bias=False)\n"
           "        self.W_value = nn.Linear(d_in, num_kv_groups * head_dim, bias=False)\n"
           "        self.out_proj = nn.Linear(self.d_out, d_in, bias=False)\n"
           "        if qk_norm:\n"
           "            self.q_norm = RMSNorm(head_dim, eps=1e-6)\n"
           "            self.k_norm = RMSNorm(head_dim, eps=1e-6)\n"
           "        else:\n"
           "            self.q_norm = self.k_norm = None\n" +
           (dropout ? "        self.dropout = nn.Dropout(dropout)  # an extension: the book's "
                      "class has none\n"
                    : "") +
           "\n    def forward(self, x, mask, cos, sin):\n" + kGroupedProjections +
           "        if self.q_norm:\n"
           "            queries = self.q_norm(queries)\n"
           "        if self.k_norm:\n"
           "            keys = self.k_norm(keys)\n"
           "        queries = apply_rope(queries, cos, sin)\n"
           "        keys = apply_rope(keys, cos, sin)\n"
           "        keys = keys.repeat_interleave(self.group_size, dim=1)\n"
           "        values = values.repeat_interleave(self.group_size, dim=1)\n"
           "        attn_scores = queries @ keys.transpose(2, 3)\n" +
           afterChapter3Tail(c, masked, dropout);
}

std::string moduleClasses(const Config& c, bool masked, bool dropout) {
    std::string s;
    const std::string maskInit =
        masked ? "        self.register_buffer(\"mask\", make_mask(context_length))\n" : "";
    const std::string dropInit = dropout ? "        self.dropout = nn.Dropout(dropout)\n" : "";
    switch (c.variant) {
        case Variant::Simplified:
            s += "class SimplifiedAttention(nn.Module):\n"
                 "    # Section 3.3: no trainable weights; the inputs are queries, keys and "
                 "values.\n"
                 "    def __init__(self, context_length, dropout):\n"
                 "        super().__init__()\n" +
                 maskInit + dropInit + (masked || dropout ? "" : "        pass\n") +
                 "\n    def forward(self, x):\n"
                 "        attn_scores = x @ x.transpose(-2, -1)\n" +
                 singleHeadTail(masked, false, dropout, "x");
            break;
        case Variant::SelfAttentionV1:
            s += "class SelfAttention_v1(nn.Module):\n"
                 "    def __init__(self, d_in, d_out, context_length, dropout):\n"
                 "        super().__init__()\n"
                 "        self.W_query = nn.Parameter(torch.rand(d_in, d_out))\n"
                 "        self.W_key = nn.Parameter(torch.rand(d_in, d_out))\n"
                 "        self.W_value = nn.Parameter(torch.rand(d_in, d_out))\n" +
                 maskInit + dropInit +
                 "\n    def forward(self, x):\n"
                 "        keys = x @ self.W_key\n"
                 "        queries = x @ self.W_query\n"
                 "        values = x @ self.W_value\n"
                 "        attn_scores = queries @ keys.transpose(-2, -1)\n" +
                 singleHeadTail(masked, true, dropout, "values");
            break;
        case Variant::SelfAttention:
        case Variant::Causal:
        case Variant::MultiHeadWrapper: {
            const std::string cls =
                c.variant == Variant::SelfAttention ? "SelfAttention_v2" : "CausalAttention";
            s += "class " + cls +
                 "(nn.Module):\n"
                 "    def __init__(self, d_in, d_out, context_length, dropout, qkv_bias=False):\n"
                 "        super().__init__()\n"
                 "        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)\n"
                 "        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)\n"
                 "        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)\n" +
                 dropInit + maskInit +
                 "\n    def forward(self, x):\n"
                 "        keys = self.W_key(x)\n"
                 "        queries = self.W_query(x)\n"
                 "        values = self.W_value(x)\n"
                 "        attn_scores = queries @ keys.transpose(-2, -1)\n" +
                 singleHeadTail(masked, true, dropout, "values");
            if (c.variant == Variant::MultiHeadWrapper)
                s +=
                    "\n\nclass MultiHeadAttentionWrapper(nn.Module):\n"
                    "    def __init__(self, d_in, d_out, context_length, dropout, num_heads, "
                    "qkv_bias=False):\n"
                    "        super().__init__()\n"
                    "        self.heads = nn.ModuleList(\n"
                    "            [CausalAttention(d_in, d_out, context_length, dropout, qkv_bias)\n"
                    "             for _ in range(num_heads)]\n"
                    "        )\n"
                    "\n    def forward(self, x):\n"
                    "        return torch.cat([head(x) for head in self.heads], dim=-1)\n";
            break;
        }
        case Variant::MultiHead:
            s += "class MultiHeadAttention(nn.Module):\n"
                 "    def __init__(self, d_in, d_out, context_length, dropout, num_heads, "
                 "qkv_bias=False):\n"
                 "        super().__init__()\n"
                 "        assert d_out % num_heads == 0, \"d_out must be divisible by num_heads\"\n"
                 "        self.d_out = d_out\n"
                 "        self.num_heads = num_heads\n"
                 "        self.head_dim = d_out // num_heads\n"
                 "        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)\n"
                 "        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)\n"
                 "        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)\n"
                 "        self.out_proj = nn.Linear(d_out, d_out)\n" +
                 dropInit + maskInit +
                 "\n    def forward(self, x):\n"
                 "        b, num_tokens, d_in = x.shape\n"
                 "        keys = self.W_key(x)\n"
                 "        queries = self.W_query(x)\n"
                 "        values = self.W_value(x)\n"
                 "        keys = keys.view(b, num_tokens, self.num_heads, "
                 "self.head_dim).transpose(1, 2)\n"
                 "        values = values.view(b, num_tokens, self.num_heads, "
                 "self.head_dim).transpose(1, 2)\n"
                 "        queries = queries.view(b, num_tokens, self.num_heads, "
                 "self.head_dim).transpose(1, 2)\n"
                 "        attn_scores = queries @ keys.transpose(2, 3)\n" +
                 (masked ? "        attn_scores = "
                           "attn_scores.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], "
                           "-torch.inf)\n"
                         : "") +
                 "        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, "
                 "dim=-1)\n" +
                 (dropout ? "        attn_weights = self.dropout(attn_weights)\n" : "") +
                 "        context_vec = (attn_weights @ values).transpose(1, 2)\n"
                 "        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)\n"
                 "        return self.out_proj(context_vec)\n";
            break;
        case Variant::GroupedQuery:
        case Variant::Latent:
        case Variant::Rotary:
            s += afterChapter3Classes(c, masked, dropout);
            break;
    }
    return s + "\n\n";
}

std::string constructorCall(const Config& c) {
    const std::string ctx = std::to_string(c.contextLength);
    const std::string p = pyFloat(c.dropout);
    const std::string din = std::to_string(c.dIn), dout = std::to_string(c.dOut);
    const std::string bias = ", qkv_bias=" + pyBool(c.qkvBias) + ")";
    switch (c.variant) {
        case Variant::Simplified:
            return "SimplifiedAttention(" + ctx + ", " + p + ")";
        case Variant::SelfAttentionV1:
            return "SelfAttention_v1(" + din + ", " + dout + ", " + ctx + ", " + p + ")";
        case Variant::SelfAttention:
            return "SelfAttention_v2(" + din + ", " + dout + ", " + ctx + ", " + p + bias;
        case Variant::Causal:
            return "CausalAttention(" + din + ", " + dout + ", " + ctx + ", " + p + bias;
        case Variant::MultiHeadWrapper:
            return "MultiHeadAttentionWrapper(" + din + ", " + dout + ", " + ctx + ", " + p + ", " +
                   std::to_string(c.heads) + bias;
        case Variant::MultiHead:
            return "MultiHeadAttention(" + din + ", " + dout + ", " + ctx + ", " + p + ", " +
                   std::to_string(c.heads) + bias;
        case Variant::GroupedQuery:
            return "GroupedQueryAttention(" + din + ", " + dout + ", " + p +
                   ", num_heads=" + std::to_string(c.heads) +
                   ", num_kv_groups=" + std::to_string(c.kvGroups) + bias;
        case Variant::Latent:
            return "MultiHeadLatentAttention(" + din + ", " + dout + ", " + p +
                   ", num_heads=" + std::to_string(c.heads) + ", qkv_bias=" + pyBool(c.qkvBias) +
                   ", latent_dim=" +
                   (c.latentDim > 0 ? std::to_string(c.latentDim) : std::string("None")) + ")";
        case Variant::Rotary:
            return "GroupedQueryAttention(" + din + ", num_heads=" + std::to_string(c.heads) +
                   ", num_kv_groups=" + std::to_string(c.kvGroups) + ", head_dim=" +
                   (c.headDim > 0 ? std::to_string(c.headDim) : std::string("None")) +
                   ", qk_norm=" + pyBool(c.qkNorm) +
                   (c.dropout > 0.0 ? ", dropout=" + p : std::string()) + ")";
    }
    return {};
}

std::string inputCode(const TraceRun& run, const Config& c) {
    const Settings& settings = run.settings;
    std::string s;
    switch (settings.source) {
        case InputSource::Book: {
            // One row per word, as the chapter prints them.
            s += "# Section 3.3.1: the embeddings of \"" + bookSentence() +
                 "\".\ninputs = torch.tensor(\n";
            const auto& words = bookTokens();
            for (int64_t r = 0; r < run.x.size(0); ++r) {
                s += r == 0 ? "    [" : "     ";
                s += pyTensorLiteral(run.x.select(0, r), "");
                s += r + 1 < run.x.size(0) ? ", " : "] ";
                s += " # " + words[size_t(r)] + "\n";
            }
            s += ")\n";
            break;
        }
        case InputSource::Text: {
            s += "# Chapter 2: token ids (" + tokenizerName(settings.tokenizer) + " tokenizer";
            if (settings.tokenizer == TokenizerKind::Gpt2)
                s += ", as tiktoken.get_encoding(\"gpt2\").encode(text, allowed_special=\"all\")";
            s += ")\n# then token + positional embeddings.\nids = torch.tensor([";
            const auto& tokens = run.input.tokens;
            for (size_t i = 0; i < tokens.size(); ++i)
                s += (i ? ", " : "") + std::to_string(tokens[i].id);
            s += "])\n"
                 "torch.manual_seed(" +
                 std::to_string(settings.embeddingSeed) +
                 ")\n"
                 "token_embedding_layer = nn.Embedding(50257, " +
                 std::to_string(c.dIn) + ")\n";
            if (settings.positions)
                s += "pos_embedding_layer = nn.Embedding(" + std::to_string(c.contextLength) +
                     ", " + std::to_string(c.dIn) +
                     ")\n"
                     "inputs = (token_embedding_layer(ids) + "
                     "pos_embedding_layer(torch.arange(len(ids)))).detach()\n";
            else
                s += "inputs = token_embedding_layer(ids).detach()  # positions switched off\n";
            break;
        }
        case InputSource::File: {
            std::string path;
            io::appendJsonString(path, settings.embeddingsFile.toStdString());
            s += "# The embeddings loaded from " + path.substr(1, path.size() - 2) +
                 "\n"
                 "inputs = torch.tensor(\n    " +
                 pyTensorLiteral(run.x, "    ") + "\n)\n";
            break;
        }
    }
    if (run.x.dim() == 2) {
        if (c.batch == 1)
            s += "x = inputs.unsqueeze(0)  # a batch of one: (1, T, d_in)\n";
        else
            s += "x = torch.stack([inputs] * " + std::to_string(c.batch) +
                 ")  # the same input stacked: (b, T, d_in)\n";
    } else {
        s += "x = inputs  # (b, T, d_in)\n";
    }
    return s;
}

// Reads a safetensors file with the standard library, so nothing beyond PyTorch is needed
// (Debian's python3-torch does not bring the safetensors package).
const char* kSafetensorsReader =
    "def load_safetensors(path):\n"
    "    # 8 bytes of header length, a JSON header, then the raw little-endian tensors.\n"
    "    import json, struct\n"
    "    with open(path, \"rb\") as f:\n"
    "        header = json.loads(f.read(struct.unpack(\"<Q\", f.read(8))[0]))\n"
    "        data = f.read()\n"
    "    dtypes = {\"F32\": torch.float32, \"F16\": torch.float16, \"BF16\": torch.bfloat16,\n"
    "              \"F64\": torch.float64, \"BOOL\": torch.bool}\n"
    "    tensors = {}\n"
    "    for name, info in header.items():\n"
    "        if name == \"__metadata__\":\n"
    "            continue\n"
    "        begin, end = info[\"data_offsets\"]\n"
    "        flat = torch.frombuffer(bytearray(data[begin:end]), dtype=dtypes[info[\"dtype\"]]) "
    "\\\n"
    "            if end > begin else torch.empty(0, dtype=dtypes[info[\"dtype\"]])\n"
    "        tensors[name] = flat.reshape(info[\"shape\"]).float()\n"
    "    return tensors\n\n\n";

std::string loadWeightsCode(const QString& weightsFile) {
    std::string path;
    io::appendJsonString(path, weightsFile.toStdString());  // a valid Python string literal too
    std::string s = weightsFile.endsWith(QLatin1String(".safetensors"))
                        ? "state = load_safetensors(" + path + ")\n"
                        : "import json\n"
                          "state = {name: torch.tensor(value) for name, value in json.load(open(" +
                              path + ")).items()}\n";
    return s +
           "# A file may leave out the mask buffer; every parameter must be in it (strict load).\n"
           "for name, buffer in module.named_buffers():\n"
           "    state.setdefault(name, buffer)\n"
           "module.load_state_dict(state)\n";
}

// When the listing gives the view's numbers.
void describeReproduction(const Config& c, PyTorchListing* out) {
    if (!c.dropoutActive()) {
        out->reproduces =
            "Gives the same output as the view (float32, to about 1e-6) on any CPU build of "
            "PyTorch.";
        return;
    }
    if (c.dropoutRng == DropoutRng::Default) {
        out->reproduces =
            "Gives the same output as the view, dropout included, on PyTorch builds without "
            "Intel MKL (Debian's python3-torch, AMD CPUs). A PyTorch wheel with MKL on an Intel "
            "CPU drops other weights: set Dropout RNG to mkl to see its pattern.";
        return;
    }
    out->exact = false;
    out->reproduces =
        "The view drops the weights PyTorch wheels with Intel MKL drop on Intel CPUs. This code "
        "gives that output only there; on other builds (Debian's python3-torch, AMD CPUs) "
        "dropout keeps other weights, so the numbers differ. Set Dropout RNG to default to match "
        "those.";
}

// Lines of at most 96 characters, each starting with "# ".
std::string commentLines(const std::string& text) {
    std::string out, line;
    size_t i = 0;
    while (i < text.size()) {
        size_t j = text.find(' ', i);
        if (j == std::string::npos)
            j = text.size();
        const std::string word = text.substr(i, j - i);
        if (!line.empty() && line.size() + 1 + word.size() > 94) {
            out += "# " + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        i = j + 1;
    }
    if (!line.empty())
        out += "# " + line + "\n";
    return out;
}

// Runs the module and keeps what its forward() computes on the way, without changing the
// chapter's classes: a trace function notes each new value of the forward's local variables.
const char* kStepRecorder =
    "def run_with_steps(module, x, *args):\n"
    "    # module(x), and every value each local variable of the attention's forward() took, in\n"
    "    # order: steps[\"attn_scores\"][0] is the scores, [1] the masked scores. One dict per\n"
    "    # call: the wrapper's heads run one after the other.\n"
    "    import sys\n"
    "    owners = list(module.heads) if hasattr(module, \"heads\") else [module]\n"
    "    calls = []\n"
    "\n"
    "    def watch(frame, event, arg):\n"
    "        if frame.f_code.co_name != \"forward\" or not any(\n"
    "                frame.f_locals.get(\"self\") is m for m in owners):\n"
    "            return None\n"
    "        seen = {}\n"
    "        calls.append(seen)\n"
    "\n"
    "        def record(frame, event, arg):\n"
    "            for name, value in frame.f_locals.items():\n"
    "                if isinstance(value, torch.Tensor) and (\n"
    "                        name not in seen or seen[name][-1] is not value):\n"
    "                    seen.setdefault(name, []).append(value)\n"
    "            return record\n"
    "        return record\n"
    "\n"
    "    sys.settrace(watch)\n"
    "    try:\n"
    "        with torch.no_grad():\n"
    "            output = module(x, *args)\n"
    "    finally:\n"
    "        sys.settrace(None)\n"
    "    return output, calls\n\n\n";

// The Python name the chapter gives a step's tensor, and the expression that reads it from the
// recorded forward locals `s` (one call's dict). Empty for a step the forward does not compute
// (the dropout mask) and for the output.
struct StepExpression {
    std::string name, expression;
};

// The steps of the classes after chapter 3 that are a projection or its reshapes: each local is
// reassigned as the book does, so its values are, in order, the projection, the heads (or key
// value groups), the QK-normed and the rotated ones, and the repeated ones.
StepExpression afterChapter3Expression(const Config& c, const std::string& id) {
    const std::string T = "x.shape[1]";
    const int64_t hd = c.headSize();
    const int64_t groups = c.effectiveKvGroups();
    const auto nth = [](const char* local, const std::string& index) {
        return "s[\"" + std::string(local) + "\"][" + index + "]";
    };
    const auto split = [&](const char* local, int64_t heads) {
        return nth(local, "0") + ".view(x.shape[0], " + T + ", " + std::to_string(heads) + ", " +
               std::to_string(hd) + ")";
    };
    const std::string normed = "2", rotated = c.qkNorm ? "3" : "2";
    struct Entry {
        const char* id;
        const char* name;
        std::string expression;
    };
    const Entry entries[] = {
        {step_id::kQueries, "queries", nth("queries", "0")},
        {step_id::kLatent, "latent", nth("latent", "0")},
        {step_id::kKeys, "keys", nth("keys", "0")},
        {step_id::kValues, "values", nth("values", "0")},
        {step_id::kQueriesSplit, "queries_split", split("queries", c.effectiveHeads())},
        {step_id::kKeysSplit, "keys_split", split("keys", groups)},
        {step_id::kValuesSplit, "values_split", split("values", groups)},
        {step_id::kQueriesHeads, "queries_heads", nth("queries", "1")},
        {step_id::kKeysHeads, "keys_heads", nth("keys", "1")},
        {step_id::kValuesHeads, "values_heads", nth("values", "1")},
        {step_id::kKeysGroups, "keys_groups", nth("keys", "1")},
        {step_id::kValuesGroups, "values_groups", nth("values", "1")},
        {step_id::kQueriesNormed, "queries_normed", nth("queries", normed)},
        {step_id::kKeysNormed, "keys_normed", nth("keys", normed)},
        {step_id::kRopeCos, "rope_cos", "cos[:" + T + ", :]"},
        {step_id::kRopeSin, "rope_sin", "sin[:" + T + ", :]"},
        {step_id::kQueriesRotated, "queries_rotated", nth("queries", rotated)},
        {step_id::kKeysRotated, "keys_rotated", nth("keys", rotated)},
        {step_id::kKeysRepeated, "keys_repeated", nth("keys", "-1")},
        {step_id::kValuesRepeated, "values_repeated", nth("values", "-1")},
        {step_id::kMask, "mask_shown", "make_mask(" + T + ")"},
    };
    for (const Entry& e : entries)
        if (id == e.id)
            return {e.name, e.expression};
    return {};
}

StepExpression stepExpression(const Config& c, const std::string& id) {
    const bool after = variantIsAfterChapter3(c.variant);
    const bool mha = c.variant == Variant::MultiHead || after;
    const bool simplified = c.variant == Variant::Simplified;
    const std::string mask =
        c.variant == Variant::MultiHeadWrapper ? "module.heads[0].mask" : "module.mask";
    const std::string T = "x.shape[1]";
    // The classes after chapter 3 have no mask buffer: make_mask gives it.
    const std::string maskTT = after ? "make_mask(" + T + ")" : mask + "[:" + T + ", :" + T + "]";
    if (after)
        if (StepExpression e = afterChapter3Expression(c, id); !e.name.empty())
            return e;
    const std::string scale =
        simplified ? "" : " / s[\"keys\"][-1].shape[-1]**0.5";  // d_k: keys' last size
    const std::string unmasked = "torch.softmax(s[\"attn_scores\"][0]" + scale + ", dim=-1)";
    const std::string tril = "(" + unmasked + " * (" + maskTT + " == 0))";
    if (id == step_id::kInputs)
        return {"x", "x"};
    // A projection's step id is also its name in the forward.
    struct Qkv {
        const char *id, *split, *heads;
    };
    for (const Qkv& p : {Qkv{step_id::kQueries, step_id::kQueriesSplit, step_id::kQueriesHeads},
                         Qkv{step_id::kKeys, step_id::kKeysSplit, step_id::kKeysHeads},
                         Qkv{step_id::kValues, step_id::kValuesSplit, step_id::kValuesHeads}}) {
        const std::string base = p.id;
        if (id == base)
            return {base, "s[\"" + base + "\"][0]"};
        if (mha && id == p.split)
            return {base + "_split", "s[\"" + base + "\"][0].view(x.shape[0], " + T + ", " +
                                         std::to_string(c.heads) + ", " +
                                         std::to_string(c.dOut / c.heads) + ")"};
        if (mha && id == p.heads)
            return {base + "_heads", "s[\"" + base + "\"][1]"};
    }
    if (id == step_id::kScores)
        return {"attn_scores", "s[\"attn_scores\"][0]"};
    if (id == step_id::kMask)
        return {"mask", maskTT};
    if (id == step_id::kMaskedScores)
        return {"masked_scores", "s[\"attn_scores\"][1]"};
    if (id == step_id::kScaledScores)
        return {"scaled_scores", "s[\"attn_scores\"][-1]" + scale};
    if (id == step_id::kWeights)
        return {"attn_weights", "s[\"attn_weights\"][0]"};
    if (id == step_id::kWeightsUnmasked)
        return {"weights_unmasked", unmasked};
    if (id == step_id::kWeightsTril)
        return {"weights_tril", tril};
    if (id == step_id::kWeightsRenormalized)
        return {"weights_renormalized", tril + " / " + tril + ".sum(dim=-1, keepdim=True)"};
    if (id == step_id::kDroppedWeights)
        return {"attn_weights", "s[\"attn_weights\"][1]"};
    if (mha && id == step_id::kContextHeads)
        return {"context_heads", "s[\"attn_weights\"][-1] @ s[\"values\"][-1]"};
    if (mha && id == step_id::kContextTransposed)
        return {"context_transposed", "s[\"context_vec\"][0]"};
    if (id == step_id::kContext)
        return {"context_vec", std::string("s[\"context_vec\"][") + (mha ? "1" : "0") + "]"};
    return {};
}

// Prints the step on screen after the output, read from the forward's recorded locals.
std::string stepPrintCode(const Config& c, const Step& step) {
    const StepExpression e = stepExpression(c, step.info.id);
    std::string shape;
    for (size_t i = 0; i < step.info.shape.size(); ++i)
        shape += (i ? ", " : "") + std::to_string(step.info.shape[i]);
    const std::string comment =
        "# The step on screen, " + step.info.id + ": shape (" + shape + ")" +
        (c.variant == Variant::MultiHeadWrapper && e.name != "x" && e.name != "mask"
             ? ", the heads' tensors stacked"
             : "") +
        ".\n";
    if (e.name.empty())
        return "# The step on screen, " + step.info.id +
               ", is not a variable of the forward: the view computes it as\n#   " + step.info.op +
               "\n";
    std::string value = e.expression;
    if (c.variant == Variant::MultiHeadWrapper && e.name != "x" && e.name != "mask")
        value = "torch.stack([" + e.expression + " for s in calls])";
    else if (value.find("s[") != std::string::npos)
        value = "(lambda s: " + value + ")(calls[0])";
    return comment + e.name + " = " + value + "\nprint(" + e.name + ")\n";
}

}  // namespace

PyTorchListing pytorchListing(const TraceRun& run, const std::string& stepId) {
    const Config& c = run.trace->config;
    PyTorchListing listing;
    describeReproduction(c, &listing);
    const MaskSpec mask = c.effectiveMask();
    const bool masked = mask.kind != MaskKind::None;
    const bool dropout = c.dropout > 0.0;
    const bool loaded = !run.settings.weightsFile.isEmpty() && variantHasWeights(c.variant);
    const bool after = variantIsAfterChapter3(c.variant);
    std::string s = "# Generated by Attention Lens: " + variantClassName(c.variant) +
                    (after ? " as the bonus material of\n" : " as in chapter 3 of\n") +
                    "# \"Build a Large Language Model From Scratch\"" +
                    (after ? " builds it" : "") + ". The module's result is left in `output`.\n" +
                    commentLines(listing.reproduces) +
                    "import torch\n"
                    "import torch.nn as nn\n\n\n";
    if (masked)
        s += maskFunction(mask);
    if (loaded && run.settings.weightsFile.endsWith(QLatin1String(".safetensors")))
        s += kSafetensorsReader;
    s += moduleClasses(c, masked, dropout);
    {
        const Step* shown =
            stepToShow(*run.trace, stepId.empty() ? run.settings.step.toStdString() : stepId);
        if (shown && shown->info.id != step_id::kOutput)
            s += kStepRecorder;
    }
    s += inputCode(run, c);
    s += "\ntorch.manual_seed(" + std::to_string(c.seed) + ")\n";
    s += "module = " + constructorCall(c) + "\n";
    if (loaded)
        s += loadWeightsCode(run.settings.weightsFile);
    if (c.mode == Mode::Eval)
        s += "module.eval()  # dropout off\n";
    // Qwen3's class takes the mask and the RoPE tables from the model around it.
    std::string args;
    if (c.variant == Variant::Rotary) {
        args = ", mask, cos, sin";
        s += masked ? "mask = make_mask(x.shape[1]).bool()\n"
                    : "mask = torch.zeros(x.shape[1], x.shape[1], dtype=torch.bool)  # no mask\n";
        if (c.rope)
            s += "cos, sin = compute_rope_params(" + std::to_string(c.headSize()) +
                 ", theta_base=" + pyFloat(c.ropeBase) +
                 ", context_length=" + std::to_string(c.contextLength) + ")\n";
        else
            s += "# --no-rope: the same module with every angle 0, which leaves each number as "
                 "it is.\n"
                 "cos = torch.ones(x.shape[1], " +
                 std::to_string(c.headSize()) + ")\nsin = torch.zeros(x.shape[1], " +
                 std::to_string(c.headSize()) + ")\n";
    }
    const std::string wanted = stepId.empty() ? run.settings.step.toStdString() : stepId;
    const Step* step = stepToShow(*run.trace, wanted);
    if (!step || step->info.id == step_id::kOutput) {
        s += "with torch.no_grad():\n    output = module(x" + args + ")\n";
        s += "print(output)\n";
    } else {
        s += "output, calls = run_with_steps(module, x" + args + ")\n";
        s += "print(output)\n\n";
        s += stepPrintCode(c, *step);
    }
    listing.code = std::move(s);
    return listing;
}

namespace {

// The end of a model listing: the next-token probabilities from the final hidden state `x` and
// the output head `head`, and what the view shows, printed.
std::string modelListingEnd(int layer) {
    return "probabilities = torch.softmax((x[-1] @ head.T).double(), dim=-1)\n\n"
           "torch.set_printoptions(precision=6, linewidth=120)\n"
           "print(\"attention of block " +
           std::to_string(layer) +
           ", (heads, T, T):\")\n"
           "print(attention)\n"
           "top = torch.topk(probabilities, 5)\n"
           "print(\"next token after the last:\", [(int(i), round(float(p), 6)) for p, i in "
           "zip(top.values, top.indices)])\n";
}

// A Python float literal that reads back as the same double.
std::string pyNumber(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    std::string t = buf;
    if (t.find_first_of(".eE") == std::string::npos)
        t += ".0";
    return t;
}

std::string ropeCall(const RopeSpec& r, int64_t hd) {
    std::string s = "rope_tables(" + std::to_string(hd) + ", " + pyNumber(r.base);
    if (r.scaling == RopeSpec::Scaling::Llama3)
        s += ", llama3=(" + pyNumber(r.factor) + ", " + pyNumber(r.lowFreqFactor) + ", " +
             pyNumber(r.highFreqFactor) + ", " + pyNumber(r.originalContext) + ")";
    else if (r.scaling == RopeSpec::Scaling::Linear)
        s += ", linear=" + pyNumber(r.factor);
    return s + ")";
}

// The forward of a Llama, Qwen2, Qwen3 or Gemma 3 model written out as the book's classes
// compute it (llama3.py, qwen3.py, ch05/12_gemma3), reading the same folder or file.
PyTorchListing familyListing(const ModelRun& run) {
    const DecoderModel& m = *run.model;
    const DecoderArchitecture& a = m.arch;
    const QString where = QFileInfo(modelFilePath(run.settings.modelFile)).absoluteFilePath();
    std::string path;
    io::appendJsonString(path, where.toStdString());          // a valid Python string literal too
    const bool onePlus = a.norm == NormKind::RmsNormOnePlus;  // the listing says what each is
    const int layer = run.settings.layer;
    // The names as the file has them (engine/weight_names.h); a norm by its parameter's.
    const WeightNameTable& n = weightNameTable(a.family, m.names);
    auto norm = [&](const std::string& part) { return part + "." + n.normScale; };
    auto q = [](const std::string& name) { return "\"" + name + "\""; };
    PyTorchListing listing;
    listing.reproduces =
        "Gives the same attention weights and next-token probabilities as the view (float32, "
        "to about 1e-5) on any CPU build of PyTorch.";
    std::string s =
        "# Generated by Attention Lens: block " + std::to_string(layer) + " of " +
        QFileInfo(where).fileName().toStdString() + ", a " + familyName(a.family) +
        " model, written out as the book's classes\n"
        "# compute it, with the same weights, token ids and eval mode. `attention` "
        "holds the block's weights\n# (query heads, T, T).\n" +
        commentLines(listing.reproduces) +
        "import json\nimport os\n\nimport torch\nimport torch.nn.functional as F\n\n\n" +
        kSafetensorsReader;
    if (QFileInfo(where).isDir())
        s += "folder = " + path +
             "\n"
             "if os.path.exists(os.path.join(folder, \"model.safetensors\")):\n"
             "    state = load_safetensors(os.path.join(folder, \"model.safetensors\"))\n"
             "else:  # the shards model.safetensors.index.json names\n"
             "    with open(os.path.join(folder, \"model.safetensors.index.json\")) as f:\n"
             "        shards = sorted(set(json.load(f)[\"weight_map\"].values()))\n"
             "    state = {}\n"
             "    for shard in shards:\n"
             "        state.update(load_safetensors(os.path.join(folder, shard)))\n";
    else if (where.endsWith(QLatin1String(".safetensors")))
        s += "state = load_safetensors(" + path + ")\n";
    else
        s += "state = {name: t.float() for name, t in torch.load(" + path +
             ", map_location=\"cpu\").items()}\n";
    s += "# Gemma 3's multimodal checkpoints keep the text model under \"language_model.\".\n"
         "state = {name.removeprefix(\"language_model.\"): t for name, t in state.items()}\n\n";
    s += "heads, kv_heads, head_dim, d_model = " + std::to_string(a.heads) + ", " +
         std::to_string(a.keyValueHeads()) + ", " + std::to_string(a.headSize()) + ", " +
         std::to_string(a.dModel) + "\neps = " + pyNumber(a.normEps) + "\nwindows = [";
    for (int64_t l = 0; l < a.layers; ++l)
        s += (l ? ", " : "") + std::to_string(a.windowOf(l));
    s += "]  # each layer's sliding window, 0 for full attention\nids = torch.tensor([";
    for (size_t i = 0; i < run.input.tokens.size(); ++i)
        s += (i ? ", " : "") + std::to_string(run.input.tokens[i].id);
    s += "])  # the text's tokens\nT = len(ids)\n\n\n";
    s += std::string("def rms_norm(x, w):  # ") +
         (onePlus ? "Gemma's RMSNorm: x / rms(x) * (1 + w)" : "RMSNorm: x / rms(x) * w") +
         "\n    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps) * " +
         (onePlus ? "(1.0 + w)" : "w") +
         "\n\n\n"
         "def linear(x, name):  # nn.Linear: x @ W.T (+ b)\n"
         "    y = x @ state[name + \".weight\"].T\n"
         "    return y + state[name + \".bias\"] if name + \".bias\" in state else y\n\n\n"
         "def rope_tables(hd, base, llama3=None, linear=None):  # compute_rope_params\n"
         "    inv_freq = 1.0 / (base ** (torch.arange(0, hd, 2, dtype=torch.float32)[: hd // 2] "
         "/ hd))\n"
         "    if llama3 is not None:  # Llama 3's frequency scaling\n"
         "        factor, low, high, original = llama3\n"
         "        wavelen = 2 * torch.pi / inv_freq\n"
         "        scaled = torch.where(wavelen > original / low, inv_freq / factor, inv_freq)\n"
         "        smooth = (original / wavelen - low) / (high - low)\n"
         "        smoothed = (1 - smooth) * (inv_freq / factor) + smooth * inv_freq\n"
         "        medium = (wavelen <= original / low) & (wavelen >= original / high)\n"
         "        inv_freq = torch.where(medium, smoothed, scaled)\n"
         "    if linear is not None:\n"
         "        inv_freq = inv_freq / linear\n"
         "    angles = torch.arange(T, dtype=torch.float32)[:, None] * inv_freq[None, :]\n"
         "    angles = torch.cat([angles, angles], dim=1)\n"
         "    return torch.cos(angles), torch.sin(angles)\n\n\n"
         "def apply_rope(x, cos, sin):  # the two halves of each head turned together\n"
         "    x1, x2 = x[..., : head_dim // 2], x[..., head_dim // 2:]\n"
         "    return x * cos + torch.cat((-x2, x1), dim=-1) * sin\n\n\n";
    s += "full_rope = " + ropeCall(a.globalRope, a.headSize()) +
         "\nsliding_rope = " + ropeCall(a.localRope, a.headSize()) + "\n";
    s += "x = state[" + q(n.tokenEmbedding) + "][ids]" +
         (a.embeddingScale != 1.0 ? " * (d_model ** 0.5)  # Gemma scales the embeddings" : "") +
         "\nfor n in range(len(windows)):\n"
         "    b = " +
         q(n.blocks + ".{n}.") +
         ".format(n=n)\n"
         "    h = rms_norm(x, state[b + " +
         q(norm(n.norm1)) +
         "])\n"
         "    q = linear(h, b + " +
         q(n.query) +
         ").view(T, heads, head_dim).transpose(0, 1)\n"
         "    k = linear(h, b + " +
         q(n.key) +
         ").view(T, kv_heads, head_dim).transpose(0, 1)\n"
         "    v = linear(h, b + " +
         q(n.value) + ").view(T, kv_heads, head_dim).transpose(0, 1)\n";
    if (a.qkNorm)
        s += "    q = rms_norm(q, state[b + " + q(norm(n.queryNorm)) +
             "])  # QK-norm, before RoPE\n"
             "    k = rms_norm(k, state[b + " +
             q(norm(n.keyNorm)) + "])\n";
    s += "    cos, sin = sliding_rope if windows[n] else full_rope\n"
         "    q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)\n"
         "    k = k.repeat_interleave(heads // kv_heads, dim=0)  # each group serves its heads\n"
         "    v = v.repeat_interleave(heads // kv_heads, dim=0)\n"
         "    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)\n"
         "    if windows[n]:  # and keys windows[n] or more tokens back\n"
         "        mask |= torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=windows[n]).T\n";
    if (a.queryScale > 0.0)
        s += "    q = q * " + pyNumber(a.queryScale) +
             "  # query_pre_attn_scalar ** -0.5\n"
             "    weights = torch.softmax((q @ k.transpose(1, 2)).masked_fill(mask, -torch.inf), "
             "dim=-1)\n";
    else
        s += "    scores = (q @ k.transpose(1, 2)).masked_fill(mask, -torch.inf)\n"
             "    weights = torch.softmax(scores / head_dim**0.5, dim=-1)\n";
    s += "    if n == " + std::to_string(layer) +
         ":\n"
         "        attention = weights\n"
         "    context = (weights @ v).transpose(0, 1).reshape(T, heads * head_dim)\n"
         "    a = linear(context, b + " +
         q(n.outProj) + ")\n";
    if (a.sandwichNorms)
        s += "    a = rms_norm(a, state[b + " + q(norm(n.postAttentionNorm)) + "])\n";
    s += "    x = x + a\n"
         "    h = rms_norm(x, state[b + " +
         q(norm(n.norm2)) + "])\n" +
         (a.feedForward == FeedForwardKind::GeGlu
              ? "    g = F.gelu(linear(h, b + " + q(n.gate) + "), approximate=\"tanh\")\n"
              : "    g = F.silu(linear(h, b + " + q(n.gate) + "))\n") +
         "    f = linear(g * linear(h, b + " + q(n.up) + "), b + " + q(n.down) + ")\n";
    if (a.sandwichNorms)
        s += "    f = rms_norm(f, state[b + " + q(norm(n.postFeedForwardNorm)) + "])\n";
    s += "    x = x + f\n"
         "x = rms_norm(x, state[" +
         q(norm(n.finalNorm)) +
         "])\n"
         "head = state.get(" +
         q(n.outHead) + ", state[" + q(n.tokenEmbedding) + "])  # tied: the embedding\n" +
         modelListingEnd(layer);
    listing.code = std::move(s);
    return listing;
}

}  // namespace

PyTorchListing pytorchModelListing(const ModelRun& run) {
    // Learned positions: chapter 4's GPTModel; RoPE: the later families' forward.
    if (run.model->arch.rope)
        return familyListing(run);
    const DecoderModel& m = *run.model;
    const DecoderArchitecture& a = m.arch;
    const QString file = QFileInfo(modelFilePath(run.settings.modelFile)).absoluteFilePath();
    std::string path;
    io::appendJsonString(path, file.toStdString());  // a valid Python string literal too
    const bool hf = m.names == WeightNames::HuggingFace;
    const int layer = run.settings.layer;
    PyTorchListing listing;
    listing.reproduces =
        "Gives the same attention weights and next-token probabilities as the view (float32, "
        "to about 1e-5) on any CPU build of PyTorch.";
    std::string s =
        "# Generated by Attention Lens: block " + std::to_string(layer) + " of " +
        QFileInfo(file).fileName().toStdString() +
        ", the chapter-4 forward (GPTModel) written out with the\n"
        "# same weights, token ids and eval mode. `attention` holds the block's weights (heads, "
        "T, T).\n" +
        commentLines(listing.reproduces) +
        "import torch\n"
        "import torch.nn.functional as F\n\n\n";
    if (file.endsWith(QLatin1String(".safetensors")))
        s += kSafetensorsReader + std::string("state = load_safetensors(") + path + ")\n";
    else
        s += "try:\n"
             "    state = torch.load(" +
             path +
             ", map_location=\"cpu\", weights_only=True)\n"
             "except Exception:\n"
             "    # PyTorch 1.13's safe loader refuses the plain numbers (learning rate, betas) a\n"
             "    # training checkpoint also holds. Attention Lens read this file with a reader "
             "that\n"
             "    # accepts nothing but tensors and plain values, and found nothing else in it.\n"
             "    state = torch.load(" +
             path +
             ", map_location=\"cpu\")\n"
             "# A training checkpoint keeps the model's state_dict under a key of its own.\n"
             "for key in (\"model_state_dict\", \"state_dict\", \"model\"):\n"
             "    if isinstance(state, dict) and isinstance(state.get(key), dict):\n"
             "        state = state[key]\n"
             "        break\n"
             "state = {name: tensor.float() for name, tensor in state.items()}\n";
    if (hf)
        s += "# Hugging Face names may start with \"transformer.\".\n"
             "state = {name.removeprefix(\"transformer.\"): t for name, t in state.items()}\n";
    s += "\nlayers, heads, d_model = " + std::to_string(a.layers) + ", " + std::to_string(a.heads) +
         ", " + std::to_string(a.dModel) + "\nhead_dim = d_model // heads\n";
    s += "ids = torch.tensor([";
    for (size_t i = 0; i < run.input.tokens.size(); ++i)
        s += (i ? ", " : "") + std::to_string(run.input.tokens[i].id);
    s += "])  # the text's GPT-2 tokens\nT = len(ids)\n\n\n";
    // The weights by their names in the file (engine/weight_names.h): Hugging Face's Conv1D
    // computes x @ W, the book's nn.Linear x @ W.T.
    const WeightNameTable& t = weightNameTable(Family::Gpt2, m.names);
    auto q = [](const std::string& name) { return "\"" + name + "\""; };
    if (t.inputMajor)
        s += "def linear(x, name):  # Conv1D: x @ W + b\n"
             "    return x @ state[name + \".weight\"] + state[name + \".bias\"]\n\n\n";
    else
        s += "def linear(x, name):  # nn.Linear: x @ W.T (+ b)\n"
             "    y = x @ state[name + \".weight\"].T\n"
             "    return y + state[name + \".bias\"] if name + \".bias\" in state else y\n\n\n";
    s += "def norm(x, name):\n"
         "    return F.layer_norm(x, (d_model,), state[name + " +
         q("." + t.normScale) + "], state[name + " + q("." + t.normShift) +
         "], eps=1e-5)\n\n\n"
         "x = state[" +
         q(t.tokenEmbedding) + "][ids] + state[" + q(t.positionEmbedding) +
         "][:T]\n"
         "for n in range(layers):\n"
         "    b = f\"" +
         t.blocks +
         ".{n}.\"\n"
         "    h = norm(x, b + " +
         q(t.norm1) + ")\n";
    if (!t.queryKeyValue.empty())
        s += "    q, k, v = linear(h, b + " + q(t.queryKeyValue) + ").split(d_model, dim=-1)\n";
    else
        s += "    q, k, v = (linear(h, b + w) for w in (" + q(t.query) + ", " + q(t.key) + ", " +
             q(t.value) + "))\n";
    s += "    q, k, v = (t.view(T, heads, head_dim).transpose(0, 1) for t in (q, k, v))\n"
         "    scores = q @ k.transpose(1, 2)\n"
         "    scores = scores.masked_fill(torch.triu(torch.ones(T, T), diagonal=1).bool(), "
         "-torch.inf)\n"
         "    weights = torch.softmax(scores / head_dim**0.5, dim=-1)\n"
         "    if n == " +
         std::to_string(layer) +
         ":\n"
         "        attention = weights\n"
         "    context = (weights @ v).transpose(0, 1).contiguous().view(T, d_model)\n"
         "    x = x + linear(context, b + " +
         q(t.outProj) +
         ")\n"
         "    h = norm(x, b + " +
         q(t.norm2) +
         ")\n"
         "    x = x + linear(F.gelu(linear(h, b + " +
         q(t.up) + "), approximate=\"tanh\"), b + " + q(t.down) +
         ")\n"
         "x = norm(x, " +
         q(t.finalNorm) +
         ")\n"
         "head = state.get(" +
         q(t.outHead) + ", state[" + q(t.tokenEmbedding) + "])\n";
    s += modelListingEnd(layer);
    listing.code = std::move(s);
    return listing;
}

}  // namespace attn

#include "cli/pytorch_code.h"

#include "io/text_format.h"

namespace attn {

namespace {

std::string pyBool(bool b) {
    return b ? "True" : "False";
}

std::string pyFloat(double v) {
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
    }
    return {};
}

std::string inputCode(const RunSpec& spec, const PreparedInput& input, const Config& c) {
    std::string s;
    switch (spec.input.kind) {
        case InputKind::BookPreset:
            s += "# Section 3.3.1: the embeddings of \"Your journey starts with one step\".\n"
                 "inputs = torch.tensor(\n"
                 "    [[0.43, 0.15, 0.89],  # Your     (x^1)\n"
                 "     [0.55, 0.87, 0.66],  # journey  (x^2)\n"
                 "     [0.57, 0.85, 0.64],  # starts   (x^3)\n"
                 "     [0.22, 0.58, 0.33],  # with     (x^4)\n"
                 "     [0.77, 0.25, 0.10],  # one      (x^5)\n"
                 "     [0.05, 0.80, 0.55]]  # step     (x^6)\n"
                 ")\n";
            break;
        case InputKind::Text: {
            s += "# Chapter 2: token ids (" + tokenizerName(spec.input.tokenizer) + " tokenizer";
            if (spec.input.tokenizer == TokenizerKind::Gpt2)
                s += ", as tiktoken.get_encoding(\"gpt2\").encode(text, allowed_special=\"all\")";
            s += ")\n# then token + positional embeddings.\nids = torch.tensor([";
            for (size_t i = 0; i < input.tokens.size(); ++i)
                s += (i ? ", " : "") + std::to_string(input.tokens[i].id);
            s += "])\n"
                 "torch.manual_seed(" +
                 std::to_string(spec.input.embeddingSeed) +
                 ")\n"
                 "token_embedding_layer = nn.Embedding(50257, " +
                 std::to_string(c.dIn) + ")\n";
            if (spec.input.positions)
                s += "pos_embedding_layer = nn.Embedding(" + std::to_string(c.contextLength) +
                     ", " + std::to_string(c.dIn) +
                     ")\n"
                     "inputs = (token_embedding_layer(ids) + "
                     "pos_embedding_layer(torch.arange(len(ids)))).detach()\n";
            else
                s += "inputs = token_embedding_layer(ids).detach()  # positions switched off\n";
            break;
        }
        case InputKind::Embeddings:
            s += "# The embeddings loaded from " + spec.input.embeddingsPath +
                 "\n"
                 "inputs = torch.tensor(\n    " +
                 pyTensorLiteral(input.inputs, "    ") + "\n)\n";
            break;
    }
    if (input.inputs.dim() == 2) {
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

}  // namespace

std::string pytorchCode(const RunSpec& spec, const PreparedInput& input, const Config& c) {
    const MaskSpec mask = c.effectiveMask();
    const bool masked = mask.kind != MaskKind::None;
    const bool dropout = c.dropout > 0.0;
    std::string s = "# Generated by Attention Lens: " + variantClassName(c.variant) +
                    " as in chapter 3 of\n"
                    "# \"Build a Large Language Model From Scratch\". The module's result is left "
                    "in `output`.\n"
                    "import torch\n"
                    "import torch.nn as nn\n\n\n";
    if (masked)
        s += maskFunction(mask);
    s += moduleClasses(c, masked, dropout);
    s += inputCode(spec, input, c);
    s += "\ntorch.manual_seed(" + std::to_string(c.seed) + ")\n";
    s += "module = " + constructorCall(c) + "\n";
    if (spec.weightsPath) {
        std::string path;
        io::appendJsonString(path, *spec.weightsPath);  // a valid Python string literal too
        if (spec.weightsPath->ends_with(".safetensors"))
            s += "from safetensors.torch import load_file\n"
                 "module.load_state_dict(load_file(" +
                 path + "), strict=False)\n";
        else
            s += "import json\n"
                 "module.load_state_dict({name: torch.tensor(value) for name, value in "
                 "json.load(open(" +
                 path + ")).items()}, strict=False)\n";
    }
    if (c.mode == Mode::Eval)
        s += "module.eval()  # dropout off\n";
    s += "with torch.no_grad():\n    output = module(x)\n";
    s += "print(output)\n";
    return s;
}

}  // namespace attn

#include "engine/weight_names.h"

namespace attn {

std::string WeightNameTable::blockPrefix(int64_t n) const {
    return blocks + "." + std::to_string(n) + ".";
}

std::string WeightNameTable::tensor(int64_t n, const std::string& part,
                                    const std::string& parameter) const {
    return blockPrefix(n) + part + "." + parameter;
}

std::string WeightNameTable::module(int64_t n, const std::string& part) const {
    return blocks + "[" + std::to_string(n) + "]." + part;
}

std::vector<std::string> WeightNameTable::normTensors(int64_t n, const std::string& part) const {
    std::vector<std::string> out = {tensor(n, part, normScale)};
    if (!normShift.empty())
        out.push_back(tensor(n, part, normShift));
    return out;
}

namespace {

// Hugging Face's GPT2LMHeadModel state_dict (the "transformer." prefix already removed).
WeightNameTable hfGpt2() {
    WeightNameTable t;
    t.tokenEmbedding = "wte.weight";
    t.positionEmbedding = "wpe.weight";
    t.blocks = "h";
    t.attention = "attn";
    t.feedForward = "mlp";
    t.norm1 = "ln_1";
    t.queryKeyValue = "attn.c_attn";
    t.outProj = "attn.c_proj";
    t.norm2 = "ln_2";
    t.up = "mlp.c_fc";
    t.down = "mlp.c_proj";
    t.finalNorm = "ln_f";
    t.outHead = "lm_head.weight";
    t.normShift = "bias";
    t.inputMajor = true;
    t.ignoredInBlock = {"attn.bias", "attn.masked_bias"};
    return t;
}

// The book's chapter-4 GPTModel.
WeightNameTable bookGpt2() {
    WeightNameTable t;
    t.tokenEmbedding = "tok_emb.weight";
    t.positionEmbedding = "pos_emb.weight";
    t.blocks = "trf_blocks";
    t.attention = "att";
    t.feedForward = "ff";
    t.norm1 = "norm1";
    t.query = "att.W_query";
    t.key = "att.W_key";
    t.value = "att.W_value";
    t.outProj = "att.out_proj";
    t.norm2 = "norm2";
    t.up = "ff.layers.0";
    t.down = "ff.layers.2";
    t.finalNorm = "final_norm";
    t.outHead = "out_head.weight";
    t.normScale = "scale";
    t.normShift = "shift";
    t.ignoredInBlock = {"att.mask"};
    return t;
}

// Hugging Face's LlamaForCausalLM and the models named after it (Qwen2, Qwen3, Gemma 3's text
// model): self_attn and mlp, RMSNorms with a weight.
WeightNameTable hfLlamaLike(Family family) {
    WeightNameTable t;
    t.tokenEmbedding = "model.embed_tokens.weight";
    t.blocks = "model.layers";
    t.attention = "self_attn";
    t.feedForward = "mlp";
    t.norm1 = "input_layernorm";
    t.query = "self_attn.q_proj";
    t.key = "self_attn.k_proj";
    t.value = "self_attn.v_proj";
    t.outProj = "self_attn.o_proj";
    if (family == Family::Qwen3 || family == Family::Gemma3) {
        t.queryNorm = "self_attn.q_norm";
        t.keyNorm = "self_attn.k_norm";
    }
    if (family == Family::Gemma3) {
        t.postAttentionNorm = "post_attention_layernorm";
        t.norm2 = "pre_feedforward_layernorm";
        t.postFeedForwardNorm = "post_feedforward_layernorm";
    } else {
        t.norm2 = "post_attention_layernorm";
    }
    t.gate = "mlp.gate_proj";
    t.up = "mlp.up_proj";
    t.down = "mlp.down_proj";
    t.finalNorm = "model.norm";
    t.outHead = "lm_head.weight";
    t.ignoredSuffixes = {".rotary_emb.inv_freq"};
    return t;
}

// The book's Llama3Model (llama3.py: nn.RMSNorm, ".weight"), Qwen3Model (qwen3.py; Qwen2 read
// the same way) and Gemma3Model (ch05/12_gemma3: its blocks are "blocks" and keep Hugging
// Face's norm names), whose own RMSNorms keep a ".scale".
WeightNameTable bookLlamaLike(Family family) {
    const bool gemma = family == Family::Gemma3;
    WeightNameTable t;
    t.tokenEmbedding = "tok_emb.weight";
    t.blocks = gemma ? "blocks" : "trf_blocks";
    t.attention = "att";
    t.feedForward = "ff";
    t.query = "att.W_query";
    t.key = "att.W_key";
    t.value = "att.W_value";
    t.outProj = "att.out_proj";
    if (family == Family::Qwen3 || gemma) {
        t.queryNorm = "att.q_norm";
        t.keyNorm = "att.k_norm";
    }
    if (gemma) {
        t.norm1 = "input_layernorm";
        t.postAttentionNorm = "post_attention_layernorm";
        t.norm2 = "pre_feedforward_layernorm";
        t.postFeedForwardNorm = "post_feedforward_layernorm";
    } else {
        t.norm1 = "norm1";
        t.norm2 = "norm2";
    }
    t.gate = "ff.fc1";
    t.up = "ff.fc2";
    t.down = "ff.fc3";
    t.finalNorm = "final_norm";
    t.outHead = "out_head.weight";
    t.normScale = family == Family::Llama ? "weight" : "scale";
    return t;
}

WeightNameTable makeTable(Family family, WeightNames names) {
    const bool hf = names == WeightNames::HuggingFace;
    if (family == Family::Gpt2)
        return hf ? hfGpt2() : bookGpt2();
    return hf ? hfLlamaLike(family) : bookLlamaLike(family);
}

}  // namespace

const WeightNameTable& weightNameTable(Family family, WeightNames names) {
    static const std::vector<WeightNameTable> tables = [] {
        std::vector<WeightNameTable> all;
        for (Family f : {Family::Gpt2, Family::Llama, Family::Qwen2, Family::Qwen3, Family::Gemma3})
            for (WeightNames n : {WeightNames::HuggingFace, WeightNames::Book})
                all.push_back(makeTable(f, n));
        return all;
    }();
    return tables[static_cast<size_t>(family) * 2 + (names == WeightNames::Book ? 1 : 0)];
}

}  // namespace attn

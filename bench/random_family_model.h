#pragma once
// Hugging Face model folders of today's sizes with random weights, for benchmarks (SPEC 9.2's
// figures in docs/PERFORMANCE.md): config.json and model.safetensors, written tensor by tensor
// (never the whole model in memory) the first time a benchmark asks for one.
//  - SmolLM2-135M's sizes: llama, 30 layers, d_model 576, 9 heads sharing 3 key/value heads,
//    intermediate 1,536, vocabulary 49,152, tied; float32.
//  - Qwen3-0.6B's sizes: qwen3, 28 layers, d_model 1,024, 16 heads sharing 8 key/value heads of
//    128, intermediate 3,072, vocabulary 151,936, tied; bfloat16, as Qwen ships it (1.2 GB).

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace attn::bench {

struct FamilySizes {
    std::string modelType;
    int64_t layers, d, heads, kvHeads, headDim, ff, vocab, context;
    bool bf16;
    double ropeTheta;
};

inline const FamilySizes kSmolLm2{"llama", 30, 576, 9, 3, 64, 1536, 49152, 8192, false, 100000.0};
inline const FamilySizes kQwen3{"qwen3", 28, 1024, 16, 8, 128, 3072, 151936, 40960, true, 1e6};

// Writes `folder` unless it already holds model.safetensors.
inline void writeRandomFamilyModel(const std::string& folder, const FamilySizes& s) {
    namespace fs = std::filesystem;
    if (fs::exists(fs::path(folder) / "model.safetensors"))
        return;
    fs::create_directories(folder);
    {
        std::ofstream c(fs::path(folder) / "config.json");
        c << "{\"model_type\": \"" << s.modelType << "\", \"hidden_size\": " << s.d
          << ", \"num_hidden_layers\": " << s.layers << ", \"num_attention_heads\": " << s.heads
          << ", \"num_key_value_heads\": " << s.kvHeads << ", \"head_dim\": " << s.headDim
          << ", \"intermediate_size\": " << s.ff << ", \"vocab_size\": " << s.vocab
          << ", \"max_position_embeddings\": " << s.context
          << ", \"rms_norm_eps\": 1e-06, \"rope_theta\": " << s.ropeTheta
          << ", \"tie_word_embeddings\": true}\n";
    }
    std::map<std::string, std::vector<int64_t>> shapes;
    const int64_t q = s.heads * s.headDim, kv = s.kvHeads * s.headDim;
    shapes["model.embed_tokens.weight"] = {s.vocab, s.d};
    shapes["model.norm.weight"] = {s.d};
    for (int64_t l = 0; l < s.layers; ++l) {
        const std::string p = "model.layers." + std::to_string(l) + ".";
        shapes[p + "input_layernorm.weight"] =
            shapes[p + "post_attention_layernorm.weight"] = {s.d};
        shapes[p + "self_attn.q_proj.weight"] = {q, s.d};
        shapes[p + "self_attn.k_proj.weight"] = shapes[p + "self_attn.v_proj.weight"] = {kv, s.d};
        shapes[p + "self_attn.o_proj.weight"] = {s.d, q};
        if (s.modelType == "qwen3")
            shapes[p + "self_attn.q_norm.weight"] =
                shapes[p + "self_attn.k_norm.weight"] = {s.headDim};
        shapes[p + "mlp.gate_proj.weight"] = shapes[p + "mlp.up_proj.weight"] = {s.ff, s.d};
        shapes[p + "mlp.down_proj.weight"] = {s.d, s.ff};
    }
    const uint64_t item = s.bf16 ? 2 : 4;
    std::string header = "{\"__metadata__\":{\"format\":\"pt\"}";
    uint64_t offset = 0;
    for (const auto& [name, shape] : shapes) {
        uint64_t n = 1;
        std::string dims;
        for (int64_t v : shape) {
            n *= uint64_t(v);
            dims += (dims.empty() ? "" : ",") + std::to_string(v);
        }
        header += ",\"" + name + "\":{\"dtype\":\"" + (s.bf16 ? "BF16" : "F32") + "\",\"shape\":[" +
                  dims + "],\"data_offsets\":[" + std::to_string(offset) + "," +
                  std::to_string(offset + item * n) + "]}";
        offset += item * n;
    }
    header += "}";
    header.append((8 - header.size() % 8) % 8, ' ');
    const fs::path tmp = fs::path(folder) / "model.safetensors.part";
    std::ofstream out(tmp, std::ios::binary);
    const uint64_t length = header.size();
    out.write(reinterpret_cast<const char*>(&length), 8);
    out << header;
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (const auto& [name, shape] : shapes) {
        uint64_t n = 1;
        for (int64_t v : shape)
            n *= uint64_t(v);
        // Norm weights near 1, matrices with the spread of a trained model's (about 1 / sqrt(in)).
        const bool norm = shape.size() == 1;
        const float spread = norm ? 0.2f : 2.0f / std::sqrt(float(shape.back()));
        std::vector<char> bytes(n * item);
        for (uint64_t i = 0; i < n; ++i) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            const float u = float(state >> 40) / float(1 << 24) - 0.5f;
            const float v = norm ? 1.0f + spread * u : spread * u;
            uint32_t bits;
            std::memcpy(&bits, &v, 4);
            if (s.bf16) {
                const uint16_t h = uint16_t(bits >> 16);
                std::memcpy(bytes.data() + 2 * i, &h, 2);
            } else {
                std::memcpy(bytes.data() + 4 * i, &bits, 4);
            }
        }
        out.write(bytes.data(), std::streamsize(bytes.size()));
    }
    out.close();
    fs::rename(tmp, fs::path(folder) / "model.safetensors");
}

// The folder `name` in ATTN_BENCH_DIR (else /tmp), written with `s` the first time. With
// `tokenizerJson`, that tokenizer.json is copied in too (a model of today's families reads its
// own tokens).
inline std::string randomFamilyFolder(const char* name, const FamilySizes& s,
                                      const std::string& tokenizerJson = {}) {
    const char* dir = std::getenv("ATTN_BENCH_DIR");
    const std::string folder = std::string(dir ? dir : "/tmp") + "/" + name;
    writeRandomFamilyModel(folder, s);
    const std::filesystem::path target = std::filesystem::path(folder) / "tokenizer.json";
    if (!tokenizerJson.empty() && !std::filesystem::exists(target))
        std::filesystem::copy_file(tokenizerJson, target);
    return folder;
}

}  // namespace attn::bench

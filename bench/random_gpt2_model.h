#pragma once
// A GPT-2-small-sized model (12 layers, d 768, 12 heads, vocabulary 50,257, context 1,024) with
// random float32 weights and Hugging Face names, for benchmarks: written once to
// $ATTN_BENCH_MODEL (default /tmp/attn_gpt2_small_random.safetensors) and then read like a real
// checkpoint.

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace attn::bench {

inline constexpr int64_t kLayers = 12, kD = 768, kVocab = 50257, kContext = 1024, kFf = 3072;

inline std::string modelPath() {
    const char* env = std::getenv("ATTN_BENCH_MODEL");
    return env ? env : "/tmp/attn_gpt2_small_random.safetensors";
}

// Writes the file tensor by tensor (never the whole 500 MB in memory), so the benchmark
// process's peak memory is the model's, not the writer's.
inline void writeRandomModel(const std::string& path) {
    std::map<std::string, std::vector<int64_t>> shapes;
    shapes["wte.weight"] = {kVocab, kD};
    shapes["wpe.weight"] = {kContext, kD};
    for (int64_t l = 0; l < kLayers; ++l) {
        const std::string p = "h." + std::to_string(l) + ".";
        shapes[p + "ln_1.weight"] = shapes[p + "ln_1.bias"] = {kD};
        shapes[p + "attn.c_attn.weight"] = {kD, 3 * kD};
        shapes[p + "attn.c_attn.bias"] = {3 * kD};
        shapes[p + "attn.c_proj.weight"] = {kD, kD};
        shapes[p + "attn.c_proj.bias"] = {kD};
        shapes[p + "ln_2.weight"] = shapes[p + "ln_2.bias"] = {kD};
        shapes[p + "mlp.c_fc.weight"] = {kD, kFf};
        shapes[p + "mlp.c_fc.bias"] = {kFf};
        shapes[p + "mlp.c_proj.weight"] = {kFf, kD};
        shapes[p + "mlp.c_proj.bias"] = {kD};
    }
    shapes["ln_f.weight"] = shapes["ln_f.bias"] = {kD};
    std::string header = "{\"__metadata__\":{\"heads\":\"12\"}";
    uint64_t offset = 0;
    for (const auto& [name, shape] : shapes) {
        uint64_t n = 1;
        std::string dims;
        for (int64_t s : shape) {
            n *= uint64_t(s);
            if (!dims.empty())
                dims += ",";
            dims += std::to_string(s);
        }
        header += ",\"" + name + "\":{\"dtype\":\"F32\",\"shape\":[" + dims +
                  "],\"data_offsets\":[" + std::to_string(offset) + "," +
                  std::to_string(offset + 4 * n) + "]}";
        offset += 4 * n;
    }
    header += "}";
    header.append((8 - header.size() % 8) % 8, ' ');
    const std::string tmp = path + ".part";
    std::ofstream out(tmp, std::ios::binary);
    const uint64_t length = header.size();
    out.write(reinterpret_cast<const char*>(&length), 8);
    out << header;
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (const auto& [name, shape] : shapes) {
        uint64_t n = 1;
        for (int64_t s : shape)
            n *= uint64_t(s);
        // LayerNorm scales near 1, everything else small, as in a trained GPT-2.
        const bool scale = name.find("ln_") != std::string::npos && name.ends_with(".weight");
        std::vector<float> values(n);
        for (float& v : values) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            const float u = float(state >> 40) / float(1 << 24) - 0.5f;  // [-0.5, 0.5)
            v = scale ? 1.0f + 0.2f * u : 0.1f * u;
        }
        out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(4 * n));
    }
    out.close();
    std::filesystem::rename(tmp, path);
}

// The model's file, written first when it is not there yet.
inline std::string randomModelFile() {
    if (!std::filesystem::exists(modelPath()))
        writeRandomModel(modelPath());
    return modelPath();
}

}  // namespace attn::bench

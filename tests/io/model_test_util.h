#pragma once
// Small GPT state_dicts for the model reader tests: Hugging Face and book names, random finite
// values, shapes derived from a few sizes.

#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "engine/trace.h"

namespace attn::io::test {

struct HfOptions {
    int64_t layers = 2, d = 8, vocab = 20, context = 6, ff = 0;  // ff 0: 4 * d
    bool qkvBias = true;
    bool lmHead = false;
};

inline Tensor randomTensor(std::mt19937& gen, const Shape& shape) {
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    std::vector<float> v(static_cast<size_t>(shapeNumel(shape)));
    for (float& x : v)
        x = u(gen);
    return Tensor(shape, std::move(v));
}

inline WeightMap hfWeights(const HfOptions& o) {
    std::mt19937 gen(11);
    const int64_t d = o.d, F = o.ff ? o.ff : 4 * o.d;
    WeightMap w;
    w["wte.weight"] = randomTensor(gen, {o.vocab, d});
    w["wpe.weight"] = randomTensor(gen, {o.context, d});
    for (int64_t l = 0; l < o.layers; ++l) {
        const std::string p = "h." + std::to_string(l) + ".";
        w[p + "ln_1.weight"] = randomTensor(gen, {d});
        w[p + "ln_1.bias"] = randomTensor(gen, {d});
        w[p + "attn.c_attn.weight"] = randomTensor(gen, {d, 3 * d});
        if (o.qkvBias)
            w[p + "attn.c_attn.bias"] = randomTensor(gen, {3 * d});
        w[p + "attn.c_proj.weight"] = randomTensor(gen, {d, d});
        w[p + "attn.c_proj.bias"] = randomTensor(gen, {d});
        w[p + "ln_2.weight"] = randomTensor(gen, {d});
        w[p + "ln_2.bias"] = randomTensor(gen, {d});
        w[p + "mlp.c_fc.weight"] = randomTensor(gen, {d, F});
        w[p + "mlp.c_fc.bias"] = randomTensor(gen, {F});
        w[p + "mlp.c_proj.weight"] = randomTensor(gen, {F, d});
        w[p + "mlp.c_proj.bias"] = randomTensor(gen, {d});
    }
    w["ln_f.weight"] = randomTensor(gen, {d});
    w["ln_f.bias"] = randomTensor(gen, {d});
    if (o.lmHead)
        w["lm_head.weight"] = randomTensor(gen, {o.vocab, d});
    return w;
}

// The book's GPTModel: 2 layers, d 8, vocabulary 20, context 6, no q/k/v bias, an out_head
// and the attention modules' mask buffers.
inline WeightMap bookWeights() {
    std::mt19937 gen(12);
    const int64_t d = 8, F = 32;
    WeightMap w;
    w["tok_emb.weight"] = randomTensor(gen, {20, d});
    w["pos_emb.weight"] = randomTensor(gen, {6, d});
    for (int64_t l = 0; l < 2; ++l) {
        const std::string p = "trf_blocks." + std::to_string(l) + ".";
        w[p + "att.mask"] = Tensor(Shape{6, 6});
        for (const char* m : {"W_query", "W_key", "W_value"})
            w[p + "att." + m + ".weight"] = randomTensor(gen, {d, d});
        w[p + "att.out_proj.weight"] = randomTensor(gen, {d, d});
        w[p + "att.out_proj.bias"] = randomTensor(gen, {d});
        w[p + "norm1.scale"] = randomTensor(gen, {d});
        w[p + "norm1.shift"] = randomTensor(gen, {d});
        w[p + "norm2.scale"] = randomTensor(gen, {d});
        w[p + "norm2.shift"] = randomTensor(gen, {d});
        w[p + "ff.layers.0.weight"] = randomTensor(gen, {F, d});
        w[p + "ff.layers.0.bias"] = randomTensor(gen, {F});
        w[p + "ff.layers.2.weight"] = randomTensor(gen, {d, F});
        w[p + "ff.layers.2.bias"] = randomTensor(gen, {d});
    }
    w["final_norm.scale"] = randomTensor(gen, {d});
    w["final_norm.shift"] = randomTensor(gen, {d});
    w["out_head.weight"] = randomTensor(gen, {20, d});
    return w;
}

inline std::string jsonShape(const Shape& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i)
            s += ",";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

inline uint64_t loadU64(const std::string& bytes) {
    uint64_t v = 0;
    std::memcpy(&v, bytes.data(), 8);
    return v;
}

}  // namespace attn::io::test

namespace attn::io::test {

// Writes pickle opcodes by hand (protocol 2, as torch.save does), so tests can make both
// well-formed state_dicts and every malformed or hostile variant.
class PickleWriter {
  public:
    PickleWriter() { out_ = "\x80\x02"; }
    PickleWriter& op(char c) {
        out_ += c;
        return *this;
    }
    PickleWriter& raw(const std::string& bytes) {
        out_ += bytes;
        return *this;
    }
    PickleWriter& global(const std::string& module, const std::string& name) {
        out_ += 'c' + module + '\n' + name + '\n';
        return *this;
    }
    PickleWriter& str(const std::string& s) {
        out_ += 'X';
        const uint32_t n = static_cast<uint32_t>(s.size());
        out_.append(reinterpret_cast<const char*>(&n), 4);
        out_ += s;
        return *this;
    }
    PickleWriter& integer(int32_t v) {
        out_ += 'J';
        out_.append(reinterpret_cast<const char*>(&v), 4);
        return *this;
    }
    PickleWriter& mark() { return op('('); }
    PickleWriter& tuple() { return op('t'); }
    PickleWriter& orderedDict() {
        global("collections", "OrderedDict");
        return op(')').op('R');
    }
    // _rebuild_tensor_v2(('storage', torch.<type>, key, 'cpu', numel), offset, size, stride,
    //                    False, OrderedDict())
    PickleWriter& tensor(const std::string& key, const std::string& type, int32_t numel,
                         int32_t offset, const std::vector<int32_t>& size,
                         const std::vector<int32_t>& stride) {
        global("torch._utils", "_rebuild_tensor_v2");
        mark();
        mark().str("storage").global("torch", type).str(key).str("cpu").integer(numel);
        tuple().op('Q');
        integer(offset);
        mark();
        for (int32_t s : size)
            integer(s);
        tuple();
        mark();
        for (int32_t s : stride)
            integer(s);
        tuple();
        op('\x89');  // False
        orderedDict();
        tuple();
        return op('R');
    }
    std::string finish() { return out_ + '.'; }
    const std::string& bytes() const { return out_; }

  private:
    std::string out_;
};

// A state_dict pickle of name -> (storage key, numel, offset, shape, strides), F32 storages.
struct PickledEntry {
    std::string name, key;
    int32_t numel, offset;
    std::vector<int32_t> size, stride;
    std::string type = "FloatStorage";
};
inline std::string stateDictPickle(const std::vector<PickledEntry>& entries) {
    PickleWriter p;
    p.orderedDict().mark();
    for (const PickledEntry& e : entries) {
        p.str(e.name);
        p.tensor(e.key, e.type, e.numel, e.offset, e.size, e.stride);
    }
    p.op('u');
    // state_dict()._metadata, as torch.save keeps it: set on the dict with BUILD.
    p.mark().str("_metadata").orderedDict().mark().str("").mark().str("version").integer(1);
    p.op('d').op('u').op('d').op('b');
    return p.finish();
}

}  // namespace attn::io::test

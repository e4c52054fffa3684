// The decoder families after GPT-2 (DESIGN.md, Model families), from Hugging Face's tensor names or
// the book's.
#include <set>

#include "engine/config.h"
#include "engine/weight_names.h"
#include "io/model_config.h"
#include "io/model_file.h"

namespace attn::io {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& message) {
    throw UserError("model", source + ": " + message);
}

// The same in translatable parts (pipeline/issue_text.cpp lists their formats).
[[noreturn]] void fail(const std::string& source, MessagePart part) {
    throw UserError("model", {{"%1: ", {source}}, std::move(part)});
}

// Where a naming scheme keeps each weight; "" for a weight the family has not.
struct BlockNames {
    std::string norm1, query, key, value, queryNorm, keyNorm, outProj, postAttentionNorm, norm2,
        gate, up, down, postFeedForwardNorm;
};

class FamilyReader {
  public:
    FamilyReader(const StoredTensors& file, const ModelConfig& config, const std::string& source,
                 const ModelLoadOptions& options)
        : file_(file), config_(config), source_(source), options_(options) {}

    std::shared_ptr<const DecoderModel> read() {
        const std::string& prefix = config_.tensorPrefix;
        for (const auto& [name, stored] : file_.tensors) {
            if (!prefix.empty() && !name.starts_with(prefix))
                continue;  // a multimodal checkpoint's vision tower and projector
            byName_.emplace(name.substr(prefix.size()), &stored);
        }
        const DecoderArchitecture& a = config_.arch;
        const WeightNameTable& hfTable = weightNameTable(a.family, WeightNames::HuggingFace);
        const WeightNameTable& bookTable = weightNameTable(a.family, WeightNames::Book);
        const bool hf = byName_.count(hfTable.tokenEmbedding) > 0;
        const bool book = byName_.count(bookTable.tokenEmbedding) > 0;
        if (!hf && !book)
            fail(source_, MessagePart{"it has neither %1 (Hugging Face's names) nor %2 (the "
                                      "book's), so it is not a %3 model as its config says",
                                      {prefix + hfTable.tokenEmbedding, bookTable.tokenEmbedding,
                                       config_.modelType}});
        table_ = hf ? &hfTable : &bookTable;
        auto model = std::make_shared<DecoderModel>();
        model->arch = a;
        model->names = hf ? WeightNames::HuggingFace : WeightNames::Book;
        model->headsSource = HeadsSource::Config;
        model->source = source_;
        model->metadata = file_.metadata;
        const WeightNameTable& t = *table_;
        const std::string& emb = t.tokenEmbedding;
        const std::string finalNorm = t.finalNorm + "." + t.normScale;
        const std::string& head = t.outHead;
        const int64_t d = a.dModel;
        expect(emb, {a.vocab, d}, "(vocab_size, hidden_size)");
        expect(finalNorm, {d}, "(hidden_size,)");
        // A separate head when the config unties it, or when the book's model saved one.
        const bool separateHead = !a.tiedHead || (book && byName_.count(head));
        if (separateHead)
            expect(head, {a.vocab, d}, "(vocab_size, hidden_size)");
        else if (byName_.count(head))
            expected_.insert(head);  // saved tied: the same numbers as the embedding
        model->arch.tiedHead = !separateHead;
        std::vector<BlockNames> blocks;
        for (int64_t l = 0; l < a.layers; ++l) {
            blocks.push_back(blockNames(l));
            expectBlock(blocks.back());
        }
        for (const auto& [name, stored] : byName_)
            if (!expected_.count(name) && !ignored(name))
                fail(source_, "it holds " + prefix + name + " (shape " +
                                  shapeToString(stored->shape) + "), which a " + config_.modelType +
                                  " model of " + std::to_string(a.layers) +
                                  " layers does not have (is the config.json this model's?)");

        const int total = static_cast<int>(a.layers) + 2;
        int done = 0;
        auto step = [&](const std::string& what) {
            throwIfCancelled(options_.cancel);
            ++done;
            if (options_.progress)
                options_.progress(done, total, what);
        };
        if (!half(emb, &model->tokenEmbeddingHalf))
            model->tokenEmbedding = convert(emb);
        step("embeddings");
        for (int64_t l = 0; l < a.layers; ++l) {
            model->blocks.push_back(readBlock(blocks[size_t(l)]));
            step("block " + std::to_string(l));
        }
        model->finalNormScale = convert(finalNorm);
        if (separateHead) {
            if (!half(head, &model->outHead.half))
                model->outHead.weight = convert(head);
        } else {
            model->outHead.weight = model->tokenEmbedding;
            model->outHead.half = model->tokenEmbeddingHalf;
        }
        // A head saved as the embedding's own storage (the book's models save a tied head so)
        // is the embedding.
        model->arch.tiedHead = model->headIsEmbedding();
        std::string dtype;
        for (const std::string& t : dtypes_)
            dtype += (dtype.empty() ? "" : "+") + t;
        model->dtype = dtype;
        checkDecoderModel(*model);
        step("final norm");
        return model;
    }

  private:
    // Block l's tensor names: a linear's as a prefix of "weight" and "bias", a norm's whole; ""
    // for a part the family has not.
    BlockNames blockNames(int64_t l) const {
        const WeightNameTable& t = *table_;
        auto norm = [&](const std::string& part) {
            return part.empty() ? std::string() : t.tensor(l, part, t.normScale);
        };
        auto linear = [&](const std::string& part) { return t.blockPrefix(l) + part + "."; };
        BlockNames n;
        n.norm1 = norm(t.norm1);
        n.query = linear(t.query);
        n.key = linear(t.key);
        n.value = linear(t.value);
        n.outProj = linear(t.outProj);
        n.queryNorm = norm(t.queryNorm);
        n.keyNorm = norm(t.keyNorm);
        n.postAttentionNorm = norm(t.postAttentionNorm);
        n.norm2 = norm(t.norm2);
        n.postFeedForwardNorm = norm(t.postFeedForwardNorm);
        n.gate = linear(t.gate);
        n.up = linear(t.up);
        n.down = linear(t.down);
        return n;
    }

    void expectBlock(const BlockNames& n) {
        const DecoderArchitecture& a = config_.arch;
        const int64_t d = a.dModel, q = a.queryWidth(), kv = a.keyValueWidth(), F = a.ffHidden,
                      hd = a.headSize();
        const std::string heads = "(num_attention_heads * head_dim, hidden_size)";
        const std::string kvHeads = "(num_key_value_heads * head_dim, hidden_size)";
        expect(n.norm1, {d}, "(hidden_size,)");
        expectLinear(n.query, q, d, heads, a.qkvBias);
        expectLinear(n.key, kv, d, kvHeads, a.qkvBias);
        expectLinear(n.value, kv, d, kvHeads, a.qkvBias);
        expectLinear(n.outProj, d, q, "(hidden_size, num_attention_heads * head_dim)", false);
        for (const std::string* name : {&n.queryNorm, &n.keyNorm})
            if (!name->empty())
                expect(*name, {hd}, "(head_dim,)");
        for (const std::string* name : {&n.postAttentionNorm, &n.norm2, &n.postFeedForwardNorm})
            if (!name->empty())
                expect(*name, {d}, "(hidden_size,)");
        expectLinear(n.gate, F, d, "(intermediate_size, hidden_size)", false);
        expectLinear(n.up, F, d, "(intermediate_size, hidden_size)", false);
        expectLinear(n.down, d, F, "(hidden_size, intermediate_size)", false);
    }

    void expectLinear(const std::string& prefix, int64_t out, int64_t in, const std::string& dims,
                      bool bias) {
        expect(prefix + "weight", {out, in}, dims);
        if (bias)
            expect(prefix + "bias", {out}, "(" + dims.substr(1, dims.find(',') - 1) + ",)");
    }

    bool ignored(const std::string& name) const {
        for (const std::string& suffix : table_->ignoredSuffixes)
            if (name.ends_with(suffix))
                return true;
        return false;
    }

    void expect(const std::string& name, const Shape& shape, const std::string& dims) {
        const auto it = byName_.find(name);
        const DecoderArchitecture& a = config_.arch;
        const std::string sizes =
            "hidden_size " + std::to_string(a.dModel) + ", " + std::to_string(a.heads) +
            " query and " + std::to_string(a.keyValueHeads()) + " key/value heads of " +
            std::to_string(a.headSize()) + ", intermediate_size " + std::to_string(a.ffHidden) +
            ", vocab_size " + std::to_string(a.vocab);
        const std::string full = config_.tensorPrefix + name;
        if (it == byName_.end())
            fail(source_, "it has no " + full + " (shape " + shapeToString(shape) + " = " + dims +
                              "), which a " + config_.modelType + " model with its config (" +
                              sizes + ") needs");
        if (it->second->shape != shape)
            fail(source_, full + " has shape " + shapeToString(it->second->shape) +
                              " but its config (" + sizes + ") needs " + shapeToString(shape) +
                              " = " + dims);
        if (!isFloatDtype(it->second->dtype))
            fail(source_, MessagePart{"%1 has dtype %2; a model's weights must be F32, F16 or BF16",
                                      {full, it->second->dtype}});
        expected_.insert(name);
    }

    Tensor convert(const std::string& name) {
        const StoredTensor& stored = *byName_.at(name);
        dtypes_.insert(stored.dtype);
        return finiteFloat32(stored, config_.tensorPrefix + name, source_);
    }

    // A 16-bit matrix stays in the file (a 2.5 GB BF16 model is not copied into 5 GB of
    // float32); anything else is converted.
    bool half(const std::string& name, HalfMatrix* out) {
        const StoredTensor& stored = *byName_.at(name);
        if (!asHalfMatrix(stored, out))
            return false;
        dtypes_.insert(stored.dtype);
        checkFinite(*out, config_.tensorPrefix + name, source_);
        return true;
    }

    DecoderLinear linear(const std::string& prefix, bool bias) {
        DecoderLinear l;
        if (!half(prefix + "weight", &l.half))
            l.weight = convert(prefix + "weight");
        if (bias)
            l.bias = convert(prefix + "bias");
        return l;
    }

    DecoderBlock readBlock(const BlockNames& n) {
        const DecoderArchitecture& a = config_.arch;
        auto optional = [&](const std::string& name) {
            return name.empty() ? Tensor() : convert(name);
        };
        DecoderBlock b;
        b.norm1Scale = convert(n.norm1);
        b.query = linear(n.query, a.qkvBias);
        b.key = linear(n.key, a.qkvBias);
        b.value = linear(n.value, a.qkvBias);
        b.queryNorm = optional(n.queryNorm);
        b.keyNorm = optional(n.keyNorm);
        b.outProj = linear(n.outProj, false);
        b.postAttentionNorm = optional(n.postAttentionNorm);
        b.norm2Scale = convert(n.norm2);
        b.ffGate = linear(n.gate, false);
        b.ffIn = linear(n.up, false);
        b.ffOut = linear(n.down, false);
        b.postFeedForwardNorm = optional(n.postFeedForwardNorm);
        return b;
    }

    const StoredTensors& file_;
    const ModelConfig& config_;
    const std::string& source_;
    const ModelLoadOptions& options_;
    const WeightNameTable* table_ = nullptr;  // the scheme the file's names follow
    std::map<std::string, const StoredTensor*> byName_;
    std::set<std::string> expected_;
    std::set<std::string> dtypes_;
};

}  // namespace

std::shared_ptr<const DecoderModel> buildFamilyModel(const StoredTensors& tensors,
                                                     const ModelConfig& config,
                                                     const std::string& source,
                                                     const ModelLoadOptions& options) {
    return FamilyReader(tensors, config, source, options).read();
}

}  // namespace attn::io

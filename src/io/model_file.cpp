#include "io/model_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "engine/config.h"
#include "engine/weight_names.h"
#include "io/file_io.h"
#include "io/json_reader.h"
#include "io/model_config.h"
#include "io/safetensors.h"
#include "io/tokenizer_file.h"
#include "io/torch_file.h"

namespace attn::io {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& message) {
    throw UserError("model", source + ": " + message);
}

// The same in translatable parts (pipeline/issue_text.cpp lists their formats).
[[noreturn]] void fail(const std::string& source, MessagePart part, const char* field = "model") {
    throw UserError(field, {{"%1: ", {source}}, std::move(part)});
}

// "h.12.attn.c_attn.weight" with prefix "h." -> 12 and "attn.c_attn.weight"; -1 when the name
// is not a block's.
int64_t blockIndex(const std::string& name, const std::string& prefix, std::string* rest) {
    if (!name.starts_with(prefix))
        return -1;
    const size_t dot = name.find('.', prefix.size());
    const std::string_view digits = std::string_view(name).substr(
        prefix.size(), dot == std::string::npos ? std::string::npos : dot - prefix.size());
    if (digits.empty() || digits.size() > 6 || (digits.size() > 1 && digits[0] == '0') ||
        dot == std::string::npos)
        return -1;
    int64_t n = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (ec != std::errc() || ptr != digits.data() + digits.size())
        return -1;
    *rest = name.substr(dot + 1);
    return n;
}

// A GPT-2 state_dict's naming scheme (its names: engine/weight_names.h) and how messages call
// it. Hugging Face's GPT-2 keeps q, k and v in one Conv1D c_attn (d, 3d); the book's GPTModel
// has three nn.Linear.
struct Scheme {
    WeightNames names;
    std::string label;
    const WeightNameTable& table() const { return weightNameTable(Family::Gpt2, names); }
    std::string finalScale() const { return table().finalNorm + "." + table().normScale; }
    std::string finalShift() const { return table().finalNorm + "." + table().normShift; }
};

const Scheme kHuggingFace{WeightNames::HuggingFace, "a Hugging Face GPT-2 state_dict"};
const Scheme kBook{WeightNames::Book, "the book's GPTModel state_dict"};

class ModelReader {
  public:
    ModelReader(const StoredTensors& file, const std::string& source,
                const ModelLoadOptions& options)
        : file_(file), source_(source), options_(options) {}

    std::shared_ptr<const DecoderModel> read() {
        index();
        const WeightNameTable& s = scheme_->table();
        auto model = std::make_shared<DecoderModel>();
        model->names = scheme_->names;
        model->source = source_;
        DecoderArchitecture& a = model->arch;
        readSizes(a);
        resolveHeads(*model);

        // Every expected name, checked for presence, shape and type before any conversion.
        const int64_t d = a.dModel;
        expect(s.tokenEmbedding, {a.vocab, d}, "(vocabulary, d_model)");
        expect(s.positionEmbedding, {a.contextLength, d}, "(context_length, d_model)");
        for (int64_t l = 0; l < a.layers; ++l)
            for (const BlockEntry& e : blockEntries(a))
                expect(blockName(l, e.suffix), e.shape, e.dims);
        expect(scheme_->finalScale(), {d}, "(d_model,)");
        expect(scheme_->finalShift(), {d}, "(d_model,)");
        if (!a.tiedHead)
            expect(s.outHead, {a.vocab, d}, "(vocabulary, d_model)");
        for (const auto& [name, stored] : byName_)
            if (!expected_.count(name) && !ignored(name))
                fail(source_, "it holds " + name + " (shape " + shapeToString(stored->shape) +
                                  "), which " + scheme_->label + " does not have; " +
                                  scheme_->label + " has only " + nameSummary(a) +
                                  ". Is it a GPT-2 model?");

        const int total = static_cast<int>(a.layers) + 2;
        int done = 0;
        auto step = [&](const std::string& what) {
            throwIfCancelled(options_.cancel);
            ++done;
            if (options_.progress)
                options_.progress(done, total, what);
        };
        model->tokenEmbedding = convert(s.tokenEmbedding);
        model->positionEmbedding = convert(s.positionEmbedding);
        step("embeddings");
        for (int64_t l = 0; l < a.layers; ++l) {
            model->blocks.push_back(readBlock(l, a));
            step("block " + std::to_string(l));
        }
        model->finalNormScale = convert(scheme_->finalScale());
        model->finalNormShift = convert(scheme_->finalShift());
        model->outHead.weight = a.tiedHead ? model->tokenEmbedding : convert(s.outHead);
        std::string dtype;
        for (const std::string& t : dtypes_)
            dtype += (dtype.empty() ? "" : "+") + t;
        model->dtype = dtype;
        model->metadata = file_.metadata;
        checkDecoderModel(*model);
        step("final norm");
        return model;
    }

  private:
    // Names without Hugging Face's optional "transformer." prefix; which scheme they follow.
    void index() {
        for (const auto& [raw, stored] : file_.tensors) {
            std::string name = raw;
            if (name.starts_with("transformer."))
                name = name.substr(12);
            if (!byName_.emplace(name, &stored).second)
                fail(source_, "it holds " + name +
                                  " twice (with and without the \"transformer.\" "
                                  "prefix); a state_dict names each tensor once");
        }
        const std::string& hfEmbedding = kHuggingFace.table().tokenEmbedding;
        const std::string& bookEmbedding = kBook.table().tokenEmbedding;
        const bool hf = byName_.count(hfEmbedding);
        const bool book = byName_.count(bookEmbedding);
        if (hf && book)
            fail(source_, "it holds both " + hfEmbedding + " (Hugging Face GPT-2) and " +
                              bookEmbedding +
                              " (the book's GPTModel); a model file holds one model");
        if (!hf && !book) {
            std::string some;
            size_t n = 0;
            for (const auto& [name, stored] : byName_)
                if (n++ < 3)
                    some += (some.empty() ? "" : ", ") + name;
            if (byName_.count("model.embed_tokens.weight") ||
                byName_.count("language_model.model.embed_tokens.weight"))
                // Under "config": what is missing is the config, which the app then asks for.
                fail(source_,
                     MessagePart{"it holds model.embed_tokens.weight, the weights of a Llama, "
                                 "Qwen or Gemma model, which need their config.json: give the "
                                 "model's folder, or its config.json with --config",
                                 {}},
                     "config");
            throw UserError(
                "model",
                {{"%1: ", {source_}},
                 {"it is not a GPT-2 model: it has neither %1 (Hugging Face GPT-2) nor %2 (the "
                  "book's GPTModel)",
                  {hfEmbedding, bookEmbedding}},
                 some.empty()
                     ? MessagePart{" and holds no tensors at all", {}}
                     : MessagePart{"; it holds %1", {some + (byName_.size() > 3 ? ", ..." : "")}},
                 {".", {}}});
        }
        scheme_ = hf ? &kHuggingFace : &kBook;
    }

    const StoredTensor* find(const std::string& name) const {
        auto it = byName_.find(name);
        return it == byName_.end() ? nullptr : it->second;
    }

    std::string blockName(int64_t layer, const std::string& suffix) const {
        return scheme_->table().blockPrefix(layer) + suffix;
    }

    // A size-defining tensor: present and 2-D, or an error naming it and what it should be.
    const StoredTensor& matrix(const std::string& name, const std::string& dims) const {
        const StoredTensor* t = find(name);
        if (!t)
            fail(source_,
                 "it has no " + name + " (shape " + dims + "), which " + scheme_->label + " needs");
        if (t->shape.size() != 2)
            fail(source_, name + " has shape " + shapeToString(t->shape) + " but must be " + dims);
        return *t;
    }

    void readSizes(DecoderArchitecture& a) {
        const WeightNameTable& s = scheme_->table();
        const StoredTensor& tok = matrix(s.tokenEmbedding, "(vocabulary, d_model)");
        a.vocab = tok.shape[0];
        a.dModel = tok.shape[1];
        if (!find(s.positionEmbedding) && scheme_->names == WeightNames::Book)
            fail(source_,
                 MessagePart{"it has no %1, so it is not the book's GPTModel; a Llama3Model, "
                             "Qwen3Model or Gemma3Model state_dict needs its config.json "
                             "(--config)",
                             {s.positionEmbedding}},
                 "config");
        const StoredTensor& pos = matrix(s.positionEmbedding, "(context_length, d_model)");
        a.contextLength = pos.shape[0];
        if (a.vocab < 1 || a.dModel < 1 || a.contextLength < 1)
            fail(source_, s.tokenEmbedding + " " + shapeToString(tok.shape) + " and " +
                              s.positionEmbedding + " " + shapeToString(pos.shape) +
                              " leave no tokens, positions or features to compute with");
        a.layers = 0;
        std::string rest;
        for (const auto& [name, stored] : byName_) {
            const int64_t n = blockIndex(name, s.blocks + ".", &rest);
            if (n >= 0)
                a.layers = std::max(a.layers, n + 1);
        }
        if (a.layers == 0)
            fail(source_, "it has no transformer blocks: no " + s.blockPrefix(0) + "* tensors");
        const std::string ffName = blockName(0, s.up + ".weight");
        const StoredTensor& ff =
            matrix(ffName, s.inputMajor ? "(d_model, ff_hidden)" : "(ff_hidden, d_model)");
        a.ffHidden = ff.shape[s.inputMajor ? 1 : 0];
        if (a.ffHidden < 1)
            fail(source_, ffName + " has shape " + shapeToString(ff.shape) +
                              ", which leaves the feed-forward layer no hidden units");
        a.qkvBias =
            find(blockName(0, (s.queryKeyValue.empty() ? s.query : s.queryKeyValue) + ".bias")) !=
            nullptr;
        // A head saved tied (the same storage as the token embedding) is the embedding.
        const StoredTensor* head = find(s.outHead);
        a.tiedHead = !head || (head->data == tok.data && head->shape == tok.shape &&
                               head->dtype == tok.dtype && head->strides == tok.strides);
        if (head && a.tiedHead)
            expected_.insert(s.outHead);
        sizes_ = "d_model = " + std::to_string(a.dModel) +
                 " and vocabulary = " + std::to_string(a.vocab) + " come from " + s.tokenEmbedding +
                 ", context length " + std::to_string(a.contextLength) + " from " +
                 s.positionEmbedding + ", ff_hidden = " + std::to_string(a.ffHidden) + " from " +
                 ffName;
    }

    void resolveHeads(DecoderModel& m) {
        DecoderArchitecture& a = m.arch;
        if (options_.heads) {
            a.heads = *options_.heads;
            m.headsSource = HeadsSource::Request;
        } else if (auto it = metadataHeads(); it.second) {
            a.heads = it.first;
            m.headsSource = HeadsSource::Metadata;
        } else {
            if (a.dModel % 64 != 0)
                fail(source_,
                     "the file does not say how many attention heads the model has, and "
                     "d_model = " +
                         std::to_string(a.dModel) +
                         " is not a multiple of 64 (GPT-2's head size) to derive it "
                         "from; give the head count (--heads). Valid head counts: " +
                         validHeads(a.dModel) + ".");
            a.heads = a.dModel / 64;
            m.headsSource = HeadsSource::Default;
        }
        if (a.heads < 1 || a.dModel % a.heads != 0)
            fail(source_,
                 MessagePart{
                     "d_model = %1 cannot be split into %2 heads of equal size. Valid "
                     "head counts: %3.",
                     {std::to_string(a.dModel), std::to_string(a.heads), validHeads(a.dModel)}},
                 "heads");
    }

    std::pair<int64_t, bool> metadataHeads() const {
        for (const char* key : {"heads", "n_head"}) {
            auto it = file_.metadata.find(key);
            if (it == file_.metadata.end())
                continue;
            const std::string& text = it->second;
            int64_t n = 0;
            auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
            if (ec != std::errc() || ptr != text.data() + text.size() || n < 1)
                fail(source_, "its metadata says " + std::string(key) + " = \"" +
                                  text.substr(0, 40) +
                                  "\", which is not a head count (a whole number from 1)");
            return {n, true};
        }
        return {0, false};
    }

    static std::string validHeads(int64_t d) {
        std::string s;
        for (int64_t h : validHeadCounts(d))
            s += (s.empty() ? "" : ", ") + std::to_string(h);
        return s;
    }

    struct BlockEntry {
        std::string suffix;
        Shape shape;
        std::string dims;
    };

    // Every tensor of a block, in the scheme's layout: Conv1D's (in, out) or nn.Linear's (out, in).
    std::vector<BlockEntry> blockEntries(const DecoderArchitecture& a) const {
        const WeightNameTable& t = scheme_->table();
        const int64_t d = a.dModel, F = a.ffHidden;
        std::vector<BlockEntry> e;
        auto norm = [&](const std::string& part) {
            e.push_back({part + "." + t.normScale, {d}, "(d_model,)"});
            e.push_back({part + "." + t.normShift, {d}, "(d_model,)"});
        };
        // A linear of `in` to `out` features, named in d_model/ff_hidden terms. (Built by
        // append: GCC 12 warns falsely (-Wrestrict) on "(" + std::string(...).)
        auto linear = [&](const std::string& part, int64_t in, int64_t out, const char* inName,
                          const char* outName, bool bias) {
            std::string dims = "(";
            dims.append(t.inputMajor ? inName : outName).append(", ");
            dims.append(t.inputMajor ? outName : inName).append(")");
            e.push_back({part + ".weight", t.inputMajor ? Shape{in, out} : Shape{out, in}, dims});
            if (bias)
                e.push_back({part + ".bias", {out}, std::string("(").append(outName).append(",)")});
        };
        norm(t.norm1);
        if (!t.queryKeyValue.empty())
            linear(t.queryKeyValue, d, 3 * d, "d_model", "3 * d_model", a.qkvBias);
        else
            for (const std::string* part : {&t.query, &t.key, &t.value})
                linear(*part, d, d, "d_model", "d_model", a.qkvBias);
        linear(t.outProj, d, d, "d_model", "d_model", true);
        norm(t.norm2);
        linear(t.up, d, F, "d_model", "ff_hidden", true);
        linear(t.down, F, d, "ff_hidden", "d_model", true);
        return e;
    }

    std::string nameSummary(const DecoderArchitecture& a) const {
        const WeightNameTable& s = scheme_->table();
        std::string blockNames;
        for (const BlockEntry& e : blockEntries(a))
            blockNames += (blockNames.empty() ? "" : ", ") + e.suffix;
        return s.tokenEmbedding + ", " + s.positionEmbedding + ", " + s.blocks + ".N.{" +
               blockNames + "} for N = 0.." + std::to_string(a.layers - 1) + ", " +
               scheme_->finalScale() + ", " + scheme_->finalShift() + " and " + s.outHead;
    }

    bool ignored(const std::string& name) const {
        std::string rest;
        if (blockIndex(name, scheme_->table().blocks + ".", &rest) < 0)
            return false;
        for (const std::string& b : scheme_->table().ignoredInBlock)
            if (rest == b)
                return true;
        return false;
    }

    void expect(const std::string& name, const Shape& shape, const std::string& dims) {
        const StoredTensor* t = find(name);
        if (!t)
            fail(source_, "it has no " + name + " (shape " + shapeToString(shape) + " = " + dims +
                              "), which " + scheme_->label + " of this size needs (" + sizes_ +
                              ")");
        if (t->shape != shape)
            fail(source_, name + " has shape " + shapeToString(t->shape) +
                              " but this model needs " + shapeToString(shape) + " = " + dims +
                              " (" + sizes_ + ")");
        if (!isFloatDtype(t->dtype))
            fail(source_, name + " has dtype " + t->dtype +
                              "; a model's weights must be F32, F16 or BF16 (float32, float16 or "
                              "bfloat16)");
        expected_.insert(name);
    }

    // float32, checked finite. Every value is read here, one tensor at a time as the blocks
    // are converted (float16 and bfloat16 are read anyway to convert them): a separate scan
    // of the whole file up front would read all of it before anything else could happen.
    Tensor convert(const std::string& name) {
        const StoredTensor& stored = *find(name);
        dtypes_.insert(stored.dtype);
        return finiteFloat32(stored, name, source_);
    }

    DecoderLinear linear(const std::string& weight, const std::string& bias, bool inputMajor) {
        DecoderLinear l;
        l.weight = convert(weight);
        if (!bias.empty())
            l.bias = convert(bias);
        l.inputMajor = inputMajor;
        return l;
    }

    DecoderBlock readBlock(int64_t layer, const DecoderArchitecture& a) {
        const WeightNameTable& t = scheme_->table();
        auto n = [&](const std::string& part, const std::string& parameter) {
            return blockName(layer, part + "." + parameter);
        };
        auto linearPart = [&](const std::string& part, bool bias) {
            return linear(n(part, "weight"), bias ? n(part, "bias") : "", t.inputMajor);
        };
        DecoderBlock b;
        const int64_t d = a.dModel;
        b.norm1Scale = convert(n(t.norm1, t.normScale));
        b.norm1Shift = convert(n(t.norm1, t.normShift));
        if (!t.queryKeyValue.empty()) {
            // c_attn (d, 3d) = [W_q | W_k | W_v] by columns: each a (d, d) view, kept in place.
            const Tensor qkv = convert(n(t.queryKeyValue, "weight")).view({d, 3, d});
            const Tensor qkvBias =
                a.qkvBias ? convert(n(t.queryKeyValue, "bias")).view({3, d}) : Tensor();
            DecoderLinear* parts[] = {&b.query, &b.key, &b.value};
            for (int64_t k = 0; k < 3; ++k) {
                parts[k]->weight = qkv.select(1, k);
                if (a.qkvBias)
                    parts[k]->bias = qkvBias.select(0, k);
                parts[k]->inputMajor = true;
            }
        } else {
            b.query = linearPart(t.query, a.qkvBias);
            b.key = linearPart(t.key, a.qkvBias);
            b.value = linearPart(t.value, a.qkvBias);
        }
        b.outProj = linearPart(t.outProj, true);
        b.norm2Scale = convert(n(t.norm2, t.normScale));
        b.norm2Shift = convert(n(t.norm2, t.normShift));
        b.ffIn = linearPart(t.up, true);
        b.ffOut = linearPart(t.down, true);
        return b;
    }

    const StoredTensors& file_;
    const std::string& source_;
    const ModelLoadOptions& options_;
    const Scheme* scheme_ = nullptr;
    std::map<std::string, const StoredTensor*> byName_;
    std::set<std::string> expected_;
    std::set<std::string> dtypes_;
    std::string sizes_;
};

// Errors of the file readers concern the model the user picked: report them under "model".
template <typename F>
auto asModelError(F&& f) {
    try {
        return f();
    } catch (const UserError& e) {
        if (e.field() == "file")
            throw UserError("model", e);
        throw;
    }
}

}  // namespace

std::shared_ptr<const DecoderModel> buildDecoderModel(const StoredTensors& tensors,
                                                      const std::string& source,
                                                      const ModelLoadOptions& options) {
    return ModelReader(tensors, source, options).read();
}

namespace {

StoredTensors readTensors(const SharedBytes& bytes, const std::string& source) {
    if (bytes.bytes.empty())
        fail(source, MessagePart{"the file is empty", {}});
    if (looksLikeTorchFile(bytes.bytes))
        return readTorchArchive(bytes, source);
    if (bytes.bytes.size() >= 9 && bytes.bytes[8] == '{')
        return readSafetensorsTensors(bytes, source);
    fail(source,
         MessagePart{"this is neither a .safetensors file nor a PyTorch file written by "
                     "torch.save; a model comes as model.safetensors, pytorch_model.bin or a .pth "
                     "saved with torch.save(model.state_dict(), path)",
                     {}});
}

ModelConfig readConfig(const std::string& path) {
    const std::string name = fileDisplayName(path);
    const std::string text = readFileBytes(path);
    return parseModelConfig(text, name);
}

// A GPT-2 config's sizes against those its tensors have.
void checkGpt2Config(const DecoderModel& m, const ModelConfig& c, const std::string& source) {
    const DecoderArchitecture &a = m.arch, &want = c.arch;
    const std::pair<const char*, std::pair<int64_t, int64_t>> sizes[] = {
        {"n_layer", {want.layers, a.layers}},
        {"n_embd", {want.dModel, a.dModel}},
        {"vocab_size", {want.vocab, a.vocab}},
        {"n_positions", {want.contextLength, a.contextLength}}};
    for (const auto& [key, v] : sizes)
        if (v.first != v.second)
            fail(source, MessagePart{"its config says %1 = %2 but its weights have %3",
                                     {key, std::to_string(v.first), std::to_string(v.second)}});
}

std::shared_ptr<const DecoderModel> buildWithConfig(const StoredTensors& tensors,
                                                    const ModelConfig& config,
                                                    const std::string& source,
                                                    const ModelLoadOptions& options) {
    if (config.arch.family != Family::Gpt2)
        return buildFamilyModel(tensors, config, source, options);
    ModelLoadOptions o = options;
    if (!o.heads)
        o.heads = config.arch.heads;
    auto model = std::const_pointer_cast<DecoderModel>(buildDecoderModel(tensors, source, o));
    checkGpt2Config(*model, config, source);
    if (!options.heads)
        model->headsSource = HeadsSource::Config;
    return model;
}

// model.safetensors.index.json: every shard it names mapped, every tensor found where the index
// says it is.
StoredTensors readShards(const std::filesystem::path& folder, const std::string& source) {
    const std::filesystem::path indexPath = folder / "model.safetensors.index.json";
    const std::string text = readFileBytes(indexPath.string());
    JsonReader reader(text, "model.safetensors.index.json");
    const JsonValue root = reader.parseValue();
    reader.expectEnd();
    const JsonValue* map = root.member("weight_map");
    if (!map || map->type != JsonValue::Type::Object || map->members.empty())
        fail(source,
             "model.safetensors.index.json has no \"weight_map\" object naming the shard "
             "of each tensor");
    std::map<std::string, StoredTensors> shards;
    for (const auto& [name, file] : map->members) {
        if (file.type != JsonValue::Type::String || file.text.empty() ||
            file.text.find('/') != std::string::npos || file.text.starts_with("."))
            fail(source, "model.safetensors.index.json gives " + name +
                             " a shard that is not a file name in the folder");
        if (!shards.count(file.text)) {
            const std::filesystem::path shard = folder / file.text;
            if (!std::filesystem::is_regular_file(shard))
                fail(source, "the shard " + file.text +
                                 " that model.safetensors.index.json "
                                 "names (for " +
                                 name + ", among others) is not in the folder");
            shards[file.text] = readSafetensorsTensors(mapFile(shard.string()), file.text);
        }
    }
    StoredTensors all;
    std::set<std::string> seen;
    for (const auto& [name, file] : map->members) {
        const StoredTensors& shard = shards.at(file.text);
        // A copy of the name: clang before 16 cannot capture a structured binding.
        const std::string wanted = name;
        const auto it = std::find_if(shard.tensors.begin(), shard.tensors.end(),
                                     [&](const auto& t) { return t.first == wanted; });
        if (it == shard.tensors.end())
            fail(source, "model.safetensors.index.json says " + name + " is in " + file.text +
                             ", but that shard does not hold it");
    }
    for (auto& [file, shard] : shards) {
        for (auto& t : shard.tensors)
            if (seen.insert(t.first).second)
                all.tensors.push_back(std::move(t));
            else
                fail(source, t.first +
                                 " is in more than one shard; a model names each tensor "
                                 "once");
        all.metadata.insert(shard.metadata.begin(), shard.metadata.end());
    }
    return all;
}

// The model with the tokenizer.json of `folder`, when there is one.
std::shared_ptr<const DecoderModel> withTokenizer(std::shared_ptr<const DecoderModel> model,
                                                  const std::filesystem::path& folder) {
    if (!std::filesystem::is_regular_file(folder / "tokenizer.json"))
        return model;
    auto m = std::const_pointer_cast<DecoderModel>(model);
    m->tokenizer = loadTokenizer((folder / "tokenizer.json").string());
    // Only the BPE vocabulary must fit: an added token beyond the model (Gemma 3's
    // <image_soft_token> in the text-only 270M) is refused if the text ever contains it
    // (checkModelSettings names it), as Hugging Face would fail on its embedding.
    if (m->tokenizer->modelVocabSize() > m->arch.vocab)
        fail(fileDisplayName(folder.string()),
             MessagePart{"its tokenizer.json has ids up to %1, beyond the model's vocabulary of "
                         "%2 (is it this model's tokenizer?)",
                         {std::to_string(m->tokenizer->modelVocabSize() - 1),
                          std::to_string(m->arch.vocab)}},
             "tokenizer");
    return m;
}

std::shared_ptr<const DecoderModel> loadFolder(const std::string& path,
                                               const ModelLoadOptions& options) {
    const std::filesystem::path folder(path);
    const std::string source = fileDisplayName(path);
    const std::filesystem::path configPath = options.configPath.empty()
                                                 ? folder / "config.json"
                                                 : std::filesystem::path(options.configPath);
    if (!std::filesystem::is_regular_file(configPath))
        fail(source, MessagePart{"the folder has no config.json; a Hugging Face model folder "
                                 "holds config.json, model.safetensors (or "
                                 "model.safetensors.index.json and its shards) and "
                                 "tokenizer.json",
                                 {}});
    const ModelConfig config = readConfig(configPath.string());
    throwIfCancelled(options.cancel);
    StoredTensors tensors;
    if (std::filesystem::is_regular_file(folder / "model.safetensors"))
        tensors = readSafetensorsTensors(mapFile((folder / "model.safetensors").string()),
                                         "model.safetensors");
    else if (std::filesystem::is_regular_file(folder / "model.safetensors.index.json"))
        tensors = readShards(folder, source);
    else
        fail(source, MessagePart{"the folder has neither model.safetensors nor "
                                 "model.safetensors.index.json with its shards",
                                 {}});
    return withTokenizer(buildWithConfig(tensors, config, source, options), folder);
}

}  // namespace

std::shared_ptr<const DecoderModel> loadDecoderModel(const SharedBytes& bytes,
                                                     const std::string& source,
                                                     const ModelLoadOptions& options) {
    return asModelError([&] {
        throwIfCancelled(options.cancel);
        const StoredTensors tensors = readTensors(bytes, source);
        if (!options.configPath.empty())
            // A tokenizer.json beside the config is the model's.
            return withTokenizer(
                buildWithConfig(tensors, readConfig(options.configPath), source, options),
                std::filesystem::path(options.configPath).parent_path());
        return buildDecoderModel(tensors, source, options);
    });
}

std::string modelContentSha256(const std::string& path, const CancelToken* cancel) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(path, ec))
        return fileSha256(path, cancel);
    std::vector<std::string> names;
    for (const fs::directory_entry& e : fs::directory_iterator(path, ec)) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file(ec) &&
            (name == "config.json" || name == "tokenizer.json" ||
             name == "model.safetensors.index.json" || fileExtension(name) == ".safetensors"))
            names.push_back(name);
    }
    if (ec)
        return {};
    std::sort(names.begin(), names.end());
    Sha256 hash;
    for (const std::string& name : names) {
        hash.add(std::string_view(name.data(), name.size() + 1));  // and its NUL
        if (!hash.addFile((fs::path(path) / name).string(), cancel))
            return {};
    }
    return hash.hex();
}

std::shared_ptr<const DecoderModel> loadDecoderModel(const std::string& path,
                                                     const ModelLoadOptions& options) {
    return asModelError([&] {
        if (std::filesystem::is_directory(path))
            return loadFolder(path, options);
        const SharedBytes bytes = mapFile(path);
        return loadDecoderModel(bytes, fileDisplayName(path), options);
    });
}

}  // namespace attn::io

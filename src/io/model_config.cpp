#include "io/model_config.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "engine/config.h"
#include "io/json_reader.h"

namespace attn::io {

namespace {

// Sizes beyond these are not a model this program can hold: a config that says so is broken.
constexpr int64_t kMaxLayers = 1024;
constexpr int64_t kMaxWidth = 1 << 17;  // hidden size, intermediate size
constexpr int64_t kMaxHeads = 1024;
constexpr int64_t kMaxVocab = 1 << 24;
constexpr int64_t kMaxContext = int64_t(1) << 24;

class ConfigReader {
  public:
    ConfigReader(const JsonValue& root, const std::string& source, std::string scope)
        : root_(root), source_(source), scope_(std::move(scope)) {}

    [[noreturn]] void fail(const std::string& message) const {
        throw UserError("model", source_ + ": " + message);
    }
    // The same in translatable parts (pipeline/issue_text.cpp lists their formats).
    [[noreturn]] void fail(std::vector<MessagePart> parts) const {
        parts.insert(parts.begin(), MessagePart{"%1: ", {source_}});
        throw UserError("model", std::move(parts));
    }
    // "\"key\" is <type>; it must be <what>" for a value of the wrong JSON type.
    [[noreturn]] void failType(const std::string& key, JsonValue::Type type,
                               const char* mustBe) const {
        fail({{"\"%1\" is ", {keyName(key)}}, jsonTypePart(type), {mustBe, {}}});
    }

    std::string keyName(const std::string& key) const { return scope_ + key; }

    const JsonValue* find(const std::string& key) const {
        const JsonValue* v = root_.member(key);
        return v && v->type != JsonValue::Type::Null ? v : nullptr;
    }

    double number(const std::string& key) const {
        const JsonValue* v = find(key);
        if (!v)
            fail({{"it has no \"%1\", which this model type needs", {keyName(key)}}});
        return numberOf(*v, key);
    }

    double numberOf(const JsonValue& v, const std::string& key) const {
        if (v.type != JsonValue::Type::Number)
            failType(key, v.type, "; it must be a number");
        double x = 0;
        const auto [ptr, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), x);
        if (ec != std::errc() || !std::isfinite(x))
            fail({{"\"%1\" = %2 is not a finite number", {keyName(key), v.text}}});
        return x;
    }

    double number(const std::string& key, double fallback) const {
        return find(key) ? number(key) : fallback;
    }

    int64_t size(const std::string& key, int64_t lo, int64_t hi) const {
        const double x = number(key);
        if (x != std::floor(x) || x < double(lo) || x > double(hi))
            fail(
                {{"\"%1\" = %2 is not a size this model can have: it must be a whole number "
                  "from %3 to %4",
                  {keyName(key), find(key)->text, std::to_string(lo), std::to_string(hi)}}});
        return static_cast<int64_t>(x);
    }

    int64_t size(const std::string& key, int64_t lo, int64_t hi, int64_t fallback) const {
        return find(key) ? size(key, lo, hi) : fallback;
    }

    bool flag(const std::string& key, bool fallback) const {
        const JsonValue* v = find(key);
        if (!v)
            return fallback;
        if (v->type != JsonValue::Type::Bool)
            failType(key, v->type, "; it must be true or false");
        return v->boolean;
    }

    std::string text(const std::string& key) const {
        const JsonValue* v = find(key);
        if (!v)
            return {};
        if (v->type != JsonValue::Type::String)
            failType(key, v->type, "; it must be a string");
        return v->text;
    }

    const JsonValue& root() const { return root_; }
    const std::string& source() const { return source_; }

  private:
    const JsonValue& root_;
    const std::string& source_;
    std::string scope_;
};

// A positive number below `hi`, e.g. an epsilon or a RoPE base.
double positive(const ConfigReader& r, const std::string& key, double fallback, double hi) {
    const double x = r.number(key, fallback);
    if (!(x > 0.0) || x > hi) {
        std::ostringstream limit;
        limit << hi;
        r.fail({{"\"%1\" = %2 is out of range: it must be above 0 and at most %3",
                 {r.keyName(key), r.find(key)->text, limit.str()}}});
    }
    return x;
}

// rope_scaling (or a rope_parameters entry) into `spec`; `theta` from the same object when
// rope_parameters spells it there.
void readRopeScaling(const ConfigReader& outer, const JsonValue& v, const std::string& key,
                     RopeSpec& spec) {
    if (v.type != JsonValue::Type::Object)
        outer.failType(key, v.type, "; it must be an object");
    const ConfigReader r(v, outer.source(), outer.keyName(key) + ".");
    if (r.find("rope_theta"))
        spec.base = positive(r, "rope_theta", 1e4, 1e12);
    std::string type = r.text("rope_type");
    if (type.empty())
        type = r.text("type");
    if (type.empty() || type == "default")
        return;
    if (type == "llama3") {
        spec.scaling = RopeSpec::Scaling::Llama3;
        spec.factor = positive(r, "factor", 0, 1e6);
        spec.lowFreqFactor = positive(r, "low_freq_factor", 0, 1e6);
        spec.highFreqFactor = positive(r, "high_freq_factor", 0, 1e6);
        if (spec.highFreqFactor <= spec.lowFreqFactor)
            r.fail("\"" + r.keyName("high_freq_factor") + "\" must be above \"" +
                   r.keyName("low_freq_factor") + "\" (Llama 3 uses 4 and 1)");
        spec.originalContext = double(r.size("original_max_position_embeddings", 1, kMaxContext));
    } else if (type == "linear") {
        spec.scaling = RopeSpec::Scaling::Linear;
        spec.factor = positive(r, "factor", 0, 1e6);
    } else {
        r.fail("\"" + r.keyName(type == r.text("rope_type") ? "rope_type" : "type") + "\" = \"" +
               type + "\" is a RoPE scaling this program does not compute; it knows default, " +
               "llama3 and linear");
    }
}

// Which layers use a sliding window, from "layer_types" when given.
bool readLayerTypes(const ConfigReader& r, int64_t layers, int64_t window,
                    std::vector<int64_t>& windows) {
    const JsonValue* types = r.find("layer_types");
    if (!types)
        return false;
    if (types->type != JsonValue::Type::Array ||
        static_cast<int64_t>(types->items.size()) != layers)
        r.fail("\"" + r.keyName("layer_types") + "\" must list one type per layer (" +
               std::to_string(layers) + " of \"full_attention\" or \"sliding_attention\")");
    windows.assign(static_cast<size_t>(layers), 0);
    for (size_t i = 0; i < types->items.size(); ++i) {
        const JsonValue& t = types->items[i];
        if (t.type == JsonValue::Type::String && t.text == "sliding_attention")
            windows[i] = window;
        else if (!(t.type == JsonValue::Type::String && t.text == "full_attention"))
            r.fail("\"" + r.keyName("layer_types") + "\"[" + std::to_string(i) +
                   "] must be \"full_attention\" or \"sliding_attention\"");
    }
    return true;
}

// What each family after GPT-2 builds, as data: the forward, the texts and the listings read
// these features, never the family itself. A new family is a row here and, where its config
// spells something its own way, a few lines in readFamily.
struct FamilyRow {
    const char* modelType;  // config.json's model_type ("gemma3" keeps its text model apart)
    Family family;
    NormKind norm;
    FeedForwardKind feedForward;
    const char* activationKey;  // the config key naming the feed-forward's activation
    const char* activation;     // the only value of it the family's forward computes
    bool qkvBias;               // query, key and value biases (attention_bias)
    bool qkNorm;                // RMSNorm over each head's queries and keys
    bool sandwichNorms;         // a norm after each sublayer too
    bool tiedHeadByDefault;     // tie_word_embeddings when the config does not say
    double ropeTheta;           // rope_theta when the config does not say
    // Gemma 3's ways: embeddings times sqrt(d_model), scores scaled by query_pre_attn_scalar,
    // sliding windows on five of every six layers, no logit soft-capping.
    bool gemmaStyle;
};

constexpr FamilyRow kFamilies[] = {
    {"llama", Family::Llama, NormKind::RmsNorm, FeedForwardKind::SwiGlu, "hidden_act", "silu",
     false, false, false, false, 1e4, false},
    {"qwen2", Family::Qwen2, NormKind::RmsNorm, FeedForwardKind::SwiGlu, "hidden_act", "silu", true,
     false, false, false, 1e4, false},
    {"qwen3", Family::Qwen3, NormKind::RmsNorm, FeedForwardKind::SwiGlu, "hidden_act", "silu",
     false, true, false, false, 1e4, false},
    {"gemma3_text", Family::Gemma3, NormKind::RmsNormOnePlus, FeedForwardKind::GeGlu,
     "hidden_activation", "gelu_pytorch_tanh", false, true, true, true, 1e6, true},
};

const FamilyRow* familyRow(const std::string& modelType) {
    const std::string type = modelType == "gemma3" ? "gemma3_text" : modelType;
    for (const FamilyRow& row : kFamilies)
        if (type == row.modelType)
            return &row;
    return nullptr;
}

ModelConfig readFamily(const ConfigReader& r, const std::string& modelType) {
    ModelConfig out;
    out.modelType = modelType;
    DecoderArchitecture& a = out.arch;
    const FamilyRow& f = *familyRow(modelType);
    a.family = f.family;

    a.layers = r.size("num_hidden_layers", 1, kMaxLayers);
    a.dModel = r.size("hidden_size", 1, kMaxWidth);
    a.heads = r.size("num_attention_heads", 1, kMaxHeads);
    a.kvHeads = r.size("num_key_value_heads", 1, kMaxHeads, a.heads);
    if (a.heads % a.kvHeads != 0)
        r.fail("\"" + r.keyName("num_key_value_heads") + "\" = " + std::to_string(a.kvHeads) +
               " does not divide \"" + r.keyName("num_attention_heads") +
               "\" = " + std::to_string(a.heads) +
               ": each key/value head serves the same number of query "
               "heads");
    if (!r.find("head_dim") && a.dModel % a.heads != 0)
        r.fail("it has no \"" + r.keyName("head_dim") + "\", and \"" + r.keyName("hidden_size") +
               "\" = " + std::to_string(a.dModel) + " cannot be split into " +
               std::to_string(a.heads) + " heads of equal size to derive it");
    a.headDim = r.size("head_dim", 2, 4096, a.dModel / a.heads);
    if (a.headDim % 2 != 0)
        r.fail("\"" + r.keyName("head_dim") + "\" = " + std::to_string(a.headDim) +
               " is odd; RoPE turns pairs of numbers, so a head needs an even size");
    a.ffHidden = r.size("intermediate_size", 1, kMaxWidth);
    a.vocab = r.size("vocab_size", 1, kMaxVocab);
    a.contextLength = r.size("max_position_embeddings", 1, kMaxContext);
    a.normEps = positive(r, "rms_norm_eps", 1e-6, 0.1);
    a.norm = f.norm;
    a.feedForward = f.feedForward;
    a.rope = true;
    a.qkNorm = f.qkNorm;
    a.sandwichNorms = f.sandwichNorms;
    a.qkvBias = f.qkvBias;
    a.outputBias = false;
    a.tiedHead = r.flag("tie_word_embeddings", f.tiedHeadByDefault);
    if (r.flag("attention_bias", f.qkvBias) != a.qkvBias)
        r.fail("\"" + r.keyName("attention_bias") + "\" is " + (a.qkvBias ? "false" : "true") +
               ", but a " + modelType + " model has " +
               (a.qkvBias ? "query, key and value biases" : "no attention biases"));
    if (r.flag("mlp_bias", false))
        r.fail("\"" + r.keyName("mlp_bias") + "\" is true, but a " + modelType +
               " model's feed-forward has no biases");
    const std::string act = r.text(f.activationKey);
    if (!act.empty() && act != f.activation)
        r.fail("\"" + r.keyName(f.activationKey) + "\" = \"" + act + "\", but a " + modelType +
               " model's feed-forward uses \"" + f.activation + "\"");

    a.globalRope.base = positive(r, "rope_theta", f.ropeTheta, 1e12);
    if (const JsonValue* s = r.find("rope_scaling"))
        readRopeScaling(r, *s, "rope_scaling", a.globalRope);
    a.localRope.base = positive(r, "rope_local_base_freq", 1e4, 1e12);
    if (const JsonValue* p = r.find("rope_parameters")) {
        // The newer spelling: one object, or one per attention type (Gemma 3).
        const JsonValue* full = p->member("full_attention");
        const JsonValue* sliding = p->member("sliding_attention");
        if (full || sliding) {
            if (full)
                readRopeScaling(r, *full, "rope_parameters.full_attention", a.globalRope);
            if (sliding)
                readRopeScaling(r, *sliding, "rope_parameters.sliding_attention", a.localRope);
        } else {
            readRopeScaling(r, *p, "rope_parameters", a.globalRope);
        }
    }

    if (f.gemmaStyle) {
        a.embeddingScale = std::sqrt(static_cast<double>(a.dModel));
        a.queryScale =
            1.0 / std::sqrt(positive(r, "query_pre_attn_scalar", double(a.headDim), 1e9));
        for (const char* key : {"final_logit_softcapping", "attn_logit_softcapping"})
            if (r.find(key))
                r.fail("\"" + r.keyName(key) +
                       "\" is set, but Gemma 3 caps no logits; is this a "
                       "Gemma 2 config?");
        const int64_t window = r.size("sliding_window", 1, kMaxContext);
        if (!readLayerTypes(r, a.layers, window, a.windows)) {
            const int64_t pattern = r.size("sliding_window_pattern", 1, kMaxLayers, 6);
            a.windows.assign(static_cast<size_t>(a.layers), 0);
            for (int64_t i = 0; i < a.layers; ++i)
                a.windows[size_t(i)] = (i + 1) % pattern != 0 ? window : 0;
        }
    } else if (r.flag("use_sliding_window", false)) {
        // Qwen's sliding window, on the layers from max_window_layers on.
        const int64_t window = r.size("sliding_window", 1, kMaxContext);
        if (!readLayerTypes(r, a.layers, window, a.windows)) {
            const int64_t from = r.size("max_window_layers", 0, kMaxLayers, a.layers);
            a.windows.assign(static_cast<size_t>(a.layers), 0);
            for (int64_t i = from; i < a.layers; ++i)
                a.windows[size_t(i)] = window;
        }
    }
    if (std::all_of(a.windows.begin(), a.windows.end(), [](int64_t w) { return w == 0; }))
        a.windows.clear();
    return out;
}

ModelConfig readGpt2(const ConfigReader& r) {
    ModelConfig out;
    out.modelType = "gpt2";
    DecoderArchitecture& a = out.arch;
    a.family = Family::Gpt2;
    a.layers = r.size("n_layer", 1, kMaxLayers);
    a.dModel = r.size("n_embd", 1, kMaxWidth);
    a.heads = r.size("n_head", 1, kMaxHeads);
    a.vocab = r.size("vocab_size", 1, kMaxVocab);
    a.contextLength = r.size("n_positions", 1, kMaxContext);
    if (a.dModel % a.heads != 0)
        r.fail("\"n_head\" = " + std::to_string(a.heads) +
               " does not divide \"n_embd\" = " + std::to_string(a.dModel));
    return out;
}

}  // namespace

namespace {

// GPT-2 and the table's families; Gemma 3's multimodal folder around its text model comes last
// (messages join it with their language's "and").
std::string modelTypesButLast() {
    std::string types = "gpt2";
    for (const FamilyRow& row : kFamilies)
        types += std::string(", ") + row.modelType;
    return types;
}

const char* const kLastModelType = "gemma3";

}  // namespace

std::string supportedModelTypes() {
    return modelTypesButLast() + " and " + kLastModelType;
}

ModelConfig parseModelConfig(std::string_view json, const std::string& source) {
    JsonReader reader(json, source);
    const JsonValue root = reader.parseValue();
    reader.expectEnd();
    if (root.type != JsonValue::Type::Object)
        throw UserError("model", {{"%1: ", {source}},
                                  {"a config.json holds one object, not ", {}},
                                  jsonTypePart(root.type)});
    const ConfigReader top(root, source, "");
    const std::string type = top.text("model_type");
    if (type.empty())
        top.fail(
            {{"it has no \"model_type\"; a Hugging Face config names its architecture "
              "there (this program reads %1 and %2)",
              {modelTypesButLast(), kLastModelType}}});
    if (type == "gpt2")
        return readGpt2(top);
    if (type != "gemma3" && familyRow(type))
        return readFamily(top, type);
    if (type == "gemma3") {
        const JsonValue* text = top.find("text_config");
        if (!text || text->type != JsonValue::Type::Object)
            top.fail(
                {{"it has no \"text_config\" object, where a gemma3 config keeps its text "
                  "model",
                  {}}});
        ModelConfig c = readFamily(ConfigReader(*text, source, "text_config."), "gemma3");
        c.tensorPrefix = "language_model.";
        return c;
    }
    top.fail({{"\"model_type\" = \"%1\" is not a model this program reads; it reads %2 and %3",
               {type, modelTypesButLast(), kLastModelType}}});
}

}  // namespace attn::io

#include "engine/weight_check.h"

#include <charconv>
#include <set>

#include "engine/trace.h"

namespace attn {

namespace {

// The shortest text that reads back as the same float (as the file formats write it).
std::string formatFloat(float value) {
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, value).ptr);
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
    std::string s;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i)
            s += separator;
        s += items[i];
    }
    return s;
}

// "heads.3.W_key.weight" -> "W_key.weight"
std::string withoutHeadPrefix(const std::string& name) {
    if (!name.starts_with("heads."))
        return name;
    size_t dot = name.find('.', 6);
    return dot == std::string::npos ? name : name.substr(dot + 1);
}

bool isQkv(const std::string& base) {
    return base == "W_query" || base == "W_key" || base == "W_value";
}

std::string dimNames(const std::string& name) {
    const std::string base = withoutHeadPrefix(name);
    if (base == "mask")
        return "(context_length, context_length)";
    if (base == "out_proj.weight")
        return "(d_out, d_out)";
    if (base.ends_with(".bias"))
        return "(d_out)";
    if (base.ends_with(".weight"))
        return "(d_out, d_in)";
    if (isQkv(base))
        return "(d_in, d_out)";
    return "";
}

bool isQkvBias(const std::string& name) {
    const std::string base = withoutHeadPrefix(name);
    return base.ends_with(".bias") && isQkv(base.substr(0, base.size() - 5));
}

// The chapter's modules register `mask` (CausalAttention, MultiHeadAttention) or one per head
// (MultiHeadAttentionWrapper): a state_dict saved from them holds it.
bool isMaskBuffer(const std::string& name, const Config& config) {
    if (name == "mask")
        return config.variant == Variant::Causal || config.variant == Variant::MultiHead;
    if (config.variant != Variant::MultiHeadWrapper || !name.starts_with("heads.") ||
        !name.ends_with(".mask"))
        return false;
    const std::string number = name.substr(6, name.size() - 6 - 5);
    if (number.empty() || number.size() > 9 ||
        number.find_first_not_of("0123456789") != std::string::npos)
        return false;
    if (number.size() > 1 && number[0] == '0')
        return false;
    return std::stoll(number) < config.heads;
}

std::vector<MessagePart> checkMask(const std::string& name, const Tensor& mask,
                                   const Config& config) {
    const int64_t n = config.contextLength;
    const Shape expected{n, n};
    if (mask.shape() != expected) {
        std::vector<MessagePart> s = {
            {"%1 has shape %2 but this model needs %3 (context_length, context_length)",
             {name, shapeToString(mask.shape()), shapeToString(expected)}}};
        if (mask.dim() == 2 && mask.size(0) == mask.size(1))
            s.push_back(
                {"; set context_length to %1 to match the file", {std::to_string(mask.size(0))}});
        return s;
    }
    const Tensor c = mask.contiguous();
    const float* p = c.data();
    for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
            const float want = j > i ? 1.0f : 0.0f;
            const float got = p[i * n + j];
            if (got != want)
                return {
                    {"%1 is not the causal mask torch.triu(torch.ones(%2, %2), diagonal=1): "
                     "element [%3][%4] is %5, expected %6",
                     {name, std::to_string(n), std::to_string(i), std::to_string(j),
                      formatFloat(got), formatFloat(want)}}};
        }
    }
    return {};
}

}  // namespace

std::optional<int64_t> maskBufferSize(const WeightMap& weights) {
    for (const auto& [name, tensor] : weights)
        if ((name == "mask" || (name.starts_with("heads.") && name.ends_with(".mask"))) &&
            tensor.dim() == 2 && tensor.size(0) == tensor.size(1))
            return tensor.size(0);
    return std::nullopt;
}

std::vector<std::string> weightProblems(const WeightMap& weights, const Config& config) {
    std::vector<std::string> problems;
    for (const std::vector<MessagePart>& parts : weightProblemParts(weights, config))
        problems.push_back(formatMessage(parts));
    return problems;
}

std::vector<std::vector<MessagePart>> weightProblemParts(const WeightMap& weights,
                                                         const Config& config) {
    std::vector<std::vector<MessagePart>> problems;
    const auto expected = parameterShapes(config);
    std::set<std::string> expectedNames;
    std::vector<std::string> missing, unexpected;
    for (const auto& [name, shape] : expected) {
        expectedNames.insert(name);
        auto it = weights.find(name);
        if (it == weights.end()) {
            missing.push_back(name + " " + shapeToString(shape));
            continue;
        }
        if (it->second.shape() != shape)
            problems.push_back({{"%1 has shape %2 but this model needs %3 %4",
                                 {name, shapeToString(it->second.shape()), shapeToString(shape),
                                  dimNames(name)}}});
    }
    bool unexpectedBias = false, unexpectedV1 = false, unexpectedHeads = false,
         unexpectedLinear = false;
    for (const auto& [name, tensor] : weights) {
        if (expectedNames.count(name))
            continue;
        if (isMaskBuffer(name, config)) {
            std::vector<MessagePart> issue = checkMask(name, tensor, config);
            if (!issue.empty())
                problems.push_back(issue);
            continue;
        }
        unexpected.push_back(name);
        unexpectedBias = unexpectedBias || (isQkvBias(name) && !config.qkvBias);
        unexpectedV1 = unexpectedV1 || (isQkv(name) && config.variant != Variant::SelfAttentionV1);
        unexpectedLinear = unexpectedLinear ||
                           (config.variant == Variant::SelfAttentionV1 &&
                            name.ends_with(".weight") && isQkv(name.substr(0, name.size() - 7)));
        unexpectedHeads = unexpectedHeads || (name.starts_with("heads.") &&
                                              config.variant != Variant::MultiHeadWrapper);
    }
    if (!missing.empty()) {
        std::vector<MessagePart> s = {{"missing %1", {join(missing, ", ")}}};
        bool onlyBiases = true;
        for (const std::string& m : missing)
            onlyBiases = onlyBiases && isQkvBias(m.substr(0, m.find(' ')));
        if (onlyBiases && config.qkvBias)
            s.push_back({" (turn off qkv_bias if the module was built without biases)", {}});
        problems.insert(problems.begin(), s);
    }
    if (!unexpected.empty()) {
        std::vector<MessagePart> s = {{"unexpected %1", {join(unexpected, ", ")}}};
        if (expected.empty())
            s.push_back({" (%1 has no weights)", {variantName(config.variant)}});
        else if (unexpectedBias)
            s.push_back({" (the file has query/key/value biases: turn on qkv_bias)", {}});
        else if (unexpectedV1)
            s.push_back({" (plain W_query, W_key, W_value belong to self-attention-v1)", {}});
        else if (unexpectedHeads)
            s.push_back({" (heads.N names belong to multi-head-wrapper)", {}});
        else if (unexpectedLinear)
            s.push_back(
                {" (W_query.weight is an nn.Linear layer: choose self-attention, not "
                 "self-attention-v1)",
                 {}});
        problems.insert(problems.begin() + (missing.empty() ? 0 : 1), s);
    }
    return problems;
}

void checkWeights(const WeightMap& weights, const Config& config, const std::string& source) {
    const std::vector<std::string> problems = weightProblems(weights, config);
    if (problems.empty())
        return;
    throw UserError("weights", (source.empty() ? "" : source + ": ") + join(problems, "; "));
}

}  // namespace attn

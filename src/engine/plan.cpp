// What each configuration computes: the ordered step list with ids, titles, PyTorch expressions
// and named shapes (PyTorch order, batch first; the ids are the contract exports and the CLI
// use), the parameter list, and the memory estimate.

#include <algorithm>
#include <cmath>

#include "engine/step_ids.h"
#include "engine/trace.h"

namespace attn {

namespace {

struct Sizes {
    int64_t b, T, dIn, dOut, h, hd;
};

std::string maskOp(const MaskSpec& m) {
    if (m.kind == MaskKind::Window)
        return "torch.triu(torch.ones(T, T), diagonal=1) + torch.tril(torch.ones(T, T), "
               "diagonal=-" +
               std::to_string(m.window) + ")";
    return "torch.triu(torch.ones(T, T), diagonal=1)";
}

class Planner {
  public:
    explicit Planner(const Config& c, int64_t tokens) : c_(c) {
        s_.b = c.batch;
        s_.T = tokens;
        s_.dIn = c.dIn;
        s_.dOut = c.variant == Variant::Simplified ? c.dIn : c.dOut;
        s_.h = c.effectiveHeads();
        s_.hd = c.headSize();
    }

    std::vector<StepInfo> plan() {
        const Variant v = c_.variant;
        if (variantIsAfterChapter3(v))
            return planAfterChapter3();
        const bool wrapper = v == Variant::MultiHeadWrapper;
        const bool mha = v == Variant::MultiHead;
        add(step_id::kInputs, "Token embeddings: one d_in-dimensional vector per token", "x",
            {{"b", s_.b}, {"T", s_.T}, {"d_in", s_.dIn}}, StepKind::Input);

        if (v != Variant::Simplified) {
            const char* names[] = {step_id::kQueries, step_id::kKeys, step_id::kValues};
            const char* mats[] = {"W_query", "W_key", "W_value"};
            const char* titles[] = {"Queries: what each token is looking for",
                                    "Keys: what each token offers to be matched against",
                                    "Values: the content each token passes on"};
            for (int i = 0; i < 3; ++i) {
                std::string op;
                if (v == Variant::SelfAttentionV1)
                    op = std::string("x @ self.") + mats[i];
                else if (wrapper)
                    op = std::string("head.") + mats[i] + "(x)  for each head";
                else
                    op = std::string("self.") + mats[i] + "(x)";
                add(names[i], titles[i], op,
                    perHead({{"b", s_.b}, {"T", s_.T}, {"d_out", s_.dOut}}), StepKind::Projection);
            }
        }
        if (mha) {
            // Each projection, its split into heads and its grouping by head.
            struct Qkv {
                const char *id, *split, *heads;
            };
            const Qkv qkv[] = {{step_id::kQueries, step_id::kQueriesSplit, step_id::kQueriesHeads},
                               {step_id::kKeys, step_id::kKeysSplit, step_id::kKeysHeads},
                               {step_id::kValues, step_id::kValuesSplit, step_id::kValuesHeads}};
            for (const Qkv& n : qkv)
                add(n.split,
                    std::string("The ") + n.id + " split into h heads of hd = d_out / h numbers",
                    std::string(n.id) + ".view(b, num_tokens, num_heads, head_dim)",
                    {{"b", s_.b}, {"T", s_.T}, {"h", s_.h}, {"hd", s_.hd}}, StepKind::Projection,
                    n.id);
            for (const Qkv& n : qkv)
                add(n.heads,
                    std::string("The ") + n.id + " grouped by head: each head sees its own slice",
                    std::string(n.split) + ".transpose(1, 2)",
                    {{"b", s_.b}, {"h", s_.h}, {"T", s_.T}, {"hd", s_.hd}}, StepKind::Projection,
                    n.id);
        }

        const Dims tt = perHead({{"b", s_.b}, {"T", s_.T}, {"T", s_.T}});
        std::string scoresOp;
        if (v == Variant::Simplified)
            scoresOp = "inputs @ inputs.transpose(-2, -1)";
        else if (v == Variant::SelfAttentionV1)
            scoresOp = "queries @ keys.transpose(-2, -1)";
        else if (mha)
            scoresOp = "queries_heads @ keys_heads.transpose(2, 3)";
        else
            scoresOp = "queries @ keys.transpose(1, 2)";
        // Simplified attention (section 3.3) has no queries, keys or values: its titles name
        // the inputs.
        add(step_id::kScores,
            v == Variant::Simplified
                ? "Attention scores: the dot product of every input with every input"
                : "Attention scores: the dot product of every query with every key",
            scoresOp, tt, StepKind::Scores);

        const std::string used = addAttentionSteps(tt);
        if (mha) {
            add(step_id::kContextHeads,
                "Context per head: each token's weighted sum of its head's values",
                used + " @ values_heads", {{"b", s_.b}, {"h", s_.h}, {"T", s_.T}, {"hd", s_.hd}},
                StepKind::Projection);
            add(step_id::kContextTransposed,
                "Context with the heads side by side again for each token",
                "context_heads.transpose(1, 2)",
                {{"b", s_.b}, {"T", s_.T}, {"h", s_.h}, {"hd", s_.hd}}, StepKind::Projection,
                step_id::kContextHeads);
            add(step_id::kContext, "Context vectors: the heads' outputs concatenated per token",
                "context_transposed.contiguous().view(b, num_tokens, d_out)",
                {{"b", s_.b}, {"T", s_.T}, {"d_out", s_.dOut}}, StepKind::Projection,
                step_id::kContextHeads);
            add(step_id::kOutput, "Output: the output projection mixes the heads",
                "self.out_proj(context)", {{"b", s_.b}, {"T", s_.T}, {"d_out", s_.dOut}},
                StepKind::Projection);
        } else {
            const std::string valuesName =
                v == Variant::Simplified ? step_id::kInputs : step_id::kValues;
            add(step_id::kContext,
                v == Variant::Simplified
                    ? "Context vectors: each token's weighted sum of the input vectors"
                    : "Context vectors: each token's weighted sum of the value vectors",
                used + " @ " + valuesName,
                perHead({{"b", s_.b},
                         {"T", s_.T},
                         {v == Variant::Simplified ? "d_in" : "d_out", s_.dOut}}),
                StepKind::Projection);
            if (wrapper)
                add(step_id::kOutput, "Output: the heads' context vectors concatenated",
                    "torch.cat([head(x) for head in self.heads], dim=-1)",
                    {{"b", s_.b}, {"T", s_.T}, {"h*d_out", s_.h * s_.dOut}}, StepKind::Projection);
            else
                add(step_id::kOutput, "Output of the module: the context vectors", "context_vec",
                    {{"b", s_.b},
                     {"T", s_.T},
                     {v == Variant::Simplified ? "d_in" : "d_out", s_.dOut}},
                    StepKind::Projection, step_id::kContext);
        }
        return steps_;
    }

  private:
    using Dims = std::vector<std::pair<std::string, int64_t>>;

    // The storage a step's value lives in: its own, or that of the step it is a view of.
    std::string storageOf(const std::string& id) const {
        for (const StepInfo& s : steps_)
            if (s.id == id)
                return s.viewOf.empty() ? id : s.viewOf;
        return id;
    }

    // grouped-query, latent and rotary (section 9.1): multi-head attention's steps, with the
    // latent, the key/value groups and their repetition, QK-norm and the rotation where the
    // module has them.
    std::vector<StepInfo> planAfterChapter3() {
        const Variant v = c_.variant;
        const bool grouped = variantHasKvGroups(v);
        const bool rotary = v == Variant::Rotary;
        const int64_t b = s_.b, T = s_.T, H = s_.h, hd = s_.hd;
        const int64_t G = grouped ? c_.effectiveKvGroups() : H;
        const int64_t perGroup = G > 0 ? H / G : 1;
        const int64_t qWidth = c_.queryWidth();
        const std::string qName = rotary ? "h*hd" : "d_out";
        const std::string kvName = grouped ? "G*hd" : "d_out";
        const int64_t kvWidth = grouped ? G * hd : qWidth;

        add(step_id::kInputs, "Token embeddings: one d_in-dimensional vector per token", "x",
            {{"b", b}, {"T", T}, {"d_in", s_.dIn}}, StepKind::Input);
        add(step_id::kQueries, "Queries: what each token is looking for", "self.W_query(x)",
            {{"b", b}, {"T", T}, {qName, qWidth}}, StepKind::Projection);
        if (v == Variant::Latent) {
            add(step_id::kLatent,
                "Latent: one small vector per token from which keys and values are rebuilt "
                "(all the cache keeps)",
                "self.W_DKV(x)", {{"b", b}, {"T", T}, {"latent", c_.effectiveLatentDim()}},
                StepKind::Projection);
            add(step_id::kKeys, "Keys, up-projected from the latent", "self.W_UK(latent)",
                {{"b", b}, {"T", T}, {"d_out", qWidth}}, StepKind::Projection);
            add(step_id::kValues, "Values, up-projected from the latent", "self.W_UV(latent)",
                {{"b", b}, {"T", T}, {"d_out", qWidth}}, StepKind::Projection);
        } else {
            const std::string few = grouped ? " (one per key/value group)" : "";
            add(step_id::kKeys, "Keys: what each token offers to be matched against" + few,
                "self.W_key(x)", {{"b", b}, {"T", T}, {kvName, kvWidth}}, StepKind::Projection);
            add(step_id::kValues, "Values: the content each token passes on" + few,
                "self.W_value(x)", {{"b", b}, {"T", T}, {kvName, kvWidth}}, StepKind::Projection);
        }
        add(step_id::kQueriesSplit, "The queries split into h heads of hd numbers",
            "queries.view(b, num_tokens, num_heads, head_dim)",
            {{"b", b}, {"T", T}, {"h", H}, {"hd", hd}}, StepKind::Projection, step_id::kQueries);
        const char* kvGroupAxis = grouped ? "G" : "h";
        const int64_t kvHeads = grouped ? G : H;
        for (const auto& [id, split] : {std::pair{step_id::kKeys, step_id::kKeysSplit},
                                        std::pair{step_id::kValues, step_id::kValuesSplit}})
            add(split,
                grouped ? std::string("The ") + id + " split into G key/value groups of hd numbers"
                        : std::string("The ") + id + " split into h heads of hd numbers",
                std::string(id) + ".view(b, num_tokens, " +
                    (grouped ? "num_kv_groups" : "num_heads") + ", head_dim)",
                {{"b", b}, {"T", T}, {kvGroupAxis, kvHeads}, {"hd", hd}}, StepKind::Projection, id);
        add(step_id::kQueriesHeads, "The queries grouped by head: each head sees its own slice",
            "queries_split.transpose(1, 2)", {{"b", b}, {"h", H}, {"T", T}, {"hd", hd}},
            StepKind::Projection, step_id::kQueries);
        std::string queries = step_id::kQueriesHeads;
        std::string keys = grouped ? step_id::kKeysGroups : step_id::kKeysHeads;
        std::string values = grouped ? step_id::kValuesGroups : step_id::kValuesHeads;
        const Dims kvDims = {{"b", b}, {kvGroupAxis, kvHeads}, {"T", T}, {"hd", hd}};
        const Dims qDims = {{"b", b}, {"h", H}, {"T", T}, {"hd", hd}};
        if (grouped) {
            add(keys, "The keys by key/value group: heads / G query heads share each group",
                "keys_split.transpose(1, 2)", kvDims, StepKind::Projection, step_id::kKeys,
                perGroup);
            add(values, "The values by key/value group: heads / G query heads share each group",
                "values_split.transpose(1, 2)", kvDims, StepKind::Projection, step_id::kValues,
                perGroup);
        } else {
            add(keys, "The keys grouped by head: each head sees its own slice",
                "keys_split.transpose(1, 2)", kvDims, StepKind::Projection, step_id::kKeys);
            add(values, "The values grouped by head: each head sees its own slice",
                "values_split.transpose(1, 2)", kvDims, StepKind::Projection, step_id::kValues);
        }
        if (rotary && c_.qkNorm) {
            add(step_id::kQueriesNormed,
                "QK-norm: each head's query scaled to a root mean square of 1 (RMSNorm)",
                "self.q_norm(" + queries + ")", qDims, StepKind::Projection);
            add(step_id::kKeysNormed,
                "QK-norm: each group's key scaled to a root mean square of 1 (RMSNorm)",
                "self.k_norm(" + keys + ")", kvDims, StepKind::Projection, {}, perGroup);
            queries = step_id::kQueriesNormed;
            keys = step_id::kKeysNormed;
        }
        if (c_.ropeActive()) {
            const Dims table = {{"T", T}, {"hd", hd}};
            add(step_id::kRopeCos,
                "RoPE cosines: cos(position x frequency), each frequency for a pair of dims "
                "(i, i + hd/2)",
                "cos[:num_tokens, :]", table, StepKind::Projection);
            add(step_id::kRopeSin, "RoPE sines: sin(position x frequency), paired like the cosines",
                "sin[:num_tokens, :]", table, StepKind::Projection);
            add(step_id::kQueriesRotated,
                "Rotated queries: each pair of dims turned by an angle that grows with the "
                "position",
                "apply_rope(" + queries + ", cos, sin)", qDims, StepKind::Projection);
            add(step_id::kKeysRotated,
                "Rotated keys: turned like the queries, so scores depend on the distance",
                "apply_rope(" + keys + ", cos, sin)", kvDims, StepKind::Projection, {},
                grouped ? perGroup : 1);
            queries = step_id::kQueriesRotated;
            keys = step_id::kKeysRotated;
        }
        if (grouped) {
            add(step_id::kKeysRepeated,
                "Keys for every query head: each group's keys repeated for the heads that share "
                "them (a view, no copy)",
                keys + ".repeat_interleave(group_size, dim=1)", qDims, StepKind::Projection,
                storageOf(keys));
            add(step_id::kValuesRepeated,
                "Values for every query head: each group's values repeated (a view, no copy)",
                values + ".repeat_interleave(group_size, dim=1)", qDims, StepKind::Projection,
                storageOf(values));
            keys = step_id::kKeysRepeated;
            values = step_id::kValuesRepeated;
        }
        const Dims tt = {{"b", b}, {"h", H}, {"T", T}, {"T", T}};
        add(step_id::kScores, "Attention scores: the dot product of every query with every key",
            queries + " @ " + keys + ".transpose(2, 3)", tt, StepKind::Scores);
        const std::string used = addAttentionSteps(tt);
        add(step_id::kContextHeads,
            "Context per head: each token's weighted sum of its head's values",
            used + " @ " + values, qDims, StepKind::Projection);
        add(step_id::kContextTransposed, "Context with the heads side by side again for each token",
            "context_heads.transpose(1, 2)", {{"b", b}, {"T", T}, {"h", H}, {"hd", hd}},
            StepKind::Projection, step_id::kContextHeads);
        add(step_id::kContext, "Context vectors: the heads' outputs concatenated per token",
            "context_transposed.contiguous().view(b, num_tokens, " +
                std::string(rotary ? "num_heads * head_dim" : "d_out") + ")",
            {{"b", b}, {"T", T}, {qName, qWidth}}, StepKind::Projection, step_id::kContextHeads);
        add(step_id::kOutput,
            rotary ? "Output: the output projection mixes the heads back to d_in numbers"
                   : "Output: the output projection mixes the heads",
            "self.out_proj(context)",
            {{"b", b}, {"T", T}, {rotary ? "d_in" : "d_out", c_.outputWidth()}},
            StepKind::Projection);
        return steps_;
    }

    // mask -> masked_scores -> scaled_scores -> weights (-> the simple method) (-> dropout),
    // after `scores`; returns the id of the weights that multiply the values.
    std::string addAttentionSteps(const Dims& tt) {
        const Variant v = c_.variant;
        const MaskSpec mask = c_.effectiveMask();
        const bool masked = mask.kind != MaskKind::None;
        const bool scaled = v != Variant::Simplified;
        std::string current = step_id::kScores;
        if (masked) {
            add(step_id::kMask,
                mask.kind == MaskKind::Causal
                    ? "Causal mask: 1 marks a later token the query may not see"
                    : "Window mask: 1 marks a token outside the last K the query may not see",
                maskOp(mask), {{"T", s_.T}, {"T", s_.T}}, StepKind::Mask);
            add(step_id::kMaskedScores, "Masked scores: hidden positions become -inf",
                "scores.masked_fill(mask.bool(), -torch.inf)", tt, StepKind::Scores);
            current = step_id::kMaskedScores;
        }
        if (scaled) {
            add(step_id::kScaledScores,
                "Scaled scores: divided by sqrt(d_k) so softmax does not saturate",
                current + " / keys.shape[-1]**0.5", tt, StepKind::Scores);
            current = step_id::kScaledScores;
        }
        add(step_id::kWeights,
            "Attention weights: softmax makes each row a distribution that sums to 1",
            "torch.softmax(" + current + ", dim=-1)", tt, StepKind::Weights);
        if (masked && c_.simpleMaskSteps) {
            add(step_id::kWeightsUnmasked, "Simple masking, step 1: softmax of the unmasked scores",
                scaled ? "torch.softmax(scores / keys.shape[-1]**0.5, dim=-1)"
                       : "torch.softmax(scores, dim=-1)",
                tt, StepKind::Weights);
            add(step_id::kWeightsTril, "Simple masking, step 2: zero the hidden weights",
                "weights_unmasked * (1 - mask)", tt, StepKind::Weights);
            add(step_id::kWeightsRenormalized,
                "Simple masking, step 3: rows renormalised to sum to 1 (equal to weights)",
                "weights_tril / weights_tril.sum(dim=-1, keepdim=True)", tt, StepKind::Weights);
        }
        std::string used = step_id::kWeights;
        if (c_.dropoutActive()) {
            add(step_id::kDropoutMask, "Dropout mask: 1 = weight kept, 0 = dropped (training mode)",
                "torch.bernoulli(torch.full_like(weights, 1 - p))", tt, StepKind::DropoutMask);
            add(step_id::kDroppedWeights, "Weights after dropout: kept ones scaled by 1/(1-p)",
                "self.dropout(weights)", tt, StepKind::Weights);
            used = step_id::kDroppedWeights;
        }

        return used;
    }

    // The wrapper runs one CausalAttention per head, so its per-head steps gain a leading dim.
    Dims perHead(Dims d) const {
        if (c_.variant == Variant::MultiHeadWrapper)
            d.insert(d.begin(), {"head", s_.h});
        else if (variantHasHeads(c_.variant) && d.size() == 3 && d[1].first == "T" &&
                 d[2].first == "T")
            d.insert(d.begin() + 1, {"h", s_.h});
        return d;
    }

    void add(std::string id, std::string title, std::string op, const Dims& dims, StepKind kind,
             std::string viewOf = {}, int64_t headsPerGroup = 1) {
        StepInfo info;
        info.id = std::move(id);
        info.title = std::move(title);
        info.op = std::move(op);
        for (const auto& [name, size] : dims) {
            info.dims.push_back(name);
            info.shape.push_back(size);
        }
        info.kind = kind;
        info.viewOf = std::move(viewOf);
        info.headsPerGroup = headsPerGroup;
        steps_.push_back(std::move(info));
    }

    const Config& c_;
    Sizes s_{};
    std::vector<StepInfo> steps_;
};

}  // namespace

int64_t StepInfo::headAxis() const {
    for (size_t i = 0; i < dims.size(); ++i)
        if (dims[i] == "h" || dims[i] == "head" || dims[i] == "G") {
            // The reshape steps of multi-head have h as a feature axis, not a picture axis, when
            // it is one of the last two dims.
            if (i + 2 >= dims.size())
                return -1;
            return static_cast<int64_t>(i);
        }
    return -1;
}

bool StepInfo::headAxisIsGroups() const {
    const int64_t axis = headAxis();
    return axis >= 0 && dims[size_t(axis)] == "G";
}

int64_t StepInfo::queryHeadsPerIndex() const {
    return headAxisIsGroups() ? std::max<int64_t>(headsPerGroup, 1) : 1;
}

int64_t StepInfo::batchAxis() const {
    for (size_t i = 0; i < dims.size(); ++i)
        if (dims[i] == "b")
            return static_cast<int64_t>(i);
    return -1;
}

std::vector<StepInfo> planSteps(const Config& config, int64_t tokens) {
    return Planner(config, tokens).plan();
}

std::vector<std::pair<std::string, Shape>> parameterShapes(const Config& c) {
    std::vector<std::pair<std::string, Shape>> out;
    const char* mats[] = {"W_query", "W_key", "W_value"};
    auto linear = [&](const std::string& prefix, int64_t in, int64_t outDim, bool bias) {
        out.push_back({prefix + ".weight", {outDim, in}});
        if (bias)
            out.push_back({prefix + ".bias", {outDim}});
    };
    switch (c.variant) {
        case Variant::Simplified:
            break;
        case Variant::SelfAttentionV1:
            for (const char* m : mats)
                out.push_back({m, {c.dIn, c.dOut}});
            break;
        case Variant::SelfAttention:
        case Variant::Causal:
            for (const char* m : mats)
                linear(m, c.dIn, c.dOut, c.qkvBias);
            break;
        case Variant::MultiHeadWrapper:
            for (int64_t h = 0; h < c.heads; ++h)
                for (const char* m : mats)
                    linear("heads." + std::to_string(h) + "." + m, c.dIn, c.dOut, c.qkvBias);
            break;
        case Variant::MultiHead:
            for (const char* m : mats)
                linear(m, c.dIn, c.dOut, c.qkvBias);
            linear("out_proj", c.dOut, c.dOut, true);
            break;
        case Variant::GroupedQuery: {
            // The book's constructor creates the key and value projections first.
            const int64_t kv = c.effectiveKvGroups() * c.headSize();
            linear("W_key", c.dIn, kv, c.qkvBias);
            linear("W_value", c.dIn, kv, c.qkvBias);
            linear("W_query", c.dIn, c.dOut, c.qkvBias);
            linear("out_proj", c.dOut, c.dOut, false);
            break;
        }
        case Variant::Latent: {
            const int64_t latent = c.effectiveLatentDim();
            linear("W_query", c.dIn, c.dOut, c.qkvBias);
            linear("W_DKV", c.dIn, latent, c.qkvBias);
            linear("W_UK", latent, c.dOut, c.qkvBias);
            linear("W_UV", latent, c.dOut, c.qkvBias);
            linear("out_proj", c.dOut, c.dOut, true);
            break;
        }
        case Variant::Rotary: {
            const int64_t hd = c.headSize(), q = c.effectiveHeads() * hd;
            const int64_t kv = c.effectiveKvGroups() * hd;
            linear("W_query", c.dIn, q, false);
            linear("W_key", c.dIn, kv, false);
            linear("W_value", c.dIn, kv, false);
            linear("out_proj", q, c.dIn, false);
            if (c.qkNorm) {  // RMSNorm(head_dim): a scale of ones, no random draws
                out.push_back({"q_norm.scale", {hd}});
                out.push_back({"k_norm.scale", {hd}});
            }
            break;
        }
    }
    return out;
}

int64_t parameterCount(const Config& config) {
    int64_t n = 0;
    for (const auto& [name, shape] : parameterShapes(config))
        n += shapeNumel(shape);
    return n;
}

bool keptAsLowerTriangles(std::string_view stepId) {
    return stepId == step_id::kMaskedScores || stepId == step_id::kWeightsTril ||
           stepId == step_id::kWeightsRenormalized;
}

namespace {

uint64_t traceBytes(const Config& config, int64_t tokens, bool asComputed) {
    // Doubles, so absurd sizes saturate instead of overflowing.
    double bytes = 0.0;
    for (const StepInfo& s : planSteps(config, tokens)) {
        if (!s.viewOf.empty())
            continue;
        double n = 4.0;
        for (int64_t d : s.shape)
            n *= static_cast<double>(d);
        if (asComputed && keptAsLowerTriangles(s.id) && tokens > 0)
            n *= static_cast<double>(tokens + 1) / (2.0 * static_cast<double>(tokens));
        bytes += n;
    }
    for (const auto& [name, shape] : parameterShapes(config)) {
        double n = 4.0;
        for (int64_t d : shape)
            n *= static_cast<double>(d);
        bytes += n;
    }
    return bytes >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(bytes);
}

}  // namespace

uint64_t estimateTraceBytes(const Config& config, int64_t tokens) {
    return traceBytes(config, tokens, false);
}

uint64_t estimateComputedTraceBytes(const Config& config, int64_t tokens) {
    return traceBytes(config, tokens, true);
}

}  // namespace attn

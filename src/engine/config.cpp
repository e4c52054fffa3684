#include "engine/config.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "engine/trace.h"

namespace attn {

namespace {
struct VariantNames {
    Variant variant;
    const char* cli;
    const char* cls;
};
constexpr VariantNames kVariants[] = {
    {Variant::Simplified, "simplified", "simplified self-attention"},
    {Variant::SelfAttentionV1, "self-attention-v1", "SelfAttention_v1"},
    {Variant::SelfAttention, "self-attention", "SelfAttention_v2"},
    {Variant::Causal, "causal", "CausalAttention"},
    {Variant::MultiHeadWrapper, "multi-head-wrapper", "MultiHeadAttentionWrapper"},
    {Variant::MultiHead, "multi-head", "MultiHeadAttention"},
    {Variant::GroupedQuery, "grouped-query", "GroupedQueryAttention"},
    {Variant::Latent, "latent", "MultiHeadLatentAttention"},
    {Variant::Rotary, "rotary", "GroupedQueryAttention (qwen3.py)"},
};

std::string joinInts(const std::vector<int64_t>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) {
        if (i)
            s += ", ";
        s += std::to_string(v[i]);
    }
    return s;
}
}  // namespace

const std::vector<Variant>& allVariants() {
    static const std::vector<Variant> all = {
        Variant::Simplified,   Variant::SelfAttentionV1,  Variant::SelfAttention,
        Variant::Causal,       Variant::MultiHeadWrapper, Variant::MultiHead,
        Variant::GroupedQuery, Variant::Latent,           Variant::Rotary};
    return all;
}

std::string variantName(Variant v) {
    for (const auto& n : kVariants)
        if (n.variant == v)
            return n.cli;
    return "?";
}

std::string variantClassName(Variant v) {
    for (const auto& n : kVariants)
        if (n.variant == v)
            return n.cls;
    return "?";
}

std::optional<Variant> parseVariant(std::string_view s) {
    for (const auto& n : kVariants)
        if (s == n.cli)
            return n.variant;
    return std::nullopt;
}

std::string maskName(const MaskSpec& m) {
    switch (m.kind) {
        case MaskKind::None:
            return "none";
        case MaskKind::Causal:
            return "causal";
        case MaskKind::Window:
            return "window:" + std::to_string(m.window);
    }
    return "?";
}

std::optional<MaskSpec> parseMask(std::string_view s) {
    if (s == "none")
        return MaskSpec{MaskKind::None, 0};
    if (s == "causal")
        return MaskSpec{MaskKind::Causal, 0};
    constexpr std::string_view prefix = "window:";
    if (s.substr(0, prefix.size()) == prefix) {
        const std::string_view num = s.substr(prefix.size());
        int64_t k = 0;
        auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), k);
        if (ec == std::errc() && ptr == num.data() + num.size() && !num.empty())
            return MaskSpec{MaskKind::Window, k};
    }
    return std::nullopt;
}

std::string modeName(Mode m) {
    return m == Mode::Train ? "train" : "eval";
}
std::optional<Mode> parseMode(std::string_view s) {
    if (s == "train")
        return Mode::Train;
    if (s == "eval")
        return Mode::Eval;
    return std::nullopt;
}

std::string dropoutRngName(DropoutRng r) {
    return r == DropoutRng::Default ? "default" : "mkl";
}
std::optional<DropoutRng> parseDropoutRng(std::string_view s) {
    if (s == "default")
        return DropoutRng::Default;
    if (s == "mkl")
        return DropoutRng::Mkl;
    return std::nullopt;
}

MaskSpec defaultMask(Variant v) {
    switch (v) {
        case Variant::Causal:
        case Variant::MultiHeadWrapper:
        case Variant::MultiHead:
        case Variant::GroupedQuery:
        case Variant::Latent:
        case Variant::Rotary:
            return MaskSpec{MaskKind::Causal, 0};
        default:
            return MaskSpec{MaskKind::None, 0};
    }
}

bool variantHasWeights(Variant v) {
    return v != Variant::Simplified;
}
bool variantHasHeads(Variant v) {
    return v == Variant::MultiHead || v == Variant::MultiHeadWrapper || variantIsAfterChapter3(v);
}
bool variantIsAfterChapter3(Variant v) {
    return v == Variant::GroupedQuery || v == Variant::Latent || v == Variant::Rotary;
}
bool variantHasKvGroups(Variant v) {
    return v == Variant::GroupedQuery || v == Variant::Rotary;
}
bool variantHasDOut(Variant v) {
    return v != Variant::Simplified && v != Variant::Rotary;
}

int64_t Config::headSize() const {
    switch (variant) {
        case Variant::MultiHead:
        case Variant::GroupedQuery:
        case Variant::Latent:
            return heads > 0 ? dOut / heads : dOut;
        case Variant::Rotary:
            return headDim > 0 ? headDim : (heads > 0 ? dIn / heads : dIn);
        case Variant::Simplified:
            return dIn;
        default:
            return dOut;
    }
}

int64_t Config::effectiveKvGroups() const {
    return variantHasKvGroups(variant) ? kvGroups : effectiveHeads();
}

int64_t Config::effectiveLatentDim() const {
    return latentDim > 0 ? latentDim : std::max<int64_t>(16, dOut / 8);
}

int64_t Config::queryWidth() const {
    if (variant == Variant::Rotary)
        return effectiveHeads() * headSize();
    return variant == Variant::Simplified ? dIn : dOut;
}

int64_t Config::outputWidth() const {
    if (variant == Variant::MultiHeadWrapper)
        return heads * dOut;
    return variant == Variant::Rotary ? dIn : queryWidth();
}

int64_t Config::effectiveHeads() const {
    return variantHasHeads(variant) ? heads : 1;
}

std::vector<int64_t> validHeadCounts(int64_t dOut) {
    // Divisors in pairs (h, dOut / h) up to sqrt(dOut): fast for any dOut.
    std::vector<int64_t> small, large;
    for (int64_t h = 1; h <= dOut / h; ++h)
        if (dOut % h == 0) {
            small.push_back(h);
            if (h != dOut / h)
                large.push_back(dOut / h);
        }
    small.insert(small.end(), large.rbegin(), large.rend());
    return small;
}

uint64_t kvCacheBytesPerToken(const Config& c) {
    constexpr uint64_t f = sizeof(float);
    switch (c.variant) {
        case Variant::Simplified:
            return uint64_t(c.dIn) * f;
        case Variant::MultiHeadWrapper:
            return 2 * uint64_t(c.heads) * uint64_t(c.dOut) * f;
        case Variant::Latent:
            return uint64_t(c.effectiveLatentDim()) * f;
        case Variant::GroupedQuery:
        case Variant::Rotary:
            return 2 * uint64_t(c.effectiveKvGroups()) * uint64_t(c.headSize()) * f;
        default:
            return 2 * uint64_t(c.dOut) * f;
    }
}

uint64_t multiHeadKvCacheBytesPerToken(const Config& c) {
    return 2 * uint64_t(c.effectiveHeads()) * uint64_t(c.headSize()) * sizeof(float);
}

std::vector<int64_t> validKvGroupCounts(int64_t heads) {
    return validHeadCounts(heads);  // the divisors of the heads
}

std::string formatBytes(uint64_t bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        ++u;
    }
    char buf[64];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    return buf;
}

namespace {

// The size whose value makes a trace too large for its memory budget, so the message can sit at
// that setting's control and say what would fit: of d_in, d_out, the heads, the batch and the
// tokens, the one whose halving saves the most bytes, and its largest value that fits with the
// others as they are (0 when even 1 does not).
struct MemoryCulprit {
    const char* field;
    std::string what;
    int64_t value = 0;
    std::string fitsText;  // "A d_out of at most 5461 fits.", empty when even 1 does not
};

MemoryCulprit memoryCulprit(const Config& c, int64_t tokens) {
    struct Size {
        const char* field;
        const char* what;
        const char* before;  // the sentence around the largest value that fits
        const char* after;
        int64_t Config::*member;  // null: the tokens
    };
    std::vector<Size> sizes = {
        {"d_out", "d_out", "A d_out of at most ", " fits.", &Config::dOut},
        {"d_in", "d_in", "A d_in of at most ", " fits.", &Config::dIn},
        {"batch", "the batch", "A batch of at most ", " fits.", &Config::batch},
        {"input", "the text's tokens", "A text of at most ", " tokens fits.", nullptr}};
    if (!variantHasDOut(c.variant))
        sizes.erase(sizes.begin());  // no d_out: simplified's size is d_in's, rotary's heads'
    if (variantHasHeads(c.variant))
        sizes.push_back({"heads", "the heads", "At most ", " heads fit.", &Config::heads});
    if (c.variant == Variant::Rotary && c.headDim > 0)
        sizes.push_back(
            {"head_dim", "head_dim", "A head_dim of at most ", " fits.", &Config::headDim});
    const auto valueOf = [&](const Size& size) { return size.member ? c.*size.member : tokens; };
    const auto bytesWith = [&](const Size& size, int64_t v) {
        Config k = c;
        int64_t t = tokens;
        if (size.member)
            k.*size.member = v;
        else
            t = v;
        return estimateTraceBytes(k, t);
    };
    const Size* worst = &sizes.front();
    uint64_t bestSaving = 0;
    for (const Size& size : sizes) {
        const int64_t v = valueOf(size);
        const uint64_t full = bytesWith(size, v);
        const uint64_t half = bytesWith(size, std::max<int64_t>(1, v / 2));
        const uint64_t saving = full - std::min(full, half);
        if (saving > bestSaving) {
            bestSaving = saving;
            worst = &size;
        }
    }
    MemoryCulprit m{worst->field, worst->what, valueOf(*worst), {}};
    // The bytes grow with every size: the largest value that fits, by bisection.
    int64_t lo = 0, hi = m.value;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (bytesWith(*worst, mid) <= c.memoryBudgetBytes)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (lo >= 1)
        m.fitsText = worst->before + std::to_string(lo) + worst->after;
    return m;
}

}  // namespace

// The options of the variants after chapter 3 (section 9.1); `add` records an issue. False when
// a size is unusable, so that nothing is estimated from it.
template <typename Add>
bool validateAfterChapter3(const Config& c, Add add) {
    bool ok = true;
    const bool headsOk = c.heads >= 1 && c.heads <= kMaxDimension;
    if (variantHasKvGroups(c.variant)) {
        if (c.kvGroups < 1 || c.kvGroups > kMaxDimension) {
            add("kv_groups", "The number of key/value groups must be from 1 to " +
                                 std::to_string(kMaxDimension) + " (it is " +
                                 std::to_string(c.kvGroups) + ").");
            ok = false;
        } else if (headsOk && c.heads % c.kvGroups != 0) {
            add("kv_groups",
                std::to_string(c.heads) + (c.heads == 1 ? " head" : " heads") + " cannot share " +
                    std::to_string(c.kvGroups) +
                    " key/value groups equally: each group serves heads / groups query heads. "
                    "Valid group counts for " +
                    std::to_string(c.heads) + (c.heads == 1 ? " head: " : " heads: ") +
                    joinInts(validKvGroupCounts(c.heads)) + ".");
            ok = false;
        }
    }
    if (c.variant == Variant::Latent && (c.latentDim < 0 || c.latentDim > kMaxDimension)) {
        add("latent_dim", "The latent size must be from 1 to " + std::to_string(kMaxDimension) +
                              ", or 0 for the book's default max(16, d_out / 8) (it is " +
                              std::to_string(c.latentDim) + ").");
        ok = false;
    }
    if (c.variant != Variant::Rotary)
        return ok;
    if (c.headDim < 0 || c.headDim > kMaxDimension) {
        add("head_dim", "head_dim must be from 1 to " + std::to_string(kMaxDimension) +
                            ", or 0 for d_in / heads (it is " + std::to_string(c.headDim) + ").");
        ok = false;
    } else if (c.headDim == 0 && headsOk && c.dIn >= 1 && c.dIn <= kMaxDimension &&
               c.dIn % c.heads != 0) {
        // Only head counts whose d_in / heads is a head size that works (even, with RoPE).
        std::vector<int64_t> heads;
        for (int64_t h : validHeadCounts(c.dIn))
            if (!c.rope || (c.dIn / h) % 2 == 0)
                heads.push_back(h);
        add("head_dim", "d_in = " + std::to_string(c.dIn) + " is not divisible by " +
                            std::to_string(c.heads) + (c.heads == 1 ? " head" : " heads") +
                            ", so head_dim cannot default to d_in / heads: set head_dim" +
                            (c.rope ? " (an even number, such as 2 or 4)" : "") +
                            (heads.empty() ? "."
                                           : ", or pick heads from " + joinInts(heads) + "."));
        ok = false;
    } else if (c.rope && headsOk && c.headSize() % 2 != 0) {
        add("head_dim",
            "RoPE rotates pairs of numbers, so the head size must be even; it is " +
                std::to_string(c.headSize()) + (c.headDim == 0 ? " (d_in / heads)" : "") +
                ". Set head_dim to " + std::to_string(c.headSize() - 1 > 0 ? c.headSize() - 1 : 2) +
                (c.headSize() - 1 > 0 ? " or " + std::to_string(c.headSize() + 1) : std::string()) +
                ", or switch the rotation off.");
        ok = false;
    }
    if (!(c.ropeBase > 0.0) || !std::isfinite(c.ropeBase))
        add("rope_base",
            "The RoPE base must be a positive number, such as 10000 (Llama 2) or "
            "1000000 (Qwen3).");
    if (c.qkvBias)
        add("qkv_bias",
            "Qwen3's GroupedQueryAttention (rotary) has no biases: switch the query, "
            "key and value bias off.");
    return ok;
}

std::vector<ValidationIssue> validate(const Config& c, int64_t tokens) {
    std::vector<ValidationIssue> issues;
    auto add = [&](const char* field, std::string msg) {
        issues.push_back({field, std::move(msg)});
    };

    // Sizes are checked against a generous cap first, so that products below cannot overflow.
    constexpr int64_t kMaxSize = kMaxDimension;
    auto checkSize = [&](const char* field, const char* what, int64_t v) {
        if (v < 1) {
            add(field,
                std::string(what) + " must be at least 1 (it is " + std::to_string(v) + ").");
            return false;
        }
        if (v > kMaxSize) {
            add(field, std::string(what) + " = " + std::to_string(v) +
                           " is too large; the limit is " + std::to_string(kMaxSize) + ".");
            return false;
        }
        return true;
    };
    bool sizesOk = checkSize("d_in", "d_in (the embedding size)", c.dIn);
    if (variantHasDOut(c.variant))
        sizesOk &= checkSize("d_out", "d_out (the output size)", c.dOut);
    sizesOk &= checkSize("batch", "The batch size", c.batch);
    sizesOk &= checkSize("context_length", "The context length", c.contextLength);
    if (variantHasHeads(c.variant)) {
        // Valid head counts are only listed for a d_out that passed its own check above.
        const bool splitsDOut = c.variant == Variant::MultiHead ||
                                c.variant == Variant::GroupedQuery || c.variant == Variant::Latent;
        if (checkSize("heads", "The number of heads", c.heads) && splitsDOut && c.dOut >= 1 &&
            c.dOut <= kMaxSize && c.dOut % c.heads != 0) {
            sizesOk = false;
            add("heads",
                "d_out = " + std::to_string(c.dOut) + " is not divisible by " +
                    std::to_string(c.heads) + (c.heads == 1 ? " head" : " heads") +
                    ", so the heads cannot share it equally. Valid head counts for d_out = " +
                    std::to_string(c.dOut) + ": " + joinInts(validHeadCounts(c.dOut)) + ".");
        }
        if (c.heads < 1)
            sizesOk = false;
    }
    if (variantIsAfterChapter3(c.variant))
        sizesOk &= validateAfterChapter3(c, add);

    const MaskSpec mask = c.effectiveMask();
    if (mask.kind == MaskKind::Window && mask.window < 1)
        add("mask",
            "The window size K must be at least 1 (each token sees itself and the K-1 "
            "tokens before it); it is " +
                std::to_string(mask.window) + ".");

    if (!(c.dropout >= 0.0 && c.dropout < 1.0))
        add(
            "dropout", "The dropout rate must be at least 0 and below 1 (it is " + [&] {
                char b[32];
                std::snprintf(b, sizeof b, "%g", c.dropout);
                return std::string(b);
            }() + "); at 1 every attention weight would be dropped.");

    if (tokens < 1)
        add("input", "There are no tokens: type some text or pick a preset.");
    else if (c.contextLength >= 1 && tokens > c.contextLength)
        add("input", "The input has " + std::to_string(tokens) +
                         " tokens, more than the context length of " +
                         std::to_string(c.contextLength) +
                         ". Shorten the text or raise the context length.");

    if (sizesOk && tokens >= 1 && tokens <= kMaxSize) {
        const uint64_t bytes = estimateTraceBytes(c, tokens);
        if (bytes > c.memoryBudgetBytes) {
            const MemoryCulprit m = memoryCulprit(c, tokens);
            std::string msg = "This configuration needs about " + formatBytes(bytes) +
                              " to keep every step, more than the budget of " +
                              formatBytes(c.memoryBudgetBytes) + "; " + m.what + " = " +
                              std::to_string(m.value) + " takes the most.";
            if (!m.fitsText.empty())
                msg += " " + m.fitsText;
            add(m.field, msg);
        }
    }
    return issues;
}

}  // namespace attn

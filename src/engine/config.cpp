#include "engine/config.h"

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
    static const std::vector<Variant> all = {Variant::Simplified,       Variant::SelfAttentionV1,
                                             Variant::SelfAttention,    Variant::Causal,
                                             Variant::MultiHeadWrapper, Variant::MultiHead};
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
            return MaskSpec{MaskKind::Causal, 0};
        default:
            return MaskSpec{MaskKind::None, 0};
    }
}

bool variantHasWeights(Variant v) {
    return v != Variant::Simplified;
}
bool variantHasHeads(Variant v) {
    return v == Variant::MultiHead || v == Variant::MultiHeadWrapper;
}

int64_t Config::headSize() const {
    if (variant == Variant::MultiHead && heads > 0)
        return dOut / heads;
    return variant == Variant::Simplified ? dIn : dOut;
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
    if (c.variant == Variant::Simplified)
        sizes.erase(sizes.begin());  // no d_out: its size is d_in's
    if (variantHasHeads(c.variant))
        sizes.push_back({"heads", "the heads", "At most ", " heads fit.", &Config::heads});
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
    if (c.variant != Variant::Simplified)
        sizesOk &= checkSize("d_out", "d_out (the output size)", c.dOut);
    sizesOk &= checkSize("batch", "The batch size", c.batch);
    sizesOk &= checkSize("context_length", "The context length", c.contextLength);
    if (variantHasHeads(c.variant)) {
        // Valid head counts are only listed for a d_out that passed its own check above.
        if (checkSize("heads", "The number of heads", c.heads) && c.variant == Variant::MultiHead &&
            c.dOut >= 1 && c.dOut <= kMaxSize && c.dOut % c.heads != 0) {
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

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

std::string formatMessage(const std::vector<MessagePart>& parts) {
    std::string out;
    for (const MessagePart& part : parts) {
        const std::string& f = part.format;
        for (size_t i = 0; i < f.size(); ++i) {
            // %1 .. %9: the argument; anything else is text.
            if (f[i] == '%' && i + 1 < f.size() && f[i + 1] >= '1' && f[i + 1] <= '9' &&
                size_t(f[i + 1] - '1') < part.args.size()) {
                out += part.args[size_t(f[i + 1] - '1')];
                ++i;
            } else {
                out += f[i];
            }
        }
    }
    return out;
}

namespace {

std::string num(int64_t v) {
    return std::to_string(v);
}

// The size whose value makes a trace too large for its memory budget, so the message can sit at
// that setting's control and say what would fit: of d_in, d_out, the heads, the batch and the
// tokens, the one whose halving saves the most bytes, and its largest value that fits with the
// others as they are (0 when even 1 does not).
struct MemoryCulprit {
    const char* field;
    const char* most;  // "d_out = %1 takes the most."
    const char* fits;  // " A d_out of at most %1 fits."
    int64_t value = 0;
    int64_t fitting = 0;
};

MemoryCulprit memoryCulprit(const Config& c, int64_t tokens) {
    struct Size {
        const char* field;
        const char* most;
        const char* fits;
        int64_t Config::*member;  // null: the tokens
    };
    std::vector<Size> sizes = {
        {"d_out", "d_out = %1 takes the most.", " A d_out of at most %1 fits.", &Config::dOut},
        {"d_in", "d_in = %1 takes the most.", " A d_in of at most %1 fits.", &Config::dIn},
        {"batch", "the batch = %1 takes the most.", " A batch of at most %1 fits.", &Config::batch},
        {"input", "the text's tokens = %1 takes the most.", " A text of at most %1 tokens fits.",
         nullptr}};
    if (!variantHasDOut(c.variant))
        sizes.erase(sizes.begin());  // no d_out: simplified's size is d_in's, rotary's heads'
    if (variantHasHeads(c.variant))
        sizes.push_back(
            {"heads", "the heads = %1 takes the most.", " At most %1 heads fit.", &Config::heads});
    if (c.variant == Variant::Rotary && c.headDim > 0)
        sizes.push_back({"head_dim", "head_dim = %1 takes the most.",
                         " A head_dim of at most %1 fits.", &Config::headDim});
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
    MemoryCulprit m{worst->field, worst->most, worst->fits, valueOf(*worst), 0};
    // The bytes grow with every size: the largest value that fits, by bisection.
    int64_t lo = 0, hi = m.value;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (bytesWith(*worst, mid) <= c.memoryBudgetBytes)
            lo = mid;
        else
            hi = mid - 1;
    }
    m.fitting = lo;
    return m;
}

// Collects the issues of one configuration; every message is made of parts (see MessagePart),
// one format per wording, so a translation has a whole sentence or clause to translate.
struct Issues {
    std::vector<ValidationIssue> list;
    void add(const char* field, std::vector<MessagePart> parts) {
        std::string message = formatMessage(parts);
        list.push_back({field, std::move(message), std::move(parts)});
    }
    void add(const char* field, const char* format, std::vector<std::string> args = {}) {
        add(field, std::vector<MessagePart>{{format, std::move(args)}});
    }
};

// A size's two messages: below 1 and beyond kMaxDimension.
struct SizeCheck {
    const char* field;
    const char* belowOne;  // "... must be at least 1 (it is %1)."
    const char* tooLarge;  // "... = %1 is too large; the limit is %2."
};

bool checkSize(Issues& issues, const SizeCheck& size, int64_t v) {
    if (v < 1) {
        issues.add(size.field, size.belowOne, {num(v)});
        return false;
    }
    if (v > kMaxDimension) {
        issues.add(size.field, size.tooLarge, {num(v), num(kMaxDimension)});
        return false;
    }
    return true;
}

// The options of the variants after chapter 3 (section 9.1). False when a size is unusable, so
// that nothing is estimated from it.
bool validateAfterChapter3(const Config& c, Issues& issues) {
    bool ok = true;
    const bool headsOk = c.heads >= 1 && c.heads <= kMaxDimension;
    if (variantHasKvGroups(c.variant)) {
        if (c.kvGroups < 1 || c.kvGroups > kMaxDimension) {
            issues.add("kv_groups",
                       "The number of key/value groups must be from 1 to %1 (it is %2).",
                       {num(kMaxDimension), num(c.kvGroups)});
            ok = false;
        } else if (headsOk && c.heads % c.kvGroups != 0) {
            issues.add("kv_groups",
                       c.heads == 1
                           ? "1 head cannot share %2 key/value groups equally: each group serves "
                             "heads / groups query heads. Valid group counts for 1 head: %3."
                           : "%1 heads cannot share %2 key/value groups equally: each group "
                             "serves heads / groups query heads. Valid group counts for %1 "
                             "heads: %3.",
                       {num(c.heads), num(c.kvGroups), joinInts(validKvGroupCounts(c.heads))});
            ok = false;
        }
    }
    if (c.variant == Variant::Latent && (c.latentDim < 0 || c.latentDim > kMaxDimension)) {
        issues.add("latent_dim",
                   "The latent size must be from 1 to %1, or 0 for the book's default max(16, "
                   "d_out / 8) (it is %2).",
                   {num(kMaxDimension), num(c.latentDim)});
        ok = false;
    }
    if (c.variant != Variant::Rotary)
        return ok;
    if (c.headDim < 0 || c.headDim > kMaxDimension) {
        issues.add("head_dim", "head_dim must be from 1 to %1, or 0 for d_in / heads (it is %2).",
                   {num(kMaxDimension), num(c.headDim)});
        ok = false;
    } else if (c.headDim == 0 && headsOk && c.dIn >= 1 && c.dIn <= kMaxDimension &&
               c.dIn % c.heads != 0) {
        // Only head counts whose d_in / heads is a head size that works (even, with RoPE).
        // One head divides every d_in, so the heads are always several here.
        std::vector<int64_t> heads;
        for (int64_t h : validHeadCounts(c.dIn))
            if (!c.rope || (c.dIn / h) % 2 == 0)
                heads.push_back(h);
        std::vector<MessagePart> parts = {
            {"d_in = %1 is not divisible by %2 heads, so head_dim cannot default to d_in / "
             "heads: set head_dim",
             {num(c.dIn), num(c.heads)}}};
        if (c.rope)
            parts.push_back({" (an even number, such as 2 or 4)", {}});
        if (heads.empty())
            parts.push_back({".", {}});
        else
            parts.push_back({", or pick heads from %1.", {joinInts(heads)}});
        issues.add("head_dim", std::move(parts));
        ok = false;
    } else if (c.rope && headsOk && c.headSize() % 2 != 0) {
        const int64_t hs = c.headSize();
        std::vector<MessagePart> parts = {
            {"RoPE rotates pairs of numbers, so the head size must be even; it is %1", {num(hs)}}};
        if (c.headDim == 0)
            parts.push_back({" (d_in / heads)", {}});
        parts.push_back({". Set head_dim to %1", {num(hs - 1 > 0 ? hs - 1 : 2)}});
        if (hs - 1 > 0)
            parts.push_back({" or %1", {num(hs + 1)}});
        parts.push_back({", or switch the rotation off.", {}});
        issues.add("head_dim", std::move(parts));
        ok = false;
    }
    if (!(c.ropeBase > 0.0) || !std::isfinite(c.ropeBase))
        issues.add("rope_base",
                   "The RoPE base must be a positive number, such as 10000 (Llama 2) or 1000000 "
                   "(Qwen3).");
    if (c.qkvBias)
        issues.add("qkv_bias",
                   "Qwen3's GroupedQueryAttention (rotary) has no biases: switch the query, key "
                   "and value bias off.");
    return ok;
}

}  // namespace

std::vector<ValidationIssue> validate(const Config& c, int64_t tokens) {
    Issues issues;
    // Sizes are checked against a generous cap first, so that products below cannot overflow.
    bool sizesOk = checkSize(issues,
                             {"d_in", "d_in (the embedding size) must be at least 1 (it is %1).",
                              "d_in (the embedding size) = %1 is too large; the limit is %2."},
                             c.dIn);
    if (variantHasDOut(c.variant))
        sizesOk &= checkSize(issues,
                             {"d_out", "d_out (the output size) must be at least 1 (it is %1).",
                              "d_out (the output size) = %1 is too large; the limit is %2."},
                             c.dOut);
    sizesOk &= checkSize(issues,
                         {"batch", "The batch size must be at least 1 (it is %1).",
                          "The batch size = %1 is too large; the limit is %2."},
                         c.batch);
    sizesOk &= checkSize(issues,
                         {"context_length", "The context length must be at least 1 (it is %1).",
                          "The context length = %1 is too large; the limit is %2."},
                         c.contextLength);
    if (variantHasHeads(c.variant)) {
        // Valid head counts are only listed for a d_out that passed its own check above. One
        // head divides every d_out, so the heads are always several here.
        const bool splitsDOut = c.variant == Variant::MultiHead ||
                                c.variant == Variant::GroupedQuery || c.variant == Variant::Latent;
        if (checkSize(issues,
                      {"heads", "The number of heads must be at least 1 (it is %1).",
                       "The number of heads = %1 is too large; the limit is %2."},
                      c.heads) &&
            splitsDOut && c.dOut >= 1 && c.dOut <= kMaxDimension && c.dOut % c.heads != 0) {
            sizesOk = false;
            issues.add("heads",
                       "d_out = %1 is not divisible by %2 heads, so the heads cannot share it "
                       "equally. Valid head counts for d_out = %1: %3.",
                       {num(c.dOut), num(c.heads), joinInts(validHeadCounts(c.dOut))});
        }
        if (c.heads < 1)
            sizesOk = false;
    }
    if (variantIsAfterChapter3(c.variant))
        sizesOk &= validateAfterChapter3(c, issues);

    const MaskSpec mask = c.effectiveMask();
    if (mask.kind == MaskKind::Window && mask.window < 1)
        issues.add("mask",
                   "The window size K must be at least 1 (each token sees itself and the K-1 "
                   "tokens before it); it is %1.",
                   {num(mask.window)});

    if (!(c.dropout >= 0.0 && c.dropout < 1.0)) {
        char b[32];
        std::snprintf(b, sizeof b, "%g", c.dropout);
        issues.add("dropout",
                   "The dropout rate must be at least 0 and below 1 (it is %1); at 1 every "
                   "attention weight would be dropped.",
                   {b});
    }

    // Too many tokens is the context length's problem as much as the text's: the message sits
    // at the context length's control, where raising it fixes it (the text box says how many
    // tokens there are).
    if (tokens < 1)
        issues.add("input", "There are no tokens: type some text or pick a preset.");
    else if (c.contextLength >= 1 && tokens > c.contextLength)
        issues.add("context_length",
                   "The input has %1 tokens, more than the context length of %2. Shorten the "
                   "text or raise the context length.",
                   {num(tokens), num(c.contextLength)});

    if (sizesOk && tokens >= 1 && tokens <= kMaxDimension) {
        const uint64_t bytes = estimateTraceBytes(c, tokens);
        if (bytes > c.memoryBudgetBytes) {
            const MemoryCulprit m = memoryCulprit(c, tokens);
            std::vector<MessagePart> parts = {
                {"This configuration needs about %1 to keep every step, more than the budget of "
                 "%2; ",
                 {formatBytes(bytes), formatBytes(c.memoryBudgetBytes)}},
                {m.most, {num(m.value)}}};
            if (m.fitting >= 1)
                parts.push_back({m.fits, {num(m.fitting)}});
            issues.add(m.field, std::move(parts));
        }
    }
    return std::move(issues.list);
}

}  // namespace attn

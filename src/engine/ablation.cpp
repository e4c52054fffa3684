#include "engine/ablation.h"

#include <algorithm>
#include <charconv>

namespace attn {

std::string ablationModeName(AblationMode mode) {
    return mode == AblationMode::Mean ? "mean" : "zero";
}

std::optional<AblationMode> parseAblationMode(std::string_view name) {
    if (name == "zero")
        return AblationMode::Zero;
    if (name == "mean")
        return AblationMode::Mean;
    return std::nullopt;
}

bool HeadAblation::contains(int64_t layer, int64_t head) const {
    return std::binary_search(heads.begin(), heads.end(), HeadRef{layer, head});
}

namespace {

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::optional<int64_t> wholeNumber(std::string_view s) {
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || v < 0)
        return std::nullopt;
    return v;
}

}  // namespace

std::optional<std::vector<HeadRef>> parseHeadList(std::string_view text) {
    std::vector<HeadRef> heads;
    text = trimmed(text);
    while (!text.empty()) {
        const size_t comma = text.find(',');
        const std::string_view item = trimmed(text.substr(0, comma));
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        const size_t dot = item.find('.');
        if (dot == std::string_view::npos)
            return std::nullopt;
        const auto layer = wholeNumber(item.substr(0, dot));
        const auto head = wholeNumber(item.substr(dot + 1));
        if (!layer || !head)
            return std::nullopt;
        heads.push_back({*layer, *head});
        if (comma != std::string_view::npos && trimmed(text).empty())
            return std::nullopt;  // a trailing comma
    }
    std::sort(heads.begin(), heads.end());
    heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
    return heads;
}

std::string headListText(const std::vector<HeadRef>& heads) {
    std::string s;
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on
    // const char* + std::string&& here.
    for (const HeadRef& r : heads) {
        if (!s.empty())
            s += ',';
        s += std::to_string(r.layer);
        s += '.';
        s += std::to_string(r.head);
    }
    return s;
}

}  // namespace attn

#pragma once
// Heads switched off (DESIGN.md, Asking a model why: ablation), as a value the settings, the
// request path and the decoder forward share. Light on purpose: the settings header includes it.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// Heads switched off (DESIGN.md, Asking a model why: ablation): what a head's context contributes
// to the block is replaced before the output projection, so every later layer, the next-token
// probabilities and the text's loss show what the model does without it. The head's own attention
// weights are still computed and shown: ablation removes what a head writes, not where it looks.
enum class AblationMode {
    Zero,  // the head's context is 0 at every position
    Mean   // the head's context is its mean over the text's positions at every position
};
std::string ablationModeName(AblationMode mode);  // "zero" | "mean"
std::optional<AblationMode> parseAblationMode(std::string_view name);

struct HeadRef {
    int64_t layer = 0;
    int64_t head = 0;
    friend auto operator<=>(const HeadRef&, const HeadRef&) = default;
};

struct HeadAblation {
    std::vector<HeadRef> heads;  // sorted, each once
    AblationMode mode = AblationMode::Zero;
    bool empty() const { return heads.empty(); }
    bool contains(int64_t layer, int64_t head) const;
    friend bool operator==(const HeadAblation&, const HeadAblation&) = default;
};

// "0.1,2.3" (layer.head, comma-separated, spaces allowed) as sorted unique heads; nullopt for
// text that is not such a list. The empty text is no heads.
std::optional<std::vector<HeadRef>> parseHeadList(std::string_view text);
std::string headListText(const std::vector<HeadRef>& heads);  // "0.1,2.3"

}  // namespace attn

#pragma once
// Internal: the published colour tables behind attn::Colormap (see colormap_tables.cpp).

namespace attn::detail {

extern const float kViridis[256][3];
extern const float kMagma[256][3];
extern const float kCividis[256][3];
extern const unsigned int kRdBuReversed[11];  // 0xRRGGBB

}  // namespace attn::detail

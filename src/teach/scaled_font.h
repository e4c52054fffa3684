#pragma once
// Fonts of the teaching widgets at a presentation scale.

#include <QFont>

#include <algorithm>
#include <cmath>

namespace attn {

// `base` times `scale`, whether the font is sized in points or (on some platforms) in pixels.
inline QFont scaledFont(const QFont& base, double scale) {
    QFont f = base;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * scale);
    else
        f.setPixelSize(std::max(1, int(std::lround(f.pixelSize() * scale))));
    return f;
}

}  // namespace attn

#include "pipeline/colors.h"

namespace attn {

std::string colorScaleName(ColorScale s) {
    switch (s) {
        case ColorScale::Matrix:
            return "matrix";
        case ColorScale::Row:
            return "row";
        case ColorScale::Log:
            return "log";
    }
    return "matrix";
}

std::optional<ColorScale> parseColorScale(std::string_view s) {
    if (s == "matrix")
        return ColorScale::Matrix;
    if (s == "row")
        return ColorScale::Row;
    if (s == "log")
        return ColorScale::Log;
    return std::nullopt;
}

std::string colormapName(Colormap c) {
    switch (c) {
        case Colormap::Viridis:
            return "viridis";
        case Colormap::Magma:
            return "magma";
        case Colormap::Cividis:
            return "cividis";
        case Colormap::Diverging:
            return "diverging";
    }
    return "viridis";
}

std::optional<Colormap> parseColormap(std::string_view s) {
    for (Colormap c : {Colormap::Viridis, Colormap::Magma, Colormap::Cividis, Colormap::Diverging})
        if (s == colormapName(c))
            return c;
    return std::nullopt;
}

}  // namespace attn

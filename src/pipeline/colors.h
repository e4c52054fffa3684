#pragma once
// How a heatmap is coloured, as the settings, the CLI options and the figures name it.

#include <optional>
#include <string>
#include <string_view>

namespace attn {

// The colour maps of the heatmaps.
enum class Colormap { Viridis, Magma, Cividis, Diverging };
std::string colormapName(Colormap c);  // "viridis", "magma", "cividis", "diverging"
std::optional<Colormap> parseColormap(std::string_view s);

// How a heatmap maps values to colours.
enum class ColorScale {
    Matrix,  // one scale for the whole matrix (weights always 0..1)
    Row,     // each row spans its own min..max: long rows of small weights still show contrast
    Log      // log10 of the value: weights of 1e-4 and 0.5 both readable
};
std::string colorScaleName(ColorScale s);  // "matrix", "row", "log"
std::optional<ColorScale> parseColorScale(std::string_view s);

}  // namespace attn

#pragma once
// Number and string formatting shared by the JSON and CSV writers.

#include <string>
#include <string_view>

namespace attn::io {

// Shortest text that reads back as exactly the same float32 (std::to_chars), e.g. "0.1", "1e-05",
// "-0". Non-finite values come out as "inf", "-inf" and "nan".
void appendFloat(std::string& out, float value);
void appendDouble(std::string& out, double value);
std::string formatFloat(float value);

enum class FloatParse { Ok, Invalid, TooLarge };
// Reads all of `text` (std::from_chars syntax: "1.5", "-2e-3", "inf", "nan") as the nearest
// float32. Values too small for float32 round to a subnormal or zero like any conversion;
// values beyond +-3.4028235e+38 give TooLarge.
FloatParse parseFloat32(std::string_view text, float& value);

// A JSON string literal with quotes. Bytes that are not valid UTF-8 become U+FFFD so the output
// is always valid JSON.
void appendJsonString(std::string& out, std::string_view text);

}  // namespace attn::io

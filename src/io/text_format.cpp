#include "io/text_format.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace attn::io {

void appendFloat(std::string& out, float value) {
    char buf[32];
    auto result = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, result.ptr);
}

void appendDouble(std::string& out, double value) {
    char buf[32];
    auto result = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, result.ptr);
}

std::string formatFloat(float value) {
    std::string s;
    appendFloat(s, value);
    return s;
}

FloatParse parseFloat32(std::string_view text, float& value) {
    const char* end = text.data() + text.size();
    auto r = std::from_chars(text.data(), end, value);
    if (r.ptr != end)
        return FloatParse::Invalid;
    if (r.ec == std::errc())
        return FloatParse::Ok;
    if (r.ec != std::errc::result_out_of_range)
        return FloatParse::Invalid;
    // Out of range: strtod tells overflow (+-HUGE_VAL) from underflow (a tiny double or 0).
    const std::string copy(text);
    const double d = std::strtod(copy.c_str(), nullptr);
    if (!(std::fabs(d) <= std::numeric_limits<float>::max()))
        return FloatParse::TooLarge;
    value = static_cast<float>(d);
    return FloatParse::Ok;
}

namespace {

// Length of the valid UTF-8 sequence starting at s[i], 0 if it is not valid.
size_t utf8SequenceLength(std::string_view s, size_t i) {
    auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = byte(i);
    size_t n;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (i + n > s.size())
        return 0;
    for (size_t k = 1; k < n; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    // Reject overlong forms, surrogates and values past U+10FFFF.
    if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000))
        return 0;
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

}  // namespace

void appendJsonString(std::string& out, std::string_view text) {
    static const char* hex = "0123456789abcdef";
    out.push_back('"');
    for (size_t i = 0; i < text.size();) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            size_t n = utf8SequenceLength(text, i);
            if (n == 0) {
                out.append("\xEF\xBF\xBD");  // U+FFFD REPLACEMENT CHARACTER
                ++i;
            } else {
                out.append(text.substr(i, n));
                i += n;
            }
            continue;
        }
        switch (c) {
            case '"':
                out.append("\\\"");
                break;
            case '\\':
                out.append("\\\\");
                break;
            case '\n':
                out.append("\\n");
                break;
            case '\r':
                out.append("\\r");
                break;
            case '\t':
                out.append("\\t");
                break;
            case '\b':
                out.append("\\b");
                break;
            case '\f':
                out.append("\\f");
                break;
            default:
                if (c < 0x20) {
                    out.append("\\u00");
                    out.push_back(hex[c >> 4]);
                    out.push_back(hex[c & 0xF]);
                } else {
                    out.push_back(static_cast<char>(c));
                }
        }
        ++i;
    }
    out.push_back('"');
}

}  // namespace attn::io

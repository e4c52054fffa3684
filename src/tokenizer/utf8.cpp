#include "tokenizer/utf8.h"

#include <QChar>

namespace attn::utf8 {

namespace {

bool isCont(unsigned char b) {
    return (b & 0xC0) == 0x80;
}

// Allowed range of the second byte for a lead byte (Unicode Table 3-7), and the sequence
// length; length 0 for a byte that cannot start a sequence.
struct Lead {
    int length;
    unsigned char lo;
    unsigned char hi;
};

Lead leadOf(unsigned char b) {
    if (b >= 0xC2 && b <= 0xDF)
        return {2, 0x80, 0xBF};
    if (b == 0xE0)
        return {3, 0xA0, 0xBF};
    if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF)
        return {3, 0x80, 0xBF};
    if (b == 0xED)
        return {3, 0x80, 0x9F};  // A0..BF would encode a surrogate
    if (b == 0xF0)
        return {4, 0x90, 0xBF};
    if (b >= 0xF1 && b <= 0xF3)
        return {4, 0x80, 0xBF};
    if (b == 0xF4)
        return {4, 0x80, 0x8F};
    return {0, 0, 0};
}

// The surrogate code unit encoded at s[i..i+3) (ED A0..BF 80..BF), or 0 when there is none.
char32_t encodedSurrogateAt(std::string_view s, size_t i) {
    if (i + 2 >= s.size())
        return 0;
    const auto b0 = static_cast<unsigned char>(s[i]);
    const auto b1 = static_cast<unsigned char>(s[i + 1]);
    const auto b2 = static_cast<unsigned char>(s[i + 2]);
    if (b0 != 0xED || b1 < 0xA0 || b1 > 0xBF || !isCont(b2))
        return 0;
    return 0xD000 | (char32_t(b1 & 0x3F) << 6) | char32_t(b2 & 0x3F);
}

// Length of the well-formed sequence at s[i], or, when it is ill-formed, minus the length of
// its maximal subpart (at least 1).
int wellFormedLength(std::string_view s, size_t i) {
    const Lead lead = leadOf(static_cast<unsigned char>(s[i]));
    if (lead.length == 0)
        return -1;
    if (i + 1 >= s.size())
        return -1;
    const auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b1 < lead.lo || b1 > lead.hi)
        return -1;
    for (int k = 2; k < lead.length; ++k) {
        if (i + k >= s.size() || !isCont(static_cast<unsigned char>(s[i + k])))
            return -k;
    }
    return lead.length;
}

}  // namespace

void append(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::string sanitize(std::string_view in) {
    std::string out;
    out.reserve(in.size());
    size_t i = 0;
    while (i < in.size()) {
        const auto b = static_cast<unsigned char>(in[i]);
        if (b < 0x80) {
            out += static_cast<char>(b);
            ++i;
            continue;
        }
        const int len = wellFormedLength(in, i);
        if (len > 0) {
            out.append(in.substr(i, len));
            i += len;
            continue;
        }
        if (const char32_t hi = encodedSurrogateAt(in, i)) {
            const char32_t lo = encodedSurrogateAt(in, i + 3);
            if (hi <= 0xDBFF && lo >= 0xDC00) {
                append(out, 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
                i += 6;
            } else {
                append(out, kReplacement);
                i += 3;
            }
            continue;
        }
        append(out, kReplacement);
        i += static_cast<size_t>(-len);
    }
    return out;
}

bool isValid(std::string_view s) {
    return firstInvalidByte(s) == std::string_view::npos;
}

size_t firstInvalidByte(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const int len = wellFormedLength(s, i);
        if (len <= 0)
            return i;
        i += len;
    }
    return std::string_view::npos;
}

char32_t decodeAt(std::string_view s, size_t& i) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        ++i;
        return b0;
    }
    const int len = wellFormedLength(s, i);
    if (len <= 0) {
        ++i;
        return kReplacement;
    }
    char32_t cp = b0 & (0x7F >> len);
    for (int k = 1; k < len; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += len;
    return cp;
}

bool isWhiteSpace(char32_t cp) {
    switch (cp) {
        case 0x09:
        case 0x0A:
        case 0x0B:
        case 0x0C:
        case 0x0D:
        case 0x20:
        case 0x85:
        case 0xA0:
        case 0x1680:
        case 0x2028:
        case 0x2029:
        case 0x202F:
        case 0x205F:
        case 0x3000:
            return true;
        default:
            return cp >= 0x2000 && cp <= 0x200A;
    }
}

CharClass classify(char32_t cp) {
    if (cp < 0x80) {
        if ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z')
            return CharClass::Letter;
        if (cp >= '0' && cp <= '9')
            return CharClass::Number;
        if (cp == ' ' || (cp >= 0x09 && cp <= 0x0D))
            return CharClass::Space;
        return CharClass::Other;
    }
    if (isWhiteSpace(cp))
        return CharClass::Space;
    switch (QChar::category(cp)) {
        case QChar::Letter_Uppercase:
        case QChar::Letter_Lowercase:
        case QChar::Letter_Titlecase:
        case QChar::Letter_Modifier:
        case QChar::Letter_Other:
            return CharClass::Letter;
        case QChar::Number_DecimalDigit:
        case QChar::Number_Letter:
        case QChar::Number_Other:
            return CharClass::Number;
        default:
            return CharClass::Other;
    }
}

bool isPunctuationOrSymbol(char32_t cp) {
    switch (QChar::category(cp)) {
        case QChar::Punctuation_Connector:
        case QChar::Punctuation_Dash:
        case QChar::Punctuation_Open:
        case QChar::Punctuation_Close:
        case QChar::Punctuation_InitialQuote:
        case QChar::Punctuation_FinalQuote:
        case QChar::Punctuation_Other:
        case QChar::Symbol_Math:
        case QChar::Symbol_Currency:
        case QChar::Symbol_Modifier:
        case QChar::Symbol_Other:
            return true;
        default:
            return false;
    }
}

}  // namespace attn::utf8

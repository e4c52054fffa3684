#include "tokenizer/hf_tokenizer.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <simdjson.h>

#include <QString>
#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <queue>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "tokenizer/gpt2_bpe.h"
#include "tokenizer/utf8.h"

namespace attn {

namespace {

// `format` with %1 .. %9 replaced by the arguments (as the engine's formatMessage does).
std::string filled(const std::string& format, const std::vector<std::string>& args) {
    std::string out;
    for (size_t i = 0; i < format.size(); ++i) {
        if (format[i] == '%' && i + 1 < format.size() && format[i + 1] >= '1' &&
            format[i + 1] <= '9' && size_t(format[i + 1] - '1') < args.size()) {
            out += args[size_t(format[i + 1] - '1')];
            ++i;
        } else {
            out += format[i];
        }
    }
    return out;
}

}  // namespace

TokenizerJsonError::TokenizerJsonError(std::string format, std::vector<std::string> args)
    : std::invalid_argument(filled(format, args)),
      format_(std::move(format)),
      args_(std::move(args)) {}

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

[[noreturn]] void bad(std::string format, std::vector<std::string> args = {}) {
    throw TokenizerJsonError(std::move(format), std::move(args));
}

// ---------------------------------------------------------------------------------------------
// JSON access with messages that name the key.

bool member(const object& o, std::string_view key, element& out) {
    auto r = o[key];
    if (r.error() || r.value().is_null())
        return false;
    out = r.value();
    return true;
}

element need(const object& o, std::string_view key, const std::string& where) {
    element e;
    if (!member(o, key, e))
        bad("%1 has no \"%2\"", {where, std::string(key)});
    return e;
}

std::string_view text(const element& e, const std::string& what) {
    std::string_view s;
    if (e.get_string().get(s))
        bad("%1 must be a string", {what});
    return s;
}

object objectOf(const element& e, const std::string& what) {
    object o;
    if (e.get_object().get(o))
        bad("%1 must be an object", {what});
    return o;
}

array arrayOf(const element& e, const std::string& what) {
    array a;
    if (e.get_array().get(a))
        bad("%1 must be an array", {what});
    return a;
}

bool flag(const object& o, std::string_view key, bool fallback, const std::string& where) {
    element e;
    if (!member(o, key, e))
        return fallback;
    bool b = false;
    if (e.get_bool().get(b))
        bad("%1 must be true or false", {where + "." + std::string(key)});
    return b;
}

int64_t integer(const element& e, const std::string& what) {
    int64_t v = 0;
    if (e.get_int64().get(v))
        bad("%1 must be a whole number", {what});
    return v;
}

// ---------------------------------------------------------------------------------------------
// PCRE2 with Unicode properties; thread-safe (each search has its own match data).

class Regex {
  public:
    explicit Regex(std::string_view pattern) {
        int error = 0;
        PCRE2_SIZE offset = 0;
        code_ = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                              PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
        if (!code_) {
            std::array<PCRE2_UCHAR, 256> message{};
            pcre2_get_error_message(error, message.data(), message.size());
            bad("the regex \"%1\" does not compile at offset %2: %3",
                {std::string(pattern), std::to_string(offset),
                 reinterpret_cast<const char*>(message.data())});
        }
        jit_ = pcre2_jit_compile(code_, PCRE2_JIT_COMPLETE) == 0;
    }
    ~Regex() { pcre2_code_free(code_); }
    Regex(const Regex&) = delete;
    Regex& operator=(const Regex&) = delete;

    // Every non-empty match of `s` (valid UTF-8), left to right, as [begin, end) byte offsets.
    void findAll(std::string_view s, std::vector<std::pair<size_t, size_t>>& out) const {
        out.clear();
        pcre2_match_data* md = pcre2_match_data_create_from_pattern(code_, nullptr);
        pcre2_match_context* mc = pcre2_match_context_create(nullptr);
        pcre2_jit_stack* stack =
            jit_ ? pcre2_jit_stack_create(32 * 1024, 8 * 1024 * 1024, nullptr) : nullptr;
        if (stack)
            pcre2_jit_stack_assign(mc, nullptr, stack);
        const auto* subject = reinterpret_cast<PCRE2_SPTR>(s.data());
        size_t at = 0;
        while (at <= s.size()) {
            const int rc = pcre2_match(code_, subject, s.size(), at, PCRE2_NO_UTF_CHECK, md, mc);
            if (rc < 0)
                break;  // no match (or a limit: the rest stays one piece)
            const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
            const size_t b = ov[0], e = ov[1];
            if (e > b) {
                out.emplace_back(b, e);
                at = e;
            } else {
                // An empty match: step over one character.
                at = b + 1;
                while (at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80)
                    ++at;
            }
        }
        if (stack)
            pcre2_jit_stack_free(stack);
        pcre2_match_context_free(mc);
        pcre2_match_data_free(md);
    }

  private:
    pcre2_code* code_ = nullptr;
    bool jit_ = false;
};

// A pattern: a literal string or a regex, as tokenizer.json writes {"String": ...} or
// {"Regex": ...}.
struct Pattern {
    std::string literal;
    std::shared_ptr<Regex> regex;

    void findAll(std::string_view s, std::vector<std::pair<size_t, size_t>>& out) const {
        if (regex)
            return regex->findAll(s, out);
        out.clear();
        if (literal.empty())
            return;
        for (size_t at = s.find(literal); at != std::string_view::npos;
             at = s.find(literal, at + literal.size()))
            out.emplace_back(at, at + literal.size());
    }
};

Pattern readPattern(const element& e, const std::string& where) {
    const object o = objectOf(e, where + ".pattern");
    Pattern p;
    element v;
    if (member(o, "String", v))
        p.literal = std::string(text(v, where + ".pattern.String"));
    else if (member(o, "Regex", v))
        p.regex = std::make_shared<Regex>(text(v, where + ".pattern.Regex"));
    else
        bad("%1 must be {\"String\": ...} or {\"Regex\": ...}", {where + ".pattern"});
    return p;
}

// The code point that ends just before s[end] (no earlier than `floor`), and where it starts.
char32_t codePointBefore(std::string_view s, size_t end, size_t floor, size_t* start) {
    size_t p = end - 1;
    while (p > floor && (static_cast<unsigned char>(s[p]) & 0xC0) == 0x80)
        --p;
    *start = p;
    return utf8::decodeAt(s, p);
}

// ---------------------------------------------------------------------------------------------
// Normalizers.

struct Normalizer {
    enum class Kind { Nfc, Nfd, Nfkc, Nfkd, Lowercase, Replace, Prepend, Strip, Sequence };
    Kind kind = Kind::Nfc;
    Pattern pattern;
    std::string content;  // Replace's replacement, Prepend's prefix
    bool left = false, right = false;
    std::vector<Normalizer> sequence;

    void apply(std::string& s) const {
        switch (kind) {
            case Kind::Nfc:
            case Kind::Nfd:
            case Kind::Nfkc:
            case Kind::Nfkd: {
                // ASCII is already in every normal form.
                if (std::all_of(s.begin(), s.end(), [](char c) { return (c & 0x80) == 0; }))
                    return;
                static constexpr QString::NormalizationForm forms[] = {
                    QString::NormalizationForm_C, QString::NormalizationForm_D,
                    QString::NormalizationForm_KC, QString::NormalizationForm_KD};
                s = QString::fromUtf8(s.data(), qsizetype(s.size()))
                        .normalized(forms[int(kind)])
                        .toStdString();
                return;
            }
            case Kind::Lowercase:
                s = QString::fromUtf8(s.data(), qsizetype(s.size())).toLower().toStdString();
                return;
            case Kind::Replace: {
                std::vector<std::pair<size_t, size_t>> spans;
                pattern.findAll(s, spans);
                if (spans.empty())
                    return;
                std::string out;
                size_t at = 0;
                for (const auto& [b, e] : spans) {
                    out.append(s, at, b - at);
                    out += content;
                    at = e;
                }
                out.append(s, at, std::string::npos);
                s = std::move(out);
                return;
            }
            case Kind::Prepend:
                if (!s.empty())
                    s.insert(0, content);
                return;
            case Kind::Strip: {
                size_t b = 0, e = s.size();
                if (left)
                    while (b < e) {
                        size_t i = b;
                        if (!utf8::isWhiteSpace(utf8::decodeAt(s, i)))
                            break;
                        b = i;
                    }
                if (right)
                    while (e > b) {
                        size_t start = 0;
                        if (!utf8::isWhiteSpace(codePointBefore(s, e, b, &start)))
                            break;
                        e = start;
                    }
                s = s.substr(b, e - b);
                return;
            }
            case Kind::Sequence:
                for (const Normalizer& n : sequence)
                    n.apply(s);
                return;
        }
    }
};

Normalizer readNormalizer(const element& e, const std::string& where) {
    const object o = objectOf(e, where);
    const std::string type(text(need(o, "type", where), where + ".type"));
    Normalizer n;
    if (type == "NFC")
        n.kind = Normalizer::Kind::Nfc;
    else if (type == "NFD")
        n.kind = Normalizer::Kind::Nfd;
    else if (type == "NFKC")
        n.kind = Normalizer::Kind::Nfkc;
    else if (type == "NFKD")
        n.kind = Normalizer::Kind::Nfkd;
    else if (type == "Lowercase")
        n.kind = Normalizer::Kind::Lowercase;
    else if (type == "Replace") {
        n.kind = Normalizer::Kind::Replace;
        n.pattern = readPattern(need(o, "pattern", where), where);
        n.content = std::string(text(need(o, "content", where), where + ".content"));
    } else if (type == "Prepend") {
        n.kind = Normalizer::Kind::Prepend;
        n.content = std::string(text(need(o, "prepend", where), where + ".prepend"));
    } else if (type == "Strip") {
        n.kind = Normalizer::Kind::Strip;
        n.left = flag(o, "strip_left", true, where);
        n.right = flag(o, "strip_right", true, where);
    } else if (type == "Sequence") {
        n.kind = Normalizer::Kind::Sequence;
        size_t i = 0;
        for (const element& item : arrayOf(need(o, "normalizers", where), where + ".normalizers"))
            n.sequence.push_back(
                readNormalizer(item, where + ".normalizers[" + std::to_string(i++) + "]"));
    } else {
        bad("%1 is \"%2\", a normalizer this program does not apply; it applies NFC, NFD, NFKC, "
            "NFKD, Lowercase, Replace, Prepend, Strip and Sequence",
            {where + ".type", type});
    }
    return n;
}

// ---------------------------------------------------------------------------------------------
// Pre-tokenizers: a stretch of normalized text into pieces.

struct Piece {
    std::string text;
    bool atStart = false;  // begins at offset 0 of the whole text (Metaspace's "first")
};

enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

// Cuts `s` by the spans of a pattern as the `tokenizers` library's NormalizedString::split
// does, dropping empty pieces.
void splitBy(const Piece& p, const std::vector<std::pair<size_t, size_t>>& matches,
             Behavior behavior, bool invert, std::vector<Piece>& out) {
    const std::string& s = p.text;
    // The whole text as spans, each a match or not.
    std::vector<std::pair<std::pair<size_t, size_t>, bool>> spans;
    size_t at = 0;
    for (const auto& m : matches) {
        if (m.first > at)
            spans.push_back({{at, m.first}, invert});
        spans.push_back({m, !invert});
        at = m.second;
    }
    if (at < s.size())
        spans.push_back({{at, s.size()}, invert});
    std::vector<std::pair<size_t, size_t>> pieces;
    switch (behavior) {
        case Behavior::Removed:
            for (const auto& [span, isMatch] : spans)
                if (!isMatch)
                    pieces.push_back(span);
            break;
        case Behavior::Isolated:
            for (const auto& [span, isMatch] : spans)
                pieces.push_back(span);
            break;
        case Behavior::MergedWithPrevious: {
            bool previousMatch = false;
            for (const auto& [span, isMatch] : spans) {
                if (isMatch && !previousMatch && !pieces.empty())
                    pieces.back().second = span.second;
                else
                    pieces.push_back(span);
                previousMatch = isMatch;
            }
            break;
        }
        case Behavior::MergedWithNext: {
            bool previousMatch = false;
            for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
                const auto& [span, isMatch] = *it;
                if (isMatch && !previousMatch && !pieces.empty())
                    pieces.back().first = span.first;
                else
                    pieces.push_back(span);
                previousMatch = isMatch;
            }
            std::reverse(pieces.begin(), pieces.end());
            break;
        }
        case Behavior::Contiguous: {
            bool previousMatch = false;
            for (const auto& [span, isMatch] : spans) {
                if (isMatch == previousMatch && !pieces.empty())
                    pieces.back().second = span.second;
                else
                    pieces.push_back(span);
                previousMatch = isMatch;
            }
            break;
        }
    }
    for (const auto& [b, e] : pieces)
        if (e > b)
            out.push_back({s.substr(b, e - b), p.atStart && b == 0});
}

const char* const kGpt2Pattern =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

struct PreTokenizer {
    enum class Kind { Split, ByteLevel, Metaspace, Digits, Sequence };
    Kind kind = Kind::Split;
    Pattern pattern;
    Behavior behavior = Behavior::Isolated;
    bool invert = false;
    bool addPrefixSpace = false, useRegex = false;  // ByteLevel
    std::string replacement;                        // Metaspace
    enum class Prepend { Always, First, Never };
    bool split = true;  // Metaspace
    Prepend prepend_ = Prepend::Always;
    bool individualDigits = false;
    std::vector<PreTokenizer> sequence;

    void apply(std::vector<Piece>& pieces) const {
        if (kind == Kind::Sequence) {
            for (const PreTokenizer& p : sequence)
                p.apply(pieces);
            return;
        }
        std::vector<Piece> out;
        std::vector<std::pair<size_t, size_t>> spans;
        for (Piece& p : pieces) {
            switch (kind) {
                case Kind::Split:
                    pattern.findAll(p.text, spans);
                    splitBy(p, spans, behavior, invert, out);
                    break;
                case Kind::ByteLevel: {
                    if (addPrefixSpace && !p.text.starts_with(' '))
                        p.text.insert(0, 1, ' ');
                    std::vector<Piece> parts;
                    if (useRegex) {
                        pattern.findAll(p.text, spans);
                        splitBy(p, spans, Behavior::Isolated, false, parts);
                    } else {
                        parts.push_back(std::move(p));
                    }
                    for (Piece& part : parts) {
                        Piece mapped{std::string(), part.atStart};
                        gpt2::Vocabulary::bytesToSymbols(part.text, mapped.text);
                        out.push_back(std::move(mapped));
                    }
                    break;
                }
                case Kind::Metaspace: {
                    std::string t;
                    for (char c : p.text) {
                        if (c == ' ')
                            t += replacement;
                        else
                            t += c;
                    }
                    const bool addPrefix =
                        !t.starts_with(replacement) &&
                        (prepend_ == Prepend::Always || (prepend_ == Prepend::First && p.atStart));
                    if (addPrefix)
                        t.insert(0, replacement);
                    Piece q{std::move(t), p.atStart};
                    if (split) {
                        Pattern lit;
                        lit.literal = replacement;
                        lit.findAll(q.text, spans);
                        splitBy(q, spans, Behavior::MergedWithNext, false, out);
                    } else {
                        out.push_back(std::move(q));
                    }
                    break;
                }
                case Kind::Digits: {
                    spans.clear();
                    size_t i = 0;
                    while (i < p.text.size()) {
                        const size_t b = i;
                        const char32_t cp = utf8::decodeAt(p.text, i);
                        if (utf8::classify(cp) == utf8::CharClass::Number)
                            spans.emplace_back(b, i);
                    }
                    splitBy(p, spans, individualDigits ? Behavior::Isolated : Behavior::Contiguous,
                            false, out);
                    break;
                }
                case Kind::Sequence:
                    break;
            }
        }
        pieces = std::move(out);
    }
};

Behavior readBehavior(const element& e, const std::string& where) {
    const std::string_view b = text(e, where + ".behavior");
    if (b == "Removed")
        return Behavior::Removed;
    if (b == "Isolated")
        return Behavior::Isolated;
    if (b == "MergedWithPrevious")
        return Behavior::MergedWithPrevious;
    if (b == "MergedWithNext")
        return Behavior::MergedWithNext;
    if (b == "Contiguous")
        return Behavior::Contiguous;
    bad("%1 is \"%2\"; it must be Removed, Isolated, MergedWithPrevious, MergedWithNext or "
        "Contiguous",
        {where + ".behavior", std::string(b)});
}

PreTokenizer readPreTokenizer(const element& e, const std::string& where) {
    const object o = objectOf(e, where);
    const std::string type(text(need(o, "type", where), where + ".type"));
    PreTokenizer p;
    if (type == "Split") {
        p.kind = PreTokenizer::Kind::Split;
        p.pattern = readPattern(need(o, "pattern", where), where);
        p.behavior = readBehavior(need(o, "behavior", where), where);
        p.invert = flag(o, "invert", false, where);
    } else if (type == "ByteLevel") {
        p.kind = PreTokenizer::Kind::ByteLevel;
        p.addPrefixSpace = flag(o, "add_prefix_space", true, where);
        p.useRegex = flag(o, "use_regex", true, where);
        if (p.useRegex)
            p.pattern.regex = std::make_shared<Regex>(kGpt2Pattern);
    } else if (type == "Metaspace") {
        p.kind = PreTokenizer::Kind::Metaspace;
        p.replacement = std::string(text(need(o, "replacement", where), where + ".replacement"));
        element scheme;
        if (member(o, "prepend_scheme", scheme)) {
            const std::string_view s = text(scheme, where + ".prepend_scheme");
            if (s == "always")
                p.prepend_ = PreTokenizer::Prepend::Always;
            else if (s == "first")
                p.prepend_ = PreTokenizer::Prepend::First;
            else if (s == "never")
                p.prepend_ = PreTokenizer::Prepend::Never;
            else
                bad("%1 is \"%2\"; it must be always, first or never",
                    {where + ".prepend_scheme", std::string(s)});
        } else {
            p.prepend_ = flag(o, "add_prefix_space", true, where) ? PreTokenizer::Prepend::Always
                                                                  : PreTokenizer::Prepend::Never;
        }
        p.split = flag(o, "split", true, where);
    } else if (type == "Digits") {
        p.kind = PreTokenizer::Kind::Digits;
        p.individualDigits = flag(o, "individual_digits", false, where);
    } else if (type == "Sequence") {
        p.kind = PreTokenizer::Kind::Sequence;
        size_t i = 0;
        for (const element& item :
             arrayOf(need(o, "pretokenizers", where), where + ".pretokenizers"))
            p.sequence.push_back(
                readPreTokenizer(item, where + ".pretokenizers[" + std::to_string(i++) + "]"));
    } else {
        bad("%1 is \"%2\", a pre-tokenizer this program does not apply; it applies Split, "
            "ByteLevel, Metaspace, Digits and Sequence",
            {where + ".type", type});
    }
    return p;
}

bool usesByteLevel(const PreTokenizer& p) {
    if (p.kind == PreTokenizer::Kind::ByteLevel)
        return true;
    return std::any_of(p.sequence.begin(), p.sequence.end(), usesByteLevel);
}

// ---------------------------------------------------------------------------------------------
// Added tokens: a byte trie, searched leftmost-longest.

struct AddedToken {
    int32_t id = 0;
    std::string content;
    bool special = false, lstrip = false, rstrip = false, singleWord = false, normalized = false;
};

class AddedMatcher {
  public:
    void add(const AddedToken& t, size_t index) {
        if (t.content.empty())
            return;
        int32_t node = 0;
        for (unsigned char c : t.content) {
            auto it = nodes_[size_t(node)].next.find(c);
            if (it == nodes_[size_t(node)].next.end()) {
                nodes_.push_back({});
                it = nodes_[size_t(node)].next.emplace(c, int32_t(nodes_.size() - 1)).first;
            }
            node = it->second;
        }
        nodes_[size_t(node)].token = int32_t(index);
        first_[static_cast<unsigned char>(t.content[0])] = true;
    }
    bool empty() const { return nodes_.size() == 1; }

    // The longest token starting at s[at], as its index, or -1.
    int32_t longestAt(std::string_view s, size_t at, size_t* length) const {
        if (!first_[static_cast<unsigned char>(s[at])])
            return -1;
        int32_t node = 0, best = -1;
        for (size_t i = at; i < s.size(); ++i) {
            const auto it = nodes_[size_t(node)].next.find(static_cast<unsigned char>(s[i]));
            if (it == nodes_[size_t(node)].next.end())
                break;
            node = it->second;
            if (nodes_[size_t(node)].token >= 0) {
                best = nodes_[size_t(node)].token;
                *length = i + 1 - at;
            }
        }
        return best;
    }

  private:
    struct Node {
        std::map<unsigned char, int32_t> next;
        int32_t token = -1;
    };
    std::vector<Node> nodes_ = std::vector<Node>(1);
    std::array<bool, 256> first_{};
};

bool isWordChar(char32_t cp) {
    const utf8::CharClass c = utf8::classify(cp);
    return c == utf8::CharClass::Letter || c == utf8::CharClass::Number || cp == '_';
}

// A stretch of text: an added token (token >= 0) or text to normalize and tokenize.
struct Stretch {
    std::string text;
    int32_t token = -1;
    bool atStart = false;
};

// Cuts `s` around the added tokens `matcher` finds, as the tokenizers library's
// AddedVocabulary::split_with_indices does (lstrip/rstrip take the whitespace beside a token
// into it, single_word needs a word boundary on both sides).
void splitAdded(const Stretch& in, const AddedMatcher& matcher,
                const std::vector<AddedToken>& tokens, std::vector<Stretch>& out) {
    const std::string& s = in.text;
    if (in.token >= 0 || matcher.empty() || s.empty()) {
        out.push_back(in);
        return;
    }
    size_t textStart = 0, at = 0;
    while (at < s.size()) {
        size_t length = 0;
        const int32_t index = matcher.longestAt(s, at, &length);
        if (index < 0) {
            ++at;
            continue;
        }
        const AddedToken& t = tokens[size_t(index)];
        size_t b = at, e = at + length;
        if (t.singleWord) {
            bool before = false, after = false;
            size_t start = 0;
            if (b > 0)
                before = isWordChar(codePointBefore(s, b, 0, &start));
            if (e < s.size()) {
                size_t p = e;
                after = isWordChar(utf8::decodeAt(s, p));
            }
            if (before || after) {
                ++at;
                continue;
            }
        }
        if (t.lstrip)
            while (b > textStart) {
                size_t start = 0;
                if (!utf8::isWhiteSpace(codePointBefore(s, b, textStart, &start)))
                    break;
                b = start;
            }
        if (t.rstrip)
            while (e < s.size()) {
                size_t q = e;
                if (!utf8::isWhiteSpace(utf8::decodeAt(s, q)))
                    break;
                e = q;
            }
        if (b > textStart)
            out.push_back({s.substr(textStart, b - textStart), -1, in.atStart && textStart == 0});
        out.push_back({std::string(), t.id, false});
        textStart = at = e;
    }
    if (textStart < s.size())
        out.push_back({s.substr(textStart), -1, in.atStart && textStart == 0});
}

uint64_t mix(uint64_t v) {
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdULL;
    v ^= v >> 33;
    return v;
}

size_t tableSize(size_t entries) {
    size_t n = 16;
    while (n < entries * 2)
        n *= 2;
    return n;
}

// The vocabulary's string -> id map: open addressing over ids into `strings`, so a lookup is
// one probe of a flat array (a node-based map made loading Gemma 3's 262,144 entries and
// 514,906 merges cache-miss bound).
class StringIndex {
  public:
    void build(const std::vector<std::string>& strings, size_t count) {
        strings_ = &strings;
        const size_t n = tableSize(count);
        slots_.assign(n, kEmpty);
        mask_ = n - 1;
        for (size_t id = 0; id < strings.size(); ++id)
            if (!strings[id].empty()) {
                const uint64_t h = std::hash<std::string_view>()(strings[id]);
                size_t i = h & mask_;
                while (slots_[i] != kEmpty)
                    i = (i + 1) & mask_;
                slots_[i] = (h & ~uint64_t(0xFFFFFFFF)) | uint32_t(id);
            }
    }
    int32_t find(std::string_view s) const {
        if (slots_.empty())
            return -1;
        const uint64_t h = std::hash<std::string_view>()(s);
        // Each slot: the hash's high 32 bits, then the id.
        for (size_t i = h & mask_; slots_[i] != kEmpty; i = (i + 1) & mask_) {
            const uint64_t slot = slots_[i];
            if ((slot >> 32) == (h >> 32) && (*strings_)[uint32_t(slot)] == s)
                return int32_t(uint32_t(slot));
        }
        return -1;
    }

  private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);
    const std::vector<std::string>* strings_ = nullptr;
    std::vector<uint64_t> slots_;
    size_t mask_ = 0;
};

// (left id, right id) -> (rank, merged id), open addressing.
class MergeIndex {
  public:
    void reserve(size_t count) {
        const size_t n = tableSize(count);
        slots_.assign(n, Slot{});
        mask_ = n - 1;
    }
    // The first merge of a pair wins, as in the tokenizers library's map built in rank order.
    void add(int32_t a, int32_t b, int32_t rank, int32_t merged) {
        const uint64_t key = (uint64_t(uint32_t(a)) << 32) | uint32_t(b);
        size_t i = mix(key) & mask_;
        while (slots_[i].key != kEmpty) {
            if (slots_[i].key == key)
                return;
            i = (i + 1) & mask_;
        }
        slots_[i] = {key, rank, merged};
    }
    // Rank and merged id of the pair, or rank -1.
    std::pair<int32_t, int32_t> find(int32_t a, int32_t b) const {
        const uint64_t key = (uint64_t(uint32_t(a)) << 32) | uint32_t(b);
        for (size_t i = mix(key) & mask_; slots_[i].key != kEmpty; i = (i + 1) & mask_)
            if (slots_[i].key == key)
                return {slots_[i].rank, slots_[i].merged};
        return {-1, -1};
    }

  private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);
    struct Slot {
        uint64_t key = kEmpty;
        int32_t rank = -1, merged = -1;
    };
    std::vector<Slot> slots_;
    size_t mask_ = 0;
};

}  // namespace

// ---------------------------------------------------------------------------------------------

struct HfTokenizer::Impl {
    // Vocabulary strings by id (empty for ids only added tokens use), and the map from each
    // string to its id, keyed by views into them.
    std::vector<std::string> strings;
    StringIndex vocab;
    MergeIndex merges;
    std::vector<AddedToken> added;
    AddedMatcher rawMatcher, normalizedMatcher;
    std::optional<Normalizer> normalizer;
    std::optional<PreTokenizer> preTokenizer;
    bool byteLevel = false;
    bool ignoreMerges = false, byteFallback = false, fuseUnk = false;
    int32_t unk = -1;
    std::array<int32_t, 256> byteFallbackIds{};  // <0xXX> tokens, -1 when missing
    std::vector<int32_t> prefix, suffix;         // TemplateProcessing's single, around "A"
    std::vector<std::string> bytesById;          // what each id stands for
    std::vector<bool> specialById;
    int64_t size = 0;
    int64_t modelSize = 0;  // one more than model.vocab's largest id (added tokens aside)

    int32_t lookup(std::string_view s) const { return vocab.find(s); }

    // BPE on one piece, appended to `ids`.
    void bpe(const std::string& piece, std::vector<int32_t>& ids) const {
        if (ignoreMerges) {
            const int32_t id = lookup(piece);
            if (id >= 0) {
                ids.push_back(id);
                return;
            }
        }
        // The piece's characters as symbols (a doubly linked list over `sym`).
        struct Symbol {
            int32_t id;
            int32_t prev, next;
            bool alive;
        };
        std::vector<Symbol> sym;
        sym.reserve(piece.size());
        int32_t pendingUnk = -1;  // fused unknown characters not yet pushed
        auto push = [&](int32_t id) {
            sym.push_back({id, int32_t(sym.size()) - 1, int32_t(sym.size()) + 1, true});
        };
        size_t i = 0;
        std::string ch;
        while (i < piece.size()) {
            const size_t b = i;
            utf8::decodeAt(piece, i);
            ch.assign(piece, b, i - b);
            const int32_t id = lookup(ch);
            if (id >= 0) {
                if (pendingUnk >= 0) {
                    push(pendingUnk);
                    pendingUnk = -1;
                }
                push(id);
                continue;
            }
            if (byteFallback) {
                bool all = true;
                for (unsigned char c : ch)
                    all = all && byteFallbackIds[c] >= 0;
                if (all) {
                    for (unsigned char c : ch)
                        push(byteFallbackIds[c]);
                    continue;
                }
            }
            if (unk >= 0) {
                if (pendingUnk >= 0 && !fuseUnk)
                    push(pendingUnk);
                pendingUnk = unk;
            }
        }
        if (pendingUnk >= 0)
            push(pendingUnk);
        if (sym.empty())
            return;
        sym.back().next = -1;

        // Lowest rank first, then leftmost: the tokenizers library's Word::merge_all.
        struct Candidate {
            int32_t rank, pos, merged;
            bool operator>(const Candidate& o) const {
                return rank != o.rank ? rank > o.rank : pos > o.pos;
            }
        };
        std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> queue;
        auto consider = [&](int32_t pos) {
            const int32_t next = sym[size_t(pos)].next;
            if (next < 0)
                return;
            const auto [rank, merged] = merges.find(sym[size_t(pos)].id, sym[size_t(next)].id);
            if (rank >= 0)
                queue.push({rank, pos, merged});
        };
        for (int32_t p = 0; p + 1 < int32_t(sym.size()); ++p)
            consider(p);
        while (!queue.empty()) {
            const Candidate c = queue.top();
            queue.pop();
            Symbol& left = sym[size_t(c.pos)];
            if (!left.alive || left.next < 0)
                continue;
            Symbol& right = sym[size_t(left.next)];
            if (merges.find(left.id, right.id).first != c.rank)
                continue;  // the pair changed since it was queued
            left.id = c.merged;
            right.alive = false;
            left.next = right.next;
            if (right.next >= 0)
                sym[size_t(right.next)].prev = c.pos;
            if (left.prev >= 0)
                consider(left.prev);
            consider(c.pos);
        }
        for (int32_t p = 0; p >= 0; p = sym[size_t(p)].next)
            ids.push_back(sym[size_t(p)].id);
    }

    std::vector<int32_t> encode(std::string_view input, bool addSpecial) const {
        const std::string text = utf8::sanitize(input);
        std::vector<Stretch> raw;
        splitAdded({text, -1, true}, rawMatcher, added, raw);
        std::vector<Stretch> stretches;
        for (Stretch& s : raw) {
            if (s.token < 0 && normalizer)
                normalizer->apply(s.text);
            splitAdded(s, normalizedMatcher, added, stretches);
        }
        std::vector<int32_t> ids(prefix);
        std::unordered_map<std::string, std::vector<int32_t>> cache;
        std::vector<Piece> pieces;
        for (const Stretch& s : stretches) {
            if (s.token >= 0) {
                ids.push_back(s.token);
                continue;
            }
            pieces.clear();
            pieces.push_back({s.text, s.atStart});
            if (preTokenizer)
                preTokenizer->apply(pieces);
            for (const Piece& p : pieces) {
                if (p.text.size() <= 64) {
                    auto [it, fresh] = cache.try_emplace(p.text);
                    if (fresh)
                        bpe(p.text, it->second);
                    ids.insert(ids.end(), it->second.begin(), it->second.end());
                } else {
                    bpe(p.text, ids);
                }
            }
        }
        if (!addSpecial)
            return std::vector<int32_t>(ids.begin() + std::ptrdiff_t(prefix.size()), ids.end());
        ids.insert(ids.end(), suffix.begin(), suffix.end());
        return ids;
    }
};

namespace {

void readModel(const object& root, HfTokenizer::Impl& m) {
    const object model = objectOf(need(root, "model", "tokenizer.json"), "model");
    element type;
    const std::string t =
        member(model, "type", type) ? std::string(text(type, "model.type")) : std::string("BPE");
    if (t != "BPE")
        bad("model.type is \"%1\"; this program reads BPE tokenizers (Llama 3, Qwen, SmolLM2, "
            "Gemma 3, TinyLlama), not %1",
            {t});
    for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        element v;
        if (member(model, key, v) && !text(v, std::string("model.") + key).empty())
            bad("%1 is set; this program reads BPE without one", {std::string("model.") + key});
    }
    element dropout;
    if (member(model, "dropout", dropout)) {
        double p = 0;
        if (dropout.get_double().get(p) || p != 0.0)
            bad("model.dropout is set; a tokenizer for inference has none");
    }
    m.ignoreMerges = flag(model, "ignore_merges", false, "model");
    m.byteFallback = flag(model, "byte_fallback", false, "model");
    m.fuseUnk = flag(model, "fuse_unk", false, "model");
    const object vocab = objectOf(need(model, "vocab", "model"), "model.vocab");
    std::vector<std::pair<std::string_view, int64_t>> entries;
    entries.reserve(vocab.size());
    for (auto [key, value] : vocab) {
        const int64_t id = integer(value, "model.vocab[\"" + std::string(key) + "\"]");
        if (id < 0 || id >= (int64_t(1) << 24))
            bad("model.vocab gives \"%1\" the id %2, outside 0 to 16,777,215",
                {std::string(key), std::to_string(id)});
        entries.emplace_back(key, id);
        m.size = std::max(m.size, id + 1);
    }
    m.modelSize = m.size;
    m.strings.resize(size_t(m.size));
    for (const auto& [key, id] : entries) {
        if (!m.strings[size_t(id)].empty())
            bad("model.vocab gives the id %1 to both \"%2\" and \"%3\"",
                {std::to_string(id), m.strings[size_t(id)], std::string(key)});
        m.strings[size_t(id)] = key;
    }
    m.vocab.build(m.strings, entries.size());
    element unk;
    if (member(model, "unk_token", unk)) {
        m.unk = m.lookup(text(unk, "model.unk_token"));
        if (m.unk < 0)
            bad("model.unk_token \"%1\" is not in model.vocab", {std::string(text(unk, ""))});
    }
    m.byteFallbackIds.fill(-1);
    if (m.byteFallback)
        for (int b = 0; b < 256; ++b) {
            char name[8];
            std::snprintf(name, sizeof name, "<0x%02X>", b);
            m.byteFallbackIds[size_t(b)] = m.lookup(name);
        }
    const array merges = arrayOf(need(model, "merges", "model"), "model.merges");
    // The pairs as views into the parsed JSON first; then their ids, looked up on two threads
    // (half a million merges of three lookups each are most of loading a large file).
    std::vector<std::pair<std::string_view, std::string_view>> pairs;
    pairs.reserve(merges.size());
    for (const element& e : merges) {
        auto where = [&] { return "model.merges[" + std::to_string(pairs.size()) + "]"; };
        std::string_view s, t;
        array pair;
        if (!e.get_string().get(s)) {
            const size_t space = s.find(' ', 1);
            if (space == std::string_view::npos)
                bad("%1 is \"%2\"; a merge is \"left right\"", {where(), std::string(s)});
            pairs.emplace_back(s.substr(0, space), s.substr(space + 1));
        } else if (!e.get_array().get(pair) && pair.size() == 2) {
            if (pair.at(0).get_string().get(s) || pair.at(1).get_string().get(t))
                bad("%1 must be two strings", {where()});
            pairs.emplace_back(s, t);
        } else {
            bad("%1 must be \"left right\" or [left, right]", {where()});
        }
    }
    std::vector<std::array<int32_t, 3>> ids(pairs.size());
    auto resolve = [&](size_t from, size_t to) {
        std::string both;
        for (size_t i = from; i < to; ++i) {
            both.assign(pairs[i].first);
            both += pairs[i].second;
            ids[i] = {m.lookup(pairs[i].first), m.lookup(pairs[i].second), m.lookup(both)};
        }
    };
    const size_t half = pairs.size() / 2;
    std::thread helper(resolve, half, pairs.size());
    resolve(0, half);
    helper.join();
    m.merges.reserve(pairs.size());
    for (size_t rank = 0; rank < pairs.size(); ++rank) {
        const auto [a, b, ab] = ids[rank];
        if (a < 0 || b < 0 || ab < 0) {
            const std::string left(pairs[rank].first), right(pairs[rank].second);
            bad("%1 merges \"%2\" and \"%3\", but \"%4\" is not in model.vocab",
                {"model.merges[" + std::to_string(rank) + "]", left, right,
                 a < 0   ? left
                 : b < 0 ? right
                         : left + right});
        }
        m.merges.add(a, b, int32_t(rank), ab);
    }
}

void readAdded(const object& root, HfTokenizer::Impl& m) {
    element e;
    if (!member(root, "added_tokens", e))
        return;
    size_t i = 0;
    for (const element& item : arrayOf(e, "added_tokens")) {
        const std::string where = "added_tokens[" + std::to_string(i) + "]";
        const object o = objectOf(item, where);
        AddedToken t;
        const int64_t id = integer(need(o, "id", where), where + ".id");
        if (id < 0 || id >= (int64_t(1) << 24))
            bad("%1 is %2, outside 0 to 16,777,215", {where + ".id", std::to_string(id)});
        t.id = int32_t(id);
        t.content = std::string(text(need(o, "content", where), where + ".content"));
        t.special = flag(o, "special", false, where);
        t.lstrip = flag(o, "lstrip", false, where);
        t.rstrip = flag(o, "rstrip", false, where);
        t.singleWord = flag(o, "single_word", false, where);
        t.normalized = flag(o, "normalized", !t.special, where);
        m.size = std::max(m.size, id + 1);
        m.added.push_back(t);
        ++i;
    }
    for (size_t k = 0; k < m.added.size(); ++k)
        (m.added[k].normalized ? m.normalizedMatcher : m.rawMatcher).add(m.added[k], k);
}

void readPostProcessor(const element& e, const std::string& where, HfTokenizer::Impl& m) {
    const object o = objectOf(e, where);
    const std::string type(text(need(o, "type", where), where + ".type"));
    if (type == "ByteLevel")
        return;  // offsets only
    if (type == "Sequence") {
        size_t i = 0;
        for (const element& item : arrayOf(need(o, "processors", where), where + ".processors"))
            readPostProcessor(item, where + ".processors[" + std::to_string(i++) + "]", m);
        return;
    }
    if (type != "TemplateProcessing")
        bad("%1 is \"%2\", a post-processor this program does not apply; it applies ByteLevel, "
            "TemplateProcessing and Sequence",
            {where + ".type", type});
    const object specials = objectOf(need(o, "special_tokens", where), where + ".special_tokens");
    bool seenSequence = false;
    size_t i = 0;
    for (const element& item : arrayOf(need(o, "single", where), where + ".single")) {
        const std::string at = where + ".single[" + std::to_string(i++) + "]";
        const object piece = objectOf(item, at);
        element v;
        if (member(piece, "Sequence", v)) {
            seenSequence = true;
            continue;
        }
        if (!member(piece, "SpecialToken", v))
            bad("%1 must be {\"SpecialToken\": ...} or {\"Sequence\": ...}", {at});
        const std::string name(
            text(need(objectOf(v, at + ".SpecialToken"), "id", at + ".SpecialToken"), at));
        element special;
        if (!member(specials, name, special))
            bad("%1 names \"%2\", which %3 lacks", {at, name, where + ".special_tokens"});
        for (const element& id :
             arrayOf(need(objectOf(special, where + ".special_tokens." + name), "ids", name),
                     where + ".special_tokens." + name + ".ids")) {
            const int64_t v64 = integer(id, name + " id");
            if (v64 < 0 || v64 >= m.size)
                bad("%1 has id %2, outside the vocabulary",
                    {where + ".special_tokens." + name, std::to_string(v64)});
            (seenSequence ? m.suffix : m.prefix).push_back(int32_t(v64));
        }
    }
}

// What each id stands for as bytes.
void fillBytes(HfTokenizer::Impl& m) {
    m.bytesById.assign(size_t(m.size), std::string());
    m.specialById.assign(size_t(m.size), false);
    for (size_t id = 0; id < m.strings.size(); ++id) {
        const std::string& s = m.strings[id];
        if (s.empty())
            continue;
        std::string& out = m.bytesById[id];
        if (m.byteLevel) {
            if (!gpt2::Vocabulary::symbolToBytes(s, out))
                out = s;
            continue;
        }
        unsigned b = 0;
        if (m.byteFallback && s.size() == 6 && s.starts_with("<0x") && s.ends_with(">") &&
            std::sscanf(s.c_str(), "<0x%2X>", &b) == 1) {
            out.assign(1, char(b));
            continue;
        }
        out = s;
    }
    for (const AddedToken& t : m.added) {
        m.bytesById[size_t(t.id)] = t.content;
        m.specialById[size_t(t.id)] = t.special;
    }
    if (!m.byteLevel) {
        // SentencePiece's "▁" is a space.
        static const std::string kMeta = "\xE2\x96\x81";
        for (std::string& s : m.bytesById)
            for (size_t at = s.find(kMeta); at != std::string::npos; at = s.find(kMeta, at + 1))
                s.replace(at, kMeta.size(), " ");
    }
}

}  // namespace

HfTokenizer::HfTokenizer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HfTokenizer::~HfTokenizer() = default;

std::shared_ptr<const HfTokenizer> HfTokenizer::fromJson(std::string_view json) {
    simdjson::dom::parser parser;
    element doc;
    const simdjson::padded_string padded(json);
    if (auto error = parser.parse(padded).get(doc))
        bad("it is not JSON: %1", {simdjson::error_message(error)});
    const object root = objectOf(doc, "tokenizer.json");
    auto m = std::make_unique<Impl>();
    readModel(root, *m);
    readAdded(root, *m);
    element e;
    if (member(root, "normalizer", e))
        m->normalizer = readNormalizer(e, "normalizer");
    if (member(root, "pre_tokenizer", e)) {
        m->preTokenizer = readPreTokenizer(e, "pre_tokenizer");
        m->byteLevel = usesByteLevel(*m->preTokenizer);
    }
    if (member(root, "post_processor", e))
        readPostProcessor(e, "post_processor", *m);
    if (m->size == 0)
        bad("model.vocab is empty");
    fillBytes(*m);
    return std::shared_ptr<const HfTokenizer>(new HfTokenizer(std::move(m)));
}

std::vector<int64_t> HfTokenizer::encodeIds(std::string_view text, bool addSpecialTokens) const {
    const std::vector<int32_t> ids = impl_->encode(text, addSpecialTokens);
    return std::vector<int64_t>(ids.begin(), ids.end());
}

std::vector<Token> HfTokenizer::encode(std::string_view text, bool addSpecialTokens) const {
    std::vector<Token> out;
    const std::vector<int32_t> ids = impl_->encode(text, addSpecialTokens);
    for (int32_t id : ids)
        out.push_back(token(id));
    if (addSpecialTokens) {  // the template's tokens around the text's
        for (size_t i = 0; i < impl_->prefix.size() && i < out.size(); ++i)
            out[i].addedByTokenizer = true;
        for (size_t i = 0; i < impl_->suffix.size() && i < out.size(); ++i)
            out[out.size() - 1 - i].addedByTokenizer = true;
    }
    return out;
}

Token HfTokenizer::token(int64_t id) const {
    if (id < 0 || id >= impl_->size)
        throw std::out_of_range("token id " + std::to_string(id) + " is outside the vocabulary");
    Token t;
    t.id = id;
    t.bytes = impl_->bytesById[size_t(id)];
    if (utf8::isValid(t.bytes)) {
        t.display = t.bytes;
    } else {
        t.partialUtf8 = true;
        for (size_t i = 0; i < t.bytes.size(); ++i) {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(t.bytes[i]));
            t.display += (i ? " " : "") + std::string(hex);
        }
    }
    return t;
}

int64_t HfTokenizer::vocabSize() const {
    return impl_->size;
}

int64_t HfTokenizer::maxTextBytesPerToken() const {
    if (impl_->fuseUnk)
        return -1;
    for (const AddedToken& t : impl_->added)
        if (t.lstrip || t.rstrip)
            return -1;
    size_t longest = 1;
    for (const std::string& b : impl_->bytesById)
        longest = std::max(longest, b.size());
    return int64_t(longest) * (impl_->normalizer ? 4 : 1);
}

int64_t HfTokenizer::modelVocabSize() const {
    return impl_->modelSize;
}

bool HfTokenizer::isSpecial(int64_t id) const {
    return id >= 0 && id < impl_->size && impl_->specialById[size_t(id)];
}

int64_t HfTokenizer::addedAtStart() const {
    return impl_->prefix.empty() ? -1 : impl_->prefix.front();
}

std::string HfTokenizer::description() const {
    return impl_->byteLevel      ? "BPE, byte-level"
           : impl_->byteFallback ? "BPE with byte fallback"
                                 : "BPE";
}

}  // namespace attn

#include "io/json_reader.h"

#include <QUtf8StringView>

#include "engine/config.h"
#include "io/text_format.h"

namespace attn::io {

const JsonValue* JsonValue::member(std::string_view key) const {
    for (const auto& [name, value] : members)
        if (name == key)
            return &value;
    return nullptr;
}

std::string jsonTypeName(JsonValue::Type type) {
    switch (type) {
        case JsonValue::Type::Null:
            return "null";
        case JsonValue::Type::Bool:
            return "a boolean";
        case JsonValue::Type::Number:
            return "a number";
        case JsonValue::Type::String:
            return "a string";
        case JsonValue::Type::Array:
            return "an array";
        case JsonValue::Type::Object:
            return "an object";
    }
    return "a value";
}

MessagePart jsonTypePart(JsonValue::Type type) {
    return {jsonTypeName(type), {}};
}

JsonReader::JsonReader(std::string_view text, std::string source)
    : text_(text), source_(std::move(source)) {
    // A UTF-8 byte order mark is not JSON, but editors on Windows add it.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF")
        pos_ = 3;
}

namespace {

// Line and column (from 1) of byte `pos`.
std::pair<size_t, size_t> lineAndColumn(std::string_view text, size_t pos) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

}  // namespace

void JsonReader::failAt(size_t pos, const std::string& message) const {
    const auto [line, column] = lineAndColumn(text_, pos);
    throw UserError("file", source_ + ": " + message + " (line " + std::to_string(line) +
                                ", column " + std::to_string(column) + ")");
}

// A message in pieces is translated whole, its place included; one given whole stays English
// whole (a German place after an English sentence would read as neither).
void JsonReader::failAt(size_t pos, std::vector<MessagePart> parts) const {
    const auto [line, column] = lineAndColumn(text_, pos);
    parts.insert(parts.begin(), MessagePart{"%1: ", {source_}});
    parts.push_back({" (line %1, column %2)", {std::to_string(line), std::to_string(column)}});
    throw UserError("file", std::move(parts));
}

std::string JsonReader::pathText(const std::string& label, const std::vector<int64_t>& path) {
    if (path.empty()) {
        if (label == "element ")
            return "the value";
        return label;
    }
    std::string s = label;
    for (int64_t i : path) {
        s += '[';
        s += std::to_string(i);
        s += ']';
    }
    return s;
}

void JsonReader::skipWhitespace() {
    while (pos_ < text_.size()) {
        char c = text_[pos_];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            ++pos_;
        else
            break;
    }
}

bool JsonReader::atEnd() {
    skipWhitespace();
    return pos_ >= text_.size();
}

char JsonReader::peek() {
    skipWhitespace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
}

bool JsonReader::consume(char c) {
    if (peek() == c) {
        ++pos_;
        return true;
    }
    return false;
}

void JsonReader::expect(char c, const char* what) {
    if (consume(c))
        return;
    if (pos_ >= text_.size())
        fail({{"the file ends early, expected ", {}}, {what, {}}});
    fail({{"expected ", {}}, {what, {}}, {" but found '%1'", {std::string(1, text_[pos_])}}});
}

void JsonReader::expectEnd() {
    if (!atEnd())
        fail({{"unexpected '%1' after the end of the JSON value", {std::string(1, text_[pos_])}}});
}

namespace {

void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

}  // namespace

std::string JsonReader::parseString() {
    if (peek() != '"') {
        if (pos_ >= text_.size())
            fail({{"the file ends early, expected a string", {}}});
        fail(
            {{"expected a string in double quotes but found '%1'", {std::string(1, text_[pos_])}}});
    }
    size_t start = pos_++;
    std::string out;
    auto hex4 = [&](size_t at) -> uint32_t {
        if (at + 4 > text_.size())
            failAt(at, "the file ends inside a \\u escape");
        uint32_t v = 0;
        for (size_t k = 0; k < 4; ++k) {
            char c = text_[at + k];
            v <<= 4;
            if (isDigit(c))
                v |= static_cast<uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= static_cast<uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= static_cast<uint32_t>(c - 'A' + 10);
            else
                failAt(at, "\\u must be followed by 4 hex digits");
        }
        return v;
    };
    while (true) {
        if (pos_ >= text_.size())
            failAt(start, {{"a string is not closed (missing '\"')", {}}});
        char c = text_[pos_];
        if (c == '"') {
            ++pos_;
            // RFC 8259 text is UTF-8; a name with other bytes could not be written back as the
            // same name (the writers would put U+FFFD in its place).
            if (!QUtf8StringView(out).isValidUtf8())
                failAt(start,
                       "a string holds bytes that are not UTF-8 text (save the file as UTF-8)");
            return out;
        }
        if (static_cast<unsigned char>(c) < 0x20)
            fail({{"a control character (line break or tab) inside a string must be escaped", {}}});
        if (c != '\\') {
            out.push_back(c);
            ++pos_;
            continue;
        }
        if (pos_ + 1 >= text_.size())
            failAt(start, {{"a string is not closed (missing '\"')", {}}});
        char e = text_[pos_ + 1];
        pos_ += 2;
        switch (e) {
            case '"':
                out.push_back('"');
                break;
            case '\\':
                out.push_back('\\');
                break;
            case '/':
                out.push_back('/');
                break;
            case 'b':
                out.push_back('\b');
                break;
            case 'f':
                out.push_back('\f');
                break;
            case 'n':
                out.push_back('\n');
                break;
            case 'r':
                out.push_back('\r');
                break;
            case 't':
                out.push_back('\t');
                break;
            case 'u': {
                uint32_t cp = hex4(pos_);
                pos_ += 4;
                if (cp >= 0xD800 && cp <= 0xDBFF && pos_ + 6 <= text_.size() &&
                    text_[pos_] == '\\' && text_[pos_ + 1] == 'u') {
                    uint32_t low = hex4(pos_ + 2);
                    if (low >= 0xDC00 && low <= 0xDFFF) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        pos_ += 6;
                    }
                }
                if (cp >= 0xD800 && cp <= 0xDFFF)
                    cp = 0xFFFD;  // lone surrogate
                appendUtf8(out, cp);
                break;
            }
            default:
                failAt(pos_ - 2, std::string("unknown escape '\\") + e + "' in a string");
        }
    }
}

std::string_view JsonReader::parseNumberText() {
    size_t start = pos_;
    auto at = [&](size_t i) { return i < text_.size() ? text_[i] : '\0'; };
    size_t i = pos_;
    if (at(i) == '-')
        ++i;
    if (at(i) == '0') {
        ++i;
        if (isDigit(at(i)))
            failAt(start, "a number must not start with 0 (found leading zeros)");
    } else if (isDigit(at(i))) {
        while (isDigit(at(i)))
            ++i;
    } else {
        failAt(start, "expected a number");
    }
    if (at(i) == '.') {
        ++i;
        if (!isDigit(at(i)))
            failAt(start, "a number needs digits after the decimal point");
        while (isDigit(at(i)))
            ++i;
    }
    if (at(i) == 'e' || at(i) == 'E') {
        ++i;
        if (at(i) == '+' || at(i) == '-')
            ++i;
        if (!isDigit(at(i)))
            failAt(start, "a number needs digits after the exponent 'e'");
        while (isDigit(at(i)))
            ++i;
    }
    pos_ = i;
    return text_.substr(start, i - start);
}

std::string JsonReader::describeNonNumber() {
    std::string_view rest = text_.substr(pos_);
    if (rest.empty())
        return "";
    switch (rest[0]) {
        case '"':
            return "a string";
        case '{':
            return "an object";
        case '[':
            return "an array";
        case 't':
        case 'f':
            return "a boolean";
        case 'n':
            return "null";
        default:
            break;
    }
    if (rest.starts_with("NaN"))
        return "NaN";
    if (rest.starts_with("Infinity"))
        return "Infinity";
    if (rest.starts_with("-Infinity"))
        return "-Infinity";
    return "";
}

JsonValue JsonReader::parseValue(int depth) {
    if (depth > kMaxDepth)
        fail("values are nested more than " + std::to_string(kMaxDepth) + " levels deep");
    JsonValue v;
    char c = peek();
    if (c == '\0')
        fail({{"the file ends early, expected a value", {}}});
    if (c == '{') {
        ++pos_;
        v.type = JsonValue::Type::Object;
        if (consume('}'))
            return v;
        while (true) {
            std::string key = parseString();
            expect(':', "':' after an object key");
            JsonValue item = parseValue(depth + 1);
            v.members.emplace_back(std::move(key), std::move(item));
            if (consume(','))
                continue;
            expect('}', "',' or '}' in an object");
            return v;
        }
    }
    if (c == '[') {
        ++pos_;
        v.type = JsonValue::Type::Array;
        if (consume(']'))
            return v;
        while (true) {
            v.items.push_back(parseValue(depth + 1));
            if (consume(','))
                continue;
            expect(']', "',' or ']' in an array");
            return v;
        }
    }
    if (c == '"') {
        v.type = JsonValue::Type::String;
        v.text = parseString();
        return v;
    }
    std::string_view rest = text_.substr(pos_);
    if (rest.starts_with("true")) {
        pos_ += 4;
        v.type = JsonValue::Type::Bool;
        v.boolean = true;
        return v;
    }
    if (rest.starts_with("false")) {
        pos_ += 5;
        v.type = JsonValue::Type::Bool;
        return v;
    }
    if (rest.starts_with("null")) {
        pos_ += 4;
        return v;
    }
    if (c == '-' || isDigit(c)) {
        if (rest.starts_with("-Infinity"))
            fail("-Infinity is not valid JSON");
        v.type = JsonValue::Type::Number;
        v.text = std::string(parseNumberText());
        return v;
    }
    std::string what = describeNonNumber();
    if (!what.empty())
        fail(what + " is not valid JSON");
    fail({{"unexpected character '%1'", {std::string(1, c)}}});
}

Tensor JsonReader::parseTensor(const std::string& label) {
    shape_.clear();
    dims_ = -1;
    path_.clear();
    data_.clear();
    char c = peek();
    if (c == '[') {
        parseTensorLevel(0, label);
        return Tensor(shape_, std::move(data_));
    }
    if (c == '-' || isDigit(c)) {
        float value = parseTensorNumber(label);
        return Tensor(Shape{}, std::vector<float>{value});
    }
    if (c == '\0')
        fail("the file ends early, expected an array of numbers");
    std::string what = describeNonNumber();
    if (what.empty())
        fail(std::string("unexpected character '") + c + "'");
    fail(pathText(label, path_) + " is " + what + ", expected an array of numbers");
}

float JsonReader::parseTensorNumber(const std::string& label) {
    char c = peek();
    if (!(c == '-' || isDigit(c)) || text_.substr(pos_).starts_with("-Infinity")) {
        if (c == '\0')
            fail("the file ends early, expected a number");
        std::string what = describeNonNumber();
        if (what == "NaN" || what == "Infinity" || what == "-Infinity")
            fail(pathText(label, path_) + " is " + what +
                 "; only finite numbers are allowed (JSON has no NaN or Infinity)");
        if (what.empty())
            fail(std::string("unexpected character '") + c + "'");
        fail(pathText(label, path_) + " is " + what + ", expected a number");
    }
    size_t start = pos_;
    std::string_view num = parseNumberText();
    float value = 0.0f;
    if (parseFloat32(num, value) == FloatParse::TooLarge)
        failAt(start, pathText(label, path_) + " is " + std::string(num) +
                          ", too large for float32 (at most 3.4028235e+38)");
    return value;
}

void JsonReader::parseTensorLevel(size_t depth, const std::string& label) {
    if (depth >= static_cast<size_t>(kMaxTensorDims))
        fail("arrays are nested more than " + std::to_string(kMaxTensorDims) + " levels deep at " +
             pathText(label, path_) + "; at most " + std::to_string(kMaxTensorDims) +
             " dimensions are supported");
    size_t open = pos_;
    ++pos_;  // '['
    if (shape_.size() == depth)
        shape_.push_back(-1);
    int64_t count = 0;
    auto firstPath = [&] {
        std::vector<int64_t> p(path_.size(), 0);
        return p;
    };
    if (peek() != ']') {
        while (true) {
            path_.push_back(count);
            char c = peek();
            if (c == '[') {
                if (dims_ != -1 && static_cast<int64_t>(depth) + 1 >= dims_) {
                    std::vector<int64_t> first(path_.size(), 0);
                    fail(pathText(label, path_) + " is an array but " + pathText(label, first) +
                         " is a number; every row must be nested the same way");
                }
                parseTensorLevel(depth + 1, label);
            } else {
                if (dims_ == -1)
                    dims_ = static_cast<int64_t>(depth) + 1;
                if (static_cast<int64_t>(depth) + 1 != dims_) {
                    std::vector<int64_t> first(path_.size(), 0);
                    std::string what = describeNonNumber();
                    if (what.empty() || what == "NaN" || what == "Infinity" || what == "-Infinity")
                        what = "a number";
                    fail(pathText(label, path_) + " is " + what + " but " + pathText(label, first) +
                         " is an array; every row must be nested the same way");
                }
                data_.push_back(parseTensorNumber(label));
            }
            path_.pop_back();
            ++count;
            if (consume(','))
                continue;
            if (peek() == ']')
                break;
            if (pos_ >= text_.size())
                failAt(open, "an array is not closed (missing ']')");
            fail(std::string("expected ',' or ']' in an array but found '") + text_[pos_] + "'");
        }
    } else if (dims_ == -1) {
        dims_ = static_cast<int64_t>(depth) + 1;
    }
    ++pos_;  // ']'
    if (shape_[depth] == -1) {
        shape_[depth] = count;
    } else if (shape_[depth] != count) {
        failAt(open, "ragged array: " + pathText(label, path_) + " has " + std::to_string(count) +
                         " entries but " + pathText(label, firstPath()) + " has " +
                         std::to_string(shape_[depth]) + "; every row must have the same length");
    }
}

}  // namespace attn::io

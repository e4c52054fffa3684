#pragma once
// A strict JSON reader (RFC 8259) with messages that name the file, the line and the column.
// Nested number arrays are read straight into a Tensor without building a tree, so a large
// embeddings or weights file costs little more memory than its floats.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/config.h"
#include "engine/tensor.h"

namespace attn::io {

struct JsonValue {
    enum class Type { Null, Bool, Number, String, Array, Object };
    Type type = Type::Null;
    bool boolean = false;
    std::string text;  // a string's value, or a number's exact spelling
    std::vector<JsonValue> items;
    std::vector<std::pair<std::string, JsonValue>> members;  // in file order

    // User-provided so that clang with libstdc++ accepts the pair of a still-incomplete type.
    JsonValue() noexcept {}
    const JsonValue* member(std::string_view key) const;
};

// "a string", "an array", ... for messages.
std::string jsonTypeName(JsonValue::Type type);
// The same as a translatable part of a message (pipeline/issue_text.cpp lists the names).
MessagePart jsonTypePart(JsonValue::Type type);

class JsonReader {
  public:
    // `source` names the file in messages ("weights.json"). `text` is not copied: it must
    // outlive the reader.
    JsonReader(std::string_view text, std::string source);

    // Deepest nesting parseValue accepts; deeper input is an error, not a stack overflow.
    static constexpr int kMaxDepth = 64;
    // Most dimensions parseTensor accepts.
    static constexpr int kMaxTensorDims = 8;

    void skipWhitespace();
    bool atEnd();
    char peek();  // after skipWhitespace; '\0' at the end
    bool consume(char c);
    void expect(char c, const char* what);
    // Fails unless only whitespace is left.
    void expectEnd();

    std::string parseString();
    JsonValue parseValue(int depth = 0);
    // A number or nested arrays of numbers, at most kMaxTensorDims deep, rectangular, finite
    // and inside the float32 range. `label` names the value in messages: "element " gives
    // "element [0][2] is a string, expected a number"; "W_query.weight" gives
    // "W_query.weight[0][2] is ...".
    Tensor parseTensor(const std::string& label);

    size_t position() const { return pos_; }
    [[noreturn]] void fail(const std::string& message) const { failAt(pos_, message); }
    [[noreturn]] void failAt(size_t pos, const std::string& message) const;
    // The same in translatable parts (pipeline/issue_text.cpp lists their formats).
    [[noreturn]] void fail(std::vector<MessagePart> parts) const { failAt(pos_, std::move(parts)); }
    [[noreturn]] void failAt(size_t pos, std::vector<MessagePart> parts) const;
    // "W_query.weight[1][0]" for messages.
    static std::string pathText(const std::string& label, const std::vector<int64_t>& path);

  private:
    std::string_view parseNumberText();
    // Describes the value starting at pos_ that is not a number ("a string", "NaN", ...).
    std::string describeNonNumber();
    void parseTensorLevel(size_t depth, const std::string& label);
    float parseTensorNumber(const std::string& label);

    std::string_view text_;
    std::string source_;
    size_t pos_ = 0;
    // parseTensor state
    Shape shape_;
    int64_t dims_ = -1;  // known once the first number (or an empty array) is seen
    std::vector<int64_t> path_;
    std::vector<float> data_;
};

}  // namespace attn::io

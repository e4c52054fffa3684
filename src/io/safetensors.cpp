#include "io/safetensors.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include <QStringDecoder>
#include "engine/config.h"
#include "engine/half.h"
#include "io/file_io.h"
#include "io/little_endian.h"
#include "io/stored_tensor.h"

#include "io/json_reader.h"
#include "io/text_format.h"

namespace attn::io {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& message) {
    throw UserError("file", source + ": " + message);
}

// The same in translatable parts (pipeline/issue_text.cpp lists their formats).
[[noreturn]] void fail(const std::string& source, MessagePart part) {
    throw UserError("file", {{"%1: ", {source}}, std::move(part)});
}

// What parseSafetensors converts to float32.
bool convertible(const std::string& dtype) {
    return dtype == "F32" || dtype == "F16" || dtype == "BF16" || dtype == "F64" || dtype == "BOOL";
}

bool parseUnsigned(const JsonValue& v, uint64_t& out) {
    if (v.type != JsonValue::Type::Number)
        return false;
    auto r = std::from_chars(v.text.data(), v.text.data() + v.text.size(), out);
    return r.ec == std::errc() && r.ptr == v.text.data() + v.text.size();
}

}  // namespace

SafetensorsHeader parseSafetensorsHeader(std::string_view bytes, const std::string& source) {
    if (bytes.size() < 8)
        fail(source, MessagePart{"the file is truncated: it is %1 bytes, shorter than the 8-byte "
                                 "header length",
                                 {std::to_string(bytes.size())}});
    const uint64_t headerLength = loadLe<uint64_t>(bytes.data());
    const uint64_t afterLength = bytes.size() - 8;
    if (headerLength > afterLength)
        fail(source, MessagePart{"the header length says %1 bytes but the file has only %2 bytes "
                                 "after it; the file is truncated or not a safetensors file",
                                 {std::to_string(headerLength), std::to_string(afterLength)}});
    if (headerLength < 2)
        fail(source, "the header length is " + std::to_string(headerLength) +
                         " bytes, too short for a JSON header");
    const std::string_view headerText = bytes.substr(8, headerLength);
    if (headerText.front() != '{')
        fail(source,
             MessagePart{"the header does not start with '{'; this is not a safetensors file", {}});
    // The format's header is UTF-8 JSON; names with invalid bytes could not be written back.
    {
        QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
        const QString decoded =
            utf8(QByteArrayView(headerText.data(), qsizetype(headerText.size())));
        if (utf8.hasError())
            fail(source, "the header is not valid UTF-8; the file is corrupt");
    }
    JsonReader reader(headerText, source + " header");
    JsonValue header = reader.parseValue();
    reader.expectEnd();
    if (header.type != JsonValue::Type::Object)
        fail(source, "the header must be a JSON object, found " + jsonTypeName(header.type));

    const std::string_view buffer = bytes.substr(8 + headerLength);
    SafetensorsHeader file;
    file.dataStart = 8 + headerLength;
    std::vector<SafetensorsEntry>& entries = file.entries;
    std::set<std::string> names;
    for (const auto& [name, value] : header.members) {
        if (!names.insert(name).second)
            fail(source, "the header names " + name + " twice");
        if (name == "__metadata__") {
            if (value.type != JsonValue::Type::Object)
                fail(source, "__metadata__ must be an object of strings, found " +
                                 jsonTypeName(value.type));
            for (const auto& [key, item] : value.members) {
                if (item.type != JsonValue::Type::String)
                    fail(source, "__metadata__." + key + " must be a string, found " +
                                     jsonTypeName(item.type));
                file.metadata[key] = item.text;
            }
            continue;
        }
        if (value.type != JsonValue::Type::Object)
            fail(source, name + " must be an object with dtype, shape and data_offsets, found " +
                             jsonTypeName(value.type));
        SafetensorsEntry entry;
        entry.name = name;
        const JsonValue* dtype = value.member("dtype");
        const JsonValue* shape = value.member("shape");
        const JsonValue* offsets = value.member("data_offsets");
        if (!dtype || !shape || !offsets)
            fail(source, name + " lacks \"" +
                             (!dtype   ? "dtype"
                              : !shape ? "shape"
                                       : "data_offsets") +
                             "\"");
        if (dtype->type != JsonValue::Type::String)
            fail(source, name + ": dtype must be a string, found " + jsonTypeName(dtype->type));
        entry.dtype = dtype->text;
        const int itemSize = dtypeSize(entry.dtype);
        if (itemSize == 0)
            fail(source, name + " has dtype " + entry.dtype +
                             ", which is not a safetensors dtype; the file is corrupt");
        if (shape->type != JsonValue::Type::Array)
            fail(source,
                 name + ": shape must be an array of integers, found " + jsonTypeName(shape->type));
        // Element count with overflow checks: the shape comes from the file.
        uint64_t count = 1;
        bool overflow = false;
        for (const JsonValue& d : shape->items) {
            uint64_t n = 0;
            if (!parseUnsigned(d, n) || n > uint64_t(std::numeric_limits<int64_t>::max()))
                fail(source,
                     name + ": shape must hold non-negative integers, found " +
                         (d.type == JsonValue::Type::Number ? d.text : jsonTypeName(d.type)));
            entry.shape.push_back(static_cast<int64_t>(n));
            if (n != 0 && count > std::numeric_limits<uint64_t>::max() / n)
                overflow = true;
            else
                count *= n;
        }
        if (offsets->type != JsonValue::Type::Array || offsets->items.size() != 2 ||
            !parseUnsigned(offsets->items[0], entry.begin) ||
            !parseUnsigned(offsets->items[1], entry.end))
            fail(source, name + ": data_offsets must be [begin, end], two non-negative integers");
        if (entry.begin > entry.end)
            fail(source, name + ": data_offsets [" + std::to_string(entry.begin) + ", " +
                             std::to_string(entry.end) + "] end before they begin");
        if (entry.end > buffer.size())
            fail(source, name + ": data_offsets [" + std::to_string(entry.begin) + ", " +
                             std::to_string(entry.end) + "] reach past the end of the data (" +
                             std::to_string(buffer.size()) +
                             " bytes); the file is truncated or corrupt");
        overflow = overflow || !shapeIsRepresentable(entry.shape);
        if (overflow || count > std::numeric_limits<uint64_t>::max() / uint64_t(itemSize) ||
            count * uint64_t(itemSize) != entry.end - entry.begin)
            fail(source,
                 name + " has shape " + shapeToString(entry.shape) + " of " + entry.dtype +
                     (overflow ? std::string(", far more data than the file holds")
                               : ", which needs " + std::to_string(count * uint64_t(itemSize)) +
                                     " bytes") +
                     ", but its data_offsets [" + std::to_string(entry.begin) + ", " +
                     std::to_string(entry.end) + "] span " +
                     std::to_string(entry.end - entry.begin) + " bytes");
        entries.push_back(std::move(entry));
    }

    // No two tensors may share bytes.
    std::vector<const SafetensorsEntry*> sorted;
    for (const SafetensorsEntry& e : entries)
        if (e.end > e.begin)
            sorted.push_back(&e);  // empty tensors occupy no bytes
    std::sort(sorted.begin(), sorted.end(),
              [](const SafetensorsEntry* a, const SafetensorsEntry* b) {
                  return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
              });
    for (size_t i = 1; i < sorted.size(); ++i) {
        const SafetensorsEntry& a = *sorted[i - 1];
        const SafetensorsEntry& b = *sorted[i];
        if (b.begin < a.end)
            fail(source, "the data of " + a.name + " [" + std::to_string(a.begin) + ", " +
                             std::to_string(a.end) + ") and " + b.name + " [" +
                             std::to_string(b.begin) + ", " + std::to_string(b.end) +
                             ") overlap; the file is corrupt");
    }
    return file;
}

SafetensorsFile parseSafetensors(std::string_view bytes, const std::string& source) {
    SafetensorsHeader header = parseSafetensorsHeader(bytes, source);
    for (const SafetensorsEntry& e : header.entries)
        if (!convertible(e.dtype))
            fail(source, e.name + " has dtype " + e.dtype +
                             ", which is not supported; use F32, F16, BF16 or F64");
    const std::string_view buffer = bytes.substr(header.dataStart);
    SafetensorsFile file;
    file.metadata = std::move(header.metadata);
    for (const SafetensorsEntry& e : header.entries) {
        const int itemSize = dtypeSize(e.dtype);
        const size_t count = static_cast<size_t>((e.end - e.begin) / uint64_t(itemSize));
        const char* p = buffer.data() + e.begin;
        // Every range was checked against the buffer above, so allocating now is safe.
        Tensor tensor = Tensor::uninitialized(e.shape);
        float* values = tensor.mutableData();
        if (e.dtype == "F32") {
            if (count)
                std::memcpy(values, p, count * 4);
        } else if (e.dtype == "F16") {
            for (size_t i = 0; i < count; ++i)
                values[i] = halfToFloat(loadLe<uint16_t>(p + 2 * i));
        } else if (e.dtype == "BF16") {
            for (size_t i = 0; i < count; ++i)
                values[i] = bfloat16ToFloat(loadLe<uint16_t>(p + 2 * i));
        } else if (e.dtype == "F64") {
            for (size_t i = 0; i < count; ++i)
                values[i] = static_cast<float>(loadLe<double>(p + 8 * i));
        } else {  // BOOL
            for (size_t i = 0; i < count; ++i)
                values[i] = p[i] ? 1.0f : 0.0f;
        }
        file.tensors[e.name] = std::move(tensor);
    }
    return file;
}

StoredTensors readSafetensorsTensors(const SharedBytes& file, const std::string& source) {
    SafetensorsHeader header = parseSafetensorsHeader(file.bytes, source);
    StoredTensors out;
    out.metadata = std::move(header.metadata);
    for (SafetensorsEntry& e : header.entries) {
        StoredTensor t;
        t.dtype = e.dtype;
        t.strides.resize(e.shape.size());
        int64_t stride = 1;
        for (size_t i = e.shape.size(); i-- > 0;) {
            t.strides[i] = stride;
            stride *= e.shape[i];
        }
        t.shape = std::move(e.shape);
        t.data = file.bytes.data() + header.dataStart + e.begin;
        t.owner = file.owner;
        out.tensors.emplace_back(std::move(e.name), std::move(t));
    }
    return out;
}

SafetensorsFile readSafetensors(const std::string& path) {
    return parseSafetensors(readFileBytes(path), fileDisplayName(path));
}

std::string safetensorsBytes(const WeightMap& tensors,
                             const std::map<std::string, std::string>& metadata) {
    std::string header = "{";
    bool first = true;
    if (!metadata.empty()) {
        header += "\"__metadata__\":{";
        for (const auto& [key, value] : metadata) {
            if (!first)
                header += ",";
            first = false;
            appendJsonString(header, key);
            header += ":";
            appendJsonString(header, value);
        }
        header += "}";
        first = false;
    }
    uint64_t offset = 0;
    for (const auto& [name, tensor] : tensors) {
        if (name == "__metadata__")
            throw UserError("output",
                            "a tensor cannot be named __metadata__ in a safetensors file");
        if (tensor.empty())
            throw UserError("output", "the tensor " + name + " holds no data");
        const uint64_t bytes = uint64_t(tensor.numel()) * 4;
        if (!first)
            header += ",";
        first = false;
        appendJsonString(header, name);
        header += ":{\"dtype\":\"F32\",\"shape\":[";
        for (size_t i = 0; i < tensor.shape().size(); ++i) {
            if (i)
                header += ",";
            header += std::to_string(tensor.shape()[i]);
        }
        header += "],\"data_offsets\":[" + std::to_string(offset) + "," +
                  std::to_string(offset + bytes) + "]}";
        offset += bytes;
    }
    header += "}";
    // Pad so the data starts 8-byte aligned, as the reference writer does.
    header.append((8 - header.size() % 8) % 8, ' ');

    std::string out;
    out.reserve(8 + header.size() + offset);
    const uint64_t length = header.size();
    char lengthBytes[8];
    std::memcpy(lengthBytes, &length, 8);
    out.append(lengthBytes, 8);
    out += header;
    for (const auto& [name, tensor] : tensors) {
        if (tensor.numel() == 0)
            continue;
        const Tensor c = tensor.contiguous();
        out.append(reinterpret_cast<const char*>(c.data()), static_cast<size_t>(c.numel()) * 4);
    }
    return out;
}

void writeSafetensors(const std::string& path, const WeightMap& tensors,
                      const std::map<std::string, std::string>& metadata) {
    writeFileAtomically(path, safetensorsBytes(tensors, metadata));
}

}  // namespace attn::io

#pragma once
// Hugging Face safetensors: an 8-byte little-endian header length, a JSON header
// {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}} and the data.
// https://github.com/huggingface/safetensors#format

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/trace.h"
#include "io/mapped_file.h"
#include "io/stored_tensor.h"

namespace attn::io {

// One tensor of the header: its dtype as the format spells it ("F32", "BF16", "I64", ...),
// shape, and byte range relative to the start of the data.
struct SafetensorsEntry {
    std::string name;
    std::string dtype;
    Shape shape;
    uint64_t begin = 0;
    uint64_t end = 0;
};

struct SafetensorsHeader {
    std::vector<SafetensorsEntry> entries;        // in header order
    std::map<std::string, std::string> metadata;  // "__metadata__", string values only
    uint64_t dataStart = 0;                       // offset of the data in the file
};

// The header alone, every dtype the format defines, every size and range checked against the
// file (no overlaps) without reading any tensor data. Throws attn::UserError("file",
// "<source>: ...").
SafetensorsHeader parseSafetensorsHeader(std::string_view bytes, const std::string& source);

// Every tensor of the file as it lies in `file` (nothing is read or copied) and the metadata.
StoredTensors readSafetensorsTensors(const SharedBytes& file, const std::string& source);

struct SafetensorsFile {
    WeightMap tensors;
    std::map<std::string, std::string> metadata;  // "__metadata__", string values only
};

// F32, F16, BF16 and F64 (converted to float32), and BOOL (0/1, as some state_dicts store the
// causal mask). Every size and offset is checked against the file before anything is
// allocated. Throws attn::UserError("file", "<source>: ...").
SafetensorsFile parseSafetensors(std::string_view bytes, const std::string& source);
SafetensorsFile readSafetensors(const std::string& path);

// F32, names in sorted order, data contiguous in that order, header padded with spaces to a
// multiple of 8 bytes (as the reference implementation does).
std::string safetensorsBytes(const WeightMap& tensors,
                             const std::map<std::string, std::string>& metadata = {});
void writeSafetensors(const std::string& path, const WeightMap& tensors,
                      const std::map<std::string, std::string>& metadata = {});

}  // namespace attn::io

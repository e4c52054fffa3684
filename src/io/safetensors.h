#pragma once
// Hugging Face safetensors: an 8-byte little-endian header length, a JSON header
// {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}} and the data.
// https://github.com/huggingface/safetensors#format

#include <map>
#include <string>
#include <string_view>

#include "engine/trace.h"

namespace attn::io {

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

#include "io/torch_file.h"

#include <map>
#include <set>

#include "engine/config.h"
#include "io/torch_pickle.h"
#include "io/zip.h"

namespace attn::io {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& message) {
    throw UserError("file", source + ": " + message);
}

// The same in translatable parts (pipeline/issue_text.cpp lists their formats).
[[noreturn]] void fail(const std::string& source, MessagePart part) {
    throw UserError("file", {{"%1: ", {source}}, std::move(part)});
}

// PyTorch before 1.6 wrote a bare pickle stream that starts with PROTO 2 and the LONG1 magic
// number 0x1950a86a20f9469cfc6c.
constexpr std::string_view kLegacyMagic =
    "\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19";

const std::string kRepacked =
    "torch.save never compresses its records, so the file was re-packed by another tool; "
    "save it again with torch.save";

// offset + sum((size_i - 1) * stride_i) + 1 elements, or -1 when that overflows.
int64_t extentOf(const PickledTensor& t) {
    if (shapeNumel(t.shape) == 0)
        return 0;
    int64_t last = t.offset;
    for (size_t i = 0; i < t.shape.size(); ++i) {
        int64_t step = 0;
        if (__builtin_mul_overflow(t.shape[i] - 1, t.strides[i], &step) ||
            __builtin_add_overflow(last, step, &last))
            return -1;
    }
    return last == INT64_MAX ? -1 : last + 1;
}

}  // namespace

bool looksLikeTorchFile(std::string_view bytes) {
    return bytes.starts_with("PK\x03\x04") || bytes.starts_with(kLegacyMagic.substr(0, 4));
}

StoredTensors readTorchArchive(const SharedBytes& file, const std::string& source) {
    const std::string_view bytes = file.bytes;
    if (bytes.starts_with(kLegacyMagic.substr(0, 4)))
        fail(source, MessagePart{"this is a PyTorch file in the legacy format of PyTorch before "
                                 "1.6, which is not read; save it again with a current "
                                 "torch.save, or use the model's .safetensors file",
                                 {}});
    const std::vector<ZipEntry> entries =
        readZipDirectory(bytes, source, "a PyTorch (torch.save) file");
    std::map<std::string, const ZipEntry*> byName;
    const ZipEntry* pickle = nullptr;
    for (const ZipEntry& e : entries) {
        if (!byName.emplace(e.name, &e).second)
            fail(source, "the archive holds two records named " + e.name + "; the file is corrupt");
        const size_t slash = e.name.find('/');
        if (slash != std::string::npos && e.name.substr(slash + 1) == "data.pkl") {
            if (pickle)
                fail(source, "the archive holds two state_dict pickles (" + pickle->name + " and " +
                                 e.name + "); a torch.save file holds one");
            pickle = &e;
        }
    }
    if (!pickle)
        fail(source, MessagePart{"the archive holds no <name>/data.pkl, so torch.save did not "
                                 "write it; save the state_dict with "
                                 "torch.save(model.state_dict(), path)",
                                 {}});
    const std::string prefix = pickle->name.substr(0, pickle->name.size() - 8);
    if (auto it = byName.find(prefix + "byteorder"); it != byName.end()) {
        const std::string_view order = zipEntryData(bytes, *it->second, source, true, kRepacked);
        if (order != "little")
            fail(source, "the storages are stored " + std::string(order.substr(0, 16)) +
                             "-endian; only little-endian files are read (save it again on a "
                             "little-endian machine, e.g. any x86-64 or ARM computer)");
    }
    const std::string_view pkl = zipEntryData(bytes, *pickle, source, true, kRepacked);
    // The storages' CRC-32s are not checked: that would read the whole file before the first
    // forward. The model reader checks every weight it converts for non-finite values instead.
    const PickledStateDict dict = parseStateDictPickle(pkl, source);

    StoredTensors out;
    std::set<std::string> names;
    for (const auto& [name, t] : dict) {
        if (!names.insert(name).second)
            fail(source, "the state_dict names " + name + " twice");
        const std::string record = prefix + "data/" + t.storageKey;
        auto it = byName.find(record);
        if (it == byName.end())
            fail(source, name + " is stored in " + record +
                             ", which the archive lacks; the "
                             "file is truncated or corrupt");
        const ZipEntry& entry = *it->second;
        const std::string_view data = zipEntryData(bytes, entry, source, false, kRepacked);
        const int item = dtypeSize(t.dtype);
        if (!shapeIsRepresentable(t.shape))
            fail(source, name + " has shape " + shapeToString(t.shape) +
                             ", far more data than any file holds; the file is corrupt");
        if (uint64_t(t.storageElements) > data.size() / uint64_t(item))
            fail(source, name + ": its storage " + record + " should hold " +
                             std::to_string(t.storageElements) + " elements of " + t.dtype +
                             " but has only " + std::to_string(data.size()) +
                             " bytes; the file is truncated or corrupt");
        const int64_t extent = extentOf(t);
        if (extent < 0 || extent > t.storageElements)
            fail(source, name + " (shape " + shapeToString(t.shape) + ", offset " +
                             std::to_string(t.offset) +
                             ") reaches past the end of its storage of " +
                             std::to_string(t.storageElements) + " elements; the file is corrupt");
        StoredTensor s;
        s.dtype = t.dtype;
        s.shape = t.shape;
        s.strides = t.strides;
        s.data = data.data() + (shapeNumel(t.shape) == 0 ? 0 : t.offset * item);
        s.owner = file.owner;
        out.tensors.emplace_back(name, std::move(s));
    }
    return out;
}

}  // namespace attn::io

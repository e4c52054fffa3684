#include "io/zip.h"

#include <array>

#include "engine/config.h"
#include "io/little_endian.h"

namespace attn::io {

namespace {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kEnd64Sig = 0x06064b50;
constexpr uint32_t kEnd64LocatorSig = 0x07064b50;
constexpr uint16_t kZip64ExtraId = 0x0001;
constexpr uint32_t kMax32 = 0xFFFFFFFFu;
// 1980-01-01 00:00, the earliest DOS date: a fixed time keeps exports byte-reproducible.
constexpr uint16_t kDosTime = 0;
constexpr uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;

[[noreturn]] void fail(const std::string& source, const std::string& message) {
    throw UserError("file", source + ": " + message);
}

bool isAscii(std::string_view s) {
    for (unsigned char c : s)
        if (c >= 0x80)
            return false;
    return true;
}

// CRC-32 tables for slicing by 8 bytes: table[k][b] is the CRC of byte b followed by k zero
// bytes, so eight bytes cost eight lookups and no dependency chain between them.
using CrcTables = std::array<std::array<uint32_t, 256>, 8>;
const CrcTables& crcTables() {
    static const CrcTables tables = [] {
        CrcTables t{};
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[0][i] = c;
        }
        for (uint32_t i = 0; i < 256; ++i)
            for (size_t k = 1; k < 8; ++k)
                t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
        return t;
    }();
    return tables;
}

struct EndRecord {
    uint64_t entries = 0;
    uint64_t centralSize = 0;
    uint64_t centralOffset = 0;
    uint64_t centralLimit = 0;  // the central directory must end by here
};

EndRecord readEndRecord(std::string_view bytes, const std::string& source,
                        const std::string& what) {
    const uint64_t size = bytes.size();
    if (size < 22)
        fail(source, "this is not " + what + ": it is too short");
    // The end record is the last 22 bytes plus a comment of up to 65535 bytes.
    size_t end = std::string_view::npos;
    const size_t lowest = size > 22 + 65535 ? size - 22 - 65535 : 0;
    for (size_t i = size - 22 + 1; i-- > lowest;) {
        if (loadLe<uint32_t>(bytes.data() + i) == kEndSig) {
            end = i;
            break;
        }
    }
    if (end == std::string_view::npos)
        fail(source, "this is not " + what + ": its end-of-archive record is missing");
    const char* e = bytes.data() + end;
    EndRecord r;
    r.entries = loadLe<uint16_t>(e + 10);
    r.centralSize = loadLe<uint32_t>(e + 12);
    r.centralOffset = loadLe<uint32_t>(e + 16);
    r.centralLimit = end;
    if (r.entries == 0xFFFF || r.centralSize == kMax32 || r.centralOffset == kMax32) {
        // ZIP64: a locator just before the end record points at the 56-byte ZIP64 end record.
        if (end < 20 || loadLe<uint32_t>(e - 20) != kEnd64LocatorSig)
            fail(source, "the archive's ZIP64 end locator is missing; the file is corrupt");
        const uint64_t at = loadLe<uint64_t>(e - 20 + 8);
        if (at > end - 20 || end - 20 - at < 56 || loadLe<uint32_t>(bytes.data() + at) != kEnd64Sig)
            fail(source,
                 "the archive's ZIP64 end record is missing or damaged; the file is "
                 "corrupt or truncated");
        const char* z = bytes.data() + at;
        r.entries = loadLe<uint64_t>(z + 32);
        r.centralSize = loadLe<uint64_t>(z + 40);
        r.centralOffset = loadLe<uint64_t>(z + 48);
        r.centralLimit = at;
    }
    if (r.centralOffset > r.centralLimit || r.centralSize > r.centralLimit - r.centralOffset)
        fail(source,
             "the ZIP central directory lies outside the file; the file is corrupt or truncated");
    return r;
}

// Replaces the 32-bit fields that say "see ZIP64" (all ones) with the values of the entry's
// ZIP64 extra field, which holds exactly those, in this order.
bool applyZip64Extra(std::string_view extra, uint64_t& size, uint64_t& compressed,
                     uint64_t& offset) {
    size_t p = 0;
    while (p + 4 <= extra.size()) {
        const uint16_t id = loadLe<uint16_t>(extra.data() + p);
        const uint16_t length = loadLe<uint16_t>(extra.data() + p + 2);
        if (p + 4 + length > extra.size())
            return false;
        if (id == kZip64ExtraId) {
            const char* f = extra.data() + p + 4;
            size_t left = length;
            for (uint64_t* field : {&size, &compressed, &offset}) {
                if (*field != kMax32)
                    continue;
                if (left < 8)
                    return false;
                *field = loadLe<uint64_t>(f);
                f += 8;
                left -= 8;
            }
            return true;
        }
        p += 4 + size_t(length);
    }
    return size != kMax32 && compressed != kMax32 && offset != kMax32;
}

}  // namespace

uint32_t crc32(std::string_view bytes) {
    const CrcTables& t = crcTables();
    uint32_t c = 0xFFFFFFFFu;
    const char* p = bytes.data();
    size_t n = bytes.size();
    while (n >= 8) {
        const uint32_t lo = loadLe<uint32_t>(p) ^ c;
        const uint32_t hi = loadLe<uint32_t>(p + 4);
        c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^
            t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^ t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n--)
        c = t[0][(c ^ static_cast<unsigned char>(*p++)) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

std::vector<ZipEntry> readZipDirectory(std::string_view bytes, const std::string& source,
                                       const std::string& what) {
    const EndRecord end = readEndRecord(bytes, source, what);
    // Every central entry takes at least 46 bytes, which bounds a count read from the file.
    if (end.entries > end.centralSize / 46)
        fail(source, "the ZIP central directory is damaged (it lists " +
                         std::to_string(end.entries) + " entries in " +
                         std::to_string(end.centralSize) + " bytes)");
    std::vector<ZipEntry> entries;
    entries.reserve(static_cast<size_t>(end.entries));
    uint64_t p = end.centralOffset;
    const uint64_t centralEnd = end.centralOffset + end.centralSize;
    for (uint64_t k = 0; k < end.entries; ++k) {
        const std::string damaged =
            "the ZIP central directory is damaged (entry " + std::to_string(k + 1) + ")";
        if (centralEnd - p < 46 || loadLe<uint32_t>(bytes.data() + p) != kCentralSig)
            fail(source, damaged);
        const char* c = bytes.data() + p;
        ZipEntry entry;
        entry.method = loadLe<uint16_t>(c + 10);
        entry.crc = loadLe<uint32_t>(c + 16);
        entry.compressedSize = loadLe<uint32_t>(c + 20);
        entry.size = loadLe<uint32_t>(c + 24);
        const uint16_t nameLength = loadLe<uint16_t>(c + 28);
        const uint16_t extraLength = loadLe<uint16_t>(c + 30);
        const uint16_t commentLength = loadLe<uint16_t>(c + 32);
        uint64_t localOffset = loadLe<uint32_t>(c + 42);
        if (centralEnd - p < 46 + uint64_t(nameLength) + extraLength)
            fail(source, damaged);
        entry.name = std::string(bytes.substr(p + 46, nameLength));
        const std::string_view extra = bytes.substr(p + 46 + nameLength, extraLength);
        p += 46 + uint64_t(nameLength) + extraLength + commentLength;
        if (p > centralEnd)
            fail(source, damaged);
        if (!applyZip64Extra(extra, entry.size, entry.compressedSize, localOffset))
            fail(source, "entry " + entry.name +
                             " says its sizes are in a ZIP64 field it lacks; the file is corrupt");
        if (entry.method == 0 && entry.compressedSize != entry.size)
            fail(source,
                 "entry " + entry.name + " is stored but its sizes differ; the file is corrupt");
        if (localOffset > bytes.size() || bytes.size() - localOffset < 30 ||
            loadLe<uint32_t>(bytes.data() + localOffset) != kLocalSig)
            fail(source, "entry " + entry.name + " points outside the file or to a damaged header");
        const char* l = bytes.data() + localOffset;
        entry.dataOffset =
            localOffset + 30 + loadLe<uint16_t>(l + 26) + uint64_t(loadLe<uint16_t>(l + 28));
        if (entry.dataOffset > bytes.size() ||
            entry.compressedSize > bytes.size() - entry.dataOffset)
            fail(source, "entry " + entry.name + " is truncated: it needs " +
                             std::to_string(entry.compressedSize) +
                             " bytes but the file ends first");
        entries.push_back(std::move(entry));
    }
    return entries;
}

std::string_view zipEntryData(std::string_view bytes, const ZipEntry& entry,
                              const std::string& source, bool checkCrc, const std::string& hint) {
    if (entry.method != 0)
        fail(source, "entry " + entry.name + " is compressed (ZIP method " +
                         std::to_string(entry.method) + "); " + hint);
    const std::string_view data = bytes.substr(entry.dataOffset, entry.compressedSize);
    if (checkCrc && crc32(data) != entry.crc)
        fail(source, "entry " + entry.name + " fails its CRC-32 check; the file is corrupt");
    return data;
}

void ZipWriter::add(const std::string& name, std::string_view data) {
    const uint32_t crc = crc32(data);
    const uint32_t offset = static_cast<uint32_t>(out_.size());
    const uint16_t flags = isAscii(name) ? 0 : (1 << 11);  // bit 11: UTF-8 names
    storeLe<uint32_t>(out_, kLocalSig);
    storeLe<uint16_t>(out_, 20);  // version needed: 2.0
    storeLe<uint16_t>(out_, flags);
    storeLe<uint16_t>(out_, 0);  // method: stored
    storeLe<uint16_t>(out_, kDosTime);
    storeLe<uint16_t>(out_, kDosDate);
    storeLe<uint32_t>(out_, crc);
    storeLe<uint32_t>(out_, static_cast<uint32_t>(data.size()));
    storeLe<uint32_t>(out_, static_cast<uint32_t>(data.size()));
    storeLe<uint16_t>(out_, static_cast<uint16_t>(name.size()));
    storeLe<uint16_t>(out_, 0);  // extra length
    out_ += name;
    out_ += data;

    storeLe<uint32_t>(central_, kCentralSig);
    storeLe<uint16_t>(central_, (3 << 8) | 20);  // made by: Unix, 2.0
    storeLe<uint16_t>(central_, 20);
    storeLe<uint16_t>(central_, flags);
    storeLe<uint16_t>(central_, 0);
    storeLe<uint16_t>(central_, kDosTime);
    storeLe<uint16_t>(central_, kDosDate);
    storeLe<uint32_t>(central_, crc);
    storeLe<uint32_t>(central_, static_cast<uint32_t>(data.size()));
    storeLe<uint32_t>(central_, static_cast<uint32_t>(data.size()));
    storeLe<uint16_t>(central_, static_cast<uint16_t>(name.size()));
    storeLe<uint16_t>(central_, 0);               // extra
    storeLe<uint16_t>(central_, 0);               // comment
    storeLe<uint16_t>(central_, 0);               // disk
    storeLe<uint16_t>(central_, 0);               // internal attributes
    storeLe<uint32_t>(central_, 0100644u << 16);  // external: regular file rw-r--r--
    storeLe<uint32_t>(central_, offset);
    central_ += name;
    ++entries_;
}

std::string ZipWriter::finish() {
    const uint32_t centralOffset = static_cast<uint32_t>(out_.size());
    out_ += central_;
    storeLe<uint32_t>(out_, kEndSig);
    storeLe<uint16_t>(out_, 0);
    storeLe<uint16_t>(out_, 0);
    storeLe<uint16_t>(out_, entries_);
    storeLe<uint16_t>(out_, entries_);
    storeLe<uint32_t>(out_, static_cast<uint32_t>(central_.size()));
    storeLe<uint32_t>(out_, centralOffset);
    storeLe<uint16_t>(out_, 0);  // comment length
    central_.clear();
    entries_ = 0;
    return std::move(out_);
}

}  // namespace attn::io

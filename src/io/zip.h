#pragma once
// ZIP archives (PKWARE APPNOTE 6.3) as NumPy's .npz and PyTorch's torch.save write them: stored
// (uncompressed) entries, ZIP64 records for archives and entries past 4 GiB. One reader for
// both; the writer makes the .npz exports.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::io {

struct ZipEntry {
    std::string name;
    uint16_t method = 0;  // 0 = stored
    uint32_t crc = 0;
    uint64_t compressedSize = 0;
    uint64_t size = 0;
    uint64_t dataOffset = 0;  // where the entry's (stored) data starts in the archive
};

// The central directory, with every entry's data range checked to lie inside `bytes`; the
// data itself is not read (CRC-32s are checked by zipEntryData on request). `what` names the
// kind of file in messages: "an .npz (ZIP) file". Throws attn::UserError("file",
// "<source>: ...").
std::vector<ZipEntry> readZipDirectory(std::string_view bytes, const std::string& source,
                                       const std::string& what);

// The data of a stored entry. `checkCrc` compares its CRC-32 with the directory's.
// Throws attn::UserError("file", ...) for a compressed entry (naming `hint`, what would be
// right) or a CRC mismatch.
std::string_view zipEntryData(std::string_view bytes, const ZipEntry& entry,
                              const std::string& source, bool checkCrc, const std::string& hint);

// Builds a ZIP of stored entries (CRC-32, UTF-8 names flagged, a fixed 1980-01-01 time so the
// bytes are reproducible). No ZIP64: the caller keeps the archive under 4 GiB.
class ZipWriter {
  public:
    void add(const std::string& name, std::string_view data);
    std::string finish();  // appends the central directory and end record; returns the archive
    size_t size() const { return out_.size(); }

  private:
    std::string out_;
    std::string central_;
    uint16_t entries_ = 0;
};

// CRC-32 (ISO-HDLC, as ZIP and zlib compute it).
uint32_t crc32(std::string_view bytes);

}  // namespace attn::io

#pragma once
// Bytes that stay valid as long as their owner lives: a file mapped into memory (so a 6 GB
// model is paged in as it is used, never copied), or a string already in memory (tests and
// fuzzers feed readers this way). The readers take these, so a mapping is one source of bytes
// among others.

#include <memory>
#include <string>
#include <string_view>

namespace attn::io {

struct SharedBytes {
    std::string_view bytes;
    std::shared_ptr<const void> owner;  // keeps `bytes` valid; share it to keep them longer
};

// A read-only private mapping of a whole file (POSIX mmap), unmapped when destroyed. If another
// program shrinks the file while it is mapped, reading the lost pages stops the process with
// SIGBUS: model files are not expected to change while they are open.
class MappedFile {
  public:
    // Throws attn::UserError("file", "Cannot read <path>: <reason>").
    explicit MappedFile(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }

  private:
    void* data_ = nullptr;
    size_t size_ = 0;
};

// The file's bytes, mapped.
SharedBytes mapFile(const std::string& path);
// `bytes` moved into shared ownership.
SharedBytes sharedBytes(std::string bytes);

}  // namespace attn::io

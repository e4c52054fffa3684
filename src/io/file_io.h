#pragma once
// Reading whole files and writing them so that a failure never leaves a partial file behind.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

class QCryptographicHash;

namespace attn {
class CancelToken;
}

namespace attn::io {

// The whole file as bytes. Throws attn::UserError("file", "Cannot read <path>: <reason>").
std::string readFileBytes(const std::string& path);

// Writes `bytes` to a temporary file beside `path` and renames it over `path` only when every
// byte reached the disk (QSaveFile). Device files such as /dev/stdout cannot be replaced, so
// they are written directly. On failure throws
// attn::UserError("output", "Cannot write <path>: <reason>") and `path` is left as it was.
void writeFileAtomically(const std::string& path, std::string_view bytes);
// The same for a file written in pieces: `produce` hands each piece to the sink as it makes it,
// so the whole file is never held. When `produce` throws (attn::Cancelled, say), no file is
// left and the exception goes on.
using FileSink = std::function<void(std::string_view bytes)>;
using FileProducer = std::function<void(const FileSink& write)>;
void writeFileAtomically(const std::string& path, const FileProducer& produce);

// The last component of a path ("emb.npy" for "/tmp/x/emb.npy"): error messages about a file's
// contents name it this way so they stay short.
std::string fileDisplayName(const std::string& path);

// Lower-case extension with the dot (".npy"), empty if none.
std::string fileExtension(const std::string& path);

// SHA-256 of bytes fed in pieces: strings, and files read a megabyte at a time with a cancel
// check in between (a model can be gigabytes).
class Sha256 {
  public:
    Sha256();
    ~Sha256();
    void add(std::string_view bytes);
    // False when the file cannot be read; throws Cancelled when the token is set.
    bool addFile(const std::string& path, const CancelToken* cancel = nullptr);
    std::string hex() const;  // lower-case

  private:
    std::unique_ptr<QCryptographicHash> hash_;
};

// The SHA-256 of a file's bytes in lower-case hex; empty when it cannot be read. Sessions record
// the files they name by it.
std::string fileSha256(const std::string& path, const CancelToken* cancel = nullptr);

// This process's own peak resident memory in bytes: VmHWM of /proc/self/status on Linux, which
// starts anew at exec. (getrusage's ru_maxrss keeps the parent's maximum across exec: a program
// started from a 2 GB Python process reports 2 GB whatever it used itself.) Elsewhere
// ru_maxrss; 0 where the system says neither.
int64_t processPeakResidentBytes();

}  // namespace attn::io

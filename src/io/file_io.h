#pragma once
// Reading whole files and writing them so that a failure never leaves a partial file behind.

#include <string>
#include <string_view>

namespace attn::io {

// The whole file as bytes. Throws attn::UserError("file", "Cannot read <path>: <reason>").
std::string readFileBytes(const std::string& path);

// Writes `bytes` to a temporary file beside `path` and renames it over `path` only when every
// byte reached the disk (QSaveFile). Device files such as /dev/stdout cannot be replaced, so
// they are written directly. On failure throws
// attn::UserError("output", "Cannot write <path>: <reason>") and `path` is left as it was.
void writeFileAtomically(const std::string& path, std::string_view bytes);

// The last component of a path ("emb.npy" for "/tmp/x/emb.npy"): error messages about a file's
// contents name it this way so they stay short.
std::string fileDisplayName(const std::string& path);

// Lower-case extension with the dot (".npy"), empty if none.
std::string fileExtension(const std::string& path);

}  // namespace attn::io

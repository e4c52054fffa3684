#include "io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/config.h"

namespace attn::io {

namespace {

// `format`'s %1 is the path; the system's reasons (strerror) are its own words.
[[noreturn]] void failRead(const std::string& path, const char* format) {
    throw UserError("file", {{format, {path}}});
}

[[noreturn]] void failRead(const std::string& path, int error) {
    if (error == ENOENT)
        failRead(path, "Cannot read %1: the file does not exist");
    if (error == EACCES)
        failRead(path, "Cannot read %1: you have no permission to read it");
    throw UserError("file", "Cannot read " + path + ": " + std::strerror(error));
}

// Closes the descriptor on every path out of the constructor; the mapping outlives it.
struct FileDescriptor {
    int fd = -1;
    ~FileDescriptor() {
        if (fd >= 0)
            ::close(fd);
    }
};

}  // namespace

MappedFile::MappedFile(const std::string& path) {
    FileDescriptor file;
    file.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (file.fd < 0)
        failRead(path, errno);
    struct stat st {};
    if (::fstat(file.fd, &st) != 0)
        failRead(path, errno);
    if (S_ISDIR(st.st_mode))
        failRead(path, "Cannot read %1: it is a folder, not a file");
    if (!S_ISREG(st.st_mode))
        failRead(path,
                 "Cannot read %1: it is not a regular file (a model file must be mapped into "
                 "memory)");
    size_ = static_cast<size_t>(st.st_size);
    if (size_ == 0)
        return;  // mmap refuses length 0; an empty view is all there is
    data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (data_ == MAP_FAILED) {
        data_ = nullptr;
        failRead(path, errno);
    }
}

MappedFile::~MappedFile() {
    if (data_)
        ::munmap(data_, size_);
}

SharedBytes mapFile(const std::string& path) {
    auto file = std::make_shared<const MappedFile>(path);
    return {file->bytes(), file};
}

SharedBytes sharedBytes(std::string bytes) {
    auto owned = std::make_shared<const std::string>(std::move(bytes));
    return {std::string_view(*owned), owned};
}

}  // namespace attn::io

#include "io/file_io.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSaveFile>
#include <QString>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/resource.h>
#endif

#include "engine/cancel.h"
#include "engine/config.h"

namespace attn::io {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void failWrite(const std::string& path, const std::string& reason) {
    throw UserError("output", "Cannot write " + path + ": " + reason);
}

// Qt's messages for a missing or non-directory parent are vague ("Unknown error"), so the
// common cases are diagnosed here first with a reason a student can act on.
void checkParentDirectory(const std::string& path) {
    fs::path parent = fs::path(path).parent_path();
    if (parent.empty())
        return;
    std::error_code ec;
    // Walk up to the first component that exists: it must be a directory.
    fs::path probe = parent;
    while (!probe.empty()) {
        auto st = fs::status(probe, ec);
        if (!ec && fs::exists(st)) {
            if (!fs::is_directory(st))
                failWrite(path, probe.string() + " is not a directory");
            break;
        }
        if (probe == probe.parent_path())
            break;
        probe = probe.parent_path();
    }
    if (!fs::is_directory(parent, ec))
        failWrite(path, "the folder " + parent.string() + " does not exist");
}

// Every piece `produce` hands over goes to `file` in full, else the write fails naming `path`.
void writePieces(QFileDevice& file, const std::string& path, const FileProducer& produce) {
    produce([&](std::string_view bytes) {
        const char* p = bytes.data();
        qint64 left = static_cast<qint64>(bytes.size());
        while (left > 0) {
            const qint64 n = file.write(p, left);
            if (n <= 0)
                failWrite(path, file.errorString().toStdString());
            p += n;
            left -= n;
        }
    });
}

void writeDirectly(const std::string& path, const FileProducer& produce) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        failWrite(path, file.errorString().toStdString());
    writePieces(file, path, produce);
    if (!file.flush())
        failWrite(path, file.errorString().toStdString());
    file.close();
    if (file.error() != QFileDevice::NoError)
        failWrite(path, file.errorString().toStdString());
}

}  // namespace

std::string fileDisplayName(const std::string& path) {
    std::string name = fs::path(path).filename().string();
    return name.empty() ? path : name;
}

std::string fileExtension(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

namespace {

// The system's reason for errno; the common one, a file the user may not read, in words the
// interface translates (the others are the system's own and stay as it words them).
[[noreturn]] void failToRead(const std::string& path) {
    if (errno == EACCES)
        throw UserError("file", {{"Cannot read %1: you have no permission to read it", {path}}});
    throw UserError("file", "Cannot read " + path + ": " + std::strerror(errno));
}

}  // namespace

std::string readFileBytes(const std::string& path) {
    std::error_code ec;
    auto st = fs::status(path, ec);
    if (ec || !fs::exists(st))
        throw UserError("file", {{"Cannot read %1: the file does not exist", {path}}});
    if (fs::is_directory(st))
        throw UserError("file", {{"Cannot read %1: it is a folder, not a file", {path}}});
    std::ifstream in(path, std::ios::binary);
    if (!in)
        failToRead(path);
    std::string bytes;
    if (fs::is_regular_file(st)) {
        auto size = fs::file_size(path, ec);
        if (!ec) {
            try {
                bytes.resize(size);
            } catch (const std::bad_alloc&) {
                throw UserError("file",
                                {{"Cannot read %1: the file is too large to load", {path}}});
            }
            in.read(bytes.data(), static_cast<std::streamsize>(size));
            if (static_cast<uintmax_t>(in.gcount()) != size)
                throw UserError("file",
                                {{"Cannot read %1: the file changed while reading", {path}}});
            return bytes;
        }
    }
    // Pipes and devices have no size: read until the end.
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad())
        failToRead(path);
    return bytes;
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
    writeFileAtomically(path, [bytes](const FileSink& write) { write(bytes); });
}

void writeFileAtomically(const std::string& path, const FileProducer& produce) {
    if (path.empty())
        throw UserError("output", "Cannot write an output file without a name");
    std::error_code ec;
    auto st = fs::status(path, ec);
    if (!ec && fs::exists(st)) {
        if (fs::is_directory(st))
            failWrite(path, "it is a folder, not a file");
        // A device or pipe (/dev/stdout, /dev/full) cannot be replaced by renaming a temporary
        // file over it (as root that would even destroy the device node), so write into it.
        if (!fs::is_regular_file(st)) {
            writeDirectly(path, produce);
            return;
        }
    }
    checkParentDirectory(path);

    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly))
        failWrite(path, file.errorString().toStdString());
    try {
        writePieces(file, path, produce);
    } catch (...) {  // a failed write or the producer's own error (cancelled): no file
        file.cancelWriting();
        throw;
    }
    // commit() flushes, closes and renames; on any error it removes the temporary file.
    if (!file.commit())
        failWrite(path, file.errorString().toStdString());
}

Sha256::Sha256() : hash_(std::make_unique<QCryptographicHash>(QCryptographicHash::Sha256)) {}

Sha256::~Sha256() = default;

void Sha256::add(std::string_view bytes) {
    hash_->addData(QByteArrayView(bytes.data(), qsizetype(bytes.size())));
}

bool Sha256::addFile(const std::string& path, const CancelToken* cancel) {
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    std::vector<char> buffer(size_t(1) << 20);
    for (;;) {
        throwIfCancelled(cancel);
        const qint64 n = f.read(buffer.data(), qint64(buffer.size()));
        if (n < 0)
            return false;
        if (n == 0)
            return true;
        add(std::string_view(buffer.data(), size_t(n)));
    }
}

std::string Sha256::hex() const {
    return hash_->result().toHex().toStdString();
}

std::string fileSha256(const std::string& path, const CancelToken* cancel) {
    Sha256 h;
    return h.addFile(path, cancel) ? h.hex() : std::string();
}

int64_t processPeakResidentBytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) {
            std::istringstream fields(line.substr(6));
            int64_t kib = 0;
            if (fields >> kib)
                return kib * 1024;
        }
#if defined(__unix__) || defined(__APPLE__)
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) == 0) {
#ifdef __APPLE__
        return int64_t(usage.ru_maxrss);  // bytes on macOS
#else
        return int64_t(usage.ru_maxrss) * 1024;  // KiB on the BSDs
#endif
    }
#endif
    return 0;
}

}  // namespace attn::io

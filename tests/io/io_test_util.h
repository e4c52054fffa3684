#pragma once
// Helpers shared by the io tests: a scratch folder, byte builders and exact-error checks.

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "engine/config.h"

namespace attn::io::test {

class TempDir {
  public:
    TempDir() {
        char pattern[] = "/tmp/attn_io_test_XXXXXX";
        const char* made = mkdtemp(pattern);
        path_ = made ? made : "/tmp";
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return path_ + "/" + name; }
    const std::string& path() const { return path_; }
    // Every entry in the folder (to prove that a failed write left nothing behind).
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(path_))
            names.push_back(e.path().filename().string());
        return names;
    }

  private:
    std::string path_;
};

inline void writeRaw(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string readRaw(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

template <typename T>
void appendLe(std::string& out, T value) {
    char buf[sizeof(T)];
    std::memcpy(buf, &value, sizeof(T));
    out.append(buf, sizeof(T));
}

inline uint32_t floatBits(float f) {
    return std::bit_cast<uint32_t>(f);
}

// Runs `f`, expecting attn::UserError with exactly this field and message.
inline void expectError(const std::function<void()>& f, const std::string& field,
                        const std::string& message) {
    try {
        f();
        ADD_FAILURE() << "expected UserError(" << field << ", " << message << ")";
    } catch (const UserError& e) {
        EXPECT_EQ(e.field(), field);
        EXPECT_EQ(std::string(e.what()), message);
    }
}

}  // namespace attn::io::test

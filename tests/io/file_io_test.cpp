// Atomic writes: success, and failures that name the path and leave no file behind.

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <csignal>
#include <filesystem>

#include "io/file_io.h"
#include "io/npy.h"
#include "io_test_util.h"

namespace attn::io {
namespace {

using test::expectError;

TEST(AtomicWrite, WritesAndReplaces) {
    test::TempDir dir;
    writeFileAtomically(dir.file("a.txt"), "first");
    writeFileAtomically(dir.file("a.txt"), std::string("sec\0nd", 6));
    EXPECT_EQ(readFileBytes(dir.file("a.txt")), std::string("sec\0nd", 6));
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"a.txt"});
}

TEST(AtomicWrite, DevFullReportsNoSpace) {
    expectError([] { writeFileAtomically("/dev/full", "data"); }, "output",
                "Cannot write /dev/full: No space left on device");
    // The device node is still a device, not a regular file renamed over it.
    EXPECT_TRUE(std::filesystem::is_character_file("/dev/full"));
}

TEST(AtomicWrite, UnwritableDirectoryLeavesNothing) {
    // Tests run as root, so permissions prove nothing: a path under a regular file can never
    // be created.
    expectError([] { writeNpy("/etc/hostname/x.npy", Tensor({1}, {1})); }, "output",
                "Cannot write /etc/hostname/x.npy: /etc/hostname is not a directory");
    EXPECT_FALSE(std::filesystem::exists("/etc/hostname/x.npy"));
    test::TempDir dir;
    expectError([&] { writeFileAtomically(dir.file("no/such/dir/x.csv"), "1"); }, "output",
                "Cannot write " + dir.file("no/such/dir/x.csv") + ": the folder " +
                    dir.file("no/such/dir") + " does not exist");
    expectError([&] { writeFileAtomically(dir.path(), "1"); }, "output",
                "Cannot write " + dir.path() + ": it is a folder, not a file");
    EXPECT_TRUE(dir.entries().empty());
}

TEST(AtomicWrite, FailureMidWriteKeepsTheOldFile) {
    test::TempDir dir;
    writeFileAtomically(dir.file("trace.npz"), "old contents");
    // Limit file sizes to 64 KiB so the write fails part way (EFBIG instead of SIGXFSZ).
    rlimit old{};
    getrlimit(RLIMIT_FSIZE, &old);
    auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = old;
    small.rlim_cur = 64 * 1024;
    setrlimit(RLIMIT_FSIZE, &small);
    std::string error;
    try {
        writeFileAtomically(dir.file("trace.npz"), std::string(1 << 20, 'x'));
    } catch (const UserError& e) {
        error = e.what();
    }
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
    EXPECT_EQ(error.rfind("Cannot write " + dir.file("trace.npz") + ": ", 0), 0u) << error;
    EXPECT_EQ(test::readRaw(dir.file("trace.npz")), "old contents");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"trace.npz"});  // no temporary left
}

TEST(ReadFile, MissingAndFolder) {
    test::TempDir dir;
    expectError([&] { readFileBytes(dir.file("nope.npy")); }, "file",
                "Cannot read " + dir.file("nope.npy") + ": the file does not exist");
    expectError([&] { readFileBytes(dir.path()); }, "file",
                "Cannot read " + dir.path() + ": it is a folder, not a file");
}

}  // namespace
}  // namespace attn::io

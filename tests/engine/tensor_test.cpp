// Tensor storage: large buffers are kept for reuse when freed, so a big trace does not pay for
// fresh pages from the kernel each time.
#include <gtest/gtest.h>

#include "engine/tensor.h"

namespace attn {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kBuffersKept = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kBuffersKept = false;
#else
constexpr bool kBuffersKept = true;
#endif
#else
constexpr bool kBuffersKept = true;
#endif

constexpr int64_t kMiB = int64_t(1) << 20;

int64_t floats(int64_t mib) {
    return mib * kMiB / int64_t(sizeof(float));
}

TEST(TensorBuffers, LargeBuffersAreReusedAndReleased) {
    if (!kBuffersKept)
        GTEST_SKIP() << "AddressSanitizer build: every buffer goes back to the system";
    releaseCachedBuffers();
    ASSERT_EQ(cachedBufferBytes(), 0u);
    const float* first = nullptr;
    {
        const Tensor t = Tensor::uninitialized({floats(8)});
        first = t.data();
        EXPECT_EQ(cachedBufferBytes(), 0u);  // in use, not kept
    }
    EXPECT_EQ(cachedBufferBytes(), size_t(8 * kMiB));

    // Too big for the kept block: a new one. Much smaller: the block would waste too much.
    {
        const Tensor big = Tensor::uninitialized({floats(10)});
        EXPECT_NE(big.data(), first);
        const Tensor small = Tensor::uninitialized({floats(4)});
        EXPECT_NE(small.data(), first);
        EXPECT_EQ(cachedBufferBytes(), size_t(8 * kMiB));
    }
    EXPECT_EQ(cachedBufferBytes(), size_t(22 * kMiB));

    // A little smaller (7.5 MiB rounds to 8): the kept block, and zero-filled when asked.
    {
        Tensor t({floats(8) - 100000});
        EXPECT_EQ(t.data(), first);
        EXPECT_EQ(t.data()[0], 0.0f);
        EXPECT_EQ(t.data()[t.numel() - 1], 0.0f);
        EXPECT_EQ(cachedBufferBytes(), size_t(14 * kMiB));
    }
    releaseCachedBuffers();
    EXPECT_EQ(cachedBufferBytes(), 0u);
}

// The steps of a trace at T = 64 (a (T, 768) matrix, twelve heads' 64 x 64 scores) are about
// 192 KiB each: kept and reused like the large ones, since glibc maps blocks that size fresh
// from the kernel each time. Below 64 KiB blocks go back to malloc.
TEST(TensorBuffers, BuffersFrom64KiBAreKeptSmallerOnesAreNot) {
    if (!kBuffersKept)
        GTEST_SKIP() << "AddressSanitizer build: every buffer goes back to the system";
    releaseCachedBuffers();
    { const Tensor t = Tensor::uninitialized({int64_t(63) * 1024 / 4}); }
    EXPECT_EQ(cachedBufferBytes(), 0u);
    const float* first = nullptr;
    {
        const Tensor t = Tensor::uninitialized({64 * 768});
        first = t.data();
    }
    EXPECT_EQ(cachedBufferBytes(), size_t(192) << 10);
    {
        const Tensor again = Tensor::uninitialized({64 * 768});
        EXPECT_EQ(again.data(), first);
        EXPECT_EQ(cachedBufferBytes(), 0u);
    }
    releaseCachedBuffers();
}

}  // namespace
}  // namespace attn

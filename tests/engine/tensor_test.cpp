// Tensor storage: large buffers are kept for reuse when freed, so a big trace does not pay for
// fresh pages from the kernel each time.
#include <gtest/gtest.h>

#include "engine/tensor.h"

#include <cmath>
#include <thread>

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

// Two 3 x 3 matrices kept as lower triangles: they read like the full matrices, with `above`
// over the diagonal, through every accessor and view; the first read lays them out once, also
// when two threads read at the same time.
TEST(TensorLowerTriangular, ReadsAsTheFullMatricesAndLaysThemOutOnce) {
    Tensor t = Tensor::lowerTriangular({2, 3, 3}, -INFINITY);
    EXPECT_EQ(t.storageBytes(), size_t(2 * 6 * 4));
    float v = 1.0f;
    for (int64_t m = 0; m < 2; ++m)
        for (int64_t i = 0; i < 3; ++i) {
            float* row = t.lowerRow(m, i);
            for (int64_t j = 0; j <= i; ++j)
                row[j] = v++;
        }
    const Tensor copy = t;  // shares the triangles
    EXPECT_TRUE(copy.sharesStorageWith(t));
    const float* a = nullptr;
    const float* b = nullptr;
    std::thread first([&] { a = t.data(); });
    std::thread second([&] { b = copy.data(); });
    first.join();
    second.join();
    EXPECT_EQ(a, b);
    EXPECT_EQ(t.storageBytes(), size_t(2 * 9 * 4));
    const std::vector<float> expected = {1, -INFINITY, -INFINITY, 2, 3, -INFINITY, 4,  5,  6,
                                         7, -INFINITY, -INFINITY, 8, 9, -INFINITY, 10, 11, 12};
    EXPECT_EQ(copy.toVector(), expected);
    EXPECT_EQ(copy.at({1, 2, 1}), 11.0f);
    EXPECT_EQ(copy.at({1, 0, 2}), -INFINITY);
    EXPECT_EQ(copy.select(0, 1).transpose(0, 1).at({0, 2}), 10.0f);
    EXPECT_EQ(copy.view({18}).flat(13), 9.0f);
    EXPECT_THROW(t.lowerRow(0, 0), std::logic_error);  // laid out: no longer written this way
    EXPECT_THROW(Tensor::lowerTriangular({2, 3}, 0.0f), std::invalid_argument);
}

}  // namespace
}  // namespace attn

namespace attn {
namespace {

// repeat_interleave as a view: index i of the repeated dim reads index i / repeats, through
// every way of reading a tensor, transposed and selected too; nothing is copied.
TEST(TensorRepeatInterleave, ReadsEachSourceIndexRepeatsTimes) {
    std::vector<float> v(2 * 3 * 2);
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = float(i);
    const Tensor t(Shape{2, 3, 2}, v);               // (b, T, G)
    const Tensor groups = t.transpose(1, 2);         // (b, G, T), strided
    const Tensor r = groups.repeatInterleave(1, 3);  // (b, 6, T)
    EXPECT_EQ(r.shape(), (Shape{2, 6, 3}));
    EXPECT_TRUE(r.sharesStorageWith(t));
    EXPECT_FALSE(r.isContiguous());
    std::vector<float> expected;
    for (int64_t b = 0; b < 2; ++b)
        for (int64_t h = 0; h < 6; ++h)
            for (int64_t i = 0; i < 3; ++i)
                expected.push_back(groups.at({b, h / 3, i}));
    EXPECT_EQ(r.toVector(), expected);
    EXPECT_EQ(r.contiguous().toVector(), expected);
    for (int64_t k = 0; k < r.numel(); ++k)
        EXPECT_EQ(r.flat(k), expected[size_t(k)]);
    EXPECT_EQ(r.at({1, 4, 2}), groups.at({1, 1, 2}));
    EXPECT_EQ(r.select(1, 5).toVector(), groups.select(1, 1).toVector());
    EXPECT_EQ(r.select(0, 1).select(0, 2).toVector(), groups.select(0, 1).select(0, 0).toVector());
    const Tensor swapped = r.transpose(1, 2);  // (b, T, 6)
    EXPECT_EQ(swapped.at({0, 2, 4}), r.at({0, 4, 2}));
    EXPECT_EQ(t.repeatInterleave(0, 1).toVector(), v);  // once: the tensor itself
    EXPECT_THROW((void)r.repeatInterleave(1, 2), std::invalid_argument);
    EXPECT_THROW((void)r.view({36}), std::invalid_argument);
}

}  // namespace
}  // namespace attn

// safetensors: exact bytes of the writer, round trips, float16/bfloat16 conversion and one
// exact message per malformed file.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/half.h"
#include "io/safetensors.h"
#include "io_test_util.h"

namespace attn::io {
namespace {

using test::appendLe;
using test::expectError;
using test::floatBits;

// A safetensors file from a header text and raw data bytes.
std::string makeSafetensors(const std::string& header, const std::string& data) {
    std::string out;
    appendLe<uint64_t>(out, header.size());
    return out + header + data;
}

TEST(Safetensors, WriterBytesAreExact) {
    WeightMap w;
    w["b"] = Tensor({2}, {1.0f, -2.0f});
    w["a"] = Tensor(Shape{}, {0.5f});
    const std::string bytes = safetensorsBytes(w, {{"format", "pt"}});
    const std::string header =
        "{\"__metadata__\":{\"format\":\"pt\"},"
        "\"a\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4]},"
        "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}";
    const std::string padded = header + std::string((8 - header.size() % 8) % 8, ' ');
    std::string expected;
    appendLe<uint64_t>(expected, padded.size());
    expected += padded;
    appendLe<float>(expected, 0.5f);
    appendLe<float>(expected, 1.0f);
    appendLe<float>(expected, -2.0f);
    EXPECT_EQ(bytes, expected);
    EXPECT_EQ((8 + padded.size()) % 8, 0u);
}

TEST(Safetensors, RoundTrip) {
    test::TempDir dir;
    WeightMap w;
    w["W_query.weight"] = Tensor({2, 3}, {0.1f, 0.2f, -0.3f, 1e-40f, -0.0f, 3e38f});
    w["W_query.bias"] = Tensor({2}, {5, 6});
    w["out_proj.weight"] = Tensor({2, 2}, {1, 2, 3, 4}).transpose(0, 1);
    writeSafetensors(dir.file("w.safetensors"), w, {{"format", "pt"}});
    SafetensorsFile back = readSafetensors(dir.file("w.safetensors"));
    EXPECT_EQ(back.metadata, (std::map<std::string, std::string>{{"format", "pt"}}));
    ASSERT_EQ(back.tensors.size(), 3u);
    for (const auto& [name, t] : w) {
        ASSERT_TRUE(back.tensors.count(name)) << name;
        EXPECT_EQ(back.tensors[name].shape(), t.shape());
        const std::vector<float> a = t.toVector(), b = back.tensors[name].toVector();
        for (size_t i = 0; i < a.size(); ++i)
            EXPECT_EQ(floatBits(a[i]), floatBits(b[i])) << name << i;
    }
    EXPECT_EQ(back.tensors["out_proj.weight"].toVector(), (std::vector<float>{1, 3, 2, 4}));
}

TEST(Safetensors, HalfConversionIsExact) {
    EXPECT_EQ(halfToFloat(0x3C00), 1.0f);
    EXPECT_EQ(halfToFloat(0xC000), -2.0f);
    EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
    EXPECT_EQ(halfToFloat(0x7BFF), 65504.0f);                  // largest normal
    EXPECT_EQ(halfToFloat(0x0400), std::ldexp(1.0f, -14));     // smallest normal
    EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));     // smallest subnormal
    EXPECT_EQ(halfToFloat(0x03FF), std::ldexp(1023.0f, -24));  // largest subnormal
    EXPECT_EQ(halfToFloat(0x8001), -std::ldexp(1.0f, -24));
    EXPECT_EQ(floatBits(halfToFloat(0x8000)), 0x80000000u);  // -0
    EXPECT_EQ(halfToFloat(0x7C00), std::numeric_limits<float>::infinity());
    EXPECT_EQ(halfToFloat(0xFC00), -std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(halfToFloat(0x7E00)));
}

TEST(Safetensors, BFloat16ConversionIsExact) {
    EXPECT_EQ(bfloat16ToFloat(0x3F80), 1.0f);
    EXPECT_EQ(bfloat16ToFloat(0xC049), -3.140625f);
    EXPECT_EQ(bfloat16ToFloat(0x0001), std::ldexp(1.0f, -133));  // subnormal
    EXPECT_EQ(bfloat16ToFloat(0x7F7F), 3.3895313892515355e38f);  // largest finite
    EXPECT_EQ(floatBits(bfloat16ToFloat(0x8000)), 0x80000000u);
    EXPECT_EQ(bfloat16ToFloat(0xFF80), -std::numeric_limits<float>::infinity());
}

TEST(Safetensors, ReadsF16Bf16F64AndBool) {
    std::string data;
    for (uint16_t h : {0x3C00, 0x0001, 0xC000})
        appendLe<uint16_t>(data, h);
    for (uint16_t b : {0x3F80, 0x0001})
        appendLe<uint16_t>(data, b);
    appendLe<double>(data, 0.1);
    appendLe<double>(data, -1e300);
    data += std::string("\x00\x01\x01\x00", 4);
    const std::string header =
        "{\"h\":{\"dtype\":\"F16\",\"shape\":[3],\"data_offsets\":[0,6]},"
        "\"b\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[6,10]},"
        "\"d\":{\"dtype\":\"F64\",\"shape\":[1,2],\"data_offsets\":[10,26]},"
        "\"m\":{\"dtype\":\"BOOL\",\"shape\":[2,2],\"data_offsets\":[26,30]}}";
    SafetensorsFile f = parseSafetensors(makeSafetensors(header, data), "w.safetensors");
    EXPECT_EQ(f.tensors["h"].toVector(), (std::vector<float>{1.0f, std::ldexp(1.0f, -24), -2.0f}));
    EXPECT_EQ(f.tensors["b"].toVector(), (std::vector<float>{1.0f, std::ldexp(1.0f, -133)}));
    EXPECT_EQ(f.tensors["d"].shape(), (Shape{1, 2}));
    EXPECT_EQ(f.tensors["d"].flat(0), 0.1f);
    EXPECT_EQ(f.tensors["d"].flat(1), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(f.tensors["m"].toVector(), (std::vector<float>{0, 1, 1, 0}));
    EXPECT_TRUE(f.metadata.empty());
}

TEST(SafetensorsErrors, LyingHeaderLength) {
    std::string bytes;
    appendLe<uint64_t>(bytes, 1000000);
    bytes += "{}";
    expectError([&] { parseSafetensors(bytes, "w.safetensors"); }, "file",
                "w.safetensors: the header length says 1000000 bytes but the file has only 2 bytes "
                "after it; the file is truncated or not a safetensors file");
    expectError([&] { parseSafetensors("abc", "w.safetensors"); }, "file",
                "w.safetensors: the file is truncated: it is 3 bytes, shorter than the 8-byte "
                "header length");
    std::string huge;
    appendLe<uint64_t>(huge, ~uint64_t(0));
    expectError([&] { parseSafetensors(huge, "w.safetensors"); }, "file",
                "w.safetensors: the header length says 18446744073709551615 bytes but the file has "
                "only 0 bytes after it; the file is truncated or not a safetensors file");
}

TEST(SafetensorsErrors, OverlappingOffsets) {
    const std::string header =
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
        "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}";
    expectError(
        [&] { parseSafetensors(makeSafetensors(header, std::string(12, '\0')), "w.safetensors"); },
        "file", "w.safetensors: the data of a [0, 8) and b [4, 12) overlap; the file is corrupt");
}

TEST(SafetensorsErrors, OffsetsPastTheEnd) {
    const std::string header = "{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}";
    expectError(
        [&] { parseSafetensors(makeSafetensors(header, std::string(8, '\0')), "w.safetensors"); },
        "file",
        "w.safetensors: a: data_offsets [0, 16] reach past the end of the data (8 bytes); "
        "the file is truncated or corrupt");
}

TEST(SafetensorsErrors, OffsetsDisagreeWithShape) {
    const std::string header =
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,16]}}";
    expectError(
        [&] { parseSafetensors(makeSafetensors(header, std::string(16, '\0')), "w.safetensors"); },
        "file",
        "w.safetensors: a has shape (2, 3) of F32, which needs 24 bytes, but its "
        "data_offsets [0, 16] span 16 bytes");
    const std::string huge =
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[1000000,1000000,1000000,1000000],\"data_offsets\":[0,"
        "16]}}";
    expectError(
        [&] { parseSafetensors(makeSafetensors(huge, std::string(16, '\0')), "w.safetensors"); },
        "file",
        "w.safetensors: a has shape (1000000, 1000000, 1000000, 1000000) of F32, far more data "
        "than the file holds, but its data_offsets [0, 16] span 16 bytes");
}

TEST(SafetensorsErrors, BadHeaderJsonAndDtype) {
    expectError(
        [&] { parseSafetensors(makeSafetensors("{\"a\": {\"dtype\": }", ""), "w.safetensors"); },
        "file", "w.safetensors header: unexpected character '}' (line 1, column 17)");
    expectError(
        [&] { parseSafetensors(makeSafetensors("[1, 2]", ""), "w.safetensors"); }, "file",
        "w.safetensors: the header does not start with '{'; this is not a safetensors file");
    const std::string i64 = "{\"a\":{\"dtype\":\"I64\",\"shape\":[1],\"data_offsets\":[0,8]}}";
    expectError(
        [&] { parseSafetensors(makeSafetensors(i64, std::string(8, '\0')), "w.safetensors"); },
        "file",
        "w.safetensors: a has dtype I64, which is not supported; use F32, F16, BF16 or F64");
    const std::string noOffsets = "{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}";
    expectError(
        [&] {
            parseSafetensors(makeSafetensors(noOffsets, std::string(4, '\0')), "w.safetensors");
        },
        "file", "w.safetensors: a lacks \"data_offsets\"");
    const std::string negative =
        "{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}";
    expectError(
        [&] { parseSafetensors(makeSafetensors(negative, std::string(4, '\0')), "w.safetensors"); },
        "file", "w.safetensors: a: shape must hold non-negative integers, found -1");
}

}  // namespace
}  // namespace attn::io

// .npy and .npz: bytes checked against the NumPy format specification
// (numpy.lib.format), round trips, and one exact message per malformed file.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "io/npy.h"
#include "io_test_util.h"

namespace attn::io {
namespace {

using test::appendLe;
using test::expectError;
using test::floatBits;

// A .npy file as NumPy lays it out: magic, version, header length, header dict, data.
std::string makeNpy(int major, const std::string& dict, const std::string& data) {
    const size_t preamble = major == 1 ? 10 : 12;
    std::string header = dict;
    const size_t total = preamble + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header.push_back('\n');
    std::string out = "\x93NUMPY";
    out.push_back(static_cast<char>(major));
    out.push_back('\0');
    if (major == 1)
        appendLe<uint16_t>(out, static_cast<uint16_t>(header.size()));
    else
        appendLe<uint32_t>(out, static_cast<uint32_t>(header.size()));
    return out + header + data;
}

template <typename T>
std::string dataOf(std::initializer_list<T> values) {
    std::string out;
    for (T v : values)
        appendLe<T>(out, v);
    return out;
}

TEST(Npy, HeaderMatchesNumpyFormat) {
    const std::string h = npyHeader({2, 3});
    // Magic string, version 1.0, little-endian uint16 header length.
    EXPECT_EQ(h.substr(0, 6), "\x93NUMPY");
    EXPECT_EQ(h[6], '\x01');
    EXPECT_EQ(h[7], '\x00');
    EXPECT_EQ(static_cast<unsigned char>(h[8]), 118);
    EXPECT_EQ(static_cast<unsigned char>(h[9]), 0);
    // The dict, padded with spaces and ended by '\n' so the data is 64-byte aligned.
    EXPECT_EQ(h.substr(10), "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" +
                                std::string(58, ' ') + "\n");
    EXPECT_EQ(h.size(), 128u);
}

TEST(Npy, HeaderShapesUsePythonTupleSyntax) {
    EXPECT_EQ(npyHeader({3}).substr(10, 57),
              "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }");
    EXPECT_EQ(npyHeader({}).substr(10, 55),
              "{'descr': '<f4', 'fortran_order': False, 'shape': (), }");
    for (const Shape& s :
         {Shape{}, Shape{3}, Shape{2, 3}, Shape{1, 2, 6, 6}, Shape{123456789, 987654321, 5}})
        EXPECT_EQ(npyHeader(s).size() % 64, 0u) << shapeToString(s);
}

TEST(Npy, DataIsLittleEndianFloat32AfterHeader) {
    const std::string bytes = npyBytes(Tensor({2}, {1.0f, -2.5f}));
    ASSERT_EQ(bytes.size(), 128u + 8u);
    EXPECT_EQ(bytes.substr(128), std::string("\x00\x00\x80\x3f\x00\x00\x20\xc0", 8));
}

TEST(Npy, RoundTripIsBitExact) {
    test::TempDir dir;
    const float values[] = {0.1f,
                            -0.0f,
                            1e-45f,
                            std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::infinity(),
                            std::nanf(""),
                            3.0f,
                            -7.25f};
    for (const Shape& shape : {Shape{2, 4}, Shape{8}, Shape{2, 2, 2}}) {
        Tensor t(shape, std::vector<float>(std::begin(values), std::end(values)));
        writeNpy(dir.file("t.npy"), t);
        Tensor back = readNpy(dir.file("t.npy"));
        ASSERT_EQ(back.shape(), shape);
        for (int64_t i = 0; i < 8; ++i)
            EXPECT_EQ(floatBits(back.flat(i)), floatBits(values[i]));
    }
}

TEST(Npy, ZeroDimensionalAndEmptyRoundTrip) {
    Tensor scalar(Shape{}, {42.5f});
    Tensor back = parseNpy(npyBytes(scalar), "s.npy");
    EXPECT_EQ(back.shape(), Shape{});
    EXPECT_EQ(back.flat(0), 42.5f);
    Tensor empty(Shape{0, 3});
    Tensor emptyBack = parseNpy(npyBytes(empty), "e.npy");
    EXPECT_EQ(emptyBack.shape(), (Shape{0, 3}));
}

TEST(Npy, WritesTransposedViewsInRowMajorOrder) {
    Tensor t({2, 3}, {1, 2, 3, 4, 5, 6});
    Tensor back = parseNpy(npyBytes(t.transpose(0, 1)), "t.npy");
    EXPECT_EQ(back.shape(), (Shape{3, 2}));
    EXPECT_EQ(back.toVector(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(Npy, ReadsOtherDtypesAndVersions) {
    const std::string f8 = makeNpy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }",
                                   dataOf<double>({0.1, -3.5}));
    EXPECT_EQ(parseNpy(f8, "a.npy").toVector(), (std::vector<float>{0.1f, -3.5f}));
    // float16: 1.0, -2.0, the smallest subnormal 2^-24 and the largest normal 65504.
    const std::string f2 = makeNpy(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (4,), }",
                                   dataOf<uint16_t>({0x3C00, 0xC000, 0x0001, 0x7BFF}));
    EXPECT_EQ(parseNpy(f2, "a.npy").toVector(),
              (std::vector<float>{1.0f, -2.0f, std::ldexp(1.0f, -24), 65504.0f}));
    const std::string i4 = makeNpy(2, "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }",
                                   dataOf<int32_t>({-1, 0, 16777216}));
    EXPECT_EQ(parseNpy(i4, "a.npy").toVector(), (std::vector<float>{-1.0f, 0.0f, 16777216.0f}));
    const std::string i8 =
        makeNpy(3, "{\"descr\": \"<i8\", \"fortran_order\": False, \"shape\": (2,)}",
                dataOf<int64_t>({7, -9}));
    EXPECT_EQ(parseNpy(i8, "a.npy").toVector(), (std::vector<float>{7.0f, -9.0f}));
    // Keys in another order and Python 2 long literals, as old NumPy wrote them.
    const std::string old = makeNpy(
        1, "{'shape': (1L, 2L), 'fortran_order': False, 'descr': '<f4'}", dataOf<float>({5, 6}));
    EXPECT_EQ(parseNpy(old, "a.npy").shape(), (Shape{1, 2}));
}

TEST(Npy, FortranOrderIsConvertedToRowMajor) {
    // np.asfortranarray([[1, 2, 3], [4, 5, 6]]) stores the columns one after another.
    const std::string f = makeNpy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
                                  dataOf<float>({1, 4, 2, 5, 3, 6}));
    Tensor t = parseNpy(f, "f.npy");
    EXPECT_EQ(t.shape(), (Shape{2, 3}));
    EXPECT_EQ(t.toVector(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    // Three dimensions: element (i, j, k) lives at i + 2*j + 4*k.
    std::vector<float> fortran(8);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            for (int k = 0; k < 2; ++k)
                fortran[i + 2 * j + 4 * k] = static_cast<float>(100 * i + 10 * j + k);
    std::string data;
    for (float v : fortran)
        appendLe<float>(data, v);
    Tensor t3 = parseNpy(
        makeNpy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2, 2), }", data), "f.npy");
    EXPECT_EQ(t3.toVector(), (std::vector<float>{0, 1, 10, 11, 100, 101, 110, 111}));
}

TEST(NpyErrors, Truncated) {
    std::string full = npyBytes(Tensor({2, 3}, {1, 2, 3, 4, 5, 6}));
    expectError(
        [&] { parseNpy(full.substr(0, full.size() - 4), "emb.npy"); }, "file",
        "emb.npy: the file is truncated: shape (2, 3) of '<f4' needs 24 bytes of data but the "
        "file holds 20");
    expectError(
        [&] { parseNpy(full.substr(0, 50), "emb.npy"); }, "file",
        "emb.npy: the file is truncated: the header should be 118 bytes but only 40 follow");
    expectError([&] { parseNpy(full.substr(0, 4), "emb.npy"); }, "file",
                "emb.npy: the file is truncated: it ends inside the 6-byte \\x93NUMPY signature");
    expectError([&] { parseNpy("", "emb.npy"); }, "file", "emb.npy: the file is empty");
}

TEST(NpyErrors, NotNpy) {
    expectError([&] { parseNpy("PK\x03\x04 this is a zip file", "emb.npy"); }, "file",
                "emb.npy: this is not a NumPy .npy file (it does not start with \\x93NUMPY)");
    std::string v4 = npyBytes(Tensor({1}, {1}));
    v4[6] = 4;
    expectError([&] { parseNpy(v4, "emb.npy"); }, "file",
                "emb.npy: unsupported .npy format version 4.0 (supported: 1.0, 2.0, 3.0)");
}

TEST(NpyErrors, WrongDtype) {
    expectError(
        [&] {
            parseNpy(makeNpy(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                             std::string(8, '\0')),
                     "emb.npy");
        },
        "file",
        "emb.npy: the dtype '<c8' is not supported; use float32 ('<f4'), float64 ('<f8'), "
        "float16 ('<f2'), int32 ('<i4') or int64 ('<i8')");
    expectError(
        [&] {
            parseNpy(makeNpy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }",
                             std::string(4, '\0')),
                     "emb.npy");
        },
        "file",
        "emb.npy: the data is big-endian ('>f4'), which is not supported; save it "
        "little-endian, e.g. np.save(path, arr.astype('<f4'))");
    expectError(
        [&] {
            parseNpy(
                makeNpy(1, "{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                        std::string(4, '\0')),
                "emb.npy");
        },
        "file",
        "emb.npy: the header is not a valid NumPy header: the array has a structured dtype "
        "(a list of fields); only plain numeric arrays are supported");
}

TEST(NpyErrors, HugeDeclaredShapeIsNotAllocated) {
    // 10^12 elements declared, 16 bytes present: an error, not a 4 TB allocation.
    expectError(
        [&] {
            parseNpy(
                makeNpy(1,
                        "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000), }",
                        std::string(16, '\0')),
                "emb.npy");
        },
        "file",
        "emb.npy: the file is truncated: shape (1000000, 1000000) of '<f4' needs "
        "4000000000000 bytes of data but the file holds 16");
    expectError(
        [&] {
            parseNpy(
                makeNpy(
                    1,
                    "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
                    ""),
                "emb.npy");
        },
        "file",
        "emb.npy: the header declares shape (4294967296, 4294967296), far more data than any "
        "file can hold; the file is corrupt");
}

TEST(NpyErrors, BadHeaderAndTrailingBytes) {
    expectError(
        [&] {
            parseNpy(makeNpy(1, "{'descr': '<f4', 'shape': (1,), }", std::string(4, '\0')),
                     "emb.npy");
        },
        "file",
        "emb.npy: the header is not a valid NumPy header: the key 'fortran_order' is missing");
    expectError(
        [&] {
            parseNpy(makeNpy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", ""),
                     "emb.npy");
        },
        "file",
        "emb.npy: the header is not a valid NumPy header: shape must be a tuple of non-negative "
        "integers");
    expectError([&] { parseNpy(npyBytes(Tensor({1}, {1})) + "xyz", "emb.npy"); }, "file",
                "emb.npy: the file has 3 bytes after the data of shape (1,); it may be corrupt");
}

TEST(Npz, Crc32MatchesZlib) {
    EXPECT_EQ(crc32("123456789"), 0xCBF43926u);  // the standard check value
    EXPECT_EQ(crc32(""), 0u);
}

TEST(Npz, LayoutFollowsZipSpecification) {
    const std::string zip = npzBytes({{"x", Tensor({1}, {2.0f})}});
    const std::string npy = npyBytes(Tensor({1}, {2.0f}));
    // Local header: signature, version 2.0, no flags, stored, DOS 1980-01-01, CRC, sizes, name.
    std::string local = "PK\x03\x04";
    appendLe<uint16_t>(local, 20);
    appendLe<uint16_t>(local, 0);
    appendLe<uint16_t>(local, 0);
    appendLe<uint16_t>(local, 0);
    appendLe<uint16_t>(local, 0x21);
    appendLe<uint32_t>(local, crc32(npy));
    appendLe<uint32_t>(local, static_cast<uint32_t>(npy.size()));
    appendLe<uint32_t>(local, static_cast<uint32_t>(npy.size()));
    appendLe<uint16_t>(local, 5);
    appendLe<uint16_t>(local, 0);
    local += "x.npy";
    ASSERT_GE(zip.size(), local.size() + npy.size());
    EXPECT_EQ(zip.substr(0, local.size()), local);
    EXPECT_EQ(zip.substr(local.size(), npy.size()), npy);
    EXPECT_EQ(zip.substr(local.size() + npy.size(), 4), "PK\x01\x02");
    // End record: 22 bytes, one entry, central directory of 46 + 5 bytes.
    const std::string end = zip.substr(zip.size() - 22);
    EXPECT_EQ(end.substr(0, 4), "PK\x05\x06");
    EXPECT_EQ(static_cast<unsigned char>(end[10]), 1);
    EXPECT_EQ(static_cast<unsigned char>(end[12]), 51);
    EXPECT_EQ(zip.size(), local.size() + npy.size() + 51 + 22);
}

TEST(Npz, RoundTrip) {
    test::TempDir dir;
    NamedTensors arrays = {
        {"inputs", Tensor({1, 2, 3}, {1, 2, 3, 4, 5, 6})},
        {"scores", Tensor({2, 2}, {0.5f, -std::numeric_limits<float>::infinity(), 1e-30f, 7})},
        {"scalar", Tensor(Shape{}, {3.25f})}};
    writeNpz(dir.file("trace.npz"), arrays);
    NamedTensors back = readNpz(dir.file("trace.npz"));
    ASSERT_EQ(back.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(back[i].first, arrays[i].first);
        EXPECT_EQ(back[i].second.shape(), arrays[i].second.shape());
        EXPECT_EQ(back[i].second.toVector(), arrays[i].second.toVector());
    }
}

TEST(Npz, ReadsNumpyZip64LocalHeaders) {
    // np.savez opens every entry with force_zip64=True: the local header's sizes are 0xFFFFFFFF
    // and the real ones sit in a ZIP64 extra field; the central directory has plain sizes.
    const std::string npy = npyBytes(Tensor({2}, {1.5f, -2.5f}));
    const uint32_t crc = crc32(npy);
    std::string zip = "PK\x03\x04";
    for (uint16_t v : {45, 0, 0, 0, 0x21})
        appendLe<uint16_t>(zip, v);
    appendLe<uint32_t>(zip, crc);
    appendLe<uint32_t>(zip, 0xFFFFFFFFu);
    appendLe<uint32_t>(zip, 0xFFFFFFFFu);
    appendLe<uint16_t>(zip, 5);
    appendLe<uint16_t>(zip, 20);
    zip += "a.npy";
    appendLe<uint16_t>(zip, 1);  // ZIP64 extra: id 1, 16 bytes, both sizes
    appendLe<uint16_t>(zip, 16);
    appendLe<uint64_t>(zip, npy.size());
    appendLe<uint64_t>(zip, npy.size());
    zip += npy;
    const uint32_t centralOffset = static_cast<uint32_t>(zip.size());
    std::string central = "PK\x01\x02";
    for (uint16_t v : {20, 20, 0, 0, 0, 0x21})
        appendLe<uint16_t>(central, v);
    appendLe<uint32_t>(central, crc);
    appendLe<uint32_t>(central, static_cast<uint32_t>(npy.size()));
    appendLe<uint32_t>(central, static_cast<uint32_t>(npy.size()));
    for (uint16_t v : {5, 0, 0, 0, 0})
        appendLe<uint16_t>(central, v);
    appendLe<uint32_t>(central, 0);
    appendLe<uint32_t>(central, 0);  // local header offset
    central += "a.npy";
    zip += central;
    zip += "PK\x05\x06";
    for (uint16_t v : {0, 0, 1, 1})
        appendLe<uint16_t>(zip, v);
    appendLe<uint32_t>(zip, static_cast<uint32_t>(central.size()));
    appendLe<uint32_t>(zip, centralOffset);
    appendLe<uint16_t>(zip, 0);
    NamedTensors arrays = parseNpz(zip, "np.npz");
    ASSERT_EQ(arrays.size(), 1u);
    EXPECT_EQ(arrays[0].first, "a");
    EXPECT_EQ(arrays[0].second.toVector(), (std::vector<float>{1.5f, -2.5f}));
}

TEST(NpzErrors, Malformed) {
    std::string zip = npzBytes({{"x", Tensor({1}, {2.0f})}});
    std::string corrupt = zip;
    corrupt[30 + 5 + 128] ^= 0x01;  // one bit of the float data
    expectError([&] { parseNpz(corrupt, "t.npz"); }, "file",
                "t.npz: entry x.npy fails its CRC-32 check; the file is corrupt");
    std::string deflated = zip;
    deflated[8] = 8;  // local header method
    const size_t central = zip.find("PK\x01\x02");
    deflated[central + 10] = 8;
    expectError([&] { parseNpz(deflated, "t.npz"); }, "file",
                "t.npz: entry x.npy is compressed (ZIP method 8); only uncompressed .npz files "
                "(np.savez, not np.savez_compressed) can be read");
    expectError([&] { parseNpz(zip.substr(0, 100), "t.npz"); }, "file",
                "t.npz: this is not an .npz (ZIP) file: its end-of-archive record is missing");
    expectError(
        [&] {
            npzBytes({{"a", Tensor({1}, {1})}, {"a", Tensor({1}, {2})}});
        },
        "output", "the .npz file would hold two arrays named 'a'");
}

}  // namespace
}  // namespace attn::io

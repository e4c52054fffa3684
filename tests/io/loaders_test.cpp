// The embeddings and weights loaders used by the CLI and the GUI (whether weights fit a module
// is tests/engine/weight_check_test.cpp).

#include <gtest/gtest.h>

#include <cmath>

#include "io/csv.h"
#include "io/json_tensor.h"
#include "io/loaders.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "io_test_util.h"

namespace attn::io {
namespace {

using test::expectError;

TEST(Embeddings, ReadsEveryFormat) {
    test::TempDir dir;
    Tensor x({2, 3}, {1, 2, 3, 4, 5, 6});
    writeNpy(dir.file("x.npy"), x);
    test::writeRaw(dir.file("x.json"), "[[1, 2, 3], [4, 5, 6]]");
    writeCsv(dir.file("x.csv"), x, {"a", "b"}, {"d0", "d1", "d2"});
    test::writeRaw(dir.file("X.CSV"), "1,2,3\n4,5,6\n");
    for (const char* name : {"x.npy", "x.json", "x.csv", "X.CSV"}) {
        Tensor t = readEmbeddingsFile(dir.file(name));
        EXPECT_EQ(t.shape(), (Shape{2, 3})) << name;
        EXPECT_EQ(t.toVector(), x.toVector()) << name;
    }
    writeNpy(dir.file("b.npy"), Tensor({2, 2, 3}));
    EXPECT_EQ(readEmbeddingsFile(dir.file("b.npy")).shape(), (Shape{2, 2, 3}));
}

TEST(EmbeddingsErrors, ShapeTypeAndValues) {
    test::TempDir dir;
    writeNpy(dir.file("v.npy"), Tensor({3}, {1, 2, 3}));
    expectError(
        [&] { readEmbeddingsFile(dir.file("v.npy")); }, "embeddings",
        "v.npy: the embeddings must be a (T, d_in) or (b, T, d_in) matrix, but the file holds "
        "shape (3,)");
    writeNpy(dir.file("e.npy"), Tensor({0, 3}));
    expectError([&] { readEmbeddingsFile(dir.file("e.npy")); }, "embeddings",
                "e.npy: the embeddings are empty (shape (0, 3)); at least one token with one "
                "number is needed");
    writeNpy(dir.file("n.npy"), Tensor({2, 2}, {1, 2, std::nanf(""), 4}));
    expectError([&] { readEmbeddingsFile(dir.file("n.npy")); }, "embeddings",
                "n.npy: element [1][0] is nan; embeddings must be finite numbers");
    test::writeRaw(dir.file("x.txt"), "1 2 3");
    expectError([&] { readEmbeddingsFile(dir.file("x.txt")); }, "embeddings",
                "x.txt: embeddings must be a .npy, .json or .csv file, not '.txt'");
    test::writeRaw(dir.file("r.json"), "[[1, 2], [3]]");
    expectError(
        [&] { readEmbeddingsFile(dir.file("r.json")); }, "embeddings",
        "r.json: ragged array: element [1] has 1 entries but element [0] has 2; every row must "
        "have the same length (line 1, column 10)");
    expectError([&] { readEmbeddingsFile(dir.file("missing.npy")); }, "embeddings",
                "Cannot read " + dir.file("missing.npy") + ": the file does not exist");
}

TEST(Weights, ReadsJsonAndSafetensors) {
    test::TempDir dir;
    WeightMap w;
    w["W_query.weight"] = Tensor({2, 3}, {1, 2, 3, 4, 5, 6});
    writeSafetensors(dir.file("w.safetensors"), w);
    test::writeRaw(dir.file("w.json"), "{\"W_query.weight\": [[1, 2, 3], [4, 5, 6]]}");
    for (const char* name : {"w.safetensors", "w.json"}) {
        WeightMap back = readWeightsFile(dir.file(name));
        ASSERT_EQ(back.size(), 1u) << name;
        EXPECT_EQ(back["W_query.weight"], w["W_query.weight"]) << name;
    }
    test::writeRaw(dir.file("w.pt"), "");
    expectError([&] { readWeightsFile(dir.file("w.pt")); }, "weights",
                "w.pt: weights must be a .json or .safetensors file, not '.pt'");
    test::writeRaw(dir.file("bad.safetensors"), "xx");
    expectError([&] { readWeightsFile(dir.file("bad.safetensors")); }, "weights",
                "bad.safetensors: the file is truncated: it is 2 bytes, shorter than the 8-byte "
                "header length");
}

}  // namespace
}  // namespace attn::io

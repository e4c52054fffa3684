// JSON tensors and weights files: what reads, and the exact message for what does not.

#include <gtest/gtest.h>

#include "io/json_reader.h"
#include "io/json_tensor.h"
#include "io_test_util.h"

namespace attn::io {
namespace {

using test::expectError;

TEST(JsonTensor, ReadsMatricesAndBatches) {
    Tensor m = parseJsonTensor("[[0.43, 0.15, 0.89],\n [0.55, 0.87, 0.66]]", "emb.json");
    EXPECT_EQ(m.shape(), (Shape{2, 3}));
    EXPECT_EQ(m.toVector(), (std::vector<float>{0.43f, 0.15f, 0.89f, 0.55f, 0.87f, 0.66f}));
    Tensor b = parseJsonTensor("[[[1, -2e-3]], [[3E+2, -0]]]", "emb.json");
    EXPECT_EQ(b.shape(), (Shape{2, 1, 2}));
    EXPECT_EQ(b.toVector(), (std::vector<float>{1.0f, -0.002f, 300.0f, -0.0f}));
    EXPECT_EQ(parseJsonTensor("[]", "e.json").shape(), (Shape{0}));
    EXPECT_EQ(parseJsonTensor("[[], []]", "e.json").shape(), (Shape{2, 0}));
    // Tiny values round like any float32 conversion; they are not an error.
    EXPECT_EQ(parseJsonTensor("[1e-50]", "e.json").flat(0), 0.0f);
}

TEST(JsonTensor, ReadsTheBookReferenceFile) {
    Tensor x = readJsonTensor(std::string(ATTN_FIXTURES_DIR) + "/reference/book_ch03_given.json");
    EXPECT_EQ(x.shape(), (Shape{6, 3}));
    EXPECT_EQ(x.at({0, 0}), 0.43f);
    EXPECT_EQ(x.at({5, 2}), 0.55f);
}

TEST(JsonTensorErrors, NaNAndInfinity) {
    expectError(
        [] { parseJsonTensor("[[0.1, NaN]]", "emb.json"); }, "file",
        "emb.json: element [0][1] is NaN; only finite numbers are allowed (JSON has no NaN or "
        "Infinity) (line 1, column 8)");
    expectError(
        [] { parseJsonTensor("[[0.1], [-Infinity]]", "emb.json"); }, "file",
        "emb.json: element [1][0] is -Infinity; only finite numbers are allowed (JSON has no "
        "NaN or Infinity) (line 1, column 10)");
    expectError(
        [] { parseJsonTensor("[1e39]", "emb.json"); }, "file",
        "emb.json: element [0] is 1e39, too large for float32 (at most 3.4028235e+38) (line 1, "
        "column 2)");
    expectError(
        [] { parseJsonTensor("[0, -1e999]", "emb.json"); }, "file",
        "emb.json: element [1] is -1e999, too large for float32 (at most 3.4028235e+38) (line 1, "
        "column 5)");
}

TEST(JsonTensorErrors, Ragged) {
    expectError(
        [] { parseJsonTensor("[[1, 2, 3],\n [4, 5]]", "emb.json"); }, "file",
        "emb.json: ragged array: element [1] has 2 entries but element [0] has 3; every row "
        "must have the same length (line 2, column 2)");
    expectError([] { parseJsonTensor("[[1, 2], 3]", "emb.json"); }, "file",
                "emb.json: element [1] is a number but element [0] is an array; every row must be "
                "nested the same way (line 1, column 10)");
    expectError([] { parseJsonTensor("[1, [2]]", "emb.json"); }, "file",
                "emb.json: element [1] is an array but element [0] is a number; every row must be "
                "nested the same way (line 1, column 5)");
}

TEST(JsonTensorErrors, DeepNesting) {
    EXPECT_EQ(parseJsonTensor("[[[[[[[[1]]]]]]]]", "e.json").dim(), 8);
    expectError(
        [] { parseJsonTensor("[[[[[[[[[1]]]]]]]]]", "emb.json"); }, "file",
        "emb.json: arrays are nested more than 8 levels deep at element [0][0][0][0][0][0][0][0]; "
        "at most 8 dimensions are supported (line 1, column 9)");
    // A million brackets: an error, not a stack overflow.
    expectError(
        [] { parseJsonTensor(std::string(1000000, '['), "emb.json"); }, "file",
        "emb.json: arrays are nested more than 8 levels deep at element [0][0][0][0][0][0][0][0]; "
        "at most 8 dimensions are supported (line 1, column 9)");
}

TEST(JsonTensorErrors, WrongTypes) {
    expectError([] { parseJsonTensor("[[1, \"2\"]]", "emb.json"); }, "file",
                "emb.json: element [0][1] is a string, expected a number (line 1, column 6)");
    expectError([] { parseJsonTensor("[[null]]", "emb.json"); }, "file",
                "emb.json: element [0][0] is null, expected a number (line 1, column 3)");
    expectError([] { parseJsonTensor("[{\"a\": 1}]", "emb.json"); }, "file",
                "emb.json: element [0] is an object, expected a number (line 1, column 2)");
    expectError([] { parseJsonTensor("\"hello\"", "emb.json"); }, "file",
                "emb.json: the value is a string, expected an array of numbers (line 1, column 1)");
    expectError([] { parseJsonTensor("{\"about\": \"x\"}", "emb.json"); }, "file",
                "emb.json: the object has no \"embeddings\" or \"inputs\" member; expected nested "
                "arrays of numbers");
}

TEST(JsonTensorErrors, Syntax) {
    expectError([] { parseJsonTensor("[[1, 2]", "emb.json"); }, "file",
                "emb.json: an array is not closed (missing ']') (line 1, column 1)");
    expectError([] { parseJsonTensor("[1 2]", "emb.json"); }, "file",
                "emb.json: expected ',' or ']' in an array but found '2' (line 1, column 4)");
    expectError(
        [] { parseJsonTensor("[01]", "emb.json"); }, "file",
        "emb.json: a number must not start with 0 (found leading zeros) (line 1, column 2)");
    expectError([] { parseJsonTensor("[1] x", "emb.json"); }, "file",
                "emb.json: unexpected 'x' after the end of the JSON value (line 1, column 5)");
    expectError([] { parseJsonTensor("  \n ", "emb.json"); }, "file",
                "emb.json: the file is empty; expected nested arrays of numbers");
}

TEST(JsonWeights, ReadsStateDictNames) {
    WeightMap w = parseJsonWeights(
        "{\"W_query.weight\": [[1, 2, 3], [4, 5, 6]], \"W_query.bias\": [0.5, -0.5], \"mask\": "
        "[[0, 1], [0, 0]]}",
        "weights.json");
    ASSERT_EQ(w.size(), 3u);
    EXPECT_EQ(w["W_query.weight"].shape(), (Shape{2, 3}));
    EXPECT_EQ(w["W_query.bias"].toVector(), (std::vector<float>{0.5f, -0.5f}));
    EXPECT_EQ(w["mask"].toVector(), (std::vector<float>{0, 1, 0, 0}));
}

TEST(JsonWeightsErrors, WrongTypesAndDuplicates) {
    expectError([] { parseJsonWeights("{\"W_query.weight\": \"abc\"}", "weights.json"); }, "file",
                "weights.json: W_query.weight is a string, expected an array of numbers (line 1, "
                "column 20)");
    expectError(
        [] { parseJsonWeights("{\"W_key.weight\": [[1, true]]}", "weights.json"); }, "file",
        "weights.json: W_key.weight[0][1] is a boolean, expected a number (line 1, column 23)");
    expectError(
        [] {
            parseJsonWeights(
                "{\"W_\xeb"
                "ey.weight\": [[1]]}",
                "weights.json");
        },
        "file",
        "weights.json: a string holds bytes that are not UTF-8 text (save the file as "
        "UTF-8) (line 1, column 2)");
    expectError([] { parseJsonWeights("{\"a\": [1], \"a\": [2]}", "weights.json"); }, "file",
                "weights.json: the weight a appears twice (line 1, column 12)");
    expectError(
        [] { parseJsonWeights("[[1]]", "weights.json"); }, "file",
        "weights.json: expected an object {\"W_query.weight\": [[...]], ...} of weights (line 1, "
        "column 1)");
}

TEST(JsonReader, ParsesGeneralValues) {
    JsonReader r(
        "{\"s\": \"a\\u00e9\\ud83d\\ude00\\n\", \"n\": -12.5e1, \"b\": [true, false, null]}",
        "x.json");
    JsonValue v = r.parseValue();
    r.expectEnd();
    ASSERT_EQ(v.type, JsonValue::Type::Object);
    EXPECT_EQ(v.member("s")->text, "a\xC3\xA9\xF0\x9F\x98\x80\n");
    EXPECT_EQ(v.member("n")->text, "-12.5e1");
    EXPECT_EQ(v.member("b")->items.size(), 3u);
    EXPECT_EQ(v.member("b")->items[2].type, JsonValue::Type::Null);
    const std::string brackets(100, '[');
    JsonReader deep(brackets, "x.json");
    expectError([&] { deep.parseValue(); }, "file",
                "x.json: values are nested more than 64 levels deep (line 1, column 66)");
}

}  // namespace
}  // namespace attn::io

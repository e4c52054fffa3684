// CSV: the writer's exact bytes, round trips with token labels, header and label detection,
// and the row/column of a bad cell.

#include <gtest/gtest.h>

#include <limits>

#include "io/csv.h"
#include "io_test_util.h"

namespace attn::io {
namespace {

using test::expectError;

TEST(Csv, WriterBytesAreExact) {
    Tensor m({2, 3},
             {0.1f, -2.0f, 1e-05f, std::numeric_limits<float>::infinity(), 0.0f, 123456.79f});
    EXPECT_EQ(csvBytes(m, {"Your", " journey"}, {"a", "b,c", "say \"hi\""}),
              ",a,\"b,c\",\"say \"\"hi\"\"\"\n"
              "Your,0.1,-2,1e-05\n"
              "\" journey\",inf,0,123456.79\n");
    EXPECT_EQ(csvBytes(Tensor({1, 2}, {1, 2}), {}, {}), "1,2\n");
    EXPECT_EQ(csvBytes(Tensor({1, 2}, {1, 2}), {}, {"x", "y"}), "x,y\n1,2\n");
}

TEST(Csv, RoundTripWithLabels) {
    test::TempDir dir;
    Tensor m({3, 2}, {0.1f, -0.0f, 1.17549435e-38f, 3.4028235e38f,
                      -std::numeric_limits<float>::infinity(), 7});
    const std::vector<std::string> rows = {" step", "a,b", "2023"};  // 2023: a numeric token
    const std::vector<std::string> columns = {"0", "line\nbreak"};
    writeCsv(dir.file("m.csv"), m, rows, columns);
    CsvMatrix back = readCsv(dir.file("m.csv"));
    EXPECT_EQ(back.values.shape(), (Shape{3, 2}));
    const std::vector<float> a = m.toVector(), b = back.values.toVector();
    for (size_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(test::floatBits(a[i]), test::floatBits(b[i]));
    EXPECT_EQ(back.rowLabels, rows);
    EXPECT_EQ(back.columnLabels, columns);
}

TEST(Csv, DetectsHeaderAndLabelColumn) {
    CsvMatrix plain = parseCsv("1,2,3\r\n4,5,6\r\n", "m.csv");
    EXPECT_EQ(plain.values.shape(), (Shape{2, 3}));
    EXPECT_TRUE(plain.rowLabels.empty());
    EXPECT_TRUE(plain.columnLabels.empty());
    CsvMatrix header = parseCsv("x, y\n 1 , +2\n\n3,4e0\n", "m.csv");
    EXPECT_EQ(header.columnLabels, (std::vector<std::string>{"x", " y"}));
    EXPECT_EQ(header.values.toVector(), (std::vector<float>{1, 2, 3, 4}));
    CsvMatrix labels = parseCsv("Your,0.43,0.15\njourney,0.55,0.87\n", "m.csv");
    EXPECT_EQ(labels.rowLabels, (std::vector<std::string>{"Your", "journey"}));
    EXPECT_EQ(labels.values.toVector(), (std::vector<float>{0.43f, 0.15f, 0.55f, 0.87f}));
    CsvMatrix bom = parseCsv(
        "\xEF\xBB\xBF"
        "1,2\n",
        "m.csv");
    EXPECT_EQ(bom.values.toVector(), (std::vector<float>{1, 2}));
}

TEST(CsvErrors, BadCellNamesRowAndColumn) {
    expectError([] { parseCsv("1,2,3\n4,abc,6\n", "emb.csv"); }, "file",
                "emb.csv: row 2, column 2: \"abc\" is not a number");
    // Rows and columns count as a spreadsheet shows them: header and label column included.
    expectError([] { parseCsv(",a,b\nx,1,2\ny,3,4.5.6\n", "emb.csv"); }, "file",
                "emb.csv: row 3, column 3: \"4.5.6\" is not a number");
    expectError([] { parseCsv("1,,3\n", "emb.csv"); }, "file",
                "emb.csv: row 1, column 2 is empty, expected a number");
    expectError([] { parseCsv("1,2\n3,1e999\n", "emb.csv"); }, "file",
                "emb.csv: row 2, column 2: 1e999 is too large for float32 (at most 3.4028235e+38)");
}

TEST(CsvErrors, RaggedAndEmpty) {
    expectError(
        [] { parseCsv("1,2,3\n4,5\n", "emb.csv"); }, "file",
        "emb.csv: row 2 has 2 cells but row 1 has 3; every row must have the same number of cells");
    expectError([] { parseCsv("a,b,c\n1,2\n", "emb.csv"); }, "file",
                "emb.csv: the header row has 3 cells but row 2 has 2; every row must have the same "
                "number of cells");
    expectError([] { parseCsv("\n\n", "emb.csv"); }, "file",
                "emb.csv: the file is empty; expected rows of comma-separated numbers");
    expectError([] { parseCsv("a,b\n", "emb.csv"); }, "file",
                "emb.csv: the file has a header row but no rows of numbers");
    expectError([] { parseCsv("1,\"2\n", "emb.csv"); }, "file",
                "emb.csv: row 1, column 2: a quoted field is not closed (missing '\"')");
}

TEST(CsvErrors, WriterNeedsAMatrix) {
    expectError(
        [] {
            csvBytes(Tensor({1, 2, 3}), {}, {});
        },
        "output", "a CSV file holds a 2-D matrix, but this tensor has shape (1, 2, 3)");
    expectError(
        [] {
            csvBytes(Tensor({2, 3}), {"a"}, {});
        },
        "output", "CSV export: 1 row labels for 2 rows");
}

}  // namespace
}  // namespace attn::io

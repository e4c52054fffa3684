// fuzz_csv: parseCsv on arbitrary text. Only attn::UserError may escape; the result must be
// a (rows, cols) matrix whose labels match its size, and a matrix without labels must survive
// csvBytes -> parseCsv unchanged.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"
#include "io/csv.h"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    io::CsvMatrix m;
    if (!fuzz::expectOnlyUserError("parseCsv", [&] { m = io::parseCsv(text, "fuzz.csv"); }))
        return 0;
    fuzz::touch(m.values, "parseCsv");
    fuzz::check(m.values.dim() == 2, "parseCsv",
                "result is not 2-D: " + shapeToString(m.values.shape()));
    const int64_t rows = m.values.size(0), cols = m.values.size(1);
    fuzz::check(m.rowLabels.empty() || static_cast<int64_t>(m.rowLabels.size()) == rows, "parseCsv",
                "row label count != rows");
    fuzz::check(m.columnLabels.empty() || static_cast<int64_t>(m.columnLabels.size()) == cols,
                "parseCsv", "column label count != columns");
    if (rows == 0 || cols == 0)
        return 0;

    std::string again;
    if (!fuzz::expectOnlyUserError("csvBytes", [&] { again = io::csvBytes(m.values, {}, {}); }))
        return 0;
    io::CsvMatrix back;
    if (!fuzz::expectOnlyUserError("parseCsv(csvBytes)",
                                     [&] { back = io::parseCsv(again, "again.csv"); }))
        fuzz::fail("csv round trip",
                   "csvBytes() output rejected by parseCsv(): " + again.substr(0, 200));
    fuzz::check(back.values.shape() == m.values.shape(), "csv round trip", "shape changed");
    const auto a = m.values.toVector(), b = back.values.toVector();
    for (size_t i = 0; i < a.size(); ++i)
        fuzz::check(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])), "csv round trip",
                    "value changed at " + std::to_string(i) + ": " + std::to_string(a[i]) + " -> " +
                        std::to_string(b[i]));
    return 0;
}

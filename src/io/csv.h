#pragma once
// Comma-separated matrices (RFC 4180 quoting) with optional column and row labels.

#include <string>
#include <string_view>
#include <vector>

#include "engine/tensor.h"
#include "engine/trace.h"

namespace attn::io {

struct CsvMatrix {
    Tensor values;                          // (rows, columns)
    std::vector<std::string> rowLabels;     // empty when the file has no label column
    std::vector<std::string> columnLabels;  // empty when the file has no header row
};

// The first row is a header when one of its cells is not a number; the first column holds
// labels when the header's first cell is empty (as writeCsv makes it) or when no data row
// starts with a number. Cells may be "inf", "-inf" or "nan" (as writeCsv writes them).
// Errors name the row and column as a spreadsheet shows them (1-based, counting the header
// and label column). Throws attn::UserError("file", "<source>: ...").
CsvMatrix parseCsv(std::string_view text, const std::string& source);
CsvMatrix readCsv(const std::string& path);

// First row: an empty cell, then the column labels; each row starts with its label. Labels
// that are empty vectors leave out that row or column. Fields are quoted when they hold a
// comma, a quote, a line break or leading/trailing spaces (GPT-2 tokens start with a space).
// Numbers are the shortest text that reads back as the same float32. Rows end with "\n".
std::string csvBytes(const Tensor& matrix, const std::vector<std::string>& rowLabels,
                     const std::vector<std::string>& columnLabels);
void writeCsv(const std::string& path, const Tensor& matrix,
              const std::vector<std::string>& rowLabels,
              const std::vector<std::string>& columnLabels);

// One step for one head and batch entry, exactly the matrix its heatmap shows (stepMatrix and
// sliceLabels of engine/trace.h), token axes labelled with `tokens`.
void writeStepCsv(const std::string& path, const Step& step, int64_t head, int64_t batch,
                  const std::vector<std::string>& tokens);

}  // namespace attn::io

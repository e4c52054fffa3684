#include "io/csv.h"

#include "engine/config.h"
#include "io/file_io.h"
#include "io/text_format.h"

namespace attn::io {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& message) {
    throw UserError("file", source + ": " + message);
}

struct Record {
    size_t row = 0;  // 1-based record number in the file
    std::vector<std::string> cells;
};

std::vector<Record> splitRecords(std::string_view text, const std::string& source) {
    std::vector<Record> records;
    size_t i = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        i = 3;  // byte order mark from spreadsheet exports
    size_t row = 1;
    while (i < text.size()) {
        Record record;
        record.row = row;
        std::string cell;
        bool endOfRecord = false;
        while (!endOfRecord) {
            cell.clear();
            if (i < text.size() && text[i] == '"') {
                const size_t openRow = row;
                ++i;
                while (true) {
                    if (i >= text.size())
                        fail(source, "row " + std::to_string(openRow) + ", column " +
                                         std::to_string(record.cells.size() + 1) +
                                         ": a quoted field is not closed (missing '\"')");
                    char c = text[i++];
                    if (c == '"') {
                        if (i < text.size() && text[i] == '"') {
                            cell.push_back('"');
                            ++i;
                        } else {
                            break;
                        }
                    } else {
                        if (c == '\n')
                            ++row;
                        cell.push_back(c);
                    }
                }
                // Spaces after the closing quote are tolerated; anything else is an error.
                while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
                    ++i;
                if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
                    fail(source, "row " + std::to_string(row) + ", column " +
                                     std::to_string(record.cells.size() + 1) +
                                     ": unexpected text after a closing quote");
            } else {
                while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
                    cell.push_back(text[i++]);
            }
            record.cells.push_back(cell);
            if (i >= text.size()) {
                endOfRecord = true;
            } else if (text[i] == ',') {
                ++i;
            } else {
                if (text[i] == '\r')
                    ++i;
                if (i < text.size() && text[i] == '\n')
                    ++i;
                endOfRecord = true;
            }
        }
        ++row;
        // Blank lines (one empty cell) are skipped but still counted for row numbers.
        if (!(record.cells.size() == 1 &&
              record.cells[0].find_first_not_of(" \t") == std::string::npos))
            records.push_back(std::move(record));
    }
    return records;
}

std::string_view trim(std::string_view s) {
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos)
        return {};
    size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

enum class CellParse { Ok, NotNumber, TooLarge };

CellParse parseCell(std::string_view cell, float& value) {
    std::string_view t = trim(cell);
    if (!t.empty() && t[0] == '+')
        t.remove_prefix(1);
    if (t.empty())
        return CellParse::NotNumber;
    switch (parseFloat32(t, value)) {
        case FloatParse::Ok:
            return CellParse::Ok;
        case FloatParse::TooLarge:
            return CellParse::TooLarge;
        case FloatParse::Invalid:
            break;
    }
    return CellParse::NotNumber;
}

bool isNumber(std::string_view cell) {
    float v;
    return parseCell(cell, v) != CellParse::NotNumber;
}

bool needsQuotes(std::string_view field) {
    if (field.empty())
        return false;
    if (field.find_first_of(",\"\r\n") != std::string_view::npos)
        return true;
    return field.front() == ' ' || field.front() == '\t' || field.back() == ' ' ||
           field.back() == '\t';
}

void appendField(std::string& out, std::string_view field) {
    if (!needsQuotes(field)) {
        out.append(field);
        return;
    }
    out.push_back('"');
    for (char c : field) {
        if (c == '"')
            out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
}

}  // namespace

CsvMatrix parseCsv(std::string_view text, const std::string& source) {
    std::vector<Record> records = splitRecords(text, source);
    if (records.empty())
        fail(source, "the file is empty; expected rows of comma-separated numbers");

    CsvMatrix result;
    // Header: a row-0 cell past the first that is text (an empty cell is a missing number, not
    // a label), or the empty corner cell writeCsv leaves, or a text first cell above numbers.
    const std::vector<std::string>& top = records[0].cells;
    auto isText = [](const std::string& cell) { return !trim(cell).empty() && !isNumber(cell); };
    auto restFirstCellsAreText = [&](size_t from) {
        for (size_t r = from; r < records.size(); ++r)
            if (!isText(records[r].cells[0]))
                return false;
        return records.size() > from;
    };
    bool hasHeader = false;
    for (size_t c = 1; c < top.size(); ++c)
        hasHeader = hasHeader || isText(top[c]);
    if (top.size() > 1 && trim(top[0]).empty())
        hasHeader = true;
    if (isText(top[0]) && !restFirstCellsAreText(1))
        hasHeader = true;
    const size_t firstData = hasHeader ? 1 : 0;
    if (records.size() <= firstData)
        fail(source, "the file has a header row but no rows of numbers");

    // Label column: under an empty corner cell, or when every data row starts with text.
    const bool hasLabels = (hasHeader && trim(top[0]).empty()) || restFirstCellsAreText(firstData);
    const size_t firstColumn = hasLabels ? 1 : 0;
    const size_t width = records[firstData].cells.size();
    if (width <= firstColumn)
        fail(source, "row " + std::to_string(records[firstData].row) + " has no numbers");
    if (hasHeader && records[0].cells.size() != width)
        fail(source, "the header row has " + std::to_string(records[0].cells.size()) +
                         " cells but row " + std::to_string(records[firstData].row) + " has " +
                         std::to_string(width) + "; every row must have the same number of cells");
    const size_t rows = records.size() - firstData;
    const size_t columns = width - firstColumn;
    std::vector<float> values;
    values.reserve(rows * columns);
    for (size_t r = firstData; r < records.size(); ++r) {
        const Record& rec = records[r];
        if (rec.cells.size() != width)
            fail(source,
                 "row " + std::to_string(rec.row) + " has " + std::to_string(rec.cells.size()) +
                     " cells but row " + std::to_string(records[firstData].row) + " has " +
                     std::to_string(width) + "; every row must have the same number of cells");
        if (hasLabels)
            result.rowLabels.push_back(rec.cells[0]);
        for (size_t c = firstColumn; c < width; ++c) {
            float v = 0.0f;
            const std::string where =
                "row " + std::to_string(rec.row) + ", column " + std::to_string(c + 1);
            switch (parseCell(rec.cells[c], v)) {
                case CellParse::Ok:
                    break;
                case CellParse::TooLarge:
                    fail(source, where + ": " + std::string(trim(rec.cells[c])) +
                                     " is too large for float32 (at most 3.4028235e+38)");
                case CellParse::NotNumber:
                    if (trim(rec.cells[c]).empty())
                        fail(source, where + " is empty, expected a number");
                    fail(source, where + ": \"" + rec.cells[c] + "\" is not a number");
            }
            values.push_back(v);
        }
    }
    if (hasHeader)
        result.columnLabels.assign(
            records[0].cells.begin() + static_cast<std::ptrdiff_t>(firstColumn),
            records[0].cells.end());
    result.values =
        Tensor(Shape{static_cast<int64_t>(rows), static_cast<int64_t>(columns)}, std::move(values));
    return result;
}

CsvMatrix readCsv(const std::string& path) {
    return parseCsv(readFileBytes(path), fileDisplayName(path));
}

std::string csvBytes(const Tensor& matrix, const std::vector<std::string>& rowLabels,
                     const std::vector<std::string>& columnLabels) {
    if (matrix.dim() != 2)
        throw UserError("output", "a CSV file holds a 2-D matrix, but this tensor has shape " +
                                        shapeToString(matrix.shape()));
    const int64_t rows = matrix.size(0), columns = matrix.size(1);
    if (!rowLabels.empty() && static_cast<int64_t>(rowLabels.size()) != rows)
        throw UserError("output", "CSV export: " + std::to_string(rowLabels.size()) +
                                        " row labels for " + std::to_string(rows) + " rows");
    if (!columnLabels.empty() && static_cast<int64_t>(columnLabels.size()) != columns)
        throw UserError("output", "CSV export: " + std::to_string(columnLabels.size()) +
                                        " column labels for " + std::to_string(columns) +
                                        " columns");
    const Tensor c = matrix.contiguous();
    const float* data = c.data();
    std::string out;
    out.reserve(static_cast<size_t>(rows * (columns + 1)) * 14 + 64);
    if (!columnLabels.empty()) {
        if (!rowLabels.empty())
            out.push_back(',');  // the empty corner cell
        for (size_t j = 0; j < columnLabels.size(); ++j) {
            if (j)
                out.push_back(',');
            appendField(out, columnLabels[j]);
        }
        out.push_back('\n');
    }
    for (int64_t i = 0; i < rows; ++i) {
        if (!rowLabels.empty()) {
            appendField(out, rowLabels[static_cast<size_t>(i)]);
            out.push_back(',');
        }
        for (int64_t j = 0; j < columns; ++j) {
            if (j)
                out.push_back(',');
            appendFloat(out, data[i * columns + j]);
        }
        out.push_back('\n');
    }
    return out;
}

void writeCsv(const std::string& path, const Tensor& matrix,
              const std::vector<std::string>& rowLabels,
              const std::vector<std::string>& columnLabels) {
    writeFileAtomically(path, csvBytes(matrix, rowLabels, columnLabels));
}

void writeStepCsv(const std::string& path, const Step& step, int64_t head, int64_t batch,
                  const std::vector<std::string>& tokens) {
    const StepSlice slice = sliceStepValues(step, head, batch);
    const SliceLabels labels = sliceLabels(slice, tokens);
    writeCsv(path, stepMatrix(slice), labels.rows, labels.cols);
}

}  // namespace attn::io

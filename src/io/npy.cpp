#include "io/npy.h"

#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <set>

#include "engine/config.h"
#include "engine/half.h"
#include "io/file_io.h"
#include "io/little_endian.h"
#include "io/zip.h"

namespace attn::io {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

[[noreturn]] void fail(const std::string& source, const std::string& message) {
    throw UserError("file", source + ": " + message);
}

// The same in translatable parts (pipeline/issue_text.cpp lists their formats).
[[noreturn]] void fail(const std::string& source, MessagePart part) {
    throw UserError("file", {{"%1: ", {source}}, std::move(part)});
}

// The header dict is a Python literal: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
struct NpyHeader {
    std::string descr;
    bool fortranOrder = false;
    Shape shape;
};

class HeaderParser {
  public:
    HeaderParser(std::string_view text, const std::string& source) : text_(text), source_(source) {}

    NpyHeader parse() {
        NpyHeader h;
        bool haveDescr = false, haveOrder = false, haveShape = false;
        skip();
        expect('{');
        while (true) {
            skip();
            if (peek() == '}')
                break;
            std::string key = parseStringLiteral();
            skip();
            expect(':');
            skip();
            if (key == "descr") {
                if (peek() == '[')
                    bad("the array has a structured dtype (a list of fields); only plain numeric "
                        "arrays are supported");
                h.descr = parseStringLiteral();
                haveDescr = true;
            } else if (key == "fortran_order") {
                if (text_.substr(pos_).starts_with("True")) {
                    h.fortranOrder = true;
                    pos_ += 4;
                } else if (text_.substr(pos_).starts_with("False")) {
                    pos_ += 5;
                } else {
                    bad("fortran_order must be True or False");
                }
                haveOrder = true;
            } else if (key == "shape") {
                h.shape = parseShape();
                haveShape = true;
            } else {
                bad("unexpected key '" + key +
                    "' (a .npy header has descr, fortran_order and shape)");
            }
            skip();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            skip();
            if (peek() != '}')
                bad("expected ',' or '}'");
        }
        ++pos_;
        // Padding: spaces, then one '\n' (older writers pad differently; allow any whitespace).
        while (pos_ < text_.size()) {
            char c = text_[pos_++];
            if (c != ' ' && c != '\n' && c != '\t' && c != '\r' && c != '\0')
                bad("unexpected text after the closing '}'");
        }
        if (!haveDescr || !haveOrder || !haveShape)
            bad(std::string("the key '") +
                (!haveDescr   ? "descr"
                 : !haveOrder ? "fortran_order"
                              : "shape") +
                "' is missing");
        return h;
    }

  private:
    [[noreturn]] void bad(const std::string& detail) {
        fail(source_, "the header is not a valid NumPy header: " + detail);
    }
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    void skip() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t'))
            ++pos_;
    }
    void expect(char c) {
        if (peek() != c)
            bad(std::string("expected '") + c + "'");
        ++pos_;
    }
    std::string parseStringLiteral() {
        char q = peek();
        if (q != '\'' && q != '"')
            bad("expected a quoted string");
        size_t end = text_.find(q, pos_ + 1);
        if (end == std::string_view::npos)
            bad("a string is not closed");
        std::string s(text_.substr(pos_ + 1, end - pos_ - 1));
        pos_ = end + 1;
        return s;
    }
    Shape parseShape() {
        expect('(');
        Shape shape;
        while (true) {
            skip();
            if (peek() == ')')
                break;
            if (peek() < '0' || peek() > '9')
                bad("shape must be a tuple of non-negative integers");
            int64_t v = 0;
            while (peek() >= '0' && peek() <= '9') {
                int digit = peek() - '0';
                if (v > (std::numeric_limits<int64_t>::max() - digit) / 10)
                    bad("a dimension in the shape is too large");
                v = v * 10 + digit;
                ++pos_;
            }
            if (peek() == 'L')
                ++pos_;  // Python 2 long literal
            shape.push_back(v);
            if (shape.size() > 64)
                bad("the shape has more than 64 dimensions");
            skip();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() != ')')
                bad("expected ',' or ')' in the shape");
        }
        ++pos_;
        return shape;
    }

    std::string_view text_;
    const std::string& source_;
    size_t pos_ = 0;
};

struct DtypeInfo {
    char kind;  // 'f' or 'i'
    int size;
};

DtypeInfo checkDtype(const std::string& descr, const std::string& source) {
    const std::string supported =
        "use float32 ('<f4'), float64 ('<f8'), float16 ('<f2'), int32 ('<i4') or int64 ('<i8')";
    if (descr.size() >= 2 && descr[0] == '>' && descr != ">f1" && descr != ">i1")
        fail(source, "the data is big-endian ('" + descr +
                         "'), which is not supported; save it little-endian, e.g. "
                         "np.save(path, arr.astype('<f4'))");
    std::string d = descr;
    if (d.size() >= 2 && (d[0] == '=' || d[0] == '|'))
        d[0] = '<';  // '=' is native: little here
    if (d == "<f4")
        return {'f', 4};
    if (d == "<f8")
        return {'f', 8};
    if (d == "<f2")
        return {'f', 2};
    if (d == "<i4")
        return {'i', 4};
    if (d == "<i8")
        return {'i', 8};
    fail(source, "the dtype '" + descr + "' is not supported; " + supported);
}

// Converts `count` elements of `dtype` to float32 into `out`.
void convertElements(const char* p, int64_t count, DtypeInfo dtype, float* out) {
    if (dtype.kind == 'f' && dtype.size == 4) {
        if (count > 0)
            std::memcpy(out, p, static_cast<size_t>(count) * 4);
    } else {
        for (int64_t i = 0; i < count; ++i) {
            const char* e = p + i * dtype.size;
            float v = 0.0f;
            if (dtype.kind == 'f' && dtype.size == 8)
                v = static_cast<float>(loadLe<double>(e));
            else if (dtype.kind == 'f' && dtype.size == 2)
                v = halfToFloat(loadLe<uint16_t>(e));
            else if (dtype.kind == 'i' && dtype.size == 4)
                v = static_cast<float>(loadLe<int32_t>(e));
            else
                v = static_cast<float>(loadLe<int64_t>(e));
            out[i] = v;
        }
    }
}

// Fortran order stores the first index fastest; reorder to row-major. The header parser
// allows at most 64 dimensions, so fixed arrays suffice.
void fortranToRowMajor(const float* f, const Shape& shape, float* out) {
    const size_t count = static_cast<size_t>(shapeNumel(shape));
    const size_t nd = shape.size();
    std::array<int64_t, 64> fstride{};
    std::array<int64_t, 64> index{};
    fstride[0] = 1;
    for (size_t d = 1; d < nd; ++d)
        fstride[d] = fstride[d - 1] * shape[d - 1];
    int64_t src = 0;
    for (size_t i = 0; i < count; ++i) {
        out[i] = f[src];
        // Increment the row-major index (last dim fastest), tracking the Fortran offset.
        for (size_t d = nd; d-- > 0;) {
            ++index[d];
            src += fstride[d];
            if (index[d] < shape[d])
                break;
            src -= fstride[d] * index[d];
            index[d] = 0;
        }
    }
}

}  // namespace

Tensor parseNpy(std::string_view bytes, const std::string& source) {
    if (bytes.empty())
        fail(source, MessagePart{"the file is empty", {}});
    if (bytes.size() < 8 || bytes.substr(0, 6) != kMagic) {
        if (bytes.size() < 6 && kMagic.starts_with(bytes))
            fail(source, "the file is truncated: it ends inside the 6-byte \\x93NUMPY signature");
        fail(source,
             MessagePart{"this is not a NumPy .npy file (it does not start with \\x93NUMPY)", {}});
    }
    const int major = static_cast<unsigned char>(bytes[6]);
    const int minor = static_cast<unsigned char>(bytes[7]);
    if ((major != 1 && major != 2 && major != 3) || minor != 0)
        fail(source, "unsupported .npy format version " + std::to_string(major) + "." +
                         std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
    const size_t lengthBytes = major == 1 ? 2 : 4;
    const size_t preamble = 8 + lengthBytes;
    if (bytes.size() < preamble)
        fail(source, "the file is truncated: it ends before the header length");
    const uint64_t headerLength =
        major == 1 ? loadLe<uint16_t>(bytes.data() + 8) : loadLe<uint32_t>(bytes.data() + 8);
    if (headerLength > bytes.size() - preamble)
        fail(source, "the file is truncated: the header should be " + std::to_string(headerLength) +
                         " bytes but only " + std::to_string(bytes.size() - preamble) + " follow");
    std::string_view headerText = bytes.substr(preamble, headerLength);
    NpyHeader header = HeaderParser(headerText, source).parse();
    DtypeInfo dtype = checkDtype(header.descr, source);

    const uint64_t available = bytes.size() - preamble - headerLength;
    // Multiply with overflow checks: the shape comes from the file and may be absurd.
    uint64_t count = 1;
    bool overflow = false;
    for (int64_t d : header.shape) {
        if (d != 0 && count > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(d))
            overflow = true;
        else
            count *= static_cast<uint64_t>(d);
    }
    const uint64_t itemSize = static_cast<uint64_t>(dtype.size);
    if (overflow || !shapeIsRepresentable(header.shape) ||
        count > std::numeric_limits<uint64_t>::max() / itemSize)
        fail(source, "the header declares shape " + shapeToString(header.shape) +
                         ", far more data than any file can hold; the file is corrupt");
    const uint64_t needed = count * itemSize;
    if (needed > available)
        fail(source, "the file is truncated: shape " + shapeToString(header.shape) + " of '" +
                         header.descr + "' needs " + std::to_string(needed) +
                         " bytes of data but the file holds " + std::to_string(available));
    if (needed < available)
        fail(source, "the file has " + std::to_string(available - needed) +
                         " bytes after the data of shape " + shapeToString(header.shape) +
                         "; it may be corrupt");

    const char* data = bytes.data() + preamble + headerLength;
    // Sizes are verified against the file above, so allocating now is safe.
    Tensor result = Tensor::uninitialized(header.shape);
    if (header.fortranOrder && header.shape.size() > 1) {
        std::vector<float> fortran(static_cast<size_t>(count));
        convertElements(data, static_cast<int64_t>(count), dtype, fortran.data());
        fortranToRowMajor(fortran.data(), header.shape, result.mutableData());
    } else {
        convertElements(data, static_cast<int64_t>(count), dtype, result.mutableData());
    }
    return result;
}

Tensor readNpy(const std::string& path) {
    return parseNpy(readFileBytes(path), fileDisplayName(path));
}

std::string npyHeader(const Shape& shape) {
    std::string dict =
        "{'descr': '<f4', 'fortran_order': False, 'shape': " + shapeToString(shape) + ", }";
    // Version 1.0 stores the header length in 2 bytes; 2.0 (4 bytes) only for huge headers.
    const bool v2 = dict.size() + 1 + 10 > 65535;
    const size_t preamble = v2 ? 12 : 10;
    size_t total = preamble + dict.size() + 1;  // + '\n'
    const size_t padded = (total + 63) / 64 * 64;
    dict.append(padded - total, ' ');
    dict.push_back('\n');
    std::string out(kMagic);
    out.push_back(static_cast<char>(v2 ? 2 : 1));
    out.push_back('\0');
    if (v2)
        storeLe<uint32_t>(out, static_cast<uint32_t>(dict.size()));
    else
        storeLe<uint16_t>(out, static_cast<uint16_t>(dict.size()));
    out += dict;
    return out;
}

std::string npyBytes(const Tensor& tensor) {
    std::string out = npyHeader(tensor.shape());
    if (tensor.empty())
        return out;
    const size_t bytes = static_cast<size_t>(tensor.numel()) * sizeof(float);
    const size_t start = out.size();
    out.resize(start + bytes);
    if (bytes == 0)
        return out;
    if (tensor.isContiguous()) {
        std::memcpy(out.data() + start, tensor.data(), bytes);
    } else {
        std::vector<float> v = tensor.toVector();
        std::memcpy(out.data() + start, v.data(), bytes);
    }
    return out;
}

void writeNpy(const std::string& path, const Tensor& tensor) {
    writeFileAtomically(path, npyBytes(tensor));
}

void writeAttentionNpy(const std::string& path, const DecoderRun& run, const CancelToken* cancel) {
    if (run.attentionKept()) {
        writeNpy(path, run.attention);
        return;
    }
    if (!run.model)
        throw UserError("output", "Cannot write " + path + ": there is no model run to export.");
    const DecoderArchitecture& a = run.model->arch;
    writeFileAtomically(path, [&](const FileSink& write) {
        write(npyHeader({a.layers, a.heads, run.tokens(), run.tokens()}));
        for (int64_t l = 0; l < a.layers; ++l) {
            throwIfCancelled(cancel);
            const Tensor layer = layerAttention(run, l, cancel).contiguous();
            // .npy float32 is little-endian ('<f4'), as every machine the app runs on.
            write(std::string_view(reinterpret_cast<const char*>(layer.data()),
                                   size_t(layer.numel()) * sizeof(float)));
        }
    });
}

std::string npzBytes(const NamedTensors& arrays) {
    if (arrays.size() > 65535)
        throw UserError("output", "an .npz file can hold at most 65535 arrays without ZIP64, not " +
                                      std::to_string(arrays.size()));
    // Size check first, so a trace too large for ZIP fails before building anything.
    uint64_t total = 22;
    std::set<std::string> seen;
    for (const auto& [name, tensor] : arrays) {
        if (name.empty())
            throw UserError("output", "an array in the .npz file has an empty name");
        if (!seen.insert(name).second)
            throw UserError("output", "the .npz file would hold two arrays named '" + name + "'");
        const uint64_t entry = npyHeader(tensor.shape()).size() + uint64_t(tensor.numel()) * 4;
        total += 30 + 46 + 2 * (name.size() + 4) + entry;
    }
    if (total > 0xFFFFFFFFull)  // the ZIP limit without ZIP64
        throw UserError("output", "the .npz file would be " + formatBytes(total) +
                                      ", more than the 4 GiB a ZIP file can hold without ZIP64; "
                                      "export fewer or smaller steps");
    ZipWriter zip;
    for (const auto& [name, tensor] : arrays)
        zip.add(name + ".npy", npyBytes(tensor));
    return zip.finish();
}

void writeNpz(const std::string& path, const NamedTensors& arrays) {
    writeFileAtomically(path, npzBytes(arrays));
}

NamedTensors traceTensors(const Trace& trace) {
    NamedTensors out;
    out.reserve(trace.steps.size());
    for (const Step& step : trace.steps)
        out.emplace_back(step.info.id, step.value);
    return out;
}

NamedTensors parseNpz(std::string_view bytes, const std::string& source) {
    NamedTensors out;
    for (const ZipEntry& entry : readZipDirectory(bytes, source, "an .npz (ZIP) file")) {
        const std::string_view data = zipEntryData(
            bytes, entry, source, true,
            "only uncompressed .npz files (np.savez, not np.savez_compressed) can be read");
        std::string arrayName = entry.name;
        if (arrayName.size() > 4 && arrayName.ends_with(".npy"))
            arrayName.resize(arrayName.size() - 4);
        out.emplace_back(arrayName, parseNpy(data, source + ": " + entry.name));
    }
    return out;
}

NamedTensors readNpz(const std::string& path) {
    return parseNpz(readFileBytes(path), fileDisplayName(path));
}

}  // namespace attn::io

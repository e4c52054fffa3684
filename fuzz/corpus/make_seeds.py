#!/usr/bin/env python3
"""Writes the seed corpora in fuzz/corpus/<target>/ (standard library only, no numpy).

Small valid files of every supported layout plus edge cases each parser must reject cleanly.
Rerun after changing it: python3 fuzz/corpus/make_seeds.py  (fuzz_tokenizer's seeds are
hand-written and left alone)."""
import io
import json
import os
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
        [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]]


def put(target, name, data):
    d = os.path.join(HERE, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    assert len(data) < 10 * 1024, (target, name)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def flat(x):
    if isinstance(x, list):
        return [v for e in x for v in flat(e)]
    return [x]


def npy(values, shape, descr="<f4", fortran=False, version=(1, 0), fmt=None):
    fmt = fmt or {"<f4": "f", "<f8": "d", "<f2": "e", "<i4": "i", "<i8": "q", ">f4": "f",
                  "|b1": "?", "<u1": "B"}[descr]
    shp = "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", shp)
    lenfmt = "<H" if version[0] == 1 else "<I"
    pre = 6 + 2 + struct.calcsize(lenfmt)
    pad = (64 - (pre + len(header) + 1) % 64) % 64
    header = header + " " * pad + "\n"
    enc = "utf-8" if version[0] == 3 else "latin1"
    endian = ">" if descr.startswith(">") else "<"
    body = struct.pack(endian + fmt * len(values), *values)
    return (b"\x93NUMPY" + bytes(version) + struct.pack(lenfmt, len(header.encode(enc)))
            + header.encode(enc) + body)


def write_npy():
    t = "fuzz_npy"
    book = flat(BOOK)
    put(t, "book_f4_6x3.npy", npy(book, [6, 3]))
    put(t, "f8_1d.npy", npy([1.5, -2.0, 3.25], [3], "<f8"))
    put(t, "f2_fortran_2x3.npy", npy([1, 4, 2, 5, 3, 6], [2, 3], "<f2", fortran=True))
    put(t, "i4_2x2.npy", npy([1, -2, 3, 4], [2, 2], "<i4"))
    put(t, "i8_batch_2x2x2.npy", npy(list(range(8)), [2, 2, 2], "<i8"))
    put(t, "scalar_0d.npy", npy([7.0], []))
    put(t, "empty_0x3.npy", npy([], [0, 3]))
    put(t, "v2_header.npy", npy([1.0, 2.0], [1, 2], version=(2, 0)))
    put(t, "v3_header.npy", npy([1.0, 2.0], [2, 1], version=(3, 0)))
    put(t, "fortran_3d.npy", npy([float(i) for i in range(12)], [2, 3, 2], fortran=True))
    # Must be rejected cleanly:
    put(t, "bad_bigendian.npy", npy([1.0, 2.0], [2], ">f4"))
    put(t, "bad_bool.npy", npy([True, False], [2], "|b1"))
    put(t, "bad_truncated.npy", npy(book, [6, 3])[:-5])
    put(t, "bad_huge_shape.npy", npy([1.0], [4611686018427387904, 4]))
    put(t, "bad_negative_shape.npy", npy([1.0], [1]).replace(b"(1,)", b"(-1,)"))
    put(t, "bad_version.npy", b"\x93NUMPY\x09\x00" + npy([1.0], [1])[8:])
    put(t, "bad_structured.npy", npy([1.0], [1]).replace(b"'<f4'", b"[('a', '<f4')]"[:6]))
    put(t, "magic_only.npy", b"\x93NUMPY")


def npz(entries, compress=False):
    buf = io.BytesIO()
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in entries:
            z.writestr(name, data)
    return buf.getvalue()


def write_npz():
    t = "fuzz_npz"
    x = npy(flat(BOOK), [6, 3])
    w = npy([0.1 * i for i in range(6)], [3, 2])
    put(t, "two_arrays.npz", npz([("x.npy", x), ("W_query.npy", w)]))
    put(t, "one_array.npz", npz([("arr_0.npy", npy([1.0], [1]))]))
    put(t, "scalar_and_f8.npz", npz([("s.npy", npy([2.0], [])), ("d.npy", npy([1.0, 2.0], [2], "<f8"))]))
    put(t, "empty_archive.npz", npz([]))
    put(t, "bad_compressed.npz", npz([("x.npy", x)], compress=True))
    put(t, "bad_not_npy_member.npz", npz([("readme.txt", b"hello")]))
    put(t, "bad_truncated.npz", npz([("x.npy", x)])[:-30])
    good = bytearray(npz([("x.npy", w)]))
    good[-60] ^= 0xFF  # damage the central directory
    put(t, "bad_central_dir.npz", bytes(good))


def safetensors(tensors, metadata=None, pad=True):
    header = {}
    data = b""
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    if metadata is not None:
        header["__metadata__"] = metadata
    h = json.dumps(header, separators=(",", ":")).encode()
    if pad:
        h += b" " * ((8 - len(h) % 8) % 8)
    return struct.pack("<Q", len(h)) + h + data


def f32(v):
    return struct.pack("<%df" % len(v), *v)


def write_safetensors():
    t = "fuzz_safetensors"
    w = f32([0.1 * i for i in range(6)])
    put(t, "v1_weights.safetensors", safetensors(
        {"W_query": ("F32", [3, 2], w), "W_key": ("F32", [3, 2], w), "W_value": ("F32", [3, 2], w)},
        {"format": "pt"}))
    mask = struct.pack("<36?", *[c > r for r in range(6) for c in range(6)])
    mh = {n: ("F32", [2, 2], f32([1, 2, 3, 4])) for n in
          ["W_query.weight", "W_key.weight", "W_value.weight", "out_proj.weight"]}
    mh["out_proj.bias"] = ("F32", [2], f32([0.5, -0.5]))
    mh["mask"] = ("BOOL", [6, 6], mask)
    put(t, "multihead_with_mask.safetensors", safetensors(mh))
    put(t, "f16_bf16_f64.safetensors", safetensors({
        "a": ("F16", [2], struct.pack("<2e", 1.0, -2.5)),
        "b": ("BF16", [2], b"\x80\x3f\x00\xc0"),
        "c": ("F64", [1, 2], struct.pack("<2d", 3.0, 4.0))}))
    put(t, "scalar_and_empty.safetensors", safetensors({
        "s": ("F32", [], f32([1.0])), "e": ("F32", [0, 4], b"")}, {}))
    put(t, "empty_header.safetensors", safetensors({}))
    put(t, "bad_offsets.safetensors", safetensors({"x": ("F32", [2], f32([1.0]))}))
    h = b'{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}'
    put(t, "bad_header_len.safetensors", struct.pack("<Q", 1 << 62) + h + f32([1, 2]))
    put(t, "bad_dtype.safetensors", safetensors({"x": ("I64", [1], struct.pack("<q", 1))}))
    put(t, "bad_json.safetensors", struct.pack("<Q", 9) + b'{"x": [1,' + f32([1]))
    put(t, "bad_overlap.safetensors", struct.pack("<Q", 100) + json.dumps(
        {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
         "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}).encode().ljust(100) + f32([1, 2, 3]))
    put(t, "tiny.safetensors", b"\x02\x00\x00\x00\x00\x00\x00\x00{}")


def write_json():
    t = "fuzz_json"
    put(t, "book_nested.json", json.dumps(BOOK))
    put(t, "book_inputs_object.json", json.dumps({"inputs": BOOK, "tokens": ["Your", "journey"]}))
    put(t, "embeddings_object.json", json.dumps({"embeddings": [BOOK, BOOK]}))
    put(t, "scalar_1d.json", "[1, -2.5e-3, 3E+2, 0]")
    put(t, "weights_multihead.json", json.dumps({
        "W_query.weight": [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]],
        "W_key.weight": [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]],
        "W_value.weight": [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]],
        "W_query.bias": [0, 1], "out_proj.weight": [[1, 0], [0, 1]], "out_proj.bias": [0, 0]}, indent=1))
    put(t, "weights_wrapper.json", json.dumps({
        "heads.0.W_query.weight": [[0.5, 0.1, 0.2]], "heads.1.W_key.weight": [[1, 2, 3]],
        "heads.0.mask": [[0, 1], [0, 0]]}))
    put(t, "weights_v1.json", json.dumps({"W_query": [[1, 2], [3, 4], [5, 6]]}))
    put(t, "escapes.json", '{"W_\\u0071uery\\n\\"x\\"": [[1e-45, 3.4028234e38]], "\\ud83d\\ude00": [1]}')
    put(t, "bad_ragged.json", "[[1, 2], [3]]")
    put(t, "bad_nan.json", "[NaN, Infinity, -Infinity]")
    put(t, "bad_overflow.json", "[1e39, -1e400]")
    put(t, "bad_deep.json", "[" * 12 + "1" + "]" * 12)
    put(t, "bad_trailing.json", '{"a": [1, 2],}')
    put(t, "bad_string.json", '["1", true, null]')
    put(t, "bad_unterminated.json", '{"W_query": [[1, 2')
    put(t, "empty_arrays.json", '{"a": [], "b": [[]], "c": [[], []]}')
    put(t, "bom_and_ws.json", "\ufeff \r\n\t[[1]]  ")


def write_csv():
    t = "fuzz_csv"
    rows = ["Your", "journey", "starts", "with", "one", "step"]
    put(t, "labels_both.csv", ",d0,d1,d2\n" + "".join(
        "%s,%s\n" % (r, ",".join(str(v) for v in row)) for r, row in zip(rows, BOOK)))
    put(t, "plain.csv", "".join(",".join(str(v) for v in row) + "\n" for row in BOOK))
    put(t, "header_only_labels.csv", "a,b,c\n1,2,3\n4,5,6\n")
    put(t, "row_labels_only.csv", "x,1,2\ny,3,4\n")
    put(t, "quoted_gpt2_tokens.csv", ',"Your"," journey"," ""x"","\n" hi",1,-inf\n"a\nb",nan,inf\n')
    put(t, "crlf_bom.csv", "\ufeff1,2\r\n3,4\r\n")
    put(t, "scientific.csv", "1e-3,-2.5E+2,0x10,.5\n+1,-0,1e39,-1e-50\n")
    put(t, "bad_ragged.csv", "1,2,3\n4,5\n")
    put(t, "bad_text_cell.csv", ",a,b\nr,1,two\n")
    put(t, "bad_unterminated_quote.csv", '1,"2\n3,4\n')
    put(t, "empty.csv", "")
    put(t, "blank_lines.csv", "\n\n1,2\n\n3,4\n\n")
    put(t, "single_cell.csv", "42")
    put(t, "empty_cells.csv", ",,\n,,\n")


def write_options():
    t = "fuzz_options"
    seeds = {
        "defaults": [],
        "book_multihead": ["--preset", "book", "--variant", "multi-head", "--d-out", "4", "--heads", "2"],
        "text_words": ["--text", "the cat sat on the mat", "--tokenizer", "words", "--d-in", "4", "--d-out", "4",
                       "--heads", "2"],
        "text_chars_window": ["--text=abc abc", "--tokenizer=chars", "--mask", "window:2", "--variant", "causal"],
        "dropout_train": ["--variant", "causal", "--dropout", "0.5", "--mode", "train", "--dropout-rng", "mkl",
                          "--seed", "789", "--batch", "2"],
        "eval_bias": ["--variant", "self-attention", "--qkv-bias", "--mode", "eval", "--mask", "causal",
                      "--context-length", "8"],
        "v1_simplified": ["--variant", "self-attention-v1", "--no-positions", "--embedding-seed", "-1"],
        "simplified": ["--variant", "simplified", "--mask", "none"],
        "wrapper": ["--variant", "multi-head-wrapper", "--heads", "3", "--d-out", "2", "--seed",
                    "18446744073709551615"],
        "gpt2_text": ["--text", "Hello, world!<|endoftext|>", "--tokenizer", "gpt2", "--d-in", "8"],
        "bad_heads": ["--d-out", "5", "--heads", "2"],
        "bad_context": ["--text", "a b c d", "--tokenizer", "words", "--context-length", "2"],
        "huge_sizes": ["--d-in", "9223372036854775807", "--d-out", "4611686018427387904", "--heads", "1",
                       "--batch", "4611686018427387904", "--context-length", "9223372036854775807"],
        "negative_sizes": ["--d-in", "-3", "--d-out", "0", "--heads", "-1", "--batch", "0"],
        "bad_mask": ["--mask", "window:-5"],
        "weights_embeddings": ["--embeddings", "x.npy", "--weights", "w.safetensors", "--d-in", "3"],
        "two_inputs": ["--preset", "book", "--text", "x"],
        "dropout_edge": ["--dropout", "1", "--variant", "causal"],
        "dropout_nan": ["--dropout", "nan", "--variant", "causal"],
    }
    for name, args in seeds.items():
        put(t, name, "\n".join(args))


if __name__ == "__main__":
    write_npy()
    write_npz()
    write_safetensors()
    write_json()
    write_csv()
    write_options()

#!/usr/bin/env python3
"""Writes the seed corpora of fuzz_pickle and fuzz_model (fuzz/corpus/<target>/) from tiny GPT
models saved the ways real checkpoints come. Needs the system Python with torch 1.13
(`apt-get install python3-torch`), unlike make_seeds.py:

    /usr/bin/python3 fuzz/corpus/make_model_seeds.py

Models: 1 layer, d 4, vocabulary 6, context 4 (a few hundred weights), with Hugging Face names
(safetensors F32/F16/BF16, torch.save .bin with lm_head and the old attn.bias buffers) and the
book's names (torch.save of GPTModel's state_dict, and a chapter-5 checkpoint with optimizer
state); data.pkl of each for the pickle reader, protocol 2 and 4; and hostile or broken inputs
that must be refused cleanly. Each file is under 10 KB."""
import io
import os
import shutil
import sys
import zipfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "fixtures"))
import make_model_fixtures as models  # noqa: E402

torch.set_num_threads(1)


def put(target, name, data):
    d = os.path.join(HERE, target)
    os.makedirs(d, exist_ok=True)
    assert len(data) < 10 * 1024, (target, name, len(data))
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def saved(obj, protocol=2):
    buf = io.BytesIO()
    torch.save(obj, buf, pickle_protocol=protocol)
    return buf.getvalue()


def data_pkl(archive):
    with zipfile.ZipFile(io.BytesIO(archive)) as z:
        name = next(n for n in z.namelist() if n.endswith("/data.pkl"))
        return z.read(name)


def main():
    for target in ("fuzz_pickle", "fuzz_model"):
        shutil.rmtree(os.path.join(HERE, target), ignore_errors=True)
    gen = torch.Generator().manual_seed(7)
    w = models.random_weights(gen, layers=1, d=4, vocab=6, ctx=4, qkv_bias=True,
                              separate_head=False)
    wh = models.random_weights(gen, layers=1, d=4, vocab=6, ctx=4, qkv_bias=True,
                               separate_head=True)
    with torch.no_grad():
        for dtype in ("F32", "F16", "BF16"):
            put("fuzz_model", f"hf_{dtype.lower()}.safetensors",
                models.safetensors_bytes(models.hf_state_dict(w), dtype, {"heads": "2"}))
        put("fuzz_model", "hf_no_metadata.safetensors",
            models.safetensors_bytes(models.hf_state_dict(w, "transformer."), "F32"))
        hf_bin = saved(models.hf_state_dict(wh, "transformer.", buffers=True, ctx=4))
        put("fuzz_model", "hf_head.bin", hf_bin)
        book = models.book_module(wh, 2, 4, qkv_bias=False).state_dict()
        book_pth = saved(book)
        put("fuzz_model", "book.pth", book_pth)
        book_p4 = saved(book, protocol=4)
        put("fuzz_model", "book_protocol4.pth", book_p4)
        tied = dict(book)
        del tied["out_head.weight"]
        put("fuzz_model", "book_tied.safetensors", models.safetensors_bytes(tied, "F32"))
    m = models.book_module(w, 2, 4, qkv_bias=True)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
    m(torch.tensor([[1, 2]])).sum().backward()
    opt.step()
    checkpoint = saved({"model_state_dict": m.state_dict(), "optimizer_state_dict":
                        opt.state_dict()})
    # The checkpoint's optimizer state makes the archive too big for a seed: its pickle only.

    # Broken on purpose: each must be refused with a message, never crash.
    good = models.safetensors_bytes(models.hf_state_dict(w), "F32", {"heads": "2"})
    put("fuzz_model", "bad_truncated.safetensors", good[:-10])
    put("fuzz_model", "bad_truncated.pth", book_pth[: len(book_pth) // 2])
    with torch.no_grad():
        bad = models.hf_state_dict(w)
        bad["h.0.mlp.c_fc.weight"] = bad["h.0.mlp.c_fc.weight"].clone()
        bad["h.0.mlp.c_fc.weight"][1, 2] = float("nan")
        put("fuzz_model", "bad_nan.safetensors", models.safetensors_bytes(bad, "F32"))
        bad = models.hf_state_dict(w)
        bad["h.0.attn.c_proj.weight"] = bad["h.0.attn.c_proj.weight"][:, :3].contiguous()
        put("fuzz_model", "bad_shape.safetensors", models.safetensors_bytes(bad, "F32"))

    for name, archive in (("book", book_pth), ("book_protocol4", book_p4), ("hf_head", hf_bin),
                          ("book_checkpoint", checkpoint)):
        put("fuzz_pickle", name + ".pkl", data_pkl(archive))
    put("fuzz_pickle", "evil_os_system.pkl", b"\x80\x02cos\nsystem\nX\x02\x00\x00\x00idt\x85R.")
    put("fuzz_pickle", "evil_stack_global.pkl",
        b"\x80\x04\x8c\x08builtins\x8c\x04eval\x93\x8c\x011\x85R.")
    put("fuzz_pickle", "evil_inst.pkl", b"\x80\x02(ios\nsystem\nX\x02\x00\x00\x00id.")
    print("seeds written")


if __name__ == "__main__":
    main()

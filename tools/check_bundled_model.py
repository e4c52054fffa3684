#!/usr/bin/python3
"""Recompute every number docs/MODEL.md gives for the bundled model, from the shipped file alone.

    /usr/bin/python3 tools/check_bundled_model.py [--cli build/src/cli/attention-lens-cli]
    /usr/bin/python3 tools/check_bundled_model.py --write-fixture   # refresh the C++ tests' JSON

It reads resources/models/tiny-shakespeare.safetensors by hand (no safetensors package), runs the
plain functional GPT-2 forward of tools/tiny_gpt_common.py in float32 on the stored float16
weights, and prints: the file's layout, the full-vocabulary validation loss (and checks it against
the file's metadata), the unigram and bigram baselines, what the model does with ids the text never
uses, the per-head previous-token and induction scores as Markdown tables, and the top-5 next
tokens for the first line of Sonnet 18. Without --write-fixture it also compares with
tests/fixtures/model/tiny_shakespeare_expected.json and exits 1 on a mismatch.

Takes about a minute (two minutes with --train-loss). No network, CPU only.
"""

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiny_gpt_common as common  # noqa: E402

FIXTURE = os.path.join(common.REPO_ROOT, "tests", "fixtures", "model", "tiny_shakespeare_expected.json")
PROMPT = "Shall I compare thee to a summer's day?"
# As the training log's evaluations: n = min(100, context / 2) ids, each sequence said twice.
INDUCTION_TRIALS, INDUCTION_SEED = 8, 123


def gpt2_decoder():
    """id -> text of the token, from the app's own resources/gpt2/encoder.json (byte-level BPE:
    each byte is stored as one printable unicode character; this undoes that mapping)."""
    with open(os.path.join(common.REPO_ROOT, "resources", "gpt2", "encoder.json"), encoding="utf-8") as f:
        encoder = json.load(f)
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    byte_of, n = {}, 0
    for b in range(256):
        if b in printable:
            byte_of[chr(b)] = b
        else:
            byte_of[chr(256 + n)] = b
            n += 1
    decoder = {i: bytes(byte_of[c] for c in s).decode("utf-8", errors="replace") for s, i in encoder.items()}
    return lambda i: decoder[i]


def table(scores, title):
    """Markdown table, layers as rows, heads as columns."""
    H = len(scores[0])
    lines = [f"| {title} | " + " | ".join(f"head {h}" for h in range(H)) + " |",
             "|---" * (H + 1) + "|"]
    for layer, row in enumerate(scores):
        lines.append(f"| layer {layer} | " + " | ".join(f"{v:.3f}" for v in row) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=common.DEFAULT_MODEL)
    ap.add_argument("--cli", default=common.DEFAULT_CLI)
    ap.add_argument("--corpus", default=common.DEFAULT_CORPUS)
    ap.add_argument("--fixture", default=FIXTURE)
    ap.add_argument("--write-fixture", action="store_true")
    ap.add_argument("--train-loss", action="store_true", help="also the full-vocabulary train loss (slow)")
    args = ap.parse_args()
    torch.set_num_threads(2)
    problems = []

    # --- The file -------------------------------------------------------------------------------
    w, meta, dtypes = common.read_safetensors(args.model)
    size = os.path.getsize(args.model)
    heads, ctx = int(meta["heads"]), int(meta["context_length"])
    L, d = common.n_layers(w), w["wte.weight"].shape[1]
    print(f"{args.model}: {size} bytes ({size / 1e6:.2f} MB), dtypes {sorted(set(dtypes.values()))}, "
          f"{len(w)} tensors, {sum(v.numel() for v in w.values())} parameters")
    print(f"layers {L}, heads {heads}, d_model {d}, vocab {w['wte.weight'].shape[0]}, "
          f"context {w['wpe.weight'].shape[0]}, lm_head {'present' if 'lm_head.weight' in w else 'tied to wte'}")
    print("metadata:", json.dumps(meta, indent=1))
    if size > 16_000_000:
        problems.append(f"file is {size} bytes, over 16 MB")
    expected = {"wte.weight": (common.GPT2_VOCAB, d), "wpe.weight": (ctx, d), "ln_f.weight": (d,), "ln_f.bias": (d,)}
    for i in range(L):
        p = f"h.{i}."
        expected.update({p + "ln_1.weight": (d,), p + "ln_1.bias": (d,), p + "attn.c_attn.weight": (d, 3 * d),
                         p + "attn.c_attn.bias": (3 * d,), p + "attn.c_proj.weight": (d, d), p + "attn.c_proj.bias": (d,),
                         p + "ln_2.weight": (d,), p + "ln_2.bias": (d,), p + "mlp.c_fc.weight": (d, 4 * d),
                         p + "mlp.c_fc.bias": (4 * d,), p + "mlp.c_proj.weight": (4 * d, d), p + "mlp.c_proj.bias": (d,)})
    for name, shape in expected.items():
        if name not in w or tuple(w[name].shape) != shape:
            problems.append(f"{name}: expected shape {shape}, found {tuple(w[name].shape) if name in w else 'nothing'}")
    if set(w) - set(expected):
        problems.append(f"unexpected tensors {sorted(set(w) - set(expected))}")

    # --- Data: the same tokenizer and split as training --------------------------------------------
    ids = common.tokenize_file(args.cli, args.corpus)
    train, val = common.split_ids(ids)
    seen = sorted(set(train))
    # The sonnet as far as one context window holds it (the model has no positions beyond).
    sonnet = common.tokenize_file(args.cli, common.SONNET_PATH)[:ctx]
    excerpt_len = ctx  # the first context window of the validation split
    induction_n = min(100, ctx // 2)
    decode = gpt2_decoder()

    # --- Losses -----------------------------------------------------------------------------------
    val_loss, n_targets = common.full_vocab_loss(w, val, heads, ctx)
    print(f"\nvalidation loss (full vocabulary, float16 weights as stored): {val_loss:.4f} over {n_targets} targets; "
          f"metadata says {meta['validation_loss']}")
    if abs(val_loss - float(meta["validation_loss"])) > 5e-4:
        problems.append(f"validation loss {val_loss:.4f} differs from the metadata's {meta['validation_loss']}")
    if args.train_loss:
        tl, n = common.full_vocab_loss(w, train, heads, ctx)
        print(f"train loss (full vocabulary): {tl:.4f} over {n} targets; metadata says {meta['train_loss']}")
    base = common.UnigramBigram(train)
    uni, bi = base.unigram_loss(val), base.bigram_loss(val)
    print(f"baselines: unigram add-{base.alpha} {uni:.4f}, bigram absolute discounting D={base.discount} {bi:.4f}")
    seen_set = set(seen)
    unseen_targets = [i for i, t in enumerate(val[1:]) if t not in seen_set]
    print(f"validation targets the training split never uses: {len(unseen_targets)} of {len(val) - 1}")

    # --- Ids the text never uses: where does their probability go, what do they look like? -------
    unseen_ids = torch.tensor(sorted(set(range(common.GPT2_VOCAB)) - seen_set))
    wte = w["wte.weight"]
    shared = wte[unseen_ids[0]]
    identical = int((wte[unseen_ids] == shared).all(dim=1).sum())
    with torch.no_grad():
        x = torch.tensor([val[:ctx]])
        probs = torch.softmax(common.forward(w, x, heads)[0][0], dim=-1)
    mass = probs[:, unseen_ids].sum(dim=-1)
    norms = wte[torch.tensor(seen)].norm(dim=1)
    rank = (norms < shared.norm()).float().mean().item()
    cos = torch.nn.functional.cosine_similarity(wte[torch.tensor(seen)], shared.unsqueeze(0))
    nearest = [decode(seen[i]) for i in cos.topk(8).indices.tolist()]
    print(f"unseen ids: {len(unseen_ids)} ({identical} share one row); probability mass on all of them together, "
          f"over the first validation window: mean {mass.mean():.4f}, max {mass.max():.4f}")
    print(f"the shared row's norm {shared.norm():.3f} is above {100 * rank:.0f} % of the seen rows' norms "
          f"(median {norms.median():.3f}); nearest seen tokens by cosine: {nearest}")

    # --- Heads ------------------------------------------------------------------------------------
    prev = common.previous_token_scores(w, sonnet, heads)
    excerpt = val[:excerpt_len]
    prev_val = common.previous_token_scores(w, excerpt, heads)
    seqs = common.induction_sequences(seen, induction_n, INDUCTION_TRIALS, INDUCTION_SEED)
    ind = common.induction_scores(w, heads, seqs)
    print("\n" + table(prev, "previous-token, Sonnet 18"))
    print("\n" + table(prev_val, "previous-token, validation window"))
    print("\n" + table(ind, "induction"))
    first, entropy = common.attention_profile(w, sonnet, heads)
    print("\n" + table(first, "weight on the first token, Sonnet 18"))
    print("\n" + table(entropy, "entropy / uniform entropy, Sonnet 18"))
    if max(max(r) for r in prev) < 0.5:
        problems.append("no head has a previous-token score of 0.5 on Sonnet 18")

    # --- The fixture for the C++ tests ------------------------------------------------------------
    with torch.no_grad():
        ex_logits = common.forward(w, torch.tensor([excerpt]), heads)[0][0]
        ex_loss = torch.nn.functional.cross_entropy(ex_logits[:-1], torch.tensor(excerpt[1:])).item()
        prompt_ids, prompt_tokens = common.tokenize_text(args.cli, PROMPT)
        p = torch.softmax(common.forward(w, torch.tensor([prompt_ids]), heads)[0][0, -1], dim=-1)
        top = p.topk(5)
    top5 = [{"id": int(i), "token": decode(int(i)), "prob": round(float(v), 6)} for v, i in zip(top.values, top.indices)]
    print(f"\nexcerpt (first {excerpt_len} validation tokens) loss: model {ex_loss:.4f}, "
          f"bigram {base.bigram_loss(excerpt):.4f}, unigram {base.unigram_loss(excerpt):.4f}")
    print(f"top-5 after {PROMPT!r}: " + ", ".join(f"{t['token']!r} {t['prob']:.4f}" for t in top5))

    fixture = {
        "about": "Expected numbers for resources/models/tiny-shakespeare.safetensors, written by "
                 "tools/check_bundled_model.py --write-fixture: float32 forward of the stored float16 weights, "
                 "heads from the file's metadata. Losses are nats per token over the full 50,257-way softmax.",
        "model": {"layers": L, "heads": heads, "d_model": d, "vocab": common.GPT2_VOCAB, "context_length": ctx,
                  "names": "hf", "dtype": "F16", "file_bytes": size},
        "validation_loss": round(val_loss, 6),
        "validation_targets": n_targets,
        "baseline_unigram_validation_loss": round(uni, 6),
        "baseline_bigram_validation_loss": round(bi, 6),
        "baselines": f"counted on the training split (the first {len(train)} tokens); unigram add-{base.alpha}, "
                     f"bigram interpolated absolute discounting D={base.discount}, both over all 50,257 ids",
        "excerpt": {
            "about": f"the first {excerpt_len} tokens of the validation split (held out); loss = mean cross-entropy "
                     f"of positions 0..{excerpt_len - 2} predicting ids[1..{excerpt_len - 1}], one forward",
            "text": "".join(decode(i) for i in excerpt),
            "ids": excerpt,
            "model_loss": round(ex_loss, 6),
            "bigram_loss": round(base.bigram_loss(excerpt), 6),
            "unigram_loss": round(base.unigram_loss(excerpt), 6),
        },
        "sonnet": {
            "file": "tests/fixtures/text/sonnet18.txt",
            "ids": sonnet,
            "previous_token_scores": [[round(v, 6) for v in row] for row in prev],
            "about": "[layer][head]: mean attention weight from position i to i-1 over positions i >= 1",
        },
        "induction_scores": [[round(v, 6) for v in row] for row in ind],
        "induction": f"{INDUCTION_TRIALS} sequences of {induction_n} distinct random training-vocabulary ids repeated "
                     f"twice (torch.Generator seed {INDUCTION_SEED}, randperm); mean weight of positions n..2n-1 on "
                     "the token after the previous occurrence",
        "next_after_prompt": {"text": PROMPT, "ids": prompt_ids, "tokens": prompt_tokens, "top5": top5},
    }
    if args.write_fixture:
        os.makedirs(os.path.dirname(args.fixture), exist_ok=True)
        with open(args.fixture, "w", encoding="utf-8") as f:
            json.dump(fixture, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(f"wrote {args.fixture}")
    elif os.path.exists(args.fixture):
        with open(args.fixture, encoding="utf-8") as f:
            old = json.load(f)
        for key in ("validation_loss", "baseline_bigram_validation_loss"):
            if abs(old[key] - fixture[key]) > 1e-4:
                problems.append(f"{key}: fixture {old[key]}, now {fixture[key]}")
        if abs(old["excerpt"]["model_loss"] - ex_loss) > 1e-4 or old["sonnet"]["ids"] != sonnet:
            problems.append("excerpt loss or sonnet ids differ from the fixture")
    for p in problems:
        print("PROBLEM:", p)
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

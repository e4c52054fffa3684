#!/usr/bin/python3
"""Recompute every number docs/MODEL.md gives for a bundled model, from the shipped file alone.

    /usr/bin/python3 tools/check_bundled_model.py [--cli build/src/cli/attention-lens-cli]
    /usr/bin/python3 tools/check_bundled_model.py --model resources/models/tiny-shakespeare-llama
    /usr/bin/python3 tools/check_bundled_model.py --write-fixture   # refresh the C++ tests' JSON

--model is the GPT-2 file (resources/models/tiny-shakespeare.safetensors, the default) or the
Llama folder (resources/models/tiny-shakespeare-llama: config.json and model.safetensors). It
reads the safetensors by hand (no safetensors package), runs the plain functional forward of
tools/tiny_gpt_common.py (GPT-2's, or Llama's from the folder's config.json) in float32 on the
stored float16 weights, and prints: the file's layout, the full-vocabulary validation loss (and
checks it against the file's metadata), the unigram and bigram baselines, what the model does with
ids the text never uses, the per-head previous-token and induction scores as Markdown tables, and
the top-5 next tokens for the first line of Sonnet 18. It then runs the app's own engine on the
same weights (`attention-lens-cli model --model ...`) and compares its next-token probabilities
and every attention weight with PyTorch's; for the Llama folder also the book's Llama3Model
(tools/tiny_llama_model.py) loaded from the file. Without --write-fixture it also compares with
the C++ tests' fixture (tests/fixtures/model/<name>_expected.json: tiny_shakespeare_expected.json,
tiny_circuit_expected.json; the Llama one's when it exists) and exits 1 on a mismatch.

tiny-circuit, the model trained to copy (issue 27's induction circuit):

    /usr/bin/python3 tools/check_bundled_model.py --model resources/models/tiny-circuit \
        --common 500 --require-circuit [--write-fixture]

Takes about a minute (two minutes with --train-loss). No network, CPU only.
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiny_gpt_common as common  # noqa: E402
import tiny_llama_model as llama  # noqa: E402

FIXTURE = os.path.join(common.REPO_ROOT, "tests", "fixtures", "model", "tiny_shakespeare_expected.json")
PROMPT = "Shall I compare thee to a summer's day?"
# The app-against-PyTorch comparison's text (any text would do; this one is in the plays).
APP_PROMPT = "To be, or not to be, that is the question"
# float32 on both sides from the same float16 weights: only the order of the sums differs, so
# agreement is to about 1e-6; 1e-3 would already be a wrong weight or a wrong RoPE.
APP_TOLERANCE = 1e-4
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


# The circuit checks (issue 27): a repeated sequence of random common words, CIRCUIT_WORDS of
# them said twice, as a text (so the app and the lessons can type it): words of the training
# text's most frequent whole-word tokens (" king", " love"), picked with a fixed seed.
CIRCUIT_WORDS, CIRCUIT_SEED, CIRCUIT_POOL = 16, 7, 1500
GREEDY_NEW = 12  # greedy generation's length in the fixture


def circuit_text(cli, train, decode, common_ids):
    """(text, ids): CIRCUIT_WORDS distinct common words, then the same words again; each word a
    single GPT-2 token that the tokenizer gives back as itself inside the text. With common_ids
    (a model trained to copy those ids, --common), only words among them."""
    counts = {}
    for t in train:
        counts[t] = counts.get(t, 0) + 1
    pool = [t for t, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            if decode(t).startswith(" ") and decode(t)[1:].isalpha() and decode(t)[1:].islower()
            and len(decode(t)) > 3 and (common_ids is None or t in common_ids)][:CIRCUIT_POOL]
    g = torch.Generator().manual_seed(CIRCUIT_SEED)
    words = [pool[i] for i in torch.randperm(len(pool), generator=g)[:CIRCUIT_WORDS].tolist()]
    text = "".join(decode(t) for t in words + words)
    ids, _ = common.tokenize_text(cli, text)
    if ids != words + words:
        raise SystemExit(f"the circuit text {text!r} does not tokenize back to its words")
    return text, ids


def circuit_checks(w, arch, cli, train, decode, seqs, prev, ind, common_ids):
    """The induction circuit (issue 27) as far as the shipped weights have one: the best
    previous-token head (Sonnet 18) in a layer below the best induction head, and the induction
    score with that head zero-ablated. Then the fixture's numbers for the app's ablation, loss,
    logit lens and generation against PyTorch: on the circuit text (repeated random common
    words), with no head, that head zero- and mean-ablated: the attention of the induction
    head's layer, the loss and each token's, the next-token top 5 and the logit lens's top 3;
    greedy generation from PROMPT."""
    L, H = len(prev), len(prev[0])
    ind_l, ind_h = max(((l, h) for l in range(1, L) for h in range(H)), key=lambda lh: ind[lh[0]][lh[1]])
    prev_l, prev_h = max(((l, h) for l in range(ind_l) for h in range(H)), key=lambda lh: prev[lh[0]][lh[1]])
    ablated = common.induction_scores(w, arch, seqs, ablate=[(prev_l, prev_h)])
    print(f"\ncircuit: previous-token head L{prev_l}H{prev_h} ({prev[prev_l][prev_h]:.3f} on Sonnet 18) below induction "
          f"head L{ind_l}H{ind_h} ({ind[ind_l][ind_h]:.3f}); with L{prev_l}H{prev_h} zero-ablated the induction head "
          f"scores {ablated[ind_l][ind_h]:.3f} ({ablated[ind_l][ind_h] / max(ind[ind_l][ind_h], 1e-9):.0%} of it)")
    print("\n" + table(ablated, f"induction, L{prev_l}H{prev_h} zero-ablated"))
    text, ids = circuit_text(cli, train, decode, common_ids)
    x = torch.tensor([ids])
    # The fixture's numbers in float64 from the stored weights: float32's own rounding in the
    # 50,257-way softmax moves a loss of 13 nats by 1e-4, as much as the tolerance, while the
    # app (float32) agrees with float64 to about 1e-5.
    w = {k: v.double() for k, v in w.items()}
    cases = {}
    for mode in ("none", "zero", "mean"):
        ablate = [] if mode == "none" else [(prev_l, prev_h)]
        residuals = []
        with torch.no_grad():
            logits, att = common.forward(w, x, arch, want_attention=True, ablate=ablate,
                                         ablate_mode=mode if ablate else "zero", residuals=residuals)
            logp = torch.log_softmax(logits[0], dim=-1)
            token_losses = [-logp[i, ids[i + 1]].item() for i in range(len(ids) - 1)]
            probs = torch.softmax(logits[0, -1], dim=-1)
            top = probs.topk(5)
            lens = []
            for r in residuals:
                p = torch.softmax(common.final_norm(w, r, arch)[0] @ common.output_head(w).T, dim=-1)
                t3 = p.topk(3)
                lens.append([[{"id": int(i), "prob": round(float(v), 6)} for v, i in zip(t3.values[j], t3.indices[j])]
                             for j in range(len(ids))])
        n = len(ids) // 2
        stripe = sum(att[ind_l][0, ind_h, t, t - n + 1].item() for t in range(n, 2 * n)) / n
        cases[mode] = {
            "attention_layer": [[[round(v, 7) for v in row] for row in head] for head in att[ind_l][0].tolist()],
            "induction_stripe": round(stripe, 6),
            "loss": round(sum(token_losses) / len(token_losses), 6),
            "token_losses": [round(v, 6) for v in token_losses],
            "next_top5": [{"id": int(i), "prob": round(float(v), 6)} for v, i in zip(top.values, top.indices)],
            "logit_lens_top3": lens,
        }
        print(f"circuit text, ablation {mode}: loss {cases[mode]['loss']:.4f}, second-half loss "
              f"{sum(token_losses[n - 1:]) / n:.4f}, L{ind_l}H{ind_h}'s stripe {stripe:.3f}")
    # Greedy decoding: the argmax after each step, as the app's temperature 0.
    prompt_ids, _ = common.tokenize_text(cli, PROMPT)
    greedy = list(prompt_ids)
    with torch.no_grad():
        for _ in range(GREEDY_NEW):
            greedy.append(int(common.forward(w, torch.tensor([greedy]), arch)[0][0, -1].argmax()))
    return {
        "about": "the app's ablation, loss, logit lens and greedy generation against PyTorch (float64), and the "
                 "induction circuit as far as the model has one (induction_score: below 3 x uniform attention's "
                 "it has none): previous_token_head and induction_head as [layer, head]; for each ablation "
                 "of previous_token_head (none, zero, mean) on `text`: attention_layer is layer "
                 "induction_head[0]'s attention (H, T, T), induction_stripe its induction head's mean weight on "
                 "the token after the earlier occurrence over the second half, loss and token_losses in nats, "
                 "next_top5 after the last token, logit_lens_top3 [layer][position] the top 3 of "
                 "final_norm(block output) @ W_out",
        "previous_token_head": [prev_l, prev_h],
        "previous_token_score": round(prev[prev_l][prev_h], 6),
        "induction_head": [ind_l, ind_h],
        "induction_score": round(ind[ind_l][ind_h], 6),
        "induction_score_ablated": round(ablated[ind_l][ind_h], 6),
        "induction_scores_ablated": [[round(v, 6) for v in row] for row in ablated],
        "text": text,
        "ids": ids,
        "ablation": cases,
        "greedy": {"prompt": PROMPT, "ids": greedy, "new": GREEDY_NEW},
    }


def table(scores, title):
    """Markdown table, layers as rows, heads as columns."""
    H = len(scores[0])
    lines = [f"| {title} | " + " | ".join(f"head {h}" for h in range(H)) + " |",
             "|---" * (H + 1) + "|"]
    for layer, row in enumerate(scores):
        lines.append(f"| layer {layer} | " + " | ".join(f"{v:.3f}" for v in row) + " |")
    return "\n".join(lines)


def compare_with_app(cli, model_path, w, arch, decode):
    """Run `attention-lens-cli model --model <path> --text APP_PROMPT` (the app's C++ engine,
    reading the shipped file itself) and compare with the PyTorch forward of the same weights: the
    top-5 next tokens and their probabilities, and every attention weight of every layer and head.
    For a Llama folder the book's Llama3Model loaded from the file is compared too (all logits of
    all positions). Prints the differences; returns the problems (differences over APP_TOLERANCE)."""
    problems = []
    out = subprocess.run([cli, "model", "--model", model_path, "--text", APP_PROMPT, "--top-k", "5"],
                         check=True, capture_output=True)
    app = json.loads(out.stdout)
    ids = torch.tensor([app["ids"]])
    with torch.no_grad():
        logits, att = common.forward(w, ids, arch, want_attention=True)
        # The same forward in float64: float32's own rounding (mostly in the 50,257-way softmax's
        # sum) moves these probabilities by a few 1e-5, more than the app differs from float64.
        logits64, att64 = common.forward({k: v.double() for k, v in w.items()}, ids, arch, want_attention=True)
    probs, probs64 = torch.softmax(logits[0, -1], dim=-1), torch.softmax(logits64[0, -1], dim=-1)
    ours = torch.stack([a[0] for a in att]).numpy()  # (layers, heads, T, T)
    ours64 = torch.stack([a[0] for a in att64]).numpy()
    theirs = np.array(app["attention"]["data"], dtype=np.float64).reshape(app["attention"]["shape"])
    att_diff = float(np.abs(ours - theirs).max()) if ours.shape == theirs.shape else float("inf")
    att_diff64 = float(np.abs(ours64 - theirs).max()) if ours64.shape == theirs.shape else float("inf")
    top = probs.topk(5)
    app_ids = [t["id"] for t in app["next"]]
    prob_diff = max(abs(t["prob"] - probs[t["id"]].item()) for t in app["next"])
    prob_diff64 = max(abs(t["prob"] - probs64[t["id"]].item()) for t in app["next"])
    m = app["model"]
    print(f"\nthe app's engine against PyTorch ({cli} model --model {model_path}): family {m['family']}, "
          f"{m['layers']} layers, {m['heads']} heads, {m['kv_heads']} key/value heads, key/value group of each "
          f"head {m['head_groups']}, dtype {m['dtype']}; text {APP_PROMPT!r}, {len(app['ids'])} tokens")
    print("| next token | app | PyTorch float32 | PyTorch float64 |\n|---|---|---|---|")
    for t in app["next"]:
        print(f"| {decode(t['id'])!r} ({t['id']}) | {t['prob']:.7f} | {probs[t['id']].item():.7f} | "
              f"{probs64[t['id']].item():.7f} |")
    print(f"top-5 ids: app {app_ids}, PyTorch {top.indices.tolist()}; largest probability difference "
          f"{prob_diff:.1e} (float64: {prob_diff64:.1e}); largest attention-weight difference over all "
          f"{theirs.size} weights {att_diff:.1e} (float64: {att_diff64:.1e})")
    if app_ids != top.indices.tolist():
        problems.append(f"the app's top-5 {app_ids} differ from PyTorch's {top.indices.tolist()}")
    if not (prob_diff <= APP_TOLERANCE and att_diff <= APP_TOLERANCE):
        problems.append(f"the app and PyTorch differ by {max(prob_diff, att_diff):.1e} (tolerance {APP_TOLERANCE})")
    if isinstance(arch, dict):
        with torch.no_grad():
            book = llama.load_hf(w, arch)(ids)
        diff = (torch.softmax(book, -1) - torch.softmax(logits, -1)).abs().max().item()
        print(f"the book's Llama3Model loaded from the file against the functional forward: largest probability "
              f"difference over all positions and ids {diff:.1e}")
        if diff > APP_TOLERANCE:
            problems.append(f"the book's Llama3Model and the functional forward differ by {diff:.1e}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=common.DEFAULT_MODEL,
                    help="the GPT-2 .safetensors (default) or the Llama model folder")
    ap.add_argument("--cli", default=common.DEFAULT_CLI)
    ap.add_argument("--corpus", default=common.DEFAULT_CORPUS)
    ap.add_argument("--fixture", help="default tests/fixtures/model/<the model's name, - as _>_expected.json "
                                      "(tiny_shakespeare_expected.json, tiny_circuit_expected.json, ...)")
    ap.add_argument("--write-fixture", action="store_true")
    ap.add_argument("--train-loss", action="store_true", help="also the full-vocabulary train loss (slow)")
    ap.add_argument("--require-circuit", action="store_true",
                    help="a problem unless the model holds issue 27's induction circuit (tiny-circuit)")
    ap.add_argument("--common", type=int, default=0,
                    help="the induction test's random ids from the N most frequent training ids, as "
                         "the model was trained with (train_bundled_model.py --common); 0: all")
    args = ap.parse_args()
    torch.set_num_threads(2)
    problems = []

    # --- The file -------------------------------------------------------------------------------
    # arch: the GPT-2 file's heads (its metadata), or the Llama folder's config.json.
    w, meta, dtypes, arch, ctx, weights_file = common.read_model(args.model)
    is_llama = isinstance(arch, dict)
    if args.fixture is None:
        # tiny-shakespeare -> tiny_shakespeare_expected.json, and so on.
        args.fixture = os.path.join(os.path.dirname(FIXTURE), meta["name"].replace("-", "_") + "_expected.json")
    emb_name = "model.embed_tokens.weight" if is_llama else "wte.weight"
    size = os.path.getsize(weights_file)
    heads = arch["num_attention_heads"] if is_llama else arch
    L, d = common.n_layers(w), w[emb_name].shape[1]
    print(f"{weights_file}: {size} bytes ({size / 1e6:.2f} MB), dtypes {sorted(set(dtypes.values()))}, "
          f"{len(w)} tensors, {sum(v.numel() for v in w.values())} parameters")
    if is_llama:
        print(f"config.json: {json.dumps(arch)}")
        print(f"layers {L}, {heads} query heads sharing {arch['num_key_value_heads']} key/value heads of "
              f"{arch['head_dim']}, d_model {d}, feed-forward {arch['intermediate_size']} (SwiGLU), vocab "
              f"{w[emb_name].shape[0]}, context {ctx} (RoPE, base {arch['rope_theta']:g}), lm_head "
              f"{'present' if 'lm_head.weight' in w else 'tied to model.embed_tokens'}")
    else:
        print(f"layers {L}, heads {heads}, d_model {d}, vocab {w['wte.weight'].shape[0]}, "
              f"context {w['wpe.weight'].shape[0]}, lm_head {'present' if 'lm_head.weight' in w else 'tied to wte'}")
    print("metadata:", json.dumps(meta, indent=1))
    if size > 16_000_000:
        problems.append(f"file is {size} bytes, over 16 MB")
    if is_llama:
        kv, F = arch["num_key_value_heads"] * arch["head_dim"], arch["intermediate_size"]
        q = heads * arch["head_dim"]
        expected = {emb_name: (common.GPT2_VOCAB, d), "model.norm.weight": (d,)}
        for i in range(L):
            p = f"model.layers.{i}."
            expected.update({p + "input_layernorm.weight": (d,), p + "self_attn.q_proj.weight": (q, d),
                             p + "self_attn.k_proj.weight": (kv, d), p + "self_attn.v_proj.weight": (kv, d),
                             p + "self_attn.o_proj.weight": (d, q), p + "post_attention_layernorm.weight": (d,),
                             p + "mlp.gate_proj.weight": (F, d), p + "mlp.up_proj.weight": (F, d),
                             p + "mlp.down_proj.weight": (d, F)})
        for key, want in (("model_type", "llama"), ("vocab_size", common.GPT2_VOCAB), ("tie_word_embeddings", True),
                          ("num_hidden_layers", L), ("hidden_size", d), ("torch_dtype", "float16")):
            if arch.get(key) != want:
                problems.append(f"config.json: {key} is {arch.get(key)!r}, expected {want!r}")
        if os.path.exists(os.path.join(args.model, "tokenizer.json")):
            problems.append("the folder has a tokenizer.json; the model is GPT-2's tokenizer's, which the app "
                            "uses for a folder without one")
    else:
        expected = {"wte.weight": (common.GPT2_VOCAB, d), "wpe.weight": (ctx, d), "ln_f.weight": (d,), "ln_f.bias": (d,)}
        for i in range(L):
            p = f"h.{i}."
            expected.update({p + "ln_1.weight": (d,), p + "ln_1.bias": (d,), p + "attn.c_attn.weight": (d, 3 * d),
                             p + "attn.c_attn.bias": (3 * d,), p + "attn.c_proj.weight": (d, d), p + "attn.c_proj.bias": (d,),
                             p + "ln_2.weight": (d,), p + "ln_2.bias": (d,), p + "mlp.c_fc.weight": (d, 4 * d),
                             p + "mlp.c_fc.bias": (4 * d,), p + "mlp.c_proj.weight": (4 * d, d), p + "mlp.c_proj.bias": (d,)})
    if set(dtypes.values()) != {"F16"}:
        problems.append(f"dtypes {sorted(set(dtypes.values()))}, expected F16 only")
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
    val_loss, n_targets = common.full_vocab_loss(w, val, arch, ctx)
    print(f"\nvalidation loss (full vocabulary, float16 weights as stored): {val_loss:.4f} over {n_targets} targets; "
          f"metadata says {meta['validation_loss']}")
    if abs(val_loss - float(meta["validation_loss"])) > 5e-4:
        problems.append(f"validation loss {val_loss:.4f} differs from the metadata's {meta['validation_loss']}")
    if args.train_loss:
        tl, n = common.full_vocab_loss(w, train, arch, ctx)
        print(f"train loss (full vocabulary): {tl:.4f} over {n} targets; metadata says {meta['train_loss']}")
    base = common.UnigramBigram(train)
    uni, bi = base.unigram_loss(val), base.bigram_loss(val)
    print(f"baselines: unigram add-{base.alpha} {uni:.4f}, bigram absolute discounting D={base.discount} {bi:.4f}")
    seen_set = set(seen)
    unseen_targets = [i for i, t in enumerate(val[1:]) if t not in seen_set]
    print(f"validation targets the training split never uses: {len(unseen_targets)} of {len(val) - 1}")

    # --- Ids the text never uses: where does their probability go, what do they look like? -------
    unseen_ids = torch.tensor(sorted(set(range(common.GPT2_VOCAB)) - seen_set))
    wte = w[emb_name]
    shared = wte[unseen_ids[0]]
    identical = int((wte[unseen_ids] == shared).all(dim=1).sum())
    with torch.no_grad():
        x = torch.tensor([val[:ctx]])
        probs = torch.softmax(common.forward(w, x, arch)[0][0], dim=-1)
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
    prev = common.previous_token_scores(w, sonnet, arch)
    excerpt = val[:excerpt_len]
    prev_val = common.previous_token_scores(w, excerpt, arch)
    pool = seen
    if args.common > 0:
        counts = {}
        for t in train:
            counts[t] = counts.get(t, 0) + 1
        pool = sorted(seen, key=lambda t: (-counts[t], t))[: args.common]
    seqs = common.induction_sequences(pool, induction_n, INDUCTION_TRIALS, INDUCTION_SEED)
    ind = common.induction_scores(w, arch, seqs)
    print("\n" + table(prev, "previous-token, Sonnet 18"))
    print("\n" + table(prev_val, "previous-token, validation window"))
    print("\n" + table(ind, "induction"))
    first, entropy = common.attention_profile(w, sonnet, arch)
    print("\n" + table(first, "weight on the first token, Sonnet 18"))
    print("\n" + table(entropy, "entropy / uniform entropy, Sonnet 18"))
    if max(max(r) for r in prev) < 0.5:
        problems.append("no head has a previous-token score of 0.5 on Sonnet 18")
    circuit = circuit_checks(w, arch, args.cli, train, decode, seqs, prev, ind,
                             set(pool) if args.common > 0 else None)
    if args.require_circuit:
        # Issue 27's test of a circuit: a previous-token head of at least 0.5 on Sonnet 18 below an
        # induction head of at least 0.5 that loses at least half its score without it.
        if circuit["previous_token_score"] < 0.5 or circuit["induction_score"] < 0.5:
            problems.append(f"no circuit: previous-token head {circuit['previous_token_score']:.3f}, "
                            f"induction head {circuit['induction_score']:.3f} (both must be at least 0.5)")
        if circuit["induction_score_ablated"] > 0.5 * circuit["induction_score"]:
            problems.append(f"switching the previous-token head off leaves the induction head "
                            f"{circuit['induction_score_ablated']:.3f} of {circuit['induction_score']:.3f}")

    # --- The fixture for the C++ tests ------------------------------------------------------------
    with torch.no_grad():
        ex_logits = common.forward(w, torch.tensor([excerpt]), arch)[0][0]
        ex_loss = torch.nn.functional.cross_entropy(ex_logits[:-1], torch.tensor(excerpt[1:])).item()
        prompt_ids, prompt_tokens = common.tokenize_text(args.cli, PROMPT)
        p = torch.softmax(common.forward(w, torch.tensor([prompt_ids]), arch)[0][0, -1], dim=-1)
        top = p.topk(5)
    top5 = [{"id": int(i), "token": decode(int(i)), "prob": round(float(v), 6)} for v, i in zip(top.values, top.indices)]
    print(f"\nexcerpt (first {excerpt_len} validation tokens) loss: model {ex_loss:.4f}, "
          f"bigram {base.bigram_loss(excerpt):.4f}, unigram {base.unigram_loss(excerpt):.4f}")
    print(f"top-5 after {PROMPT!r}: " + ", ".join(f"{t['token']!r} {t['prob']:.4f}" for t in top5))

    # --- The app's engine against PyTorch, on the same weights ---------------------------------------
    problems += compare_with_app(args.cli, args.model, w, arch, decode)

    if is_llama:
        about = (f"Expected numbers for resources/models/{meta['name']} (config.json and model.safetensors), "
                 "written by tools/check_bundled_model.py --write-fixture: float32 forward of the stored float16 "
                 "weights, architecture from config.json. Losses are nats per token over the full 50,257-way softmax.")
        model_entry = {"family": "llama", "layers": L, "heads": heads, "kv_heads": arch["num_key_value_heads"],
                       "head_dim": arch["head_dim"], "d_model": d, "ff_hidden": arch["intermediate_size"],
                       "vocab": common.GPT2_VOCAB, "context_length": ctx, "rope_theta": arch["rope_theta"],
                       "names": "hf", "dtype": "F16", "file_bytes": size}
    else:
        about = ("Expected numbers for resources/models/tiny-shakespeare.safetensors, written by "
                 "tools/check_bundled_model.py --write-fixture: float32 forward of the stored float16 weights, "
                 "heads from the file's metadata. Losses are nats per token over the full 50,257-way softmax.")
        model_entry = {"layers": L, "heads": heads, "d_model": d, "vocab": common.GPT2_VOCAB, "context_length": ctx,
                       "names": "hf", "dtype": "F16", "file_bytes": size}
    fixture = {
        "about": about,
        "model": model_entry,
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
        "induction": f"{INDUCTION_TRIALS} sequences of {induction_n} distinct random "
                     f"{'training-vocabulary ids' if args.common <= 0 else f'ids of the {args.common} most frequent training ids'} repeated "
                     f"twice (torch.Generator seed {INDUCTION_SEED}, randperm); mean weight of positions n..2n-1 on "
                     "the token after the previous occurrence",
        "next_after_prompt": {"text": PROMPT, "ids": prompt_ids, "tokens": prompt_tokens, "top5": top5},
        "circuit": circuit,
    }
    if args.write_fixture:
        os.makedirs(os.path.dirname(args.fixture), exist_ok=True)
        # The circuit's arrays on one line each (indented, they would be a number per line and
        # most of the file).
        circuit_json = json.dumps(fixture.pop("circuit"), ensure_ascii=False, separators=(",", ":"))
        text = json.dumps(fixture, indent=1, ensure_ascii=False)
        text = text[: text.rindex("}")].rstrip() + ',\n "circuit": ' + circuit_json + "\n}"
        with open(args.fixture, "w", encoding="utf-8") as f:
            f.write(text + "\n")
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

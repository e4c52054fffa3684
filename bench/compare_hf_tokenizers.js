#!/usr/bin/env node
// Hugging Face's Rust tokenizers (through @anush008/tokenizers, its Node binding) on the same
// work as bench/hf_tokenizer_bench.cpp: loading each tokenizer.json and encoding the book's
// sentence, and encoding the first 1,000,000 bytes of the corpus; medians of several runs in ms.
// Usage: node bench/compare_hf_tokenizers.js <tokenizer cache dir> <corpus file>
const fs = require("fs");
const path = require("path");
const { Tokenizer } = require("@anush008/tokenizers");

const [dir, corpus] = process.argv.slice(2);
const text = fs.readFileSync(corpus).subarray(0, 1000000).toString("utf8");
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
(async () => {
  for (const m of ["qwen3", "llama3", "gemma3"]) {
    const file = path.join(dir, m, "tokenizer.json");
    const loads = [];
    let t;
    for (let i = 0; i < 3; ++i) {
      const s = process.hrtime.bigint();
      t = await Tokenizer.fromFile(file);
      await t.encode("The animal didn't cross the street because it was too tired", null,
                     { addSpecialTokens: true });
      loads.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
    const encodes = [];
    let n = 0;
    for (let i = 0; i < 5; ++i) {
      const s = process.hrtime.bigint();
      const e = await t.encode(text, null, { addSpecialTokens: true });
      encodes.push(Number(process.hrtime.bigint() - s) / 1e6);
      n = e.getIds().length;
    }
    console.log(JSON.stringify({ model: m, load_and_sentence_ms: median(loads),
                                 megabyte_ms: median(encodes), tokens: n }));
  }
})();

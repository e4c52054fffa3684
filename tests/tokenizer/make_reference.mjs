// Generates tiktoken_reference.jsonl: the ids that js-tiktoken (a port of OpenAI's tiktoken,
// whose "gpt2" rank data ships inside the npm package) gives for each case below, with
// encode(text, "all") so <|endoftext|> is recognised anywhere.
//
//   mkdir -p /tmp/jstik && cd /tmp/jstik && npm install js-tiktoken@1.0.21
//   node /path/to/tests/tokenizer/make_reference.mjs > /path/to/tests/tokenizer/tiktoken_reference.jsonl
//
// js-tiktoken is resolved from the current directory, so node_modules stays out of the repo.
//
// Each line: name, input_hex (the bytes the C++ tokenizer is given), text (the string tiktoken
// encoded), ids, token_bytes_hex, partial_utf8_token_indices, and rust_pieces for the cases
// split by hand (below).
//
// U+0085 (NEL) and U+FEFF need care: JavaScript's `\s` differs from the Rust regex `\s` that
// tiktoken itself uses on exactly these two (JS: FEFF yes, 0085 no), so js-tiktoken splits text
// around them differently. For those cases (pieceCases below) the pieces that Rust's pattern
// gives are written out by hand, and js-tiktoken only does the BPE of each piece, through a copy
// of the encoding whose pattern takes the whole input as one piece.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "noop.js"));
const { getEncoding, Tiktoken } = require("js-tiktoken");
const gpt2Ranks = require("js-tiktoken/ranks/gpt2");
const enc = getEncoding("gpt2");
const wholePiece = new Tiktoken({ ...(gpt2Ranks.default ?? gpt2Ranks), pat_str: "[\\s\\S]+" });

const hex = (bytes) => Buffer.from(bytes).toString("hex");
const utf8 = (s) => new TextEncoder().encode(s);

// Deterministic pseudo-random lower-case letters (a 32-bit LCG), so the file is reproducible.
function letters(n, seed) {
  let x = seed >>> 0;
  let s = "";
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    s += String.fromCharCode(97 + ((x >>> 16) % 26));
  }
  return s;
}

const prose =
  "It was the best of times, it was the worst of times, it was the age of wisdom, it was the " +
  "age of foolishness, it was the epoch of belief, it was the epoch of incredulity. ";

// Text cases: the string is both what tiktoken encodes and, as UTF-8, the C++ input.
const textCases = [
  ["ws_two_spaces", "a  b"],
  ["ws_mixed_run", "a \t \n  b"],
  ["ws_trailing", "hello   "],
  ["ws_only_spaces", "     "],
  ["ws_only_newlines", "\n\n\n"],
  ["ws_space_newline_space", " \n x"],
  ["ws_tabs", "\tindent\t\tx\t"],
  ["ws_nbsp", "a\u00a0b \u00a0c"],
  ["ws_ideographic_space", "日本\u3000語"],
  ["ws_em_space_and_line_separator", "a\u2003b\u2028c\u2029d"],
  ["ws_vertical_tab_form_feed", "a\u000bb\u000cc"],
  ["crlf", "line1\r\nline2\r\n\r\nend\r\n"],
  ["cr_only", "a\rb\r\r"],
  ["code_cpp", "int main(int argc, char** argv) {\n    return argc > 1 ? 0 : -1; // done\n}\n"],
  ["code_python", "def f(x):\n    if x:\n        return [i**2 for i in range(x)]\n    return None\n"],
  ["code_json", '{"key": [1, 2.5, -3e10], "nested": {"a": null, "b": true}}'],
  ["code_url", "https://example.com/path?query=1&b=%20x#frag"],
  ["upper_contractions", "DON'T I'M YOU'RE WE'VE SHE'D IT'S I'LL THEY'LL"],
  ["mixed_case_contractions", "Don'T it'S we'Ve I'm"],
  ["apostrophe_edge", "'s 'tis rock 'n' roll ''' 'll'"],
  ["curly_apostrophe", "don\u2019t it\u2019s"],
  ["digits_long", "1234567890123"],
  ["digits_decimal", "3.14159 and 1,000,000 and 2024-01-01"],
  ["digits_hex_version", "0x1F v1.2.3 42nd"],
  ["digits_other_scripts", "\u0663\u0664\u0665 \uff11\uff12\uff13 x\u00b2 \u216b \u00bd"],
  ["chinese_sentence", "注意力机制是变换器模型的核心。"],
  ["japanese", "これは日本語の文章です。カタカナも。"],
  ["arabic", "مرحبا بالعالم، كيف حالك؟"],
  ["hindi", "नमस्ते दुनिया, आप कैसे हैं?"],
  ["russian", "Привет, мир! Как дела?"],
  ["greek", "Γειά σου Κόσμε, αλφα βήτα."],
  ["korean", "안녕하세요 세계"],
  ["thai_hebrew", "สวัสดีครับ שלום עולם"],
  ["emoji_skin_tone", "👍🏽 👋🏿 thumbs"],
  ["emoji_zwj_family", "👨‍👩‍👧‍👦 family"],
  ["emoji_flags_keycap", "🇯🇵🇫🇷 1️⃣ I ❤️ NY"],
  ["combining_marks", "e\u0301 cafe\u0301 Z\u0351\u0308a"],
  ["letters_10000_no_space", letters(10000, 12345)],
  ["letter_a_10000", "a".repeat(10000)],
  ["digits_3000", "9".repeat(3000)],
  ["prose_repeated", prose.repeat(20)],
  ["eot_alone", "<|endoftext|>"],
  ["eot_twice", "<|endoftext|><|endoftext|>"],
  ["eot_spaced", "a <|endoftext|> b"],
  ["eot_spaces_before", "x  <|endoftext|>"],
  ["eot_spaces_after", "<|endoftext|>  y"],
  ["eot_newlines_around", "end.\n\n<|endoftext|>\n\nStart"],
  ["eot_contraction_after", "<|endoftext|>'s"],
  ["eot_incomplete", "<|endoftext <|endoftext| <|ENDOFTEXT|> <|endoftext|"],
  ["eot_in_word", "foo<|endoftext|>bar<|endoftext|>"],
  ["replacement_char_literal", "a\ufffdb"],
  ["punctuation_runs", "Wait... what?!? (yes) [no] {maybe} <tag/> a--b a_b @#$%^&*"],
  ["control_chars", "a\u0000b\u0007c\u007f"],
  ["nfd_vs_nfc", "caf\u00e9 cafe\u0301"],
];

// Byte cases: ill-formed UTF-8. tiktoken encodes strings, so the string it is given is the
// bytes decoded with U+FFFD for each maximal ill-formed subpart (TextDecoder, non-fatal), except
// for encoded surrogates, where `js` gives the string directly: a lone surrogate in a JS string
// becomes one U+FFFD when tiktoken encodes it, and a surrogate pair is the character.
const byteCases = [
  { name: "invalid_ff", bytes: [0x61, 0x62, 0x63, 0xff] },
  { name: "invalid_truncated_2byte_at_end", bytes: [0x61, 0xc3] },
  { name: "invalid_truncated_cjk", bytes: [0xe6, 0xb3, 0x20, 0x61] },
  { name: "invalid_overlong_slash", bytes: [0xc0, 0xaf, 0x78] },
  { name: "invalid_f5", bytes: [0xf5, 0x80, 0x80, 0x80] },
  { name: "invalid_above_max", bytes: [0xf4, 0x90, 0x80, 0x80] },
  { name: "invalid_lone_continuations", bytes: [0x80, 0x80, 0x20, 0x62] },
  { name: "invalid_latin1_cafe", bytes: [...utf8("caf"), 0xe9, ...utf8(" au lait")] },
  { name: "invalid_truncated_emoji", bytes: [0x68, 0x69, 0xf0, 0x9f, 0x91, 0x20] },
  { name: "lone_high_surrogate_wtf8", bytes: [0x61, 0xed, 0xa0, 0x80, 0x62], js: "a\ud800b" },
  { name: "lone_low_surrogate_wtf8", bytes: [0xed, 0xbf, 0xbf], js: "\udfff" },
  {
    name: "two_high_surrogates_wtf8",
    bytes: [0xed, 0xa0, 0xbd, 0xed, 0xa0, 0xbd, 0x21],
    js: "\ud83d\ud83d!",
  },
  {
    name: "cesu8_surrogate_pair",
    bytes: [0x78, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80, 0x78],
    js: "x\ud83d\ude00x",
  },
];

// [name, pieces as Rust's regex splits them]; the text is their concatenation.
const pieceCases = [
  ["nel_after_space", ["a", " ", "\u0085", "b"]],  // JS: "a", " \u0085", "b"
  ["nel_pair_in_word", ["x", "\u0085", "\u0085", "y"]],  // JS: "x", "\u0085\u0085", "y"
  ["nel_before_punctuation", ["a", "\u0085", "!"]],  // JS: "a", "\u0085!"
  ["bom_after_space", ["a", " \ufeff", "b"]],  // JS: "a", " ", "\ufeff", "b"
  ["bom_before_punctuation", ["x", "\ufeff!?"]],  // JS: "x", "\ufeff", "!?"
];

function emit(name, inputBytes, text, pieces) {
  let ids;
  if (pieces) {
    if (pieces.join("") !== text) throw new Error(`${name}: pieces do not make the text`);
    ids = pieces.flatMap((p) => wholePiece.encode(p));
    // The case must be one where the JS pattern splits differently, or it tests nothing new.
    const js = text.match(new RegExp(enc.patStr, "gu"));
    if (JSON.stringify(js) === JSON.stringify(pieces)) throw new Error(`${name}: JS agrees`);
  } else {
    ids = enc.encode(text, "all");
  }
  const tokenBytes = ids.map((id) => enc.textMap.get(id) ?? enc.inverseSpecialTokens[id]);
  const strict = new TextDecoder("utf-8", { fatal: true });
  const partial = [];
  tokenBytes.forEach((b, i) => {
    try {
      strict.decode(b);
    } catch {
      partial.push(i);
    }
  });
  // The decoded ids must give back what tiktoken saw (as UTF-8), or the case is wrong.
  const back = hex(Buffer.concat(tokenBytes.map((b) => Buffer.from(b))));
  if (back !== hex(utf8(text))) throw new Error(`${name}: ids do not decode to the text`);
  process.stdout.write(
    JSON.stringify({
      name,
      input_hex: hex(inputBytes),
      text,
      ids,
      token_bytes_hex: tokenBytes.map(hex),
      partial_utf8_token_indices: partial,
      ...(pieces ? { rust_pieces: pieces } : {}),
    }) + "\n",
  );
}

for (const [name, text] of textCases) emit(name, utf8(text), text);
for (const c of byteCases) {
  const bytes = Uint8Array.from(c.bytes);
  emit(c.name, bytes, c.js ?? new TextDecoder("utf-8").decode(bytes));
}
for (const [name, pieces] of pieceCases) emit(name, utf8(pieces.join("")), pieces.join(""), pieces);

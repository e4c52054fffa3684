#pragma once
// A model's own tokenizer: its folder's tokenizer.json (DESIGN.md, Tokenizers from tokenizer.json),
// read into an HfTokenizer.

#include <memory>
#include <string>

#include "tokenizer/hf_tokenizer.h"

namespace attn::io {

// `path` is a tokenizer.json or a folder holding one. Throws UserError("tokenizer",
// "<file>: ...") naming what is wrong (a missing file, a JSON error, something the file asks
// for that this program does not compute).
std::shared_ptr<const HfTokenizer> loadTokenizer(const std::string& path);

}  // namespace attn::io

#pragma once
// Reading a decoder model. A path is a Hugging Face model folder (config.json, model.safetensors
// or model.safetensors.index.json with its shards), or one .safetensors or torch.save file
// (.pth, .pt, .bin; told apart by content) with or without a config.json (DESIGN.md, Model
// families). Files are memory-mapped, and each weight is converted to float32 (or used in place
// when it is aligned float32 data) block by block, with progress and a cancel check in between.
//
// With a config.json, its model_type says the family (io/model_config.h) and the tensors follow
// Hugging Face's names or the book's Llama3Model / Qwen3Model / Gemma3Model names. Without one,
// the file is a GPT-2-architecture model (Hugging Face GPT-2 or the book's GPTModel), and the
// architecture comes from the tensors' shapes: layers (the highest block index + 1),
// d_model and vocabulary (the token embedding), context length (the position embedding),
// feed-forward size (block 0's first feed-forward weight), whether q/k/v have biases (block 0),
// and a separate output head or one tied to the token embedding. The head count is not in any
// shape: ModelLoadOptions::heads, else a "heads" or "n_head" entry of the safetensors
// __metadata__, else d_model / 64 (GPT-2's head size, giving its 12, 16, 20 and 25 heads).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "engine/cancel.h"
#include "engine/decoder_model.h"
#include "io/mapped_file.h"
#include "io/stored_tensor.h"

namespace attn::io {

struct ModelLoadOptions {
    std::optional<int64_t> heads;  // the CLI's --heads (GPT-2 files without a config)
    // A config.json for a single weights file (the CLI's --config); a folder brings its own.
    std::string configPath;
    const CancelToken* cancel = nullptr;
    // `done` of `total` parts read (the embeddings, each block, the final norm and head),
    // `what` the part just read ("block 3"). Called on the loading thread.
    std::function<void(int done, int total, const std::string& what)> progress;
};

// Throws attn::UserError("model", "<file>: ...") naming what is wrong and what would be right
// (a missing, misshaped, unknown or non-finite tensor with the expected shape; a file that is
// not a model), UserError("config", ...) for a Llama, Qwen or Gemma file given without its
// config.json, UserError("heads", ...) for a head count that does not divide d_model, and
// Cancelled when the token is set.
std::shared_ptr<const DecoderModel> loadDecoderModel(const std::string& path,
                                                     const ModelLoadOptions& options = {});
// The same from bytes already in memory (`source` names them in messages), without a config.
std::shared_ptr<const DecoderModel> loadDecoderModel(const SharedBytes& bytes,
                                                     const std::string& source,
                                                     const ModelLoadOptions& options = {});
// The SHA-256 (lower-case hex) of what a model is read from, for sessions to notice a change: a
// file's bytes; for a folder, the bytes of config.json, tokenizer.json, the shard index and every
// .safetensors file in it, by name in byte order, each preceded by its name and a NUL. Empty
// when something cannot be read; throws Cancelled when the token is set (files can be
// gigabytes, so the app runs this after showing the model, never before).
std::string modelContentSha256(const std::string& path, const CancelToken* cancel = nullptr);
// A GPT-2-architecture model from a file's tensors as listed by readSafetensorsTensors or
// readTorchArchive.
std::shared_ptr<const DecoderModel> buildDecoderModel(const StoredTensors& tensors,
                                                      const std::string& source,
                                                      const ModelLoadOptions& options = {});
// A model of the config's family (llama, qwen2, qwen3, gemma3) from its tensors, named as
// Hugging Face names them or as the book's models do. Every tensor is checked for presence,
// shape and dtype before any is converted; one the family does not have is an error too.
struct ModelConfig;
std::shared_ptr<const DecoderModel> buildFamilyModel(const StoredTensors& tensors,
                                                     const ModelConfig& config,
                                                     const std::string& source,
                                                     const ModelLoadOptions& options = {});

}  // namespace attn::io

#pragma once
// The pickle inside a torch.save file (<archive>/data.pkl), read as data. A pickle is a small
// program for Python's unpickler and may name any Python function for it to call (os.system
// included); this reader knows the few objects a state_dict is made of and refuses every other
// global by name, so a weights file can never make the program run code.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/tensor.h"

namespace attn::io {

// A tensor as torch._utils._rebuild_tensor_v2 describes it: which storage holds it, of what
// element type, and where in that storage it lies. Nothing is checked against the storage's
// bytes here (the archive reader does that).
struct PickledTensor {
    std::string storageKey;       // the archive record <archive>/data/<storageKey>
    std::string dtype;            // safetensors spelling: "F32", "F16", "BF16", "I64", "BOOL", ...
    int64_t storageElements = 0;  // the storage's size in elements, as the file says
    int64_t offset = 0;           // storage_offset, in elements
    Shape shape;
    std::vector<int64_t> strides;  // in elements, never negative
};

// Tensors by state_dict name, in the file's order.
using PickledStateDict = std::vector<std::pair<std::string, PickledTensor>>;

// Reads the pickle of torch.save(state_dict) (protocol 2 as torch.save writes it; the opcodes
// of protocols 3 to 5 that mean the same are accepted too). Understood: dicts and
// collections.OrderedDict (a state_dict, with its _metadata attribute ignored), tuples, lists,
// strings, numbers, torch._utils._rebuild_tensor_v2 and torch.*Storage in persistent ids. The
// top level is the state_dict itself, or a checkpoint dict holding it under "model_state_dict",
// "state_dict" or "model" (the book's chapter 5 saves {"model_state_dict": ...,
// "optimizer_state_dict": ...}). Throws attn::UserError("file", "<source>: ...").
PickledStateDict parseStateDictPickle(std::string_view pickle, const std::string& source);

}  // namespace attn::io

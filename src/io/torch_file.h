#pragma once
// Files written by torch.save(model.state_dict(), path) (.pth, .pt, .bin): a stored ZIP archive
// holding <archive>/data.pkl (the state_dict's pickle, read by io/torch_pickle.h),
// <archive>/data/<key> (each storage's raw little-endian bytes) and <archive>/version. Nothing
// is copied: every tensor points into the bytes it was given (a mapped file).

#include <string>

#include "io/mapped_file.h"
#include "io/stored_tensor.h"

namespace attn::io {

// True when `bytes` start like a ZIP archive or like PyTorch's legacy (pre-1.6) pickle format.
bool looksLikeTorchFile(std::string_view bytes);

// Every tensor of the state_dict, checked to lie inside its storage and the storage inside the
// archive. Throws attn::UserError("file", "<source>: ...") for anything else: the legacy
// format, compressed or missing records, big-endian storages, a pickle that names anything but
// what a state_dict is made of.
StoredTensors readTorchArchive(const SharedBytes& file, const std::string& source);

}  // namespace attn::io

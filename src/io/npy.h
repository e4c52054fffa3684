#pragma once
// NumPy .npy (format versions 1.0, 2.0, 3.0) and .npz (an uncompressed ZIP of .npy files).
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/cancel.h"
#include "engine/decoder_forward.h"
#include "engine/tensor.h"
#include "engine/trace.h"
#include "io/zip.h"  // crc32

namespace attn::io {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// Reads '<f4', '<f8', '<f2', '<i4' and '<i8' (converted to float32), C or Fortran order.
// `source` names the file in messages. Throws attn::UserError("file", ...).
Tensor parseNpy(std::string_view bytes, const std::string& source);
Tensor readNpy(const std::string& path);

// The header of a float32 C-order array: magic, version 1.0, length, dict padded with spaces
// and ended by '\n' so that the data starts at a multiple of 64 bytes.
std::string npyHeader(const Shape& shape);
// float32 '<f4', version 1.0, row-major, exactly the tensor's shape (0-d and 1-d included).
std::string npyBytes(const Tensor& tensor);
void writeNpy(const std::string& path, const Tensor& tensor);
// Every layer's attention weights (L, H, T, T) of a model run as a float32 .npy file: the run's
// kept attention, or each layer recomputed in turn (layerAttention) and streamed to the file,
// so the whole array is never held. The one writer behind the app's and the CLI's export.
// Complete or not at all; cancellable (throws attn::Cancelled, leaving no file).
void writeAttentionNpy(const std::string& path, const DecoderRun& run,
                       const CancelToken* cancel = nullptr);

// A ZIP archive (stored, CRC-32) holding "<name>.npy" per array, as np.savez writes and
// np.load reads. Throws attn::UserError("output", ...) above the 4 GiB ZIP limit (ZIP64 is
// not written) or for empty or duplicate names.
std::string npzBytes(const NamedTensors& arrays);
void writeNpz(const std::string& path, const NamedTensors& arrays);
// Every step of a trace, by step id, in trace order (what `export --out F.npz` writes).
NamedTensors traceTensors(const Trace& trace);

// Reads stored (uncompressed) entries; names come back without ".npy".
NamedTensors parseNpz(std::string_view bytes, const std::string& source);
NamedTensors readNpz(const std::string& path);

}  // namespace attn::io

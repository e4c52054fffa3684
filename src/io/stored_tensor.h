#pragma once
// A tensor as it lies in a weights file (safetensors or a torch.save archive), not yet read:
// element type, shape, layout and where its first element is. Converting it to float32 happens
// when (and if) the tensor is needed, so opening a file costs no pass over its data.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/cancel.h"
#include "engine/half.h"
#include "engine/tensor.h"

namespace attn::io {

struct StoredTensor {
    std::string dtype;  // safetensors spelling: "F32", "F16", "BF16", "I64", "BOOL", ...
    Shape shape;
    std::vector<int64_t> strides;       // in elements; row-major unless the file says otherwise
    const char* data = nullptr;         // the element at index (0, ..., 0)
    std::shared_ptr<const void> owner;  // keeps `data` valid (the mapped file)
};

// Every tensor of a file by name, in the file's order, and the file's string metadata
// (safetensors "__metadata__"; torch.save files have none).
struct StoredTensors {
    std::vector<std::pair<std::string, StoredTensor>> tensors;
    std::map<std::string, std::string> metadata;
};

// Bytes per element of every dtype the safetensors format defines (torch storages map onto
// them); 0 for a name it does not define.
int dtypeSize(const std::string& dtype);

// True for the element types float32 can hold exactly: F32, F16, BF16.
bool isFloatDtype(const std::string& dtype);

// The tensor as float32. Contiguous F32 data aligned for float is used in place (the Tensor
// keeps `owner` alive and must never be written); anything else is converted into a new
// buffer. Needs isFloatDtype(dtype).
Tensor toFloat32(const StoredTensor& stored);

// A 2-D F16 or BF16 tensor stored row by row, 2-byte aligned, as a HalfMatrix that reads it in
// place (sharing `owner`); false for anything else (which toFloat32 converts instead).
bool asHalfMatrix(const StoredTensor& stored, HalfMatrix* out);
// The index of the first value of a HalfMatrix that is not a finite number, or -1. Checks the
// exponent bits only, so a large matrix costs one pass over its 16-bit values.
int64_t firstNonFinite(const HalfMatrix& m);

// A model weight as float32 (toFloat32), checked finite: UserError("model", "<source>: <name>
// holds nan at index (3, 7); a model's weights are finite numbers (...)") otherwise.
Tensor finiteFloat32(const StoredTensor& stored, const std::string& name,
                     const std::string& source);
// The same check for a weight read in place in 16 bits.
void checkFinite(const HalfMatrix& m, const std::string& name, const std::string& source);

// The row-major index of the first element that is not a finite number, or -1. Reads every
// element: the model reader calls it per tensor as it converts, not over the whole file.
int64_t firstNonFinite(const Tensor& tensor);

}  // namespace attn::io

#pragma once
// A small float32 tensor with PyTorch semantics for shape, strides and views.
// Views (.view, .transpose, select) share storage with their source, so the reshape steps of a
// trace cost no copies. Eigen stays out of this header on purpose: widgets include it.

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace attn {

using Shape = std::vector<int64_t>;

// "(1, 6, 3)", and "(6,)" for one dimension: Python's tuple, as .npy headers and messages write it.
std::string shapeToString(const Shape& shape);
int64_t shapeNumel(const Shape& shape);
// True when every stride and the element count of a row-major tensor of this shape fit in
// int64_t: no negative size, and the product of the non-zero sizes fits (a zero size makes the
// count 0 but not the strides of the dims after it). Check shapes read from files with this.
bool shapeIsRepresentable(const Shape& shape);

// Tensor buffers of 64 KiB and up are kept for reuse when freed, up to 1 GiB in all: a trace at
// T = 1,024 is a few hundred megabytes written once, and mapping fresh pages from the kernel
// (which zeroes each one) cost a third of its time (a quarter at T = 256; at T = 64 and 128,
// where glibc maps its 200-800 KiB steps fresh each time too, a third of the trace's time).
// releaseCachedBuffers() returns the kept ones to the system (the app calls it when it has been
// idle for a moment); cachedBufferBytes() says how much is kept. Both are thread-safe.
void releaseCachedBuffers();
size_t cachedBufferBytes();

struct PackedTriangles;  // the storage of Tensor::lowerTriangular

class Tensor {
  public:
    Tensor() = default;
    // Contiguous, zero-filled.
    explicit Tensor(Shape shape);
    // Contiguous, contents undefined: for results that are written in full right away (saves a
    // pass over memory on the large T x T steps).
    static Tensor uninitialized(Shape shape);
    Tensor(Shape shape, std::vector<float> data);  // data row-major, size must match
    // Contiguous over memory that `storage` owns, e.g. a memory-mapped weights file kept alive
    // through the shared_ptr aliasing constructor. Such memory may be read-only: a wrapped
    // tensor is never written.
    static Tensor wrap(std::shared_ptr<float[]> storage, Shape shape);
    // A (..., T, T) tensor whose entries above the diagonal of every T x T matrix all equal
    // `above` (a causal step: -inf for masked scores, 0 for masked weights), kept as its lower
    // triangles: about half the memory. It reads like any contiguous tensor: the first read of
    // its memory (data(), at(), toVector(), or a view's) lays the full matrices out once, from
    // then on they are kept and the triangles freed. Fill it through lowerRow() before anything
    // reads it.
    static Tensor lowerTriangular(Shape shape, float above);
    // Entries 0..row of row `row` of matrix `matrix` (matrices counted row-major over the
    // leading dims), to be written; only for a lowerTriangular tensor that nothing has read.
    float* lowerRow(int64_t matrix, int64_t row);
    // Bytes of memory the tensor's storage holds now (shared storage counted in full). Not
    // synchronised with another thread's first read of a lowerTriangular tensor.
    size_t storageBytes() const;

    const Shape& shape() const { return shape_; }
    const std::vector<int64_t>& strides() const { return strides_; }
    int64_t dim() const { return static_cast<int64_t>(shape_.size()); }
    int64_t size(int64_t d) const;  // negative d counts from the end
    int64_t numel() const { return shapeNumel(shape_); }
    bool empty() const { return storage_ == nullptr && packed_ == nullptr; }
    bool isContiguous() const;
    // True when both tensors look at the same memory (a view of one another).
    bool sharesStorageWith(const Tensor& other) const {
        return (storage_ && storage_ == other.storage_) || (packed_ && packed_ == other.packed_);
    }

    // Element access by full index (any layout).
    float at(std::initializer_list<int64_t> index) const;
    float at(const std::vector<int64_t>& index) const;
    // Element by row-major linear index (any layout).
    float flat(int64_t linear) const;

    // Pointer to the first element; rows are contiguous only if isContiguous().
    const float* data() const;
    float* mutableData();

    std::vector<float> toVector() const;  // row-major copy
    Tensor contiguous() const;            // this, or a row-major copy
    Tensor clone() const;                 // always a fresh copy
    Tensor view(Shape shape) const;       // needs contiguous input, like torch .view
    Tensor transpose(int64_t a, int64_t b) const;
    Tensor select(int64_t d, int64_t index) const;  // drops dimension d
    // torch's repeat_interleave(repeats, dim=d) as a view: dimension d grows `repeats` times and
    // index i of it reads index i / repeats of this tensor (grouped-query attention's keys and
    // values for every head, without copying the group's). The result is not contiguous; its
    // strides() give dimension d's stride per source index, so read it through at(), flat(),
    // toVector(), select() or contiguous(). Throws if dimension d is repeated already.
    Tensor repeatInterleave(int64_t d, int64_t repeats) const;

    friend bool operator==(const Tensor& a, const Tensor& b);  // same shape, same values

  private:
    const std::shared_ptr<float[]>& buffer() const;  // storage_, or packed_ laid out in full

    std::shared_ptr<float[]> storage_;
    std::shared_ptr<PackedTriangles> packed_;  // set instead of storage_ by lowerTriangular
    Shape shape_;
    std::vector<int64_t> strides_;
    // Per dimension, how many consecutive indices read the same source index (repeatInterleave);
    // empty when every dimension reads its own.
    std::vector<int64_t> repeats_;
    int64_t offset_ = 0;

    int64_t repeatOf(size_t d) const { return repeats_.empty() ? 1 : repeats_[d]; }
};

}  // namespace attn

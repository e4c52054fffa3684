#include "engine/tensor.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#ifdef __linux__
#include <sys/mman.h>
#endif

namespace attn {

std::string shapeToString(const Shape& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i)
            s += ", ";
        s += std::to_string(shape[i]);
    }
    if (shape.size() == 1)
        s += ",";
    return s + ")";
}

int64_t shapeNumel(const Shape& shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

bool shapeIsRepresentable(const Shape& shape) {
    int64_t product = 1;
    for (int64_t d : shape) {
        if (d < 0)
            return false;
        if (d != 0 && __builtin_mul_overflow(product, d, &product))
            return false;
    }
    return true;
}

namespace {

#if defined(__SANITIZE_ADDRESS__)
#define ATTN_KEEP_BUFFERS 0  // AddressSanitizer must see every free to catch a use after it
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_KEEP_BUFFERS 0
#endif
#endif
#ifndef ATTN_KEEP_BUFFERS
#define ATTN_KEEP_BUFFERS 1
#endif

constexpr size_t kHuge = size_t(2) << 20;
constexpr size_t kKeptFrom = size_t(64) << 10;  // smaller blocks come and go through malloc

// Freed large blocks by size. A request takes the smallest kept block that is big enough and
// wastes at most a quarter of it (typing one more token grows every T x T step a little).
class BufferCache {
  public:
    static constexpr size_t kCapacity = size_t(1) << 30;

    // A kept block of at least `bytes` (its real size in *got), or nullptr.
    void* take(size_t bytes, size_t* got) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = blocks_.lower_bound(bytes);
        if (it == blocks_.end() || it->first > bytes + bytes / 4)
            return nullptr;
        void* p = it->second;
        *got = it->first;
        held_ -= it->first;
        blocks_.erase(it);
        return p;
    }
    void give(void* p, size_t bytes) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (ATTN_KEEP_BUFFERS && held_ + bytes <= kCapacity) {
                blocks_.emplace(bytes, p);
                held_ += bytes;
                return;
            }
        }
        std::free(p);
    }
    void release() {
        std::multimap<size_t, void*> blocks;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            blocks.swap(blocks_);
            held_ = 0;
        }
        for (const auto& [bytes, p] : blocks)
            std::free(p);
    }
    size_t held() {
        std::lock_guard<std::mutex> lock(mutex_);
        return held_;
    }

  private:
    std::mutex mutex_;
    std::multimap<size_t, void*> blocks_;  // kept, free, by size
    size_t held_ = 0;
};

BufferCache& bufferCache() {
    static BufferCache* cache = new BufferCache;  // never destroyed: tensors may outlive main()
    return *cache;
}

// The T x T steps of a large trace are tens of megabytes each and are written once, right after
// allocation. glibc maps such blocks (and, after it trims its heap, even blocks of a few hundred
// kilobytes, the steps of a T = 64 trace) fresh from the kernel every time, so 4 KiB page faults
// would cost as much as the arithmetic; reusing kept blocks avoids them, and asking for
// transparent huge pages for new ones cuts them 512-fold.
std::shared_ptr<float[]> allocateFloats(int64_t n) {
    const size_t bytes = static_cast<size_t>(std::max<int64_t>(n, 1)) * sizeof(float);
    if (bytes >= kKeptFrom) {
        // Huge-page sized blocks from 4 MiB, 64 KiB granules below: either way a block fits
        // the next trace's slightly bigger step more often.
        const size_t granule = bytes >= 2 * kHuge ? kHuge : size_t(64) << 10;
        size_t rounded = (bytes + granule - 1) / granule * granule;
        BufferCache& cache = bufferCache();
        void* p = cache.take(rounded, &rounded);
        if (!p) {
            p = std::aligned_alloc(granule, rounded);
            if (!p) {
                // Kept blocks of other sizes may be what stands in the way.
                cache.release();
                p = std::aligned_alloc(granule, rounded);
            }
            if (!p)
                throw std::bad_alloc();
#ifdef __linux__
            if (granule == kHuge)
                madvise(p, rounded, MADV_HUGEPAGE);  // a hint: failure only costs speed
#endif
        }
        return std::shared_ptr<float[]>(static_cast<float*>(p),
                                        [rounded](float* q) { bufferCache().give(q, rounded); });
    }
    // Uninitialised (std::vector would zero it) and 64-byte aligned like the large blocks:
    // vectorised loops treat a misaligned head element by element, which rounds transcendental
    // functions differently, so the same input must always land on the same alignment.
    const size_t rounded = (bytes + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, rounded);
    if (!p)
        throw std::bad_alloc();
    return std::shared_ptr<float[]>(static_cast<float*>(p), [](float* q) { std::free(q); });
}

std::vector<int64_t> rowMajorStrides(const Shape& shape) {
    std::vector<int64_t> strides(shape.size());
    int64_t s = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        strides[i] = s;
        s *= shape[i];
    }
    return strides;
}
}  // namespace

// Each T x T matrix's lower triangle, row by row (row i holds its first i + 1 entries, from
// i (i + 1) / 2 on), the matrices one after another.
struct PackedTriangles {
    std::shared_ptr<float[]> triangles;
    int64_t matrices = 0;
    int64_t n = 0;  // T
    float above = 0.0f;
    std::once_flag laidOut;
    std::shared_ptr<float[]> full;

    int64_t triangleSize() const { return n * (n + 1) / 2; }

    // Thread-safe: the first caller lays the matrices out, any other waits for it.
    const std::shared_ptr<float[]>& expanded() {
        std::call_once(laidOut, [this] {
            full = allocateFloats(matrices * n * n);
            float* out = full.get();
            const float* in = triangles.get();
            for (int64_t m = 0; m < matrices; ++m)
                for (int64_t i = 0; i < n; ++i) {
                    float* row = out + (m * n + i) * n;
                    std::copy_n(in + m * triangleSize() + i * (i + 1) / 2, i + 1, row);
                    std::fill(row + i + 1, row + n, above);
                }
            triangles.reset();
        });
        return full;
    }
};

void releaseCachedBuffers() {
    bufferCache().release();
}

size_t cachedBufferBytes() {
    return bufferCache().held();
}

Tensor::Tensor(Shape shape) : Tensor(uninitialized(std::move(shape))) {
    std::fill_n(storage_.get(), numel(), 0.0f);
}

Tensor Tensor::uninitialized(Shape shape) {
    if (!shapeIsRepresentable(shape))
        throw std::length_error("Tensor: shape " + shapeToString(shape) +
                                " does not fit in memory");
    Tensor t;
    const int64_t n = shapeNumel(shape);
    t.storage_ = allocateFloats(n);
    t.shape_ = std::move(shape);
    t.strides_ = rowMajorStrides(t.shape_);
    return t;
}

Tensor Tensor::wrap(std::shared_ptr<float[]> storage, Shape shape) {
    if (!shapeIsRepresentable(shape))
        throw std::length_error("Tensor: shape " + shapeToString(shape) +
                                " does not fit in memory");
    Tensor t;
    t.storage_ = std::move(storage);
    t.shape_ = std::move(shape);
    t.strides_ = rowMajorStrides(t.shape_);
    return t;
}

Tensor Tensor::lowerTriangular(Shape shape, float above) {
    if (shape.size() < 2 || shape[shape.size() - 1] != shape[shape.size() - 2])
        throw std::invalid_argument("Tensor::lowerTriangular: shape " + shapeToString(shape) +
                                    " does not end in square matrices");
    if (!shapeIsRepresentable(shape))
        throw std::length_error("Tensor: shape " + shapeToString(shape) +
                                " does not fit in memory");
    Tensor t;
    auto p = std::make_shared<PackedTriangles>();
    p->n = shape.back();
    p->matrices = p->n == 0 ? 0 : shapeNumel(shape) / (p->n * p->n);
    p->above = above;
    p->triangles = allocateFloats(p->matrices * p->triangleSize());
    t.packed_ = std::move(p);
    t.shape_ = std::move(shape);
    t.strides_ = rowMajorStrides(t.shape_);
    return t;
}

float* Tensor::lowerRow(int64_t matrix, int64_t row) {
    if (!packed_ || !packed_->triangles)
        throw std::logic_error("Tensor::lowerRow: not a lower-triangular tensor being filled");
    return packed_->triangles.get() + matrix * packed_->triangleSize() + row * (row + 1) / 2;
}

size_t Tensor::storageBytes() const {
    if (packed_ && packed_->triangles)
        return static_cast<size_t>(packed_->matrices * packed_->triangleSize()) * sizeof(float);
    return empty() ? 0 : static_cast<size_t>(numel()) * sizeof(float);
}

const std::shared_ptr<float[]>& Tensor::buffer() const {
    return packed_ ? packed_->expanded() : storage_;
}

const float* Tensor::data() const {
    const std::shared_ptr<float[]>& b = buffer();
    return b ? b.get() + offset_ : nullptr;
}

float* Tensor::mutableData() {
    const std::shared_ptr<float[]>& b = buffer();
    return b ? b.get() + offset_ : nullptr;
}

Tensor::Tensor(Shape shape, std::vector<float> data) : Tensor(uninitialized(std::move(shape))) {
    if (static_cast<int64_t>(data.size()) != numel())
        throw std::invalid_argument("Tensor: " + std::to_string(data.size()) +
                                    " values do not fill shape " + shapeToString(shape_));
    std::copy(data.begin(), data.end(), storage_.get());
}

int64_t Tensor::size(int64_t d) const {
    if (d < 0)
        d += dim();
    if (d < 0 || d >= dim())
        throw std::out_of_range("Tensor::size: dimension out of range");
    return shape_[static_cast<size_t>(d)];
}

bool Tensor::isContiguous() const {
    return repeats_.empty() && strides_ == rowMajorStrides(shape_);
}

float Tensor::at(std::initializer_list<int64_t> index) const {
    return at(std::vector<int64_t>(index));
}

float Tensor::at(const std::vector<int64_t>& index) const {
    if (index.size() != shape_.size())
        throw std::out_of_range("Tensor::at: wrong number of indices");
    int64_t off = offset_;
    for (size_t i = 0; i < index.size(); ++i) {
        if (index[i] < 0 || index[i] >= shape_[i])
            throw std::out_of_range("Tensor::at: index out of range");
        off += index[i] / repeatOf(i) * strides_[i];
    }
    return buffer()[off];
}

float Tensor::flat(int64_t linear) const {
    int64_t off = offset_;
    for (size_t i = shape_.size(); i-- > 0;) {
        const int64_t n = shape_[i];
        off += (linear % n) / repeatOf(i) * strides_[i];
        linear /= n;
    }
    return buffer()[off];
}

std::vector<float> Tensor::toVector() const {
    if (empty())
        return {};
    const int64_t n = numel();
    if (isContiguous())
        return std::vector<float>(data(), data() + n);
    std::vector<float> out(static_cast<size_t>(n));
    // Walk the index like an odometer so each element costs O(1).
    std::vector<int64_t> idx(shape_.size(), 0);
    int64_t off = offset_;
    const float* base = buffer().get();
    for (int64_t k = 0; k < n; ++k) {
        out[static_cast<size_t>(k)] = base[off];
        for (size_t d = shape_.size(); d-- > 0;) {
            const int64_t r = repeatOf(d);
            if (++idx[d] < shape_[d]) {
                if (idx[d] % r == 0)
                    off += strides_[d];
                break;
            }
            off -= (shape_[d] - 1) / r * strides_[d];
            idx[d] = 0;
        }
    }
    return out;
}

Tensor Tensor::contiguous() const {
    if (empty() || isContiguous())
        return *this;
    return Tensor(shape_, toVector());
}

Tensor Tensor::clone() const {
    if (empty())
        return {};
    Tensor t = uninitialized(shape_);
    if (isContiguous())
        std::copy_n(data(), numel(), t.storage_.get());
    else {
        const std::vector<float> v = toVector();
        std::copy(v.begin(), v.end(), t.storage_.get());
    }
    return t;
}

Tensor Tensor::view(Shape shape) const {
    if (!isContiguous())
        throw std::invalid_argument("view needs a contiguous tensor; call contiguous() first");
    if (shapeNumel(shape) != numel())
        throw std::invalid_argument("view: shape " + shapeToString(shape) + " does not match " +
                                    std::to_string(numel()) + " elements");
    Tensor t = *this;
    t.shape_ = std::move(shape);
    t.strides_ = rowMajorStrides(t.shape_);
    return t;
}

Tensor Tensor::transpose(int64_t a, int64_t b) const {
    if (a < 0)
        a += dim();
    if (b < 0)
        b += dim();
    if (a < 0 || b < 0 || a >= dim() || b >= dim())
        throw std::out_of_range("transpose: dimension out of range");
    Tensor t = *this;
    std::swap(t.shape_[static_cast<size_t>(a)], t.shape_[static_cast<size_t>(b)]);
    std::swap(t.strides_[static_cast<size_t>(a)], t.strides_[static_cast<size_t>(b)]);
    if (!t.repeats_.empty())
        std::swap(t.repeats_[static_cast<size_t>(a)], t.repeats_[static_cast<size_t>(b)]);
    return t;
}

Tensor Tensor::select(int64_t d, int64_t index) const {
    if (d < 0)
        d += dim();
    if (d < 0 || d >= dim())
        throw std::out_of_range("select: dimension out of range");
    if (index < 0 || index >= shape_[static_cast<size_t>(d)])
        throw std::out_of_range("select: index out of range");
    Tensor t = *this;
    t.offset_ += index / repeatOf(static_cast<size_t>(d)) * strides_[static_cast<size_t>(d)];
    t.shape_.erase(t.shape_.begin() + d);
    t.strides_.erase(t.strides_.begin() + d);
    if (!t.repeats_.empty()) {
        t.repeats_.erase(t.repeats_.begin() + d);
        if (std::all_of(t.repeats_.begin(), t.repeats_.end(), [](int64_t r) { return r == 1; }))
            t.repeats_.clear();
    }
    return t;
}

Tensor Tensor::repeatInterleave(int64_t d, int64_t repeats) const {
    if (d < 0)
        d += dim();
    if (d < 0 || d >= dim())
        throw std::out_of_range("repeatInterleave: dimension out of range");
    if (repeats < 1)
        throw std::invalid_argument("repeatInterleave: repeats must be at least 1");
    const size_t k = static_cast<size_t>(d);
    if (repeatOf(k) != 1)
        throw std::invalid_argument("repeatInterleave: dimension is repeated already");
    Shape shape = shape_;
    shape[k] *= repeats;
    if (!shapeIsRepresentable(shape))
        throw std::length_error("Tensor: shape " + shapeToString(shape) +
                                " does not fit in memory");
    Tensor t = *this;
    t.shape_ = std::move(shape);
    if (repeats > 1) {
        t.repeats_.resize(t.shape_.size(), 1);
        t.repeats_[k] = repeats;
    }
    return t;
}

bool operator==(const Tensor& a, const Tensor& b) {
    return a.shape_ == b.shape_ && a.toVector() == b.toVector();
}

}  // namespace attn

#pragma once
#include <atomic>
#include <stdexcept>

namespace attn {

// Set from any thread; the engine polls it between steps (and inside long loops), so a newer
// request can stop a running trace without waiting for it.
class CancelToken {
  public:
    void cancel() { flag_.store(true, std::memory_order_relaxed); }
    void reset() { flag_.store(false, std::memory_order_relaxed); }
    bool cancelled() const { return flag_.load(std::memory_order_relaxed); }

  private:
    std::atomic<bool> flag_{false};
};

class Cancelled : public std::runtime_error {
  public:
    Cancelled() : std::runtime_error("The computation was cancelled.") {}
};

inline void throwIfCancelled(const CancelToken* token) {
    if (token && token->cancelled())
        throw Cancelled();
}

}  // namespace attn

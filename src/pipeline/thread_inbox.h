#pragma once
// Runs functions on the thread an object lives in, posted from any thread through Qt's event
// queue, with the happens-before edge of the queue stated for ThreadSanitizer.
//
// Debian's Qt is not built with ThreadSanitizer and its queue is guarded by futex-based locks
// TSan cannot see, so any value handed over by a queued signal or invokeMethod would look like
// a data race to it. Posting our own event lets us state what the queue guarantees: whatever
// the sender did before post() happens before the receiver runs the function, or destroys it
// unrun when the inbox goes away first. In normal builds the annotations compile to nothing.
#include <QObject>
#include <functional>

namespace attn {

class ThreadInbox : public QObject {
  public:
    using QObject::QObject;
    // Thread-safe. `fn` runs later on this inbox's thread, from its event loop, in posting order.
    void post(std::function<void()> fn);

  protected:
    bool event(QEvent* e) override;
};

// The same edge for work spread over Qt's thread pool (QtConcurrent): call handOff() on the
// sending side and takeOver() first thing on the receiving side, with the same address.
void handOff(const void* key);
void takeOver(const void* key);

}  // namespace attn

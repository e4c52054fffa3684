#include "pipeline/thread_inbox.h"

#include <QCoreApplication>
#include <QEvent>

#if defined(__SANITIZE_THREAD__)
#define ATTN_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ATTN_TSAN 1
#endif
#endif
#ifdef ATTN_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace attn {

void handOff(const void* key) {
#ifdef ATTN_TSAN
    __tsan_release(const_cast<void*>(key));
#else
    (void)key;
#endif
}

void takeOver(const void* key) {
#ifdef ATTN_TSAN
    __tsan_acquire(const_cast<void*>(key));
#else
    (void)key;
#endif
}

namespace {

const QEvent::Type kCallEvent = QEvent::Type(QEvent::registerEventType());

class CallEvent : public QEvent {
  public:
    CallEvent(const ThreadInbox* inbox, std::function<void()> fn)
        : QEvent(kCallEvent), inbox_(inbox), fn_(std::move(fn)) {}
    // Qt destroys an undelivered event on whichever thread drops it: take the edge there too,
    // before the function object (and what it captured) is destroyed.
    ~CallEvent() override { takeOver(inbox_); }
    void run() { fn_(); }

  private:
    const ThreadInbox* inbox_;
    std::function<void()> fn_;
};

}  // namespace

void ThreadInbox::post(std::function<void()> fn) {
    auto* e = new CallEvent(this, std::move(fn));
    // After the event is complete, before another thread can see it. The inbox (not the event,
    // whose address is reused) is the key: the receiver takes over everything posted so far.
    handOff(this);
    QCoreApplication::postEvent(this, e);
}

bool ThreadInbox::event(QEvent* e) {
    takeOver(this);  // before reading even the event's type
    if (e->type() != kCallEvent)
        return QObject::event(e);
    static_cast<CallEvent*>(e)->run();
    return true;
}

}  // namespace attn

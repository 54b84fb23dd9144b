// The fault guard. A few parts of the report follow pointers the reporter does not own: the
// crashed thread's stack (the unwinder) and the Swift runtime's message. They run under
// scr_guarded; if one faults, the handler (handler.c) sees the thread inside the guard fault
// and jumps back here, and the report goes on without that part. One thread writes a report
// at a time (report.c), crash or snapshot, so one guard is enough; it remembers whose it is.
// See docs/signal-safety.md, "Faults inside the handler".
#include "internal.h"

#include <setjmp.h>

static struct {
    sigjmp_buf jump;
    _Atomic pid_t active; // the thread inside scr_guarded, 0 when none
} g_guard;

// Async-signal-safe (sigsetjmp here, siglongjmp from a nested handler invocation on the same
// thread; see docs/signal-safety.md).
bool scr_guarded(void (*fn)(void *), void *arg) {
    if (sigsetjmp(g_guard.jump, 1) != 0) {
        atomic_store(&g_guard.active, 0);
        return false;
    }
    atomic_store(&g_guard.active, scr_gettid());
    fn(arg);
    atomic_store(&g_guard.active, 0);
    return true;
}

// Async-signal-safe.
bool scr_guard_active(pid_t tid) { return tid != 0 && atomic_load(&g_guard.active) == tid; }

// Async-signal-safe in the one place it is called: the handler, on the thread that is inside
// scr_guarded, when a guarded part faulted. scr_guarded then returns false.
void scr_guard_escape(void) { siglongjmp(g_guard.jump, 1); }

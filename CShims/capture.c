// Whether capture is on. One flag for the whole reporter: the handler reads it to decide
// between writing a report and only handing the signal on, the breadcrumb recorder to decide
// whether to record at all. The user's choice turns it (scr_set_capture_enabled).
#include "internal.h"

static _Atomic bool g_capture_disabled;

// Async-signal-safe.
void scr_set_capture_enabled(int enabled) {
    atomic_store_explicit(&g_capture_disabled, enabled == 0, memory_order_relaxed);
}

// Async-signal-safe. Relaxed: the flag publishes no other data, and a breadcrumb recorded
// just after the switch on another thread may go either way.
bool scr_capture_enabled(void) { return !atomic_load_explicit(&g_capture_disabled, memory_order_relaxed); }

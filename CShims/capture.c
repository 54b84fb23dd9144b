// Whether capture is on. One flag for the whole reporter: the handler reads it to decide
// between writing a report and only handing the signal on, the breadcrumb recorder to decide
// whether to record at all. The user's choice turns it (scr_set_capture_enabled).
#include "internal.h"

_Atomic bool scr_g_capture_disabled;

// Async-signal-safe.
void scr_set_capture_enabled(int enabled) {
    atomic_store_explicit(&scr_g_capture_disabled, enabled == 0, memory_order_relaxed);
}

// scr_capture_enabled, which the breadcrumb recorder calls on every record, is inline in
// internal.h: one relaxed load.

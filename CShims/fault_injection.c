// The test hook behind scr_debug_inject_fault (CRASH_REPORTER_TEST_FAULT): where the next report
// faults on purpose, so that the tests can show each fault is survived. One flag, read by the
// report (report.c) and by the threads that capture themselves (threads.c).
#include "internal.h"

static _Atomic int g_inject_fault;
static _Atomic int g_thread_fault_done;

// Async-signal-safe.
void scr_debug_inject_fault(int where) { atomic_store(&g_inject_fault, where); }

// Async-signal-safe by intent: it faults on purpose (a store to an unmapped page) when `where`
// was asked for. SCR_FAULT_IN_THREAD faults in one thread only, the first to get here.
void scr_fault_if_injected(int where) {
    if (atomic_load(&g_inject_fault) != where) return;
    if (where == SCR_FAULT_IN_THREAD && atomic_exchange(&g_thread_fault_done, 1) != 0) return;
    *(volatile int *)(uintptr_t)16 = 1;
}

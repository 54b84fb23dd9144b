// The test hook behind scr_debug_inject_fault and scr_debug_inject_write_fault
// (CRASH_REPORTER_TEST_FAULT): where the next report faults on purpose, or which error its file
// writes meet, so that the tests can show each fault is survived. Read by the crash handler
// (handler.c), the report (report.c), the crashing thread's unwind (crashed_thread.c), the threads
// that capture themselves (threads.c), the breadcrumb ring (ring.c) and the gzip sink (gzip_sink.c).
#include "internal.h"

#include <errno.h>
#include <unistd.h>

_Atomic int scr_g_injected_fault;
static _Atomic int g_thread_fault_done;
static _Atomic int g_write_error;       // 0: writes are real
static _Atomic uint64_t g_write_budget; // bytes still written before the error

// Async-signal-safe.
void scr_debug_inject_fault(int where) { atomic_store(&scr_g_injected_fault, where); }

// Async-signal-safe by intent: it faults on purpose (a store to an unmapped page); called by
// scr_fault_if_injected (internal.h) when `where` was asked for. SCR_FAULT_IN_THREAD faults in
// one thread only, the first to get here.
void scr_fault_now(int where) {
    if (where == SCR_FAULT_IN_THREAD && !scr_fault_take_once()) return;
    *(volatile int *)(uintptr_t)16 = 1;
}

// Async-signal-safe (an atomic exchange). True for the first caller only: the one thread a
// per-thread site acts in.
bool scr_fault_take_once(void) { return atomic_exchange(&g_thread_fault_done, 1) == 0; }

// Async-signal-safe.
void scr_debug_inject_write_fault(int error, uint64_t after_bytes) {
    atomic_store(&g_write_budget, after_bytes);
    atomic_store(&g_write_error, error);
}

// Async-signal-safe (write(2)). write(2) for the report file; when a write fault was asked for,
// the bytes within the budget are written (a short write at its end) and every later call fails
// with the error, as a disk that fails in the middle of the report would.
ssize_t scr_report_file_write(int fd, const void *bytes, size_t n) {
    int error = atomic_load_explicit(&g_write_error, memory_order_relaxed);
    if (error == 0) return write(fd, bytes, n);
    uint64_t budget = atomic_load(&g_write_budget);
    if (budget == 0) {
        errno = error;
        return -1;
    }
    size_t take = n < budget ? n : (size_t)budget;
    ssize_t written = write(fd, bytes, take);
    if (written > 0) atomic_store(&g_write_budget, budget - (uint64_t)written);
    return written;
}

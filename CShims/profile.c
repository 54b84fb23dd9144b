// The crash path's profile, for the benchmark only: a debug hook (scr_debug_profile_crash) gives a
// descriptor, and from then on the handler notes CLOCK_MONOTONIC at the end of each phase, with
// the time spent inside deflate and inside write(2), in this static table, and writes the table
// to the descriptor with one write(2) just before it hands the signal on. The parent, which
// knows when the program faulted and when waitpid returned, turns the marks into phases
// (Benchmarks/Sources/CrashProfile.swift; docs/benchmarks.md).
//
// Without the hook the ordinary crash path pays one load and one branch per mark: no clock read,
// no system call, no allocation, no lock.
#include "internal.h"

#include <unistd.h>

static struct {
    int fd; // -1: not profiling
    scr_crash_profile table;
} g_profile = {.fd = -1};

// Async-signal-safe. Whether the handler notes its phases.
bool scr_profile_on(void) { return g_profile.fd >= 0; }

// Async-signal-safe (clock_gettime). Notes the end of `phase`.
void scr_profile_mark(int phase) {
    if (g_profile.fd < 0 || phase < 0 || phase >= SCR_PROFILE_PHASES) return;
    g_profile.table.marks_ns[phase] = scr_now_monotonic_ns();
}

// Async-signal-safe. Adds `ns` spent in deflate, in write(2) or asleep for the other threads.
void scr_profile_add(int which, uint64_t ns) {
    if (g_profile.fd < 0) return;
    if (which == SCR_PROFILE_DEFLATE) g_profile.table.deflate_ns += ns;
    else if (which == SCR_PROFILE_WRITE) g_profile.table.write_ns += ns;
    else g_profile.table.waiting_ns += ns;
}

// Async-signal-safe (write). Hands the table to the descriptor, once.
void scr_profile_flush(void) {
    int fd = g_profile.fd;
    if (fd < 0) return;
    g_profile.fd = -1;
    (void)write(fd, &g_profile.table, sizeof g_profile.table);
}

// Async-signal-safe. The debug hook (crash-test's CRASH_TEST_PROFILE_FD).
void scr_debug_profile_crash(int fd) {
    g_profile.table = (scr_crash_profile){0};
    g_profile.fd = fd;
}

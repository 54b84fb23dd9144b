// The run record: how this process's run ends, for the next launch to read.
//
// `start()` (Swift) writes `<state>/runs/slot-<n>.run` and hands its descriptor
// here. The record's first line is its state, a fixed-width field that this file overwrites
// in place with one pwrite(2): `running` as written at start, `exited` on a clean end,
// `crashed <report id>` from the crash handler. A pwrite at offset 0 of a descriptor opened
// at start is all the crash path does: no allocation, no lock, no stdio, no path to build.
//
// A clean end is `exit` or a return from `main` (an atexit handler), or a SIGTERM or SIGINT
// whose action was the default when the record was armed: that handler marks the run and
// dies of the same signal with the default action, so the exit status is as without us. A
// service that handles SIGTERM itself replaces this handler and ends through `exit`.
//
// A forked child inherits the descriptor and the atexit handler; it must not mark its
// parent's run, so every mark first checks that the pid is still the one that armed it.
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
    _Atomic int fd;      // the record's descriptor, -1 before arming
    _Atomic int pending; // 1 while start()'s background settle may still arm it
    _Atomic int hooked;  // the atexit and stop-signal handlers are in place
    pid_t pid;           // the process that armed it
    struct sigaction previous_term;
    struct sigaction previous_int;
} g_run = {.fd = -1};

// Async-signal-safe (atomics, nanosleep). Waits until the background settle is over, at most
// SCR_RUN_SETTLE_WAIT_MS; after that bound nobody waits again (a settle stuck on a lock that the
// crashed thread holds must not slow every later mark).
void scr_run_record_await(void) {
    if (!atomic_load(&g_run.pending) || getpid() != g_run.pid) return;
    for (int waited = 0; atomic_load(&g_run.pending) && waited < SCR_RUN_SETTLE_WAIT_MS * 10; waited++) {
        scr_sleep_us(100);
    }
    atomic_store(&g_run.pending, 0);
}

// Async-signal-safe.
void scr_run_record_settled(void) { atomic_store(&g_run.pending, 0); }

// Async-signal-safe (memcpy, pwrite). Overwrites the state line: `state` padded with spaces
// to the line's width, then the report id or dashes.
static void mark(const char *state, const char *id) {
    scr_run_record_await();
    int fd = atomic_load(&g_run.fd);
    if (fd < 0 || getpid() != g_run.pid) return;
    char line[SCR_RUN_STATE_LINE];
    memset(line, ' ', sizeof line);
    size_t n = strlen(state);
    memcpy(line, state, n < 8 ? n : 8);
    if (id != NULL && strlen(id) == 36) {
        memcpy(line + 8, id, 36);
    } else {
        memset(line + 8, '-', 36);
    }
    line[sizeof line - 1] = '\n';
    (void)pwrite(fd, line, sizeof line, 0);
}

// Async-signal-safe. The crash handler's mark: `id` is the report just written, or NULL.
void scr_run_record_mark_crashed(const char *id) { mark("crashed", id); }

// Async-signal-safe. A clean end.
void scr_run_record_mark_exited(void) { mark("exited", NULL); }

// Not a signal handler's business: runs at exit. Async-signal-safe all the same.
static void on_exit_clean(void) { scr_run_record_mark_exited(); }

// Async-signal-safe (pwrite, then sigaction, sigprocmask, tgkill): the default action of
// SIGTERM or SIGINT, after marking the run clean.
static void on_stop_signal(int sig) {
    scr_run_record_mark_exited();
    scr_die_of_default(sig);
}

// Not async-signal-safe (atexit, sigaction at start). Installs the stop handler for `sig` only
// where its action is the default one.
static void arm_stop_signal(int sig, struct sigaction *previous) {
    if (sigaction(sig, NULL, previous) != 0 || previous->sa_handler != SIG_DFL ||
        (previous->sa_flags & SA_SIGINFO) != 0)
        return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(sig, &action, NULL);
}

// Not async-signal-safe (atexit, sigaction). The clean-end marks, once.
static int hook_clean_end(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&g_run.hooked, &expected, 1)) return 0;
    if (atexit(on_exit_clean) != 0) return -1;
    arm_stop_signal(SIGTERM, &g_run.previous_term);
    arm_stop_signal(SIGINT, &g_run.previous_int);
    return 0;
}

// Not async-signal-safe (atexit, sigaction): called once by start(), on its own thread.
int scr_run_record_expect(void) {
    g_run.pid = getpid();
    atomic_store(&g_run.pending, 1);
    return hook_clean_end();
}

// Not async-signal-safe (atexit, sigaction): called once by start() or its background settle.
int scr_run_record_arm(int fd) {
    if (fd < 0) return -1;
    int expected = -1;
    if (!atomic_compare_exchange_strong(&g_run.fd, &expected, -2)) return -1; // armed already
    g_run.pid = getpid();
    atomic_store(&g_run.fd, fd);
    return hook_clean_end();
}

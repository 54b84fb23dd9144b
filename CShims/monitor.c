// The monitor thread: writes snapshots of the live process and watches the heartbeats.
//
// A snapshot is asked for by the snapshot signal (SIGQUIT unless configured otherwise), by
// scr_snapshot (CrashReporter.snapshot(reason:)) or by the watchdog when a heartbeat is late.
// Asking only sets `request` and writes one byte into a pipe, which is async-signal-safe; the
// monitor thread, blocked in poll(2) on the pipe, then writes the report through report.c as
// the crash handler would (the same reserved memory, nothing that allocates or locks), and the
// other threads answer the capture signal and go on. A request made while one is asked for or
// being written joins it (`request` is not idle): one report for both. The reason is written
// before the request is published, so the monitor never reads half of it.
//
// After a report is written the service's callback (scr_set_report_written_callback) runs on
// this thread, so that the running service delivers it without waiting for a restart. At each
// wake the probe (scr_set_monitor_probe) runs here too: CrashReporter's watch of the concurrency
// pool and the main actor enqueues its jobs from it, so that the watch needs no timer of its own.
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

// IDLE -> FILLING (the asker owns the reason) -> ASKED (published) -> WRITING (the monitor's) -> IDLE.
enum { REQUEST_IDLE, REQUEST_FILLING, REQUEST_ASKED, REQUEST_WRITING };

static struct {
    int read_fd;
    int write_fd;
    _Atomic int request;
    char reason[256];
    const char *signal_reason; // the snapshot signal's name
    _Atomic uint64_t finished; // snapshots finished, written or not
    char last_id[37];
    _Atomic int last_result;
    int snapshot_signal; // installed, 0 when none
    uint32_t hang_timeout_ms;
    _Atomic(void (*)(void)) written;
    _Atomic(void (*)(void)) probe;
    _Atomic int running;
} g_monitor = {.read_fd = -1, .write_fd = -1};

// Async-signal-safe (atomics, a bounded copy, write(2)). Returns false when joining a request
// already made.
static bool ask(const char *reason) {
    int expected = REQUEST_IDLE;
    if (!atomic_compare_exchange_strong(&g_monitor.request, &expected, REQUEST_FILLING)) return false;
    scr_strlcpy(g_monitor.reason, reason, sizeof g_monitor.reason);
    atomic_store_explicit(&g_monitor.request, REQUEST_ASKED, memory_order_release); // the reason is complete
    scr_monitor_wake();
    return true;
}

// Async-signal-safe (write(2) on the non-blocking pipe; a full pipe wakes the monitor already).
void scr_monitor_wake(void) {
    if (g_monitor.write_fd < 0) return;
    char byte = 'w';
    (void)SCR_RETRY_EINTR(write(g_monitor.write_fd, &byte, 1));
}

// Async-signal-safe: the snapshot signal's handler.
static void on_snapshot_signal(int sig) {
    (void)sig;
    int saved_errno = errno;
    if (atomic_load(&g_monitor.running)) (void)ask(g_monitor.signal_reason);
    errno = saved_errno;
}

// Async-signal-safe as report.c is; runs on the monitor thread.
static int write_report(const char *kind, const char *reason, const scr_late_heartbeat *late, char id[37]) {
    scr_report_request request;
    memset(&request, 0, sizeof request);
    request.kind = kind;
    request.reason = reason;
    request.heartbeat = late;
    int r = scr_report_write(&request);
    if (r == 0) scr_strlcpy(id, request.id, 37);
    void (*written)(void) = atomic_load(&g_monitor.written);
    if (r == 0 && written != NULL) written();
    return r;
}

// Async-signal-safe: nothing. scr_tasks_each's visitor when only the listing matters.
static void visit_none(pid_t tid, void *arg) {
    (void)tid;
    (void)arg;
}

// Not async-signal-safe by intent (the monitor thread and start()'s background thread), though it
// only lists a directory. Lists /proc/self/task so that the kernel keeps a dentry for every
// thread: a crash's own listing then finds them cached. The first listing of 64 threads costs
// about 215 µs, a cached one 22 (docs/benchmarks.md); a crash should not pay the difference.
void scr_tasks_keep_listed(void) { (void)scr_tasks_each(visit_none, NULL); }

// The monitor thread (a normal thread: it may call the service's callback).
static void *run(void *unused) {
    (void)unused;
    prctl(PR_SET_NAME, "crash-monitor", 0, 0, 0);
    // A quarter of the timeout, at most 2.5 s (the pool watch's heartbeat exists once the pool is
    // in use, so an idle async service wakes it this often): a stall is reported within the timeout and a quarter.
    uint32_t interval = g_monitor.hang_timeout_ms / 4;
    if (interval > 2500) interval = 2500;
    if (interval < 10) interval = 10;
    for (;;) {
        struct pollfd fd = {.fd = g_monitor.read_fd, .events = POLLIN};
        int ready = poll(&fd, 1, scr_heartbeats_active() ? (int)interval : -1);
        if (ready > 0) {
            char drain[64];
            while (read(g_monitor.read_fd, drain, sizeof drain) > 0) {
            }
        }
        int expected = REQUEST_ASKED;
        if (atomic_compare_exchange_strong(&g_monitor.request, &expected, REQUEST_WRITING)) {
            char id[37] = {0};
            int r = write_report("snapshot", g_monitor.reason, NULL, id);
            memcpy(g_monitor.last_id, id, sizeof id);
            atomic_store(&g_monitor.last_result, r);
            atomic_store(&g_monitor.request, REQUEST_IDLE);
            atomic_fetch_add(&g_monitor.finished, 1);
        }
        void (*probe)(void) = atomic_load(&g_monitor.probe);
        if (probe != NULL) probe();
        scr_tasks_keep_listed(); // threads started since the last wake get their dentries now
        scr_late_heartbeat late;
        if (scr_heartbeats_find_late(scr_now_boottime_ms(), g_monitor.hang_timeout_ms, &late)) {
            char reason[128];
            size_t n = scr_strlcpy(reason, "heartbeat '", sizeof reason);
            n += scr_strlcpy(reason + n, late.name, sizeof reason - n);
            scr_strlcpy(reason + n, "' stalled", sizeof reason - n);
            char id[37];
            (void)write_report("hang", reason, &late, id);
        }
    }
    return NULL;
}

// Not async-signal-safe (pipe2, pthread_create, sigaction); install calls it once, after the
// crash handlers (chain.c knows the actions they replaced).
int scr_monitor_start(const scr_config *config) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return SCR_ERR_NO_MEMORY;
    g_monitor.read_fd = fds[0];
    g_monitor.write_fd = fds[1];
    g_monitor.hang_timeout_ms = config->hang_timeout_ms == 0 ? 10000 : config->hang_timeout_ms;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    // The monitor takes none of the signals a service expects to handle itself on one of its
    // own threads (the snapshot signal included); anything else (the capture signal, a
    // debugger's or a backtracer's suspend signal) still reaches it.
    static const int k_left_to_the_service[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGCHLD,
                                               SIGALRM, SIGPIPE, SIGWINCH, SIGTSTP, SIGTTIN, SIGTTOU, SIGIO};
    sigset_t blocked, previous;
    sigemptyset(&blocked);
    for (size_t i = 0; i < sizeof k_left_to_the_service / sizeof k_left_to_the_service[0]; i++) {
        sigaddset(&blocked, k_left_to_the_service[i]);
    }
    pthread_sigmask(SIG_BLOCK, &blocked, &previous);
    pthread_t thread;
    int r = pthread_create(&thread, &attr, run, NULL);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    pthread_attr_destroy(&attr);
    if (r != 0) return SCR_ERR_NO_MEMORY;
    // Named from here too: a crash right after install may come before the thread's own prctl,
    // and its report would show it under the process's name.
    pthread_setname_np(thread, "crash-monitor");
    atomic_store(&g_monitor.running, 1);

    int sig = config->snapshot_signal;
    if (sig <= 0 || sig >= NSIG) return SCR_OK;
    // Left alone when the service handles or ignores it. Taken when it is at its default, or
    // when its handler is the one the crash signals had before ours: the Swift runtime's
    // backtracer treats SIGQUIT as a crash, and a snapshot then replaces that backtrace.
    struct sigaction current;
    if (sigaction(sig, NULL, &current) != 0) return SCR_OK;
    bool at_default = !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL;
    if (!at_default && !scr_chain_is_crash_handler(&current)) return SCR_OK; // scr_snapshot_signal says so
    g_monitor.signal_reason = scr_signal_name(sig);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_snapshot_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(sig, &action, NULL) != 0) return SCR_ERR_SIGACTION;
    g_monitor.snapshot_signal = sig;
    return SCR_OK;
}

// Not async-signal-safe by intent, though it uses atomics and write(2) only. Adds the heartbeat
// (heartbeat.c) and wakes the monitor, which waits without a timeout while none exists.
int scr_heartbeat_register(const char *name) {
    int index = scr_heartbeats_add(name);
    if (index >= 0) scr_monitor_wake();
    return index;
}

// Async-signal-safe.
int scr_snapshot_signal(void) { return g_monitor.snapshot_signal; }

// Async-signal-safe.
void scr_set_report_written_callback(void (*callback)(void)) { atomic_store(&g_monitor.written, callback); }

// Async-signal-safe.
void scr_set_monitor_probe(void (*probe)(void)) { atomic_store(&g_monitor.probe, probe); }

// Not async-signal-safe by intent (it waits), though it only uses atomics, write(2) and
// nanosleep. Asks for a snapshot (or joins the one asked for) and waits for it.
int scr_snapshot(const char *reason, uint32_t wait_ms, char *id_out) {
    if (!atomic_load(&g_monitor.running)) return SCR_SNAPSHOT_NOT_RUNNING;
    // Joining a snapshot asked for or being written: its report answers this request too.
    uint64_t before = atomic_load(&g_monitor.finished);
    (void)ask(reason != NULL && reason[0] != '\0' ? reason : "requested");
    for (uint32_t waited = 0; atomic_load(&g_monitor.finished) <= before; waited++) {
        if (waited >= wait_ms) return SCR_SNAPSHOT_TIMED_OUT;
        scr_sleep_us(1000);
    }
    if (atomic_load(&g_monitor.last_result) != 0) return SCR_SNAPSHOT_NOT_WRITTEN;
    if (id_out != NULL) memcpy(id_out, g_monitor.last_id, 37);
    return SCR_OK;
}

// The signal handler.
//
// Flow. scr_install() prepares everything the handler touches (the ring, the gzip arena
// and buffers, the image table, the unwinder's lazy state, the report's static strings, an
// alternate stack for the calling thread and, through altstack.c, for every thread started
// later) and then installs one handler for SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGTRAP and SIGFPE,
// keeping the actions that were there before.
//
// Flags. SA_SIGINFO for the siginfo (code, fault address) and the ucontext (registers, the
// start of the unwind). SA_ONSTACK so that a stack overflow still has a stack to run on.
// SA_NODEFER so that a fault inside the handler reaches it again instead of killing the
// process with a different signal; the handler tells that case apart by thread id.
//
// First crash wins. The first thread claims the handler with a compare-and-swap of its
// thread id. Another thread that faults meanwhile sleeps (nanosleep) until the first one
// has ended the process, and dies of its own signal if that takes too long. A fault in the
// owner thread while it runs guarded code (reading the stack or the runtime's message)
// jumps back and the report goes on with what it has; any other fault there kills the
// process with the original signal. An alarm(2) watchdog does the same if the report
// takes too long (for instance a lock held by a thread that will never run again).
//
// Chaining. After writing, the previous actions are restored and the signal goes on to
// them: a fault that the CPU raised (si_code > 0) is simply returned from, so that the
// instruction faults again and reaches the previous handler (or the default action) with
// its own context; a signal sent by a process (abort's tgkill) or an x86 int3 (which does
// not repeat) is sent again to this thread before returning. Either way the process dies
// of the same signal as without the reporter, with a core dump where they are enabled,
// and a handler installed before us (Swift's backtracer) still runs.
#include "internal.h"

#include <errno.h>
#include <setjmp.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SCR_WAIT_FOR_OWNER_MS 30000
#define SCR_WATCHDOG_SECONDS 10

static const int k_signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGTRAP, SIGFPE};
#define SCR_SIGNAL_COUNT (sizeof k_signals / sizeof k_signals[0])

static struct {
    _Atomic int installed;
    _Atomic int capture_disabled;
    _Atomic pid_t owner;        // thread id of the thread writing the report, 0 before
    _Atomic int signal;         // the signal being reported
    struct sigaction previous[SCR_SIGNAL_COUNT];
    struct sigaction previous_alarm;
    sigjmp_buf guard;
    _Atomic int guard_active;
} g_handler;

// Async-signal-safe.
void scr_set_capture_enabled(int enabled) {
    atomic_store(&g_handler.capture_disabled, enabled ? 0 : 1);
    scr_ring_set_enabled(enabled);
}

// Async-signal-safe.
int scr_is_installed(void) { return atomic_load_explicit(&g_handler.installed, memory_order_acquire); }

// Async-signal-safe: sigaction only.
static void restore_previous(void) {
    for (size_t i = 0; i < SCR_SIGNAL_COUNT; i++) sigaction(k_signals[i], &g_handler.previous[i], NULL);
}

// Async-signal-safe (sigaction, pthread_sigmask via the raw call, tgkill, _exit). Ends the
// process with `sig` and its default action, whatever state the handler is in.
static void die_with(int sig) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    syscall(SYS_tgkill, getpid(), scr_gettid(), sig);
    _exit(128 + sig); // not reached: the default action of every signal we handle ends the process
}

// Async-signal-safe. The watchdog: the report took too long.
static void on_alarm(int sig) {
    (void)sig;
    int original = atomic_load(&g_handler.signal);
    die_with(original != 0 ? original : SIGABRT);
}

// Async-signal-safe (sigsetjmp/siglongjmp out of a nested handler on the same thread; see
// docs/signal-safety.md).
bool scr_guarded(void (*fn)(void *), void *arg) {
    if (sigsetjmp(g_handler.guard, 1) != 0) {
        atomic_store(&g_handler.guard_active, 0);
        return false;
    }
    atomic_store(&g_handler.guard_active, 1);
    fn(arg);
    atomic_store(&g_handler.guard_active, 0);
    return true;
}

// Async-signal-safe.
static void sleep_ms(long ms) {
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

// Async-signal-safe: the signal handler itself.
static void handle_signal(int sig, siginfo_t *info, void *ucontext) {
    int saved_errno = errno;
    pid_t tid = scr_gettid();
    pid_t expected = 0;
    if (!atomic_compare_exchange_strong(&g_handler.owner, &expected, tid)) {
        if (expected == tid) {
            // A fault inside our own handler.
            if (atomic_load(&g_handler.guard_active)) siglongjmp(g_handler.guard, 1);
            die_with(atomic_load(&g_handler.signal));
        }
        // Another thread is writing the report; it will end the process.
        for (long waited = 0; waited < SCR_WAIT_FOR_OWNER_MS; waited += 10) sleep_ms(10);
        die_with(sig);
    }
    atomic_store(&g_handler.signal, sig);

    struct sigaction watchdog;
    memset(&watchdog, 0, sizeof watchdog);
    watchdog.sa_handler = on_alarm;
    sigaction(SIGALRM, &watchdog, &g_handler.previous_alarm);
    alarm(SCR_WATCHDOG_SECONDS);

    if (!atomic_load(&g_handler.capture_disabled)) (void)scr_report_write(sig, info, ucontext);

    alarm(0);
    sigaction(SIGALRM, &g_handler.previous_alarm, NULL);
    restore_previous();
#if defined(__x86_64__)
    bool repeats = info->si_code > 0 && sig != SIGTRAP;
#else
    bool repeats = info->si_code > 0;
#endif
    if (!repeats) {
        // Pending until we return: the previous action then gets it with its own context.
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_BLOCK, &set, NULL);
        syscall(SYS_tgkill, getpid(), tid, sig);
    }
    errno = saved_errno;
}

// Not async-signal-safe; called once.
int scr_install(const scr_config *config) {
    if (config == NULL || config->pending_dir == NULL || config->pending_dir[0] != '/') return SCR_ERR_BAD_CONFIG;
    if (config->breadcrumb_capacity > SCR_MAX_BREADCRUMBS) return SCR_ERR_BAD_CONFIG;
    if (scr_is_installed()) return SCR_ERR_ALREADY_INSTALLED;
    int r = scr_report_prepare(config);
    if (r != SCR_OK) return r;
    if (scr_ring_setup(config->breadcrumb_capacity) != 0) return SCR_ERR_NO_MEMORY;
    if (scr_gzip_reserve() != 0) return SCR_ERR_NO_MEMORY;
    if (scr_images_capture(config->home_dir) != 0) return SCR_ERR_NO_MEMORY;
    scr_unwinder_prepare();
    if (scr_thread_prepare() != 0) return SCR_ERR_NO_MEMORY;

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handle_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < SCR_SIGNAL_COUNT; i++) {
        if (sigaction(k_signals[i], &action, &g_handler.previous[i]) != 0) {
            int saved = errno;
            for (size_t k = 0; k < i; k++) sigaction(k_signals[k], &g_handler.previous[k], NULL);
            errno = saved;
            return SCR_ERR_SIGACTION;
        }
    }
    atomic_store_explicit(&g_handler.installed, 1, memory_order_release);
    return SCR_OK;
}

// Async-signal-safe.
size_t scr_reserved_bytes(void) {
    return scr_ring_reserved_bytes() + scr_gzip_reserved_bytes() + scr_images_reserved_bytes() +
           scr_report_reserved_bytes() + scr_altstack_size();
}

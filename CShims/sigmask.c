// Keeping the capture signal open on threads that block every signal.
//
// Dispatch blocks every asynchronous signal on each of its worker threads as it starts them
// (pthread_sigmask(SIG_BLOCK) of a filled set less the synchronous ones and SIGPIPE, SIGPROF),
// and so on every thread of the Swift concurrency pool: such a thread could never answer the
// capture signal (threads.c), and a snapshot or a hang report showed none of them. This file
// defines pthread_sigmask and sigprocmask: the executable's definitions stand in front of libc's
// for every library, as altstack.c's pthread_create does. When a call blocks (SIG_BLOCK or
// SIG_SETMASK) a blanket set that holds the capture signal, the capture signal is taken out of a
// copy of the set before it is handed on: the thread blocks everything else as it asked. A set
// that names the capture signal without being a blanket (the signal alone, or a few beside it)
// is handed on untouched, and the thread is listed as not answering (`signal_blocked`).
//
// A blanket set holds the capture signal, every one of the ordinary asynchronous signals below
// (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD) and at least three
// quarters of the real-time signals. sigfillset's set is one, and so is Dispatch's (which leaves
// SIGPIPE open: SIGPIPE is not in the list for that reason).
//
// Before install the signal kept open is the one install would choose at that moment (threads.c:
// the highest real-time signal at its default action), so that the pool threads started before
// start() (an async main calls start() from a pool thread) answer too.
//
// Forwarding is altstack.c's: a linked sanitizer's interceptor under its second name (through a
// weak reference, NULL without a sanitizer), else the next definition in load order. Both are
// resolved when the executable is loaded (a constructor), so that the wrappers never call dlsym
// once main runs: pthread_sigmask and sigprocmask are async-signal-safe, and so are these.
// docs/decisions/0039-pool-threads-answer-the-signal-mask-functions-are-interposed.md
// weighs the choice; docs/signal-safety.md lists the calls.
#include "internal.h"

#include <dlfcn.h>
#include <errno.h>

typedef int (*scr_mask_fn)(int, const sigset_t *, sigset_t *);

// The sanitizers' interceptors under their second names (see the top); NULL without a sanitizer.
extern int __interceptor_pthread_sigmask(int, const sigset_t *, sigset_t *) __attribute__((weak));
extern int __interceptor_sigprocmask(int, const sigset_t *, sigset_t *) __attribute__((weak));

static _Atomic(scr_mask_fn) g_next_pthread_sigmask;
static _Atomic(scr_mask_fn) g_next_sigprocmask;
static _Atomic int g_kept;    // the signal install chose (0: none was free)
static _Atomic int g_chosen;  // install has called scr_sigmask_keep_open

// Async-signal-safe (sigaction, only to read).
int scr_sigmask_free_signal(void) { return scr_sigmask_free_signal_below(SIGRTMAX + 1); }

// Async-signal-safe (sigaction, only to read).
int scr_sigmask_free_signal_below(int limit) {
    for (int sig = limit - 1; sig >= SIGRTMIN; sig--) {
        struct sigaction current;
        if (sigaction(sig, NULL, &current) == 0 && current.sa_handler == SIG_DFL &&
            !(current.sa_flags & SA_SIGINFO)) {
            return sig;
        }
    }
    return 0;
}

// Async-signal-safe (atomic stores).
void scr_sigmask_keep_open(int sig) {
    atomic_store_explicit(&g_kept, sig, memory_order_relaxed);
    atomic_store_explicit(&g_chosen, 1, memory_order_release);
}

// Async-signal-safe (atomic loads, scr_sigmask_free_signal). The signal a blanket mask leaves open.
static int signal_to_keep(void) {
    if (atomic_load_explicit(&g_chosen, memory_order_acquire)) return atomic_load_explicit(&g_kept, memory_order_relaxed);
    return scr_sigmask_free_signal();
}

// Not async-signal-safe (dlsym): runs at load, or at the first call when a library's constructor
// calls one of these before ours ran. The definition `name` would have reached without this file.
static scr_mask_fn resolve(_Atomic(scr_mask_fn) *cache, scr_mask_fn interceptor, const char *name) {
    scr_mask_fn next = atomic_load_explicit(cache, memory_order_acquire);
    if (next != NULL) return next;
    next = interceptor != NULL ? interceptor : (scr_mask_fn)dlsym(RTLD_NEXT, name);
    if (next != NULL) atomic_store_explicit(cache, next, memory_order_release);
    return next;
}

// Not async-signal-safe (dlsym); runs once, when the executable is loaded.
__attribute__((constructor)) static void resolve_at_load(void) {
    (void)resolve(&g_next_pthread_sigmask, __interceptor_pthread_sigmask, "pthread_sigmask");
    (void)resolve(&g_next_sigprocmask, __interceptor_sigprocmask, "sigprocmask");
}

// Async-signal-safe (sigismember, SIGRTMIN/SIGRTMAX read variables). Whether `set` blocks the
// ordinary asynchronous signals and most real-time ones besides `sig` (see the top).
static bool is_blanket(const sigset_t *set, int sig) {
    static const int k_ordinary[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD};
    if (sigismember(set, sig) != 1) return false;
    for (size_t i = 0; i < sizeof k_ordinary / sizeof k_ordinary[0]; i++) {
        if (sigismember(set, k_ordinary[i]) != 1) return false;
    }
    int total = 0;
    int blocked = 0;
    for (int rt = SIGRTMIN; rt <= SIGRTMAX; rt++) {
        total++;
        blocked += sigismember(set, rt) == 1;
    }
    return blocked * 4 >= total * 3;
}

// Async-signal-safe (signal_to_keep, is_blanket). `set`, or `copy` holding `set` without the
// capture signal when `set` is a blanket that would block it.
static const sigset_t *kept_open(int how, const sigset_t *set, sigset_t *copy) {
    if (set == NULL || (how != SIG_BLOCK && how != SIG_SETMASK)) return set;
    int sig = signal_to_keep();
    if (sig <= 0 || !is_blanket(set, sig)) return set;
    *copy = *set;
    sigdelset(copy, sig);
    return copy;
}

// Async-signal-safe, as libc's: interposes it (see the top). Returns an error number.
__attribute__((visibility("default"))) int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
    scr_mask_fn next = resolve(&g_next_pthread_sigmask, __interceptor_pthread_sigmask, "pthread_sigmask");
    if (next == NULL) return ENOSYS;
    sigset_t copy;
    return next(how, kept_open(how, set, &copy), old);
}

// Async-signal-safe, as libc's: interposes it (see the top). Returns -1 with errno on failure.
__attribute__((visibility("default"))) int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
    scr_mask_fn next = resolve(&g_next_sigprocmask, __interceptor_sigprocmask, "sigprocmask");
    if (next == NULL) {
        errno = ENOSYS;
        return -1;
    }
    sigset_t copy;
    return next(how, kept_open(how, set, &copy), old);
}

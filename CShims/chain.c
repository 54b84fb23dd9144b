// The signals the reporter handles and the actions that were installed for them before it.
// Install puts the handler in place and keeps the previous actions here; after the report the
// handler puts them back and hands the signal on to them (handler.c, "Chaining"). Both reach
// this file, neither reaches the other through it.
#include "internal.h"

#include <errno.h>

static const int k_signals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGTRAP, SIGFPE};
#define SCR_SIGNAL_COUNT (sizeof k_signals / sizeof k_signals[0])

static struct sigaction g_previous[SCR_SIGNAL_COUNT];

// Not async-signal-safe by intent (install calls it once), though sigaction is. Installs
// `action` for every handled signal and keeps what was there; on a failure puts back the
// ones already replaced and returns -1 with errno from the failing sigaction.
int scr_chain_install(const struct sigaction *action) {
    for (size_t i = 0; i < SCR_SIGNAL_COUNT; i++) {
        if (sigaction(k_signals[i], action, &g_previous[i]) != 0) {
            int saved = errno;
            for (size_t k = 0; k < i; k++) sigaction(k_signals[k], &g_previous[k], NULL);
            errno = saved;
            return -1;
        }
    }
    return 0;
}

// Async-signal-safe: sigaction only.
void scr_chain_restore(void) {
    for (size_t i = 0; i < SCR_SIGNAL_COUNT; i++) sigaction(k_signals[i], &g_previous[i], NULL);
}

// Not async-signal-safe by intent (Swift asks after install), though it only reads. The signals
// whose action before ours was a handler (not SIG_DFL or SIG_IGN), as a mask of 1 << signo:
// another crash reporter, a runtime's backtracer, the service's own. They still run after ours.
uint64_t scr_chained_signal_mask(void) {
    uint64_t mask = 0;
    for (size_t i = 0; i < SCR_SIGNAL_COUNT; i++) {
        void (*previous)(int) = g_previous[i].sa_handler;
        if (previous != SIG_DFL && previous != SIG_IGN) mask |= (uint64_t)1 << k_signals[i];
    }
    return mask;
}

// Not async-signal-safe by intent (the monitor asks at install), though it only reads. Whether
// `action` is the handler that a crash signal had before ours: a backtracer's or another crash
// reporter's (the Swift runtime's backtracer handles SIGQUIT with its crash handler too).
bool scr_chain_is_crash_handler(const struct sigaction *action) {
    if (!(action->sa_flags & SA_SIGINFO)) return false;
    for (size_t i = 0; i < SCR_SIGNAL_COUNT; i++) {
        if ((g_previous[i].sa_flags & SA_SIGINFO) && g_previous[i].sa_sigaction == action->sa_sigaction) return true;
    }
    return false;
}

// Async-signal-safe: reads the saved actions. Whether handing `sig` on ends the process at once:
// the action before ours was the default one, which for each handled signal is to end it.
bool scr_chain_ends_process(int sig) {
    for (size_t i = 0; i < SCR_SIGNAL_COUNT; i++) {
        if (k_signals[i] == sig) return !(g_previous[i].sa_flags & SA_SIGINFO) && g_previous[i].sa_handler == SIG_DFL;
    }
    return false;
}

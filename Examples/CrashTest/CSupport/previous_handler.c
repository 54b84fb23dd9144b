#define _GNU_SOURCE
#include "CCrashTestSupport.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

// Async-signal-safe: write(2) and sigaction(2) only.
static void previous_handler(int sig, siginfo_t *info, void *context) {
    (void)info;
    (void)context;
    static const char text[] = "previous handler ran\n";
    ssize_t ignored = write(STDERR_FILENO, text, sizeof text - 1);
    (void)ignored;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    if (info->si_code <= 0) raise(sig); // a sent signal does not come back by itself
}

// Not async-signal-safe; called at startup.
void crash_test_install_previous_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = previous_handler;
    action.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &action, NULL);
    sigaction(SIGABRT, &action, NULL);
}

// Not async-signal-safe.
void crash_test_name_thread(const char *name) { pthread_setname_np(pthread_self(), name); }

// Keeping SIGPIPE from killing the service during TLS. OpenSSL's socket BIO writes with write(2),
// which raises SIGPIPE when the peer has gone; the plain-socket path uses send(MSG_NOSIGNAL), but
// OpenSSL offers no such flag. Changing the process-wide disposition (SIG_IGN) would race with
// the service's own handlers, so instead the calling thread blocks SIGPIPE around each OpenSSL
// call that may write (handshake, read, write, shutdown): a SIGPIPE raised by write(2) is aimed
// at the writing thread, so while blocked it stays pending on that thread, write(2) returns EPIPE
// and OpenSSL reports an error. Before the old mask comes back, a SIGPIPE that became pending
// during the call is taken with sigtimedwait and a zero timeout, so it is never delivered. A
// SIGPIPE that was already pending before the call is left alone.
#ifndef _GNU_SOURCE
#error "CCrashReporterTLS needs _GNU_SOURCE (Package.swift sets it in cSettings)"
#endif

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "internal.h"

/// The set holding only SIGPIPE. Async-signal-safe, though it serves OpenSSL calls only.
static void sigpipe_set(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGPIPE);
}

/// Whether a SIGPIPE is pending for this thread (or the process). Async-signal-safe, though it
/// serves OpenSSL calls only.
static int sigpipe_pending(void) {
    sigset_t pending;
    sigemptyset(&pending);
    sigpending(&pending);
    return sigismember(&pending, SIGPIPE) == 1;
}

/// Blocks SIGPIPE on this thread, noting whether one was already pending. Only syscalls, but it
/// exists for OpenSSL calls, which are not async-signal-safe.
void scr_tls_sigpipe_hold(scr_tls_sigpipe_guard *guard) {
    sigset_t pipe_only;
    sigpipe_set(&pipe_only);
    guard->was_pending = sigpipe_pending();
    pthread_sigmask(SIG_BLOCK, &pipe_only, &guard->previous_mask);
}

/// Takes a SIGPIPE the guarded call raised, then restores the mask (errno kept). Only syscalls,
/// but it exists for OpenSSL calls, which are not async-signal-safe.
void scr_tls_sigpipe_release(scr_tls_sigpipe_guard *guard) {
    int saved_errno = errno;
    if (!guard->was_pending && sigpipe_pending()) {
        sigset_t pipe_only;
        sigpipe_set(&pipe_only);
        struct timespec now = {0, 0};
        while (sigtimedwait(&pipe_only, NULL, &now) == -1 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &guard->previous_mask, NULL);
    errno = saved_errno;
}

#define _GNU_SOURCE
#include "CCrashTestSupport.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

// Where `threads N` parks its threads, each in its own kind of wait, so that a report shows
// stacks that end in different places. Not async-signal-safe; plain thread code.

static pthread_mutex_t g_held = PTHREAD_MUTEX_INITIALIZER;
static atomic_int g_held_taken;

// Takes the mutex that mutex waiters then wait for; called once, before they start.
void crash_test_take_lock(void) {
    pthread_mutex_lock(&g_held);
    atomic_store(&g_held_taken, 1);
}

__attribute__((noinline)) static void park_in_mutex(void) {
    pthread_mutex_lock(&g_held); // never granted: the holder never unlocks
    pthread_mutex_unlock(&g_held);
}

__attribute__((noinline, noreturn)) static void park_in_sleep(void) {
    for (;;) sleep(60);
}

__attribute__((noinline)) static void park_in_read(void) {
    int fds[2];
    if (pipe(fds) != 0) park_in_sleep();
    char byte;
    for (;;) (void)read(fds[0], &byte, 1); // nobody writes
}

__attribute__((noinline)) static void park_in_busy_loop(void) {
    volatile unsigned long spins = 0;
    for (;;) spins++;
}

static atomic_int g_named_signal;

void crash_test_set_named_signal(int sig) { atomic_store(&g_named_signal, sig); }

// Blocks the one signal set by crash_test_set_named_signal, by name.
__attribute__((noinline)) static void park_with_signal_blocked_by_name(void) {
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, atomic_load(&g_named_signal));
    pthread_sigmask(SIG_BLOCK, &one, NULL);
    park_in_sleep();
}

// Blocks every signal, as Dispatch's workers do, through pthread_sigmask or sigprocmask.
__attribute__((noinline)) static void park_with_every_signal_blocked(int through_sigprocmask) {
    sigset_t all;
    sigfillset(&all);
    if (through_sigprocmask) {
        sigprocmask(SIG_SETMASK, &all, NULL);
    } else {
        pthread_sigmask(SIG_BLOCK, &all, NULL);
    }
    park_in_sleep();
}

void crash_test_park(int how) {
    switch (how % 7) {
    case 0: park_in_mutex(); break;
    case 1: park_in_sleep();
    case 2: park_in_read(); break;
    case 3: park_in_busy_loop(); break;
    case 4: park_with_signal_blocked_by_name(); break;
    case 5: park_with_every_signal_blocked(0); break;
    default: park_with_every_signal_blocked(1); break;
    }
    park_in_sleep(); // not reached: every wait above is for good
}

// A job's synchronous wait on its executor's thread (a pool thread, the main actor's): sleeps for good.
__attribute__((noinline)) void crash_test_block_executor(void) { park_in_sleep(); }

// The hang: the holder takes `g_hang` and blocks for good while holding it; the waiter then
// blocks on it (the waiter's heartbeat stops).
static pthread_mutex_t g_hang = PTHREAD_MUTEX_INITIALIZER;

void crash_test_hold_hang_lock(void) {
    pthread_mutex_lock(&g_hang);
    park_in_sleep();
}

void crash_test_wait_for_hang_lock(void) {
    pthread_mutex_lock(&g_hang);
    pthread_mutex_unlock(&g_hang);
}

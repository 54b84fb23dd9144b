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

__attribute__((noinline)) static void park_with_signals_blocked(void) {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    park_in_sleep();
}

void crash_test_park(int how) {
    switch (how % 5) {
    case 0: park_in_mutex(); break;
    case 1: park_in_sleep();
    case 2: park_in_read(); break;
    case 3: park_in_busy_loop(); break;
    default: park_with_signals_blocked(); break;
    }
    park_in_sleep(); // not reached: every wait above is for good
}

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

// C functions the example service crashes in, for the crash kinds Swift cannot produce.
#ifndef CCRASHTESTSUPPORT_H
#define CCRASHTESTSUPPORT_H

/// Divides by `divisor` in C (integer division by zero raises SIGFPE on x86_64).
int crash_test_divide(int dividend, int divisor);

/// Installs a SIGSEGV/SIGABRT handler of the service's own, as a service might before it
/// starts the crash reporter: it writes `previous handler ran` to stderr, restores the
/// default action and returns, so that the process still dies of the signal.
void crash_test_install_previous_handler(void);

/// Names the calling thread (the kernel's 15-byte thread name).
void crash_test_name_thread(const char *name);

/// Takes the mutex that `crash_test_park(0)` waits for (call it once, first).
void crash_test_take_lock(void);

/// Parks the calling thread for good: `how` % 7 is 0 waiting for a mutex that is never
/// released, 1 sleeping, 2 in a blocking read of a pipe, 3 in a busy loop, 4 sleeping with the
/// signal of `crash_test_set_named_signal` blocked by name (the crash reporter's capture signal:
/// it cannot answer), 5 and 6 sleeping with every signal blocked as Dispatch's workers do
/// (through pthread_sigmask and sigprocmask: the crash reporter keeps its signal open).
void crash_test_park(int how) __attribute__((noreturn));

/// The signal `crash_test_park(4)` blocks by name.
void crash_test_set_named_signal(int sig);

/// What a job that blocks its executor's thread calls: sleeps for good (`park_in_sleep`).
void crash_test_block_executor(void) __attribute__((noreturn));

/// The hang: the first blocks for good holding a mutex, the second waits for that mutex.
void crash_test_hold_hang_lock(void) __attribute__((noreturn));
void crash_test_wait_for_hang_lock(void);

#endif

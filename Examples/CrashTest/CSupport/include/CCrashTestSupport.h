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

#endif

// C functions the example service crashes in, for the crash kinds Swift cannot produce.
#ifndef CCRASHTESTSUPPORT_H
#define CCRASHTESTSUPPORT_H

/// Divides by `divisor` in C (integer division by zero raises SIGFPE on x86_64).
int crash_test_divide(int dividend, int divisor);

#endif

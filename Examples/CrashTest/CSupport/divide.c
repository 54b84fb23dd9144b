#include "CCrashTestSupport.h"

// Kept out of line and through a volatile so that the compiler cannot fold or hoist the
// division: the crash must happen here, in this frame.
__attribute__((noinline)) int crash_test_divide(int dividend, int divisor) {
    volatile int d = divisor;
    return dividend / d;
}

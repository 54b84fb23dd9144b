#include "CCrashTestSupport.h"

// Kept out of line and through a volatile so that the compiler cannot fold or hoist the
// division: the crash must happen here, in this frame. The division by zero is the point, so a
// build with UndefinedBehaviorSanitizer (scripts/sanitizers.sh) lets the CPU raise SIGFPE.
__attribute__((noinline, no_sanitize("integer-divide-by-zero"))) int crash_test_divide(int dividend, int divisor) {
    volatile int d = divisor;
    return dividend / d;
}

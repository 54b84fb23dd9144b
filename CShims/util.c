// Small helpers used on the crash path. Each is async-signal-safe (clock_gettime and the
// gettid system call are; the rest is pure computation).
#include "internal.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// Async-signal-safe.
uint64_t scr_now_realtime_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

// Async-signal-safe.
uint64_t scr_now_boottime_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

// Async-signal-safe. Copies at most cap-1 bytes and always terminates; returns the length.
size_t scr_strlcpy(char *dst, const char *src, size_t cap) {
    size_t n = 0;
    if (cap == 0) return 0;
    while (src != NULL && src[n] != '\0' && n + 1 < cap) {
        dst[n] = src[n];
        n++;
    }
    dst[n] = '\0';
    return n;
}

// Async-signal-safe (a raw system call).
pid_t scr_gettid(void) { return (pid_t)syscall(SYS_gettid); }

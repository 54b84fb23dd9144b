// Small helpers used on the crash path. Each is async-signal-safe (clock_gettime and the
// gettid system call are; the rest is pure computation).
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// Async-signal-safe.
uint64_t scr_now_realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// Async-signal-safe.
uint64_t scr_now_realtime_ms(void) { return scr_now_realtime_ns() / 1000000u; }

// Async-signal-safe.
uint64_t scr_now_boottime_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

// Async-signal-safe.
uint64_t scr_now_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// Async-signal-safe (nanosleep, resumed after a signal until the whole time has passed).
void scr_sleep_us(uint64_t us) {
    struct timespec ts = {.tv_sec = (time_t)(us / 1000000u), .tv_nsec = (long)(us % 1000000u) * 1000L};
    (void)SCR_RETRY_EINTR(nanosleep(&ts, &ts)); // `ts` holds what is left after an interruption
}

// Async-signal-safe: pure computation. Writes `v` in decimal at `out`, at most cap-1 digits (the
// last ones are dropped when it does not fit), always terminated; returns the length.
size_t scr_format_decimal(char *out, size_t cap, uint64_t v) {
    char digits[20];
    size_t d = 0;
    do {
        digits[d++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    size_t n = 0;
    while (d > 0 && n + 1 < cap) out[n++] = digits[--d];
    if (cap > 0) out[n] = '\0';
    return n;
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

// Async-signal-safe (sigaction, sigprocmask, tgkill, _exit). Restores the default action of
// `sig`, unblocks it and sends it to this thread: the process ends as if nothing had handled it.
void scr_die_of_default(int sig) {
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    syscall(SYS_tgkill, getpid(), scr_gettid(), sig);
    _exit(128 + sig); // not reached: the default action of every signal passed here ends the process
}

// Async-signal-safe (open, read, close). Reads at most `cap` - 1 bytes of `path` into `buf`
// and terminates them; returns the length, or -1 when the file cannot be read.
long scr_read_file(const char *path, char *buf, size_t cap) {
    if (cap == 0) return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t used = 0;
    while (used < cap - 1) {
        ssize_t n = SCR_RETRY_EINTR(read(fd, buf + used, cap - 1 - used));
        if (n <= 0) break;
        used += (size_t)n;
    }
    close(fd);
    buf[used] = '\0';
    return (long)used;
}

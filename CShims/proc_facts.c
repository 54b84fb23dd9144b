// What /proc says of this process, read once at install: when it started, for the report's
// `uptime_ms` and for the run record (RunLedger matches a run to its process by it).
#include "internal.h"

#include <string.h>
#include <unistd.h>

static uint64_t g_start_ticks; // field 22 of /proc/self/stat, as read at install

// Async-signal-safe (reads a value set once at install). This process's start in clock ticks
// since boot, 0 before install or when /proc/self/stat could not be read.
uint64_t scr_process_start_ticks(void) { return g_start_ticks; }

// Not async-signal-safe in practice (sysconf; called once at install). When the process
// started, in CLOCK_BOOTTIME milliseconds (now when /proc/self/stat cannot be read): field 22
// of /proc/self/stat (start time in clock ticks since boot), counted from the last ')' because
// the command name may hold spaces. Keeps the ticks for scr_process_start_ticks.
uint64_t scr_proc_start_boot_ms(void) {
    char buf[1024];
    if (scr_read_file("/proc/self/stat", buf, sizeof buf) <= 0) return scr_now_boottime_ms();
    const char *p = strrchr(buf, ')');
    if (p == NULL) return scr_now_boottime_ms();
    p++;
    // The state is field 3; skip to field 22, 19 fields further.
    for (int field = 3; field < 22; field++) {
        while (*p == ' ') p++;
        while (*p != ' ' && *p != '\0') p++;
    }
    while (*p == ' ') p++;
    if (*p < '0' || *p > '9') return scr_now_boottime_ms();
    unsigned long long ticks = 0;
    while (*p >= '0' && *p <= '9') ticks = ticks * 10 + (unsigned long long)(*p++ - '0');
    g_start_ticks = ticks;
    long hz = sysconf(_SC_CLK_TCK);
    return hz > 0 ? (uint64_t)(ticks * 1000ull / (unsigned long long)hz) : scr_now_boottime_ms();
}

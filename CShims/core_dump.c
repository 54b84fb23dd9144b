// Whether a crash that the default action ends leaves a core dump (core(5)). The threads that
// answered a crash's capture have nothing left to do once their slots are filled; when no core
// dump will show them and no handler runs after ours, each ends itself at once instead of
// sleeping until the process's end wakes it again only to end it (threads.c, decision 0182).
//
// The kernel writes a dump unless the process is not dumpable (PR_GET_DUMPABLE), and otherwise
// by the soft RLIMIT_CORE: a pattern that writes a file needs at least a page, a pattern that
// pipes to a program (`|…`) dumps at any limit but 1. The pattern is read once, at install (a
// pattern changed later is not seen); when /proc/sys cannot be read, a dump is assumed.
#include "internal.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

static _Atomic int g_pattern = SCR_CORE_PATTERN_UNKNOWN;

// Not async-signal-safe by intent (install, once), though it only reads a file. Notes whether the
// core pattern writes a file or pipes to a program.
void scr_core_dump_prepare(void) {
    char pattern[8];
    long n = scr_read_file("/proc/sys/kernel/core_pattern", pattern, sizeof pattern);
    if (n <= 0) return;
    atomic_store(&g_pattern, pattern[0] == '|' ? SCR_CORE_PATTERN_PIPE : SCR_CORE_PATTERN_FILE);
}

// Async-signal-safe: pure computation (getpagesize reads the value the loader keeps). The kernel's
// rule, given the pattern's kind, the soft core limit and the dumpable flag.
bool scr_core_dump_follows(int pattern, uint64_t limit, int dumpable) {
    if (dumpable == 0) return false;
    switch (pattern) {
    case SCR_CORE_PATTERN_FILE: return limit >= (uint64_t)getpagesize();
    case SCR_CORE_PATTERN_PIPE: return limit != 1;
    default: return true;
    }
}

// Async-signal-safe (prctl and prlimit64, raw system calls). Whether the default action of a
// crash signal would now leave a core dump.
bool scr_core_dump_expected(void) {
    int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
    struct rlimit limit;
    if (syscall(SYS_prlimit64, 0, RLIMIT_CORE, NULL, &limit) != 0) return true;
    return scr_core_dump_follows(atomic_load(&g_pattern), (uint64_t)limit.rlim_cur, dumpable);
}

// Async-signal-safe. The test hook behind scr_core_dump_follows.
int scr_debug_core_dump_follows(int pattern, uint64_t limit, int dumpable) {
    return scr_core_dump_follows(pattern, limit, dumpable) ? 1 : 0;
}

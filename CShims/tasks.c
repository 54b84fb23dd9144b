// The threads of this process, as the kernel lists them in /proc/self/task: read with the raw
// getdents64 system call into a buffer on the stack (opendir/readdir allocate), and a thread's
// status file read into another. Nothing here allocates, locks or uses stdio.
#include "internal.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

// The record getdents64 fills (the C library declares no type for it).
typedef struct scr_dirent64 {
    uint64_t ino;
    int64_t off;
    uint16_t reclen;
    uint8_t type;
    char name[];
} scr_dirent64;

// Async-signal-safe: pure computation. A decimal thread id, or -1 for any other name.
static pid_t parse_tid(const char *name) {
    if (name[0] < '0' || name[0] > '9') return -1;
    int64_t value = 0;
    for (const char *p = name; *p != '\0'; p++) {
        if (*p < '0' || *p > '9' || value > 100000000) return -1;
        value = value * 10 + (*p - '0');
    }
    return (pid_t)value;
}

// Async-signal-safe (open, getdents64, close).
int scr_tasks_each(void (*visit)(pid_t tid, void *arg), void *arg) {
    int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    _Alignas(8) char buffer[4096];
    int count = 0;
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buffer, sizeof buffer);
        if (n <= 0) break;
        for (long offset = 0; offset < n;) {
            const scr_dirent64 *entry = (const scr_dirent64 *)(buffer + offset);
            if (entry->reclen == 0) break;
            offset += entry->reclen;
            pid_t tid = parse_tid(entry->name);
            if (tid <= 0) continue;
            count++;
            visit(tid, arg);
        }
    }
    close(fd);
    return count;
}

// Async-signal-safe: pure computation. Writes "/proc/self/task/<tid>" and then `suffix`.
static void task_path(pid_t tid, const char *suffix, char out[64]) {
    static const char prefix[] = "/proc/self/task/";
    size_t n = scr_strlcpy(out, prefix, 64);
    n += scr_format_decimal(out + n, 64 - n, (uint32_t)tid);
    scr_strlcpy(out + n, suffix, 64 - n);
}

// Async-signal-safe (access). Looks up this thread's own /proc/self/task entry, so that the kernel
// caches its dentry: a crash's listing then finds it, as for the threads the monitor's listing
// saw (scr_tasks_keep_listed). Without it a thread started after the last listing costs the
// crash's listing about 2 µs more (decision 0180).
void scr_tasks_keep_own_entry(void) {
    char path[64];
    task_path(scr_gettid(), "", path);
    (void)access(path, F_OK);
}

// Async-signal-safe: pure computation. The text after "<key>:" and its tabs, or NULL.
static const char *field(const char *text, const char *key) {
    const char *line = text;
    while (*line != '\0') {
        const char *k = key;
        const char *p = line;
        while (*k != '\0' && *p == *k) {
            p++;
            k++;
        }
        if (*k == '\0' && *p == ':') {
            p++;
            while (*p == '\t' || *p == ' ') p++;
            return p;
        }
        while (*line != '\0' && *line != '\n') line++;
        if (*line == '\n') line++;
    }
    return NULL;
}

// Async-signal-safe: pure computation. A status file's hexadecimal signal mask (signal s is
// bit s - 1; 16 digits on Linux, the last 16 read), 0 when there is none.
static uint64_t mask_value(const char *value) {
    if (value == NULL) return 0;
    uint64_t mask = 0;
    for (size_t i = 0;; i++) {
        char c = value[i];
        int nibble = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (nibble < 0) break;
        mask = (mask << 4) | (uint64_t)nibble;
    }
    return mask;
}

// Async-signal-safe (scr_read_file: open, read, close). `blocked`: the thread's mask holds `sig`
// (`SigBlk`). `held_back`: a signal its mask holds is waiting for it (`SigPnd` and `SigBlk`), as
// the capture signal does for a thread that blocks it. A thread inside the capture signal's
// handler has the signal in its mask too (the kernel blocks it while the handler runs) but
// nothing waiting. Any signal counts, not only `sig`: under qemu-user the file is the host's, and
// the host's number for the program's signal is another. `held_back` may be NULL.
bool scr_task_status(pid_t tid, int sig, char name[16], char *state, bool *blocked, bool *held_back) {
    char path[64];
    task_path(tid, "/status", path);
    char text[2048];
    if (scr_read_file(path, text, sizeof text) <= 0) return false;
    name[0] = '\0';
    *state = '?';
    const char *value = field(text, "Name");
    if (value != NULL) {
        size_t n = 0;
        while (n < 15 && value[n] != '\n' && value[n] != '\0') {
            name[n] = value[n];
            n++;
        }
        name[n] = '\0';
    }
    value = field(text, "State");
    if (value != NULL) *state = *value;
    uint64_t mask = mask_value(field(text, "SigBlk"));
    *blocked = sig > 0 && sig <= 64 && ((mask >> (sig - 1)) & 1);
    if (held_back != NULL) *held_back = (mask & mask_value(field(text, "SigPnd"))) != 0;
    return true;
}

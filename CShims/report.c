// The report: its static parts are prepared at install (app and OS strings, the pending
// directory, the process start time, the Swift runtime's fatal-error message slot); the
// handler adds the crash's own parts and streams everything through the gzip sink into
// `pending/<id>.crash.tmp`, then renames it to `.crash`. A snapshot of the live process (the
// monitor thread, monitor.c) is written the same way, with its reason instead of a crash.
//
// One report at a time. The writer claims `busy` first. A crash that finds a snapshot being
// written waits for it (bounded: a snapshot takes milliseconds); a snapshot that finds
// anything being written is dropped, since the process is then busy dying or coalesced.
//
// Faults while writing (docs/signal-safety.md, "Faults while writing"). A write that fails (a full
// disk, an I/O error) stops the report; what was written is kept as `<id>.crash.failed-<errno>`
// for the next launch to set aside with its reason. A state directory removed while the service
// ran is made again. A crash finds one descriptor kept free for it (the spare), even when the
// descriptor table is full.
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h> // for rename(2) only: no stdio stream is ever used here
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

// The Swift runtime's slot for the fatal-error message it is about to crash with. Referenced
// weakly and directly rather than looked up with dlsym: a `--static-swift-stdlib` executable
// links it from libswiftCore.a but does not export it, so dlsym cannot see it there, while
// the static linker resolves this reference; a dynamic build binds it from libswiftCore.so;
// a program without the Swift runtime gets NULL.
extern _Atomic(const char *) *swift_getFatalErrorMessageBuffer(void) __attribute__((weak));

#define SCR_DIR_MAX 3900
#define SCR_FIELD_MAX 128
#define SCR_MESSAGE_BYTES 4095

static struct {
    char pending_dir[SCR_DIR_MAX];
    char state_dir[SCR_DIR_MAX]; // pending_dir's parent, made again if it was removed
    char report_suffix[SCR_SUFFIX_MAX], temporary_suffix[SCR_SUFFIX_MAX], failed_suffix[SCR_SUFFIX_MAX];
    char tmp_path[SCR_DIR_MAX + 96]; // "/", the id, an ending and an errno's digits
    char final_path[SCR_DIR_MAX + 96];
    int spare_fd;                // a descriptor kept for the crash's report (a full table)
    dev_t spare_dev;             // what spare_fd is, to check it is still ours before closing it
    ino_t spare_ino;
    _Atomic pid_t writer;        // the thread inside scr_report_write, 0 when none (a test hook)
    char app_name[SCR_FIELD_MAX], app_version[SCR_FIELD_MAX], app_build[SCR_FIELD_MAX], app_env[SCR_FIELD_MAX];
    char os_name[65], os_release[65], os_machine[65], os_distribution[SCR_FIELD_MAX];
    uint64_t process_start_boot_ms;
    pid_t pid;
    _Atomic(const char *) *fatal_message_slot; // from swift_getFatalErrorMessageBuffer()
    char message[SCR_MESSAGE_BYTES + 1];
    size_t message_len;
    scr_frame frames[SCR_MAX_FRAMES];
    scr_unwind_result unwind;
    scr_async_room async_room; // the crashing thread's Swift async chain (async_frames.c)
    scr_registers registers;
    _Atomic int busy;
} g_report;

#define SCR_CRASH_WAITS_FOR_SNAPSHOT_MS 2000
#define SCR_FEW_THREADS 8


// Not async-signal-safe in practice (called once at install), though it only reads a file.
// PRETTY_NAME from /etc/os-release, without quotes.
static void read_distribution(void) {
    char text[4096];
    if (scr_read_file("/etc/os-release", text, sizeof text) <= 0) return;
    for (char *line = text; *line != '\0';) {
        char *end = strchr(line, '\n');
        if (end != NULL) *end = '\0';
        if (strncmp(line, "PRETTY_NAME=", 12) == 0) {
            char *v = line + 12;
            size_t n = strlen(v);
            if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
                v[n - 1] = '\0';
                v++;
            }
            scr_strlcpy(g_report.os_distribution, v, sizeof g_report.os_distribution);
            return;
        }
        if (end == NULL) return;
        line = end + 1;
    }
}

// Not async-signal-safe in practice (sysconf; called once at install). When the process
// started, in CLOCK_BOOTTIME milliseconds: field 22 of /proc/self/stat (start time in clock
// ticks since boot), counted from the last ')' because the command name may hold spaces.
static uint64_t g_start_ticks; // field 22 of /proc/self/stat, as read at install

// Async-signal-safe (reads a value set once at install). This process's start in clock ticks
// since boot, 0 before install or when /proc/self/stat could not be read.
uint64_t scr_process_start_ticks(void) { return g_start_ticks; }

static uint64_t process_start_ms(void) {
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

// Not async-signal-safe by intent (called at install), though it only opens and stats. Keeps one
// descriptor open on /dev/null so that a crash with the descriptor table full still has one for
// its report: the handler closes it first (release_spare_fd).
static void reserve_spare_fd(void) {
    g_report.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (g_report.spare_fd >= 0 && fstat(g_report.spare_fd, &st) == 0) {
        g_report.spare_dev = st.st_dev;
        g_report.spare_ino = st.st_ino;
    } else if (g_report.spare_fd >= 0) {
        close(g_report.spare_fd);
        g_report.spare_fd = -1;
    }
}

// Not async-signal-safe; called once at install.
int scr_report_prepare(const scr_config *config) {
    if (strlen(config->pending_dir) >= SCR_DIR_MAX) return SCR_ERR_PATH_TOO_LONG;
    if (config->state_dir != NULL && strlen(config->state_dir) >= SCR_DIR_MAX) return SCR_ERR_PATH_TOO_LONG;
    if (strlen(config->report_suffix) >= SCR_SUFFIX_MAX || strlen(config->temporary_suffix) >= SCR_SUFFIX_MAX
        || strlen(config->failed_suffix) >= SCR_SUFFIX_MAX) {
        return SCR_ERR_BAD_CONFIG;
    }
    scr_strlcpy(g_report.pending_dir, config->pending_dir, sizeof g_report.pending_dir);
    // Empty when there is none to make again (pending_dir is a top-level directory).
    scr_strlcpy(g_report.state_dir, config->state_dir != NULL ? config->state_dir : "", sizeof g_report.state_dir);
    scr_strlcpy(g_report.report_suffix, config->report_suffix, sizeof g_report.report_suffix);
    scr_strlcpy(g_report.temporary_suffix, config->temporary_suffix, sizeof g_report.temporary_suffix);
    scr_strlcpy(g_report.failed_suffix, config->failed_suffix, sizeof g_report.failed_suffix);
    reserve_spare_fd();
    scr_strlcpy(g_report.app_name, config->app_name, sizeof g_report.app_name);
    scr_strlcpy(g_report.app_version, config->app_version, sizeof g_report.app_version);
    scr_strlcpy(g_report.app_build, config->app_build, sizeof g_report.app_build);
    scr_strlcpy(g_report.app_env, config->app_environment, sizeof g_report.app_env);
    struct utsname u;
    if (uname(&u) == 0) { // the node name (host name) is deliberately not kept
        scr_strlcpy(g_report.os_name, u.sysname, sizeof g_report.os_name);
        scr_strlcpy(g_report.os_release, u.release, sizeof g_report.os_release);
        scr_strlcpy(g_report.os_machine, u.machine, sizeof g_report.os_machine);
    }
    read_distribution();
    g_report.process_start_boot_ms = process_start_ms();
    g_report.pid = getpid();
    g_report.fatal_message_slot = swift_getFatalErrorMessageBuffer != NULL ? swift_getFatalErrorMessageBuffer() : NULL;
    return SCR_OK;
}

// Async-signal-safe.
size_t scr_report_reserved_bytes(void) { return sizeof g_report; }

// Async-signal-safe (reads strings set once at install). The report's `os` member.
const char *scr_report_os_field(int which) {
    switch (which) {
    case 0: return g_report.os_name;
    case 1: return g_report.os_release;
    case 2: return g_report.os_machine;
    default: return g_report.os_distribution;
    }
}

// Async-signal-safe: getrandom(2) without blocking, time and thread id as a fallback.
static void make_report_id(char out[37]) {
    static const char hex[] = "0123456789abcdef";
    uint8_t b[16];
    long got = syscall(SYS_getrandom, b, sizeof b, 0x0001 /* GRND_NONBLOCK */);
    if (got != (long)sizeof b) {
        uint64_t x = scr_now_realtime_ms() ^ ((uint64_t)scr_gettid() << 32) ^ (uint64_t)(uintptr_t)&b;
        for (int i = 0; i < 16; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b[i] = (uint8_t)x;
        }
    }
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x40); // version 4
    b[8] = (uint8_t)((b[8] & 0x3f) | 0x80); // RFC 4122 variant
    int o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
        out[o++] = hex[b[i] >> 4];
        out[o++] = hex[b[i] & 0xf];
    }
    out[o] = '\0';
}

// Async-signal-safe. ISO-8601 UTC with milliseconds, from Unix milliseconds (days to
// civil date after H. Hinnant's public-domain algorithm).
static void write_iso_time(scr_writer *w, uint64_t ms) {
    char text[24]; // 2026-11-29T13:20:05.123Z
    int64_t days = (int64_t)(ms / 86400000u);
    uint64_t rem = ms % 86400000u;
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    uint64_t doe = (uint64_t)(z - era * 146097);
    uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = (int64_t)yoe + era * 400;
    uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    uint64_t mp = (5 * doy + 2) / 153;
    uint64_t d = doy - (153 * mp + 2) / 5 + 1;
    uint64_t m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2) y++;
    uint64_t parts[7] = {(uint64_t)y, m, d, rem / 3600000u, rem / 60000u % 60, rem / 1000u % 60, rem % 1000u};
    static const int width[7] = {4, 2, 2, 2, 2, 2, 3};
    static const char sep[7] = {'-', '-', 'T', ':', ':', '.', 'Z'};
    size_t n = 0;
    for (int i = 0; i < 7; i++) {
        uint64_t v = parts[i];
        for (int k = width[i] - 1; k >= 0; k--) {
            text[n + (size_t)k] = (char)('0' + v % 10);
            v /= 10;
        }
        n += (size_t)width[i];
        text[n++] = sep[i];
    }
    scr_json_string(w, text, n, sizeof text);
}

// Async-signal-safe (an atomic load and a bounded byte copy). Reads the Swift runtime's
// fatal-error message. Runs under scr_guarded: the pointer comes from the runtime and is
// only dereferenced here.
static void read_fatal_message(void *unused) {
    (void)unused;
    g_report.message_len = 0;
    if (g_report.fatal_message_slot == NULL) return;
    const char *text = atomic_load(g_report.fatal_message_slot);
    if (text == NULL) return;
    size_t n = 0;
    while (n < SCR_MESSAGE_BYTES && text[n] != '\0') {
        g_report.message[n] = text[n];
        n++;
    }
    while (n > 0 && (g_report.message[n - 1] == '\n' || g_report.message[n - 1] == ' ')) n--;
    g_report.message_len = n;
}

typedef struct unwind_job {
    const void *ucontext;
    scr_unwind_result result;
} unwind_job;

// Async-signal-safe as scr_unwind is. Runs under scr_guarded: the unwinder reads the stack,
// which may be damaged.
static void run_unwind(void *p) {
    unwind_job *job = p;
    scr_fault_if_injected(SCR_FAULT_IN_UNWIND);
    scr_unwind(job->ucontext, &job->result);
}

// Async-signal-safe as scr_async_walk is; runs under scr_guarded (it reads async contexts).
static void run_async_walk(void *unwind) { scr_async_walk(unwind); }

// Async-signal-safe as scr_task_read_current is; runs under scr_guarded (it reads the task).
static void run_task_read(void *chain) { scr_task_read_current(chain); }

// Async-signal-safe. Builds "<dir>/<id><suffix>".
static void make_path(char *out, size_t cap, const char *id, const char *suffix) {
    size_t n = scr_strlcpy(out, g_report.pending_dir, cap);
    n += scr_strlcpy(out + n, "/", cap - n);
    n += scr_strlcpy(out + n, id, cap - n);
    scr_strlcpy(out + n, suffix, cap - n);
}

// Async-signal-safe: writer calls only.
static void write_field(scr_writer *w, const char *key, const char *value, size_t max) {
    scr_json_key(w, key);
    scr_json_cstring(w, value, max);
}

// Async-signal-safe: writer calls only. The `app` and `os` objects, prepared at install.
static void write_app_and_os(scr_writer *w) {
    scr_json_key(w, "app");
    scr_json_object_begin(w);
    write_field(w, "name", g_report.app_name, 127);
    write_field(w, "version", g_report.app_version, 127);
    write_field(w, "build", g_report.app_build, 127);
    write_field(w, "environment", g_report.app_env, 127);
    scr_json_object_end(w);
    scr_json_key(w, "os");
    scr_json_object_begin(w);
    write_field(w, "name", g_report.os_name, 64);
    write_field(w, "release", g_report.os_release, 64);
    write_field(w, "machine", g_report.os_machine, 64);
    write_field(w, "distribution", g_report.os_distribution, 127);
    scr_json_object_end(w);
}

// Async-signal-safe: writer calls only.
static void write_signal(scr_writer *w, int sig, const siginfo_t *info) {
    scr_json_key(w, "signal");
    scr_json_object_begin(w);
    scr_json_key(w, "number");
    scr_json_u64(w, (uint64_t)sig);
    write_field(w, "name", scr_signal_name(sig), 31);
    scr_json_key(w, "code");
    scr_json_i64(w, info->si_code);
    write_field(w, "code_name", scr_signal_code_name(sig, info->si_code), 31);
    scr_json_key(w, "address");
    scr_json_hex(w, info->si_code > 0 ? (uint64_t)(uintptr_t)info->si_addr : 0);
    scr_json_object_end(w);
}

// Async-signal-safe: writer calls only. The crashing thread.
static void write_thread(scr_writer *w, pid_t tid, const char *name) {
    scr_json_key(w, "thread");
    scr_json_object_begin(w);
    scr_json_key(w, "id");
    scr_json_u64(w, (uint64_t)tid);
    write_field(w, "name", scr_report_safe_thread_name(name), 15);
    scr_json_key(w, "main");
    scr_json_bool(w, tid == g_report.pid);
    scr_json_object_end(w);
}

// Async-signal-safe: the unwinder under the guard. The crashing thread's stack, into g_report:
// the innermost frames and, past SCR_MAX_FRAMES, the outermost quarter (a deep recursion then
// still shows where it started).
static void unwind_crashed_thread(const void *ucontext) {
    unwind_job job = {.ucontext = ucontext};
    scr_unwind_reset(&job.result, g_report.frames, SCR_MAX_FRAMES, SCR_MAX_FRAMES / 4);
    job.result.async.room = &g_report.async_room;
    if (!scr_guarded(run_unwind, &job)) {
        job.result.error = "fault"; // the frames gathered before the fault are kept
    }
    scr_unwind_finish(&job.result);
    if (!scr_guarded(run_async_walk, &job.result)) job.result.async.count = 0; // a chain cut by a fault is not one
    if (job.result.async.count > 0) (void)scr_guarded(run_task_read, &job.result.async);
    if (job.result.count == 0) {
        // The unwinder faulted or never reached the signal frame: frame 0 still comes from the context.
        g_report.frames[0].ip = scr_context_ip(ucontext);
        g_report.frames[0].sp = scr_context_sp(ucontext);
        job.result.count = 1;
        job.result.omitted_at = 1;
    }
    g_report.unwind = job.result;
}

// Async-signal-safe: the `crash` object (its stack unwound before, by unwind_crashed_thread).
static void write_crash(scr_writer *w, int sig, const siginfo_t *info, const char *thread_name) {
    scr_json_key(w, "crash");
    scr_json_object_begin(w);
    write_signal(w, sig, info);
    scr_json_key(w, "message");
    if (scr_guarded(read_fatal_message, NULL) && g_report.message_len > 0) {
        scr_json_string(w, g_report.message, g_report.message_len, SCR_MESSAGE_BYTES);
    } else {
        scr_json_null(w);
    }
    write_thread(w, scr_gettid(), thread_name);
    scr_json_key(w, "registers");
    scr_registers_write_saved(w, &g_report.registers);
    scr_report_write_frames(w, &g_report.unwind);
    scr_json_object_end(w);
}

// Async-signal-safe: writer calls only. The `snapshot` object.
static void write_snapshot(scr_writer *w, const scr_report_request *request) {
    scr_json_key(w, "snapshot");
    scr_json_object_begin(w);
    write_field(w, "reason", request->reason != NULL ? request->reason : "", 255);
    scr_json_key(w, "heartbeat");
    if (request->heartbeat != NULL) {
        scr_json_object_begin(w);
        write_field(w, "name", request->heartbeat->name, 63);
        scr_json_key(w, "thread_id");
        scr_json_u64(w, (uint64_t)request->heartbeat->tid);
        scr_json_key(w, "late_ms");
        scr_json_u64(w, request->heartbeat->late_ms);
        scr_json_object_end(w);
    } else {
        scr_json_null(w);
    }
    scr_json_object_end(w);
}

// Async-signal-safe: the dynamic linker's list, read under the guard (see images.c).
static void refresh_images(void *unused) {
    (void)unused;
    scr_images_refresh();
}

// Async-signal-safe (atomics, nanosleep). Claims the writer: a crash waits for a snapshot being
// written, bounded; anything else gives up at once.
static bool claim_writer(bool crash) {
    for (long waited = 0;; waited++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&g_report.busy, &expected, 1)) return true;
        if (!crash || waited >= SCR_CRASH_WAITS_FOR_SNAPSHOT_MS) return false;
        scr_sleep_us(1000);
    }
}

// Async-signal-safe (fstat, close). Frees the spare descriptor for the crash's own files, if it
// is still the one reserved (a service that closed every descriptor may have reused its number).
static void release_spare_fd(void) {
    int fd = g_report.spare_fd;
    if (fd < 0) return;
    g_report.spare_fd = -1;
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_dev == g_report.spare_dev && st.st_ino == g_report.spare_ino) close(fd);
}

// Async-signal-safe (open, mkdir). Creates the report's temporary file. When the state directory
// was removed while the service ran, makes it again (mode 0700, as start() does) and retries.
static int open_report_file(void) {
    int fd = open(g_report.tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != ENOENT) return fd;
    if (g_report.state_dir[0] != '\0') (void)mkdir(g_report.state_dir, 0700);
    (void)mkdir(g_report.pending_dir, 0700);
    return open(g_report.tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
}

// Async-signal-safe: writes the failed suffix (".crash.failed-") and `error` into `out`.
static void append_failed_suffix(char *out, size_t cap, int error) {
    size_t n = scr_strlcpy(out, g_report.failed_suffix, cap);
    scr_format_decimal(out + n, cap - n, error > 0 ? (uint64_t)error : 0);
}

// Async-signal-safe (rename). A report that could not be written whole is kept beside the others
// as `<id>.crash.failed-<errno>` (0: not a write error), so that the next launch sets it aside with
// the reason (ReportStore) instead of losing all trace of the crash; left as `.crash.tmp` if even
// the rename fails.
static void keep_failed(const char *id, int error) {
    char suffix[SCR_SUFFIX_MAX + 24]; // the ending and an errno's digits
    append_failed_suffix(suffix, sizeof suffix, error);
    make_path(g_report.final_path, sizeof g_report.final_path, id, suffix);
    (void)rename(g_report.tmp_path, g_report.final_path);
}

// Async-signal-safe: the thread writing a report now, 0 when none. Exported for the tests' probe
// (Tests/IntegrationTests/CrashPathProbeTests.swift), which counts what that thread calls.
int scr_debug_report_writer(void) { return (int)atomic_load(&g_report.writer); }

// Async-signal-safe: open, write, close, rename, unlink and the functions above.
int scr_report_write(scr_report_request *request) {
    bool crash = request->ucontext != NULL;
    if (!claim_writer(crash)) return -2;
    int r = -1;
    pid_t self = scr_gettid();
    atomic_store(&g_report.writer, self);
    char name[17] = {0}; // the crashing thread's, for `crash.thread` and `threads[0]`
    if (crash) {
        prctl(PR_GET_NAME, name, 0, 0, 0);
        scr_registers_save(request->ucontext, &g_report.registers);
        unwind_crashed_thread(request->ucontext);
        // The process is ending: the spare descriptor makes room for the task listing and the
        // report when the descriptor table is full (freed only now, to leave other threads the
        // least time to take it).
        release_spare_fd();
        scr_profile_mark(SCR_PROFILE_UNWOUND);
    }
    // The other threads capture themselves (on the other cores) while this one opens the file
    // and writes the first parts; for a crash they then wait until the end.
    int others = scr_threads_request(crash);
    scr_profile_mark(SCR_PROFILE_REQUESTED);
    make_report_id(request->id);
    make_path(g_report.tmp_path, sizeof g_report.tmp_path, request->id, g_report.temporary_suffix);
    make_path(g_report.final_path, sizeof g_report.final_path, request->id, g_report.report_suffix);
    int fd = open_report_file();
    if (fd < 0) goto done;
    scr_writer writer;
    scr_writer *w = &writer;
    // The level by the report's size: many threads make a large report, level 1 then (a 64-thread
    // report compresses 3x faster than at 6 for 15 % more bytes); a small one keeps level 6, which
    // the 3 KB bound with 100 breadcrumbs needs (level 4 came to 3,052 bytes, docs/benchmarks.md).
    if (scr_gzip_begin(fd, w, others > SCR_FEW_THREADS ? 1 : 6) != 0) {
        close(fd);
        unlink(g_report.tmp_path);
        goto done;
    }
    scr_profile_mark(SCR_PROFILE_OPENED);
    uint64_t now = scr_now_realtime_ms();
    uint64_t boot = scr_now_boottime_ms();
    (void)scr_guarded(refresh_images, NULL);

    scr_json_object_begin(w);
    scr_json_key(w, "schema_version");
    scr_json_u64(w, 2);
    write_field(w, "kind", request->kind, 15);
    write_field(w, "report_id", request->id, 36);
    scr_json_key(w, "timestamp");
    write_iso_time(w, now);
    scr_json_key(w, "timestamp_ms");
    scr_json_u64(w, now);
    scr_json_key(w, "uptime_ms");
    scr_json_u64(w, boot > g_report.process_start_boot_ms ? boot - g_report.process_start_boot_ms : 0);
    write_app_and_os(w);
    if (crash) {
        write_crash(w, request->sig, request->info, name);
        scr_json_key(w, "snapshot");
        scr_json_null(w);
    } else {
        scr_json_key(w, "crash");
        scr_json_null(w);
        write_snapshot(w, request);
    }
    scr_fault_if_injected(SCR_FAULT_IN_REPORT);
    // The threads next to the crash object, whose frames the crashing thread's repeat: within
    // the compression window, the repeat costs almost nothing.
    scr_profile_mark(SCR_PROFILE_HEADER);
    scr_threads_wait();
    scr_profile_mark(SCR_PROFILE_CAPTURED);
    scr_json_key(w, "threads");
    scr_report_write_threads(w, crash ? self : 0, name, &g_report.registers, &g_report.unwind, g_report.pid);
    scr_json_key(w, "threads_total");
    scr_json_u64(w, (uint64_t)scr_threads_total() + 1); // the writer's own thread too
    scr_json_key(w, "threads_omitted");
    scr_json_u64(w, scr_threads_omitted());
    scr_json_key(w, "images");
    scr_images_write_json(w);
    scr_json_key(w, "breadcrumbs");
    scr_ring_write_json(scr_global_ring(), w);
    scr_json_object_end(w);

    scr_profile_mark(SCR_PROFILE_BODY);
    r = scr_gzip_finish(w);
    if (close(fd) != 0 && r == 0) r = errno;
    scr_profile_mark(SCR_PROFILE_FINISHED);
    if (r == 0 && rename(g_report.tmp_path, g_report.final_path) != 0) r = errno;
    scr_profile_mark(SCR_PROFILE_RENAMED);
    if (r != 0) {
        keep_failed(request->id, r); // set aside with its reason by the next launch
        r = -1;
    }
done:
    if (r != 0) scr_threads_wait(); // no report, but no slot left in use either (waiting twice is harmless)
    atomic_store(&g_report.writer, 0);
    if (!crash) atomic_store(&g_report.busy, 0); // a crash keeps it: the process ends now
    return r;
}

// The report's layout: every member of the document, in order (docs/report-schema.md). Its
// static parts are prepared at install (the app and OS strings, the process start time); the
// handler adds the crash's own parts and streams everything through the gzip sink into the
// report's file (report_files.c). A snapshot of the live process (the monitor thread,
// monitor.c) is written the same way, with its reason instead of a crash. The parts come from
// the files named for them: the id (uuid.c), the date (iso_time.c), the distribution
// (os_release.c), the start time (proc_facts.c), the crashing thread (crashed_thread.c) and
// the runtime's message (fatal_message.c), the other threads (report_threads.c).
//
// One report at a time. The writer claims `busy` first. A crash that finds a snapshot being
// written waits for it (bounded: a snapshot takes milliseconds); a snapshot that finds
// anything being written is dropped, since the process is then busy dying or coalesced.
//
// Faults while writing (docs/signal-safety.md, "Faults while writing"). A write that fails (a full
// disk, an I/O error) stops the report; what was written is kept as `<id>.crash.failed-<errno>`
// for the next launch to set aside with its reason.
#include "internal.h"

#include <errno.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define SCR_FIELD_MAX 128

static struct {
    _Atomic pid_t writer; // the thread inside scr_report_write, 0 when none (a test hook)
    char app_name[SCR_FIELD_MAX], app_version[SCR_FIELD_MAX], app_build[SCR_FIELD_MAX], app_env[SCR_FIELD_MAX];
    char os_name[65], os_release[65], os_machine[65], os_distribution[SCR_FIELD_MAX];
    uint64_t process_start_boot_ms;
    pid_t pid;
    _Atomic int busy;
} g_report;

#define SCR_CRASH_WAITS_FOR_SNAPSHOT_MS 2000

// Not async-signal-safe; called once at install.
int scr_report_prepare(const scr_config *config) {
    int files = scr_report_files_prepare(config);
    if (files != SCR_OK) return files;
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
    scr_os_release_pretty_name(g_report.os_distribution, sizeof g_report.os_distribution);
    g_report.process_start_boot_ms = scr_proc_start_boot_ms();
    g_report.pid = getpid();
    scr_fatal_message_prepare();
    return SCR_OK;
}

// Async-signal-safe.
size_t scr_report_reserved_bytes(void) {
    return sizeof g_report + scr_report_files_reserved_bytes() + scr_crashed_thread_reserved_bytes() +
           scr_fatal_message_reserved_bytes();
}

// Async-signal-safe (reads strings set once at install). The report's `os` member.
const char *scr_report_os_field(int which) {
    switch (which) {
    case 0: return g_report.os_name;
    case 1: return g_report.os_release;
    case 2: return g_report.os_machine;
    default: return g_report.os_distribution;
    }
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

// Async-signal-safe: writer calls and the guarded read of the runtime's message. The `crash`
// object (its thread captured before, by scr_crashed_thread_capture).
static void write_crash(scr_writer *w, int sig, const siginfo_t *info, const scr_crashed_thread *thread) {
    scr_json_key(w, "crash");
    scr_json_object_begin(w);
    write_signal(w, sig, info);
    scr_json_key(w, "message");
    size_t message_len = 0;
    const char *message = scr_fatal_message_read(&message_len);
    if (message != NULL) {
        scr_json_string(w, message, message_len, SCR_FATAL_MESSAGE_MAX);
    } else {
        scr_json_null(w);
    }
    write_thread(w, thread->tid, thread->name);
    scr_json_key(w, "registers");
    scr_registers_write_saved(w, &thread->registers);
    scr_report_write_frames(w, &thread->unwind);
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

// Async-signal-safe: the thread writing a report now, 0 when none. Exported for the tests' probe
// (Tests/IntegrationTests/CrashPathProbeTests.swift), which counts what that thread calls.
int scr_debug_report_writer(void) { return (int)atomic_load(&g_report.writer); }

// Async-signal-safe: the functions above, and close.
int scr_report_write(scr_report_request *request) {
    bool crash = request->ucontext != NULL;
    if (!claim_writer(crash)) return -2;
    int r = -1;
    atomic_store(&g_report.writer, scr_gettid());
    const scr_crashed_thread *crashed = NULL; // for `crash` and `threads[0]`
    // The process is ending: the spare descriptor makes room for the task listing and the report
    // when the descriptor table is full (freed only now, to leave other threads the least time to
    // take it).
    if (crash) scr_report_files_release_spare();
    // The other threads capture themselves (on the other cores) while this one unwinds its own
    // stack, opens the file and writes the first parts; for a crash they then wait until the end.
    (void)scr_threads_request(!crash ? SCR_THEN_RETURN : request->threads_end ? SCR_THEN_END : SCR_THEN_WAIT);
    scr_profile_mark(SCR_PROFILE_REQUESTED);
    if (crash) {
        crashed = scr_crashed_thread_capture(request->ucontext);
        scr_profile_mark(SCR_PROFILE_UNWOUND);
    }
    scr_uuid_v4(request->id);
    // A crash's report is teed into its copy for stderr (stderr_copy.c), which is written even
    // when the file cannot be made (a read-only root, no state directory).
    bool copied = crash && scr_stderr_copy_begin();
    int fd = scr_report_files_open(request->id, crash);
    if (fd < 0 && !copied) goto done;
    scr_writer writer;
    scr_writer *w = &writer;
    // One level for every report: zlib's fastest (docs/decisions/0139-every-report-at-zlibs-level-1.md).
    if (scr_gzip_begin(fd, w, SCR_GZIP_LEVEL) != 0) {
        if (fd >= 0) scr_report_files_discard(fd);
        goto done;
    }
    scr_profile_mark(SCR_PROFILE_OPENED);
    uint64_t now = scr_now_realtime_ms();
    uint64_t boot = scr_now_boottime_ms();
    (void)scr_guarded(refresh_images, NULL);

    scr_json_object_begin(w);
    scr_json_key(w, "schema_version");
    scr_json_u64(w, 4);
    write_field(w, "kind", request->kind, 15);
    write_field(w, "report_id", request->id, 36);
    scr_json_key(w, "timestamp");
    char timestamp[SCR_ISO_TIME_LEN + 1];
    scr_json_string(w, timestamp, scr_iso_time_format(now, timestamp), SCR_ISO_TIME_LEN);
    scr_json_key(w, "timestamp_ms");
    scr_json_u64(w, now);
    scr_json_key(w, "uptime_ms");
    scr_json_u64(w, boot > g_report.process_start_boot_ms ? boot - g_report.process_start_boot_ms : 0);
    write_app_and_os(w);
    if (crash) {
        write_crash(w, request->sig, request->info, crashed);
        scr_json_key(w, "snapshot");
        scr_json_null(w);
    } else {
        scr_json_key(w, "crash");
        scr_json_null(w);
        write_snapshot(w, request);
    }
    scr_json_key(w, "abnormal_exit"); // version 3 on: in every report, null but in an abnormal exit's
    scr_json_null(w);
    scr_fault_if_injected(SCR_FAULT_IN_REPORT);
    // The threads next to the crash object, whose frames the crashing thread's repeat: within
    // the compression window, the repeat costs almost nothing. Each is written as soon as it has
    // answered, while the later ones still capture themselves on the other cores.
    scr_profile_mark(SCR_PROFILE_HEADER);
    scr_json_key(w, "threads");
    scr_report_write_threads(w, crashed, g_report.pid);
    scr_profile_mark(SCR_PROFILE_CAPTURED);
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
    if (fd < 0) { // no file: the stderr copy holds the report
        r = -1;
        goto done;
    }
    scr_profile_mark(SCR_PROFILE_FINISHED);
    // Named `<id>.crash` once whole, else kept with the failed ending and its reason for the next
    // launch (ReportStore sets it aside), and closed.
    r = scr_report_files_finish(fd, request->id, r) == 0 ? 0 : -1;
    scr_profile_mark(SCR_PROFILE_RENAMED);
done:
    if (r != 0) scr_threads_wait(); // no report, but no slot left in use either (waiting twice is harmless)
    atomic_store(&g_report.writer, 0);
    if (!crash) atomic_store(&g_report.busy, 0); // a crash keeps it: the process ends now
    return r;
}

// CCrashReporter: the part of swift-crash-reporter that runs inside the signal handler.
//
// This header holds only what Swift calls. Every exported symbol starts with `scr_`;
// everything else in the target is `static` or hidden. Each function says whether it is
// async-signal-safe; docs/signal-safety.md explains the handler call by call.
#ifndef CCRASHREPORTER_H
#define CCRASHREPORTER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bounds of a breadcrumb's fields, in bytes (a longer value is cut on a UTF-8 boundary).
#define SCR_CATEGORY_MAX 31
#define SCR_MESSAGE_MAX 127
#define SCR_KEY_MAX 31
#define SCR_VALUE_MAX 95
#define SCR_MAX_PAIRS 4

/// Largest ring the reporter accepts.
#define SCR_MAX_BREADCRUMBS 4096

/// Shards of a ring: threads record into them round-robin, each shard with its own ticket and
/// room for the ring's whole capacity (ring.c).
#define SCR_RING_SHARDS 4

/// Longest file-name ending `scr_config` takes (with its NUL).
#define SCR_SUFFIX_MAX 24

/// What `scr_install` needs. Strings are copied; the caller may free them afterwards. The paths
/// and file-name endings come from Swift's StateLayout, which spells every name of the state
/// directory; the C core builds none of its own.
typedef struct scr_config {
    const char *pending_dir;      // absolute path of `<state>/pending`, must exist
    const char *state_dir;        // the state directory (made again if removed); NULL or "": none
    const char *report_suffix;    // a whole report's ending (".crash")
    const char *temporary_suffix; // a report being written (".crash.tmp"), renamed when whole
    const char *failed_suffix;    // a report whose write failed, before the errno (".crash.failed-")
    const char *app_name;
    const char *app_version;
    const char *app_build;
    const char *app_environment;
    const char *home_dir;         // prefix shortened to `~` in image paths; NULL for none
    uint32_t breadcrumb_capacity; // 0 disables breadcrumbs
    uint32_t max_threads;         // other threads a report shows at most; 0: 256 (limit 4096)
    uint32_t max_frames_per_thread; // frames kept of each other thread; 0: 64 (limit 256)
    uint32_t thread_timeout_ms;   // how long a capture waits for the threads; 0: 100 (limit 10000)
    int snapshot_signal;          // the signal that asks for a snapshot (SIGQUIT); 0: none
    uint32_t hang_timeout_ms;     // a heartbeat this late is a hang; 0: 10000
} scr_config;

/// Result codes of `scr_install`.
enum {
    SCR_OK = 0,
    SCR_ERR_ALREADY_INSTALLED = 1,
    SCR_ERR_BAD_CONFIG = 2,
    SCR_ERR_NO_MEMORY = 3,       // mmap of the reserved memory failed
    SCR_ERR_SIGACTION = 4,       // errno holds the reason
    SCR_ERR_PATH_TOO_LONG = 5,
};

/// What a crash writes to standard error (docs/configuration.md, CRASH_REPORTER_STDERR).
enum {
    SCR_STDERR_OFF = 0,     // nothing
    SCR_STDERR_SUMMARY = 1, // one human line: the signal or fatal error, where, the report id
    SCR_STDERR_REPORT = 2,  // that line, then the compressed report as lines `crashreport import` reads
};

/// Sets what a crash writes to standard error (one of SCR_STDERR_*; SCR_STDERR_REPORT before any
/// call) and, for SCR_STDERR_REPORT, makes the memory file the report's copy is teed into.
/// Call before `scr_install`. Not async-signal-safe. SCR_OK or SCR_ERR_BAD_CONFIG.
int scr_stderr_copy_configure(int mode);

/// Whether a crash writes the report's lines to standard error (the mode is SCR_STDERR_REPORT and
/// its memory file could be made). Async-signal-safe.
int scr_stderr_copy_has_report(void);

/// The file a crash writes its summary line to (the Kubernetes termination message), truncated
/// first; NULL or "" for none. Call before `scr_install`. Not async-signal-safe. SCR_OK or
/// SCR_ERR_PATH_TOO_LONG.
int scr_termination_log_configure(const char *path);

/// Result codes of `scr_snapshot` (besides SCR_OK).
enum {
    SCR_SNAPSHOT_NOT_RUNNING = 10, // not installed, or the monitor thread could not start
    SCR_SNAPSHOT_TIMED_OUT = 11,   // asked for, not written within the wait (it may still come)
    SCR_SNAPSHOT_NOT_WRITTEN = 12, // the report could not be written (disk, or a crash under way)
};

/// Prepares everything the handler touches and installs the handlers for SIGSEGV, SIGBUS,
/// SIGABRT, SIGILL, SIGTRAP and SIGFPE, saving the previous actions for chaining; installs the
/// capture signal (a free real-time signal) through which every thread shows its stack, gives
/// the threads already running an alternate stack, and starts the monitor thread (snapshots,
/// heartbeats) with the snapshot signal when the service leaves it at its default.
/// Not async-signal-safe (it allocates, reads files and warms the unwinder up); call once.
int scr_install(const scr_config *config);

/// The real-time signal the reporter uses to capture the other threads, 0 when none was free.
/// Async-signal-safe.
int scr_capture_signal(void);

/// The signal installed to ask for snapshots, 0 when none (off, or the service handles it).
/// Async-signal-safe.
int scr_snapshot_signal(void);

/// Writes a snapshot report of the live process (every thread, breadcrumbs, images) with
/// `reason`, and waits at most `wait_ms` for it; a request while one is under way joins it.
/// On SCR_OK the report id (36 characters and a NUL) is in `id_out` (37 bytes, may be NULL).
/// Not async-signal-safe (it waits); never call it from the callback below.
int scr_snapshot(const char *reason, uint32_t wait_ms, char *id_out);

/// Runs on the monitor thread after it has written a snapshot or hang report, so that the
/// running service can deliver it. Async-signal-safe (one atomic store).
void scr_set_report_written_callback(void (*callback)(void));

/// Runs on the monitor thread each time it wakes: at least every quarter of the hang timeout
/// (at most every 2.5 s) while a heartbeat exists. The watch of the concurrency pool and the main
/// actor enqueues its jobs from it. Async-signal-safe (one atomic store).
void scr_set_monitor_probe(void (*probe)(void));

/// Hooks the concurrency runtime's enqueueing of jobs on the cooperative pool until its first
/// job, to learn that the pool is in use (and wake the monitor). Without the concurrency runtime
/// the pool counts as used. Not async-signal-safe by intent; call once, after scr_install.
void scr_pool_hook_install(void);

/// Whether a job has been enqueued on the cooperative pool since scr_pool_hook_install.
/// Async-signal-safe (one atomic load).
int scr_pool_used(void);

/// Registers a heartbeat named `name` (at most 63 bytes kept): if it is not ticked for the
/// hang timeout, the monitor writes one `hang` report naming it and the thread that ticked it
/// last. Returns its index, or -1 when all 64 are taken. Not async-signal-safe by intent.
int scr_heartbeat_register(const char *name);

/// Ticks heartbeat `index`: a few nanoseconds, wait-free. Async-signal-safe.
void scr_heartbeat_tick(int index);

/// Stops watching heartbeat `index` (the index may be handed out again). Async-signal-safe.
void scr_heartbeat_unregister(int index);

/// How long the last capture kept the other threads in their handler: from the first capture
/// signal sent to the last thread returning, in nanoseconds (the benchmark reads it after a
/// snapshot). Async-signal-safe.
uint64_t scr_last_capture_pause_ns(void);

/// Turns capture on or off after install (the user opted out while the service runs): with
/// capture off the handler writes nothing and only hands the signal on, and breadcrumbs are
/// no longer recorded. Async-signal-safe.
void scr_set_capture_enabled(int enabled);

/// The places where `scr_debug_inject_fault` makes the next report fault on purpose: the one
/// table of them, read by the C files that fault and by the Swift hook that arms them
/// (CRASH_REPORTER_TEST_FAULT names them `unwind`, `report`, `thread`, `record`, `slow-claim`,
/// `gone`, `slow-end`).
enum {
    SCR_FAULT_OFF = 0,       // no fault
    SCR_FAULT_IN_UNWIND = 1, // while unwinding the crashing thread (guarded: the report goes on without the stack)
    SCR_FAULT_IN_REPORT = 2, // while writing the report (unguarded: the process dies of the original signal)
    SCR_FAULT_IN_THREAD = 3, // in one other thread while it captures itself (it jumps back: that thread says
                             // `fault`, the report goes on)
    SCR_FAULT_IN_RECORD = 4, // in the middle of the next breadcrumb's record (a crash there: the slot is torn
                             // and left out)
    SCR_FAULT_SLOW_CLAIM = 5, // no fault: one other thread stalls 20 ms in its capture handler before it claims
                              // its slot, as a thread preempted there does (it must be waited for, not taken
                              // for one that blocks the signal)
    SCR_FAULT_THREAD_GONE = 6, // no fault: the capture signal meant for one other thread goes to an id no
                               // thread has, as when that thread ended between the listing and the signal
    SCR_FAULT_SLOW_END = 7, // no fault: the crash handler waits 500 ms before it hands the signal on, so that a
                            // test can look at the process while it is still there
};

/// Test hook (the integration tests use it through CRASH_REPORTER_TEST_FAULT): makes the next
/// report fault on purpose at `where`, one of SCR_FAULT_* above (SCR_FAULT_OFF: no more).
/// Async-signal-safe.
void scr_debug_inject_fault(int where);

/// Test hook (CRASH_REPORTER_TEST_FAULT=eio-after:N, enospc-after:N): from now on the report
/// file's writes let `after_bytes` bytes through (a short write at the end) and then fail with
/// `error` (an errno value), as a disk failing in the middle of a report would. Async-signal-safe.
void scr_debug_inject_write_fault(int error, uint64_t after_bytes);

/// Test hook: the id of the thread writing a report (crash or snapshot) at this instant, 0 when
/// none. The tests' probe of the crash path asks it (docs/signal-safety.md). Async-signal-safe.
int scr_debug_report_writer(void);

/// The phases of the crash path the benchmark's profile tells apart: each mark is the
/// CLOCK_MONOTONIC time (ns) at the end of that phase (docs/benchmarks.md, "Where a crash's time
/// goes").
enum {
    SCR_PROFILE_ENTERED,   // the handler runs (the kernel delivered the signal)
    SCR_PROFILE_CLAIMED,   // the report is this thread's, the watchdog armed
    SCR_PROFILE_REQUESTED, // the other threads are listed and signalled (they answer meanwhile)
    SCR_PROFILE_UNWOUND,   // the crashing thread's registers, name and stack are read
    SCR_PROFILE_OPENED,    // the report file is open, deflate set up
    SCR_PROFILE_HEADER,    // the images are refreshed, the header and crash object written
    SCR_PROFILE_CAPTURED,  // every other thread has answered and is written, each as it answered
    SCR_PROFILE_BODY,      // images and breadcrumbs written (through deflate)
    SCR_PROFILE_FINISHED,  // deflate's last block written
    SCR_PROFILE_RENAMED,   // the report named .crash (linkat or rename) and closed
    SCR_PROFILE_RECORDED,  // the run record marked crashed
    SCR_PROFILE_CHAINING,  // the handler is about to hand the signal on
    SCR_PROFILE_PHASES
};

/// What the handler hands the profile's descriptor: the marks, the time spent inside deflate
/// and inside write(2) while writing the report (both within OPENED..FINISHED), and the time
/// asleep for the other threads' answers (within HEADER..CAPTURED).
typedef struct scr_crash_profile {
    uint64_t marks_ns[SCR_PROFILE_PHASES];
    uint64_t deflate_ns;
    uint64_t write_ns;
    uint64_t waiting_ns;
} scr_crash_profile;

/// Benchmark hook: from now on a crash notes its phases and writes one scr_crash_profile to
/// `fd` just before the signal is handed on. Without it the crash path reads no clock for the
/// profile. Async-signal-safe.
void scr_debug_profile_crash(int fd);

/// The kinds of core pattern (/proc/sys/kernel/core_pattern) the crash path tells apart.
enum {
    SCR_CORE_PATTERN_UNKNOWN = 0, // not read (not installed, or /proc/sys unreadable): a dump is assumed
    SCR_CORE_PATTERN_FILE = 1,    // the kernel writes a file
    SCR_CORE_PATTERN_PIPE = 2,    // the kernel pipes the dump to a program (`|…`)
};

/// Test hook: whether a crash that the default action ends leaves a core dump, by the kernel's
/// rule, for a core pattern of kind `pattern` (SCR_CORE_PATTERN_*), a soft RLIMIT_CORE of `limit`
/// and the dumpable flag `dumpable` (PR_GET_DUMPABLE). 1 or 0. Async-signal-safe.
int scr_debug_core_dump_follows(int pattern, uint64_t limit, int dumpable);

/// Whether `scr_install` succeeded in this process. Async-signal-safe.
int scr_is_installed(void);

/// Gives the calling thread an alternate signal stack if it has none, so that a stack
/// overflow on it still reaches the handler. Threads started with pthread_create after
/// `scr_install` get one automatically. Not async-signal-safe (mmap). Returns 0 on success.
int scr_thread_prepare(void);

/// A breadcrumb ring. The process has one global ring, the one the handler writes out;
/// tests and benchmarks make their own so that they never share one.
typedef struct scr_ring scr_ring;

/// A new, empty ring keeping the newest `capacity` breadcrumbs (0: records nothing).
/// Not async-signal-safe (mmap). NULL when the memory cannot be mapped.
scr_ring *scr_ring_create(uint32_t capacity);

/// Unmaps a ring made by `scr_ring_create`. Not async-signal-safe; the caller guarantees
/// that no thread records into it any more. Never call it on the global ring.
void scr_ring_destroy(scr_ring *ring);

/// A breadcrumb's slot in a ring while its producer writes it, and the ticket that took it.
typedef struct scr_slot scr_slot;
typedef struct scr_ring_claim {
    scr_slot *slot; // NULL: nothing is recorded (no ring, no slots, or capture off)
    uint64_t ticket;
} scr_ring_claim;

/// Records one breadcrumb in three steps, so that its data pairs go straight into the slot:
/// `scr_ring_begin` claims the calling thread's next slot in `ring` and writes the level,
/// category and message; `scr_ring_add_pair` writes pair 0, 1, ... (up to SCR_MAX_PAIRS);
/// `scr_ring_publish` makes the slot whole. Until then a reader (the handler at a crash) leaves
/// the slot out as torn. Strings are cut to their bounds on a UTF-8 boundary. Each step is
/// wait-free, never allocates, is callable from any thread and is async-signal-safe.
scr_ring_claim scr_ring_begin(scr_ring *ring, uint8_t level,
                              const char *category, size_t category_len,
                              const char *message, size_t message_len);

/// Writes pair `index` of a claimed slot; nothing for an index of SCR_MAX_PAIRS or more, or
/// a NULL slot. Async-signal-safe, wait-free.
void scr_ring_add_pair(scr_slot *slot, uint8_t index,
                       const char *key, size_t key_len,
                       const char *value, size_t value_len);

/// Publishes a claimed slot with its first `pair_count` pairs. Async-signal-safe, wait-free.
void scr_ring_publish(scr_ring_claim claim, uint8_t pair_count);

/// `scr_ring_begin` on the global ring: a claim without a slot until `scr_install` (or with
/// capacity 0) and while capture is off. Async-signal-safe, wait-free.
scr_ring_claim scr_breadcrumb_begin(uint8_t level,
                                    const char *category, size_t category_len,
                                    const char *message, size_t message_len);

/// The shard (0 ..< SCR_RING_SHARDS) the calling thread's breadcrumbs go to, given now if the
/// thread has recorded none yet. Tests use it to put two threads in different shards.
/// Async-signal-safe.
uint32_t scr_breadcrumb_shard(void);

/// Writes `ring` as the handler would (see `scr_breadcrumbs_write_json`). Async-signal-safe.
long scr_ring_write_json_to(scr_ring *ring, char *buffer, size_t capacity);

/// Whether a breadcrumb recorded now would be kept: the global ring exists, has slots, and
/// capture is on. Lets callers skip building a breadcrumb's data. Async-signal-safe.
int scr_breadcrumbs_enabled(void);

/// The global ring, NULL before `scr_install`. Async-signal-safe.
scr_ring *scr_global_ring(void);

/// Replaces the global ring with an empty one of `capacity` slots (0 turns breadcrumbs
/// off). `scr_install` calls it. The replaced ring stays mapped, since a producer may still
/// be writing into it. Not async-signal-safe (mmap). Returns 0 on success.
int scr_breadcrumbs_configure(uint32_t capacity);

/// Writes the global ring's breadcrumbs section (`{"capacity":…,"torn":…,"items":[…]}`) as the handler
/// would into `buffer`, NUL-terminated. Returns the length, or -1 if it did not fit.
/// Async-signal-safe; exposed so that tests and the benchmark read the ring as the handler does.
long scr_breadcrumbs_write_json(char *buffer, size_t capacity);

/// Writes `bytes` as a JSON string literal (quotes included) truncated to `max_bytes` of
/// input on a UTF-8 boundary, with control characters, quotes and backslashes escaped.
/// Returns the output length, or -1 if it did not fit. Async-signal-safe; exposed for tests.
long scr_json_write_string(char *buffer, size_t capacity, const char *bytes, size_t length, size_t max_bytes);

/// The handled signals that had a handler before `scr_install` (not SIG_DFL or SIG_IGN), as a
/// mask of `1 << signo`; they run after the report. Not async-signal-safe by intent (asked once
/// after install), though it only reads.
uint64_t scr_chained_signal_mask(void);

/// The `os` member of this process's reports, as `scr_install` read it: 0 name, 1 release,
/// 2 machine, 3 distribution (empty strings before install). Async-signal-safe.
const char *scr_report_os_field(int which);

/// This process's start in clock ticks since boot (field 22 of `/proc/self/stat`), as
/// `scr_install` read it; 0 before. Async-signal-safe.
uint64_t scr_process_start_ticks(void);

/// The run record (run_record.c): the width of its first line, the state, which is overwritten
/// in place (8 bytes of state padded with spaces, 36 of report id or dashes, a newline).
#define SCR_RUN_STATE_LINE 45

/// Hands over the descriptor of this run's record (opened read-write by start()) and arms the
/// clean-end marks: atexit, and SIGTERM/SIGINT where their action is the default. Returns 0,
/// or -1 when already armed. Not async-signal-safe.
int scr_run_record_arm(int fd);
/// Says that start() settles the earlier runs and arms this run's record on a background thread
/// (docs/runs.md, "When the record is armed"): registers the clean-end marks now, and until
/// scr_run_record_settled() a crash or a clean end first waits for the record, bounded
/// (SCR_RUN_SETTLE_WAIT_MS), so that it is marked. Not async-signal-safe (atexit, sigaction).
int scr_run_record_expect(void);
/// The background settle is over (armed or not): nobody waits for it any more. Async-signal-safe.
void scr_run_record_settled(void);
/// Readies the crash path ahead of a crash, off it: zlib's code mapped and its symbols bound (a
/// few bytes compressed once with the crash's settings), and the crash's report file made,
/// unnamed, in pending/ (report_files.c). start()'s background thread calls it once armed. Not
/// async-signal-safe.
void scr_ready_crash_path(void);
/// How long a crash or a clean end waits for the background settle at most.
#define SCR_RUN_SETTLE_WAIT_MS 200
/// Marks the run crashed, with the report id (36 characters) or NULL. Async-signal-safe.
void scr_run_record_mark_crashed(const char *id);
/// Marks the run ended cleanly. Async-signal-safe.
void scr_run_record_mark_exited(void);

/// Bytes reserved by `scr_install` (ring, deflate arena, buffers, image table, thread slots,
/// alternate stack of the installing thread). Async-signal-safe.
size_t scr_reserved_bytes(void);

/// Of those, the slots the other threads fill at a capture (registers, frames). Async-signal-safe.
size_t scr_reserved_thread_bytes(void);

#ifdef __cplusplus
}
#endif

#endif

// Internal declarations shared by the C files of CCrashReporter. Nothing here is called
// from Swift; every symbol is hidden so that it cannot clash with the host program.
#ifndef SCR_INTERNAL_H
#define SCR_INTERNAL_H

#ifndef _GNU_SOURCE
#error "CCrashReporter needs _GNU_SOURCE (Package.swift sets it in cSettings)"
#endif

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "CCrashReporter.h"

#define SCR_HIDDEN __attribute__((visibility("hidden")))

// ---- interrupted system calls -------------------------------------------------------------
// The C core's one EINTR loop. Async-signal-safe: it adds a test of errno to the call it wraps
// and nothing else, so it is as safe as that call. `call` is a system call that fails with -1
// and errno; it is evaluated again for as long as it fails with EINTR, and the macro yields its
// first other result (after a failure errno is the call's own). Each retry evaluates the whole
// expression anew, so an argument computed in it (a poll timeout from a deadline) is fresh.
// A macro (a GNU statement expression), not a function, because the calls return int or ssize_t.
#define SCR_RETRY_EINTR(call)                                                                   \
    __extension__({                                                                             \
        __typeof__(call) scr_retry_result_;                                                     \
        do {                                                                                    \
            scr_retry_result_ = (call);                                                         \
        } while (scr_retry_result_ == -1 && errno == EINTR);                                    \
        scr_retry_result_;                                                                      \
    })

// ---- buffered writer (writer.c) -------------------------------------------------------
// A writer appends into memory its owner supplies. When the memory is full it calls
// `drain` (the gzip sink) to empty it; without `drain` it marks itself failed instead.
// The JSON functions keep their place in the document here: how deep they are, which
// open objects or arrays have a member already (bit n for depth n), and whether a key was
// just written, so that they can put the commas themselves.
typedef struct scr_writer {
    char *buf;
    size_t cap;
    size_t len;
    bool failed;
    void (*drain)(struct scr_writer *w);
    uint32_t depth;
    uint32_t has_member;
    bool after_key;
} scr_writer;

// Async-signal-safe. What does not fit in the buffer's room: drains and copies on.
SCR_HIDDEN void scr_w_bytes_slow(scr_writer *w, const char *bytes, size_t n);
// Async-signal-safe. Appends `n` bytes: inline, one comparison and one copy when they fit (the
// report writes thousands of short pieces), else through the drain.
static inline void scr_w_bytes(scr_writer *w, const char *bytes, size_t n) {
    if (__builtin_expect(n <= w->cap - w->len && !w->failed, 1)) {
        __builtin_memcpy(w->buf + w->len, bytes, n);
        w->len += n;
        return;
    }
    scr_w_bytes_slow(w, bytes, n);
}
SCR_HIDDEN void scr_w_cstr(scr_writer *w, const char *s);
SCR_HIDDEN void scr_w_u64(scr_writer *w, uint64_t v);
SCR_HIDDEN void scr_w_i64(scr_writer *w, int64_t v);
SCR_HIDDEN void scr_w_hex(scr_writer *w, uint64_t v); // "0x…" with quotes
// Async-signal-safe. The longest prefix of `s` (of `len` bytes) that is at most `max` bytes and
// does not end inside a UTF-8 sequence. Inline: every breadcrumb field goes through it.
static inline size_t scr_utf8_cut(const char *s, size_t len, size_t max) {
    if (len <= max) return len;
    size_t cut = max;
    // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
    while (cut > 0 && (((unsigned char)s[cut]) & 0xC0) == 0x80) cut--;
    return cut;
}

// ---- JSON (json.c) ----------------------------------------------------------------------
// Every key and value of a report goes through these; they write the commas. A value is
// either a member value (right after scr_json_key) or an element of the open array.
SCR_HIDDEN void scr_json_object_begin(scr_writer *w);
SCR_HIDDEN void scr_json_object_end(scr_writer *w);
SCR_HIDDEN void scr_json_array_begin(scr_writer *w);
SCR_HIDDEN void scr_json_array_end(scr_writer *w);
SCR_HIDDEN void scr_json_key(scr_writer *w, const char *key);                         // "key":
SCR_HIDDEN void scr_json_key_string(scr_writer *w, const char *s, size_t len, size_t max); // a key from data
SCR_HIDDEN void scr_json_string(scr_writer *w, const char *s, size_t len, size_t max);
SCR_HIDDEN void scr_json_cstring(scr_writer *w, const char *s, size_t max);
SCR_HIDDEN void scr_json_u64(scr_writer *w, uint64_t v);
SCR_HIDDEN void scr_json_i64(scr_writer *w, int64_t v);
SCR_HIDDEN void scr_json_hex(scr_writer *w, uint64_t v); // an address: "0x…"
SCR_HIDDEN void scr_json_bool(scr_writer *w, bool v);
SCR_HIDDEN void scr_json_null(scr_writer *w);

// ---- breadcrumb ring (ring.c) -----------------------------------------------------------
SCR_HIDDEN void scr_ring_write_json(scr_ring *ring, scr_writer *w);
SCR_HIDDEN size_t scr_ring_reserved_bytes(void);

// ---- images (images.c) ------------------------------------------------------------------
SCR_HIDDEN int scr_images_capture(const char *home_dir);
// Adds the images loaded since install (dlopen), read from the dynamic linker's list without
// its lock. Only the thread that writes a report calls it; runs guarded.
SCR_HIDDEN void scr_images_refresh(void);
SCR_HIDDEN int scr_images_find(uintptr_t address);
SCR_HIDDEN bool scr_images_is_main(int index);
SCR_HIDDEN void scr_images_write_json(scr_writer *w);
// Async-signal-safe: image `index`'s file name (no directory) and load bias (a valid index only).
SCR_HIDDEN const char *scr_images_name(int index);
SCR_HIDDEN uintptr_t scr_images_base(int index);
SCR_HIDDEN size_t scr_images_reserved_bytes(void);

// ---- unwinder (unwinder.c) --------------------------------------------------------------
#define SCR_MAX_FRAMES 256
typedef struct scr_frame {
    uintptr_t ip;
    uintptr_t sp;
} scr_frame;

// ---- Swift async frames and the running task (async_frames.c, swift_task.c) ------------------
// docs/async-capture.md has the runtime's layouts these files read, and why each read is safe.
#define SCR_MAX_ASYNC_FRAMES 64  // resume points kept per thread (the schema's maxItems)
#define SCR_ASYNC_SCAN_FRAMES 32 // synchronous frames whose registers are kept for the search
#define SCR_TASK_NAME_MAX 63     // bytes of a task's name in the report

// The Swift task a thread was running, read by that thread itself (swift_task.c).
typedef struct scr_task_info {
    bool present;
    bool has_name;
    int priority; // TaskPriority.rawValue, -1 when unknown
    uint64_t id;
    char name[SCR_TASK_NAME_MAX + 1]; // scrubbed
} scr_task_info;

// The frame pointer and the async context register of an unwind's first SCR_ASYNC_SCAN_FRAMES
// frames (two words each, recorded by the unwinder) for the walk that follows it. Only that walk
// reads them, so they live on the capturing thread's stack: in the reserved memory they were a
// fresh page to fault in for every few threads at a crash.
typedef struct scr_async_scan {
    uintptr_t registers[2 * SCR_ASYNC_SCAN_FRAMES];
} scr_async_scan;

// Room for the resume points an async walk finds, reserved at install (per thread slot, and the
// crashing thread's in crashed_thread.c); the report reads them.
typedef struct scr_async_room {
    scr_frame frames[SCR_MAX_ASYNC_FRAMES];
} scr_async_room;

typedef struct scr_unwind_result scr_unwind_result;

typedef struct scr_async_chain {
    scr_async_room *room; // NULL: no async walk for this unwind
    scr_async_scan *scan; // NULL: no async walk; else set for the unwind and its walk only
    int scanned;          // frames whose registers are in scan->registers
    int count;            // resume points in room->frames
    int at;               // index in the unwind's frames of the frame whose context began the chain
    uint32_t omitted;     // contexts beyond SCR_MAX_ASYNC_FRAMES
    scr_task_info task;
} scr_async_chain;

// Not async-signal-safe (install only): finds the Swift concurrency runtime (a weak reference to
// swift_task_getCurrent), the image it is in and whether its task layout is the one
// docs/async-capture.md describes; warms its thread-local access up on this thread.
SCR_HIDDEN void scr_async_prepare(void);
// Async-signal-safe: the unwinder's per-frame hook; keeps frame `index`'s frame pointer and async
// context register (the values while that frame runs) for the walk.
SCR_HIDDEN void scr_async_keep_registers(scr_async_chain *chain, int index, uintptr_t fp, uintptr_t context_register);
// Async-signal-safe; reads memory the process does not own, so it runs guarded (a fault loses the
// chain only, the synchronous frames are final by then). Searches the frames of a finished unwind
// for the frame that runs an async function, and walks its context chain into `chain`. Call it
// after scr_unwind_finish.
SCR_HIDDEN void scr_async_walk(scr_unwind_result *unwind);
// Async-signal-safe; guarded as scr_async_walk is. Fills `chain->task` from the current thread's
// task, when it runs one and the runtime's layout is the known one (swift_task.c).
SCR_HIDDEN void scr_task_read_current(scr_async_chain *chain);
// Async-signal-safe: values set at install. The image index of the concurrency runtime (-1 if
// none), and whether that image is the executable (a --static-swift-stdlib build).
SCR_HIDDEN int scr_swift_runtime_image(void);
SCR_HIDDEN bool scr_swift_runtime_in_executable(void);
// Async-signal-safe: pure computation. Copies `name` (`len` bytes) into `out` (`cap` >= 16),
// each word that could hold an address, an e-mail, a number or a token replaced by `[redacted]`,
// and all of it when its digits could make a card number (swift_task.c).
SCR_HIDDEN void scr_scrub_task_name(const char *name, size_t len, char *out, size_t cap);
// Async-signal-safe: writer calls only. A thread's `async_frames`, `async_frames_at`,
// `async_frames_omitted` (when it has a chain) and `task` (when it ran one) (report_async.c).
SCR_HIDDEN void scr_report_write_async(scr_writer *w, const scr_unwind_result *unwind);

// What one unwind found. `count` grows as frames are found, so that the frames gathered
// before a fault inside the unwinder are still there when the guard jumps back. With `outer`
// > 0 the last `outer` slots of `frames` are a ring of the outermost frames seen so far, and
// scr_unwind_finish puts them in order and counts the ones between that were left out.
typedef struct scr_unwind_result {
    scr_frame *frames;
    int max;
    int outer;         // slots at the end kept for the outermost frames (0: stop at `max`)
    int count;
    uint64_t ring_seen; // frames that went through the ring
    bool truncated;    // more frames than the report keeps
    int omitted;       // frames left out between frames[omitted_at - 1] and frames[omitted_at]
    int omitted_at;
    const char *error; // NULL, or why unwinding stopped early ("init_failed", "step_failed")
    scr_async_chain async; // the Swift async chain beside these frames (async_frames.c)
} scr_unwind_result;

// Warms the unwinder up at install (see unwinder.c).
SCR_HIDDEN void scr_unwinder_prepare(void);
// Prepares `result` for an unwind into `frames` (`max` slots, `outer` of them for the ring).
SCR_HIDDEN void scr_unwind_reset(scr_unwind_result *result, scr_frame *frames, int max, int outer);
// Fills `result` from the signal context: frame 0 is the interrupted instruction itself.
SCR_HIDDEN void scr_unwind(const void *ucontext, scr_unwind_result *result);
// Puts the ring of outermost frames in order; call after scr_unwind, even when it faulted.
SCR_HIDDEN void scr_unwind_finish(scr_unwind_result *result);

// ---- registers and signal names (context.c, signals.c) ---------------------------------
typedef struct scr_registers {
    uint64_t values[34]; // x86_64 uses the first 18
} scr_registers;
SCR_HIDDEN void scr_registers_save(const void *ucontext, scr_registers *out);
SCR_HIDDEN void scr_registers_write_saved(scr_writer *w, const scr_registers *registers);
SCR_HIDDEN void scr_registers_write_json(scr_writer *w, const void *ucontext);
SCR_HIDDEN uintptr_t scr_context_ip(const void *ucontext);
SCR_HIDDEN uintptr_t scr_context_sp(const void *ucontext);
SCR_HIDDEN const char *scr_signal_name(int sig);
SCR_HIDDEN const char *scr_signal_code_name(int sig, int code);

// ---- gzip sink (gzip_sink.c) --------------------------------------------------------------
SCR_HIDDEN int scr_gzip_reserve(void);
// Not async-signal-safe: compresses a few bytes with the crash's settings and an arena of its own
// (scr_ready_crash_path).
SCR_HIDDEN void scr_gzip_warm(void);
SCR_HIDDEN size_t scr_gzip_reserved_bytes(void);
// Starts a gzip stream to `fd`; returns a writer whose drain compresses into the file.
// `level`: zlib's compression level.
SCR_HIDDEN int scr_gzip_begin(int fd, scr_writer *w, int level);
// The report's compression level, for every report: zlib's fastest. Against level 6, a crash
// with 100 breadcrumbs compresses in about two thirds of the time (less of it cold, at the
// crash) for about 11 % more bytes (3.1 KB instead of 2.8 KB); a 64-thread report 3x faster
// for 15 % more. scr_gzip_warm readies it.
#define SCR_GZIP_LEVEL 1
// 0 when every byte reached the file, else the errno of the failed write, or -1 (zlib).
SCR_HIDDEN int scr_gzip_finish(scr_writer *w);

// ---- alternate stacks (altstack.c) ------------------------------------------------------
SCR_HIDDEN size_t scr_altstack_size(void);
// From now on, threads started with pthread_create get an alternate stack. Install calls it.
SCR_HIDDEN void scr_altstack_enable(void);
// A new alternate stack's mapping (guard page included), NULL when mmap fails.
SCR_HIDDEN void *scr_altstack_map(void);
SCR_HIDDEN void scr_altstack_unmap(void *mapping);
// From a signal handler: makes `mapping` the thread's alternate stack once the handler
// returns, unless it has one already (true when it will). A thread answering the capture
// signal calls it with its ucontext.
SCR_HIDDEN bool scr_altstack_adopt(void *mapping, void *ucontext);

// ---- the threads of the process (tasks.c) ----------------------------------------------------
// Calls `visit(tid, arg)` for every thread in /proc/self/task, read with getdents64 into a
// buffer on the stack. Returns the number of threads, or -1 when the directory cannot be read.
SCR_HIDDEN int scr_tasks_each(void (*visit)(pid_t tid, void *arg), void *arg);
// Not async-signal-safe by intent: lists /proc/self/task ahead of a crash so that its threads'
// dentries are cached (monitor.c; the monitor at each wake, scr_ready_crash_path once).
SCR_HIDDEN void scr_tasks_keep_listed(void);
// Not async-signal-safe by intent (a new thread, at its start), though access is: caches the
// calling thread's own /proc/self/task entry for a crash's listing.
SCR_HIDDEN void scr_tasks_keep_own_entry(void);
// What /proc/self/task/<tid>/status says of a thread: its name, its state letter, whether its
// mask blocks `sig` and whether a signal its mask blocks waits for it (`held_back`, unless NULL).
// Returns false when it cannot be read (the thread is gone).
SCR_HIDDEN bool scr_task_status(pid_t tid, int sig, char name[16], char *state, bool *blocked, bool *held_back);

// ---- capturing the other threads (threads.c) ---------------------------------------------------
enum { SCR_SLOT_IDLE, SCR_SLOT_REQUESTED, SCR_SLOT_CAPTURING, SCR_SLOT_DONE, SCR_SLOT_ABANDONED };

// One thread of a capture. The thread fills it itself, in its handler of the capture signal.
typedef struct scr_thread_slot {
    _Atomic pid_t tid;
    _Atomic int state;
    _Atomic int in_unwind; // a fault now jumps back to `jump`
    char name[16];
    scr_registers registers;
    scr_unwind_result unwind;
    const char *error; // the unwinder's, or "fault", "no_answer", "signal_blocked", "stopped"
    void *stack;       // when preparing: the alternate stack offered to the thread
    bool stack_used;
    sigjmp_buf jump;
} scr_thread_slot;

// Reserves the slots and installs the capture signal's handler. Not async-signal-safe.
SCR_HIDDEN int scr_threads_prepare(const scr_config *config);
// Gives every thread that was running before install an alternate stack. Not async-signal-safe.
SCR_HIDDEN void scr_threads_prepare_existing(void);
// What a thread that answered does next (scr_threads_request): return to what it was doing (a
// snapshot); wait until scr_threads_release (a crash the process may outlive, or whose core dump
// shows every thread); or end itself (a crash that ends the process with no core dump; the
// process's main thread still waits).
typedef enum { SCR_THEN_RETURN, SCR_THEN_WAIT, SCR_THEN_END } scr_capture_then;
// Asks every other thread to capture itself, each then doing what `then` says. Returns the number
// of slots given. The caller may write other parts of the report meanwhile, then waits for each
// slot with scr_threads_wait_slot before it reads it, or for all with scr_threads_wait (bounded).
// Async-signal-safe.
SCR_HIDDEN int scr_threads_request(scr_capture_then then);
SCR_HIDDEN void scr_threads_wait(void);
SCR_HIDDEN void scr_threads_wait_slot(int index);
SCR_HIDDEN void scr_threads_release(void);
SCR_HIDDEN int scr_threads_count(void);
SCR_HIDDEN const scr_thread_slot *scr_threads_slot(int index);
SCR_HIDDEN uint32_t scr_threads_total(void);
SCR_HIDDEN uint32_t scr_threads_omitted(void);
// A thread that faults while unwinding itself for a capture jumps back into its handler;
// the crash handler asks first. Returns only when `tid` is not unwinding.
SCR_HIDDEN void scr_threads_escape_if_unwinding(pid_t tid);

// ---- blanket signal masks (sigmask.c) ------------------------------------------------------
// The highest real-time signal whose action is still the default, 0 when none: the capture
// signal install chooses. Async-signal-safe (sigaction, only to read).
SCR_HIDDEN int scr_sigmask_free_signal(void);
// The highest real-time signal below `limit` whose action is still the default, 0 when none.
// Async-signal-safe (sigaction, only to read).
SCR_HIDDEN int scr_sigmask_free_signal_below(int limit);
// From now on a blanket mask leaves `sig` open (0: none); before the first call, the signal
// scr_sigmask_free_signal names at that moment. Install calls it. Async-signal-safe.
SCR_HIDDEN void scr_sigmask_keep_open(int sig);

// ---- heartbeats and the monitor thread (heartbeat.c, monitor.c) -----------------------------
typedef struct scr_late_heartbeat {
    char name[64];
    pid_t tid;
    uint64_t late_ms;
} scr_late_heartbeat;
SCR_HIDDEN int scr_heartbeats_add(const char *name);
// Whether any heartbeat is registered.
SCR_HIDDEN bool scr_heartbeats_active(void);
// Finds a heartbeat that has not ticked for `timeout_ms` and was not reported for this stall;
// marks it reported. Called by the monitor thread only.
SCR_HIDDEN bool scr_heartbeats_find_late(uint64_t now_ms, uint64_t timeout_ms, scr_late_heartbeat *late);
SCR_HIDDEN int scr_monitor_start(const scr_config *config);
// Wakes the monitor thread (a byte down its pipe; nothing before it has started). Async-signal-safe.
SCR_HIDDEN void scr_monitor_wake(void);

// ---- the crashing thread (crashed_thread.c) ----------------------------------------------
// What the crashing thread read of itself in the handler.
typedef struct scr_crashed_thread {
    pid_t tid;
    char name[17]; // prctl(PR_GET_NAME), terminated
    scr_registers registers;
    scr_unwind_result unwind; // with its async chain
} scr_crashed_thread;
// Async-signal-safe: prctl, reads of the context, the unwinder and the async walk under the
// guard. Fills the one crashing thread's record from the signal's context and returns it.
SCR_HIDDEN const scr_crashed_thread *scr_crashed_thread_capture(const void *ucontext);
SCR_HIDDEN size_t scr_crashed_thread_reserved_bytes(void); // async-signal-safe

// ---- the Swift runtime's fatal-error message (fatal_message.c) ---------------------------
#define SCR_FATAL_MESSAGE_MAX 4095 // bytes of it in the report
// Not async-signal-safe (calls into the runtime once): finds the runtime's message slot. Install.
SCR_HIDDEN void scr_fatal_message_prepare(void);
// Async-signal-safe: an atomic load and a bounded copy, guarded. The message without trailing
// newlines and spaces (`*len` bytes, not terminated), or NULL when there is none.
SCR_HIDDEN const char *scr_fatal_message_read(size_t *len);
SCR_HIDDEN size_t scr_fatal_message_reserved_bytes(void); // async-signal-safe

// ---- what the report is built from (uuid.c, iso_time.c, os_release.c, proc_facts.c) --------
#define SCR_UUID_TEXT_LEN 36 // "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx"
// Async-signal-safe: getrandom(2) without blocking (time and thread id when it fails). A random
// version 4 UUID, as text and a NUL.
SCR_HIDDEN void scr_uuid_v4(char out[SCR_UUID_TEXT_LEN + 1]);
#define SCR_ISO_TIME_LEN 24 // "2026-11-29T13:20:05.123Z"
// Async-signal-safe: pure computation. Unix milliseconds as an ISO-8601 UTC date with
// milliseconds, and a NUL; returns SCR_ISO_TIME_LEN.
SCR_HIDDEN size_t scr_iso_time_format(uint64_t ms, char out[SCR_ISO_TIME_LEN + 1]);
// Not async-signal-safe in practice (install): PRETTY_NAME of /etc/os-release, unquoted, into
// `out`; `out` is left as it is when there is none.
SCR_HIDDEN void scr_os_release_pretty_name(char *out, size_t cap);
// Not async-signal-safe in practice (sysconf; install): when this process started, in
// CLOCK_BOOTTIME milliseconds, from /proc/self/stat (now when it cannot be read); keeps the
// clock ticks for scr_process_start_ticks.
SCR_HIDDEN uint64_t scr_proc_start_boot_ms(void);

// ---- the crash on standard error and the termination message (stderr_copy.c, termination_log.c) ----
// Async-signal-safe. A crash's report begins: the gzip sink's output is teed into the copy from
// now on; true when it is (the mode `report`, and the memory file exists).
SCR_HIDDEN bool scr_stderr_copy_begin(void);
// Async-signal-safe. Whether the sink's output still goes to the copy: the sink then goes on
// compressing when the report's file fails.
SCR_HIDDEN bool scr_stderr_copy_teeing(void);
// Async-signal-safe (write(2) to the memory file). A block of the report's gzip bytes.
SCR_HIDDEN void scr_stderr_copy_tee(const void *bytes, size_t n);
// Async-signal-safe. After a crash's report: the summary line (and the report's lines) on fd 2,
// the summary in the termination log. `id`: the report's, NULL or "" when none was begun;
// `on_disk`: whether its `.crash` file is whole.
SCR_HIDDEN void scr_stderr_copy_emit(int sig, const siginfo_t *info, const void *ucontext, const char *id,
                                     bool on_disk);
SCR_HIDDEN size_t scr_stderr_copy_reserved_bytes(void); // async-signal-safe
// Async-signal-safe (open, write, close): `text` as the termination log's content, when one is set.
SCR_HIDDEN void scr_termination_log_write(const char *text, size_t len);
SCR_HIDDEN size_t scr_termination_log_reserved_bytes(void); // async-signal-safe

// ---- the report's files in pending/ (report_files.c) -------------------------------------
// Not async-signal-safe (install): keeps the paths and the spare descriptor. SCR_OK, or
// SCR_ERR_PATH_TOO_LONG.
SCR_HIDDEN int scr_report_files_prepare(const scr_config *config);
SCR_HIDDEN size_t scr_report_files_reserved_bytes(void); // async-signal-safe
// Async-signal-safe (fstat, close): frees the spare descriptor, when it is still ours.
SCR_HIDDEN void scr_report_files_release_spare(void);
// Not async-signal-safe (open, access): makes the unnamed file a crash's report is written into,
// when the filesystem can (scr_ready_crash_path).
SCR_HIDDEN void scr_report_files_make_ahead(void);
// Async-signal-safe (open, mkdir, getpid): names report `id`'s files and opens the one its bytes
// go to: for a crash, the unnamed file made ahead when there is one; else `<id>.crash.tmp`,
// making the state directory and pending/ again when they were removed. A descriptor, or -1.
SCR_HIDDEN int scr_report_files_open(const char *id, bool crash);
// Async-signal-safe (close, unlink): drops the file of a report that never began.
SCR_HIDDEN void scr_report_files_discard(int fd);
// Async-signal-safe (close, linkat or rename): ends the report's file `fd` after its writing
// ended with `error` (0: whole): `<id>.crash`, else `<id>.crash.failed-<error>`. 0, or the error.
SCR_HIDDEN int scr_report_files_finish(int fd, const char *id, int error);

// ---- the report (report.c, report_threads.c, report_frames.c) ------------------------------
// What a report is about: a crash (its signal and context), or a snapshot of a live process
// (its reason, and for a hang the late heartbeat).
typedef struct scr_report_request {
    const char *kind; // "crash", "snapshot" or "hang"
    int sig;
    siginfo_t *info;
    void *ucontext;
    const char *reason;
    const scr_late_heartbeat *heartbeat;
    bool threads_end; // the other threads end once they have answered: the crash ends the process, no core dump follows
    char id[37]; // out: the report id
} scr_report_request;

SCR_HIDDEN int scr_report_prepare(const scr_config *config);
SCR_HIDDEN size_t scr_report_reserved_bytes(void);
// Writes the whole report and renames it into place. Returns 0 on success, -1 when it could
// not be written, -2 when another report was being written for longer than the wait allows.
SCR_HIDDEN int scr_report_write(scr_report_request *request);
// Async-signal-safe: writer calls. The `threads` array: the crashing thread (NULL for none)
// first, then the captured slots by id.
SCR_HIDDEN void scr_report_write_threads(scr_writer *w, const scr_crashed_thread *crashed, pid_t main_tid);
// Async-signal-safe: writer calls and scr_images_find. One frame object, with its `trust`
// ("context", "cfi" or "async") (report_frames.c).
SCR_HIDDEN void scr_report_write_frame(scr_writer *w, const scr_frame *frame, const char *trust);
// Async-signal-safe: as scr_report_write_frame. A thread's `frames` and the members about them
// (report_frames.c).
SCR_HIDDEN void scr_report_write_frames(scr_writer *w, const scr_unwind_result *unwind);
// Async-signal-safe: writer calls only. The members about a thread's frames without `frames`:
// truncation, left-out frames, unwind error (report_frames.c).
SCR_HIDDEN void scr_report_write_stack_limits(scr_writer *w, const scr_unwind_result *unwind);
// `name`, or `[redacted]` when it could hold an address or a card number (report_threads.c).
SCR_HIDDEN const char *scr_report_safe_thread_name(const char *name);

// ---- whether capture is on (capture.c) ---------------------------------------------------
// The one flag behind scr_set_capture_enabled.
// The capture flag (capture.c), read inline by scr_capture_enabled.
SCR_HIDDEN extern _Atomic bool scr_g_capture_disabled;
// Async-signal-safe. Inline, one relaxed load: the breadcrumb recorder asks on every record. Relaxed:
// the flag publishes no other data, and a breadcrumb recorded just after the switch on another
// thread may go either way.
static inline bool scr_capture_enabled(void) {
    return !atomic_load_explicit(&scr_g_capture_disabled, memory_order_relaxed);
}

// ---- the test hook (fault_injection.c) -----------------------------------------------------
// The places (SCR_FAULT_IN_*) are in CCrashReporter.h, where the Swift hook reads them too.
// Where scr_debug_inject_fault asked for a fault, SCR_FAULT_OFF for none.
SCR_HIDDEN extern _Atomic int scr_g_injected_fault;
// Faults on purpose (a store to an unmapped page); SCR_FAULT_IN_THREAD in one thread only.
SCR_HIDDEN void scr_fault_now(int where);
// Async-signal-safe. Faults on purpose when scr_debug_inject_fault asked for `where`: inline, one
// relaxed load when nothing was asked for (the breadcrumb recorder calls it on every record).
static inline void scr_fault_if_injected(int where) {
    if (__builtin_expect(atomic_load_explicit(&scr_g_injected_fault, memory_order_relaxed) == where, 0)) {
        scr_fault_now(where);
    }
}
// Async-signal-safe. For the sites that fault nowhere (SCR_FAULT_SLOW_CLAIM, SCR_FAULT_THREAD_GONE):
// true when scr_debug_inject_fault asked for `where`, for the first caller only. Inline, one relaxed
// load when nothing was asked for.
SCR_HIDDEN bool scr_fault_take_once(void);
static inline bool scr_fault_injected_once(int where) {
    if (__builtin_expect(atomic_load_explicit(&scr_g_injected_fault, memory_order_relaxed) == where, 0)) {
        return scr_fault_take_once();
    }
    return false;
}
// write(2) for the report file, or the error scr_debug_inject_write_fault asked for.
SCR_HIDDEN ssize_t scr_report_file_write(int fd, const void *bytes, size_t n);

// ---- the fault guard (guard.c) -----------------------------------------------------------
// Runs `fn(arg)`; if it faults (SIGSEGV/SIGBUS while reading memory it should not),
// returns false instead of dying, so that the report goes on with what it has.
SCR_HIDDEN bool scr_guarded(void (*fn)(void *), void *arg);
// Whether `tid` is inside a guarded call.
SCR_HIDDEN bool scr_guard_active(pid_t tid);
// Jumps back into the running scr_guarded, which returns false. From the handler only.
SCR_HIDDEN __attribute__((noreturn)) void scr_guard_escape(void);

// ---- the handled signals and the actions before ours (chain.c) --------------------------
SCR_HIDDEN int scr_chain_install(const struct sigaction *action);
SCR_HIDDEN void scr_chain_restore(void);
SCR_HIDDEN bool scr_chain_is_crash_handler(const struct sigaction *action);
SCR_HIDDEN bool scr_chain_ends_process(int sig);

// ---- the signal handler (handler.c) -----------------------------------------------------
SCR_HIDDEN void scr_handle_signal(int sig, siginfo_t *info, void *ucontext);

// ---- small signal-safe helpers (util.c) -------------------------------------------------
SCR_HIDDEN uint64_t scr_now_realtime_ns(void);
SCR_HIDDEN uint64_t scr_now_realtime_ms(void);
SCR_HIDDEN uint64_t scr_now_boottime_ms(void);
SCR_HIDDEN uint64_t scr_now_monotonic_ns(void);
SCR_HIDDEN void scr_sleep_us(uint64_t us);
SCR_HIDDEN size_t scr_strlcpy(char *dst, const char *src, size_t cap);
// `v` in decimal, terminated; returns the length (util.c).
SCR_HIDDEN size_t scr_format_decimal(char *out, size_t cap, uint64_t v);
SCR_HIDDEN pid_t scr_gettid(void);
// Ends the process of `sig` at its default action (restored, unblocked, sent to this thread).
SCR_HIDDEN __attribute__((noreturn)) void scr_die_of_default(int sig);
SCR_HIDDEN long scr_read_file(const char *path, char *buf, size_t cap);

// ---- core dumps (core_dump.c)
// Reads the core pattern's kind; install, once. Not async-signal-safe by intent.
SCR_HIDDEN void scr_core_dump_prepare(void);
// The kernel's rule: whether a dump follows, for a pattern kind, a soft core limit and the
// dumpable flag. Async-signal-safe.
SCR_HIDDEN bool scr_core_dump_follows(int pattern, uint64_t limit, int dumpable);
// Whether the default action of a crash signal would now leave a core dump. Async-signal-safe.
SCR_HIDDEN bool scr_core_dump_expected(void);

// ---- the benchmark's crash profile (profile.c) ------------------------------------------
SCR_HIDDEN bool scr_profile_on(void);
SCR_HIDDEN void scr_profile_mark(int phase);
// What scr_profile_add adds to: time inside deflate, inside write(2), or asleep for other threads.
enum { SCR_PROFILE_DEFLATE, SCR_PROFILE_WRITE, SCR_PROFILE_WAITING };
SCR_HIDDEN void scr_profile_add(int which, uint64_t ns);
SCR_HIDDEN void scr_profile_flush(void);

// ---- the run record (run_record.c) --------------------------------------------------------
SCR_HIDDEN void scr_run_record_await(void); // waits for start()'s background settle, bounded

#endif

// Internal declarations shared by the C files of CCrashReporter. Nothing here is called
// from Swift; every symbol is hidden so that it cannot clash with the host program.
#ifndef SCR_INTERNAL_H
#define SCR_INTERNAL_H

#ifndef _GNU_SOURCE
#error "CCrashReporter needs _GNU_SOURCE (Package.swift sets it in cSettings)"
#endif

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "CCrashReporter.h"

#define SCR_HIDDEN __attribute__((visibility("hidden")))

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

SCR_HIDDEN void scr_w_bytes(scr_writer *w, const char *bytes, size_t n);
SCR_HIDDEN void scr_w_cstr(scr_writer *w, const char *s);
SCR_HIDDEN void scr_w_u64(scr_writer *w, uint64_t v);
SCR_HIDDEN void scr_w_i64(scr_writer *w, int64_t v);
SCR_HIDDEN void scr_w_hex(scr_writer *w, uint64_t v); // "0x…" with quotes
SCR_HIDDEN size_t scr_utf8_cut(const char *s, size_t len, size_t max);

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
SCR_HIDDEN int scr_images_find(uintptr_t address);
SCR_HIDDEN void scr_images_write_json(scr_writer *w);
SCR_HIDDEN size_t scr_images_reserved_bytes(void);

// ---- unwinder (unwinder.c) --------------------------------------------------------------
#define SCR_MAX_FRAMES 256
typedef struct scr_frame {
    uintptr_t ip;
    uintptr_t sp;
} scr_frame;

// What one unwind found. `count` grows as frames are found, so that the frames gathered
// before a fault inside the unwinder are still there when the guard jumps back.
typedef struct scr_unwind_result {
    scr_frame *frames;
    int max;
    int count;
    bool truncated;    // more than `max` frames
    const char *error; // NULL, or why unwinding stopped early ("init_failed", "step_failed")
} scr_unwind_result;

// Warms the unwinder up at install (see unwinder.c).
SCR_HIDDEN void scr_unwinder_prepare(void);
// Fills `result` from the signal context: frame 0 is the interrupted instruction itself.
SCR_HIDDEN void scr_unwind(const void *ucontext, scr_unwind_result *result);

// ---- registers and signal names (context.c, signals.c) ---------------------------------
SCR_HIDDEN void scr_registers_write_json(scr_writer *w, const void *ucontext);
SCR_HIDDEN uintptr_t scr_context_ip(const void *ucontext);
SCR_HIDDEN uintptr_t scr_context_sp(const void *ucontext);
SCR_HIDDEN const char *scr_signal_name(int sig);
SCR_HIDDEN const char *scr_signal_code_name(int sig, int code);

// ---- gzip sink (gzip_sink.c) --------------------------------------------------------------
SCR_HIDDEN int scr_gzip_reserve(void);
SCR_HIDDEN size_t scr_gzip_reserved_bytes(void);
// Starts a gzip stream to `fd`; returns a writer whose drain compresses into the file.
SCR_HIDDEN int scr_gzip_begin(int fd, scr_writer *w);
SCR_HIDDEN int scr_gzip_finish(scr_writer *w);

// ---- alternate stacks (altstack.c) ------------------------------------------------------
SCR_HIDDEN size_t scr_altstack_size(void);
// From now on, threads started with pthread_create get an alternate stack. Install calls it.
SCR_HIDDEN void scr_altstack_enable(void);

// ---- the report (report.c) --------------------------------------------------------------
SCR_HIDDEN int scr_report_prepare(const scr_config *config);
SCR_HIDDEN size_t scr_report_reserved_bytes(void);
// Writes the whole report for this crash and renames it into place. Returns 0 on success.
SCR_HIDDEN int scr_report_write(int sig, siginfo_t *info, void *ucontext);

// ---- whether capture is on (capture.c) ---------------------------------------------------
// The one flag behind scr_set_capture_enabled.
SCR_HIDDEN bool scr_capture_enabled(void);

// ---- the fault guard (guard.c) -----------------------------------------------------------
// Runs `fn(arg)`; if it faults (SIGSEGV/SIGBUS while reading memory it should not),
// returns false instead of dying, so that the report goes on with what it has.
SCR_HIDDEN bool scr_guarded(void (*fn)(void *), void *arg);
// Whether a guarded call is running (only the thread that owns the report asks).
SCR_HIDDEN bool scr_guard_active(void);
// Jumps back into the running scr_guarded, which returns false. From the handler only.
SCR_HIDDEN __attribute__((noreturn)) void scr_guard_escape(void);

// ---- the handled signals and the actions before ours (chain.c) --------------------------
SCR_HIDDEN int scr_chain_install(const struct sigaction *action);
SCR_HIDDEN void scr_chain_restore(void);

// ---- the signal handler (handler.c) -----------------------------------------------------
SCR_HIDDEN void scr_handle_signal(int sig, siginfo_t *info, void *ucontext);

// ---- small signal-safe helpers (util.c) -------------------------------------------------
SCR_HIDDEN uint64_t scr_now_realtime_ms(void);
SCR_HIDDEN uint64_t scr_now_boottime_ms(void);
SCR_HIDDEN size_t scr_strlcpy(char *dst, const char *src, size_t cap);
SCR_HIDDEN pid_t scr_gettid(void);
SCR_HIDDEN long scr_read_file(const char *path, char *buf, size_t cap);

#endif

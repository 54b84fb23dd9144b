// The report's threads: the `threads` array, the crashing thread first (when the report is a
// crash), then every thread captured by threads.c, by id; and one thread's frames, which the
// `crash` object uses too. A thread that did not answer has no registers and no frames, and
// its `unwind_error` says why.
#include "internal.h"

// Async-signal-safe: writer calls only. `frames`, `frames_truncated`, `frames_omitted`,
// `frames_omitted_at` and `unwind_error` of one thread.
void scr_report_write_frames(scr_writer *w, const scr_unwind_result *unwind) {
    scr_json_key(w, "frames");
    scr_json_array_begin(w);
    for (int i = 0; i < unwind->count; i++) {
        const scr_frame *frame = &unwind->frames[i];
        scr_json_object_begin(w);
        scr_json_key(w, "ip");
        scr_json_hex(w, frame->ip);
        scr_json_key(w, "sp");
        scr_json_hex(w, frame->sp);
        scr_json_key(w, "trust");
        scr_json_cstring(w, i == 0 ? "context" : "cfi", 7);
        scr_json_key(w, "image");
        scr_json_i64(w, scr_images_find(frame->ip));
        scr_json_object_end(w);
    }
    scr_json_array_end(w);
    scr_json_key(w, "frames_truncated");
    scr_json_bool(w, unwind->truncated);
    scr_json_key(w, "frames_omitted");
    scr_json_u64(w, (uint64_t)unwind->omitted);
    scr_json_key(w, "frames_omitted_at");
    scr_json_u64(w, (uint64_t)(unwind->omitted > 0 ? unwind->omitted_at : unwind->count));
    scr_json_key(w, "unwind_error");
    if (unwind->error != NULL) {
        scr_json_cstring(w, unwind->error, 31);
    } else {
        scr_json_null(w);
    }
}


// Async-signal-safe: pure computation. A thread's name is set by code, but a service could put
// anything in its 15 bytes: one that could hold an e-mail address (an `@`), an IPv4 address
// (three dots between digits) or a card number (13 digits or more) is written as `[redacted]`,
// the word the scrubber uses for breadcrumb values.
const char *scr_report_safe_thread_name(const char *name) {
    int digits = 0;
    int dots_after_digit = 0;
    for (size_t i = 0; i < 16 && name[i] != '\0'; i++) {
        char c = name[i];
        if (c == '@') return "[redacted]";
        if (c >= '0' && c <= '9') digits++;
        if (c == '.' && i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') dots_after_digit++;
    }
    return digits >= 13 || dots_after_digit >= 3 ? "[redacted]" : name;
}

// Async-signal-safe: writer calls only.
static void write_head(scr_writer *w, pid_t tid, const char *name, bool crashed, pid_t main_tid) {
    scr_json_key(w, "id");
    scr_json_u64(w, (uint64_t)tid);
    scr_json_key(w, "name");
    scr_json_cstring(w, scr_report_safe_thread_name(name), 15);
    scr_json_key(w, "crashed");
    scr_json_bool(w, crashed);
    scr_json_key(w, "main");
    scr_json_bool(w, tid == main_tid);
}

// Async-signal-safe: writer calls only. A thread that did not answer.
static void write_silent(scr_writer *w, const scr_thread_slot *slot) {
    scr_json_key(w, "registers");
    scr_json_null(w);
    scr_json_key(w, "frames");
    scr_json_array_begin(w);
    scr_json_array_end(w);
    scr_json_key(w, "frames_truncated");
    scr_json_bool(w, false);
    scr_json_key(w, "frames_omitted");
    scr_json_u64(w, 0);
    scr_json_key(w, "frames_omitted_at");
    scr_json_u64(w, 0);
    scr_json_key(w, "unwind_error");
    scr_json_cstring(w, slot->error != NULL ? slot->error : "no_answer", 31);
}

// Async-signal-safe: writer calls and reads of slots that no thread writes any more (DONE or
// ABANDONED).
void scr_report_write_threads(scr_writer *w, pid_t crashed_tid, const char *crashed_name,
                              const scr_registers *crashed_registers, const scr_unwind_result *crashed_unwind,
                              pid_t main_tid) {
    scr_json_array_begin(w);
    if (crashed_tid != 0) {
        scr_json_object_begin(w);
        write_head(w, crashed_tid, crashed_name, true, main_tid);
        scr_json_key(w, "registers");
        scr_registers_write_saved(w, crashed_registers);
        scr_report_write_frames(w, crashed_unwind);
        scr_report_write_async(w, crashed_unwind);
        scr_json_object_end(w);
    }
    int count = scr_threads_count();
    for (int i = 0; i < count; i++) {
        const scr_thread_slot *slot = scr_threads_slot(i);
        int state = atomic_load_explicit(&slot->state, memory_order_acquire);
        scr_json_object_begin(w);
        write_head(w, atomic_load(&slot->tid), slot->name, false, main_tid);
        if (state == SCR_SLOT_DONE) {
            scr_json_key(w, "registers");
            scr_registers_write_saved(w, &slot->registers);
            scr_report_write_frames(w, &slot->unwind);
            scr_report_write_async(w, &slot->unwind);
        } else {
            write_silent(w, slot);
        }
        scr_json_object_end(w);
    }
    scr_json_array_end(w);
}

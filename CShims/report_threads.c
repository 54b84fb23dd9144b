// The report's threads: the `threads` array, the crashing thread first (when the report is a
// crash), then every thread captured by threads.c, by id (their frames: report_frames.c). A
// thread that did not answer has no registers and no frames, and its `unwind_error` says why. A
// thread whose stack is an earlier one's, moved (a pool's idle threads), names that thread
// instead of repeating its frames (docs/report-schema.md, "A thread").
#include "internal.h"

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

// Distinct stacks kept to compare later threads with: a service's threads wait in a few places.
#define SCR_STACKS_KEPT 8

// The stacks written in full so far, by their index in `threads`.
typedef struct {
    int count;
    int index[SCR_STACKS_KEPT];
    const scr_unwind_result *unwind[SCR_STACKS_KEPT];
} scr_stacks_written;

// Async-signal-safe: pure computation. Whether `unwind`'s frames are `earlier`'s moved by one
// amount: the same instruction pointers, every stack pointer `*shift` higher (modulo 2^64).
static bool same_stack_moved(const scr_unwind_result *earlier, const scr_unwind_result *unwind, uint64_t *shift) {
    if (unwind->count == 0 || unwind->count != earlier->count) return false;
    uint64_t moved = unwind->frames[0].sp - earlier->frames[0].sp;
    for (int i = 0; i < unwind->count; i++) {
        const scr_frame *a = &earlier->frames[i];
        const scr_frame *b = &unwind->frames[i];
        if (a->ip != b->ip || b->sp - a->sp != moved) return false;
    }
    *shift = moved;
    return true;
}

// Async-signal-safe: writer calls only. `frames` in full, or, when an earlier thread's stack is
// this one's moved, `frames_as` (that thread's index) and `frames_sp_shift` in its place; the
// other frame members are the thread's own.
static void write_stack(scr_writer *w, const scr_unwind_result *unwind, int index, scr_stacks_written *written) {
    uint64_t shift = 0;
    for (int i = 0; i < written->count; i++) {
        if (!same_stack_moved(written->unwind[i], unwind, &shift)) continue;
        scr_json_key(w, "frames_as");
        scr_json_u64(w, (uint64_t)written->index[i]);
        scr_json_key(w, "frames_sp_shift");
        scr_json_hex(w, shift);
        scr_report_write_stack_limits(w, unwind);
        return;
    }
    if (written->count < SCR_STACKS_KEPT && unwind->count > 0) {
        written->index[written->count] = index;
        written->unwind[written->count] = unwind;
        written->count++;
    }
    scr_report_write_frames(w, unwind);
}

// Async-signal-safe: writer calls only. A thread that answered: its registers, frames and async
// members.
static void write_captured(scr_writer *w, const scr_registers *registers, const scr_unwind_result *unwind, int index,
                           scr_stacks_written *written) {
    scr_json_key(w, "registers");
    scr_registers_write_saved(w, registers);
    write_stack(w, unwind, index, written);
    scr_report_write_async(w, unwind);
}

// Async-signal-safe: writer calls only. A thread that did not answer: no registers, no frames,
// and why in `unwind_error`.
static void write_silent(scr_writer *w, const scr_thread_slot *slot) {
    scr_json_key(w, "registers");
    scr_json_null(w);
    scr_unwind_result none = {.error = slot->error != NULL ? slot->error : "no_answer"};
    scr_report_write_frames(w, &none);
}

// Async-signal-safe: writer calls, and reads of each slot once it is settled (DONE or ABANDONED:
// no thread writes it any more), waiting for it first (bounded, threads.c).
void scr_report_write_threads(scr_writer *w, const scr_crashed_thread *crashed, pid_t main_tid) {
    scr_stacks_written written = {.count = 0};
    int index = 0;
    scr_json_array_begin(w);
    if (crashed != NULL) {
        scr_json_object_begin(w);
        write_head(w, crashed->tid, crashed->name, true, main_tid);
        write_captured(w, &crashed->registers, &crashed->unwind, index++, &written);
        scr_json_object_end(w);
    }
    int count = scr_threads_count();
    for (int i = 0; i < count; i++, index++) {
        scr_threads_wait_slot(i);
        const scr_thread_slot *slot = scr_threads_slot(i);
        int state = atomic_load_explicit(&slot->state, memory_order_acquire);
        scr_json_object_begin(w);
        write_head(w, atomic_load(&slot->tid), slot->name, false, main_tid);
        if (state == SCR_SLOT_DONE) {
            write_captured(w, &slot->registers, &slot->unwind, index, &written);
        } else {
            write_silent(w, slot);
        }
        scr_json_object_end(w);
    }
    scr_json_array_end(w);
}

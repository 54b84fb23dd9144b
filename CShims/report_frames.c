// A thread's frames in the report (docs/report-schema.md, "A frame" and "An async frame"): one
// writer for a frame, which the synchronous frames and the async resume points share, and the
// `frames` members of a thread, which the `crash` object and every entry of `threads` share.
#include "internal.h"

// Async-signal-safe: writer calls and scr_images_find. One frame: `ip`, `sp`, `trust` and
// `image` (the index in `images`, -1 for none).
void scr_report_write_frame(scr_writer *w, const scr_frame *frame, const char *trust) {
    scr_json_object_begin(w);
    scr_json_key(w, "ip");
    scr_json_hex(w, frame->ip);
    scr_json_key(w, "sp");
    scr_json_hex(w, frame->sp);
    scr_json_key(w, "trust");
    scr_json_cstring(w, trust, 7);
    scr_json_key(w, "image");
    scr_json_i64(w, scr_images_find(frame->ip));
    scr_json_object_end(w);
}

// Async-signal-safe: as scr_report_write_frame. `frames`, then the members that follow it
// (scr_report_write_stack_limits), of one thread.
void scr_report_write_frames(scr_writer *w, const scr_unwind_result *unwind) {
    scr_json_key(w, "frames");
    scr_json_array_begin(w);
    for (int i = 0; i < unwind->count; i++) {
        scr_report_write_frame(w, &unwind->frames[i], i == 0 ? "context" : "cfi");
    }
    scr_json_array_end(w);
    scr_report_write_stack_limits(w, unwind);
}

// Async-signal-safe: writer calls only. `frames_truncated`, `frames_omitted`,
// `frames_omitted_at` and `unwind_error` of one thread.
void scr_report_write_stack_limits(scr_writer *w, const scr_unwind_result *unwind) {
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

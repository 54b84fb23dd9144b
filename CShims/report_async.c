// A thread's Swift async members in the report (docs/report-schema.md, "A thread"): the resume
// points of its async context chain, where they go among its frames, how many were left out,
// and the task it ran. Each is written only when the handler found it.
#include "internal.h"

// Async-signal-safe: writer calls only.
static void write_task(scr_writer *w, const scr_task_info *task) {
    scr_json_key(w, "task");
    scr_json_object_begin(w);
    scr_json_key(w, "id");
    scr_json_u64(w, task->id);
    scr_json_key(w, "name");
    if (task->has_name) {
        scr_json_cstring(w, task->name, SCR_TASK_NAME_MAX);
    } else {
        scr_json_null(w);
    }
    scr_json_key(w, "priority");
    if (task->priority >= 0 && task->priority <= 255) {
        scr_json_u64(w, (uint64_t)task->priority);
    } else {
        scr_json_null(w);
    }
    scr_json_object_end(w);
}

// Async-signal-safe: writer calls only.
void scr_report_write_async(scr_writer *w, const scr_unwind_result *unwind) {
    const scr_async_chain *chain = &unwind->async;
    if (chain->count > 0) {
        scr_json_key(w, "async_frames");
        scr_json_array_begin(w);
        for (int i = 0; i < chain->count; i++) {
            const scr_frame *frame = &chain->room->frames[i];
            scr_json_object_begin(w);
            scr_json_key(w, "ip");
            scr_json_hex(w, frame->ip);
            scr_json_key(w, "sp");
            scr_json_hex(w, frame->sp);
            scr_json_key(w, "trust");
            scr_json_cstring(w, "async", 5);
            scr_json_key(w, "image");
            scr_json_i64(w, scr_images_find(frame->ip));
            scr_json_object_end(w);
        }
        scr_json_array_end(w);
        scr_json_key(w, "async_frames_at");
        scr_json_u64(w, (uint64_t)chain->at);
        scr_json_key(w, "async_frames_omitted");
        scr_json_u64(w, chain->omitted);
    }
    if (chain->task.present) write_task(w, &chain->task);
}

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

// Async-signal-safe: writer calls and scr_report_write_frame.
void scr_report_write_async(scr_writer *w, const scr_unwind_result *unwind) {
    const scr_async_chain *chain = &unwind->async;
    if (chain->count > 0) {
        scr_json_key(w, "async_frames");
        scr_json_array_begin(w);
        for (int i = 0; i < chain->count; i++) scr_report_write_frame(w, &chain->room->frames[i], "async");
        scr_json_array_end(w);
        scr_json_key(w, "async_frames_at");
        scr_json_u64(w, (uint64_t)chain->at);
        scr_json_key(w, "async_frames_omitted");
        scr_json_u64(w, chain->omitted);
    }
    if (chain->task.present) write_task(w, &chain->task);
}

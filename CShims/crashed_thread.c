// The crashing thread, read by itself in the handler: its name, its registers and its stack
// from the signal's context, with the Swift async chain beside it. The other threads capture
// themselves (threads.c).
#include "internal.h"

#include <sys/prctl.h>

static struct {
    scr_crashed_thread thread;
    scr_frame frames[SCR_MAX_FRAMES];
    scr_async_room async_room; // the Swift async chain (async_frames.c)
} g_crashed;

// Async-signal-safe.
size_t scr_crashed_thread_reserved_bytes(void) { return sizeof g_crashed; }

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

// Async-signal-safe: the unwinder under the guard. The innermost frames and, past
// SCR_MAX_FRAMES, the outermost quarter (a deep recursion then still shows where it started).
static void unwind(const void *ucontext) {
    unwind_job job = {.ucontext = ucontext};
    scr_unwind_reset(&job.result, g_crashed.frames, SCR_MAX_FRAMES, SCR_MAX_FRAMES / 4);
    scr_async_scan scan;
    job.result.async.room = &g_crashed.async_room;
    job.result.async.scan = &scan;
    if (!scr_guarded(run_unwind, &job)) {
        job.result.error = "fault"; // the frames gathered before the fault are kept
    }
    scr_unwind_finish(&job.result);
    if (!scr_guarded(run_async_walk, &job.result)) job.result.async.count = 0; // a chain cut by a fault is not one
    if (job.result.async.count > 0) (void)scr_guarded(run_task_read, &job.result.async);
    job.result.async.scan = NULL; // this stack frame's
    if (job.result.count == 0) {
        // The unwinder faulted or never reached the signal frame: frame 0 still comes from the context.
        g_crashed.frames[0].ip = scr_context_ip(ucontext);
        g_crashed.frames[0].sp = scr_context_sp(ucontext);
        job.result.count = 1;
        job.result.omitted_at = 1;
    }
    g_crashed.thread.unwind = job.result;
}

// Async-signal-safe: prctl(PR_GET_NAME), reads of the context, the guarded unwind above.
const scr_crashed_thread *scr_crashed_thread_capture(const void *ucontext) {
    scr_crashed_thread *thread = &g_crashed.thread;
    thread->tid = scr_gettid();
    prctl(PR_GET_NAME, thread->name, 0, 0, 0);
    scr_registers_save(ucontext, &thread->registers);
    unwind(ucontext);
    return thread;
}

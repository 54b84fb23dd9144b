// Stack unwinding with the system unwinder: libgcc_s's `_Unwind_Backtrace`, which reads DWARF
// call-frame information, so that release builds without frame pointers still give the
// whole stack.
//
// Every Swift process already loads libgcc_s (libswiftCore and libstdc++ need it), so the
// reporter adds no library for it. With glibc 2.35 or later libgcc finds an address's unwind
// tables with `_dl_find_object`, which takes no lock; docs/signal-safety.md ("Unwinding") goes
// through the path call by call and says when it can lock after all.
//
// The handler calls `_Unwind_Backtrace` from where it runs. The first frames it reports are
// the handler's own; then comes the kernel's signal trampoline, whose call-frame information
// (from glibc) restores the registers the kernel saved, so the next frame is the interrupted
// one: its IP is the ucontext's IP and `_Unwind_GetIPInfo` says it is a signal frame (the IP
// is the faulting instruction, not a return address). That frame becomes frame 0, taken from
// the context as before; every frame after it is a caller, with its return address as `ip`
// and its stack pointer (the canonical frame address of its callee) as `sp`.
#include "internal.h"

#include <unwind.h>

typedef struct walk {
    uintptr_t context_ip;
    uintptr_t context_sp;
    scr_unwind_result *result;
    bool found;   // the interrupted frame has been reached
    bool reached_end; // the outermost frame's caller (return address 0) was reported
    uint32_t steps;
} walk;

// A damaged stack could make the walk go round forever; no real stack is this deep.
#define SCR_UNWIND_STEP_LIMIT (1u << 21)

// DWARF numbers of the frame pointer and of the register Swift passes the async context in
// (`swiftasync`): rbp and r14 on x86_64, x29 and x22 on arm64 (docs/async-capture.md).
#if defined(__x86_64__)
#define SCR_DWARF_FP 6
#define SCR_DWARF_ASYNC_CONTEXT 14
#elif defined(__aarch64__)
#define SCR_DWARF_FP 29
#define SCR_DWARF_ASYNC_CONTEXT 22
#endif

// Async-signal-safe: reads two registers of the frame `context` describes from the unwinder's
// context (where libgcc found them saved, or the signal's ucontext for the interrupted frame).
static void keep_async_registers(struct _Unwind_Context *context, scr_unwind_result *result, int index) {
#if defined(SCR_DWARF_FP)
    if (result->async.scan == NULL || index >= SCR_ASYNC_SCAN_FRAMES) return;
    scr_async_keep_registers(&result->async, index, (uintptr_t)_Unwind_GetGR(context, SCR_DWARF_FP),
                             (uintptr_t)_Unwind_GetGR(context, SCR_DWARF_ASYNC_CONTEXT));
#else
    (void)context;
    (void)result;
    (void)index;
#endif
}

// Async-signal-safe: reads the unwinder's context and writes into the caller's array.
// Called by `_Unwind_Backtrace` once per frame, innermost first.
static _Unwind_Reason_Code on_frame(struct _Unwind_Context *context, void *arg) {
    walk *w = arg;
    scr_unwind_result *result = w->result;
    int signal_frame = 0;
    uintptr_t ip = (uintptr_t)_Unwind_GetIPInfo(context, &signal_frame);
    if (!w->found) {
        // One of the handler's own frames (or the trampoline) until the interrupted one.
        if (!signal_frame || ip != w->context_ip) return _URC_NO_REASON;
        w->found = true;
        result->frames[0].ip = w->context_ip;
        result->frames[0].sp = w->context_sp;
        result->count = 1;
        keep_async_registers(context, result, 0);
        return _URC_NO_REASON;
    }
    if (ip == 0) {
        // The outermost frame (`_start`, `clone3`) marks its return address undefined.
        w->reached_end = true;
        return _URC_NO_REASON;
    }
    if (++w->steps > SCR_UNWIND_STEP_LIMIT) {
        result->truncated = true;
        return _URC_END_OF_STACK; // any code but _URC_NO_REASON stops the walk
    }
    scr_frame frame = {.ip = ip, .sp = (uintptr_t)_Unwind_GetCFA(context)};
    int inner = result->max - result->outer;
    if (result->count < inner) {
        keep_async_registers(context, result, result->count);
        result->frames[result->count++] = frame;
        return _URC_NO_REASON;
    }
    if (result->outer == 0) {
        result->truncated = true;
        return _URC_END_OF_STACK;
    }
    // Past the innermost frames: the ring keeps the newest `outer`, which end as the outermost.
    result->frames[inner + (int)(result->ring_seen % (uint64_t)result->outer)] = frame;
    result->ring_seen++;
    if (result->count < result->max) result->count++;
    return _URC_NO_REASON;
}

// Async-signal-safe: pure computation. Reverses frames[from, to).
static void reverse(scr_frame *frames, int from, int to) {
    for (int i = from, k = to - 1; i < k; i++, k--) {
        scr_frame t = frames[i];
        frames[i] = frames[k];
        frames[k] = t;
    }
}

// Async-signal-safe: pure computation.
void scr_unwind_reset(scr_unwind_result *result, scr_frame *frames, int max, int outer) {
    result->frames = frames;
    result->max = max;
    result->outer = outer > 0 && outer < max ? outer : 0;
    result->count = 0;
    result->ring_seen = 0;
    result->truncated = false;
    result->omitted = 0;
    result->omitted_at = 0;
    result->error = NULL;
    result->async.scanned = 0;
    result->async.count = 0;
    result->async.at = 0;
    result->async.omitted = 0;
    result->async.task.present = false;
}

// Async-signal-safe: pure computation. When the ring went round, its oldest entry (the
// innermost of the frames it kept) is at the write position; rotating by three reversals
// puts it first without a second buffer.
void scr_unwind_finish(scr_unwind_result *result) {
    int inner = result->max - result->outer;
    result->omitted_at = result->count;
    if (result->outer == 0 || result->ring_seen <= (uint64_t)result->outer) return;
    int start = (int)(result->ring_seen % (uint64_t)result->outer);
    reverse(result->frames, inner, inner + start);
    reverse(result->frames, inner + start, result->max);
    reverse(result->frames, inner, result->max);
    uint64_t omitted = result->ring_seen - (uint64_t)result->outer;
    result->omitted = omitted > INT32_MAX ? INT32_MAX : (int)omitted;
    result->omitted_at = inner;
    result->truncated = true;
}

// Async-signal-safe once `scr_unwinder_prepare` has run (see docs/signal-safety.md).
void scr_unwind(const void *ucontext, scr_unwind_result *result) {
    walk w = {
        .context_ip = scr_context_ip(ucontext),
        .context_sp = scr_context_sp(ucontext),
        .result = result,
        .found = false,
        .reached_end = false,
        .steps = 0,
    };
    _Unwind_Reason_Code code = _Unwind_Backtrace(on_frame, &w);
    if (!w.found) {
        result->error = "init_failed"; // the signal frame was never reached
    } else if (!result->truncated && !(code == _URC_END_OF_STACK && w.reached_end)) {
        // A frame without call-frame information, or information the unwinder could not use,
        // before the outermost frame.
        result->error = "step_failed";
    }
}

// Not async-signal-safe (the first unwind initialises libgcc's register table under
// pthread_once and binds the lazy PLT entries of the unwinder's calls, _Unwind_GetGR's too); called once at
// install so that the handler finds all of it done. The walk stops two frames up, in the C core
// (this function and scr_install): each frame further up is an unwind-table lookup elsewhere in
// the binary, and every page it reads stays resident in an idle service for nothing
// (docs/benchmarks.md, "Footprint").
void scr_unwinder_prepare(void) {
    scr_frame frames[3];
    scr_async_scan scan; // so that _Unwind_GetGR is bound too
    scr_unwind_result result = {.async = {.scan = &scan}};
    scr_unwind_reset(&result, frames, 3, 0);
    walk w = {.context_ip = 0, .context_sp = 0, .result = &result, .found = true, .reached_end = false, .steps = 0};
    result.count = 1; // nothing to find here: every frame counts
    (void)_Unwind_Backtrace(on_frame, &w);
}

// The Swift async functions awaiting the one a thread runs: the async context chain beside its
// stack (docs/async-capture.md has the runtime's layout and how it was read).
//
// A Swift async function runs as a chain of partial functions that tail-call each other, so
// the synchronous stack holds one frame of async code per job: the partial function the
// executor called (from the concurrency runtime's job loop), and whatever synchronous code it
// called. The functions that await it are on no stack; each one's resume point is in the
// async context of the function it awaits: context->ResumeParent (word 1), and its own
// context is context->Parent (word 0). The chain ends with Parent == NULL in the task's
// initial context, whose ResumeParent is the runtime's task-completion function.
//
// Finding the first context. The unwinder keeps, for each of the first frames, its frame
// pointer and its async context register (r14 / x22: Swift passes the context there) as they
// were while that frame ran. A frame is a candidate when the frame above it (its caller) is in
// the concurrency runtime, the executor that called into the task; it offers two contexts:
//   - its frame record's: an async function that keeps a frame (any debug build, and -O code
//     that calls out) lays it out as [fp] = the caller's fp, [fp + 8] = the return address,
//     [fp - 8] = its async context, with fp = CFA - 16 (its canonical frame address, which is
//     the next frame's `sp`). On Linux the saved fp has no async bit (bit 60 is set only for
//     Apple's targets), so the frame record alone does not say "async": the chain's validation
//     below does;
//   - its async context register: a partial function without a frame (a leaf at -O) still has
//     its context in r14 / x22.
// Frame records are tried first over every candidate frame, then registers. The first context
// whose whole chain validates is the chain; `at` is its frame's index.
//
// Validation (a runtime with another layout, or a register holding something else, gives no
// async frames, never a crash): each context non-null, 8-byte aligned and in the user address
// range; its resume point inside a loaded image; no context its own parent; the chain ends
// (Parent == NULL) within SCR_ASYNC_STEP_LIMIT contexts, and its last resume point is in the
// concurrency runtime's image (the task-completion function). Reads run guarded (the caller's
// jump): a fault costs the chain, not the frames.
#include "internal.h"

// Contexts walked at most per candidate: the hard bound that async_frames_omitted counts up to.
#define SCR_ASYNC_STEP_LIMIT 16384u
// Above the user address range on x86_64 (57-bit with five-level paging) and arm64 (52-bit);
// below the lowest address Linux maps by default (vm.mmap_min_addr): a small integer in a
// register is not read.
#define SCR_USER_ADDRESS_END ((uintptr_t)1 << 57)
#define SCR_USER_ADDRESS_START ((uintptr_t)1 << 16)

// Async-signal-safe: one word of memory the process does not own (an async context), read
// without the sanitizers' instrumentation: a candidate may point anywhere, and the fault it
// may raise is the guard's to catch.
__attribute__((no_sanitize("address", "thread"), noinline)) static uintptr_t read_word(uintptr_t address) {
    return __atomic_load_n((const uintptr_t *)address, __ATOMIC_RELAXED);
}

// Async-signal-safe: stores two values into the capturing thread's scan.
void scr_async_keep_registers(scr_async_chain *chain, int index, uintptr_t fp, uintptr_t context_register) {
    chain->scan->registers[2 * index] = fp;
    chain->scan->registers[2 * index + 1] = context_register;
    if (index + 1 > chain->scanned) chain->scanned = index + 1;
}

// Async-signal-safe: pure computation.
static bool plausible_context(uintptr_t context) {
    return (context & 7u) == 0 && context >= SCR_USER_ADDRESS_START && context < SCR_USER_ADDRESS_END;
}

// Async-signal-safe; reads contexts (guarded by the caller). Walks the chain from `context` into
// `chain` and keeps it when it validates; leaves `chain` empty otherwise.
static bool walk_chain(scr_async_chain *chain, uintptr_t context, int runtime) {
    chain->count = 0;
    chain->omitted = 0;
    uintptr_t last_resume = 0;
    for (uint32_t steps = 0; context != 0; steps++) {
        if (steps >= SCR_ASYNC_STEP_LIMIT || !plausible_context(context)) goto invalid;
        uintptr_t parent = read_word(context);
        uintptr_t resume = read_word(context + sizeof(uintptr_t));
        if (resume == 0 || parent == context || scr_images_find(resume) < 0) goto invalid;
        if (chain->count < SCR_MAX_ASYNC_FRAMES) {
            chain->room->frames[chain->count++] = (scr_frame){.ip = resume, .sp = context};
        } else {
            chain->omitted++;
        }
        last_resume = resume;
        context = parent;
    }
    if (chain->count > 0 && scr_images_find(last_resume) == runtime) return true;
invalid:
    chain->count = 0;
    chain->omitted = 0;
    return false;
}

// Async-signal-safe: pure computation over the finished unwind. Whether frame `i` was called by
// the concurrency runtime (the executor running a job) and is not itself runtime code.
static bool called_by_runtime(const scr_unwind_result *unwind, int i, int runtime) {
    // frames[i + 1] is frame i's caller only before the frames left out (scr_unwind_finish).
    int in_order = unwind->omitted > 0 ? unwind->omitted_at : unwind->count;
    if (i + 1 >= in_order || scr_images_find(unwind->frames[i + 1].ip) != runtime) return false;
    // With the runtime linked into the executable (--static-swift-stdlib), every caller in the
    // executable counts: the validation of the chain then decides alone.
    return scr_swift_runtime_in_executable() || scr_images_find(unwind->frames[i].ip) != runtime;
}

// Async-signal-safe; reads the stack and contexts, guarded by the caller (see the file's comment).
// Call it after scr_unwind_finish.
void scr_async_walk(scr_unwind_result *unwind) {
    scr_async_chain *chain = &unwind->async;
    chain->count = 0;
    chain->omitted = 0;
    int runtime = scr_swift_runtime_image();
    if (chain->room == NULL || chain->scan == NULL || runtime < 0) return;
    int scanned = chain->scanned < unwind->count ? chain->scanned : unwind->count;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < scanned; i++) {
            if (!called_by_runtime(unwind, i, runtime)) continue;
            uintptr_t context;
            if (pass == 0) {
                uintptr_t fp = chain->scan->registers[2 * i];
                uintptr_t cfa = unwind->frames[i + 1].sp; // the canonical frame address of frame i
                if (fp == 0 || fp != cfa - 2 * sizeof(uintptr_t)) continue;
                context = read_word(fp - sizeof(uintptr_t)); // inside frame i, on this stack
            } else {
                context = chain->scan->registers[2 * i + 1];
            }
            if (walk_chain(chain, context, runtime)) {
                chain->at = i;
                return;
            }
        }
    }
}

// Noticing the first use of Swift's cooperative pool.
//
// The executor watch (CrashReporter's ExecutorWatch) keeps a heartbeat for the cooperative pool
// that a tiny job on the pool ticks. A program that never uses the pool should not pay for
// watching it: a job enqueued on the pool starts a pool thread (and its stack) in a program that
// never had one, every such thread is captured into each report, and the heartbeat wakes the
// monitor four times per hang timeout. So the watch begins without the pool's heartbeat, and this
// file tells it when the pool is used first.
//
// The concurrency runtime exports a hook variable, `swift_task_enqueueGlobal_hook`: when it is
// set, the runtime calls it with each job bound for the pool and the function that would have run
// without it. `scr_pool_hook_install` sets it to a function that notes the use, wakes the monitor
// (which waits without a timeout while no heartbeat exists), takes itself out again and hands the
// job on: to the hook that was set before, else to the runtime's own function. It runs once;
// every later enqueue pays nothing. A hook set by someone else after ours is left in place (ours
// is then called through it, and costs one relaxed load).
//
// The hook variable is referenced weakly: without the concurrency runtime (no variable), the pool
// counts as used, as the watch did before it had the hook. The hook's signature uses the Swift
// calling convention (the runtime declares it SWIFT_CC(swift)).
#include "internal.h"

#include <stdatomic.h>

// The Swift calling convention, which clang (the toolchain's, which builds this target) knows; the
// call-graph check's compiler reads the file without it.
#if defined(__clang__)
#define SCR_SWIFTCC __attribute__((swiftcall))
#else
#define SCR_SWIFTCC
#endif

typedef void (*scr_job_run_fn)(void *job) SCR_SWIFTCC;
typedef void (*scr_enqueue_hook_fn)(void *job, scr_job_run_fn original) SCR_SWIFTCC;

extern scr_enqueue_hook_fn swift_task_enqueueGlobal_hook __attribute__((weak));

static scr_enqueue_hook_fn g_previous_hook; // what the variable held before ours
static _Atomic bool g_pool_used;

// Async-signal-safe (atomics, write(2); then the next hook or the runtime's function), as an
// enqueue may run anywhere.
SCR_SWIFTCC static void on_enqueue(void *job, scr_job_run_fn original) {
    if (!atomic_load_explicit(&g_pool_used, memory_order_relaxed) &&
        !atomic_exchange_explicit(&g_pool_used, true, memory_order_acq_rel)) {
        scr_enqueue_hook_fn expected = on_enqueue;
        __atomic_compare_exchange_n(&swift_task_enqueueGlobal_hook, &expected, g_previous_hook, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
        scr_monitor_wake();
    }
    if (g_previous_hook != NULL) g_previous_hook(job, original);
    else original(job);
}

// Not async-signal-safe by intent (it changes the runtime's hook); ExecutorWatch calls it once,
// after the monitor has started.
void scr_pool_hook_install(void) {
    if (&swift_task_enqueueGlobal_hook == NULL) {
        atomic_store(&g_pool_used, true);
        return;
    }
    g_previous_hook = __atomic_load_n(&swift_task_enqueueGlobal_hook, __ATOMIC_ACQUIRE);
    __atomic_store_n(&swift_task_enqueueGlobal_hook, on_enqueue, __ATOMIC_RELEASE);
}

// Async-signal-safe (one atomic load).
int scr_pool_used(void) { return atomic_load_explicit(&g_pool_used, memory_order_acquire) ? 1 : 0; }

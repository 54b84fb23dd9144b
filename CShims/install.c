// Installing the reporter: scr_install() prepares everything the handler touches, in memory
// reserved now, and then installs the handler (handler.c) for SIGSEGV, SIGBUS, SIGABRT,
// SIGILL, SIGTRAP and SIGFPE, keeping the actions that were there (chain.c); then the
// capture signal (threads.c) and the monitor thread (monitor.c). What each
// preparation is for: docs/signal-safety.md, "What start() prepares".
//
// Flags. SA_SIGINFO for the siginfo (code, fault address) and the ucontext (registers, the
// start of the unwind). SA_ONSTACK so that a stack overflow still has a stack to run on.
// SA_NODEFER so that a fault inside the handler reaches it again instead of killing the
// process with a different signal; the handler tells that case apart by thread id.
#include "internal.h"

#include <string.h>

static _Atomic int g_installed;

// Async-signal-safe.
int scr_is_installed(void) { return atomic_load_explicit(&g_installed, memory_order_acquire); }

// Not async-signal-safe (it allocates, reads files and warms the unwinder up); called once.
int scr_install(const scr_config *config) {
    if (config == NULL || config->pending_dir == NULL || config->pending_dir[0] != '/') return SCR_ERR_BAD_CONFIG;
    if (config->report_suffix == NULL || config->temporary_suffix == NULL || config->failed_suffix == NULL) {
        return SCR_ERR_BAD_CONFIG;
    }
    if (config->breadcrumb_capacity > SCR_MAX_BREADCRUMBS) return SCR_ERR_BAD_CONFIG;
    if (scr_is_installed()) return SCR_ERR_ALREADY_INSTALLED;
    int r = scr_report_prepare(config);
    if (r != SCR_OK) return r;
    if (scr_breadcrumbs_configure(config->breadcrumb_capacity) != 0) return SCR_ERR_NO_MEMORY;
    if (scr_gzip_reserve() != 0) return SCR_ERR_NO_MEMORY;
    if (scr_images_capture(config->home_dir) != 0) return SCR_ERR_NO_MEMORY;
    scr_async_prepare(); // needs the images
    scr_unwinder_prepare();
    if (scr_thread_prepare() != 0) return SCR_ERR_NO_MEMORY;
    r = scr_threads_prepare(config);
    if (r != SCR_OK) return r;
    scr_core_dump_prepare(); // before the handler stands: a crash at once knows whether a dump follows

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = scr_handle_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    if (scr_chain_install(&action) != 0) return SCR_ERR_SIGACTION;
    scr_altstack_enable();          // threads started from now on get an alternate stack
    scr_threads_prepare_existing(); // and the ones running already get theirs now
    atomic_store_explicit(&g_installed, 1, memory_order_release);
    // Last: the crash handlers stand even when the monitor cannot start (no snapshots then).
    (void)scr_monitor_start(config);
    return SCR_OK;
}

// Not async-signal-safe (it compresses, opens a file); start()'s background thread calls it once
// the handlers stand. Does what a crash would otherwise do first itself (the monitor lists the
// threads again at each wake).
void scr_ready_crash_path(void) {
    if (!scr_is_installed()) return;
    scr_gzip_warm();
    scr_report_files_make_ahead();
    scr_tasks_keep_listed();
}

// Async-signal-safe.
size_t scr_reserved_bytes(void) {
    return scr_ring_reserved_bytes() + scr_gzip_reserved_bytes() + scr_images_reserved_bytes() +
           scr_report_reserved_bytes() + scr_reserved_thread_bytes() + scr_altstack_size() +
           scr_stderr_copy_reserved_bytes() + scr_termination_log_reserved_bytes();
}

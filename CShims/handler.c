// The signal handler.
//
// Flow. install.c prepares everything the handler touches and installs this handler with
// SA_SIGINFO, SA_ONSTACK and SA_NODEFER (it says why). The handler claims the report, arms
// a watchdog, writes the report (report.c), marks the run crashed (run_record.c), writes the
// summary line and the report's copy to standard error (stderr_copy.c), and hands the signal on.
//
// Faults that are not crashes. A thread that faults while it unwinds itself for a capture
// (threads.c) jumps back into its capture handler; a thread that faults in guarded code while
// writing a report (a snapshot on the monitor thread, or the crash's own report) jumps back
// into the guard. Both are asked before anything else.
//
// First crash wins. The first thread claims the handler with a compare-and-swap of its
// thread id. Another thread that faults meanwhile sleeps (nanosleep) until the first one
// has ended the process, and dies of its own signal if that takes too long. A fault in the
// owner thread while it runs guarded code (reading the stack or the runtime's message,
// guard.c) jumps back and the report goes on with what it has; any other fault there kills
// the process with the original signal. An alarm(2) watchdog does the same if the report
// takes too long (for instance a lock held by a thread that will never run again).
//
// Chaining. After writing, the previous actions are restored (chain.c) and the signal goes
// on to them: a fault that the CPU raised (si_code > 0) is simply returned from, so that the
// instruction faults again and reaches the previous handler (or the default action) with
// its own context; a signal sent by a process (abort's tgkill) or an x86 int3 (which does
// not repeat) is sent again to this thread before returning. Either way the process dies
// of the same signal as without the reporter, with a core dump where they are enabled,
// and a handler installed before us (Swift's backtracer) still runs.
#include "internal.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SCR_WAIT_FOR_OWNER_MS 30000
#define SCR_WATCHDOG_SECONDS 10

static struct {
    _Atomic pid_t owner;        // thread id of the thread writing the report, 0 before
    _Atomic int signal;         // the signal being reported
    struct sigaction previous_alarm;
} g_handler;

// Async-signal-safe. The watchdog: the report took too long.
static void on_alarm(int sig) {
    (void)sig;
    int original = atomic_load(&g_handler.signal);
    scr_die_of_default(original != 0 ? original : SIGABRT);
}

// Async-signal-safe: the signal handler itself.
void scr_handle_signal(int sig, siginfo_t *info, void *ucontext) {
    int saved_errno = errno;
    scr_profile_mark(SCR_PROFILE_ENTERED);
    pid_t tid = scr_gettid();
    scr_threads_escape_if_unwinding(tid);
    if (scr_guard_active(tid)) scr_guard_escape();
    pid_t expected = 0;
    if (!atomic_compare_exchange_strong(&g_handler.owner, &expected, tid)) {
        if (expected == tid) scr_die_of_default(atomic_load(&g_handler.signal)); // a fault inside our own handler
        // Another thread is writing the report; it will end the process.
        for (long waited = 0; waited < SCR_WAIT_FOR_OWNER_MS; waited += 10) scr_sleep_us(10000);
        scr_die_of_default(sig);
    }
    atomic_store(&g_handler.signal, sig);

    struct sigaction watchdog;
    memset(&watchdog, 0, sizeof watchdog);
    watchdog.sa_handler = on_alarm;
    sigaction(SIGALRM, &watchdog, &g_handler.previous_alarm);
    alarm(SCR_WATCHDOG_SECONDS);
    // Before the other threads are held: start()'s background settle may be arming the run record.
    scr_run_record_await();
    scr_profile_mark(SCR_PROFILE_CLAIMED);

    if (scr_capture_enabled()) {
        bool ends_process = scr_chain_ends_process(sig);
        // Handing the signal on ends the process with no core dump: the other threads need not wait.
        bool threads_end = ends_process && !scr_core_dump_expected();
        scr_report_request request = {
            .kind = "crash", .sig = sig, .info = info, .ucontext = ucontext, .threads_end = threads_end};
        bool written = scr_report_write(&request) == 0;
        scr_run_record_mark_crashed(written ? request.id : NULL);
        scr_profile_mark(SCR_PROFILE_RECORDED);
        // Last, once the report's file and the run record are done: a log pipe nobody drains
        // can only delay the end (stderr_copy.c).
        scr_stderr_copy_emit(sig, info, ucontext, request.id, written);
        // The other threads wait in their capture handler. When the signal then ends the process
        // they end with it (waking them first would only slow the end down); a handler before
        // ours, or an ignored signal, may let the process go on, so they go on too.
        if (!ends_process) scr_threads_release();
        if (scr_fault_injected_once(SCR_FAULT_SLOW_END)) scr_sleep_us(500000); // the test hook: look now
    } else {
        scr_run_record_mark_crashed(NULL);
    }

    alarm(0);
    sigaction(SIGALRM, &g_handler.previous_alarm, NULL);
    scr_chain_restore();
    scr_profile_mark(SCR_PROFILE_CHAINING);
    scr_profile_flush(); // the benchmark's profile only (profile.c)
#if defined(__x86_64__)
    bool repeats = info->si_code > 0 && sig != SIGTRAP;
#else
    bool repeats = info->si_code > 0;
#endif
    if (!repeats) {
        // Pending until we return: the previous action then gets it with its own context.
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        sigprocmask(SIG_BLOCK, &set, NULL);
        syscall(SYS_tgkill, getpid(), tid, sig);
    }
    errno = saved_errno;
}

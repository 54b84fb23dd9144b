// Capturing every other thread of the process, from inside it, without ptrace.
//
// Install picks a real-time signal nobody handles (the highest one whose action is SIG_DFL and that
// can be sent: can_send), installs on_capture for it and reserves one slot per thread (up to the
// configured maximum) with room for its frames. To capture, the thread writing a report lists
// /proc/self/task (tasks.c), gives each other thread a slot (its id, state REQUESTED) and sends
// the signal with tgkill, helped by the threads that answer: each sends it to two more before it
// captures itself (signal_next). Each thread runs on_capture on its own alternate stack: it claims
// its slot (REQUESTED -> CAPTURING), saves its registers from the signal's ucontext, reads its name
// and unwinds its own stack from there into the slot, and marks it DONE. The writer takes the
// slots in order, each as soon as it is DONE (so it writes the first threads while the later ones
// still unwind), until the time bound passes; a slot still REQUESTED then is ABANDONED (a late
// signal finds no slot and returns), and /proc/self/task/<tid>/status says why the thread did not
// answer: the signal blocked, or the thread stopped.
//
// For a crash the threads stay in on_capture (`hold`) until the report is written, so that
// none of them changes what the report shows or ends the process meanwhile; when handing the
// signal on ends the process with no core dump (core_dump.c), each ends itself instead as soon
// as its slot is settled (SCR_THEN_END, decision 0182). For a snapshot each returns as soon as
// its stack is read. A fault while a thread unwinds itself (a damaged stack) reaches the crash
// handler, which asks scr_threads_escape_if_unwinding first: the thread jumps back into
// on_capture, its slot says "fault", and it goes on.
//
// The same signal, in the PREPARE mode, hands each thread that was running before install an
// alternate stack mapped by the installing thread (altstack.c), so that a stack overflow on an
// event loop started before start() still reaches the handler.
//
// Nothing on the capture path allocates or locks: atomics, tgkill, nanosleep, clock_gettime,
// prctl, sigsetjmp/siglongjmp, the unwinder and the thread's own exit system call.
// docs/signal-safety.md goes through it.
#include "internal.h"

#include <errno.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SCR_THREADS_LIMIT 4096
#define SCR_THREAD_FRAMES_LIMIT 256
#define SCR_THREADS_TIMEOUT_LIMIT_MS 10000
#define SCR_HOLD_LIMIT_MS 15000
#define SCR_FORWARDS 2 // the threads each answering thread sends the signal to (signal_next)

enum { MODE_IDLE, MODE_CAPTURE, MODE_PREPARE };

static struct {
    int signal;
    uint32_t max_threads;
    uint32_t max_frames;
    uint32_t timeout_ms;
    scr_thread_slot *slots;
    scr_frame *frames;
    scr_async_room *async_rooms; // one per slot: room for its async chain (async_frames.c)
    pid_t *found; // the ids listed, before they get slots
    size_t mapped;
    _Atomic int mode;
    _Atomic int hold;
    _Atomic int then; // what a thread does once it has answered (scr_capture_then)
    _Atomic int count;
    uint32_t total;
    uint32_t omitted;
    pid_t self;
    _Atomic pid_t pid; // this process, for tgkill (set for each request: a forked child has its own)
    uint64_t first_signal_ns;
    _Atomic uint64_t last_resumed_ns; // when the latest thread left on_capture
    _Atomic int answered;             // threads done with their slot (the writer sleeps on it)
    _Atomic int to_signal;            // the slots whose threads are to be sent the signal (signal_next)
    _Atomic int unsignalled;          // the first of them whose thread has not been sent it yet
    _Atomic int awaited;              // the slot the writer sleeps for, -1 when it does not sleep
    bool looked;                      // writer only: the status files were read for this request
    int progress_answers;             // writer only: `answered` when last seen to change
    uint64_t progress_ns;             // writer only: when that was (the first signal at first)
    bool settled;                     // writer only: every slot of this request is settled
} g_threads = {.awaited = -1};

// Stacks kept for threads that could not take theirs at install because their signals were
// blocked: a thread still starting up has every signal blocked by pthread_create until its first
// instruction, and under load that can outlast the look at 2 ms. The prepare signal stays pending
// and arrives once the thread unblocks it; on_capture then takes the stack kept here. A thread
// that blocks the signal for good never takes it (68 KiB each, at most SCR_LATE_STACKS).
#define SCR_LATE_STACKS 64
static struct {
    _Atomic int count;
    struct {
        _Atomic pid_t tid;
        _Atomic(void *) stack;
    } entries[SCR_LATE_STACKS];
} g_late;

// Not async-signal-safe by intent (install only), though it uses atomics only. Keeps `stack`
// for `tid`; false when the table is full.
static bool keep_late_stack(pid_t tid, void *stack) {
    int i = atomic_load(&g_late.count);
    if (i >= SCR_LATE_STACKS) return false;
    atomic_store(&g_late.entries[i].stack, stack);
    atomic_store(&g_late.entries[i].tid, tid);
    atomic_store(&g_late.count, i + 1);
    return true;
}

// Async-signal-safe (atomics): a thread whose prepare signal came late takes the stack kept for it.
static void adopt_late_stack(pid_t tid, void *ucontext) {
    int count = atomic_load(&g_late.count);
    for (int i = 0; i < count; i++) {
        if (atomic_load(&g_late.entries[i].tid) != tid) continue;
        void *stack = atomic_exchange(&g_late.entries[i].stack, NULL);
        if (stack != NULL) (void)scr_altstack_adopt(stack, ucontext); // if it has one now, this stays mapped
        return;
    }
}

// Async-signal-safe (a raw system call). Sleeps while `*word` holds `value`, until a wake or
// `deadline_ns` (CLOCK_MONOTONIC) at the latest.
static void futex_wait_until(_Atomic int *word, int value, uint64_t deadline_ns) {
    uint64_t now = scr_now_monotonic_ns();
    uint64_t left = deadline_ns > now ? deadline_ns - now : 0;
    struct timespec ts = {.tv_sec = (time_t)(left / 1000000000u), .tv_nsec = (long)(left % 1000000000u)};
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, &ts, NULL, 0);
}

// Async-signal-safe: a linear search of the slots in use.
static scr_thread_slot *slot_of(pid_t tid) {
    int count = atomic_load_explicit(&g_threads.count, memory_order_acquire);
    for (int i = 0; i < count; i++) {
        if (atomic_load_explicit(&g_threads.slots[i].tid, memory_order_relaxed) == tid) return &g_threads.slots[i];
    }
    return NULL;
}

static bool signal_next(void);

// Async-signal-safe: runs on the captured thread, on its alternate stack.
static void capture_self(scr_thread_slot *slot, void *ucontext) {
    scr_async_scan scan;
    slot->unwind.async.scan = &scan;
    prctl(PR_GET_NAME, slot->name, 0, 0, 0);
    slot->name[15] = '\0';
    scr_registers_save(ucontext, &slot->registers);
    // The mask is not saved: a fault jumps back from a nested handler whose mask is this one's.
    if (sigsetjmp(slot->jump, 0) == 0) {
        atomic_store(&slot->in_unwind, 1);
        scr_unwind(ucontext, &slot->unwind);
        scr_fault_if_injected(SCR_FAULT_IN_THREAD); // after the walk: the frames found are kept
    } else {
        slot->unwind.error = "fault"; // the frames found before the fault are kept
    }
    atomic_store(&slot->in_unwind, 0);
    scr_unwind_finish(&slot->unwind);
    slot->error = slot->unwind.error;
    // The Swift async chain and task, from the finished frames: a fault here costs only those.
    volatile bool walking = true;
    if (sigsetjmp(slot->jump, 0) == 0) {
        atomic_store(&slot->in_unwind, 1);
        scr_async_walk(&slot->unwind);
        walking = false;
        if (slot->unwind.async.count > 0) scr_task_read_current(&slot->unwind.async);
    } else if (walking) {
        slot->unwind.async.count = 0; // a chain cut by a fault is not one
    }
    atomic_store(&slot->in_unwind, 0);
    slot->unwind.async.scan = NULL; // this stack frame's
}

// Async-signal-safe: marks `slot` settled (`state`: DONE, or ABANDONED for a thread gone) and
// wakes the writer (futex) only when it sleeps for this very slot: it takes the slots in order,
// each as soon as it is settled.
static void settle(scr_thread_slot *slot, int state) {
    atomic_store(&slot->state, state);
    atomic_fetch_add(&g_threads.answered, 1);
    if (atomic_load(&g_threads.awaited) == (int)(slot - g_threads.slots)) {
        syscall(SYS_futex, &g_threads.answered, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    }
}

// Async-signal-safe: the capture signal's handler, on every thread asked.
static void on_capture(int sig, siginfo_t *info, void *ucontext) {
    (void)sig;
    int saved_errno = errno;
    // Only our own tgkill counts: another process sending this signal gets nothing done.
    if (info->si_code != SI_TKILL || info->si_pid != getpid()) {
        errno = saved_errno;
        return;
    }
    if (scr_fault_injected_once(SCR_FAULT_SLOW_CLAIM)) scr_sleep_us(20000); // the test hook: slow to claim
    pid_t self = scr_gettid();
    if (atomic_load_explicit(&g_late.count, memory_order_relaxed) > 0) adopt_late_stack(self, ucontext);
    scr_thread_slot *slot = slot_of(self);
    int expected = SCR_SLOT_REQUESTED;
    if (slot == NULL || !atomic_compare_exchange_strong(&slot->state, &expected, SCR_SLOT_CAPTURING)) {
        errno = saved_errno; // a late signal, or not ours to answer
        return;
    }
    if (atomic_load(&g_threads.mode) == MODE_PREPARE) {
        slot->stack_used = slot->stack != NULL && scr_altstack_adopt(slot->stack, ucontext);
        settle(slot, SCR_SLOT_DONE);
        errno = saved_errno;
        return;
    }
    // Two more threads sent the signal from here before this one captures itself (signal_next).
    for (int k = 0; k < SCR_FORWARDS && signal_next(); k++) {
    }
    capture_self(slot, ucontext);
    settle(slot, SCR_SLOT_DONE);
    // A crash that ends the process with no core dump: nothing is left for this thread to do, so it
    // ends now, on a core that is running it anyway, instead of sleeping until the process's end
    // wakes it once more only to end it (decision 0182). The main thread waits: its end before the
    // process's would leave a zombie leader meanwhile.
    if (atomic_load(&g_threads.then) == SCR_THEN_END && self != atomic_load(&g_threads.pid)) {
        syscall(SYS_exit, 0);
    }
    // A crash keeps everyone here until the report is written, asleep on a futex (bounded:
    // the report's own watchdog ends the process long before).
    uint64_t hold_deadline = scr_now_monotonic_ns() + (uint64_t)SCR_HOLD_LIMIT_MS * 1000000u;
    while (atomic_load(&g_threads.hold) && scr_now_monotonic_ns() < hold_deadline) {
        futex_wait_until(&g_threads.hold, 1, hold_deadline);
    }
    uint64_t resumed = scr_now_monotonic_ns();
    uint64_t latest = atomic_load(&g_threads.last_resumed_ns);
    while (latest < resumed && !atomic_compare_exchange_weak(&g_threads.last_resumed_ns, &latest, resumed)) {
    }
    errno = saved_errno;
}

// Not async-signal-safe by intent (install only), though tgkill is. Whether `sig` can be sent:
// the kernel delivers every real-time signal, but qemu-user accepts a handler for its highest
// ones, which it cannot map onto a host signal, and fails their tgkill with EINVAL
// (docs/signal-safety.md, "arm64, under qemu-user"). The signal goes to this thread, whose on_capture
// finds no slot for it and returns.
static bool can_send(int sig) {
    return syscall(SYS_tgkill, getpid(), scr_gettid(), sig) == 0 || errno != EINVAL;
}

// Not async-signal-safe (mmap, sigaction); called once at install.
int scr_threads_prepare(const scr_config *config) {
    uint32_t max_threads = config->max_threads == 0 ? 256 : config->max_threads;
    uint32_t max_frames = config->max_frames_per_thread == 0 ? 64 : config->max_frames_per_thread;
    uint32_t timeout = config->thread_timeout_ms == 0 ? 100 : config->thread_timeout_ms;
    if (max_threads > SCR_THREADS_LIMIT || max_frames > SCR_THREAD_FRAMES_LIMIT || timeout > SCR_THREADS_TIMEOUT_LIMIT_MS) {
        return SCR_ERR_BAD_CONFIG;
    }
    size_t bytes = sizeof(scr_thread_slot) * max_threads + sizeof(scr_frame) * max_threads * max_frames +
                   sizeof(scr_async_room) * max_threads + sizeof(pid_t) * max_threads;
    void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return SCR_ERR_NO_MEMORY;
    g_threads.slots = memory;
    g_threads.frames = (scr_frame *)(g_threads.slots + max_threads);
    g_threads.async_rooms = (scr_async_room *)(g_threads.frames + (size_t)max_threads * max_frames);
    g_threads.found = (pid_t *)(g_threads.async_rooms + max_threads);
    g_threads.mapped = bytes;
    g_threads.max_threads = max_threads;
    g_threads.max_frames = max_frames;
    g_threads.timeout_ms = timeout;

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_capture;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&action.sa_mask);
    int sig = scr_sigmask_free_signal();
    // Kept open in blanket masks from now on (sigmask.c), before the handler is in place.
    scr_sigmask_keep_open(sig);
    while (sig != 0) {
        if (sigaction(sig, &action, NULL) != 0) {
            scr_sigmask_keep_open(0);
            return SCR_ERR_SIGACTION;
        }
        if (can_send(sig)) break;
        // Accepted but never delivered (qemu-user's highest real-time signals): the next one down.
        struct sigaction default_action;
        memset(&default_action, 0, sizeof default_action);
        default_action.sa_handler = SIG_DFL;
        sigaction(sig, &default_action, NULL);
        sig = scr_sigmask_free_signal_below(sig);
        scr_sigmask_keep_open(sig);
    }
    if (sig == 0) return SCR_OK; // every real-time signal is taken: reports show the crashing thread only
    g_threads.signal = sig;
    return SCR_OK;
}

// Async-signal-safe.
size_t scr_reserved_thread_bytes(void) { return g_threads.mapped; }

// Async-signal-safe: a tasks.c visitor. Keeps ids up to the maximum, counts the rest.
static void collect(pid_t tid, void *arg) {
    (void)arg;
    if (tid == g_threads.self) return;
    if (g_threads.total >= g_threads.max_threads) {
        g_threads.omitted++;
        return;
    }
    g_threads.found[g_threads.total++] = tid;
}

// Async-signal-safe: pure computation (an insertion sort: at most a few hundred ids).
static void sort_ids(pid_t *ids, uint32_t n) {
    for (uint32_t i = 1; i < n; i++) {
        pid_t v = ids[i];
        uint32_t k = i;
        while (k > 0 && ids[k - 1] > v) {
            ids[k] = ids[k - 1];
            k--;
        }
        ids[k] = v;
    }
}

// Async-signal-safe for a capture (MODE_CAPTURE). Lists the other threads and gives each a
// slot; returns the slot count.
static int assign_slots(int mode) {
    // A thread still inside a slot from an earlier capture (it answered after the bound) is
    // given a moment to leave it before the slots are reused.
    int previous = atomic_load(&g_threads.count);
    for (int i = 0; i < previous; i++) {
        for (int spins = 0; atomic_load(&g_threads.slots[i].state) == SCR_SLOT_CAPTURING && spins < 200; spins++) {
            scr_sleep_us(100);
        }
    }
    atomic_store(&g_threads.count, 0);
    atomic_store(&g_threads.to_signal, 0); // a late answer from an earlier request sends nothing
    atomic_store(&g_threads.mode, mode);
    g_threads.self = scr_gettid();
    atomic_store_explicit(&g_threads.pid, getpid(), memory_order_relaxed);
    g_threads.total = 0;
    g_threads.omitted = 0;
    if (scr_tasks_each(collect, NULL) < 0) return 0;
    sort_ids(g_threads.found, g_threads.total);
    for (uint32_t i = 0; i < g_threads.total; i++) {
        scr_thread_slot *slot = &g_threads.slots[i];
        atomic_store(&slot->tid, g_threads.found[i]);
        slot->name[0] = '\0';
        slot->error = NULL;
        // Mapped before the slot is published, so that the thread reads it after its claim (install
        // only: mmap is not async-signal-safe, and a capture never prepares).
        slot->stack = mode == MODE_PREPARE ? scr_altstack_map() : NULL;
        slot->stack_used = false;
        atomic_store(&slot->in_unwind, 0);
        scr_unwind_reset(&slot->unwind, g_threads.frames + (size_t)i * g_threads.max_frames, (int)g_threads.max_frames,
                         (int)g_threads.max_frames / 4);
        slot->unwind.async.room = &g_threads.async_rooms[i];
        atomic_store(&slot->state, SCR_SLOT_REQUESTED);
    }
    atomic_store_explicit(&g_threads.count, (int)g_threads.total, memory_order_release);
    return (int)g_threads.total;
}

// How long without a new answer before the threads that cannot answer are looked up. While
// answers come in, the threads still to answer are most likely waiting for a core: with 64 of
// them on 2 cores, 2 ms after the first signal some always were, and reading each one's status
// file then cost the writer about 380 µs for nothing.
#define SCR_LOOK_AFTER_NS 2000000u

// Async-signal-safe (atomics, futex). Gives up on a slot whose thread has not claimed it. The slot
// is taken as a capture takes it (REQUESTED -> CAPTURING), so that `reason` (and `name`, unless
// NULL) are in place before the writer sees it settled; false when its thread claimed it first.
static bool give_up(scr_thread_slot *slot, const char *reason, const char *name) {
    int expected = SCR_SLOT_REQUESTED;
    if (!atomic_compare_exchange_strong(&slot->state, &expected, SCR_SLOT_CAPTURING)) return false;
    if (name != NULL) scr_strlcpy(slot->name, name, sizeof slot->name);
    slot->error = reason;
    settle(slot, SCR_SLOT_ABANDONED);
    return true;
}

// Async-signal-safe (the status file). Abandons a slot whose thread blocks the capture signal
// (and has a blocked signal waiting, the capture signal) or is stopped, saying so; leaves the
// others to answer. A thread whose mask holds the signal with nothing waiting is inside its
// handler, before its claim: the kernel blocks a signal while its handler runs, and a thread
// preempted there can stay a while.
static void give_up_if_unable(scr_thread_slot *slot) {
    char name[16];
    char state = '?';
    bool blocked = false;
    bool held_back = false;
    if (!scr_task_status(atomic_load(&slot->tid), g_threads.signal, name, &state, &blocked, &held_back)) return;
    if (!(blocked && held_back) && state != 'T' && state != 't') return;
    (void)give_up(slot, blocked ? "signal_blocked" : "stopped", name);
}

// Async-signal-safe (tgkill). Sends the capture signal to the next slot's thread that has not
// had it, if any, and says whether it did. The writer and every thread that answers share the
// sending (each answering thread sends to SCR_FORWARDS more before it captures itself), so that
// the cost of the wake-ups is spread over the cores instead of all paid on the writer's, where
// the woken threads also preempt it. A thread gone since it was listed is given up on (give_up).
static bool signal_next(void) {
    int i = atomic_fetch_add(&g_threads.unsignalled, 1);
    if (i >= atomic_load(&g_threads.to_signal)) return false;
    scr_thread_slot *slot = &g_threads.slots[i];
    pid_t tid = atomic_load(&slot->tid);
    if (scr_fault_injected_once(SCR_FAULT_THREAD_GONE)) tid = INT32_MAX; // the test hook: no such thread
    if (syscall(SYS_tgkill, atomic_load_explicit(&g_threads.pid, memory_order_relaxed), tid, g_threads.signal) != 0) {
        // Gone since it was listed; a slot whose thread answered already (a repeated signal, see
        // send_signals) is left alone.
        (void)give_up(slot, "exited", NULL);
    }
    return true;
}

// Async-signal-safe (tgkill, clock_gettime). Sends every slot's thread the capture signal, with
// the answering threads' help (signal_next).
static void send_signals(int count) {
    g_threads.first_signal_ns = scr_now_monotonic_ns();
    g_threads.looked = false;
    g_threads.settled = false;
    g_threads.progress_answers = 0;
    g_threads.progress_ns = g_threads.first_signal_ns;
    atomic_store(&g_threads.last_resumed_ns, 0);
    atomic_store(&g_threads.answered, 0);
    // The bound first, then the counter: a late answer that takes a number before the counter
    // starts again costs only a repeated signal (its thread finds its slot taken), never a slot
    // left without one.
    atomic_store(&g_threads.to_signal, count);
    atomic_store(&g_threads.unsignalled, 0);
    while (signal_next()) {
    }
}

// Async-signal-safe (the status file, nanosleep). At the time bound: abandons every slot whose
// thread has not answered and says why; a thread already inside its handler gets a moment more.
static void settle_the_rest(int count) {
    for (int i = 0; i < count; i++) {
        scr_thread_slot *slot = &g_threads.slots[i];
        int expected = SCR_SLOT_REQUESTED;
        if (!atomic_compare_exchange_strong(&slot->state, &expected, SCR_SLOT_ABANDONED)) {
            if (expected != SCR_SLOT_CAPTURING) continue;
            // Inside its handler already: it is unwinding and will be done in a moment (or being
            // given up on by the thread that found it gone, give_up).
            for (int spins = 0; atomic_load(&slot->state) == SCR_SLOT_CAPTURING && spins < 200; spins++) scr_sleep_us(100);
            if (atomic_load_explicit(&slot->state, memory_order_acquire) != SCR_SLOT_CAPTURING) continue;
            slot->error = "no_answer";
            continue;
        }
        char state = '?';
        bool blocked = false;
        if (!scr_task_status(atomic_load(&slot->tid), g_threads.signal, slot->name, &state, &blocked, NULL)) {
            slot->error = "exited";
        } else if (blocked) {
            slot->error = "signal_blocked";
        } else if (state == 'T' || state == 't') {
            slot->error = "stopped";
        } else {
            slot->error = "no_answer";
        }
    }
    g_threads.settled = true;
}

// Async-signal-safe (futex, clock_gettime, the status file). Waits until slot `index` is settled
// (its thread answered, or was given up on), asleep on the count of answers, at most the time
// bound from the first signal; at the bound every slot still open is settled at once.
static void wait_for_slot(int index) {
    int count = atomic_load_explicit(&g_threads.count, memory_order_acquire);
    uint64_t started = g_threads.first_signal_ns;
    uint64_t deadline = started + (uint64_t)g_threads.timeout_ms * 1000000u;
    uint64_t asleep_ns = 0;
    while (!g_threads.settled && index < count) {
        // The count, then the mark, then the state: an answer after the state was read either
        // changes the count (the futex does not sleep) or finds the mark (and wakes it).
        int answered = atomic_load(&g_threads.answered);
        atomic_store(&g_threads.awaited, index);
        int state = atomic_load(&g_threads.slots[index].state);
        if (state == SCR_SLOT_DONE || state == SCR_SLOT_ABANDONED) break;
        uint64_t now = scr_now_monotonic_ns();
        if (now >= deadline) {
            settle_the_rest(count);
            break;
        }
        if (answered != g_threads.progress_answers) {
            g_threads.progress_answers = answered;
            g_threads.progress_ns = now;
        }
        if (!g_threads.looked && now - g_threads.progress_ns >= SCR_LOOK_AFTER_NS) {
            // A thread that blocks the signal (a dispatch worker does) or is stopped will not
            // answer within any bound: give up on those now rather than at the deadline.
            g_threads.looked = true;
            for (int i = 0; i < count; i++) {
                if (atomic_load(&g_threads.slots[i].state) == SCR_SLOT_REQUESTED) give_up_if_unable(&g_threads.slots[i]);
            }
            continue; // the one awaited may have been given up on
        }
        // Until the next answer, the look at the status files, or the deadline.
        uint64_t until = g_threads.looked ? deadline : g_threads.progress_ns + SCR_LOOK_AFTER_NS;
        futex_wait_until(&g_threads.answered, answered, until < deadline ? until : deadline);
        if (scr_profile_on()) asleep_ns += scr_now_monotonic_ns() - now;
    }
    atomic_store(&g_threads.awaited, -1);
    scr_profile_add(SCR_PROFILE_WAITING, asleep_ns);
}

// Async-signal-safe (see wait_for_slot). Waits for every slot, in order.
static void wait_for_answers(int count) {
    for (int i = 0; i < count; i++) wait_for_slot(i);
}

// Async-signal-safe (see send_signals).
int scr_threads_request(scr_capture_then then) {
    if (g_threads.signal == 0 || g_threads.slots == NULL) return 0;
    atomic_store(&g_threads.hold, then != SCR_THEN_RETURN ? 1 : 0);
    atomic_store(&g_threads.then, then);
    int count = assign_slots(MODE_CAPTURE);
    send_signals(count);
    return count;
}

// Async-signal-safe (see wait_for_answers).
void scr_threads_wait(void) { wait_for_answers(scr_threads_count()); }

// Async-signal-safe (see wait_for_slot).
void scr_threads_wait_slot(int index) { wait_for_slot(index); }

// Async-signal-safe. Meaningful once every captured thread has returned.
uint64_t scr_last_capture_pause_ns(void) {
    uint64_t last = atomic_load(&g_threads.last_resumed_ns);
    return last > g_threads.first_signal_ns ? last - g_threads.first_signal_ns : 0;
}

// Async-signal-safe.
int scr_capture_signal(void) { return g_threads.signal; }

// Async-signal-safe (an atomic store and the futex system call).
void scr_threads_release(void) {
    atomic_store(&g_threads.hold, 0);
    syscall(SYS_futex, &g_threads.hold, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
}

// Async-signal-safe.
int scr_threads_count(void) { return atomic_load_explicit(&g_threads.count, memory_order_acquire); }

// Async-signal-safe.
const scr_thread_slot *scr_threads_slot(int index) { return &g_threads.slots[index]; }

// Async-signal-safe.
uint32_t scr_threads_total(void) { return g_threads.total + g_threads.omitted; }

// Async-signal-safe.
uint32_t scr_threads_omitted(void) { return g_threads.omitted; }

// Async-signal-safe: called first thing by the crash handler.
void scr_threads_escape_if_unwinding(pid_t tid) {
    scr_thread_slot *slot = g_threads.slots == NULL ? NULL : slot_of(tid);
    if (slot != NULL && atomic_load(&slot->in_unwind)) {
        atomic_store(&slot->in_unwind, 0);
        siglongjmp(slot->jump, 1);
    }
}

// Not async-signal-safe (mmap, munmap); install calls it once. The threads that already ran
// when install was called adopt an alternate stack mapped here; the ones that did not answer
// in time, or had one already, leave theirs to be unmapped.
void scr_threads_prepare_existing(void) {
    if (g_threads.signal == 0 || g_threads.slots == NULL) return;
    atomic_store(&g_threads.hold, 0);
    atomic_store(&g_threads.then, SCR_THEN_RETURN);
    int count = assign_slots(MODE_PREPARE);
    send_signals(count);
    wait_for_answers(count);
    for (int i = 0; i < count; i++) {
        scr_thread_slot *slot = &g_threads.slots[i];
        bool used = atomic_load_explicit(&slot->state, memory_order_acquire) == SCR_SLOT_DONE && slot->stack_used;
        bool late = slot->error != NULL && strcmp(slot->error, "signal_blocked") == 0;
        if (!used && slot->stack != NULL && !(late && keep_late_stack(atomic_load(&slot->tid), slot->stack))) {
            scr_altstack_unmap(slot->stack);
        }
        slot->stack = NULL;
    }
    atomic_store(&g_threads.count, 0);
    atomic_store(&g_threads.mode, MODE_IDLE);
}

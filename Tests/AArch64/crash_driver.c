// The arm64 crash driver: the C core (CShims/) linked into a small C program, built for aarch64
// at -O2 without frame pointers and run under qemu-user by scripts/test-aarch64.sh, which reads
// each report back on the host with `crashreport show` (Tests/AArch64/check_reports.py asserts).
//
//   crash-driver <test> [<state dir>]
//
// With a state directory the reporter is installed (reports go to <state dir>/pending) before the
// test runs; without one the same test runs bare, so that the script can compare how the process
// ends with and without the reporter. Before it crashes, a test prints `fact <name>=<value>`
// lines on stdout (addresses the checker cannot know otherwise: the async contexts).
//
// There is no Swift here (no arm64 Swift SDK on the build machine): the driver defines
// swift_task_getCurrent itself, so that the core finds a "concurrency runtime" in the executable,
// as in a --static-swift-stdlib build, and the async walk runs over the chains laid out below.
// The runtime's other symbols (its task layout variables, the fatal-error message slot, the
// pool's enqueue hook) stay absent: the core references them weakly, so those paths are not
// exercised here (docs/async-capture.md, "What arm64 tests prove").
#include "CCrashReporter.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static volatile int g_sink; // a store after each call, so that no call is a tail call

// The Swift runtime's current-task function, as the core looks it up (swift_task.c): it makes
// the executable the concurrency runtime's image. No task runs here.
__attribute__((visibility("default"), used)) void *swift_task_getCurrent(void) { return NULL; }

void scr_test_async_frame_record(void *context, const void *fault_address);
void scr_test_async_register_leaf(void *context, const void *fault_address);

// ---- the crashes ----------------------------------------------------------------------------

NOINLINE static void crash_segv(void) {
    *(volatile int *)(uintptr_t)16 = 1;
    g_sink++;
}

NOINLINE static void crash_bus(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/bus-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0 || unlink(path) != 0 || ftruncate(fd, 4096) != 0) exit(90);
    volatile char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (page == MAP_FAILED || ftruncate(fd, 0) != 0) exit(91);
    page[0] = 1; // past the end of the file now: SIGBUS, BUS_ADRERR
    g_sink++;
}

NOINLINE static void crash_abort(void) {
    abort();
}

// brk #1, the instruction Swift's traps compile to on arm64, with known values in three registers.
NOINLINE static void crash_brk(void) {
    register uint64_t x0 asm("x0") = 0x0a0a0a0a0a0a0a0aull;
    register uint64_t x9 asm("x9") = 0x0909090909090909ull;
    register uint64_t x28 asm("x28") = 0x2828282828282828ull;
    asm volatile("brk #1" : : "r"(x0), "r"(x9), "r"(x28) : "memory");
    g_sink++;
}

NOINLINE static int overflow(int depth) {
    volatile char pad[512];
    pad[0] = (char)depth;
    if (depth < 0) return 0; // never: the recursion ends in the overflow
    return overflow(depth + 1) + pad[0];
}

NOINLINE static void *overflow_thread_main(void *unused) {
    (void)unused;
    g_sink += overflow(0);
    return NULL;
}

// ---- threads: a crash on a background thread while others are parked -------------------------

#define PARKED 3
static pthread_mutex_t g_park_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_park_cond = PTHREAD_COND_INITIALIZER;
static _Atomic int g_parked;

NOINLINE static void *parked_main(void *unused) {
    (void)unused;
    pthread_mutex_lock(&g_park_lock);
    atomic_fetch_add(&g_parked, 1);
    for (;;) pthread_cond_wait(&g_park_cond, &g_park_lock); // never signalled
    return NULL;
}

NOINLINE static void *crasher_main(void *unused) {
    (void)unused;
    while (atomic_load(&g_parked) < PARKED) sched_yield();
    usleep(50000); // into the wait, past the increment
    crash_segv();
    g_sink++;
    return NULL;
}

NOINLINE static void run_threads(void) {
    pthread_t threads[PARKED + 1];
    char name[16];
    for (int i = 0; i < PARKED; i++) {
        pthread_create(&threads[i], NULL, parked_main, NULL);
        snprintf(name, sizeof name, "parked-%d", i);
        pthread_setname_np(threads[i], name);
    }
    pthread_create(&threads[PARKED], NULL, crasher_main, NULL);
    pthread_setname_np(threads[PARKED], "crasher");
    pthread_join(threads[PARKED], NULL);
    g_sink++;
}

// ---- breadcrumbs from four threads while the crash happens ----------------------------------

#define WRITERS 4
static _Atomic uint64_t g_recorded[WRITERS];

NOINLINE static void *crumb_writer(void *arg) {
    int k = (int)(intptr_t)arg;
    char category[8], message[32], thread[8], seq[24];
    snprintf(category, sizeof category, "w%d", k);
    snprintf(thread, sizeof thread, "%d", k);
    for (uint64_t n = 0;; n++) {
        snprintf(seq, sizeof seq, "%llu", (unsigned long long)n);
        snprintf(message, sizeof message, "n=%llu", (unsigned long long)n);
        // Its pairs: thread=<k>, n=<seq>.
        scr_ring_claim claim = scr_breadcrumb_begin(1, category, strlen(category), message, strlen(message));
        scr_ring_add_pair(claim.slot, 0, "thread", 6, thread, strlen(thread));
        scr_ring_add_pair(claim.slot, 1, "n", 1, seq, strlen(seq));
        scr_ring_publish(claim, 2);
        atomic_store(&g_recorded[k], n + 1);
        sched_yield(); // the writers take turns more often
    }
    return NULL;
}

NOINLINE static void run_breadcrumbs(void) {
    pthread_t threads[WRITERS];
    for (int k = 0; k < WRITERS; k++) pthread_create(&threads[k], NULL, crumb_writer, (void *)(intptr_t)k);
    for (int k = 0; k < WRITERS; k++) {
        while (atomic_load(&g_recorded[k]) < 500) sched_yield();
    }
    crash_segv(); // the writers are still recording
    g_sink++;
}

// ---- the async context chain ------------------------------------------------------------------

// Resume points: functions of the "runtime's" image (the executable), looked up by the checker.
NOINLINE void scr_test_resume_inner(void) { g_sink++; }
NOINLINE void scr_test_resume_outer(void) { g_sink++; }
NOINLINE void scr_test_task_completion(void) { g_sink++; }

// Three async contexts as the runtime lays them out: word 0 Parent, word 1 ResumeParent; the
// outermost (the task's initial context) has no parent and resumes in the task-completion function.
static uintptr_t g_contexts[3][4] __attribute__((aligned(16)));

static void lay_out_chain(bool damaged) {
    g_contexts[0][0] = (uintptr_t)g_contexts[1];
    g_contexts[0][1] = (uintptr_t)scr_test_resume_inner;
    g_contexts[1][0] = (uintptr_t)g_contexts[2];
    g_contexts[1][1] = (uintptr_t)scr_test_resume_outer;
    g_contexts[2][0] = 0;
    g_contexts[2][1] = (uintptr_t)scr_test_task_completion;
    if (damaged) {
        // The middle context's parent is a page that was mapped and is no more: reading it faults.
        void *page = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED) exit(92);
        munmap(page, 65536);
        g_contexts[1][0] = (uintptr_t)page + 4096;
    }
    for (int i = 0; i < 3; i++) printf("fact context%d=0x%llx\n", i, (unsigned long long)(uintptr_t)g_contexts[i]);
    fflush(stdout);
}

NOINLINE static void run_async(bool record, bool damaged) {
    lay_out_chain(damaged);
    if (record) {
        scr_test_async_frame_record(g_contexts[0], (const void *)(uintptr_t)16);
    } else {
        scr_test_async_register_leaf(g_contexts[0], (const void *)(uintptr_t)16);
    }
    g_sink++;
}

// ---- the snapshot of a live process -----------------------------------------------------------

NOINLINE static int run_snapshot(void) {
    char id[37] = {0};
    int r = scr_snapshot("aarch64 snapshot", 20000, id);
    printf("fact snapshot=%d\nfact snapshot_id=%s\n", r, id);
    printf("went on\n");
    fflush(stdout);
    return r == SCR_OK ? 0 : 1;
}

// ---- main -------------------------------------------------------------------------------------

static int install(const char *directory) {
    char state[4096], pending[4096 + 8];
    mkdir(directory, 0700);
    if (realpath(directory, state) == NULL) return -1; // the core takes absolute paths only
    snprintf(pending, sizeof pending, "%s/pending", state);
    mkdir(pending, 0700);
    scr_config config = {
        .pending_dir = pending,
        .state_dir = state,
        .report_suffix = ".crash",
        .temporary_suffix = ".crash.tmp",
        .failed_suffix = ".crash.failed-",
        .app_name = "crash-driver",
        .app_version = "1.0.0",
        .app_build = "1",
        .app_environment = "test",
        .breadcrumb_capacity = 64,
        .thread_timeout_ms = 5000, // emulated threads answer slowly on a loaded machine
    };
    int r = scr_install(&config);
    if (r != SCR_OK) fprintf(stderr, "scr_install: %d (errno %d)\n", r, errno);
    return r;
}

NOINLINE static int run(const char *test, const char *dir) {
    if (strcmp(test, "segv") == 0) crash_segv();
    else if (strcmp(test, "bus") == 0) crash_bus(dir);
    else if (strcmp(test, "abort") == 0) crash_abort();
    else if (strcmp(test, "brk") == 0) crash_brk();
    else if (strcmp(test, "overflow-main") == 0) g_sink += overflow(0);
    else if (strcmp(test, "overflow-thread") == 0) {
        pthread_t thread;
        pthread_attr_t attributes;
        pthread_attr_init(&attributes);
        pthread_attr_setstacksize(&attributes, 1 << 20); // a short walk under the emulator
        pthread_create(&thread, &attributes, overflow_thread_main, NULL);
        pthread_join(thread, NULL);
    } else if (strcmp(test, "threads") == 0) run_threads();
    else if (strcmp(test, "breadcrumbs") == 0) run_breadcrumbs();
    else if (strcmp(test, "async-record") == 0) run_async(true, false);
    else if (strcmp(test, "async-register") == 0) run_async(false, false);
    else if (strcmp(test, "async-damaged") == 0) run_async(true, true);
    else if (strcmp(test, "snapshot") == 0) return run_snapshot();
    else {
        fprintf(stderr, "unknown test %s\n", test);
        return 2;
    }
    g_sink++;
    return 3; // a crash test that did not crash
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: crash-driver <test> [<state dir>]\n");
        return 2;
    }
    const char *dir = argc == 3 ? argv[2] : "/tmp";
    if (argc == 3 && install(argv[2]) != SCR_OK) return 4;
    int r = run(argv[1], dir);
    g_sink++;
    return r;
}

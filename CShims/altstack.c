// Alternate signal stacks for every thread, so that a stack overflow reaches the handler.
//
// A thread that overflows its stack has no room left for the kernel to push a signal frame;
// without an alternate stack the kernel kills the process silently. sigaltstack(2) is per
// thread, so install gives the calling thread one, and threads started afterwards get one
// from this file's pthread_create: the executable defines the symbol, so it interposes
// libc's for every library (Foundation's Thread, Dispatch's workers, the Swift concurrency
// pool); it starts the thread on a trampoline that maps the stack and then runs the real
// start routine (and first looks up the thread's /proc/self/task entry for a crash's listing,
// tasks.c). The stack is unmapped by a thread-specific-data destructor at thread
// exit. Until install turns this file on (scr_altstack_enable) the wrapper passes straight
// through. Threads that were running before install get theirs from threads.c, which sends
// each one the capture signal with a stack to adopt (their stack is not unmapped when they
// exit: nothing runs at their exit that could). A thread started in an unusual way (clone,
// a runtime's own thread pool outside pthread_create) can call scr_thread_prepare() itself.
//
// Forwarding. The wrapper hands every call to the definition the dynamic linker would have
// bound without it. A sanitizer runtime (ThreadSanitizer, AddressSanitizer) is linked into
// the executable and defines pthread_create as a weak interceptor; ours, being strong,
// replaces it at link time, and dlsym(RTLD_NEXT) looks only in the objects after the
// executable, so the sanitizer would never hear of the thread and fail at its first use.
// The interceptor keeps a second name, reached through a weak reference (NULL without a
// sanitizer). Otherwise RTLD_NEXT finds the next definition in load order: an LD_PRELOADed
// wrapper, or libc's. docs/decisions/0013-every-thread-gets-an-alternate-stack-by-interposing-pthread.md
// weighs interposing at all.
#include "internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define SCR_ALTSTACK_SIZE (64 * 1024)
#define SCR_ALTSTACK_PREFAULT_PAGES 2

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

// The sanitizers' interceptor under its second name (see the top); NULL without a sanitizer.
extern int __interceptor_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *)
    __attribute__((weak));

static _Atomic(pthread_create_fn) g_real_create;
static _Atomic int g_enabled; // set by install once the handler is in place
static pthread_key_t g_stack_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;

// Async-signal-safe.
void scr_altstack_enable(void) { atomic_store_explicit(&g_enabled, 1, memory_order_release); }

// Async-signal-safe.
size_t scr_altstack_size(void) { return SCR_ALTSTACK_SIZE + (size_t)getpagesize(); }

// Not async-signal-safe (munmap at thread exit, outside any handler).
static void release_stack(void *mapping) {
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && current.ss_sp == (char *)mapping + getpagesize()) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
    }
    munmap(mapping, scr_altstack_size());
}

// Not async-signal-safe (pthread_key_create); runs once, through pthread_once.
static void make_key(void) { pthread_key_create(&g_stack_key, release_stack); }

// Not async-signal-safe (mmap, mprotect).
void *scr_altstack_map(void) {
    size_t page = (size_t)getpagesize();
    char *mapping = mmap(NULL, scr_altstack_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return NULL;
    mprotect(mapping, page, PROT_NONE); // a guard page below the stack
    // The signal frame and a capture's own frames fit in the top pages: touched now (8 KiB of
    // resident memory per thread), so that answering a capture takes no page fault there, about a
    // fifth of a sleeping thread's answer when 64 of them answer at a crash (decision 0176).
    char *top = mapping + scr_altstack_size();
    for (size_t i = 1; i <= SCR_ALTSTACK_PREFAULT_PAGES; i++) *(volatile char *)(top - i * page) = 0;
    return mapping;
}

// Not async-signal-safe (munmap).
void scr_altstack_unmap(void *mapping) { munmap(mapping, scr_altstack_size()); }

// Async-signal-safe: writes the interrupted context only. Called from a signal handler with
// its ucontext: a sigaltstack(2) call there would not last, since returning from the handler
// (rt_sigreturn) puts back the alternate stack saved in the ucontext; so the new stack goes
// into the ucontext, and the return installs it.
bool scr_altstack_adopt(void *mapping, void *ucontext) {
    ucontext_t *uc = ucontext;
    if (!(uc->uc_stack.ss_flags & SS_DISABLE) && uc->uc_stack.ss_size >= SCR_ALTSTACK_SIZE) return false;
    uc->uc_stack.ss_sp = (char *)mapping + getpagesize();
    uc->uc_stack.ss_size = SCR_ALTSTACK_SIZE;
    uc->uc_stack.ss_flags = 0;
    return true;
}

// Not async-signal-safe (mmap, pthread_setspecific).
int scr_thread_prepare(void) {
    pthread_once(&g_key_once, make_key);
    stack_t current;
    if (sigaltstack(NULL, &current) != 0) return -1;
    if (!(current.ss_flags & SS_DISABLE) && current.ss_size >= SCR_ALTSTACK_SIZE) return 0;
    void *mapping = scr_altstack_map();
    if (mapping == NULL) return -1;
    stack_t stack = {.ss_sp = (char *)mapping + getpagesize(), .ss_size = SCR_ALTSTACK_SIZE, .ss_flags = 0};
    if (sigaltstack(&stack, NULL) != 0) {
        scr_altstack_unmap(mapping);
        return -1;
    }
    pthread_setspecific(g_stack_key, mapping);
    return 0;
}

typedef struct trampoline {
    void *(*start)(void *);
    void *arg;
} trampoline;

// Runs on the new thread: not a signal context.
static void *start_prepared(void *p) {
    trampoline t = *(trampoline *)p;
    free(p);
    scr_thread_prepare();
    scr_tasks_keep_own_entry();
    return t.start(t.arg);
}

// Not async-signal-safe (dlsym). The pthread_create this file's one forwards to: a linked
// sanitizer's interceptor, else the next definition after the executable.
static pthread_create_fn next_create(void) {
    pthread_create_fn next = atomic_load_explicit(&g_real_create, memory_order_acquire);
    if (next != NULL) return next;
    next = __interceptor_pthread_create;
    if (next == NULL) next = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
    if (next != NULL) atomic_store_explicit(&g_real_create, next, memory_order_release);
    return next;
}

// Not async-signal-safe (as libc's). Interposes libc's pthread_create; see the top.
__attribute__((visibility("default"))) int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                                                          void *(*start)(void *), void *arg) {
    pthread_create_fn real = next_create();
    if (real == NULL) return EAGAIN;
    if (!atomic_load_explicit(&g_enabled, memory_order_acquire)) return real(thread, attr, start, arg);
    trampoline *t = malloc(sizeof *t);
    if (t == NULL) return real(thread, attr, start, arg);
    t->start = start;
    t->arg = arg;
    int r = real(thread, attr, start_prepared, t);
    if (r != 0) free(t);
    return r;
}

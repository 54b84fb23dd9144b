// Stack unwinding with libunwind (DWARF call-frame information), so that release builds
// without frame pointers still give the whole stack.
//
// libunwind is loaded with dlopen(RTLD_NOW | RTLD_LOCAL) at install rather than linked:
// libunwind.so also defines the `_Unwind_*` entry points of the system unwinder, and
// linking it would let them shadow libgcc's for the whole process (C++ and Swift runtime
// exceptions would then run on a different unwinder). RTLD_LOCAL keeps every one of its
// symbols out of the global scope; we reach the four we need through dlsym. RTLD_NOW binds
// its imports up front, and one unwind at install fills libunwind's lazy state (its
// memory-validation pipe, the caches) so that the handler takes no loader lock for it.
#include "internal.h"

#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <libunwind.h>
#include <string.h>
#include <ucontext.h>

#if defined(__x86_64__)
#define SCR_UNW_PREFIX "_ULx86_64_"
#elif defined(__aarch64__)
#define SCR_UNW_PREFIX "_ULaarch64_"
#else
#error "unsupported architecture"
#endif

typedef int (*init_local2_fn)(unw_cursor_t *, unw_context_t *, int);
typedef int (*step_fn)(unw_cursor_t *);
typedef int (*get_reg_fn)(unw_cursor_t *, unw_regnum_t, unw_word_t *);

static struct {
    init_local2_fn init_local2;
    step_fn step;
    get_reg_fn get_reg;
    bool available;
} g_unw;

// Not async-signal-safe (dlopen, dlsym); called once at install.
int scr_unwinder_load(void) {
    if (g_unw.available) return 0;
    void *lib = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) return -1;
    g_unw.init_local2 = (init_local2_fn)dlsym(lib, SCR_UNW_PREFIX "init_local2");
    g_unw.step = (step_fn)dlsym(lib, SCR_UNW_PREFIX "step");
    g_unw.get_reg = (get_reg_fn)dlsym(lib, SCR_UNW_PREFIX "get_reg");
    if (g_unw.init_local2 == NULL || g_unw.step == NULL || g_unw.get_reg == NULL) return -1;
    g_unw.available = true;

    // Warm-up: unwind this very stack once.
    ucontext_t here;
    if (getcontext(&here) == 0) {
        scr_frame frames[16];
        bool truncated;
        const char *error;
        (void)scr_unwind(&here, frames, 16, &truncated, &error);
    }
    return 0;
}

// Async-signal-safe.
int scr_unwinder_available(void) { return g_unw.available; }

// Async-signal-safe as far as libunwind's local unwinding is (its documentation lists
// unw_init_local and unw_step as signal-safe); see docs/signal-safety.md for the one lock
// it may take (dl_iterate_phdr to find an image's unwind tables). `ucontext` is the
// signal's context; frame 0 is the interrupted instruction itself.
int scr_unwind(void *ucontext, scr_frame *frames, int max, bool *truncated, const char **error) {
    *truncated = false;
    *error = NULL;
    if (!g_unw.available) {
        *error = "no_libunwind";
        return 0;
    }
    unw_cursor_t cursor;
    // On x86_64 and aarch64 libunwind's unw_context_t is the platform's ucontext_t.
    if (g_unw.init_local2(&cursor, (unw_context_t *)ucontext, UNW_INIT_SIGNAL_FRAME) < 0) {
        *error = "init_failed";
        return 0;
    }
    int count = 0;
    for (;;) {
        unw_word_t ip = 0, sp = 0;
        g_unw.get_reg(&cursor, UNW_REG_IP, &ip);
        g_unw.get_reg(&cursor, UNW_REG_SP, &sp);
        if (ip == 0) break;
        if (count == max) {
            *truncated = true;
            break;
        }
        frames[count].ip = (uintptr_t)ip;
        frames[count].sp = (uintptr_t)sp;
        count++;
        int r = g_unw.step(&cursor);
        if (r == 0) break;
        if (r < 0) {
            *error = "step_failed";
            break;
        }
    }
    return count;
}

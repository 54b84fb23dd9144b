// The Swift runtime's fatal-error message (`Fatal error: …`), the `crash.message` of a report.
// The runtime stores it in a slot just before it traps; the handler copies it out.
#include "internal.h"

// The Swift runtime's slot for the fatal-error message it is about to crash with. Referenced
// weakly and directly rather than looked up with dlsym: a `--static-swift-stdlib` executable
// links it from libswiftCore.a but does not export it, so dlsym cannot see it there, while
// the static linker resolves this reference; a dynamic build binds it from libswiftCore.so;
// a program without the Swift runtime gets NULL.
extern _Atomic(const char *) *swift_getFatalErrorMessageBuffer(void) __attribute__((weak));

static struct {
    _Atomic(const char *) *slot; // from swift_getFatalErrorMessageBuffer()
    char message[SCR_FATAL_MESSAGE_MAX + 1];
    size_t len;
} g_fatal;

// Not async-signal-safe (a call into the runtime); called once at install.
void scr_fatal_message_prepare(void) {
    g_fatal.slot = swift_getFatalErrorMessageBuffer != NULL ? swift_getFatalErrorMessageBuffer() : NULL;
}

// Async-signal-safe.
size_t scr_fatal_message_reserved_bytes(void) { return sizeof g_fatal; }

// Async-signal-safe (an atomic load and a bounded byte copy). Runs under scr_guarded: the
// pointer comes from the runtime and is only dereferenced here.
static void copy_message(void *unused) {
    (void)unused;
    g_fatal.len = 0;
    if (g_fatal.slot == NULL) return;
    const char *text = atomic_load(g_fatal.slot);
    if (text == NULL) return;
    size_t n = 0;
    while (n < SCR_FATAL_MESSAGE_MAX && text[n] != '\0') {
        g_fatal.message[n] = text[n];
        n++;
    }
    while (n > 0 && (g_fatal.message[n - 1] == '\n' || g_fatal.message[n - 1] == ' ')) n--;
    g_fatal.len = n;
}

// Async-signal-safe: the copy above, guarded. The message without its trailing newlines and
// spaces (`*len` bytes, not terminated), or NULL when there is none or reading it faulted.
const char *scr_fatal_message_read(size_t *len) {
    if (!scr_guarded(copy_message, NULL) || g_fatal.len == 0) return NULL;
    *len = g_fatal.len;
    return g_fatal.message;
}

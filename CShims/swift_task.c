// The Swift task a thread runs: its id, name and priority, read by the thread itself from the
// concurrency runtime without calling anything that locks (docs/async-capture.md).
//
// The current task is a thread-local of the runtime; swift_task_getCurrent returns it (one
// __tls_get_addr and one load, nothing else). It is looked up at install, with dlsym then, and
// called once there, so that the handler neither looks anything up nor binds a lazy PLT entry.
//
// The task's fields are read at fixed offsets of the runtime's 64-bit layout (Swift 6.3's
// AsyncTask, checked against the runtime's code), and only when the runtime says it has that
// layout: the debug variables it exports for debuggers give its layout version (1) and the size
// of an AsyncTask (208 bytes), and each task's first word must be the runtime's task metadata.
// A runtime that says anything else gives no `task`, never a guess. The name is a status record
// of the task (TaskName, kind 6) in the list the task's status points to; the runtime reads it
// under the task's status-record lock, which the handler cannot take: the list only changes on
// the thread running the task (the one reading it, stopped in its handler), and the walk is
// bounded and guarded, so at worst a name is missing.
#include "internal.h"

#include <dlfcn.h>

// The debug variables the concurrency runtime exports (Swift 5.5 and later). Weak: a program
// without the runtime has none.
extern const void *const _swift_concurrency_debug_asyncTaskMetadata __attribute__((weak));
extern const size_t _swift_concurrency_debug_asyncTaskSize __attribute__((weak));
extern const uint32_t _swift_concurrency_debug_internal_layout_version __attribute__((weak));
// Referenced directly for a --static-swift-stdlib build, where dlsym cannot see it.
extern void *swift_task_getCurrent(void) __attribute__((weak));

// The layout this file knows (64-bit, no priority escalation: Linux).
#define SCR_TASK_LAYOUT_VERSION 1u
#define SCR_TASK_SIZE 208u
#define SCR_JOB_FLAGS 0x20      // uint32_t: kind in bits 0-7 (0: a task), priority 8-15, bit 30: it has a name
#define SCR_JOB_ID 0x24         // uint32_t: the low half of the task id
#define SCR_TASK_STATUS 0x60    // ActiveTaskStatus: uint32_t flags (bits 0-7: the current priority)
#define SCR_TASK_RECORDS 0x68   //   and the innermost status record
#define SCR_TASK_ID_HIGH 0x90   // uint32_t: the high half of the task id (in its private storage)
#define SCR_RECORD_PARENT 0x08  // a status record: uint8_t kind at 0, the next record at 8
#define SCR_RECORD_NAME 0x10    // a TaskName record: the name (a C string) at 16
#define SCR_RECORD_KIND_NAME 6
#define SCR_TASK_HAS_NAME (1u << 30)
#define SCR_RECORDS_LIMIT 32
#define SCR_NAME_READ_MAX 255 // bytes read of a name before it is scrubbed and cut

typedef void *(*current_task_fn)(void);

static struct {
    current_task_fn current;  // swift_task_getCurrent, or NULL
    const void *task_metadata; // every AsyncTask's first word
    bool layout_known;
    int runtime_image;
    bool runtime_in_executable;
} g_swift = {.runtime_image = -1};

// Not async-signal-safe (dlsym; install only). Call after scr_images_capture.
void scr_async_prepare(void) {
    void *current = dlsym(RTLD_DEFAULT, "swift_task_getCurrent"); // the definition, not a PLT stub
    if (current == NULL) current = (void *)swift_task_getCurrent;
    if (current == NULL) return;
    g_swift.current = (current_task_fn)current;
    (void)g_swift.current(); // binds its __tls_get_addr and sets up this thread's access
    g_swift.runtime_image = scr_images_find((uintptr_t)current);
    g_swift.runtime_in_executable = g_swift.runtime_image >= 0 && scr_images_is_main(g_swift.runtime_image);
    if (&_swift_concurrency_debug_asyncTaskMetadata != NULL && &_swift_concurrency_debug_asyncTaskSize != NULL &&
        &_swift_concurrency_debug_internal_layout_version != NULL) {
        g_swift.task_metadata = _swift_concurrency_debug_asyncTaskMetadata;
        g_swift.layout_known = _swift_concurrency_debug_internal_layout_version == SCR_TASK_LAYOUT_VERSION &&
                               _swift_concurrency_debug_asyncTaskSize == SCR_TASK_SIZE && g_swift.task_metadata != NULL;
    }
}

// Async-signal-safe.
int scr_swift_runtime_image(void) { return g_swift.runtime_image; }

// Async-signal-safe.
bool scr_swift_runtime_in_executable(void) { return g_swift.runtime_in_executable; }

// Async-signal-safe: loads from memory the runtime owns, without the sanitizers' instrumentation
// (the guard catches a fault).
__attribute__((no_sanitize("address", "thread"), noinline)) static uintptr_t read_word(uintptr_t address) {
    return __atomic_load_n((const uintptr_t *)address, __ATOMIC_RELAXED);
}

// Async-signal-safe: as read_word.
__attribute__((no_sanitize("address", "thread"), noinline)) static uint32_t read_u32(uintptr_t address) {
    return __atomic_load_n((const uint32_t *)address, __ATOMIC_RELAXED);
}

// Async-signal-safe: as read_word.
__attribute__((no_sanitize("address", "thread"), noinline)) static uint8_t read_byte(uintptr_t address) {
    return __atomic_load_n((const uint8_t *)address, __ATOMIC_RELAXED);
}

// Async-signal-safe; guarded by the caller. The name record's string, or 0.
static uintptr_t find_name(uintptr_t task) {
    uintptr_t record = read_word(task + SCR_TASK_RECORDS);
    for (int i = 0; i < SCR_RECORDS_LIMIT && record != 0 && (record & 7u) == 0; i++) {
        if (read_byte(record) == SCR_RECORD_KIND_NAME) return read_word(record + SCR_RECORD_NAME);
        uintptr_t parent = read_word(record + SCR_RECORD_PARENT);
        if (parent == record) return 0;
        record = parent;
    }
    return 0;
}

// Async-signal-safe; guarded by the caller. Copies the name, scrubbed, into `task->name`.
static void read_name(uintptr_t name, scr_task_info *task) {
    char raw[SCR_NAME_READ_MAX + 1];
    size_t n = 0;
    while (n < SCR_NAME_READ_MAX && (raw[n] = (char)read_byte(name + n)) != '\0') n++;
    if (n == SCR_NAME_READ_MAX) {
        // Cut: the last word may be part of a longer one, so it goes (it could be half an address).
        while (n > 0 && raw[n - 1] != ' ') n--;
    }
    scr_scrub_task_name(raw, n, task->name, sizeof task->name);
    task->has_name = true;
}

// Async-signal-safe (see the file's comment); guarded by the caller.
void scr_task_read_current(scr_async_chain *chain) {
    scr_task_info *task = &chain->task;
    task->present = false;
    task->has_name = false;
    task->priority = -1;
    if (g_swift.current == NULL || !g_swift.layout_known) return;
    uintptr_t address = (uintptr_t)g_swift.current();
    if (address == 0 || (address & 15u) != 0) return;
    if (read_word(address) != (uintptr_t)g_swift.task_metadata) return;
    uint32_t flags = read_u32(address + SCR_JOB_FLAGS);
    if ((flags & 0xffu) != 0) return; // not a task
    task->id = (uint64_t)read_u32(address + SCR_JOB_ID) | (uint64_t)read_u32(address + SCR_TASK_ID_HIGH) << 32;
    task->priority = (int)(read_u32(address + SCR_TASK_STATUS) & 0xffu);
    task->present = true; // the id and the priority stand even if the name faults below
    if (flags & SCR_TASK_HAS_NAME) {
        uintptr_t name = find_name(address);
        if (name != 0) read_name(name, task);
    }
}

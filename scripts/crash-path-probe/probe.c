// The crash-path probe: an LD_PRELOAD library that flags every call to the allocator or to a
// lock made by a thread while it is on the crash path (Tests/IntegrationTests/
// CrashPathProbeTests.swift; docs/signal-safety.md, "The probe"). Built by the test:
//   cc -shared -fPIC -O1 -o probe.so probe.c -ldl
//
// On the crash path means either
//   - running on the thread's alternate signal stack (sigaltstack(2) says SS_ONSTACK): the crash
//     handler, and each other thread's capture handler, run there; or
//   - being the thread that writes a report, as the reporter's test hook
//     scr_debug_report_writer() says: the monitor thread writes snapshots on its normal stack.
//     An executable exports only the symbols a shared library needed when it was linked, so
//     dlsym cannot find the hook; the probe looks it up in the executable's symbol table
//     (.symtab, which SwiftPM's debug and release builds keep) and adds the load bias.
// Each such call is written as one line to the file CRASH_PATH_PROBE_LOG names:
//   violation <function> on=<altstack|writer> tid=<id> caller=0x<return address>
// The first line says the probe is loaded and whether it found the writer hook.
//
// The probe itself is safe where it runs: the allocator functions forward to glibc's
// __libc_malloc family (no dlsym, so no recursion while resolving), the lock functions to the
// next definition found with dlsym(RTLD_NEXT) in the constructor (lazily if a lock is taken
// before it runs), and a violation is recorded with raw system calls and write(2) only.
//
// Limit: interposition sees only calls through the dynamic symbols. A call inside glibc to its
// own malloc or lock (abort's lock, stdio's locks, the loader's) does not go through the PLT
// and is not seen; nor is a call from code linked statically into the same object.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t alignment, size_t size);

typedef int (*mutex_fn)(pthread_mutex_t *);
typedef int (*rwlock_fn)(pthread_rwlock_t *);

static int g_log = -1;
static int (*g_writer)(void);
static _Atomic(mutex_fn) g_mutex_lock, g_mutex_trylock;
static _Atomic(rwlock_fn) g_rd, g_wr, g_tryrd, g_trywr;

// Async-signal-safe (pure computation).
static void put_text(char *line, size_t *n, size_t cap, const char *text) {
    while (*text != '\0' && *n < cap) line[(*n)++] = *text++;
}

// Async-signal-safe (pure computation).
static void put_number(char *line, size_t *n, size_t cap, uint64_t v, unsigned base) {
    char digits[24];
    size_t d = 0;
    do {
        digits[d++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v != 0);
    while (d > 0 && *n < cap) line[(*n)++] = digits[--d];
}

// Async-signal-safe (raw system calls and the reporter's async-signal-safe hook). Where the
// calling thread is on the crash path, NULL when it is not.
static const char *crash_path(void) {
    stack_t ss;
    if (syscall(SYS_sigaltstack, NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK)) return "altstack";
    int (*writer)(void) = g_writer;
    if (writer != NULL) {
        int tid = writer();
        if (tid != 0 && tid == (int)syscall(SYS_gettid)) return "writer";
    }
    return NULL;
}

// Async-signal-safe (write(2)). Logs the call if the thread is on the crash path.
static void check(const char *function, void *caller) {
    if (g_log < 0) return;
    int saved = errno;
    const char *where = crash_path();
    if (where != NULL) {
        char line[160];
        size_t n = 0;
        put_text(line, &n, sizeof line - 1, "violation ");
        put_text(line, &n, sizeof line - 1, function);
        put_text(line, &n, sizeof line - 1, " on=");
        put_text(line, &n, sizeof line - 1, where);
        put_text(line, &n, sizeof line - 1, " tid=");
        put_number(line, &n, sizeof line - 1, (uint64_t)syscall(SYS_gettid), 10);
        put_text(line, &n, sizeof line - 1, " caller=0x");
        put_number(line, &n, sizeof line - 1, (uint64_t)(uintptr_t)caller, 16);
        line[n++] = '\n';
        ssize_t ignored = write(g_log, line, n);
        (void)ignored;
    }
    errno = saved;
}

// Not async-signal-safe (dlsym): the constructor's, or a lock taken before it ran.
static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }

// Not async-signal-safe (a dl_iterate_phdr callback, from the constructor).
static int main_program_bias(struct dl_phdr_info *info, size_t size, void *out) {
    (void)size;
    *(uintptr_t *)out = (uintptr_t)info->dlpi_addr; // the first object is the executable
    return 1;
}

// Not async-signal-safe (mmap, dl_iterate_phdr); the constructor's. The address of the
// function `name` in the running executable, from its symbol table; NULL
// when the executable has no such symbol (or no symbol table).
static void *executable_symbol(const char *name) {
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    void *found = NULL;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(Elf64_Ehdr)) {
        close(fd);
        return NULL;
    }
    const unsigned char *file = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (file == MAP_FAILED) return NULL;
    size_t length = (size_t)st.st_size;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
        eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) <= length) {
        const Elf64_Shdr *sections = (const Elf64_Shdr *)(file + eh->e_shoff);
        for (int i = 0; i < eh->e_shnum && found == NULL; i++) {
            if (sections[i].sh_type != SHT_SYMTAB || sections[i].sh_link >= eh->e_shnum) continue;
            const Elf64_Shdr *strtab = &sections[sections[i].sh_link];
            if (sections[i].sh_offset + sections[i].sh_size > length || strtab->sh_offset + strtab->sh_size > length) {
                continue;
            }
            const Elf64_Sym *symbols = (const Elf64_Sym *)(file + sections[i].sh_offset);
            size_t count = sections[i].sh_size / sizeof(Elf64_Sym);
            const char *names = (const char *)(file + strtab->sh_offset);
            for (size_t k = 0; k < count; k++) {
                if (ELF64_ST_TYPE(symbols[k].st_info) != STT_FUNC || symbols[k].st_value == 0) continue;
                if (symbols[k].st_name >= strtab->sh_size || strcmp(names + symbols[k].st_name, name) != 0) continue;
                uintptr_t bias = 0;
                dl_iterate_phdr(main_program_bias, &bias);
                found = (void *)(bias + symbols[k].st_value);
                break;
            }
        }
    }
    munmap((void *)file, length);
    return found;
}

// Not async-signal-safe; runs once as the library is loaded.
__attribute__((constructor)) static void probe_init(void) {
    atomic_store(&g_mutex_lock, (mutex_fn)next("pthread_mutex_lock"));
    atomic_store(&g_mutex_trylock, (mutex_fn)next("pthread_mutex_trylock"));
    atomic_store(&g_rd, (rwlock_fn)next("pthread_rwlock_rdlock"));
    atomic_store(&g_wr, (rwlock_fn)next("pthread_rwlock_wrlock"));
    atomic_store(&g_tryrd, (rwlock_fn)next("pthread_rwlock_tryrdlock"));
    atomic_store(&g_trywr, (rwlock_fn)next("pthread_rwlock_trywrlock"));
    g_writer = (int (*)(void))executable_symbol("scr_debug_report_writer");
    const char *path = getenv("CRASH_PATH_PROBE_LOG");
    if (path == NULL) return;
    g_log = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (g_log < 0) return;
    const char *line = g_writer != NULL ? "probe loaded writer-hook=1\n" : "probe loaded writer-hook=0\n";
    ssize_t ignored = write(g_log, line, strlen(line));
    (void)ignored;
}

// The interposed functions below are as safe as the ones they forward to (check() adds nothing
// unsafe): the point is to see them called where they must not be.
void *malloc(size_t size) {
    check("malloc", __builtin_return_address(0));
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    check("calloc", __builtin_return_address(0));
    return __libc_calloc(count, size);
}

void *realloc(void *p, size_t size) {
    check("realloc", __builtin_return_address(0));
    return __libc_realloc(p, size);
}

void free(void *p) {
    check("free", __builtin_return_address(0));
    __libc_free(p);
}

void *memalign(size_t alignment, size_t size) {
    check("memalign", __builtin_return_address(0));
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    check("aligned_alloc", __builtin_return_address(0));
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    check("posix_memalign", __builtin_return_address(0));
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(alignment, size);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}

// The next definition of a lock function: resolved in the constructor, or here if a lock is
// taken before it ran.
#define NEXT(slot, type, name) \
    (atomic_load(&slot) != NULL ? atomic_load(&slot) : (atomic_store(&slot, (type)next(name)), atomic_load(&slot)))

// One interposed lock function: checks, then forwards.
#define LOCK_FUNCTION(name, type, slot, fn_type)                      \
    int name(type *lock) {                                            \
        check(#name, __builtin_return_address(0));                    \
        return NEXT(slot, fn_type, #name)(lock);                      \
    }

LOCK_FUNCTION(pthread_mutex_lock, pthread_mutex_t, g_mutex_lock, mutex_fn)
LOCK_FUNCTION(pthread_mutex_trylock, pthread_mutex_t, g_mutex_trylock, mutex_fn)
LOCK_FUNCTION(pthread_rwlock_rdlock, pthread_rwlock_t, g_rd, rwlock_fn)
LOCK_FUNCTION(pthread_rwlock_wrlock, pthread_rwlock_t, g_wr, rwlock_fn)
LOCK_FUNCTION(pthread_rwlock_tryrdlock, pthread_rwlock_t, g_tryrd, rwlock_fn)
LOCK_FUNCTION(pthread_rwlock_trywrlock, pthread_rwlock_t, g_trywr, rwlock_fn)

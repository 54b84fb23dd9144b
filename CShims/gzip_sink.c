// The gzip sink: the report's JSON goes through zlib's deflate straight into the file.
//
// zlib allocates only through `zalloc`, which here is a bump allocator over an arena
// reserved at install (reset for each stream, `zfree` does nothing), so deflate never
// calls malloc. Everything else deflate does is computation over buffers we own, and the
// output goes out with write(2). A small window (2^13) and memLevel 5 keep what deflate
// touches to about 53 KiB (the arena is 64 KiB): a report is a few tens of KiB of repetitive
// JSON whose repeats (breadcrumbs, frames) are close together, so the small window loses
// nothing (2,755 bytes against 2,839 with 2^14 and memLevel 7, docs/benchmarks.md), and every
// page deflate does not touch is a page fault the crash does not take.
#include "internal.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#define SCR_WINDOW_BITS 13
#define SCR_MEM_LEVEL 5
#define SCR_ARENA_SIZE (64 * 1024)
#define SCR_IN_SIZE (4 * 1024)
#define SCR_OUT_SIZE (4 * 1024)

static struct {
    char *arena;
    size_t arena_used;
    char *in;
    unsigned char *out;
    size_t mapped;
    z_stream stream;
    int fd;
    bool write_failed;
    int write_errno; // why the write failed (0: it did not, or zlib failed)
} g_gzip;

// Async-signal-safe: a bump allocator over reserved memory.
static voidpf arena_alloc(voidpf opaque, uInt items, uInt size) {
    (void)opaque;
    size_t bytes = ((size_t)items * size + 15u) & ~(size_t)15u;
    if (g_gzip.arena_used + bytes > SCR_ARENA_SIZE) return Z_NULL;
    void *p = g_gzip.arena + g_gzip.arena_used;
    g_gzip.arena_used += bytes;
    return p;
}

// Async-signal-safe.
static void arena_free(voidpf opaque, voidpf address) {
    (void)opaque;
    (void)address;
}

// Not async-signal-safe (mmap); called once at install.
int scr_gzip_reserve(void) {
    if (g_gzip.arena != NULL) return 0;
    size_t bytes = SCR_ARENA_SIZE + SCR_IN_SIZE + SCR_OUT_SIZE;
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return -1;
    g_gzip.arena = mem;
    g_gzip.in = (char *)mem + SCR_ARENA_SIZE;
    g_gzip.out = (unsigned char *)mem + SCR_ARENA_SIZE + SCR_IN_SIZE;
    g_gzip.mapped = bytes;
    return 0;
}

// Async-signal-safe.
size_t scr_gzip_reserved_bytes(void) { return g_gzip.mapped; }

// Async-signal-safe (write(2) only). A full disk marks the sink failed and keeps its errno;
// nothing is retried. A crash's output is teed first into the stderr copy (stderr_copy.c).
static void write_all(const unsigned char *p, size_t n) {
    scr_stderr_copy_tee(p, n);
    uint64_t began = scr_profile_on() ? scr_now_monotonic_ns() : 0;
    while (n > 0 && !g_gzip.write_failed) {
        ssize_t r = SCR_RETRY_EINTR(scr_report_file_write(g_gzip.fd, p, n));
        if (r <= 0) {
            g_gzip.write_failed = true;
            g_gzip.write_errno = r < 0 ? errno : ENOSPC; // a write of 0 bytes: no room
            return;
        }
        p += r;
        n -= (size_t)r;
    }
    if (began != 0) scr_profile_add(SCR_PROFILE_WRITE, scr_now_monotonic_ns() - began);
}

// Async-signal-safe. Compresses what is pending in the writer with `flush` and writes
// every full output buffer.
static int pump(scr_writer *w, int flush) {
    z_stream *s = &g_gzip.stream;
    s->next_in = (Bytef *)w->buf;
    s->avail_in = (uInt)w->len;
    int r;
    do {
        s->next_out = g_gzip.out;
        s->avail_out = SCR_OUT_SIZE;
        uint64_t began = scr_profile_on() ? scr_now_monotonic_ns() : 0;
        r = deflate(s, flush);
        if (began != 0) scr_profile_add(SCR_PROFILE_DEFLATE, scr_now_monotonic_ns() - began);
        if (r == Z_STREAM_ERROR) return -1;
        write_all(g_gzip.out, SCR_OUT_SIZE - s->avail_out);
    } while (s->avail_out == 0 || (flush == Z_FINISH && r != Z_STREAM_END));
    w->len = 0;
    // A failed file stops the report, unless its copy for stderr still takes the output.
    return g_gzip.write_failed && !scr_stderr_copy_teeing() ? -1 : 0;
}

// Async-signal-safe.
static void drain(scr_writer *w) {
    if (pump(w, Z_NO_FLUSH) != 0) w->failed = true;
}

// The warm-up's arena (scr_gzip_warm): the caller's stack buffer.
typedef struct scr_warm_arena {
    char *base;
    size_t used;
    size_t cap;
} scr_warm_arena;

// Not async-signal-safe, and it need not be: start()'s background thread calls it once. A bump
// allocator over the warm-up's arena (`opaque`).
static voidpf warm_alloc(voidpf opaque, uInt items, uInt size) {
    scr_warm_arena *arena = opaque;
    size_t bytes = ((size_t)items * size + 15u) & ~(size_t)15u;
    if (arena->used + bytes > arena->cap) return Z_NULL;
    void *p = arena->base + arena->used;
    arena->used += bytes;
    return p;
}

// Not async-signal-safe (start()'s background thread, once). Compresses a few bytes with the
// crash's settings and a stack arena of its own, never the crash's: a first call through the
// PLT runs the dynamic linker's resolver, and every page of zlib's code this process has not yet
// touched is a page fault; a crash after this finds both done (tens of µs off the crash path,
// docs/decisions/0141-start-readies-zlib-and-the-crashs-buffers-off-the-crash-path.md). It never
// writes the crash's arena, input or output.
void scr_gzip_warm(void) {
    char memory[SCR_ARENA_SIZE] __attribute__((aligned(16)));
    scr_warm_arena arena = {memory, 0, sizeof memory};
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    stream.zalloc = warm_alloc;
    stream.zfree = arena_free;
    stream.opaque = &arena;
    if (deflateInit2(&stream, SCR_GZIP_LEVEL, Z_DEFLATED, SCR_WINDOW_BITS + 16, SCR_MEM_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK) {
        return;
    }
    static const char sample[] = "{\"breadcrumbs\":{\"items\":[{\"level\":\"info\"},{\"level\":\"info\"}]}}";
    unsigned char out[256];
    stream.next_in = (Bytef *)sample;
    stream.avail_in = (uInt)(sizeof sample - 1);
    stream.next_out = out;
    stream.avail_out = sizeof out;
    (void)deflate(&stream, Z_FINISH);
    deflateEnd(&stream);
    (void)crc32(0L, out, 16); // the stderr copy's line checksum
    // The crash's own arena and buffers made resident without writing them (a crash may be using
    // them right now): each page is otherwise a page fault the crash takes. Of the arena, only what
    // deflate takes from it (this stream took the same): about 64 KiB of private memory for about
    // 30 µs off the crash (docs/benchmarks.md); nothing on a kernel before 5.14.
    if (g_gzip.arena == NULL) return;
    size_t page = (size_t)getpagesize();
    size_t taken = (arena.used + page - 1) / page * page;
    (void)madvise(g_gzip.arena, taken < SCR_ARENA_SIZE ? taken : SCR_ARENA_SIZE, MADV_POPULATE_WRITE);
    (void)madvise(g_gzip.in, SCR_IN_SIZE + SCR_OUT_SIZE, MADV_POPULATE_WRITE);
}


// Async-signal-safe: deflateInit2 allocates only from the arena. `fd` < 0: no file (the
// output goes to the stderr copy alone; scr_gzip_finish then reports EBADF).
int scr_gzip_begin(int fd, scr_writer *w, int level) {
    if (g_gzip.arena == NULL) return -1;
    g_gzip.arena_used = 0;
    g_gzip.fd = fd;
    g_gzip.write_failed = fd < 0;
    g_gzip.write_errno = fd < 0 ? EBADF : 0;
    memset(&g_gzip.stream, 0, sizeof g_gzip.stream);
    g_gzip.stream.zalloc = arena_alloc;
    g_gzip.stream.zfree = arena_free;
    // windowBits + 16 asks zlib for a gzip header and trailer instead of zlib's.
    if (deflateInit2(&g_gzip.stream, level, Z_DEFLATED, SCR_WINDOW_BITS + 16, SCR_MEM_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK) {
        return -1;
    }
    *w = (scr_writer){.buf = g_gzip.in, .cap = SCR_IN_SIZE, .drain = drain};
    return 0;
}

// Async-signal-safe. Flushes the rest, writes the gzip trailer. Returns 0 if every byte
// reached the file, else the errno of the write that failed, or -1 when zlib failed.
int scr_gzip_finish(scr_writer *w) {
    int r = w->failed ? -1 : pump(w, Z_FINISH);
    deflateEnd(&g_gzip.stream);
    if (g_gzip.write_failed) return g_gzip.write_errno; // set with it (the stderr copy may have gone on)
    return r;
}

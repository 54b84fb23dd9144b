// The crash on standard error: a container's filesystem may die with it, its stderr survives in
// the platform's log store (docs/deployment.md). After the report is written (or could not be),
// the handler writes to fd 2 one human summary line and then, with the mode `report` (the
// default, docs/decisions/0134-a-crash-writes-its-report-to-standard-error-by-default.md), the
// compressed report itself as marked text lines that `crashreport import` rebuilds (the line
// format: docs/report-schema.md, "On standard error").
//
// Where the bytes come from. The gzip sink tees every block of deflate output of a crash's report
// into a memory file (memfd_create at install: no memory is used until a crash writes to it, and
// it holds a report of any size), beside the report's own file. So the copy is byte for byte the
// `.crash` file, and it exists even when that file could not be made (a read-only root, no state
// directory) or failed halfway (a full disk): the sink goes on compressing for the copy alone.
// Once the report is done, the handler reads the memory file back with read(2), 3,000 bytes a
// line, and writes each line with one write(2).
//
// Lines. `crash-reporter-data:1 <id> <part>/<count> <crc32> <payload>`: the payload is the part's
// bytes in base64url (A-Z a-z 0-9 - _ and = padding), so a line has no character that JSON
// escapes (a Docker json-file or CRI log keeps it verbatim) and the marker is found after any
// log driver's prefix. The CRC-32 (zlib's, which deflate already runs on this path: pure
// computation over constant tables) covers "<id> <part>/<count>" and the part's bytes, so a line
// of another report or a changed line is refused. 3,000 bytes make a 4,000-character payload and
// a line of at most 4,084 bytes: within PIPE_BUF (4,096), so a line reaches a pipe in one piece
// even when another process writes to the same pipe, and far below the 16 KiB at which Docker
// and CRI split lines.
//
// The writes. SIGPIPE is ignored while they run (a log reader that went away gives EPIPE, not a
// death by another signal), each write waits with poll(2) for room, and all of them together
// have a budget (SCR_COPY_BUDGET_MS): a log pipe nobody drains delays the end of the process by
// that much at most, and the report's file is complete before any of this begins.
#include "internal.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#define SCR_COPY_PART_BYTES 3000 // a multiple of 3: only the last line has padding
#define SCR_COPY_LINE_MAX 4096
#define SCR_COPY_SUMMARY_MAX 1024
#define SCR_COPY_MESSAGE_MAX 300 // bytes of the fatal-error message in the summary
#define SCR_COPY_BUDGET_MS 5000
#define SCR_COPY_MARKER "crash-reporter-data:1 "

static struct {
    int mode;       // SCR_STDERR_OFF, _SUMMARY, _REPORT
    int memory_fd;  // the memory file of the tee, -1 when none
    bool teeing;    // a crash's report is being written through the tee
    bool tee_failed;
    uint64_t tee_bytes;
    char summary[SCR_COPY_SUMMARY_MAX];
    unsigned char part[SCR_COPY_PART_BYTES];
    char line[SCR_COPY_LINE_MAX];
    uint64_t deadline_ns;
} g_copy = {.mode = SCR_STDERR_REPORT, .memory_fd = -1};

// Not async-signal-safe (install; memfd_create). Keeps the mode and makes the memory file the
// mode `report` needs (the copy is the summary alone without it).
int scr_stderr_copy_configure(int mode) {
    if (mode < SCR_STDERR_OFF || mode > SCR_STDERR_REPORT) return SCR_ERR_BAD_CONFIG;
    g_copy.mode = mode;
    if (mode == SCR_STDERR_REPORT && g_copy.memory_fd < 0) {
        g_copy.memory_fd = memfd_create("crash-report-copy", MFD_CLOEXEC);
    }
    return SCR_OK;
}

// Async-signal-safe. Whether the stderr copy has its report lines (the memory file exists).
int scr_stderr_copy_has_report(void) { return g_copy.mode == SCR_STDERR_REPORT && g_copy.memory_fd >= 0; }

// Async-signal-safe (ftruncate, lseek). A crash's report begins: from now on the gzip sink's
// output is teed. The memory file is emptied first: a child forked without exec shares it (and
// its offset), and may have crashed into it before.
bool scr_stderr_copy_begin(void) {
    g_copy.teeing = scr_stderr_copy_has_report() && ftruncate(g_copy.memory_fd, 0) == 0 &&
                    lseek(g_copy.memory_fd, 0, SEEK_SET) == 0;
    g_copy.tee_failed = false;
    g_copy.tee_bytes = 0;
    return g_copy.teeing;
}

// Async-signal-safe. Whether the sink's output goes to the copy (and so must go on when the
// report's file fails).
bool scr_stderr_copy_teeing(void) { return g_copy.teeing && !g_copy.tee_failed; }

// Async-signal-safe (write(2) to the memory file). A block of the report's gzip bytes.
void scr_stderr_copy_tee(const void *bytes, size_t n) {
    if (!g_copy.teeing || g_copy.tee_failed) return;
    const char *p = bytes;
    while (n > 0) {
        ssize_t r = SCR_RETRY_EINTR(write(g_copy.memory_fd, p, n));
        if (r <= 0) {
            g_copy.tee_failed = true; // no memory for it: the summary line still goes out
            return;
        }
        p += r;
        n -= (size_t)r;
        g_copy.tee_bytes += (uint64_t)r;
    }
}

// Async-signal-safe (clock_gettime). The milliseconds left of the copy's budget, rounded up; 0
// once it is spent.
static int budget_left_ms(void) {
    uint64_t now = scr_now_monotonic_ns();
    return now >= g_copy.deadline_ns ? 0 : (int)((g_copy.deadline_ns - now) / 1000000u) + 1;
}

// Async-signal-safe (poll, write). Writes all of `n` bytes to `fd` within the copy's budget;
// false when it could not (closed, a reader gone, no room in time).
static bool write_within_budget(int fd, const char *p, size_t n) {
    while (n > 0) {
        if (scr_now_monotonic_ns() >= g_copy.deadline_ns) return false;
        struct pollfd pfd = {.fd = fd, .events = POLLOUT};
        // An interrupted poll waits again for what is left of the budget, not the whole of it.
        int ready = SCR_RETRY_EINTR(poll(&pfd, 1, budget_left_ms()));
        if (ready <= 0 || (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) return false;
        ssize_t r = SCR_RETRY_EINTR(write(fd, p, n));
        if (r < 0 && errno == EAGAIN) continue; // full again: back to poll
        if (r <= 0) return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

// Async-signal-safe: pure computation. Appends `s` at `*n` in `out`, cut at `cap` - 1.
static void append(char *out, size_t cap, size_t *n, const char *s) { *n += scr_strlcpy(out + *n, s, cap - *n); }

// Async-signal-safe: pure computation. Appends `v` as "0x…" hex.
static void append_hex(char *out, size_t cap, size_t *n, uint64_t v) {
    static const char hex[] = "0123456789abcdef";
    char digits[19] = "0x";
    int d = 0;
    char rev[16];
    do {
        rev[d++] = hex[v & 0xf];
        v >>= 4;
    } while (v != 0);
    int at = 2;
    while (d > 0) digits[at++] = rev[--d];
    digits[at] = '\0';
    append(out, cap, n, digits);
}

// Async-signal-safe: pure computation. Appends `len` bytes of `text` with every control
// character made a space (the summary stays one line).
static void append_text(char *out, size_t cap, size_t *n, const char *text, size_t len) {
    for (size_t i = 0; i < len && *n + 1 < cap; i++) {
        unsigned char c = (unsigned char)text[i];
        out[(*n)++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    out[*n] = '\0';
}

// Async-signal-safe: the fatal-error message (a guarded copy), the image table, pure
// computation. The summary line, with its newline; returns its length.
static size_t build_summary(int sig, int code, uintptr_t ip, const char *id, bool on_disk, uint32_t parts) {
    char *out = g_copy.summary;
    size_t cap = sizeof g_copy.summary - 1; // room for the newline
    size_t n = 0;
    out[0] = '\0';
    append(out, cap, &n, "crash-reporter: the process crashed: ");
    size_t message_len = 0;
    const char *message = scr_fatal_message_read(&message_len);
    if (message != NULL) {
        append_text(out, cap, &n, message, scr_utf8_cut(message, message_len, SCR_COPY_MESSAGE_MAX));
        append(out, cap, &n, " (");
        append(out, cap, &n, scr_signal_name(sig));
        append(out, cap, &n, ")");
    } else {
        append(out, cap, &n, scr_signal_name(sig));
        append(out, cap, &n, " (");
        append(out, cap, &n, scr_signal_code_name(sig, code));
        append(out, cap, &n, ")");
    }
    append(out, cap, &n, " at ");
    int image = scr_images_find(ip);
    if (image >= 0) {
        append(out, cap, &n, scr_images_name(image));
        append(out, cap, &n, "+");
        append_hex(out, cap, &n, (uint64_t)(ip - scr_images_base(image)));
    } else {
        append_hex(out, cap, &n, (uint64_t)ip);
    }
    if (id == NULL || id[0] == '\0' || (!on_disk && parts == 0)) {
        append(out, cap, &n, "; no report was written");
    } else {
        append(out, cap, &n, "; report ");
        append(out, cap, &n, id);
        if (!on_disk) append(out, cap, &n, " (not on disk)");
        if (parts > 0) {
            char digits[24];
            scr_format_decimal(digits, sizeof digits, parts);
            append(out, cap, &n, "; ");
            append(out, cap, &n, digits);
            append(out, cap, &n, parts == 1 ? " line of it follows" : " lines of it follow");
            append(out, cap, &n, " for crashreport import");
        }
    }
    out[n++] = '\n';
    out[n] = '\0';
    return n;
}

// Async-signal-safe: pure computation. `n` bytes as base64url with padding; returns the length.
static size_t base64url(const unsigned char *in, size_t n, char *out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t o = 0;
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = alphabet[(v >> 6) & 63];
        out[o++] = alphabet[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);
        out[o++] = alphabet[v >> 18];
        out[o++] = alphabet[(v >> 12) & 63];
        out[o++] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
        out[o++] = '=';
    }
    return o;
}

// Async-signal-safe (read). Fills `g_copy.part` with up to `want` bytes of the memory file.
static size_t read_part(size_t want) {
    size_t got = 0;
    while (got < want) {
        ssize_t r = SCR_RETRY_EINTR(read(g_copy.memory_fd, g_copy.part + got, want - got));
        if (r <= 0) break;
        got += (size_t)r;
    }
    return got;
}

// Async-signal-safe (lseek, read, write, poll; zlib's crc32: computation over constant tables).
// Writes the report's lines to fd 2; false when a write failed or ran out of budget.
static bool write_parts(const char *id, uint32_t parts) {
    if (lseek(g_copy.memory_fd, 0, SEEK_SET) != 0) return false;
    uint64_t left = g_copy.tee_bytes;
    for (uint32_t part = 1; part <= parts; part++) {
        size_t want = left < SCR_COPY_PART_BYTES ? (size_t)left : SCR_COPY_PART_BYTES;
        if (read_part(want) != want) return false;
        left -= want;
        char *line = g_copy.line;
        size_t cap = sizeof g_copy.line;
        size_t n = 0;
        line[0] = '\0';
        append(line, cap, &n, SCR_COPY_MARKER);
        size_t header_at = n;
        char digits[24];
        append(line, cap, &n, id);
        append(line, cap, &n, " ");
        scr_format_decimal(digits, sizeof digits, part);
        append(line, cap, &n, digits);
        append(line, cap, &n, "/");
        scr_format_decimal(digits, sizeof digits, parts);
        append(line, cap, &n, digits);
        uLong crc = crc32(0L, (const Bytef *)line + header_at, (uInt)(n - header_at));
        crc = crc32(crc, g_copy.part, (uInt)want);
        static const char hex[] = "0123456789abcdef";
        line[n++] = ' ';
        for (int shift = 28; shift >= 0; shift -= 4) line[n++] = hex[(crc >> shift) & 0xf];
        line[n++] = ' ';
        n += base64url(g_copy.part, want, line + n);
        line[n++] = '\n';
        if (!write_within_budget(STDERR_FILENO, line, n)) return false;
    }
    return true;
}

// Async-signal-safe: sigaction, the functions above, scr_termination_log_write. After a crash's
// report: the summary line and, with the mode `report`, the report's lines on fd 2; the summary
// in the termination log (termination_log.c).
// `id` is the report's (NULL or empty when none was begun), `on_disk` whether its file is whole.
void scr_stderr_copy_emit(int sig, const siginfo_t *info, const void *ucontext, const char *id, bool on_disk) {
    bool teed = g_copy.teeing && !g_copy.tee_failed && g_copy.tee_bytes > 0;
    g_copy.teeing = false;
    uint64_t parts64 = teed ? (g_copy.tee_bytes + SCR_COPY_PART_BYTES - 1) / SCR_COPY_PART_BYTES : 0;
    uint32_t parts = parts64 <= 999999 ? (uint32_t)parts64 : 0;
    if (g_copy.mode != SCR_STDERR_REPORT || id == NULL || id[0] == '\0') parts = 0;
    uintptr_t ip = ucontext != NULL ? scr_context_ip(ucontext) : 0;
    size_t len = build_summary(sig, info != NULL ? info->si_code : 0, ip, id, on_disk, parts);
    scr_termination_log_write(g_copy.summary, len);
    if (g_copy.mode == SCR_STDERR_OFF) return;
    struct sigaction ignore, previous;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &previous);
    g_copy.deadline_ns = scr_now_monotonic_ns() + (uint64_t)SCR_COPY_BUDGET_MS * 1000000u;
    if (write_within_budget(STDERR_FILENO, g_copy.summary, len) && parts > 0) (void)write_parts(id, parts);
    sigaction(SIGPIPE, &previous, NULL);
}

// Async-signal-safe.
size_t scr_stderr_copy_reserved_bytes(void) { return sizeof g_copy; }

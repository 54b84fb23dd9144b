// A buffered writer over memory its owner supplies (no malloc, no stdio). The crash path
// points `drain` at the gzip sink; tests and the breadcrumb dump use a plain buffer and see
// `failed` when it is too small. All functions here are async-signal-safe: they only copy
// bytes and call `drain`.
#include "internal.h"

#include <string.h>

// Async-signal-safe.
void scr_w_bytes_slow(scr_writer *w, const char *bytes, size_t n) {
    while (n > 0 && !w->failed) {
        size_t room = w->cap - w->len;
        if (room == 0) {
            if (w->drain == NULL) {
                w->failed = true;
                return;
            }
            w->drain(w);
            if (w->len == w->cap) {
                w->failed = true;
                return;
            }
            continue;
        }
        size_t take = n < room ? n : room;
        memcpy(w->buf + w->len, bytes, take);
        w->len += take;
        bytes += take;
        n -= take;
    }
}

// Async-signal-safe.
void scr_w_cstr(scr_writer *w, const char *s) { scr_w_bytes(w, s, strlen(s)); }

// Async-signal-safe.
void scr_w_u64(scr_writer *w, uint64_t v) {
    char digits[20];
    size_t n = 0;
    do {
        digits[sizeof digits - 1 - n] = (char)('0' + v % 10);
        v /= 10;
        n++;
    } while (v != 0);
    scr_w_bytes(w, digits + sizeof digits - n, n);
}

// Async-signal-safe.
void scr_w_i64(scr_writer *w, int64_t v) {
    if (v < 0) {
        scr_w_bytes(w, "-", 1);
        scr_w_u64(w, (uint64_t)(-(v + 1)) + 1);
    } else {
        scr_w_u64(w, (uint64_t)v);
    }
}

// Async-signal-safe. Writes "0x…" in lower-case hex, quotes included, no leading zeros.
void scr_w_hex(scr_writer *w, uint64_t v) {
    static const char hex[] = "0123456789abcdef";
    char out[20];
    size_t n = 0;
    do {
        out[sizeof out - 1 - n] = hex[v & 0xf];
        v >>= 4;
        n++;
    } while (v != 0);
    scr_w_bytes(w, "\"0x", 3);
    scr_w_bytes(w, out + sizeof out - n, n);
    scr_w_bytes(w, "\"", 1);
}

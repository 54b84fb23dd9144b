// JSON output for the report: objects, arrays, keys and values, with the commas between
// them written here and nowhere else, and strings escaped and bounded. Every function is
// async-signal-safe (pure computation over the writer).
#include "internal.h"

#include <string.h>

#define SCR_JSON_MAX_DEPTH 32

// Async-signal-safe. The one place a comma is written: before every member of an object and
// every element of an array but the first.
static void separate(scr_writer *w) {
    if (w->depth == 0) return;
    uint32_t bit = 1u << (w->depth - 1);
    if (w->has_member & bit) scr_w_bytes(w, ",", 1);
    w->has_member |= bit;
}

// Async-signal-safe. Before a value: nothing right after its key, else it is an element.
static void before_value(scr_writer *w) {
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    separate(w);
}

// Async-signal-safe. Escapes quotes, backslashes and control characters; bytes that are
// not valid UTF-8 become U+FFFD so that the report always parses.
static void write_string(scr_writer *w, const char *s, size_t len, size_t max) {
    static const char hex[] = "0123456789abcdef";
    if (s == NULL) {
        len = 0;
    }
    len = scr_utf8_cut(s, len, max);
    scr_w_bytes(w, "\"", 1);
    size_t run = 0; // start of a run of bytes that need no escaping
    size_t i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0x80) {
            // Validate one UTF-8 sequence (no overlongs, surrogates or values past U+10FFFF);
            // keep it if whole and well-formed.
            size_t need = (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : 0;
            bool ok = need != 0 && i + need < len && c >= 0xC2 && c <= 0xF4;
            for (size_t k = 1; ok && k <= need; k++) {
                if ((((unsigned char)s[i + k]) & 0xC0) != 0x80) ok = false;
            }
            if (ok) {
                unsigned char c1 = (unsigned char)s[i + 1];
                if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) ||
                    (c == 0xF4 && c1 >= 0x90)) {
                    ok = false;
                }
            }
            if (ok) {
                i += need + 1;
                continue;
            }
            scr_w_bytes(w, s + run, i - run);
            scr_w_bytes(w, "\xEF\xBF\xBD", 3);
            i++;
            run = i;
            continue;
        }
        scr_w_bytes(w, s + run, i - run);
        switch (c) {
        case '"': scr_w_bytes(w, "\\\"", 2); break;
        case '\\': scr_w_bytes(w, "\\\\", 2); break;
        case '\n': scr_w_bytes(w, "\\n", 2); break;
        case '\r': scr_w_bytes(w, "\\r", 2); break;
        case '\t': scr_w_bytes(w, "\\t", 2); break;
        default: {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
            scr_w_bytes(w, esc, sizeof esc);
        }
        }
        i++;
        run = i;
    }
    scr_w_bytes(w, s + run, len - run);
    scr_w_bytes(w, "\"", 1);
}

// Async-signal-safe.
void scr_json_string(scr_writer *w, const char *s, size_t len, size_t max) {
    before_value(w);
    write_string(w, s, len, max);
}

// Async-signal-safe.
void scr_json_cstring(scr_writer *w, const char *s, size_t max) {
    scr_json_string(w, s, s == NULL ? 0 : strnlen(s, max + 1), max);
}

// Async-signal-safe. A member's key, escaped and bounded like any string; the comma before
// it when the object has a member already.
void scr_json_key_string(scr_writer *w, const char *s, size_t len, size_t max) {
    separate(w);
    write_string(w, s, len, max);
    scr_w_bytes(w, ":", 1);
    w->after_key = true;
}

// Async-signal-safe. A key the report's code names.
void scr_json_key(scr_writer *w, const char *key) {
    size_t n = strlen(key);
    scr_json_key_string(w, key, n, n);
}

// Async-signal-safe. Opens an object or array; one nested too deep marks the writer failed.
static void open_container(scr_writer *w, const char *bracket) {
    before_value(w);
    if (w->depth == SCR_JSON_MAX_DEPTH) {
        w->failed = true;
        return;
    }
    scr_w_bytes(w, bracket, 1);
    w->depth++;
    w->has_member &= ~(1u << (w->depth - 1));
}

// Async-signal-safe.
static void close_container(scr_writer *w, const char *bracket) {
    if (w->depth == 0) {
        w->failed = true;
        return;
    }
    scr_w_bytes(w, bracket, 1);
    w->depth--;
}

// Async-signal-safe.
void scr_json_object_begin(scr_writer *w) { open_container(w, "{"); }

// Async-signal-safe.
void scr_json_object_end(scr_writer *w) { close_container(w, "}"); }

// Async-signal-safe.
void scr_json_array_begin(scr_writer *w) { open_container(w, "["); }

// Async-signal-safe.
void scr_json_array_end(scr_writer *w) { close_container(w, "]"); }

// Async-signal-safe.
void scr_json_u64(scr_writer *w, uint64_t v) {
    before_value(w);
    scr_w_u64(w, v);
}

// Async-signal-safe.
void scr_json_i64(scr_writer *w, int64_t v) {
    before_value(w);
    scr_w_i64(w, v);
}

// Async-signal-safe.
void scr_json_hex(scr_writer *w, uint64_t v) {
    before_value(w);
    scr_w_hex(w, v);
}

// Async-signal-safe.
void scr_json_bool(scr_writer *w, bool v) {
    before_value(w);
    scr_w_cstr(w, v ? "true" : "false");
}

// Async-signal-safe.
void scr_json_null(scr_writer *w) {
    before_value(w);
    scr_w_bytes(w, "null", 4);
}

// Async-signal-safe.
long scr_json_write_string(char *buffer, size_t capacity, const char *bytes, size_t length, size_t max_bytes) {
    if (buffer == NULL || capacity == 0) return -1;
    scr_writer w = {.buf = buffer, .cap = capacity - 1, .len = 0, .failed = false, .drain = NULL};
    scr_json_string(&w, bytes, length, max_bytes);
    if (w.failed) return -1;
    buffer[w.len] = '\0';
    return (long)w.len;
}

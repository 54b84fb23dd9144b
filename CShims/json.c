// JSON output for the report: strings escaped and bounded, keys, commas. Every function
// is async-signal-safe (pure computation over the writer).
#include "internal.h"

#include <string.h>

// Async-signal-safe. Escapes quotes, backslashes and control characters; bytes that are
// not valid UTF-8 become U+FFFD so that the report always parses.
void scr_json_string(scr_writer *w, const char *s, size_t len, size_t max) {
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
void scr_json_cstring(scr_writer *w, const char *s, size_t max) {
    scr_json_string(w, s, s == NULL ? 0 : strnlen(s, max + 1), max);
}

// Async-signal-safe.
void scr_json_key(scr_writer *w, const char *key) {
    scr_w_bytes(w, "\"", 1);
    scr_w_cstr(w, key);
    scr_w_bytes(w, "\":", 2);
}

// Async-signal-safe. Writes a comma before every element but the first.
void scr_json_comma(scr_writer *w, bool *first) {
    if (*first) {
        *first = false;
    } else {
        scr_w_bytes(w, ",", 1);
    }
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

// Scrubbing a task's name in the handler. A service names its tasks in code, but a name may be
// built from request data (`Task(name: "orders for \(user.email)")`), and the handler cannot
// run the Swift scrubber (Tracking's Scrubber). So this rule is stricter than it, word by word
// (words split at spaces and tabs):
//   - a word with an `@` (an e-mail address), `://` (a URL), `eyJ` (a JSON Web Token), three
//     dots after digits (an IPv4 address), two colons and a digit (an IPv6 address), a run of
//     6 digits or more (a phone number, an account or order number), or a run of 16 or more
//     token characters ([A-Za-z0-9+/=_-]) holding a digit and a letter (keys, hashes) becomes
//     `[redacted]`, as does the word after `bearer` (any case);
//   - the whole name becomes `[redacted]` when what is left holds 13 digits or more (a card
//     number written in groups);
// and the result is cut, at a word, to the room given. The thread-name rule (report_threads.c)
// is the same idea over 15 bytes. docs/async-capture.md, "The task's name", has the reasoning.
#include "internal.h"

#include <string.h>

static const char redacted[] = "[redacted]";

// Async-signal-safe: pure computation.
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Async-signal-safe: pure computation.
static bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Async-signal-safe: pure computation.
static bool is_token_byte(char c) {
    return is_digit(c) || is_letter(c) || c == '+' || c == '/' || c == '=' || c == '_' || c == '-';
}

// Async-signal-safe: pure computation. Whether `word` (`n` bytes) could hold personal data.
static bool suspicious(const char *word, size_t n) {
    int dots_after_digit = 0, colons = 0, digit_run = 0, token_run = 0;
    bool token_digit = false, token_letter = false, any_digit = false;
    for (size_t i = 0; i < n; i++) {
        char c = word[i];
        if (c == '@') return true;
        if (i + 2 < n && memcmp(word + i, "://", 3) == 0) return true;
        if (i + 2 < n && memcmp(word + i, "eyJ", 3) == 0) return true;
        if (c == '.' && i > 0 && is_digit(word[i - 1])) dots_after_digit++;
        if (c == ':') colons++;
        digit_run = is_digit(c) ? digit_run + 1 : 0;
        any_digit |= is_digit(c);
        if (is_token_byte(c)) {
            token_run++;
            token_digit |= is_digit(c);
            token_letter |= is_letter(c);
        } else {
            token_run = 0;
            token_digit = token_letter = false;
        }
        if (digit_run >= 6 || (token_run >= 16 && token_digit && token_letter)) return true;
    }
    return dots_after_digit >= 3 || (colons >= 2 && any_digit);
}

// Async-signal-safe: pure computation. Whether `word` is `bearer` in any case.
static bool is_bearer(const char *word, size_t n) {
    static const char bearer[] = "bearer";
    if (n != 6) return false;
    for (size_t i = 0; i < 6; i++) {
        char c = word[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != bearer[i]) return false;
    }
    return true;
}

// Async-signal-safe: pure computation. See the file's comment.
void scr_scrub_task_name(const char *name, size_t len, char *out, size_t cap) {
    size_t o = 0;
    bool after_bearer = false;
    size_t i = 0;
    while (i < len) {
        size_t start = i;
        while (i < len && name[i] != ' ' && name[i] != '\t') i++;
        size_t n = i - start;
        const char *word = name + start;
        if (n > 0) {
            if (after_bearer || suspicious(word, n)) {
                word = redacted;
                n = sizeof redacted - 1;
            }
            after_bearer = is_bearer(name + start, i - start);
        }
        // The word and the separator after it, as far as they fit.
        size_t room = cap - 1 - o;
        size_t take = n <= room ? n : (word == redacted ? 0 : scr_utf8_cut(word, n, room));
        memcpy(out + o, word, take);
        o += take;
        if (take < n) break;
        if (i < len && o < cap - 1) out[o++] = name[i];
        if (i < len) i++;
    }
    out[o] = '\0';
    int digits = 0;
    for (size_t k = 0; k < o; k++) digits += is_digit(out[k]);
    if (digits >= 13) scr_strlcpy(out, redacted, cap);
}

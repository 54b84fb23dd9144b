// The distribution's name for the report's `os.distribution`: PRETTY_NAME from
// /etc/os-release (os-release(5)), read once at install.
#include "internal.h"

#include <string.h>

// Not async-signal-safe in practice (called once at install), though it only reads a file.
// Copies PRETTY_NAME, without its quotes, into `out`; leaves `out` as it is when the file or the
// line is missing.
void scr_os_release_pretty_name(char *out, size_t cap) {
    char text[4096];
    if (scr_read_file("/etc/os-release", text, sizeof text) <= 0) return;
    for (char *line = text; *line != '\0';) {
        char *end = strchr(line, '\n');
        if (end != NULL) *end = '\0';
        if (strncmp(line, "PRETTY_NAME=", 12) == 0) {
            char *v = line + 12;
            size_t n = strlen(v);
            if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
                v[n - 1] = '\0';
                v++;
            }
            scr_strlcpy(out, v, cap);
            return;
        }
        if (end == NULL) return;
        line = end + 1;
    }
}

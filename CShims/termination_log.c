// The Kubernetes termination message: the crash's summary line (stderr_copy.c) in the file the
// kubelet reads when the container ends (`terminationMessagePath`, /dev/termination-log), so
// that `kubectl describe pod` and the pod's status say why it died and name the report. Swift
// resolves the path at start (CRASH_REPORTER_TERMINATION_LOG, else /dev/termination-log when it
// is there and writable); the handler opens it only at a crash (docs/deployment.md).
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define SCR_TERMINATION_LOG_PATH_MAX 4096
#define SCR_TERMINATION_MESSAGE_MAX 4096 // what the kubelet keeps of the file

static struct {
    char path[SCR_TERMINATION_LOG_PATH_MAX]; // empty: none
} g_termination;

// Not async-signal-safe by intent (install). Keeps the path; NULL or "" for none.
int scr_termination_log_configure(const char *path) {
    if (path == NULL) path = "";
    size_t n = 0;
    while (path[n] != '\0') n++;
    if (n >= sizeof g_termination.path) return SCR_ERR_PATH_TOO_LONG;
    scr_strlcpy(g_termination.path, path, sizeof g_termination.path);
    return SCR_OK;
}

// Async-signal-safe (open, write, close). `text` (at most 4,096 bytes of it) as the file's whole
// content: truncated first, made with mode 0644 when it is missing.
void scr_termination_log_write(const char *text, size_t len) {
    if (g_termination.path[0] == '\0') return;
    int fd = open(g_termination.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0644);
    if (fd < 0) return;
    if (len > SCR_TERMINATION_MESSAGE_MAX) len = SCR_TERMINATION_MESSAGE_MAX;
    while (len > 0) {
        ssize_t r = SCR_RETRY_EINTR(write(fd, text, len));
        if (r <= 0) break;
        text += r;
        len -= (size_t)r;
    }
    close(fd);
}

// Async-signal-safe.
size_t scr_termination_log_reserved_bytes(void) { return sizeof g_termination; }

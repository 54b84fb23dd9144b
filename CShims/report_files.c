// The report's files in `pending/`: `<id>.crash.tmp` while it is written, renamed to `.crash`
// once whole, or to `<id>.crash.failed-<errno>` when a write failed, so that the next launch
// sets it aside with its reason (ReportStore). The directories and the endings are the Swift side's
// (StateLayout), handed over at install; the state directory is made again when it was removed
// while the service ran, and one descriptor is kept free for a crash that finds the descriptor table full
// (docs/signal-safety.md, "Faults while writing").
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h> // for rename(2) only: no stdio stream is ever used here
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SCR_DIR_MAX 3900

static struct {
    char pending_dir[SCR_DIR_MAX];
    char state_dir[SCR_DIR_MAX]; // made again if it was removed; empty for none
    char report_suffix[SCR_SUFFIX_MAX], temporary_suffix[SCR_SUFFIX_MAX], failed_suffix[SCR_SUFFIX_MAX];
    char tmp_path[SCR_DIR_MAX + 96]; // "/", the id, an ending and an errno's digits
    char final_path[SCR_DIR_MAX + 96];
    int spare_fd;    // a descriptor kept for the crash's report (a full table)
    dev_t spare_dev; // what spare_fd is, to check it is still ours before closing it
    ino_t spare_ino;
} g_files;

// Not async-signal-safe by intent (called at install), though it only opens and stats. Keeps one
// descriptor open on /dev/null so that a crash with the descriptor table full still has one for
// its report: the handler closes it first (scr_report_files_release_spare).
static void reserve_spare_fd(void) {
    g_files.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (g_files.spare_fd >= 0 && fstat(g_files.spare_fd, &st) == 0) {
        g_files.spare_dev = st.st_dev;
        g_files.spare_ino = st.st_ino;
    } else if (g_files.spare_fd >= 0) {
        close(g_files.spare_fd);
        g_files.spare_fd = -1;
    }
}

// Not async-signal-safe; called once at install.
int scr_report_files_prepare(const scr_config *config) {
    if (strlen(config->pending_dir) >= SCR_DIR_MAX) return SCR_ERR_PATH_TOO_LONG;
    if (config->state_dir != NULL && strlen(config->state_dir) >= SCR_DIR_MAX) return SCR_ERR_PATH_TOO_LONG;
    if (strlen(config->report_suffix) >= SCR_SUFFIX_MAX || strlen(config->temporary_suffix) >= SCR_SUFFIX_MAX ||
        strlen(config->failed_suffix) >= SCR_SUFFIX_MAX) {
        return SCR_ERR_BAD_CONFIG;
    }
    scr_strlcpy(g_files.pending_dir, config->pending_dir, sizeof g_files.pending_dir);
    scr_strlcpy(g_files.state_dir, config->state_dir != NULL ? config->state_dir : "", sizeof g_files.state_dir);
    scr_strlcpy(g_files.report_suffix, config->report_suffix, sizeof g_files.report_suffix);
    scr_strlcpy(g_files.temporary_suffix, config->temporary_suffix, sizeof g_files.temporary_suffix);
    scr_strlcpy(g_files.failed_suffix, config->failed_suffix, sizeof g_files.failed_suffix);
    reserve_spare_fd();
    return SCR_OK;
}

// Async-signal-safe.
size_t scr_report_files_reserved_bytes(void) { return sizeof g_files; }

// Async-signal-safe (fstat, close). Frees the spare descriptor for the crash's own files, if it
// is still the one reserved (a service that closed every descriptor may have reused its number).
void scr_report_files_release_spare(void) {
    int fd = g_files.spare_fd;
    if (fd < 0) return;
    g_files.spare_fd = -1;
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_dev == g_files.spare_dev && st.st_ino == g_files.spare_ino) close(fd);
}

// Async-signal-safe. Builds "<dir>/<id><suffix>".
static void make_path(char *out, size_t cap, const char *id, const char *suffix) {
    size_t n = scr_strlcpy(out, g_files.pending_dir, cap);
    n += scr_strlcpy(out + n, "/", cap - n);
    n += scr_strlcpy(out + n, id, cap - n);
    scr_strlcpy(out + n, suffix, cap - n);
}

// Async-signal-safe (open, mkdir). Names report `id`'s files and creates its temporary file.
// When the state directory was removed while the service ran, makes it again (mode 0700, as
// start() does) and retries.
int scr_report_files_open(const char *id) {
    make_path(g_files.tmp_path, sizeof g_files.tmp_path, id, g_files.temporary_suffix);
    make_path(g_files.final_path, sizeof g_files.final_path, id, g_files.report_suffix);
    int fd = open(g_files.tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != ENOENT) return fd;
    if (g_files.state_dir[0] != '\0') (void)mkdir(g_files.state_dir, 0700);
    (void)mkdir(g_files.pending_dir, 0700);
    return open(g_files.tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
}

// Async-signal-safe (unlink). Removes the temporary file of a report that never began.
void scr_report_files_discard(void) { unlink(g_files.tmp_path); }

// Async-signal-safe (rename). Puts the whole report in place: 0, or rename's errno.
int scr_report_files_commit(void) { return rename(g_files.tmp_path, g_files.final_path) != 0 ? errno : 0; }

// Async-signal-safe: writes the failed ending (".crash.failed-") and `error` into `out`.
static void append_failed_suffix(char *out, size_t cap, int error) {
    size_t n = scr_strlcpy(out, g_files.failed_suffix, cap);
    scr_format_decimal(out + n, cap - n, error > 0 ? (uint64_t)error : 0);
}

// Async-signal-safe (rename). A report that could not be written whole is kept beside the others
// as `<id>.crash.failed-<errno>` (0: not a write error), so that the next launch sets it aside with
// the reason (ReportStore) instead of losing all trace of the crash; left as `.crash.tmp` if even
// the rename fails.
void scr_report_files_keep_failed(const char *id, int error) {
    char suffix[SCR_SUFFIX_MAX + 24]; // the ending and an errno's digits
    append_failed_suffix(suffix, sizeof suffix, error);
    make_path(g_files.final_path, sizeof g_files.final_path, id, suffix);
    (void)rename(g_files.tmp_path, g_files.final_path);
}

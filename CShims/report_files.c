// The report's files in `pending/`. A crash's report is written into an unnamed file that
// start()'s background thread made ahead (O_TMPFILE) and gets its name (`<id>.crash`, or
// `<id>.crash.failed-<errno>` when a write failed) with one linkat(2) once it is whole: creating
// a file cost the crash about 85 µs on ext4 and the rename 30 more, and a file no process can see
// is never taken for another's or set aside while it is written
// (docs/decisions/0140-a-crashs-report-file-is-made-ahead-unnamed-and-linked.md). Otherwise (a
// snapshot, a child forked after start(), a filesystem without O_TMPFILE) the report is written
// as `<id>.crash.tmp` and renamed the same way. The next launch sets a failed file aside with its
// reason (ReportStore). The directories and the endings are the Swift side's (StateLayout), handed
// over at install; the state directory is made again when it was removed while the service ran,
// and one descriptor is kept free for a crash that finds the descriptor table full
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
    char proc_path[48]; // "/proc/self/fd/<n>" of the unnamed file, for linkat (set before it is published)
    _Atomic int ahead_fd; // the unnamed file made ahead for a crash, -1 when none
    pid_t ahead_owner;    // the process that made it (a forked child shares the descriptor)
    int open_ahead_fd;    // the unnamed file the report being written uses, -1 when named
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
    atomic_store(&g_files.ahead_fd, -1);
    g_files.open_ahead_fd = -1;
    reserve_spare_fd();
    return SCR_OK;
}

// Not async-signal-safe by intent (start()'s background thread), though it only opens. Makes the
// unnamed file a crash's report is written into (the top); nothing when one is ready or the
// filesystem cannot (the crash then makes its file by name).
void scr_report_files_make_ahead(void) {
    if (atomic_load(&g_files.ahead_fd) >= 0 || g_files.pending_dir[0] == '\0') return;
    int fd = open(g_files.pending_dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0) return;
    // The crash names it through /proc/self/fd/<n>: without /proc it could never be named.
    size_t n = scr_strlcpy(g_files.proc_path, "/proc/self/fd/", sizeof g_files.proc_path);
    scr_format_decimal(g_files.proc_path + n, sizeof g_files.proc_path - n, (uint64_t)fd);
    if (access(g_files.proc_path, F_OK) != 0) {
        close(fd);
        return;
    }
    g_files.ahead_owner = getpid();
    int expected = -1;
    if (!atomic_compare_exchange_strong(&g_files.ahead_fd, &expected, fd)) close(fd);
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

// Async-signal-safe (mkdir). Makes the state directory and pending/ again (mode 0700, as start()
// does) after they were removed while the service ran.
static void make_directories_again(void) {
    if (g_files.state_dir[0] != '\0') (void)mkdir(g_files.state_dir, 0700);
    (void)mkdir(g_files.pending_dir, 0700);
}

// Async-signal-safe (getpid, close). The unnamed file made ahead, when there is one and it is
// this process's; -1 otherwise. Taken once: whoever takes it owns it.
static int take_ahead_file(void) {
    int fd = atomic_exchange(&g_files.ahead_fd, -1);
    if (fd < 0) return -1;
    if (g_files.ahead_owner != getpid()) return -1; // a forked child: the descriptor is its parent's file
    return fd;
}

// Async-signal-safe (open, mkdir, getpid). Names report `id`'s files and opens the file its bytes
// go to: for a crash the unnamed file made ahead when there is one, else `<id>.crash.tmp`
// (making the state directory and pending/ again when they were removed).
int scr_report_files_open(const char *id, bool crash) {
    make_path(g_files.tmp_path, sizeof g_files.tmp_path, id, g_files.temporary_suffix);
    make_path(g_files.final_path, sizeof g_files.final_path, id, g_files.report_suffix);
    g_files.open_ahead_fd = crash ? take_ahead_file() : -1;
    if (g_files.open_ahead_fd >= 0) return g_files.open_ahead_fd;
    int fd = open(g_files.tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != ENOENT) return fd;
    make_directories_again();
    return open(g_files.tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
}

// Async-signal-safe (close, unlink). Drops the file of a report that never began.
void scr_report_files_discard(int fd) {
    close(fd);
    if (g_files.open_ahead_fd < 0) unlink(g_files.tmp_path);
    g_files.open_ahead_fd = -1;
}

// Async-signal-safe (linkat, mkdir). Gives the unnamed file `path`'s name: 0, or linkat's errno.
static int link_ahead_file(const char *path) {
    if (linkat(AT_FDCWD, g_files.proc_path, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0) return 0;
    if (errno != ENOENT) return errno;
    make_directories_again();
    return linkat(AT_FDCWD, g_files.proc_path, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
}

// Async-signal-safe: writes the failed ending (".crash.failed-") and `error` into `out`.
static void append_failed_suffix(char *out, size_t cap, int error) {
    size_t n = scr_strlcpy(out, g_files.failed_suffix, cap);
    scr_format_decimal(out + n, cap - n, error > 0 ? (uint64_t)error : 0);
}

// Async-signal-safe (linkat or rename). A report that could not be written whole is kept beside
// the others as `<id>.crash.failed-<errno>` (0: not a write error), so that the next launch sets
// it aside with the reason (ReportStore) instead of losing all trace of the crash; a named file
// stays `.crash.tmp` if even the rename fails.
static void keep_failed(const char *id, int error) {
    char suffix[SCR_SUFFIX_MAX + 24]; // the ending and an errno's digits
    append_failed_suffix(suffix, sizeof suffix, error);
    make_path(g_files.final_path, sizeof g_files.final_path, id, suffix);
    if (g_files.open_ahead_fd >= 0) {
        (void)link_ahead_file(g_files.final_path);
    } else {
        (void)rename(g_files.tmp_path, g_files.final_path);
    }
}

// Async-signal-safe (close, linkat or rename). Ends report `id`'s file `fd`, whose writing ended
// with `error` (0: every byte written): named `<id>.crash` when whole, else kept with the failed
// ending. 0, or the error that kept it from being whole.
int scr_report_files_finish(int fd, const char *id, int error) {
    if (g_files.open_ahead_fd >= 0) {
        // Named while still open: /proc/self/fd/<n> is the unnamed file only while <n> is.
        if (error == 0) error = link_ahead_file(g_files.final_path);
        if (error != 0) keep_failed(id, error);
        close(fd);
    } else {
        if (close(fd) != 0 && error == 0) error = errno;
        if (error == 0 && rename(g_files.tmp_path, g_files.final_path) != 0) error = errno;
        if (error != 0) keep_failed(id, error);
    }
    g_files.open_ahead_fd = -1;
    return error;
}

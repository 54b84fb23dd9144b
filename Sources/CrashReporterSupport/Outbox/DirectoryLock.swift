import Glibc

/// The outboxes' one lock discipline: an exclusive `flock` on a file, non-blocking, so that two
/// processes of the same service never work through the same items at once:
/// `<state>/delivery.lock` for the crash reports, `<state>/analytics-<queue>.lock` for each
/// wire's sealed batches (docs/decisions/0173-analytics-batches-in-the-folder-queue.md). The
/// kernel drops the lock when the holder dies, so a crash never leaves it stuck. In the support
/// layer beside the outbox's other pieces
/// (docs/decisions/0150-crash-reports-and-analytics-batches-share-one-outbox.md).
///
/// A lock file may be removed, but only by its holder (`removeFile`): a process that opened the
/// file before it went and takes the lock after finds the path no longer names its file, and
/// opens the path again, so two holders never lock two files of one name.
package final class DirectoryLock: Sendable {
    private let descriptor: Int32
    private let path: String

    /// Takes the lock, or returns nil when another process holds it (or the file cannot be
    /// opened: then nobody can deliver from this directory anyway).
    package convenience init?(stateDirectory: String) {
        self.init(path: StateLayout(stateDirectory).deliveryLock, wait: false)
    }

    /// Takes an exclusive lock on the file at `path` (created when missing): at once or nil,
    /// or with `wait`, once the holder lets go (for locks held a moment only, as the run
    /// records' `runs/settle.lock`).
    package init?(path: String, wait: Bool) {
        // A holder that removed the file between our open and our lock: open it again. Each
        // turn means another process took and removed the lock meanwhile, so a few suffice.
        for _ in 0..<8 {
            guard let descriptor = try? SystemCall.run("open", { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) })
            else { return nil }
            // A wait interrupted by a signal waits again; held by another (EWOULDBLOCK), nil.
            guard (try? SystemCall.run("flock") { flock(descriptor, wait ? LOCK_EX : LOCK_EX | LOCK_NB) }) != nil else {
                close(descriptor)
                return nil
            }
            if Self.names(path, descriptor) {
                self.descriptor = descriptor
                self.path = path
                return
            }
            close(descriptor)
        }
        return nil
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Removes the lock file while holding it; the lock is let go when this is released.
    package func removeFile() {
        _ = try? FileSystem.remove(path)
    }

    /// Whether `path` still names the file open as `descriptor`.
    private static func names(_ path: String, _ descriptor: Int32) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }
}

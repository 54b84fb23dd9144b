import Glibc

/// The outboxes' one lock discipline: an exclusive `flock` on a file, non-blocking, so that two
/// processes of the same service never work through the same items at once:
/// `<state>/delivery.lock` for the crash reports, `analytics/<queue>.outbox.lock` for each
/// wire's sealed batches (docs/decisions/0173-analytics-batches-in-the-folder-queue.md). The
/// kernel drops the lock when the holder dies, so a crash never leaves it stuck. In the support
/// layer beside the outbox's other pieces
/// (docs/decisions/0150-crash-reports-and-analytics-batches-share-one-outbox.md).
package final class DirectoryLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, or returns nil when another process holds it (or the file cannot be
    /// opened: then nobody can deliver from this directory anyway).
    package convenience init?(stateDirectory: String) {
        self.init(path: StateLayout(stateDirectory).deliveryLock, wait: false)
    }

    /// Takes an exclusive lock on the file at `path` (created when missing): at once or nil,
    /// or with `wait`, once the holder lets go (for locks held a moment only, as the run
    /// records' `runs/settle.lock`).
    package init?(path: String, wait: Bool) {
        guard let descriptor = try? SystemCall.run("open", { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }) else {
            return nil
        }
        // A wait interrupted by a signal waits again; held by another (EWOULDBLOCK), nil.
        guard (try? SystemCall.run("flock") { flock(descriptor, wait ? LOCK_EX : LOCK_EX | LOCK_NB) }) != nil else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

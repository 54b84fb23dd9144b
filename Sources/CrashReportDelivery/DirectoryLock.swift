import Glibc

/// An exclusive, non-blocking `flock` on `<state>/delivery.lock`: two processes of the same
/// service never work through the same reports at once. The kernel drops the lock when the
/// holder dies, so a crash never leaves it stuck.
package final class DirectoryLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, or returns nil when another process holds it (or the file cannot be
    /// opened: then nobody can deliver from this directory anyway).
    package init?(stateDirectory: String) {
        let descriptor = open(stateDirectory + "/delivery.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
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

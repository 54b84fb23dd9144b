import Foundation

/// An exclusive, non-blocking `flock` on `<state>/delivery.lock`: two processes of the same
/// service never work through the same reports at once. The kernel drops the lock when the
/// holder dies, so a crash never leaves it stuck.
public final class DirectoryLock: @unchecked Sendable {
    private let fd: Int32

    /// Takes the lock, or returns nil when another process holds it.
    public init?(stateDirectory: URL) {
        let path = stateDirectory.appendingPathComponent("delivery.lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

import CrashReporterSupport
import Glibc

/// Wakes a request thread blocked in `poll(2)` when the async caller's task is cancelled: a pipe
/// whose read end every wait polls beside the socket. Once cancelled it stays cancelled (the
/// byte is never read). Name resolution cannot be woken this way; it ends by itself.
final class CancellationSignal: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    /// Nil when no pipe can be made (out of descriptors). Both ends are close-on-exec (set right
    /// after `pipe`; Glibc's module does not offer `pipe2`) and non-blocking, so `cancel` never
    /// waits.
    init?() {
        var fds: [Int32] = [-1, -1]
        guard (try? SystemCall.run("pipe") { pipe(&fds) }) != nil else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    func cancel() {
        var byte: UInt8 = 1
        _ = try? SystemCall.run("write") { write(writeFD, &byte, 1) }
    }
}

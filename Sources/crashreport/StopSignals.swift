import CrashReporterSupport
import Glibc
import Synchronization

/// SIGTERM and SIGINT as a request to stop: the handler sets a flag and writes a byte to a
/// pipe, so that a `poll` on the pipe's read end wakes at once. Only `write` and an atomic
/// store run in the handler (both async-signal-safe).
enum StopSignals {
    private static let requested = Atomic<Bool>(false)
    /// The pipe's write end, set once before the handlers are installed.
    nonisolated(unsafe) private static var writeDescriptor: Int32 = -1
    /// The pipe's read end: readable once a stop was asked for.
    nonisolated(unsafe) private(set) static var descriptor: Int32 = -1

    /// Installs the handlers (once per process).
    static func install() throws(ToolFailure) {
        guard descriptor < 0 else { return }
        var ends: [Int32] = [-1, -1]
        do throws(SystemCallError) {
            _ = try SystemCall.run("pipe") { pipe(&ends) }
        } catch {
            throw ToolFailure(description: "cannot make a pipe for the stop signals: \(Errno.text(error.errno))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        descriptor = ends[0]
        writeDescriptor = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            StopSignals.requested.store(true, ordering: .sequentiallyConsistent)
            var byte: UInt8 = 1
            // A plain write(2): SystemCall builds an error on failure, which allocates, and a
            // handler must not. A byte lost to a signal still leaves the flag set.
            _ = write(StopSignals.writeDescriptor, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        for signal in [SIGTERM, SIGINT] { sigaction(signal, &action, nil) }
    }

    /// Whether SIGTERM or SIGINT arrived.
    static var isRequested: Bool { requested.load(ordering: .sequentiallyConsistent) }
}

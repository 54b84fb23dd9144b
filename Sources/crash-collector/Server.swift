import CrashReporterSupport
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Accepts connections and serves each on its own thread, at most `maxConnections` at once; one
/// past the cap is refused at once with a 503 on the accept thread, so that a flood of clients
/// never holds up the accept loop. Every connection has deadlines (Connection), so a slow
/// client holds its thread for a bounded time, and all of them together hold at most
/// `maxBufferedBytes` of request bytes (docs/collector.md, "Hostile clients").
final class Server: Sendable {
    let listenFD: Int32
    let port: Int
    let collector: Collector
    private let active = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Request bytes the connections hold now, against `maxBufferedBytes`.
    private let buffered = Atomic<Int>(0)

    init(collector: Collector) throws(SystemCallError) {
        let configuration = collector.configuration
        (listenFD, port) = try Listener.open(host: configuration.host, port: configuration.port)
        self.collector = collector
    }

    var isStopping: Bool { stopping.load(ordering: .acquiring) }
    var activeConnections: Int { active.load(ordering: .acquiring) }

    /// Asks the accept loop to end (safe from any thread).
    func stop() {
        stopping.store(true, ordering: .releasing)
    }

    /// Moves a connection's share of the memory budget by `delta` bytes; false (and nothing
    /// moved) when growing it would pass the budget.
    func reserveBuffered(_ delta: Int) -> Bool {
        guard delta > 0 else {
            buffered.wrappingAdd(delta, ordering: .relaxed)
            return true
        }
        let total = buffered.wrappingAdd(delta, ordering: .relaxed).newValue
        if total > collector.configuration.maxBufferedBytes {
            buffered.wrappingSubtract(delta, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Accepts until ``stop()``, then waits a bounded time for the open connections to finish.
    func run() {
        var poller = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
        while !isStopping {
            let ready = try? SystemCall.run("poll") { poll(&poller, 1, 200) }
            guard let ready, ready > 0 else { continue }
            guard let fd = try? SystemCall.run("accept", { accept(listenFD, nil, nil) }) else {
                // Out of descriptors (EMFILE) or a connection reset before accept: back off a
                // little rather than spin on a listening socket that stays readable.
                usleep(10_000)
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if active.load(ordering: .acquiring) >= collector.configuration.maxConnections {
                Self.refuse(fd)
                continue
            }
            active.wrappingAdd(1, ordering: .acquiringAndReleasing)
            let connection = Connection(fd: fd, collector: collector, server: self)
            Thread.detachNewThread { [self] in
                connection.run()
                active.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            }
        }
        close(listenFD)
        let configuration = collector.configuration
        let deadline = Monotonic.now() + max(configuration.readTimeoutSeconds, configuration.headerTimeoutSeconds) + 2
        while activeConnections > 0 && Monotonic.now() < deadline {
            usleep(20_000)
        }
    }

    /// Answers a connection past the cap with 503 and `Retry-After: 1` without waiting for
    /// anything: the response goes into the socket's (empty) send buffer, what the client sent
    /// so far is read and dropped so that closing does not reset the connection, and the socket
    /// is closed. Nothing here blocks the accept loop.
    private static func refuse(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        SocketIO.send(
            fd,
            Collector.error(503, "too many connections", headers: [("Retry-After", "1")]).serialized(keepAlive: false))
        shutdown(fd, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 {
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count <= 0 { break }
        }
        close(fd)
    }
}

import CrashReporterSupport
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Accepts connections and serves each on its own thread, at most `maxConnections` at once.
final class Server: Sendable {
    let listenFD: Int32
    let port: Int
    let collector: Collector
    private let active = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)

    init(collector: Collector) throws(SystemError) {
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

    /// Accepts until ``stop()``, then waits a bounded time for the open connections to finish.
    func run() {
        var poller = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
        while !isStopping {
            let ready = poll(&poller, 1, 200)
            guard ready > 0 else { continue }
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else {
                // Out of descriptors (EMFILE) or a connection reset before accept: back off a
                // little rather than spin on a listening socket that stays readable.
                usleep(10_000)
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if active.load(ordering: .acquiring) >= collector.configuration.maxConnections {
                // Answered off the accept loop: the lingering close takes up to a second.
                DispatchQueue.global().async {
                    SocketIO.setSendTimeout(fd, seconds: 1)
                    SocketIO.send(
                        fd,
                        Collector.error(503, "too many connections", headers: [("Retry-After", "1")])
                            .serialized(keepAlive: false))
                    SocketIO.lingeringClose(fd)
                }
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
        let deadline = Monotonic.now() + collector.configuration.readTimeoutSeconds + 2
        while activeConnections > 0 && Monotonic.now() < deadline {
            usleep(20_000)
        }
    }
}

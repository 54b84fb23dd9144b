import CrashCollectorParsers
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Serves one connection on its own thread: reads requests (pipelined or one by one, keep-alive
/// honoured), answers each, and closes on an error, a timeout, `Connection: close` or shutdown.
struct Connection {
    let fd: Int32
    let collector: Collector
    let server: Server

    /// A safety bound on requests per connection.
    static let maxRequests = 100_000
    /// Granularity of the wait for data, so that an idle connection notices shutdown.
    static let pollSlice = 0.25
    /// Bytes read from the socket at a time: small, since a thousand slow clients each have one.
    static let readSize = 16 * 1024

    func run() {
        let configuration = collector.configuration
        let timeout = configuration.readTimeoutSeconds
        let headerTimeout = configuration.headerTimeoutSeconds
        SocketIO.setSendTimeout(fd, seconds: timeout)
        let collector = self.collector
        var parser = HTTPRequestParser(limits: HTTPLimits(maxBodyBytes: { collector.bodyLimit(for: $0) }))
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        var waitStart = Monotonic.now()
        var requestStart: Double?
        var sentContinue = false
        // This connection's share of the server's memory budget, given back when it closes, and
        // before the lingering close after an error (which may take a second).
        var reserved = 0
        defer { _ = server.reserveBuffered(-reserved) }
        func release() {
            _ = server.reserveBuffered(-reserved)
            reserved = 0
        }

        for _ in 0..<Self.maxRequests {
            switch parser.next() {
            case .request(let request):
                let response = collector.respond(to: request)
                let keepAlive = request.head.keepAlive && !server.isStopping
                let sent = SocketIO.send(
                    fd, response.serialized(keepAlive: keepAlive, includeBody: request.method != "HEAD"))
                guard sent, keepAlive else { return close(fd) }
                waitStart = Monotonic.now()
                requestStart = nil
                sentContinue = false
                continue
            case .failure(let error):
                release()
                SocketIO.send(fd, collector.response(to: error).serialized(keepAlive: false))
                return SocketIO.lingeringClose(fd)
            case .incomplete:
                break
            }
            if parser.isMidRequest && requestStart == nil { requestStart = waitStart }
            let head = parser.headAwaitingBody
            if !sentContinue, let head, head.expectsContinue {
                sentContinue = true
                guard SocketIO.send(fd, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return close(fd) }
            }
            // The head must arrive within the header timeout of the wait's start (so a client
            // that sends half a head, or nothing, is let go soon), and the whole request within
            // the read timeout of its first byte. An idle connection is closed when its header
            // time is up (or at once when the server stops).
            let requestDeadline = (requestStart ?? waitStart) + timeout
            let deadline = head == nil ? min(waitStart + headerTimeout, requestDeadline) : requestDeadline
            var received = false
            while !received {
                let left = deadline - Monotonic.now()
                if left <= 0 {
                    if parser.isMidRequest {
                        release()
                        let limit = head == nil && waitStart + headerTimeout < requestDeadline ? headerTimeout : timeout
                        let response = Collector.error(408, "request not received within \(limit) seconds")
                        SocketIO.send(fd, response.serialized(keepAlive: false))
                        return SocketIO.lingeringClose(fd)
                    }
                    return close(fd)
                }
                if server.isStopping && !parser.isMidRequest { return close(fd) }
                let slice = Int32((min(left, Self.pollSlice) * 1000).rounded(.up))
                switch SocketIO.read(fd, into: &buffer, milliseconds: slice) {
                case .data(let count):
                    if requestStart == nil { requestStart = Monotonic.now() }
                    parser.append(buffer[0..<count])
                    received = true
                case .closed:
                    return close(fd)
                case .timedOut:
                    continue
                }
            }
            // What the parser holds now counts against the budget all connections share.
            let held = parser.bufferedByteCount
            guard server.reserveBuffered(held - reserved) else {
                release()
                let response = Collector.error(
                    503, "the collector holds too many requests at once", headers: [("Retry-After", "1")])
                SocketIO.send(fd, response.serialized(keepAlive: false))
                return SocketIO.lingeringClose(fd)
            }
            reserved = held
        }
        close(fd)
    }

    private func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}

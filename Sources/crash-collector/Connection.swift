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

    func run() {
        let timeout = collector.configuration.readTimeoutSeconds
        SocketIO.setSendTimeout(fd, seconds: timeout)
        let collector = self.collector
        var parser = HTTPRequestParser(limits: HTTPLimits(maxBodyBytes: { collector.bodyLimit(for: $0) }))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var waitStart = Monotonic.now()
        var requestStart: Double?
        var sentContinue = false

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
                SocketIO.send(fd, collector.response(to: error).serialized(keepAlive: false))
                return SocketIO.lingeringClose(fd)
            case .incomplete:
                break
            }
            if parser.isMidRequest && requestStart == nil { requestStart = waitStart }
            if !sentContinue, let head = parser.headAwaitingBody, head.expectsContinue {
                sentContinue = true
                guard SocketIO.send(fd, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return close(fd) }
            }
            // A request must arrive whole within the timeout of its first byte; an idle
            // connection is closed after the timeout (or at once when the server stops).
            let deadline = (requestStart ?? waitStart) + timeout
            var received = false
            while !received {
                let left = deadline - Monotonic.now()
                if left <= 0 {
                    if parser.isMidRequest {
                        let response = Collector.error(408, "request not received within \(timeout) seconds")
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
        }
        close(fd)
    }

    private func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}

import CrashReporterSupport
import Foundation

/// A scriptable HTTP server on 127.0.0.1 for the tests: it records each request (head and body)
/// and answers with whatever the test's `reply` says, byte for byte, so that the client meets
/// every framing and every misbehaviour for real. Each connection has its own thread; `stop()`
/// (or deinit) ends them all.
final class LoopbackServer: Sendable {
    /// What to do once a request has been read.
    enum Reply: Sendable {
        /// Send these bytes, then close.
        case raw([UInt8])
        /// Send nothing and keep the connection open until the server stops.
        case silent
        /// Send `head`, then filler bytes until the client goes away, at most `limit` bytes.
        case endless(head: [UInt8], limit: Int)
        /// Close at once without reading the request.
        case close
    }

    /// A request as received.
    struct Request: Sendable {
        var requestLine: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    let port: Int
    private let ipv6: Bool
    private let listener: Int32
    private let state = Lock(State())
    private let reply: @Sendable (Request) -> Reply
    /// Sent as soon as a connection is accepted, before reading anything (then the connection
    /// closes): a server speaking some other protocol.
    private let greeting: [UInt8]?

    private struct State {
        var requests: [Request] = []
        var connections = 0
        var stopped = false
        var clients: [Int32] = []
    }

    /// Listens on 127.0.0.1, or on ::1 when `ipv6` is set.
    init(ipv6: Bool = false, greeting: [UInt8]? = nil, reply: @escaping @Sendable (Request) -> Reply) throws {
        self.reply = reply
        self.greeting = greeting
        self.ipv6 = ipv6
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) { raw in
            if ipv6 {
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_addr = in6addr_loopback
            } else {
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_addr.s_addr = inet_addr("127.0.0.1")
            }
        }
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(
                    fd, pointer,
                    ipv6 ? socklen_t(MemoryLayout<sockaddr_in6>.size) : socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        listener = fd
        // sin_port and sin6_port sit at the same offset.
        port = withUnsafeBytes(of: &storage) { Int(UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self))) }
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A server that sends the same bytes to every request.
    convenience init(replying text: String) throws {
        try self.init { _ in .raw(Array(text.utf8)) }
    }

    deinit {
        stop()
    }

    var url: String { ipv6 ? "http://[::1]:\(port)" : "http://127.0.0.1:\(port)" }

    var requests: [Request] { state.withLock { $0.requests } }

    /// Connections accepted so far.
    var connections: Int { state.withLock { $0.connections } }

    func stop() {
        // Under the lock: a connection's thread closes its descriptor under the same lock, so a
        // number reused by someone else is never shut down here.
        state.withLock { state in
            state.stopped = true
            for fd in state.clients { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        defer { close(listener) }
        while !stopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            state.withLock {
                $0.connections += 1
                $0.clients.append(client)
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer {
            state.withLock { state in
                state.clients.removeAll { $0 == client }
                close(client)
            }
        }
        if let greeting {
            writeAll(client, greeting)
            return
        }
        var reply = Reply.close
        if let request = readRequest(client) {
            state.withLock { $0.requests.append(request) }
            reply = self.reply(request)
        }
        switch reply {
        case .raw(let bytes):
            writeAll(client, bytes)
        case .silent:
            while !stopped { usleep(20_000) }
        case .endless(let head, let limit):
            guard writeAll(client, head) else { return }
            let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
            var sent = 0
            while sent < limit && !stopped && writeAll(client, filler) { sent += filler.count }
        case .close:
            break
        }
    }

    /// The head up to the empty line, then `Content-Length` bytes of body.
    private func readRequest(_ client: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var headEnd: Int?
        while headEnd == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            data.append(contentsOf: buffer[..<count])
            headEnd = Self.find([13, 10, 13, 10], in: data).map { $0 + 4 }
        }
        let head = String(decoding: data[..<(headEnd! - 4)], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst()
        let headers = lines.map { line -> (name: String, value: String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        let length =
            Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
        var body = Array(data[headEnd!...])
        while body.count < length {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            body.append(contentsOf: buffer[..<count])
        }
        return Request(requestLine: requestLine, headers: headers, body: body)
    }

    @discardableResult
    private func writeAll(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP over a plain socket to 127.0.0.1, so tests control every byte sent.
final class RawHTTP {
    struct Response {
        var status: Int
        /// Lower-cased names.
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw TestFailure("connect to port \(port) failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ data: Data) throws {
        let ok = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
        if !ok { throw TestFailure("send failed: errno \(errno)") }
    }

    func send(_ text: String) throws { try send(Data(text.utf8)) }

    /// Reads one response (skipping `100 Continue`), waiting at most `timeout` seconds.
    /// For a response to HEAD (`bodyless`), `Content-Length` describes a body that is not sent.
    func readResponse(timeout: Double = 15, bodyless: Bool = false) throws -> Response {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let headEnd = try waitFor(deadline) { buffer in
                buffer.indices.dropLast(3).first {
                    buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10
                }
            }
            let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
            buffer.removeFirst(headEnd + 4)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                throw TestFailure("bad status line in \(head)")
            }
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            if status == 100 { continue }
            let length = bodyless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
            _ = try waitFor(deadline) { $0.count >= length ? length : nil }
            let body = Data(buffer[..<length])
            buffer.removeFirst(length)
            return Response(status: status, headers: headers, body: body)
        }
    }

    /// Whether the server closed the connection (EOF) within `timeout`, sending nothing more.
    func readsEOF(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var scratch = [UInt8](repeating: 0, count: 4096)
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return count <= 0
        }
        return false
    }

    private func waitFor(_ deadline: Date, _ condition: ([UInt8]) -> Int?) throws -> Int {
        while true {
            if let found = condition(buffer) { return found }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw TestFailure("timed out waiting for a response; have \(buffer.count) bytes") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(min(left, 1) * 1000)) > 0 else { continue }
            var scratch = [UInt8](repeating: 0, count: 64 * 1024)
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw TestFailure("connection closed; have \(buffer.count) bytes") }
            buffer.append(contentsOf: scratch[0..<count])
        }
    }

    static func requestBytes(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: Data = Data(), close: Bool = true
    ) -> Data {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        if close { head += "Connection: close\r\n" }
        var data = Data((head + "\r\n").utf8)
        data.append(body)
        return data
    }

    /// One request on a new connection.
    static func request(
        port: Int, method: String, path: String, headers: [(String, String)] = [], body: Data = Data()
    ) throws -> Response {
        let client = try RawHTTP(port: port)
        try client.send(requestBytes(method, path, headers: headers, body: body))
        return try client.readResponse()
    }
}

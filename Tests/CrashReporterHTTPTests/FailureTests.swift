import CrashReporterHTTP
import TestSupport
import Testing

/// Every way a request can fail without a response, each against a real socket: the error that
/// comes back, never how long it took.
@Suite struct FailureTests {
    private let client = HTTPClient(userAgent: "failure-tests/1", maxResponseBytes: 64 * 1024, environment: [:])

    private func send(_ url: String, timeout: Duration = .seconds(10)) throws(HTTPError) -> HTTPResponse {
        try client.send(HTTPRequest(url: HTTPURL(url), timeout: timeout))
    }

    @Test func aServerThatNeverAnswersTimesOut() throws {
        let server = try LoopbackServer { _ in .silent }
        #expect {
            try send(server.url, timeout: .milliseconds(300))
        } throws: { error in
            guard case .timeout(let phase) = error as? HTTPError else { return false }
            return phase.contains("response")
        }
        #expect(server.requests.count == 1)
    }

    @Test func connectionRefused() {
        let port = closedPort()
        #expect(throws: HTTPError.connectionRefused(host: "127.0.0.1", port: port)) {
            try send("http://127.0.0.1:\(port)/")
        }
    }

    /// A label longer than DNS allows (63 bytes): the resolver refuses the name itself, so the
    /// test never sends a query off the machine.
    @Test func unknownHostName() {
        let host = String(repeating: "x", count: 70) + ".invalid"
        #expect {
            try send("http://\(host)/")
        } throws: { error in
            guard case .dnsFailure(let failed, let reason) = error as? HTTPError else { return false }
            return failed == host && !reason.isEmpty
        }
    }

    @Test func declaredLengthOverTheLimit() throws {
        let server = try LoopbackServer(replying: "HTTP/1.1 200 OK\r\nContent-Length: 10000000000\r\n\r\n")
        #expect(throws: HTTPError.responseTooLarge(limit: 64 * 1024)) { try send(server.url) }
    }

    @Test func endlessBodyUntilClose() throws {
        let server = try LoopbackServer { _ in .endless(head: Array("HTTP/1.1 200 OK\r\n\r\n".utf8), limit: 64 << 20) }
        #expect(throws: HTTPError.responseTooLarge(limit: 64 * 1024)) { try send(server.url) }
    }

    @Test func endlessChunk() throws {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n"
        let server = try LoopbackServer { _ in .endless(head: Array(head.utf8), limit: 64 << 20) }
        #expect(throws: HTTPError.responseTooLarge(limit: 64 * 1024)) { try send(server.url) }
    }

    @Test func endlessHeaders() throws {
        let server = try LoopbackServer { _ in
            .endless(head: Array("HTTP/1.1 200 OK\r\nX-Filler: ".utf8), limit: 64 << 20)
        }
        #expect {
            try send(server.url)
        } throws: { error in
            guard case .badResponse(let reason) = error as? HTTPError else { return false }
            return reason.contains("headers larger")
        }
    }

    @Test(arguments: [
        ("SSH-2.0-OpenSSH_9.2\r\n", "status line"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "closed in the middle"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\nhello", "Content-Length"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n", "chunk size"),
        ("HTTP/1.1 200 OK\r\nBroken header\r\n\r\n", "malformed header"),
        ("", "closed in the middle of the status line"),
    ])
    func malformedResponses(_ reply: String, _ reason: String) throws {
        let server = try LoopbackServer(replying: reply)
        #expect {
            try send(server.url)
        } throws: { error in
            guard case .badResponse(let message) = error as? HTTPError else { return false }
            return message.contains(reason)
        }
    }

    @Test func serverClosesWithoutReading() throws {
        let server = try LoopbackServer { _ in .close }
        #expect(throws: HTTPError.self) { try send(server.url) }
    }

    @Test(arguments: [
        ["X-Injected": "a\r\nHost: evil"], ["Content-Length": "3"], ["host": "other"], ["Bad Name": "x"],
    ])
    func refusesRequestsItWouldGetWrong(_ headers: HTTPHeaders) throws {
        let server = try LoopbackServer(replying: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        #expect {
            try client.send(HTTPRequest(url: HTTPURL(server.url), headers: headers, timeout: .seconds(10)))
        } throws: { error in
            guard case .invalidRequest = error as? HTTPError else { return false }
            return true
        }
        #expect(server.connections == 0)
    }
}

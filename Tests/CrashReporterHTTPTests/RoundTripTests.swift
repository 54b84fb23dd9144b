import CrashReporterHTTP
import Testing

/// What goes on the wire and what comes back: method, target, headers in order, body, status.
@Suite struct RoundTripTests {
    @Test func requestArrivesAsSent() throws {
        let server = try LoopbackServer(replying: "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
        let client = HTTPClient(userAgent: "round-trip/2.0", environment: [:])
        let body = Array("{\"events\":[]}".utf8)
        let request = HTTPRequest(
            url: try HTTPURL(server.url + "/v1/events?batch=1"), method: "POST",
            headers: ["Content-Type": "application/json", "X-Write-Key": "k1", "X-Repeat": "a", "X-Repeat": "b"],
            body: body, timeout: .seconds(10))
        let response = try client.send(request)
        #expect(response.status == 202)
        let received = try #require(server.requests.first)
        #expect(received.requestLine == "POST /v1/events?batch=1 HTTP/1.1")
        #expect(received.header("Host") == "127.0.0.1:\(server.port)")
        #expect(received.header("User-Agent") == "round-trip/2.0")
        #expect(received.header("Content-Length") == String(body.count))
        #expect(received.header("Connection") == "close")
        #expect(received.body == body)
        let names = received.headers.map(\.name)
        #expect(names.firstIndex(of: "Content-Type")! < names.firstIndex(of: "X-Write-Key")!)
        #expect(received.headers.filter { $0.name == "X-Repeat" }.map(\.value) == ["a", "b"])
    }

    @Test func callersUserAgentWins() throws {
        let server = try LoopbackServer(replying: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        let client = HTTPClient(userAgent: "default/1", environment: [:])
        _ = try client.send(
            HTTPRequest(url: try HTTPURL(server.url), headers: ["User-Agent": "mine/3"], timeout: .seconds(10)))
        #expect(
            server.requests.first?.headers.filter { $0.name.lowercased() == "user-agent" }.map(\.value) == ["mine/3"])
    }

    @Test(arguments: [200, 301, 404, 413, 429, 500, 503])
    func statusAndHeadersComeBack(_ status: Int) throws {
        let server = try LoopbackServer(
            replying: "HTTP/1.1 \(status) Whatever\r\nRetry-After: 120\r\nX-Sentry-Rate-Limits: 60:error\r\n"
                + "x-sentry-rate-limits: 30:default\r\nContent-Length: 4\r\n\r\nbody")
        let client = HTTPClient(userAgent: "status/1", environment: [:])
        let response = try client.send(HTTPRequest(url: try HTTPURL(server.url), timeout: .seconds(10)))
        #expect(response.status == status)
        #expect(response.headers["retry-after"] == "120")
        #expect(response.headers["RETRY-AFTER"] == "120")
        #expect(response.headers.values(for: "X-Sentry-Rate-Limits") == ["60:error", "30:default"])
        #expect(response.body == Array("body".utf8))
    }

    @Test func connectsToLocalhostByName() throws {
        let server = try LoopbackServer(replying: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi")
        let client = HTTPClient(userAgent: "name/1", environment: [:])
        let response = try client.send(
            HTTPRequest(url: try HTTPURL("http://localhost:\(server.port)/"), timeout: .seconds(10)))
        #expect(response.body == Array("hi".utf8))
        #expect(server.requests.first?.header("Host") == "localhost:\(server.port)")
    }

    @Test func ipv6Loopback() throws {
        let server = try LoopbackServer(ipv6: true) { _ in
            .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nv6".utf8))
        }
        let client = HTTPClient(userAgent: "v6/1", environment: [:])
        let response = try client.send(HTTPRequest(url: try HTTPURL(server.url + "/six"), timeout: .seconds(10)))
        #expect(response.body == Array("v6".utf8))
        #expect(server.requests.first?.header("Host") == "[::1]:\(server.port)")
    }

    /// The server answers 413 as soon as it accepts, reads nothing and closes: the client's
    /// large body cannot all be written, but the answer is what comes back.
    @Test func anEarlyAnswerWinsOverTheBrokenWrite() throws {
        let answer = Array("HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n".utf8)
        let server = try LoopbackServer(greeting: answer) { _ in .close }
        let client = HTTPClient(userAgent: "early/1", environment: [:])
        let request = HTTPRequest(
            url: try HTTPURL(server.url), method: "POST", body: [UInt8](repeating: 0x61, count: 16 << 20),
            timeout: .seconds(10))
        #expect(try client.send(request).status == 413)
    }
}

import CrashReporterHTTP
import Testing

/// Each way of ending a body, and the interim and redirect statuses, against a real server.
@Suite struct ResponseFramingTests {
    private let client = HTTPClient(userAgent: "framing-tests/1", environment: [:])

    private func get(_ server: LoopbackServer, path: String = "/", method: String = "GET") throws -> HTTPResponse {
        try client.send(HTTPRequest(url: HTTPURL(server.url + path), method: method, timeout: .seconds(10)))
    }

    @Test func contentLength() throws {
        let server = try LoopbackServer(replying: "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world")
        let response = try get(server)
        #expect(response.status == 200)
        #expect(response.reason == "OK")
        #expect(String(decoding: response.body, as: UTF8.self) == "hello world")
    }

    @Test func chunkedWithExtensionsAndTrailers() throws {
        let server = try LoopbackServer(
            replying: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;name=value\r\nhello\r\n6\r\n world\r\nA\r\n0123456789\r\n0\r\nX-Trailer: yes\r\n\r\n")
        let response = try get(server)
        #expect(String(decoding: response.body, as: UTF8.self) == "hello world0123456789")
    }

    @Test func readToClose() throws {
        let server = try LoopbackServer(replying: "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end")
        let response = try get(server)
        #expect(String(decoding: response.body, as: UTF8.self) == "until the end")
    }

    @Test func interimResponsesAreSkipped() throws {
        let server = try LoopbackServer(
            replying: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\n"
                + "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok")
        let response = try get(server)
        #expect(response.status == 201)
        #expect(response.headers["Link"] == nil)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
    }

    @Test func redirectsComeBackAsTheyAre() throws {
        let server = try LoopbackServer(
            replying: "HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 5\r\n\r\nmoved")
        let response = try get(server, path: "/start")
        #expect(response.status == 302)
        #expect(response.headers["location"] == "/elsewhere")
        #expect(server.requests.map(\.requestLine) == ["GET /start HTTP/1.1"])
    }

    @Test func noBodyForHeadAnd204() throws {
        // The server announces a length but sends no body, as it must for HEAD.
        let head = try LoopbackServer(replying: "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
        #expect(try get(head, method: "HEAD").body.isEmpty)
        let empty = try LoopbackServer(replying: "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(try get(empty).status == 204)
    }

    @Test func foldedHeaderLinesAreJoined() throws {
        let server = try LoopbackServer(
            replying: "HTTP/1.1 200 OK\r\nX-Long: first\r\n  second\r\nContent-Length: 0\r\n\r\n")
        #expect(try get(server).headers["x-long"] == "first second")
    }

    @Test func bareLineFeedsAreAccepted() throws {
        let server = try LoopbackServer(replying: "HTTP/1.1 200 OK\nContent-Length: 3\n\nabc")
        #expect(String(decoding: try get(server).body, as: UTF8.self) == "abc")
    }
}

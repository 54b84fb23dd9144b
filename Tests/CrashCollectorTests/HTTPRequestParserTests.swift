import Foundation
import Testing

@testable import CrashCollectorParsers
@testable import crash_collector

@Suite struct HTTPRequestParserTests {
    private func parser(maxBody: Int = 1024, maxHeader: Int = 16 * 1024) -> HTTPRequestParser {
        HTTPRequestParser(limits: HTTPLimits(maxHeaderBytes: maxHeader, maxBodyBytes: { _ in maxBody }))
    }

    private func parse(_ text: String, maxBody: Int = 1024, maxHeader: Int = 16 * 1024) -> [HTTPParseResult] {
        var parser = parser(maxBody: maxBody, maxHeader: maxHeader)
        parser.append(Array(text.utf8))
        var results: [HTTPParseResult] = []
        for _ in 0..<10 {
            let result = parser.next()
            results.append(result)
            if case .request = result { continue }
            break
        }
        return results
    }

    private func status(_ result: HTTPParseResult?) -> Int? {
        if case .failure(let error)? = result { return error.status }
        return nil
    }

    @Test func simpleGet() throws {
        let results = parse("GET /api/reports?x=1&y=a%20b HTTP/1.1\r\nHost: x\r\nX-Thing:  v  \r\n\r\n")
        guard case .request(let request) = results.first else {
            Issue.record("no request: \(results)")
            return
        }
        #expect(request.method == "GET")
        #expect(request.path == "/api/reports")
        #expect(request.head.query == ["x": "1", "y": "a b"])
        #expect(request.headers["x-thing"] == "v")
        #expect(request.headers["HOST"] == "x")
        #expect(request.head.keepAlive)
        #expect(request.body.isEmpty)
        #expect(results.last == .incomplete)
    }

    @Test func contentLengthBodyArrivingInPieces() {
        var parser = parser()
        let text = "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world"
        var result = HTTPParseResult.incomplete
        for byte in text.utf8 {
            #expect(result == .incomplete)
            parser.append([byte])
            result = parser.next()
        }
        guard case .request(let request) = result else {
            Issue.record("no request: \(result)")
            return
        }
        #expect(String(decoding: request.body, as: UTF8.self) == "hello world")
    }

    @Test func pipelinedRequestsComeOutInOrder() {
        let results = parse(
            "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /b HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n"
                + "GET /d HTTP/1.1\r\n")
        let paths = results.compactMap { result -> String? in
            if case .request(let request) = result { return request.path }
            return nil
        }
        #expect(paths == ["/a", "/b", "/c"])
        #expect(results.last == .incomplete)
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() {
        let results = parse(
            "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n"
                + "5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nTrailer: yes\r\n\r\n")
        guard case .request(let request) = results.first else {
            Issue.record("no request: \(results)")
            return
        }
        #expect(String(decoding: request.body, as: UTF8.self) == "hello world")
    }

    @Test func chunkedBodyOverTheLimitIs413() {
        let results = parse(
            "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n", maxBody: 1000)
        #expect(status(results.first) == 413)
        let huge = parse("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n")
        #expect(status(huge.first) == 413)
    }

    @Test func badChunksAre400() {
        #expect(status(parse("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").first) == 400)
        #expect(
            status(parse("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhiXX").first) == 400)
        #expect(status(parse("POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\r\n").first) == 400)
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET /\r\n\r\n",
        "GET / HTTP/1.1 extra\r\nHost: x\r\n\r\n",
        "GET  / HTTP/1.1\r\nHost: x\r\n\r\n",
        "G(T / HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET nopath HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTX/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nName : v\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nA: b\r\n folded\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nA: b\u{1}c\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nA: b\rc\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 4\r\n\r\nabcd",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
    ])
    func malformedRequestsAre400(_ text: String) {
        #expect(status(parse(text).first) == 400)
    }

    @Test func otherVersionsAndCodings() {
        #expect(status(parse("GET / HTTP/2.0\r\nHost: x\r\n\r\n").first) == 505)
        #expect(status(parse("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n").first) == 501)
    }

    @Test func hugeContentLengthIs413BeforeAnyBodyByte() {
        let results = parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999999\r\n\r\n")
        #expect(status(results.first) == 413)
        #expect(status(parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n", maxBody: 1024).first) == 413)
        guard case .request = parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", maxBody: 3).first
        else {
            Issue.record("a body of exactly the limit must be accepted")
            return
        }
    }

    @Test func failureKeepsTheHeadForRouting() {
        let results = parse("POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n", maxBody: 10)
        guard case .failure(let error) = results.first else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.head?.path == "/v1/events")
    }

    @Test func oversizedHeaderBlockIs400EvenWithoutItsEnd() {
        var parser = parser(maxHeader: 1024)
        parser.append(Array("GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 2000))".utf8))
        #expect(status(parser.next()) == 400)
        let complete = parse(
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 2000))\r\n\r\n", maxHeader: 1024)
        #expect(status(complete.first) == 400)
        let many = (0..<200).map { "X-\($0): v\r\n" }.joined()
        #expect(status(parse("GET / HTTP/1.1\r\nHost: x\r\n\(many)\r\n").first) == 400)
    }

    @Test func failureIsSticky() {
        var parser = parser()
        parser.append(Array("BAD\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(status(parser.next()) == 400)
        #expect(status(parser.next()) == 400)
    }

    @Test func keepAliveRules() {
        func head(_ text: String) -> HTTPRequestHead? {
            if case .request(let request)? = parse(text).first { return request.head }
            return nil
        }
        #expect(head("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")?.keepAlive == false)
        #expect(head("GET / HTTP/1.0\r\n\r\n")?.keepAlive == false)
        #expect(head("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")?.keepAlive == true)
        #expect(head("GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Upgrade\r\n\r\n")?.keepAlive == true)
        #expect(head("GET http://host:1/a/b?c=d HTTP/1.1\r\nHost: x\r\n\r\n")?.path == "/a/b")
        #expect(head("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n")?.expectsContinue == true)
    }

    @Test func leadingEmptyLinesAndBareLineFeedsAreTolerated() {
        guard case .request(let request)? = parse("\r\n\r\nGET /x HTTP/1.1\nHost: x\n\n").first else {
            Issue.record("expected a request")
            return
        }
        #expect(request.path == "/x")
    }

    @Test func midRequestAndAwaitingBody() {
        var parser = parser()
        #expect(!parser.isMidRequest)
        parser.append(Array("\r\n".utf8))
        #expect(!parser.isMidRequest)
        parser.append(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n".utf8))
        #expect(parser.next() == .incomplete)
        #expect(parser.isMidRequest)
        #expect(parser.headAwaitingBody == nil)
        parser.append(Array("\r\n".utf8))
        #expect(parser.next() == .incomplete)
        #expect(parser.headAwaitingBody?.path == "/")
    }

    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(
            "GET POST / HTTP/1.1\r\n:Content-Length: 0123456789abcdef chunked Transfer-Encoding Host ".utf8)
        for _ in 0..<300 {
            var parser = parser(maxBody: 64, maxHeader: 256)
            for _ in 0..<8 {
                let count = Int.random(in: 0..<64, using: &generator)
                parser.append(
                    (0..<count).map { _ in
                        Bool.random(using: &generator)
                            ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
                    })
                for _ in 0..<4 {
                    if case .incomplete = parser.next() { break }
                }
            }
        }
    }
}

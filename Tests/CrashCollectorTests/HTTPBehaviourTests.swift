import Foundation
import TestSupport
import Testing

/// Framing, limits, timeouts and concurrency, over raw sockets against a real collector.
@Suite struct HTTPBehaviourTests {
    @Test func oversizedBodiesGet413WithoutBeingRead() throws {
        let collector = try CollectorProcess(["--max-body", "4096"])
        defer { collector.stop() }
        let client = try RawHTTP(port: collector.port)
        // Announces 50 MB and sends none of it: the answer must come anyway.
        try client.send("POST /api/reports HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\n")
        let response = try client.readResponse(timeout: 5)
        #expect(response.status == 413)
        #expect(response.headers["connection"] == "close")
        #expect(client.readsEOF(timeout: 5))

        let chunked = try RawHTTP(port: collector.port)
        try chunked.send("POST /api/reports HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2000\r\n")
        #expect(try chunked.readResponse(timeout: 5).status == 413)

        let huge = try RawHTTP(port: collector.port)
        try huge.send("POST /api/reports HTTP/1.1\r\nHost: x\r\nContent-Length: 123456789012345678901234567890\r\n\r\n")
        #expect(try huge.readResponse(timeout: 5).status == 413)
    }

    @Test func garbageAndOversizedHeadersGet400AndTheServerGoesOn() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        for garbage in [
            "\u{0}\u{1}\u{2}binary garbage\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Filler: aaaaaaaaaaaaaaaa\r\n", count: 2000) + "\r\n",
        ] {
            let client = try RawHTTP(port: collector.port)
            try client.send(garbage)
            #expect(try client.readResponse(timeout: 5).status == 400)
        }
        let negative = try RawHTTP(port: collector.port)
        try negative.send("POST /api/reports HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n")
        #expect(try negative.readResponse(timeout: 5).status == 400)
        #expect(try collector.request("GET", "/").status == 200)
    }

    @Test func pipelinedKeepAliveRequests() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let client = try RawHTTP(port: collector.port)
        var bytes = RawHTTP.requestBytes("GET", "/api/reports", close: false)
        bytes.append(RawHTTP.requestBytes("GET", "/nowhere", close: false))
        bytes.append(RawHTTP.requestBytes("DELETE", "/api/reports", close: false))
        bytes.append(RawHTTP.requestBytes("HEAD", "/", close: true))
        try client.send(bytes)
        let first = try client.readResponse()
        let second = try client.readResponse()
        let third = try client.readResponse()
        #expect(first.status == 200)
        #expect(first.headers["connection"] == "keep-alive")
        #expect(second.status == 404)
        #expect(third.status == 405)
        #expect(third.headers["allow"]?.contains("POST") == true)
        // HEAD: the headers of GET, no body.
        let fourth = try client.readResponse(bodyless: true)
        #expect(fourth.status == 200)
        #expect(fourth.headers["content-length"].flatMap { Int($0) } ?? 0 > 0)
        #expect(fourth.headers["connection"] == "close")
        #expect(client.readsEOF(timeout: 5))
    }

    @Test func expectContinueGets100First() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let (id, report) = try Fixtures.variant()
        let client = try RawHTTP(port: collector.port)
        try client.send(
            "POST /api/reports HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nX-Crash-Report-ID: \(id)\r\nContent-Length: \(report.count)\r\n\r\n"
        )
        // The 100 arrives before the body is sent (readResponse would skip it, so read raw).
        var poller = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 5000) == 1)
        var scratch = [UInt8](repeating: 0, count: 25)
        let count = recv(client.fd, &scratch, 25, 0)
        #expect(String(decoding: scratch[0..<max(0, count)], as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
        try client.send(report)
        #expect(try client.readResponse().status == 201)
    }

    @Test func slowClientTimesOutWhileOthersAreServed() throws {
        let collector = try CollectorProcess(["--read-timeout", "3"])
        defer { collector.stop() }
        let slow = try RawHTTP(port: collector.port)
        try slow.send("POST /api/reports HTTP/1.1\r\nHost: x\r\nContent-Len")
        let started = Date()
        // Others are served meanwhile, on their own connections.
        for _ in 0..<3 {
            #expect(try collector.request("GET", "/api/reports").status == 200)
        }
        // ...while the slow one is still waiting for its deadline.
        var poller = pollfd(fd: slow.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&poller, 1, 0) == 0)
        let response = try slow.readResponse(timeout: 15)
        #expect(response.status == 408)
        #expect(Date().timeIntervalSince(started) >= 2)
        #expect(slow.readsEOF(timeout: 5))

        // A client that trickles bytes forever is cut off too (the deadline is per request).
        let trickle = try RawHTTP(port: collector.port)
        var gotResponse = false
        for byte in "GET /api/reports HTTP/1.1\r\nHost: x\r\nX-Slow: \(String(repeating: "a", count: 200))".utf8 {
            do { try trickle.send(Data([byte])) } catch { break }
            var poller = pollfd(fd: trickle.fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 {
                gotResponse = true
                break
            }
        }
        #expect(gotResponse)
        #expect(try trickle.readResponse(timeout: 5).status == 408)
    }

    @Test func idleKeepAliveConnectionIsClosed() throws {
        let collector = try CollectorProcess(["--read-timeout", "1"])
        defer { collector.stop() }
        let client = try RawHTTP(port: collector.port)
        try client.send(RawHTTP.requestBytes("GET", "/", close: false))
        #expect(try client.readResponse().status == 200)
        #expect(client.readsEOF(timeout: 5))
    }

    @Test func connectionsOverTheCapGet503() throws {
        let collector = try CollectorProcess(["--max-connections", "2", "--read-timeout", "3"])
        defer { collector.stop() }
        let held = try (0..<2).map { _ in try RawHTTP(port: collector.port) }
        try held.forEach { try $0.send("GET / HTTP/1.1\r\n") }
        usleep(300_000)
        let extra = try RawHTTP(port: collector.port)
        #expect(try extra.readResponse(timeout: 5).status == 503)
        _ = held
    }

    @Test func stopsCleanlyOnSIGTERMAndSIGINT() throws {
        let collector = try CollectorProcess()
        #expect(try collector.request("GET", "/").status == 200)
        #expect(collector.stop() == 0)
        #expect(collector.stderr.contains("stopped"))
        let second = try CollectorProcess()
        kill(second.process.processIdentifier, SIGINT)
        second.process.waitUntilExit()
        #expect(second.process.terminationStatus == 0)
    }

    @Test func commandLine() throws {
        func run(_ arguments: [String]) throws -> (Int32, String) {
            let run = try ProgramRun(CollectorProcess.binary.path, arguments, errors: .intoOutput)
            return (run.status, run.text)
        }
        let help = try run(["--help"])
        #expect(help.0 == 0)
        #expect(help.1.contains("USAGE: crash-collector"))
        #expect(help.1.contains("--events-write-key"))
        let version = try run(["--version"])
        #expect(version.0 == 0)
        #expect(version.1.hasPrefix("crash-collector "))
        let bad = try run(["--port", "99999"])
        #expect(bad.0 == 64)
        #expect(bad.1.hasPrefix("Error: "))
        #expect(try run(["--frobnicate"]).0 == 64)
        #expect(try run(["extra"]).0 == 64)
    }
}

import CrashReportFormat
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Clients that misbehave on purpose, over real sockets against a real collector: each is
/// refused or cut off, everyone else is still served, and no stored report is lost
/// (docs/collector.md, "Hostile clients").
@Suite(.serialized) struct HostileClientTests {
    /// Half a request head: what a slowloris client sends before it waits.
    static let halfHead = "GET /api/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Wait: "

    /// Raises this process's soft descriptor limit so that it can hold `count` sockets.
    static func allowDescriptors(_ count: Int) throws {
        var limit = rlimit()
        try #require(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let wanted = rlim_t(count + 256)
        try #require(limit.rlim_max >= wanted, "the hard descriptor limit \(limit.rlim_max) is below \(wanted)")
        if limit.rlim_cur < wanted {
            limit.rlim_cur = wanted
            try #require(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        }
    }

    private func upload(_ collector: CollectorProcess, _ report: (id: String, data: Data)) throws -> Int {
        try collector.request("POST", "/api/reports", headers: [("X-Crash-Report-ID", report.id)], body: report.data)
            .status
    }

    private func listedIDs(_ collector: CollectorProcess) throws -> [String] {
        let list = try collector.request("GET", "/api/reports")
        #expect(list.status == 200)
        let entries = try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]] ?? []
        return entries.compactMap { $0["id"] as? String }.sorted()
    }

    @Test("a thousand slow clients holding half a head do not keep anyone else waiting")
    func thousandSlowClients() throws {
        try Self.allowDescriptors(1100)
        // The header time is long enough that every slow client is still connected below.
        let collector = try CollectorProcess(["--header-timeout", "60"])
        defer { collector.stop() }
        let before = try Fixtures.variant()
        #expect(try upload(collector, before) == 201)

        var slow: [RawHTTP] = []
        for _ in 0..<1000 {
            let client = try RawHTTP(port: collector.port)
            try client.send(Self.halfHead)
            slow.append(client)
        }
        // Everyone else is served while they wait: reads, and a new report stored.
        #expect(try listedIDs(collector) == [before.id])
        let during = try Fixtures.variant()
        #expect(try upload(collector, during) == 201)
        #expect(try listedIDs(collector) == [before.id, during.id].sorted())
        // None of the slow clients got an answer: they are held, not refused.
        var answered = 0
        for client in slow {
            var poller = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 0) > 0 { answered += 1 }
        }
        #expect(answered == 0)
        slow.removeAll()
        #expect(collector.process.isRunning)
        #expect(
            collector.files(in: "reports", suffix: ".crash") == ["\(before.id).crash", "\(during.id).crash"].sorted())
    }

    @Test("a client that does not finish its head in the header time gets 408; an idle one is closed")
    func headerTimeout() throws {
        let collector = try CollectorProcess(["--header-timeout", "1", "--read-timeout", "30"])
        defer { collector.stop() }
        let slow = try RawHTTP(port: collector.port)
        try slow.send(Self.halfHead)
        let response = try slow.readResponse(timeout: 10)
        #expect(response.status == 408)
        #expect(slow.readsEOF(timeout: 5))
        let idle = try RawHTTP(port: collector.port)
        #expect(idle.readsEOF(timeout: 10))
        #expect(try collector.request("GET", "/api/reports").status == 200)
    }

    @Test("past the connection cap a client gets 503 with Retry-After at once, and is served once a slot frees")
    func pastTheCap() throws {
        let collector = try CollectorProcess(["--max-connections", "3", "--header-timeout", "60"])
        defer { collector.stop() }
        var held = try (0..<3).map { _ in try RawHTTP(port: collector.port) }
        try held.forEach { try $0.send(Self.halfHead) }
        usleep(300_000)
        let extra = try RawHTTP(port: collector.port)
        let refused = try extra.readResponse(timeout: 5)
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "1")
        held.removeLast()  // closes one: its thread sees the close and ends
        var status = 0
        let deadline = Date().addingTimeInterval(10)
        while status != 200 && Date() < deadline {
            status = (try? collector.request("GET", "/api/reports").status) ?? 0
            if status != 200 { usleep(100_000) }
        }
        #expect(status == 200)
    }

    @Test("request bytes past the memory budget get 503, and the budget is given back")
    func bufferedBytesBudget() throws {
        // A 1 MiB budget: one 900 KiB body fits, a second one alongside it does not.
        let collector = try CollectorProcess(["--max-buffered", "\(1 << 20)", "--read-timeout", "60"])
        defer { collector.stop() }
        let length = 900 << 10
        let head = "POST /api/reports HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n"
        let first = try RawHTTP(port: collector.port)
        try first.send(head)
        try first.send(Data(repeating: 0x61, count: 600 << 10))
        usleep(300_000)
        let second = try RawHTTP(port: collector.port)
        try second.send(head)
        try? second.send(Data(repeating: 0x61, count: 600 << 10))
        let refused = try second.readResponse(timeout: 10)
        #expect(refused.status == 503)
        #expect(refused.headers["retry-after"] == "1")
        // The first goes on and is answered (its body is no report); a new upload fits again.
        try first.send(Data(repeating: 0x61, count: length - (600 << 10)))
        let answered = try first.readResponse(timeout: 10)
        #expect(answered.status == 400, "\(answered.status) \(answered.text)")
        let report = try Fixtures.variant()
        #expect(try upload(collector, report) == 201)
    }

    @Test("a header section or field past the limits gets 400, and the collector goes on")
    func headersPastTheLimits() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let tooMany = (0..<150).map { "X-\($0): v\r\n" }.joined()
        for head in [
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\n\(tooMany)\r\n",
            "GET /\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\nHost: x\r\n\r\n",
            // Never ends: refused once the limit is passed, without waiting for the blank line.
            "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))",
        ] {
            let client = try RawHTTP(port: collector.port)
            try client.send(head)
            #expect(try client.readResponse(timeout: 5).status == 400)
            #expect(client.readsEOF(timeout: 5))
        }
        #expect(try collector.request("GET", "/").status == 200)
    }

    @Test("a body shorter than its Content-Length times out with 408; nothing is stored")
    func shortBody() throws {
        let collector = try CollectorProcess(["--read-timeout", "1"])
        defer { collector.stop() }
        let report = try Fixtures.variant()
        let client = try RawHTTP(port: collector.port)
        try client.send(
            "POST /api/reports HTTP/1.1\r\nHost: x\r\nX-Crash-Report-ID: \(report.id)\r\nContent-Length: \(report.data.count)\r\n\r\n"
        )
        try client.send(report.data.prefix(report.data.count / 2))
        #expect(try client.readResponse(timeout: 10).status == 408)
        #expect(client.readsEOF(timeout: 5))
        #expect(collector.files(in: "reports", suffix: ".crash").isEmpty)
        #expect(try upload(collector, report) == 201)
    }

    @Test("bytes past a body's Content-Length are the next request: garbage there gets 400 after the first answer")
    func longBody() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let report = try Fixtures.variant()
        let client = try RawHTTP(port: collector.port)
        var bytes = RawHTTP.requestBytes(
            "POST", "/api/reports", headers: [("X-Crash-Report-ID", report.id)], body: report.data, close: false)
        bytes.append(Data("trailing garbage that is no request\r\n\r\n".utf8))
        try client.send(bytes)
        #expect(try client.readResponse(timeout: 10).status == 201)
        #expect(try client.readResponse(timeout: 10).status == 400)
        #expect(client.readsEOF(timeout: 5))
        #expect(collector.files(in: "reports", suffix: ".crash") == ["\(report.id).crash"])
    }

    @Test(
        "chunked bodies with bad sizes get 400 or 413",
        arguments: [
            ("zz\r\nab\r\n0\r\n\r\n", 400), ("-1\r\nab\r\n0\r\n\r\n", 400), ("0x2\r\nab\r\n0\r\n\r\n", 400),
            ("ffffffffffffffffffff\r\n", 413), ("7fffffffffffffff\r\n", 413), ("\r\n", 400),
            ("2\r\nabcdef\r\n0\r\n\r\n", 400), ("\(String(repeating: "0", count: 2000))1\r\na\r\n0\r\n\r\n", 400),
            ("2 ;\(String(repeating: "x", count: 2000))\r\nab\r\n0\r\n\r\n", 400),
        ])
    func chunkedBadSizes(chunks: String, status: Int) throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let client = try RawHTTP(port: collector.port)
        try client.send("POST /api/reports HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)
        #expect(try client.readResponse(timeout: 5).status == status)
        #expect(try collector.request("GET", "/api/reports").status == 200)
        #expect(collector.files(in: "reports", suffix: ".crash").isEmpty)
    }

    @Test("report ids that are not UUIDs, and paths with .., get 404 and read nothing")
    func idsThatAreNotUUIDs() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let report = try Fixtures.variant()
        #expect(try upload(collector, report) == 201)
        for path in [
            "/reports/not-a-uuid", "/reports/..", "/reports/../reports-index.jsonl",
            "/reports/%2e%2e%2freports-index.jsonl",
            "/reports/\(report.id).crash", "/reports/\(report.id)x", "/reports/\(String(repeating: "a", count: 5000))",
            "/reports/\(report.id.replacingOccurrences(of: "-", with: ""))", "/api/reports/\(report.id)",
            "/api/reports/../../etc/passwd", "/groups/..", "/reports/\u{0}",
        ] {
            let response = try collector.request("GET", path)
            #expect([400, 404].contains(response.status), "\(path): \(response.status)")
            #expect(!response.text.contains("report_id"), "\(path) read a report")
        }
        #expect(try collector.request("GET", "/reports/\(report.id)").status == 200)
    }

    @Test("a 1 MB gzip body that inflates to 1 GB is refused without inflating it all")
    func gzipBomb() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        // Made with Python's zlib, streamed, so the test never holds the gigabyte either.
        let script = """
            import sys, zlib
            c = zlib.compressobj(9, zlib.DEFLATED, 31)
            block = bytes(1 << 20)
            sys.stdout.buffer.write(b"".join(c.compress(block) for _ in range(1024)) + c.flush())
            """
        let bomb = try ProgramRun.output("/usr/bin/env", ["python3", "-c", script])
        #expect(bomb.count < 2 << 20)
        for path in ["/api/reports", "/api/1/envelope/", "/v1/events"] {
            let response = try collector.request(
                "POST", path, headers: [("Content-Encoding", "gzip"), ("X-Write-Key", "k")], body: bomb)
            #expect([400, 413].contains(response.status), "\(path): \(response.status)")
        }
        #expect(collector.files(in: "reports", suffix: ".crash").isEmpty)
        #expect(try collector.request("GET", "/").status == 200)
    }
}

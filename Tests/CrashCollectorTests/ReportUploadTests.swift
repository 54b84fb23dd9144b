import CrashReportFormat
import CrashReporterSupport
import Foundation
import Testing

/// The plain transport, end to end against a real collector process.
@Suite struct ReportUploadTests {
    private func upload(_ collector: CollectorProcess, _ data: Data, id: String?) throws -> RawHTTP.Response {
        try collector.request(
            "POST", "/api/reports", headers: id.map { [("X-Crash-Report-ID", $0)] } ?? [], body: data)
    }

    @Test func storesOnceAndKeepsItAcrossARestart() throws {
        let collector = try CollectorProcess()
        let report = try Fixtures.segfault
        let id = try Fixtures.segfaultID

        let first = try upload(collector, report, id: id)
        #expect(first.status == 201)
        #expect(first.json?["status"] as? String == "stored")
        #expect(first.json?["id"] as? String == id)
        let second = try upload(collector, report, id: id.uppercased())
        #expect(second.status == 200)
        #expect(second.json?["status"] as? String == "duplicate")
        #expect(collector.files(in: "reports", suffix: ".crash") == ["\(id).crash"])
        let stored = try Data(contentsOf: collector.dataDirectory.appendingPathComponent("reports/\(id).crash"))
        #expect(stored == report)

        let indexURL = collector.dataDirectory.appendingPathComponent("reports-index.jsonl")
        let index = try String(contentsOf: indexURL, encoding: .utf8)
        #expect(index.split(separator: "\n").count == 1)
        #expect(index.contains(id))

        #expect(collector.stop() == 0)
        // The index is only a cache: a damaged one is made whole from the reports themselves.
        try Data("{\"torn".utf8).write(to: indexURL)
        let restarted = try CollectorProcess(dataDirectory: collector.dataDirectory)
        defer { restarted.stop() }
        let rebuilt = try String(contentsOf: indexURL, encoding: .utf8)
        #expect(rebuilt.hasPrefix("{\"torn\n"))
        #expect(rebuilt.contains(id))
        let list = try restarted.request("GET", "/api/reports")
        #expect(list.status == 200)
        let entries = try #require(try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["id"] as? String == id)
        #expect(entries.first?["signal"] as? String == "SIGSEGV")
        #expect(entries.first?["app"] as? String == "crash-test")
        #expect((entries.first?["top_frame"] as? String)?.hasPrefix("crash-test+0x") == true)
        #expect((entries.first?["signature"] as? String)?.hasPrefix("SIGSEGV | crash-test+0x") == true)
        #expect(try upload(restarted, report, id: id).status == 200)

        let text = try restarted.request("GET", "/reports/\(id)?format=text")
        #expect(text.status == 200)
        #expect(text.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(text.text.contains("Crash report \(id)"))
        #expect(text.text.contains("SIGSEGV"))
        let json = try restarted.request("GET", "/reports/\(id)?format=json")
        #expect(json.json?["report_id"] as? String == id)
        #expect(try restarted.request("GET", "/reports/00000000-0000-4000-8000-000000000000").status == 404)
        #expect(try restarted.request("GET", "/reports/..%2F..%2Fetc%2Fpasswd").status == 404)
    }

    @Test func undecodableBodiesAre400AndStoreNothing() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let report = try Fixtures.segfault
        let garbage = try upload(collector, Data("garbage".utf8), id: nil)
        #expect(garbage.status == 400)
        #expect((garbage.json?["error"] as? String)?.contains("not a gzip file") == true)
        let truncated = try upload(collector, report.prefix(report.count / 2), id: nil)
        #expect(truncated.status == 400)
        #expect((truncated.json?["error"] as? String)?.contains("truncated") == true)
        let notAReport = try upload(collector, Data(try Gzip.compress(Data("[1,2]".utf8))), id: nil)
        #expect(notAReport.status == 400)
        let mismatch = try upload(collector, report, id: "00000000-0000-4000-8000-000000000000")
        #expect(mismatch.status == 400)
        #expect((mismatch.json?["error"] as? String)?.contains("does not match") == true)
        #expect(try upload(collector, report, id: "../../x").status == 400)
        #expect(collector.files(in: "reports", suffix: "").isEmpty)
        // Still serving after all that.
        #expect(try collector.request("GET", "/api/reports").text == "[]")
    }

    @Test func gzipContentEncodingAndChunkedUpload() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let (id, report) = try Fixtures.variant()
        // The report file, gzip-encoded once more for transport, sent in chunks.
        let encoded = Data(try Gzip.compress(report))
        var bytes = Data(
            "POST /api/reports HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\nX-Crash-Report-ID: \(id)\r\n\r\n"
                .utf8)
        var offset = 0
        while offset < encoded.count {
            let piece = encoded[offset..<min(encoded.count, offset + 300)]
            bytes.append(Data((String(piece.count, radix: 16) + "\r\n").utf8))
            bytes.append(piece)
            bytes.append(Data("\r\n".utf8))
            offset += piece.count
        }
        bytes.append(Data("0\r\n\r\n".utf8))
        let client = try RawHTTP(port: collector.port)
        try client.send(bytes)
        let response = try client.readResponse()
        #expect(response.status == 201)
        let stored = try Data(contentsOf: collector.dataDirectory.appendingPathComponent("reports/\(id).crash"))
        #expect(stored == report)
    }

    @Test func concurrentUploadsAreAllStoredAndOneIDOnlyOnce() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let reports = try (0..<12).map { _ in try Fixtures.variant() }
        let same = try Fixtures.variant()
        let port = collector.port
        let statuses = Statuses()
        DispatchQueue.concurrentPerform(iterations: reports.count + 6) { index in
            let (id, data) = index < reports.count ? reports[index] : same
            let status =
                (try? RawHTTP.request(
                    port: port, method: "POST", path: "/api/reports", headers: [("X-Crash-Report-ID", id)], body: data
                ).status) ?? -1
            statuses.add(status, same: index >= reports.count)
        }
        #expect(statuses.distinct == Array(repeating: 201, count: reports.count))
        #expect(statuses.same.sorted() == [200, 200, 200, 200, 200, 201])
        #expect(collector.files(in: "reports", suffix: ".crash").count == reports.count + 1)
        let list = try JSONSerialization.jsonObject(with: collector.request("GET", "/api/reports").body) as? [Any]
        #expect(list?.count == reports.count + 1)
    }
}

/// Statuses collected from several threads.
final class Statuses: Sendable {
    private let state = Lock<(distinct: [Int], same: [Int])>(([], []))

    func add(_ status: Int, same: Bool) {
        state.withLock {
            if same { $0.same.append(status) } else { $0.distinct.append(status) }
        }
    }

    var distinct: [Int] { state.withLock { $0.distinct } }
    var same: [Int] { state.withLock { $0.same } }
}

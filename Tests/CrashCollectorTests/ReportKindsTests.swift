import CrashReportFormat
import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import CrashCollectorParsers
@testable import crash_collector

/// Snapshots and hangs (schema version 2) next to crashes: summaries, pages, the API, and the
/// Sentry envelope `crashreport export` makes of them.
@Suite struct ReportKindsTests {
    @Test func summariesCarryTheKind() throws {
        let hang = try Fixtures.withoutCrash(.hang).report
        let summary = ReportSummary(hang)
        #expect(summary.kind == "hang")
        #expect(summary.signal == "")
        #expect(summary.signature == "hang | db-poller")
        // The late heartbeat's thread is where a hang "is".
        let top = try #require(hang.threads[0].frames.first)
        #expect(summary.topFrame == ReportSummary.location(of: top, in: hang))
        #expect(ReportSummary(json: summary.json) == summary)

        let snapshot = ReportSummary(try Fixtures.withoutCrash(.snapshot).report)
        #expect(snapshot.kind == "snapshot" && snapshot.topFrame == "?")
        #expect(snapshot.signature == "snapshot | on request")

        // A summary indexed before reports had a kind is a crash's.
        let crash = ReportSummary(try ReportDecoding.decode(gzipData: Fixtures.segfault))
        #expect(crash.kind == "crash")
        guard case .object(var old) = crash.json else { throw TestFailure("not an object") }
        old["kind"] = nil
        #expect(ReportSummary(json: .object(old)) == crash)
    }

    @Test func pagesAndAPIListEveryKind() throws {
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let hang = try Fixtures.withoutCrash(.hang)
        let snapshot = try Fixtures.withoutCrash(.snapshot)
        for body in [try Fixtures.segfault, hang.data, snapshot.data] {
            #expect(try collector.request("POST", "/api/reports", body: body).status == 201)
        }
        let list = try collector.request("GET", "/api/reports")
        let kinds = try #require(try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]]).compactMap {
            $0["kind"] as? String
        }
        #expect(kinds.sorted() == ["crash", "hang", "snapshot"])
        let groups = try #require(
            try JSONSerialization.jsonObject(with: collector.request("GET", "/api/groups").body) as? [[String: Any]])
        #expect(groups.first { $0["signature"] as? String == "hang | db-poller" }?["kind"] as? String == "hang")

        let index = try collector.request("GET", "/").text
        #expect(index.contains("<span class=\"kind kind-hang\">hang</span>"))
        #expect(index.contains("\">Hang — db-poller</a>"))
        #expect(index.contains("\">Snapshot — on request</a>"))
        #expect(index.contains("<span class=\"kind kind-crash\">crash</span>"))

        let html = try collector.request("GET", "/reports/\(hang.id)")
        #expect(html.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(html.text.contains("<h2>The hang</h2>"))
        #expect(html.text.contains("Heartbeat <strong>db-poller</strong>"))
        let page = try collector.request("GET", "/reports/\(hang.id)?format=text")
        #expect(page.status == 200)
        #expect(page.text.hasPrefix("Hang report \(hang.id)\n"))
        #expect(page.text.contains("Hang:          heartbeat \"db-poller\" of thread"))
        #expect(page.text.contains("\"io\": did not answer the capture signal in time\n"))
        let json = try collector.request("GET", "/reports/\(snapshot.id)?format=json")
        #expect(try ReportDecoding.decode(json: json.body) == snapshot.report)
    }

    /// `crashreport export --format sentry-envelope`, run as a user would, for every kind: the
    /// envelope passes the collector's parser and its Sentry endpoint's checks.
    @Test func sentryEnvelopesOfEveryKindAreAccepted() throws {
        let directory = try CollectorProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let collector = try CollectorProcess()
        defer { collector.stop() }
        let reports = [
            ("crash", try Fixtures.segfault), ("hang", try Fixtures.withoutCrash(.hang).data),
            ("snapshot", try Fixtures.withoutCrash(.snapshot).data),
        ]
        for (kind, data) in reports {
            let file = directory.appendingPathComponent("\(kind).crash")
            try data.write(to: file)
            let envelope = try Self.export(file)
            let parsed = try SentryEnvelopeParser.parse(envelope)
            let event = try #require(parsed.items.first.flatMap { try? JSON.parse($0.payload) })
            let threads = event["threads"]?["values"]
            guard case .array(let values)? = threads else {
                Issue.record("\(kind): no threads")
                continue
            }
            #expect(!values.isEmpty, "\(kind)")
            #expect((event["exception"] != nil) == (kind == "crash"), "\(kind)")
            #expect(event["tags"]?["report_kind"]?.stringValue == (kind == "crash" ? nil : kind))
            let response = try collector.request("POST", "/api/1/envelope/", body: envelope)
            #expect(response.status == 200, "\(kind): \(response.text)")
        }
        #expect(collector.files(in: "events-sentry", suffix: ".json").count == 3)
    }

    /// The `crashreport` built next to the test bundle, exporting `file`.
    static func export(_ file: URL) throws -> Data {
        let crashreport = CollectorProcess.binary.deletingLastPathComponent().appendingPathComponent("crashreport")
        return try ProgramRun.output(crashreport.path, ["export", "--format", "sentry-envelope", file.path])
    }
}

import CrashReportFormat
import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import crash_collector

/// Reports indexed by an older grouping rule are grouped again when the collector starts.
@Suite struct RegroupingTests {
    @Test func summariesOfAnOlderRuleAreMadeAgainAtStart() throws {
        let data = try CollectorProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let (id, bytes) = try Fixtures.variant()
        let store = try CollectorReportStore(dataDirectory: data.path)
        #expect(try store.store(bytes, report: ReportDecoding.decode(gzipData: bytes)) == .stored(id))
        let current = try #require(store.summary(id: id))
        #expect(current.rule == ReportSummary.currentRule)

        // The index as the previous rule wrote it: no rule, a signature by offsets.
        var old = current
        old.signature = "SIGSEGV | crash-test+0x1234"
        guard case .object(var line) = old.json else { throw TestFailure("not an object") }
        line["rule"] = nil
        line["title"] = nil
        let index = data.appendingPathComponent("reports-index.jsonl")
        try Data((JSON.serialize(.object(line)) + [0x0a])).write(to: index)
        #expect(ReportSummary(json: .object(line))?.rule == 1)

        let restarted = try CollectorReportStore(dataDirectory: data.path)
        #expect(restarted.summary(id: id) == current, "regrouped by the current rule")
        // ...and the index holds the new line, so the next start does not do it again.
        let lines = try String(contentsOf: index, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines[1].contains("\"rule\":\(ReportSummary.currentRule)"))
    }
}

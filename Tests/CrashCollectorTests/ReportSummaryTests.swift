import CrashReportFormat
import Foundation
import Testing

@testable import crash_collector

@Suite struct ReportSummaryTests {
    private func report() throws -> CrashReport {
        try ReportDecoding.decode(gzipData: Fixtures.segfault)
    }

    @Test func signatureIsTheSignalAndThreeFramesOfTheMainImage() throws {
        let report = try report()
        let summary = ReportSummary(report)
        let parts = summary.signature.components(separatedBy: " | ")
        #expect(parts.first == "SIGSEGV")
        #expect(parts.count == 4)
        #expect(parts.dropFirst().allSatisfy { $0.hasPrefix("crash-test+0x") })
        // Frame 0 is the faulting instruction itself; the others are return addresses minus one.
        #expect(parts[1] == summary.topFrame)
        let frame1 = try #require(report.crash).frames[1]
        let main = try #require(report.image(of: frame1))
        #expect(parts[2] == "crash-test+0x" + String(main.offset(of: frame1.ip)! - 1, radix: 16))
        #expect(summary.id == report.reportID)
        #expect(summary.app == "crash-test")
        #expect(ReportSummary(json: summary.json) == summary)
        #expect(ReportSummary(json: ["id": "x"]) == nil)
    }

    @Test func withoutAppFramesTheInnermostFrameStandsIn() throws {
        var report = try report()
        let outsideMain = try #require(report.crash).frames.filter { report.image(of: $0)?.main != true }
        report.crash?.frames = outsideMain
        #expect(ReportSummary(report).signature.hasPrefix("SIGSEGV | libc.so.6+0x"))
        report.crash?.frames = [CrashReport.Frame(ip: 0x10, sp: 0x20, trust: .context, image: -1)]
        #expect(ReportSummary(report).signature == "SIGSEGV | ???")
        report.crash?.frames = []
        #expect(ReportSummary(report).signature == "SIGSEGV")
    }

    @Test func groupsCountVersionsAndOrder() throws {
        let base = ReportSummary(try report())
        func summary(_ id: Int, signature: String, time: Int64, version: String) -> ReportSummary {
            var copy = base
            copy.id = "\(id)"
            copy.signature = signature
            copy.timeMs = time
            copy.time = "t\(time)"
            copy.version = version
            return copy
        }
        let groups = CrashGroup.groups(of: [
            summary(1, signature: "A", time: 5, version: "2.0"), summary(2, signature: "B", time: 9, version: "1.0"),
            summary(3, signature: "A", time: 1, version: "1.0"), summary(4, signature: "A", time: 3, version: "2.0"),
        ])
        // Newest activity first: B was last seen at 9, A at 5.
        #expect(groups.map(\.signature) == ["B", "A"])
        let a = groups[1]
        #expect(a.count == 3)
        #expect(a.versions == ["1.0", "2.0"])
        #expect(a.versionCounts.map(\.version) == ["2.0", "1.0"], "the version seen last first")
        #expect(a.versionCounts.map(\.count) == [2, 1])
        #expect(a.firstSeen?.time == "t1")
        #expect(a.lastSeen?.time == "t5")
        #expect(a.reports.map(\.id) == ["1", "4", "3"])
        #expect(a.key == CrashGroup.key(of: "A") && a.key.count == 16 && a.key != groups[0].key)
    }
}

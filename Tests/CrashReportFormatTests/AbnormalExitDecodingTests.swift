import Foundation
import TestSupport
import Testing

@testable import CrashReportFormat

/// Schema version 3's abnormal-exit report (docs/report-schema.md): read, checked against its
/// kind, written back the same, shown as text.
struct AbnormalExitDecodingTests {
    static func decode(_ object: [String: Any]) throws -> CrashReport {
        try ReportDecoding.decode(gzipData: try ReportFixture.gzip(object))
    }

    @Test func readsAndWritesBack() throws {
        let report = try Self.decode(ReportFixture.abnormalExit())
        #expect(report.schemaVersion == 3 && report.kind == .abnormalExit)
        #expect(report.abnormalExit == .init(exitClass: .oomKill, runStartedMs: ReportFixture.crashTime - 42_000))
        #expect(report.crash == nil && report.snapshot == nil && report.threads.isEmpty)
        let again = try ReportDecoding.decode(json: try JSONRenderer().data(for: report))
        #expect(again == report)
        let text = TextRenderer().render(report)
        #expect(text.hasPrefix("Abnormal exit report \(ReportFixture.reportID)"))
        #expect(text.contains("The run ended abnormally: oom_kill, killed by the out-of-memory killer"))
        #expect(CrashSignature(report: report).parts == ["abnormal_exit", "oom_kill"])
    }

    @Test func membersMustAgreeWithTheKind() throws {
        let abnormal = ReportFixture.abnormalExit()
        #expect(throws: ReportError.self, "an abnormal exit needs version 3") {
            try Self.decode(ReportFixture.replacing(abnormal, "/schema_version", with: 2))
        }
        #expect(throws: ReportError.self, "an abnormal exit needs its member") {
            try Self.decode(ReportFixture.replacing(abnormal, "/abnormal_exit", with: NSNull()))
        }
        #expect(throws: ReportError.self, "and no snapshot") {
            try Self.decode(
                ReportFixture.replacing(abnormal, "/snapshot", with: ["reason": "x", "heartbeat": NSNull()]))
        }
        #expect(throws: ReportError.self, "a class the schema knows") {
            try Self.decode(ReportFixture.replacing(abnormal, "/abnormal_exit/class", with: "vanished"))
        }
        #expect(throws: ReportError.self, "a crash has no abnormal_exit") {
            try Self.decode(
                ReportFixture.replacing(
                    ReportFixture.validV2(setting: "/schema_version", to: 3), "/abnormal_exit",
                    with: ["class": "killed", "run_started_ms": 1]))
        }
        // A version 3 crash or snapshot is fine: the member is null or absent there.
        let crash = try Self.decode(ReportFixture.validV2(setting: "/schema_version", to: 3))
        #expect(crash.kind == .crash && crash.abnormalExit == nil)
    }
}

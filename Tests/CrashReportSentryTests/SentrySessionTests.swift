import CrashReporterSupport
import Foundation
import TestSupport
import Testing

@testable import CrashReportFormat
@testable import CrashReportSentry

/// Runs in Sentry (docs/sentry.md, "Sessions"): the session envelope, and an abnormal exit as
/// a message event grouped by its class.
struct SentrySessionTests {
    static let started = Timestamp(milliseconds: 1_795_958_405_123)

    @Test func sessionsAreItemsOfOneEnvelope() throws {
        let sessions = [
            SentrySession(
                sid: "5d0c3a01-7b4d-4c1e-9a55-0d2e8b7c6a10", started: Self.started,
                ended: Self.started.adding(seconds: 2.5), status: .exited, release: "1.4.2", environment: "production"),
            SentrySession(
                sid: "6e1d4b12-7b4d-4c1e-9a55-0d2e8b7c6a10", started: Self.started, ended: Self.started,
                status: .abnormal, release: "1.4.2", environment: nil),
            SentrySession(
                sid: "7f2e5c23-7b4d-4c1e-9a55-0d2e8b7c6a10", started: Self.started, ended: Self.started,
                status: .crashed, release: nil, environment: nil),
        ]
        let data = try #require(
            try SentryEnvelope.make(
                sessions: sessions, release: nil, environment: "staging", sdkName: "swift-crash-reporter",
                sdkVersion: "0.1.0", sentAt: Self.started))
        let lines = data.split(separator: 0x0a, omittingEmptySubsequences: false).map { Data($0) }
        // header, two items of two lines each (the one without a release is left out), final newline
        try #require(lines.count == 6)
        let header = try #require(try JSONSerialization.jsonObject(with: lines[0]) as? [String: Any])
        #expect(header["event_id"] == nil && header["sent_at"] as? String == "2026-11-29T13:20:05.123Z")
        for index in [1, 3] {
            let item = try #require(try JSONSerialization.jsonObject(with: lines[index]) as? [String: Any])
            #expect(item["type"] as? String == "session" && item["length"] as? Int == lines[index + 1].count)
        }
        let first = try #require(try JSONSerialization.jsonObject(with: lines[2]) as? [String: Any])
        #expect(first["sid"] as? String == "5d0c3a01-7b4d-4c1e-9a55-0d2e8b7c6a10")
        #expect(first["init"] as? Bool == true && first["status"] as? String == "exited")
        #expect(first["errors"] as? Int == 0 && first["duration"] as? Double == 2.5)
        #expect(first["started"] as? String == "2026-11-29T13:20:05.123Z")
        #expect(first["timestamp"] as? String == "2026-11-29T13:20:07.623Z")
        #expect(first["did"] == nil)
        #expect(first["attrs"] as? [String: String] == ["release": "1.4.2", "environment": "staging"])
        let second = try #require(try JSONSerialization.jsonObject(with: lines[4]) as? [String: Any])
        #expect(second["status"] as? String == "abnormal" && second["errors"] as? Int == 1)

        // A release given to the transport applies to every session; none at all: no envelope.
        let withRelease = try #require(
            try SentryEnvelope.make(
                sessions: [sessions[2]], release: "shop@2", environment: nil, sdkName: "s", sdkVersion: "1"))
        #expect(String(decoding: withRelease, as: UTF8.self).contains(#""release":"shop@2""#))
        #expect(
            try SentryEnvelope.make(
                sessions: [sessions[2]], release: nil, environment: nil, sdkName: "s", sdkVersion: "1")
                == nil)
    }

    @Test func anAbnormalExitIsAMessageEventGroupedByClass() throws {
        let report = try ReportDecoding.decode(json: try ReportFixture.json(ReportFixture.abnormalExit("killed")))
        let (_, _, _, event) = try SentryEnvelopeTests.envelope(report: report)
        #expect(event["level"] as? String == "error")
        #expect(event["exception"] == nil)
        #expect(
            (event["message"] as? [String: Any])?["formatted"] as? String
                == "Abnormal exit (killed): killed without a signal the reporter saw (SIGKILL or similar)")
        #expect(event["fingerprint"] as? [String] == ["abnormal_exit", "killed"])
        #expect(event["tags"] as? [String: String] == ["report_kind": "abnormal_exit", "exit_class": "killed"])
    }
}

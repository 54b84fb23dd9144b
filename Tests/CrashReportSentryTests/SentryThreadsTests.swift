import Foundation
import TestSupport
import Testing

@testable import CrashReportFormat
@testable import CrashReportSentry

/// The threads interface, and snapshots and hangs as message events (schema version 2).
@Suite("Sentry threads, snapshots and hangs")
struct SentryThreadsTests {
    static func event(_ object: [String: Any], symbols: ReportSymbols = ReportSymbols()) throws -> [String: Any] {
        let report = try ReportDecoding.decode(json: try ReportFixture.json(object))
        let envelope = try SentryEnvelope.make(
            report: report, symbols: symbols, release: nil, environment: nil, sdkName: "swift-crash-reporter",
            sdkVersion: "0.1.0")
        let lines = Data(envelope).split(separator: 0x0a, omittingEmptySubsequences: false)
        try #require(lines.count == 4)
        return try #require(try JSONSerialization.jsonObject(with: lines[2]) as? [String: Any])
    }

    static func threads(_ event: [String: Any]) throws -> [[String: Any]] {
        try #require((event["threads"] as? [String: Any])?["values"] as? [[String: Any]])
    }

    static func frames(_ thread: [String: Any]) -> [[String: Any]]? {
        (thread["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]]
    }

    @Test func everyThreadWithItsStackOldestFirst() throws {
        let symbols = ReportSymbols(threads: [1: [1: [FrameSymbol(function: "recurse(_:)")]]])
        let event = try Self.event(ReportFixture.validV2(), symbols: symbols)
        let threads = try Self.threads(event)
        #expect(threads.map { $0["id"] as? Int } == [4242, 4250, 4251])
        #expect(threads.map { $0["crashed"] as? Bool } == [true, false, false])
        #expect(threads.map { $0["current"] as? Bool } == [true, false, false])
        #expect(threads.map { $0["main"] as? Bool } == [true, false, false])
        #expect(threads.map { $0["name"] as? String } == ["crash-test", "worker", "io"])

        // The crashed thread's stack is the exception's.
        let exception = try #require(((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        #expect(exception["thread_id"] as? Int == 4242)
        let exceptionFrames = try #require((exception["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]])
        let crashed = try #require(Self.frames(threads[0]))
        #expect(
            crashed.map { $0["instruction_addr"] as? String }
                == exceptionFrames.map { $0["instruction_addr"] as? String })
        #expect(crashed.last?["instruction_addr"] as? String == "0x55d0c3a01234")

        // The worker: oldest first, the run of four one frame, the 300 left out one frame.
        let worker = try #require(Self.frames(threads[1]))
        #expect(
            worker.map { $0["instruction_addr"] as? String } == [
                "0x7f0a12345678", "0x55d0c3a01500", nil, "0x55d0c3a01400", "0x55d0c3a01300",
            ])
        #expect(worker[2]["function"] as? String == "<300 frames omitted>")
        #expect(worker[2]["in_app"] as? Bool == false)
        #expect(worker[3]["function"] as? String == "recurse(_:)")
        #expect(worker[4]["trust"] as? String == "context")
        #expect(
            ((threads[1]["stacktrace"] as? [String: Any])?["registers"] as? [String: String])?["rip"]
                == "0x55d0c3a01300")

        // The thread that did not answer has no stack.
        #expect(threads[2]["stacktrace"] == nil)

        #expect(event["level"] as? String == "fatal")
        #expect(event["message"] == nil)
        #expect(event["tags"] == nil)
    }

    @Test func theExceptionFoldsRepeatedFramesToo() throws {
        var object = ReportFixture.validV2()
        let frame: [String: Any] = ["ip": "0x55d0c3a01400", "sp": "0x1", "trust": "cfi", "image": 0]
        var crash = object["crash"] as! [String: Any]
        crash["frames"] = (crash["frames"] as! [Any]) + [frame, frame, frame]
        crash["frames_omitted_at"] = 6
        object["crash"] = crash
        var threads = object["threads"] as! [[String: Any]]
        threads[0]["frames"] = crash["frames"]
        threads[0]["frames_omitted_at"] = 6
        object["threads"] = threads
        let event = try Self.event(object)
        let exception = try #require(((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        let frames = try #require((exception["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]])
        #expect(frames.count == 4)
        #expect(frames.first?["instruction_addr"] as? String == "0x55d0c3a01400")
    }

    @Test func aSnapshotIsAWarningWithItsReasonAndNoException() throws {
        let event = try Self.event(ReportFixture.snapshot())
        #expect(event["exception"] == nil)
        #expect(event["level"] as? String == "warning")
        #expect((event["message"] as? [String: Any])?["formatted"] as? String == "Cache.Rebuild slow")
        #expect(event["tags"] as? [String: String] == ["report_kind": "snapshot"])
        #expect(event["fingerprint"] as? [String] == ["snapshot", "Cache.Rebuild slow"])
        let threads = try Self.threads(event)
        #expect(threads.map { $0["crashed"] as? Bool } == [false, false])
        #expect(threads.map { $0["current"] as? Bool } == [false, false])
        #expect(Self.frames(threads[0])?.count == 1)
    }

    @Test func aHangIsAnErrorAndItsLateThreadIsCurrent() throws {
        let event = try Self.event(ReportFixture.hang())
        #expect(event["exception"] == nil)
        #expect(event["level"] as? String == "error")
        #expect((event["message"] as? [String: Any])?["formatted"] as? String == "heartbeat late")
        #expect(event["tags"] as? [String: String] == ["report_kind": "hang"])
        #expect(event["fingerprint"] as? [String] == ["hang", "db-poller"])
        let threads = try Self.threads(event)
        #expect(threads.map { $0["current"] as? Bool } == [false, true])
        #expect(threads[1]["id"] as? Int == 4250)
        // Without a reason the heartbeat says what happened.
        let bare = try Self.event(ReportFixture.replacing(ReportFixture.hang(), "/snapshot/reason", with: ""))
        #expect((bare["message"] as? [String: Any])?["formatted"] as? String == "heartbeat \"db-poller\" was late")
    }
}

import Foundation
import TestSupport
import Testing

@testable import CrashReportFormat
@testable import CrashReportSentry

/// Async frames and tasks in the Sentry event (docs/sentry.md, "Async frames").
@Suite("Sentry async frames and tasks")
struct SentryAsyncFramesTests {
    static func stacktrace(_ thread: [String: Any]) -> [String: Any]? { thread["stacktrace"] as? [String: Any] }

    @Test func aStackWithAsyncFramesIsSentInCallOrderWithItsOwnAdjustment() throws {
        let symbols = ReportSymbols(asyncFrames: [0: [0: [FrameSymbol(function: "level2()", offset: 0)]]])
        let event = try SentryThreadsTests.event(ReportFixture.asyncCrash(), symbols: symbols)
        let threads = try SentryThreadsTests.threads(event)
        let crashed = try #require(Self.stacktrace(threads[0]))
        #expect(crashed["instruction_addr_adjustment"] as? String == "none")
        let frames = try #require(crashed["frames"] as? [[String: Any]])
        // Oldest first; the return addresses moved back by one here, the resume points and the
        // faulting instruction as they are.
        #expect(
            frames.map { $0["instruction_addr"] as? String } == [
                "0xdeacffff", "0x55d0c3a02200", "0x55d0c3a02100", "0x55d0c3a02000", "0x7f0a12345677",
                "0x55d0c3a01234",
            ])
        #expect(frames.map { $0["trust"] as? String } == ["cfi", "async", "async", "async", "cfi", "context"])
        #expect(frames[3]["function"] as? String == "level2() [async]")
        // The exception's stack is the same.
        let exception = try #require(((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        let exceptionStack = try #require(exception["stacktrace"] as? [String: Any])
        #expect(exceptionStack["instruction_addr_adjustment"] as? String == "none")
        #expect(
            (exceptionStack["frames"] as? [[String: Any]])?.map { $0["instruction_addr"] as? String }
                == frames.map { $0["instruction_addr"] as? String })
        #expect((exception["mechanism"] as? [String: Any])?["type"] as? String == "signalhandler")
    }

    @Test func stacksWithoutAsyncFramesAreSentAsBefore() throws {
        let event = try SentryThreadsTests.event(ReportFixture.asyncCrash())
        let threads = try SentryThreadsTests.threads(event)
        let worker = try #require(Self.stacktrace(threads[1]))
        #expect(worker["instruction_addr_adjustment"] == nil)
        #expect((worker["frames"] as? [[String: Any]])?.first?["instruction_addr"] as? String == "0x7f0a12345678")
        let plain = try SentryThreadsTests.event(ReportFixture.validV2())
        let exception = try #require(((plain["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        #expect((exception["stacktrace"] as? [String: Any])?["instruction_addr_adjustment"] == nil)
        #expect((plain["contexts"] as? [String: Any])?["swift_task"] == nil)
    }

    @Test func theTaskNamesTheThreadAndIsTheEventsContext() throws {
        let event = try SentryThreadsTests.event(ReportFixture.asyncCrash())
        let threads = try SentryThreadsTests.threads(event)
        #expect(
            threads.map { $0["name"] as? String } == [
                "crash-test (task 77 \"orders\", priority medium)", "worker", "io",
            ])
        let task = try #require((event["contexts"] as? [String: Any])?["swift_task"] as? [String: Any])
        #expect(task["type"] as? String == "swift_task")
        #expect(task["id"] as? Int == 77 && task["name"] as? String == "orders")
        #expect(task["priority"] as? Int == 21 && task["priority_name"] as? String == "medium")
    }

    @Test func asyncFramesNotKeptAreOneFrameAfterTheOldestKept() throws {
        let object = ReportFixture.replacing(ReportFixture.asyncCrash(), "/threads/0/async_frames_omitted", with: 9)
        let event = try SentryThreadsTests.event(object)
        let frames = try #require(
            Self.stacktrace(try SentryThreadsTests.threads(event)[0])?["frames"] as? [[String: Any]])
        #expect(frames[1]["function"] as? String == "<9 async frames not kept>")
        #expect(frames[1]["in_app"] as? Bool == false && frames[1]["instruction_addr"] == nil)
        #expect(frames[2]["instruction_addr"] as? String == "0x55d0c3a02200")
    }

    @Test func theFingerprintNamesTheAsyncFunctionsWhenTheTopIsTheRuntimes() throws {
        let symbols = ReportSymbols(
            crash: [0: [FrameSymbol(function: "swift_task_switch")]],
            asyncFrames: [0: [0: [FrameSymbol(function: "level2()")], 1: [FrameSymbol(function: "level1()")]]])
        let event = try SentryThreadsTests.event(ReportFixture.asyncCrash(), symbols: symbols)
        #expect(
            event["fingerprint"] as? [String] == [
                "SIGSEGV", "level2()", "level1()", "crash-test+0x202200", "Index out of range",
            ])
    }
}

import CrashReportFormat
import Foundation
import TestSupport
import Testing

@Suite("Async frames and tasks: decoding")
struct AsyncFramesDecodingTests {
    static func violations(_ object: [String: Any]) throws -> [SchemaViolation] {
        try JSONSchemaValidator(schema: ReportSchema.schema).validate(object: object)
    }

    @Test func asyncFramesFollowTheFrameWhoseContextBeganTheChain() throws {
        #expect(try Self.violations(ReportFixture.asyncCrash()) == [])
        let report = try ReportDecoding.decode(json: try ReportFixture.json(ReportFixture.asyncCrash()))
        let thread = report.threads[0]
        #expect(thread.asyncFrames.map(\.ip.rawValue) == [0x55d0_c3a0_2000, 0x55d0_c3a0_2100, 0x55d0_c3a0_2200])
        #expect(thread.asyncFrames.allSatisfy { $0.trust == .async })
        #expect(thread.asyncFramesAt == 1 && thread.asyncFramesOmitted == 0)
        #expect(thread.task == .init(id: 77, name: "orders", priority: 21))
        // In call order: the async function's frames, the functions awaiting it, then the executor.
        let order = thread.callStack.map(\.trust)
        #expect(order == [.context, .cfi, .async, .async, .async, .cfi])
        #expect(thread.callStack[5] == thread.frames[2])
    }

    @Test func aResumePointIsLookedUpAsItIs() {
        let resume = CrashReport.Frame(ip: Address(0x1000), sp: Address(0x2000), trust: .async, image: 0)
        let returning = CrashReport.Frame(ip: Address(0x1000), sp: Address(0x2000), trust: .cfi, image: 0)
        #expect(resume.lookupAddress.rawValue == 0x1000)
        #expect(returning.lookupAddress.rawValue == 0xfff)
    }

    @Test func threadsWithoutAsyncCodeReadAndWriteBackAsBefore() throws {
        let report = try ReportDecoding.decode(json: try ReportFixture.json(ReportFixture.validV2()))
        #expect(report.threads.allSatisfy { $0.asyncFrames.isEmpty && $0.task == nil })
        #expect(report.threads[0].callStack == report.threads[0].frames)
        let written = try JSONEncoder().encode(report.threads[0])
        let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(object["async_frames"] == nil && object["task"] == nil)
    }

    @Test func theAsyncMembersRoundTrip() throws {
        let report = try ReportDecoding.decode(json: try ReportFixture.json(ReportFixture.asyncCrash()))
        let again = try JSONDecoder().decode(
            CrashReport.CapturedThread.self, from: try JSONEncoder().encode(report.threads[0]))
        #expect(again == report.threads[0])
    }

    @Test func theSchemaBoundsTheChainAndTheTaskName() throws {
        let tooLong = String(repeating: "n", count: 64)
        let named = ReportFixture.replacing(ReportFixture.asyncCrash(), "/threads/0/task/name", with: tooLong)
        #expect(try Self.violations(named).map(\.keyword) == ["maxLength"])
        let badTrust = ReportFixture.replacing(
            ReportFixture.asyncCrash(), "/threads/0/async_frames/0/trust", with: "resume")
        #expect(try Self.violations(badTrust).map(\.keyword) == ["enum"])
    }
}

import Foundation
import TestSupport
import Testing

@testable import CrashReportFormat

/// Schema version 4's shared stacks (docs/report-schema.md, "A thread"): a thread that names an
/// earlier one with `frames_as` reads with that thread's frames, each `sp` moved; a name that
/// points nowhere, or a version that does not have it, is refused.
struct SharedStacksDecodingTests {
    /// `validV2()` as version 4, with a fourth thread (4252) whose stack is the worker's
    /// (`threads[1]`) moved by `shift`.
    static func report(frameAs index: Any = 1, shift: String = "0x800000") -> [String: Any] {
        var report = ReportFixture.validV2()
        report["schema_version"] = 4
        report["abnormal_exit"] = NSNull()
        var threads = report["threads"] as! [[String: Any]]
        var moved = ReportFixture.recursingWorker
        moved["id"] = 4252
        moved["frames"] = nil
        moved["frames_as"] = index
        moved["frames_sp_shift"] = shift
        threads.append(moved)
        report["threads"] = threads
        return report
    }

    static func decode(_ object: [String: Any]) throws -> CrashReport {
        try ReportDecoding.decode(gzipData: try ReportFixture.gzip(object))
    }

    @Test func aNamedStackReadsAsThatThreadsFramesMoved() throws {
        let report = try Self.decode(Self.report())
        let worker = report.threads[1]
        let moved = report.threads[3]
        #expect(moved.id == 4252 && moved.frames.count == worker.frames.count)
        #expect(moved.frames.map(\.ip) == worker.frames.map(\.ip))
        #expect(moved.frames.map(\.trust) == worker.frames.map(\.trust))
        #expect(moved.frames.map(\.sp.rawValue) == worker.frames.map { $0.sp.rawValue + 0x80_0000 })
        #expect(moved.framesOmitted == 300 && moved.framesOmittedAt == 5)
        // Written back, every thread lists its own frames, and reads the same again.
        let json = try JSONRenderer().data(for: report)
        #expect(!String(decoding: json, as: UTF8.self).contains("frames_as"))
        #expect(try ReportDecoding.decode(json: json) == report)
    }

    @Test func aShiftAboveHalfMovesDown() throws {
        let down = try Self.decode(Self.report(shift: "0xffffffffff800000")).threads[3]
        #expect(down.frames.first?.sp.rawValue == 0x7f0a_0000_f000 - 0x80_0000)
    }

    @Test func theNameMustBeAnEarlierThreadWithFrames() throws {
        #expect(throws: ReportError.self, "itself") { try Self.decode(Self.report(frameAs: 3)) }
        #expect(throws: ReportError.self, "a later thread") { try Self.decode(Self.report(frameAs: 9)) }
        #expect(throws: ReportError.self, "not a number") { try Self.decode(Self.report(frameAs: "1")) }
        var chained = Self.report()
        var threads = chained["threads"] as! [[String: Any]]
        var again = threads[3]
        again["frames_as"] = 3
        threads.append(again)
        chained["threads"] = threads
        #expect(throws: ReportError.self, "a thread that names another") { try Self.decode(chained) }
        var both = Self.report()
        threads = both["threads"] as! [[String: Any]]
        threads[3]["frames"] = threads[1]["frames"]
        both["threads"] = threads
        #expect(throws: ReportError.self, "frames and frames_as at once") { try Self.decode(both) }
    }

    @Test func aThreadNeedsFramesOrANamedStack() throws {
        var report = Self.report()
        var threads = report["threads"] as! [[String: Any]]
        threads[3]["frames_as"] = nil
        threads[3]["frames_sp_shift"] = nil
        report["threads"] = threads
        #expect(throws: ReportError.missingMember("/threads/3/frames")) { try Self.decode(report) }
        threads[3]["frames_as"] = 1
        report["threads"] = threads
        #expect(throws: ReportError.missingMember("/threads/3/frames_sp_shift")) { try Self.decode(report) }
    }

    @Test func onlyVersionFourNamesStacks() throws {
        let three = ReportFixture.replacing(Self.report(), "/schema_version", with: 3)
        do {
            _ = try Self.decode(three)
            Issue.record("a version 3 report with frames_as was read")
        } catch let error as ReportError {
            #expect(error.description.contains("frames_as needs schema version 4"))
        }
    }
}

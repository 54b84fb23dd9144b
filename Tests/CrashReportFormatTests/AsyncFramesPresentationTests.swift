import CrashReportFormat
import Foundation
import TestSupport
import Testing

@testable import CrashReportFormat

@Suite("Async frames and tasks: shown and grouped")
struct AsyncFramesPresentationTests {
    static func report(_ object: [String: Any] = ReportFixture.asyncCrash()) throws -> CrashReport {
        try ReportDecoding.decode(json: try ReportFixture.json(object))
    }

    static func lines(_ report: CrashReport, symbols: ReportSymbols = ReportSymbols()) -> [String] {
        TextRenderer(symbols: symbols).render(report).split(separator: "\n").map(String.init)
    }

    /// The crashing thread's frame 0 in the runtime (by name, though in the main executable),
    /// its async frames named `level2()`, `level1()` and a closure.
    static let runtimeTopSymbols = ReportSymbols(
        crash: [0: [FrameSymbol(function: "swift_task_switch", offset: 16)]],
        threads: [0: [0: [FrameSymbol(function: "swift_task_switch", offset: 16)]]],
        asyncFrames: [
            0: [
                0: [FrameSymbol(function: "level2()", file: "/src/Levels.swift", line: 12, offset: 0)],
                1: [FrameSymbol(function: "level1()", file: "/src/Levels.swift", line: 6, offset: 0)],
                2: [FrameSymbol(function: "closure #1 in main()", offset: 0)],
            ]
        ])

    @Test func showListsTheAsyncFramesAfterTheFrameThatRanThemWithTheTask() throws {
        let lines = Self.lines(try Self.report())
        let start = try #require(
            lines.firstIndex(
                of: "Thread 4242 \"crash-test\" (main thread, crashed), task 77 \"orders\", priority medium, 3 frames,"
                    + " 3 async:"))
        #expect(
            Array(lines[(start + 1)...(start + 6)]) == [
                "  0  crash-test  0x000055d0c3a01234  crash-test+0x201234",
                "  1  libc.so.6   0x00007f0a12345678  libc.so.6+0x145678",
                "  2  crash-test  0x000055d0c3a02000  crash-test+0x202000  [async]",
                "  3  crash-test  0x000055d0c3a02100  crash-test+0x202100  [async]",
                "  4  crash-test  0x000055d0c3a02200  crash-test+0x202200  [async]",
                "  5  ???         0x00000000dead0000  ???",
            ])
    }

    @Test func aNamedAsyncFrameIsMarkedAfterItsFunctionWithoutAnOffset() throws {
        let lines = Self.lines(try Self.report(), symbols: Self.runtimeTopSymbols)
        #expect(lines.contains("  0  crash-test  0x000055d0c3a01234  crash-test+0x201234  swift_task_switch + 16"))
        #expect(
            lines.contains(
                "  2  crash-test  0x000055d0c3a02000  crash-test+0x202000  level2() [async] at /src/Levels.swift:12"))
        #expect(
            lines.contains("  4  crash-test  0x000055d0c3a02200  crash-test+0x202200  closure #1 in main() [async]"))
    }

    @Test func asyncFramesBeyondTheBoundAreOneLineAfterTheLastKept() throws {
        let object = ReportFixture.replacing(ReportFixture.asyncCrash(), "/threads/0/async_frames_omitted", with: 5)
        let lines = Self.lines(try Self.report(object))
        let last = try #require(lines.firstIndex { $0.hasPrefix("  4  crash-test  0x000055d0c3a02200") })
        #expect(lines[last + 1] == "  ... 5 more async frames not kept ...")
        #expect(lines[last + 2].hasPrefix("  5  ???"))
    }

    @Test func theGapOfADeepStackStaysAmongTheSynchronousFrames() throws {
        let async = CrashReport.Frame(ip: Address(0x9000), sp: 0, trust: .async, image: 0)
        let sync = (0..<4).map {
            CrashReport.Frame(ip: Address(0x1000 + UInt64($0) * 16), sp: 0, trust: .cfi, image: 0)
        }
        // The chain begins at frame 0; two frames were left out before frame 2.
        let stack = CallStack(
            frames: sync, omitted: 2, omittedAt: 2, symbols: [3: [FrameSymbol(function: "outer")]],
            asyncFrames: [async], asyncAt: 0, asyncOmitted: 1, asyncSymbols: [0: [FrameSymbol(function: "awaiting")]])
        #expect(stack.frames.map(\.ip.rawValue) == [0x1000, 0x9000, 0x1010, 0x1020, 0x1030])
        #expect(stack.symbols[1]?.first?.function == "awaiting" && stack.symbols[4]?.first?.function == "outer")
        #expect(
            stack.lines == [
                .frame(index: 0, count: 1), .frame(index: 1, count: 1), .asyncOmitted(count: 1),
                .frame(index: 2, count: 1), .omitted(count: 2), .frame(index: 3, count: 1),
                .frame(index: 4, count: 1),
            ])
        // Without async frames the stack is the report's, as before.
        let plain = CallStack(frames: sync, omitted: 2, omittedAt: 2, symbols: [:])
        #expect(plain.lines == StackLine.lines(frames: sync, omitted: 2, omittedAt: 2) && plain.asyncCount == 0)
    }

    @Test func aTaskNameCannotDriveTheTerminal() throws {
        let object = ReportFixture.replacing(ReportFixture.asyncCrash(), "/threads/0/task/name", with: "a\u{1b}[2Jb")
        let lines = Self.lines(try Self.report(object))
        #expect(lines.contains { $0.contains("task 77 \"a\\u{1b}[2Jb\", priority medium") })
        let unnamed = ReportFixture.replacing(
            ReportFixture.asyncCrash(), "/threads/0/task", with: ["id": 5, "name": NSNull(), "priority": 23])
        #expect(
            Self.lines(try Self.report(unnamed)).contains {
                $0.contains("(main thread, crashed), task 5, priority 23, 3 frames")
            })
    }

    @Test func aCrashInTheRuntimeIsGroupedByTheAppsAsyncFunctions() throws {
        let report = try Self.report()
        let signature = CrashSignature(report: report, symbols: Self.runtimeTopSymbols)
        #expect(signature.frames == ["level2()", "level1()", "closure #1 in main()"])
        #expect(signature.hasNames)
        #expect(signature.title == "level2() — Index out of range")
        // Without the chain, only the runtime's frame would be left: the innermost frame stands in.
        var synchronous = report
        synchronous.threads[0].asyncFrames = []
        #expect(CrashSignature(report: synchronous, symbols: Self.runtimeTopSymbols).frames == ["crash-test+0x201234"])
    }

    @Test func theSignatureOfAnAsyncCrashSurvivesARebuildThatMovedTheCode() throws {
        // The second build: every function moved by 0x340 bytes, the same names.
        var moved = ReportFixture.asyncCrash()
        moved = ReportFixture.replacing(moved, "/crash/frames/0/ip", with: "0x55d0c3a01574")
        moved = ReportFixture.replacing(moved, "/threads/0/frames/0/ip", with: "0x55d0c3a01574")
        for (index, ip) in ["0x55d0c3a02340", "0x55d0c3a02440", "0x55d0c3a02540"].enumerated() {
            moved = ReportFixture.replacing(moved, "/threads/0/async_frames/\(index)/ip", with: ip)
        }
        let first = try Self.report()
        let second = try Self.report(moved)
        #expect(CrashSignature(report: first) != CrashSignature(report: second))
        #expect(
            CrashSignature(report: first, symbols: Self.runtimeTopSymbols)
                == CrashSignature(report: second, symbols: Self.runtimeTopSymbols))
    }

    @Test func withoutNamesTheAsyncFramesAreTheirOffsetsAsTheyAre() throws {
        let signature = CrashSignature(report: try Self.report())
        // A resume point's offset is the entry's own: no `- 1`.
        #expect(signature.frames == ["crash-test+0x201234", "crash-test+0x202000", "crash-test+0x202100"])
        #expect(!signature.hasNames)
    }

    @Test func theCrashsStackTakesTheCrashingThreadsChainOnlyWhenItsFramesAreTheCrashs() throws {
        let report = try Self.report()
        #expect(report.crashCallStack(symbols: ReportSymbols())?.asyncCount == 3)
        var other = report
        other.threads[0].frames[1].ip = Address(0x1234)
        #expect(other.crashCallStack(symbols: ReportSymbols())?.asyncCount == 0)
    }
}

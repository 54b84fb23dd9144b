import CrashReportFormat
import Foundation
import TestSupport
import Testing

@Suite("Text rendering of threads, snapshots and hangs")
struct ThreadRenderingTests {
    static func render(_ object: [String: Any], symbols: ReportSymbols = ReportSymbols()) throws -> String {
        TextRenderer(symbols: symbols).render(try ReportDecoding.decode(json: try ReportFixture.json(object)))
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func everyThreadCrashingFirstWithRunsAndTheGapFolded() throws {
        let text = try Self.render(ReportFixture.validV2())
        let lines = Self.lines(text)
        let start = try #require(lines.firstIndex(of: "Threads (3 of 6, 3 beyond the report's limit left out):"))
        #expect(lines[start + 1] == "Thread 4242 \"crash-test\" (main thread, crashed), 3 frames:")
        #expect(lines[start + 2] == "  0  crash-test  0x000055d0c3a01234  crash-test+0x201234")
        let worker = try #require(lines.firstIndex(of: "Thread 4250 \"worker\", 7 frames:"))
        #expect(worker > start + 2)
        #expect(
            Array(lines[(worker + 1)...(worker + 5)]) == [
                "  0  crash-test  0x000055d0c3a01300  crash-test+0x201300",
                "  1  crash-test  0x000055d0c3a01400  crash-test+0x201400  (repeated 4 times)",
                "  ... 300 frames omitted ...",
                "  5  crash-test  0x000055d0c3a01500  crash-test+0x201500",
                "  6  libc.so.6   0x00007f0a12345678  libc.so.6+0x145678",
            ])
        #expect(lines[worker + 6] == "Thread 4251 \"io\": did not answer: it blocks the capture signal")
        // One blank line between threads, as between every section.
        #expect(text.contains("libc.so.6+0x145678\n\nThread 4251"))
        // The registers are the crash's.
        #expect(lines[lines.firstIndex(of: "Registers:")! - 1] == lines[worker + 6])
    }

    @Test func threadsThatDidNotAnswerSayWhy() throws {
        for (reason, text) in [
            ("no_answer", "did not answer the capture signal in time"),
            ("stopped", "did not answer: it was stopped (state T)"),
        ] {
            let report = ReportFixture.validV2(setting: "/threads/2/unwind_error", to: reason)
            #expect(try Self.render(report).contains("Thread 4251 \"io\": \(text)\n"))
        }
    }

    @Test func eachThreadHasItsOwnSymbols() throws {
        let symbols = ReportSymbols(
            crash: [0: [FrameSymbol(function: "crashHere()")]],
            threads: [
                0: [0: [FrameSymbol(function: "crashHere()")]],
                1: [1: [FrameSymbol(function: "recurse(_:)", file: "Tree.swift", line: 7)]],
            ])
        let lines = Self.lines(try Self.render(ReportFixture.validV2(), symbols: symbols))
        let worker = try #require(lines.firstIndex(of: "Thread 4250 \"worker\", 7 frames:"))
        #expect(lines[worker + 1] == "  0  crash-test  0x000055d0c3a01300  crash-test+0x201300")
        #expect(
            lines[worker + 2]
                == "  1  crash-test  0x000055d0c3a01400  crash-test+0x201400  recurse(_:) at Tree.swift:7  (repeated 4 times)"
        )
        #expect(lines.contains("  0  crash-test  0x000055d0c3a01234  crash-test+0x201234  crashHere()"))
    }

    @Test func aSnapshotSaysWhatItIs() throws {
        let text = try Self.render(ReportFixture.snapshot())
        let lines = Self.lines(text)
        #expect(lines[0] == "Snapshot report \(ReportFixture.reportID)")
        #expect(lines[4] == "Snapshot:      Cache.Rebuild slow")
        #expect(lines[5] == "Threads (2):")
        #expect(lines[6] == "Thread 4242 \"crash-test\" (main thread), 1 frame:")
        for absent in ["Signal:", "Registers:", "Fatal error", "crashed"] {
            #expect(!text.contains(absent), "\(absent)")
        }
    }

    @Test func aHangNamesTheLateHeartbeatItsThreadAndHowLate() throws {
        let lines = Self.lines(try Self.render(ReportFixture.hang()))
        #expect(lines[0] == "Hang report \(ReportFixture.reportID)")
        #expect(lines[4] == "Hang:          heartbeat \"db-poller\" of thread 4250 was 2.500s late")
        #expect(lines[5] == "Reason:        heartbeat late")
        #expect(lines[6] == "Threads (2):")
    }

    @Test func namesAndReasonsCannotDriveTheTerminal() throws {
        var report = ReportFixture.replacing(ReportFixture.hang(), "/threads/1/name", with: "w\u{1b}[2J")
        report = ReportFixture.replacing(report, "/snapshot/reason", with: "r\u{7}")
        report = ReportFixture.replacing(report, "/snapshot/heartbeat/name", with: "h\u{1b}")
        let text = try Self.render(report)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 })
        #expect(text.contains("Thread 4250 \"w\\u{1b}[2J\""))
        #expect(text.contains("Reason:        r\\u{7}"))
        #expect(text.contains("heartbeat \"h\\u{1b}\""))
    }
}

@Suite("Signatures of snapshots and hangs")
struct KindSignatureTests {
    static func decode(_ object: [String: Any]) throws -> CrashReport {
        try ReportDecoding.decode(json: try ReportFixture.json(object))
    }

    @Test func snapshotsByReasonHangsByHeartbeat() throws {
        #expect(
            CrashSignature(report: try Self.decode(ReportFixture.snapshot())).description
                == "snapshot | Cache.Rebuild slow")
        #expect(CrashSignature(report: try Self.decode(ReportFixture.hang())).description == "hang | db-poller")
        let noHeartbeat = ReportFixture.replacing(ReportFixture.hang(), "/snapshot/heartbeat", with: NSNull())
        #expect(CrashSignature(report: try Self.decode(noHeartbeat)).description == "hang | heartbeat late")
        let noReason = ReportFixture.snapshot(reason: "")
        #expect(CrashSignature(report: try Self.decode(noReason)).description == "snapshot")
    }

    @Test func aCrashHasTheSameSignatureInBothVersions() throws {
        let v1 = CrashSignature(report: try Self.decode(ReportFixture.valid()))
        #expect(v1 == CrashSignature(report: try Self.decode(ReportFixture.validV2())))
        #expect(v1.description == "SIGSEGV | crash-test+0x201234 | Index out of range")
        #expect(!v1.hasNames, "no symbols: the frame is an offset")
    }
}

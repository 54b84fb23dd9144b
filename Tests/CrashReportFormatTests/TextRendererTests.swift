import CrashReportFormat
import Foundation
import TestSupport
import Testing

@Suite("Text rendering")
struct TextRendererTests {
    static func report(setting pointer: String? = nil, to value: Any? = nil) throws -> CrashReport {
        let object = pointer.map { ReportFixture.valid(setting: $0, to: value) } ?? ReportFixture.valid()
        return try ReportDecoding.decode(json: try ReportFixture.json(object))
    }

    /// The crashing thread's title line in `valid()`.
    static let crashingThread = "Thread 4242 \"crash-test\" (main thread, crashed), 3 frames:"

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func headerNamesTheAppAndTheMachine() throws {
        let text = TextRenderer().render(try Self.report())
        let lines = Self.lines(text)
        #expect(lines[0] == "Crash report \(ReportFixture.reportID)")
        #expect(lines[1] == "App:           crash-test 1.0.0 (build 7), environment production")
        #expect(lines[2] == "Time:          2026-11-29T13:20:05.123Z, 0.042s after launch")
        #expect(lines[3] == "OS:            Linux 6.1.0-28-amd64 x86_64, Debian GNU/Linux 12 (bookworm)")
    }

    @Test func fatalErrorMessageComesFirst() throws {
        let text = TextRenderer().render(try Self.report())
        let message = try #require(text.range(of: "Fatal error: Index out of range"))
        let signal = try #require(text.range(of: "Signal:"))
        let frames = try #require(text.range(of: Self.crashingThread))
        #expect(message.lowerBound < signal.lowerBound)
        #expect(signal.lowerBound < frames.lowerBound)
        // Straight after the header, on its own line.
        #expect(Self.lines(text)[4] == "Fatal error: Index out of range")
    }

    @Test func noMessageNoLine() throws {
        let text = TextRenderer().render(try Self.report(setting: "/crash/message", to: NSNull()))
        #expect(!text.contains("Fatal error"))
        #expect(Self.lines(text)[4].hasPrefix("Signal:"))
    }

    @Test func signalThreadAndFaultAddress() throws {
        let text = TextRenderer().render(try Self.report())
        #expect(text.contains("Signal:        SIGSEGV (11), code SEGV_MAPERR (1)\n"))
        #expect(text.contains("Fault address: 0x10\n"))
        #expect(text.contains("Thread:        4242 \"crash-test\" (main thread)\n"))
        let trap = TextRenderer().render(try Self.report(setting: "/crash/signal/name", to: "SIGILL"))
        #expect(trap.contains("Instruction:   0x10\n"))
    }

    @Test func framesShowImageAndOffset() throws {
        let lines = Self.lines(TextRenderer().render(try Self.report()))
        let start = try #require(lines.firstIndex(of: Self.crashingThread))
        #expect(lines[start + 1] == "  0  crash-test  0x000055d0c3a01234  crash-test+0x201234")
        #expect(lines[start + 2] == "  1  libc.so.6   0x00007f0a12345678  libc.so.6+0x145678")
        #expect(lines[start + 3] == "  2  ???         0x00000000dead0000  ???")
    }

    @Test func symbolsPlugIn() throws {
        let symbols: [Int: [FrameSymbol]] = [
            0: [
                FrameSymbol(function: "Array.subscript.getter", file: "Array.swift", line: 10, inlined: true),
                FrameSymbol(function: "main", file: "main.swift", line: 12, offset: 52),
            ]
        ]
        let lines = Self.lines(TextRenderer(symbols: ReportSymbols(threads: [0: symbols])).render(try Self.report()))
        let start = try #require(lines.firstIndex(of: Self.crashingThread))
        #expect(
            lines[start + 1]
                == "  0  crash-test  0x000055d0c3a01234  crash-test+0x201234  [inlined] Array.subscript.getter at Array.swift:10"
        )
        #expect(lines[start + 2].hasSuffix("  main + 52 at main.swift:12"))
        #expect(lines[start + 2].hasPrefix("                                 "))
        #expect(lines[start + 3].hasPrefix("  1  libc.so.6"))
    }

    @Test func truncationAndUnwindErrorAreSaid() throws {
        var object = ReportFixture.valid(setting: "/crash/frames_truncated", to: true)
        var crash = object["crash"] as! [String: Any]
        crash["unwind_error"] = "step_failed"
        object["crash"] = crash
        let text = TextRenderer().render(try ReportDecoding.decode(json: try ReportFixture.json(object)))
        #expect(text.contains("stack truncated"))
        #expect(text.contains("unwinding stopped early: step_failed"))
    }

    @Test func registersInArchitecturalOrderAndColumns() throws {
        let lines = Self.lines(TextRenderer(registerColumns: 3).render(try Self.report()))
        let start = try #require(lines.firstIndex(of: "Registers:"))
        #expect(
            lines[start + 1]
                == "     rax 0x0000000000000000      rsp 0x00007ffd5e1c8a30      r15 0xffffffffffffffff")
        #expect(lines[start + 2] == "     rip 0x000055d0c3a01234   eflags 0x0000000000010246")
    }

    @Test func aarch64RegistersKeepTheirOrder() {
        let registers = CrashReport.Registers(["pc": 1, "x10": 2, "x2": 3, "sp": 4, "pstate": 5, "zz": 6, "x0": 7])
        #expect(registers.ordered.map(\.name) == ["x0", "x2", "x10", "sp", "pc", "pstate", "zz"])
    }

    @Test func breadcrumbsAreRelativeToTheCrash() throws {
        let lines = Self.lines(TextRenderer().render(try Self.report()))
        let start = try #require(lines.firstIndex(of: "Breadcrumbs (2, ring of 100, 0 torn):"))
        #expect(lines[start + 1] == "  -1.234s  info     tracking  Order.Create  coupon=none items=3")
        #expect(lines[start + 2] == "  -0.005s  error    net       Upload.Failed")
    }

    @Test func breadcrumbAfterTheCrashTimeIsPositive() throws {
        let report = try Self.report(setting: "/breadcrumbs/items/1/timestamp_ms", to: ReportFixture.crashTime + 2_500)
        #expect(TextRenderer().render(report).contains("  +2.500s  error"))
    }

    @Test func imagesWithBaseSizeAndBuildID() throws {
        let lines = Self.lines(TextRenderer().render(try Self.report()))
        let start = try #require(lines.firstIndex(of: "Images (2):"))
        #expect(
            lines[start + 1]
                == "  0x000055d0c3800000  4194304  crash-test  9a1f0c7e  ~/src/app/.build/debug/crash-test  (main)")
        #expect(
            lines[start + 2] == "  0x00007f0a12200000  2000000  libc.so.6   -         /lib/x86_64-linux-gnu/libc.so.6")
    }

    @Test func imageWithoutAPathEndsAtItsBuildID() throws {
        let report = try Self.report(setting: "/images/1/path", to: "libc.so.6")
        let lines = Self.lines(TextRenderer().render(report))
        #expect(lines.last == "  0x00007f0a12200000  2000000  libc.so.6   -")
    }

    @Test func controlCharactersAreEscaped() throws {
        let report = try Self.report(setting: "/breadcrumbs/items/0/message", to: "evil\u{1b}[2Jclear")
        let text = TextRenderer().render(report)
        #expect(!text.unicodeScalars.contains("\u{1b}"))
        #expect(text.contains("evil\\u{1b}[2Jclear"))
    }

    @Test func emptyListsSayNone() throws {
        var object = ReportFixture.valid(setting: "/crash/frames", to: [Any]())
        object["images"] = [Any]()
        object = ReportFixture.replacing(object, "/breadcrumbs/items", with: [Any]())
        let text = TextRenderer().render(try ReportDecoding.decode(json: try ReportFixture.json(object)))
        #expect(text.contains("(main thread, crashed), 0 frames:\n  (none)"))
        #expect(text.contains("Images (0):\n  (none)"))
        #expect(text.contains("torn):\n  (none)"))
    }
}

import CrashReportFormat
import Foundation
import TestSupport
import Testing

/// Crash signatures by names (docs/grouping.md): what survives a rebuild, what is left out.
@Suite("Crash signatures by names")
struct CrashSignatureTests {
    /// A crash whose stack is `frames` (offsets in the main executable, innermost first;
    /// a negative offset is a frame in libc) with `message`.
    static func report(offsets: [Int], message: String? = nil, signal: String = "SIGILL") throws -> CrashReport {
        let base = 0x55d0_c380_0000
        let frames: [[String: Any]] = offsets.enumerated().map { index, offset in
            let inLibc = offset < 0
            let ip = inLibc ? 0x7f0a_1220_0000 - offset : base + offset
            return [
                "ip": "0x" + String(ip, radix: 16), "sp": "0x7ffd5e1c8a30", "trust": index == 0 ? "context" : "cfi",
                "image": inLibc ? 1 : 0,
            ]
        }
        var object = ReportFixture.replacing(ReportFixture.valid(), "/crash/frames", with: frames)
        object = ReportFixture.replacing(object, "/crash/message", with: message ?? NSNull())
        object = ReportFixture.replacing(object, "/crash/signal/name", with: signal)
        return try ReportDecoding.decode(json: try ReportFixture.json(object))
    }

    static func symbols(_ names: [[String]]) -> ReportSymbols {
        var crash: [Int: [FrameSymbol]] = [:]
        for (index, functions) in names.enumerated() where !functions.isEmpty {
            crash[index] = functions.enumerated().map { position, function in
                FrameSymbol(function: function, inlined: position < functions.count - 1)
            }
        }
        return ReportSymbols(crash: crash)
    }

    @Test func theSameFunctionsAtOtherOffsetsAreOneGroup() throws {
        let names = Self.symbols([["crashByFatalError()"], ["run(_:)"], ["main"]])
        let before = CrashSignature(report: try Self.report(offsets: [0x100, 0x200, 0x300]), symbols: names)
        let after = CrashSignature(report: try Self.report(offsets: [0x180, 0x2c4, 0x3f0]), symbols: names)
        #expect(before == after)
        #expect(before.description == "SIGILL | crashByFatalError() | run(_:) | main")
        #expect(before.hasNames)
        // Without names the offsets decide, and a moved build is another group.
        #expect(
            CrashSignature(report: try Self.report(offsets: [0x100, 0x200]))
                != CrashSignature(report: try Self.report(offsets: [0x180, 0x2c4])))
    }

    @Test func runtimeFramesAndThePseudoFrameAreLeftOut() throws {
        // A --static-swift-stdlib build: the runtime's frames are in the main executable too.
        let names = Self.symbols([
            [
                "Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value",
                "crashByForceUnwrap()",
            ],
            ["Swift._assertionFailure(_: Swift.StaticString, _: Swift.String) -> Swift.Never"],
            ["swift_once"], ["CrashKind.perform()"], ["main"],
        ])
        let signature = CrashSignature(
            report: try Self.report(offsets: [0x10, 0x20, 0x30, 0x40, 0x50]), symbols: names)
        #expect(signature.frames == ["crashByForceUnwrap()", "CrashKind.perform()", "main"])
        #expect(signature.message == "Unexpectedly found nil while unwrapping an Optional value")
        #expect(signature.title == "crashByForceUnwrap() — Unexpectedly found nil while unwrapping an Optional value")
    }

    @Test func libcFramesAndRecursionDoNotCount() throws {
        let names = Self.symbols([[], ["walk(_:)"], ["walk(_:)"], ["walk(_:)"], ["start()"]])
        let signature = CrashSignature(
            report: try Self.report(offsets: [-0x42, 0x10, 0x20, 0x20, 0x30], signal: "SIGSEGV"), symbols: names)
        #expect(signature.frames == ["walk(_:)", "start()"])
        #expect(signature.title == "walk(_:) — SIGSEGV")
    }

    @Test func aFrameWithoutANameIsItsOffset() throws {
        let names = Self.symbols([["handle()"], []])
        let signature = CrashSignature(report: try Self.report(offsets: [0x10, 0xa20c8]), symbols: names)
        #expect(signature.frames == ["handle()", "crash-test+0xa20c7"], "a return address is looked up one byte back")
    }

    @Test(arguments: [
        ("Crashes.swift:34: Fatal error: crash-test fatal error on purpose\n", "crash-test fatal error on purpose"),
        ("CrashTest/Crashes.swift:34: Fatal error: a: b", "a: b"),
        ("Fatal error: boom: file CrashTest/Crashes.swift, line 34", "boom"),
        ("Fatal error: Index out of range", "Index out of range"),
        ("Precondition failed: x > 0: file A.swift, line 3", "Precondition failed: x > 0"),
        ("Fatal error: ", nil),
    ])
    func theMessageLosesItsFileAndLine(message: String, expected: String?) throws {
        let signature = CrashSignature(report: try Self.report(offsets: [0x10], message: message))
        #expect(signature.message == expected)
    }

    @Test func theSameMessageFromTwoLinesIsOneGroup() throws {
        let names = Self.symbols([["check(_:)"]])
        let first = try Self.report(offsets: [0x10], message: "Orders.swift:10: Fatal error: bad order")
        let second = try Self.report(offsets: [0x10], message: "Orders.swift:57: Fatal error: bad order")
        #expect(CrashSignature(report: first, symbols: names) == CrashSignature(report: second, symbols: names))
        let other = try Self.report(offsets: [0x10], message: "Orders.swift:57: Fatal error: bad total")
        #expect(CrashSignature(report: first, symbols: names) != CrashSignature(report: other, symbols: names))
    }
}

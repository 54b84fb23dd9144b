import CrashReportFormat
import CrashReportSentry
import Foundation
import TestSupport
import Testing

@testable import CrashCollectorParsers
@testable import CrashSymbolication
@testable import crash_collector

/// Async frames at the addresses of a real `crash-test`'s resume partial functions (found with
/// `nm`: mangled names ending in `TQ<n>_`), symbolicated from the binary on disk and shown by
/// every view: `crashreport show`, the collector's page, the Sentry event (checked by Relay).
@Suite("Async frames of a real binary")
struct AsyncFramesTests {
    /// Where the fixture puts the binary: a PIE's file addresses are offsets from its base.
    static let base: UInt64 = 0x55d0_c380_0000

    /// A crash whose synchronous top is libc's (not the app's), the crashing thread's chain two
    /// resume points of `binary`: `crashInTaskBody()`'s first, then its caller's, the closure
    /// `crashInTask()` detaches. `entries` are their addresses in the report.
    static func report(of binary: URL) throws -> (report: CrashReport, entries: [UInt64], symbols: ELFSymbols) {
        let symbols = try ELFSymbols(file: binary)
        let body = try #require(
            symbols.first { $0.contains("15crashInTaskBody") && $0.hasSuffix("TQ0_") }, "no resume partial function")
        let closure = try #require(
            symbols.first { $0.contains("11crashInTask") && $0.contains("cfU_") && $0.hasSuffix("cfU_TQ0_") },
            "no closure resume partial function")
        let file = try ELFImageFile.inspect(path: binary.path)
        let entries = [base + body.start, base + closure.start]
        var object = ReportFixture.asyncCrash()
        object = ReportFixture.replacing(
            object, "/images/0",
            with: [
                "name": binary.lastPathComponent, "path": binary.path, "base": Address(base).hex,
                "size": Int(file.loadEnd), "build_id": file.buildID, "main": true,
            ])
        // libc at the top: the app is only in the chain.
        for pointer in ["/crash/frames/0/image", "/threads/0/frames/0/image"] {
            object = ReportFixture.replacing(object, pointer, with: 1)
        }
        for pointer in ["/crash/frames/0/ip", "/threads/0/frames/0/ip"] {
            object = ReportFixture.replacing(object, pointer, with: "0x7f0a12300010")
        }
        object = ReportFixture.replacing(
            object, "/threads/0/async_frames",
            with: entries.enumerated().map { index, entry in
                [
                    "ip": Address(entry).hex, "sp": Address(0x7f0a_0010_0000 + UInt64(index) * 0x100).hex,
                    "trust": "async", "image": 0,
                ]
            })
        let report = try ReportDecoding.decode(json: try ReportFixture.json(object))
        return (report, entries, symbols)
    }

    @Test func resumePointsAreLookedUpAsTheyAreAndNamedByTheirFunction() throws {
        let binary = Binaries.crashTest(build: "debug")
        let (report, entries, symbols) = try Self.report(of: binary)
        // The byte before the entry is another function's: a `- 1` would name that one.
        #expect(symbols.symbol(containing: entries[0] - Self.base - 1)?.contains("crashInTaskBody") == false)

        let result = Symbolicator().symbolication(of: report)
        let chain = result.symbols[asyncFramesOf: 0]
        #expect(chain[0]?.last?.function == "crashInTaskBody()", "\(chain)")
        #expect(chain[1]?.last?.function.hasPrefix("closure #1") == true, "\(chain)")
        #expect(chain[1]?.last?.function.contains("crashInTask()") == true, "\(chain)")
        #expect(chain[0]?.last?.file?.hasSuffix("Examples/CrashTest/Sources/Crashes.swift") == true)

        let signature = CrashSignature(report: report, symbols: result.symbols)
        #expect(signature.frames.first == "crashInTaskBody()", "\(signature)")
        #expect(signature.hasNames)

        let text = TextRenderer(symbolication: result).render(report)
        #expect(text.contains("crashInTaskBody() [async] at "), "\(text)")
        #expect(text.contains(", task 77 \"orders\", priority medium, 3 frames, 2 async:"))

        let page = ReportPage.render(report, symbolication: result)
        #expect(page.contains("crashInTaskBody()</span> <span class=\"async\">async</span>"))
        #expect(page.contains("task 77 &quot;orders&quot;, priority medium"))
    }

    @Test func theSentryEnvelopeWithAsyncFramesPassesTheCollectorAndRelay() throws {
        let (report, entries, _) = try Self.report(of: Binaries.crashTest(build: "debug"))
        let result = Symbolicator().symbolication(of: report)
        let envelope = try SentryEnvelope.make(
            report: report, symbols: result.symbols, release: nil, environment: nil, sdkName: "swift-crash-reporter",
            sdkVersion: "0.1.0")
        // The collector's envelope rules, then Relay's normalization of the event.
        let items = try SentryEnvelopeParser.parse(Data(envelope)).items
        let event = try #require(items.first { $0.header["type"]?.stringValue == "event" })
        let normalized = try RelayNormalizer.normalize(event.payload)
        #expect(normalized["errors"] == nil, "\(normalized["errors"] ?? "")")

        let exception = try #require(
            ((normalized["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        let stacktrace = try #require(exception["stacktrace"] as? [String: Any])
        #expect(stacktrace["instruction_addr_adjustment"] as? String == "none")
        let frames = try #require(stacktrace["frames"] as? [[String: Any]])
        // Oldest first: the unknown outermost frame, the closure, crashInTaskBody, libc's on top.
        let addresses = frames.map { $0["instruction_addr"] as? String }
        #expect(addresses.last == "0x7f0a12300010", "the faulting frame is looked up as it is")
        #expect(addresses.first == Address(0xdead_0000 - 1).hex, "a return address is moved back by one")
        let async = frames.filter { $0["trust"] as? String == "async" }
        #expect(async.map { $0["instruction_addr"] as? String } == entries.reversed().map { Address($0).hex })
        #expect(async.last?["function"] as? String == "crashInTaskBody() [async]")
        #expect(async.allSatisfy { $0["in_app"] as? Bool == true })

        let thread = try #require(((normalized["threads"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        #expect(thread["name"] as? String == "crash-test (task 77 \"orders\", priority medium)")
        let task = try #require((normalized["contexts"] as? [String: Any])?["swift_task"] as? [String: Any])
        #expect(task["id"] as? Int == 77 && task["name"] as? String == "orders" && task["priority"] as? Int == 21)
        // The mechanism is the signal handler's, as without async frames.
        let mechanism = try #require(exception["mechanism"] as? [String: Any])
        #expect(mechanism["type"] as? String == "signalhandler")
        #expect((normalized["fingerprint"] as? [String])?.contains("crashInTaskBody()") == true)
    }
}

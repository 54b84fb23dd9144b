import CrashReportFormat
import CrashReportSentry
import CrashSymbolication
import Foundation
import Testing

@testable import CrashCollectorParsers
@testable import crash_collector

/// Real crashes of `crash-test` (debug and, when built, release), symbolicated on this machine
/// from the binary the sandbox ran (`~/bin/crash-test` under the sandbox's home).
@Suite("Symbolicating real reports")
struct SymbolicationIntegrationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: String
        var function: String
        /// The reason the compiler records for the trap, in release builds.
        var runtimeFailure: String?
        /// Debug builds trap in place too (overflow checks), rather than call the runtime.
        var trapsInDebug = false
        var testDescription: String { kind }
    }

    static let cases: [Case] = [
        .init(kind: "fatal-error", function: "crashByFatalError()"),
        .init(
            kind: "force-unwrap", function: "crashByForceUnwrap()",
            runtimeFailure: "Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value"),
        // In -O code the array's check is inlined with its trap: every inlined level is read
        // (docs/symbolication.md), so the release build names the reason too.
        .init(
            kind: "index-out-of-range", function: "crashByIndexOutOfRange()",
            runtimeFailure: "Swift runtime failure: Index out of range"),
        .init(
            kind: "overflow", function: "crashByOverflow()",
            runtimeFailure: "Swift runtime failure: arithmetic overflow",
            trapsInDebug: true),
        .init(kind: "segfault", function: "crashBySegfault()"),
    ]

    @Test(arguments: Binaries.crashTestBuilds, cases)
    func symbolicated(build: String, expected: Case) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: build))
        defer { sandbox.remove() }
        _ = try await crash(sandbox, expected.kind)
        let file = try #require(sandbox.reports.first)
        let report = try ReportDecoding.decode(file: file.path)

        let result = Symbolicator(homeDirectory: sandbox.home.path).symbolication(of: report)
        let main = try #require(report.images.firstIndex { $0.main })
        #expect(result.images[main] == .matched(path: sandbox.binary.path))

        let all = result.symbols.crash.sorted { $0.key < $1.key }.flatMap(\.value)
        let hit = try #require(
            all.first { $0.function == expected.function && !$0.inlined }, "\(all.map(\.text))")
        #expect(hit.file?.hasSuffix("Examples/CrashTest/Sources/Crashes.swift") == true, "\(hit.text)")
        #expect((hit.line ?? 0) > 0, "\(hit.text)")
        #expect(hit.offset != nil)
        #expect(all.contains { $0.function == "CrashKind.perform()" }, "\(all.map(\.text))")

        if build == "release" || expected.trapsInDebug, let failure = expected.runtimeFailure {
            #expect(result.runtimeFailure == failure)
            #expect(result.symbols.crash[0]?.first?.function == failure)
            #expect(result.symbols.crash[0]?.first?.inlined == true)
        } else {
            #expect(result.runtimeFailure == nil)
        }
        // Raw addresses stay in the model; the rendered log has both.
        let text = TextRenderer(symbols: result.symbols).render(report)
        #expect(text.contains(expected.function))
        #expect(text.contains(report.crash?.frames.first?.ip.paddedHex ?? "no frame"))
    }

    @Test("a binary from another build at the same path gives no symbols for its frames")
    func mismatchedBuild() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        _ = try await crash(sandbox, "fatal-error")
        let report = try ReportDecoding.decode(file: try #require(sandbox.reports.first).path)

        // Another ELF file (another build id) replaces the binary.
        let other = try #require(["/usr/bin/env", "/bin/true"].first { FileManager.default.fileExists(atPath: $0) })
        try FileManager.default.removeItem(at: sandbox.binary)
        try FileManager.default.copyItem(atPath: other, toPath: sandbox.binary.path)

        let result = Symbolicator(homeDirectory: sandbox.home.path).symbolication(of: report)
        let main = try #require(report.images.firstIndex { $0.main })
        guard case .buildIDMismatch(let path, let onDisk) = result.images[main] else {
            Issue.record("status \(String(describing: result.images[main]))")
            return
        }
        #expect(path == sandbox.binary.path)
        #expect(onDisk != report.images[main].buildID)
        for (index, frame) in (report.crash?.frames ?? []).enumerated() where frame.image == main {
            #expect(result.symbols.crash[index] == nil, "frame \(index): \(result.symbols.crash[index] ?? [])")
        }
        // libswiftCore's frames (the fatal-error path) are still symbolicated.
        #expect(result.symbols.crash.keys.contains { report.crash?.frames[$0].image != main })
    }

    @Test(
        "a binary replaced at the same path is read afresh, not answered from the runtime's cache",
        .enabled(if: Binaries.crashTestBuilds.contains("release")))
    func replacedBinary() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        let symbolicator = Symbolicator(homeDirectory: sandbox.home.path)
        _ = try await crash(sandbox, "force-unwrap")
        let debugReport = try ReportDecoding.decode(file: try #require(sandbox.reports.first).path)
        #expect(symbolicator.symbolication(of: debugReport).runtimeFailure == nil)
        for file in sandbox.reports { try FileManager.default.removeItem(at: file) }

        try FileManager.default.removeItem(at: sandbox.binary)
        try FileManager.default.copyItem(at: Binaries.releaseCrashTest, to: sandbox.binary)
        _ = try await crash(sandbox, "force-unwrap")
        let releaseReport = try ReportDecoding.decode(file: try #require(sandbox.reports.first).path)
        let result = symbolicator.symbolication(of: releaseReport)
        #expect(
            result.runtimeFailure
                == "Swift runtime failure: Unexpectedly found nil while unwrapping an Optional value")
        #expect(result.symbols.crash.values.contains { $0.contains { $0.function == "crashByForceUnwrap()" } })
    }

    @Test(
        "a real report becomes a Sentry event with its symbols and nothing personal",
        arguments: Binaries.crashTestBuilds)
    func sentryEnvelope(build: String) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: build))
        defer { sandbox.remove() }
        _ = try await crash(sandbox, "overflow")
        let report = try ReportDecoding.decode(file: try #require(sandbox.reports.first).path)
        let symbols = Symbolicator(homeDirectory: sandbox.home.path).symbolicate(report)
        let data = Data(
            try SentryEnvelope.make(
                report: report, symbols: symbols, release: nil, environment: nil, sdkName: "swift-crash-reporter",
                sdkVersion: "0.0.0"))
        let envelope = try SentryEnvelopeParser.parse(data)
        let item = try #require(envelope.items.first)
        let event = try #require(try JSONSerialization.jsonObject(with: item.payload) as? [String: Any])
        let exception = try #require(((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])?.first)
        #expect(exception["type"] as? String == "SIGILL")
        #expect(exception["value"] as? String == "Swift runtime failure: arithmetic overflow")
        let frames = try #require((exception["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]])
        #expect(frames.last?["instruction_addr"] as? String == report.crash?.frames.first?.ip.hex)
        #expect(frames.last?["function"] as? String == "crashByOverflow()")
        #expect(frames.contains { $0["filename"] as? String == "Crashes.swift" && $0["lineno"] is Int })
        let images = try #require((event["debug_meta"] as? [String: Any])?["images"] as? [[String: Any]])
        let main = try #require(report.images.first { $0.main })
        #expect(
            images.contains {
                $0["code_id"] as? String == main.buildID && $0["code_file"] as? String == "~/bin/crash-test"
            })
        // Breadcrumb values are scrubbed where they are recorded (not here); the rest must not leak.
        let text = String(decoding: data, as: UTF8.self)
        var secrets = [
            CrashSandbox.plantedUser, CrashSandbox.plantedEnvironmentValue, CrashSandbox.plantedArgument,
            sandbox.home.path,
        ]
        let host = CrashSandbox.hostName()
        if host.count >= 8 { secrets.append(host) }
        for secret in secrets { #expect(!text.contains(secret), "the envelope holds \(secret)") }
    }

    /// Crashes the child, trying again when the spawn meets ETXTBSY: a test running in parallel
    /// that forks while this one still has its copy of the binary open for writing holds that
    /// descriptor until its child execs.
    private func crash(_ sandbox: CrashSandbox, _ kind: String) async throws -> ChildProcess.Result {
        var attempt = 0
        while true {
            do {
                return try await sandbox.crash(kind)
            } catch let error as NSError where error.code == Int(ETXTBSY) && attempt < 20 {
                attempt += 1
                usleep(50_000)
            }
        }
    }
}

import CrashReportDelivery
import CrashReportFormat
import CrashReportSentry
import CrashSymbolication
import Foundation
import Testing

@testable import CrashCollectorParsers
@testable import crash_collector

/// The same crash from two builds of `crash-test`, the second with a function inserted before
/// the crashing ones (every offset after it moves) and a new version: one group each in the
/// collector, in `crashreport stats` and in the Sentry event's fingerprint. The second build
/// comes from the same sources with a compile-time define (its module must keep its name, as a
/// new release's does, so a copy in another package would not do).
@Suite("One group across two builds", .serialized)
struct RebuiltGroupingTests {
    /// Where the second build goes: its own scratch path, since every module is compiled with
    /// the define; kept between runs, so that a second run only links.
    static let scratchPath = Binaries.packageRoot.appendingPathComponent(".build/moved-code")
    static let movedVersion = "1.1.0"

    /// Builds `crash-test` (debug) with `CRASH_TEST_MOVED_CODE`, which inserts a function before
    /// the crashing ones (Examples/CrashTest/Sources/Crashes.swift) and makes it version 1.1.0.
    static func buildMoved() async throws -> URL {
        let result = try await ChildProcess.runSwiftPM(
            [
                "build", "--product", "crash-test", "--package-path", Binaries.packageRoot.path, "--scratch-path",
                scratchPath.path, "-Xswiftc", "-DCRASH_TEST_MOVED_CODE",
            ],
            environment: ProcessInfo.processInfo.environment, timeout: 1800)
        try #require(result.exitCode == 0, "swift build failed:\n\(result.stdout.suffix(2000))\(result.stderr)")
        return scratchPath.appendingPathComponent("debug/crash-test")
    }

    @Test("a fatal error and a segfault from two builds: two groups, not four", .timeLimit(.minutes(30)))
    func oneGroupAcrossBuilds() async throws {
        let moved = try await Self.buildMoved()
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        // The second build next to the first in the same home, where the collector and
        // crashreport find both by their build ids.
        let movedCopy = sandbox.home.appendingPathComponent("moved/crash-test")
        try FileManager.default.createDirectory(
            at: movedCopy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try CrashSandbox.copyExecutable(from: moved, to: movedCopy)
        for kind in ["fatal-error", "segfault"] {
            _ = try await sandbox.crash(kind)
            _ = try await ChildProcess.run([movedCopy.path, "crash", kind], environment: sandbox.environment())
        }
        let reports = try sandbox.reports.map { try ReportDecoding.decode(file: $0.path) }
        try #require(reports.count == 4)
        #expect(Set(reports.map(\.app.version)) == ["1.0.0", Self.movedVersion])
        // The code moved: by offsets, each crash of one build differs from the other's.
        let byOffsets = Set(reports.map { CrashSignature(report: $0).description })
        #expect(byOffsets.count == 4, "the inserted function did not move the crashing code: \(byOffsets)")

        // crashreport stats
        let stats = try await ChildProcess.run(
            [Binaries.debug("crashreport").path, "stats", "--json"], environment: sandbox.environment())
        #expect(stats.exitCode == 0, "\(stats.stderr)")
        let groups = try #require(
            try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [[String: Any]])
        #expect(groups.map { $0["count"] as? Int } == [2, 2], "\(stats.stdout)")
        let signatures = Set(groups.compactMap { $0["signature"] as? String })
        #expect(
            signatures == [
                "SIGSEGV | crashBySegfault() | CrashKind.perform() | CrashTest_main",
                "\(CrashExpectation.trapSignalName) | crashByFatalError() | CrashKind.perform() | CrashTest_main"
                    + " | crash-test fatal error on purpose",
            ])
        for group in groups {
            #expect(Set(group["versions"] as? [String] ?? []) == ["1.0.0", Self.movedVersion])
        }

        // The collector, starting on a data directory that holds the four reports.
        let data = try sandbox.scratch("collector")
        let folder = data.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in sandbox.reports {
            try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent(file.lastPathComponent))
        }
        let collector = try await CollectorChild(data: data, home: sandbox.home)
        let collected = try #require(
            try JSONSerialization.jsonObject(with: Data(try await collector.get("/api/groups").text.utf8))
                as? [[String: Any]])
        #expect(Set(collected.compactMap { $0["signature"] as? String }) == signatures)
        #expect(collected.map { $0["count"] as? Int } == [2, 2])
        #expect(try await collector.stop().exitCode == 0)

        // The Sentry events' fingerprints: one per crash kind, the collector's signature.
        var fingerprints: [String: Set<[String]>] = [:]
        for (file, report) in zip(sandbox.reports, reports) {
            let export = try await ChildProcess.run(
                [Binaries.debug("crashreport").path, "export", "--format", "sentry-envelope", file.path],
                environment: sandbox.environment())
            #expect(export.exitCode == 0, "\(export.stderr)")
            let envelope = try SentryEnvelopeParser.parse(Data(export.stdout.utf8))
            let event = try #require(
                try JSONSerialization.jsonObject(with: envelope.items[0].payload) as? [String: Any])
            let fingerprint = try #require(event["fingerprint"] as? [String], "no fingerprint")
            fingerprints[report.crash?.signal.name ?? "", default: []].insert(fingerprint)
        }
        #expect(fingerprints.count == 2)
        for (_, prints) in fingerprints {
            #expect(prints.count == 1, "two builds, two fingerprints: \(prints)")
            #expect(prints.first.map { signatures.contains($0.joined(separator: " | ")) } == true)
        }
    }

    @Test("an async crash from two builds: one fingerprint, by the functions in its chain", .timeLimit(.minutes(30)))
    func asyncCrashAcrossBuilds() async throws {
        let moved = try await Self.buildMoved()
        var entries: [[UInt64]] = []
        var fingerprints: Set<[String]> = []
        // No crash is needed: the chain's addresses are each build's own resume points.
        for binary in [Binaries.crashTest(build: "debug"), moved] {
            let (report, found, _) = try AsyncFramesTests.report(of: binary)
            let envelope = try SentryEnvelope.make(
                report: report, symbols: Symbolicator().symbolicate(report), release: nil, environment: nil,
                sdkName: "swift-crash-reporter", sdkVersion: "0.1.0")
            let event = try #require(
                try JSONSerialization.jsonObject(with: try SentryEnvelopeParser.parse(Data(envelope)).items[0].payload)
                    as? [String: Any])
            fingerprints.insert(try #require(event["fingerprint"] as? [String], "no fingerprint"))
            entries.append(found)
        }
        #expect(entries[0] != entries[1], "the inserted function did not move the async code")
        #expect(fingerprints.count == 1, "\(fingerprints)")
        #expect(fingerprints.first?.contains("crashInTaskBody()") == true, "\(fingerprints)")
    }
}

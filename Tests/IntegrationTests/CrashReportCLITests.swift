import CrashReportDelivery
import Foundation
import TestSupport
import Testing

@testable import CrashCollectorParsers
@testable import crash_collector

/// `crashreport` on a state directory filled by real crashes.
@Suite("crashreport on real reports")
struct CrashReportCLITests {
    let binary = Binaries.crashTest(build: "debug")

    func crashreport(_ arguments: [String], _ sandbox: CrashSandbox, _ extra: [String: String] = [:]) async throws
        -> ChildProcess.Result
    {
        try await sandbox.crashreport(arguments, extra)
    }

    @Test("list, show by id, stats and export on a directory with three crashes and a damaged file")
    func reviewing() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        for kind in ["segfault", "segfault", "fatal-error"] { _ = try await sandbox.crash(kind) }
        let ids = sandbox.reports.map { ReportStore.id(of: $0.path) }
        try #require(ids.count == 3)
        let fatal = try #require(try sandbox.reports.first { try ReportFile($0).crash["message"] is String })
        try Data("not a report".utf8).write(to: sandbox.pending.appendingPathComponent("broken.crash"))

        let list = try await crashreport(["list"], sandbox)
        #expect(list.exitCode == 0)
        for id in ids { #expect(list.stdout.contains(id)) }
        #expect(list.stdout.contains("SIGSEGV") && list.stdout.contains("damaged: "))

        let show = try await crashreport(["show", ReportStore.id(of: fatal.path)], sandbox)
        #expect(show.exitCode == 0)
        let lines = show.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("Fatal error: crash-test fatal error on purpose") })
        #expect(show.stdout.contains("crashByFatalError()"), "symbolicated from the binary on disk")

        let stats = try await crashreport(["stats", "--json"], sandbox)
        #expect(stats.exitCode == 0)
        let groups = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [[String: Any]])
        // Newest first: the fatal error crashed last.
        #expect(groups.map { $0["count"] as? Int } == [1, 2], "two segfaults group together")
        let signature = groups.last?["signature"] as? String ?? ""
        #expect(signature == "SIGSEGV | crashBySegfault() | CrashKind.perform() | CrashTest_main", "by names")
        #expect(groups.last?["title"] as? String == "crashBySegfault() — SIGSEGV")
        #expect(list.stdout.contains("crashByFatalError() — crash-test fatal error on purpose"), "\(list.stdout)")

        let export = try await crashreport(
            ["export", "--format", "sentry-envelope", ReportStore.id(of: fatal.path)], sandbox)
        #expect(export.exitCode == 0)
        let envelope = try SentryEnvelopeParser.parse(Data(export.stdout.utf8))
        #expect(envelope.items.first?.header["type"]?.stringValue == "event")
        let event = try #require(try JSONSerialization.jsonObject(with: envelope.items[0].payload) as? [String: Any])
        #expect(event["level"] as? String == "fatal")
        #expect(event["platform"] as? String == "native")
        for secret in CrashSandbox.secrets { #expect(!export.stdout.contains(secret), "\(secret) in the envelope") }

        let missing = try await crashreport(["show", "00000000-0000-4000-8000-000000000000"], sandbox)
        #expect(missing.exitCode == 1)
        #expect(missing.stderr.hasPrefix("Error: no report with id"))
    }

    @Test("upload delivers with the service's rules and its answer says what happened")
    func upload() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        _ = try await sandbox.crash("abort")
        _ = try await sandbox.crash("segfault")
        let server = try FaultServer(responses: ["201", "503@3600"])
        let first = try await crashreport(["upload", "--url", server.url], sandbox)
        #expect(first.exitCode == 75, "kept for a retry: \(first.stderr)")
        #expect(first.stdout.hasPrefix("Delivered 1, rejected 0, kept for retry 1."), "\(first.stdout)")
        let again = try await crashreport(["upload", "--url", server.url], sandbox)
        #expect(again.stdout.hasPrefix("Delivered 0, rejected 0, kept for retry 1."), "Retry-After is honoured")
        #expect(server.requests.count == 2)

        let nowhere = try await crashreport(["upload"], sandbox)
        #expect(nowhere.exitCode == 1)
        #expect(nowhere.stderr.hasPrefix("Error: nowhere to upload"))
    }
}

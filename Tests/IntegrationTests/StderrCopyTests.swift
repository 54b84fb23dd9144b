import CrashReportFormat
import Foundation
import TestSupport
import Testing

/// A crash's copy on standard error (CShims/stderr_copy.c) and `crashreport import`: real children
/// crash, their stderr is kept as a log agent would keep it (plain, Docker json-file, CRI), and the
/// tool rebuilds the report from it.
@Suite struct StderrCopyTests {
    static let marker = "crash-reporter-data:1 "

    /// A directory nothing can be made in: a path below a regular file (ENOTDIR, even for root).
    static func unusableStateDirectory(_ sandbox: CrashSandbox) throws -> String {
        let file = sandbox.root.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        return file.appendingPathComponent("state").path
    }

    /// `crashreport import --dir DIR FILE`, with the log written to a file first.
    static func importing(_ log: String, into dir: URL, _ sandbox: CrashSandbox) async throws -> ChildProcess.Result {
        let file = sandbox.root.appendingPathComponent("log-\(UUID().uuidString).txt")
        try Data(log.utf8).write(to: file)
        return try await sandbox.crashreport(["import", "--dir", dir.path, file.path])
    }

    static func pendingReports(_ dir: URL) -> [URL] {
        let pending = dir.appendingPathComponent("pending")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: pending.path)) ?? []
        return names.filter { $0.hasSuffix(".crash") }.sorted().map { pending.appendingPathComponent($0) }
    }

    static func expectNoSecret(_ text: String) {
        for secret in CrashSandbox.secrets {
            #expect(!text.contains(secret), "stderr holds the planted \(secret)")
        }
    }

    @Test func withoutAStateDirectoryStderrAloneRebuildsTheReport() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        let state = try Self.unusableStateDirectory(sandbox)
        let crash = try await sandbox.crash("segfault", environment: ["CRASH_REPORTER_DIR": state])
        #expect(crash.signal == SIGSEGV, "\(crash.stderr)")
        #expect(crash.stderr.contains("a crash goes to standard error only"), "\(crash.stderr)")
        let summary = try #require(crash.stderr.split(separator: "\n").first { $0.hasPrefix("crash-reporter: ") })
        #expect(summary.contains("SIGSEGV (SEGV_MAPERR) at crash-test+0x"), "\(summary)")
        #expect(summary.contains("(not on disk)"), "\(summary)")
        Self.expectNoSecret(crash.stderr)

        let target = sandbox.root.appendingPathComponent("imported")
        let imported = try await Self.importing(crash.stderr, into: target, sandbox)
        #expect(imported.exitCode == 0, "\(imported.stdout)\(imported.stderr)")
        let file = try #require(Self.pendingReports(target).first)
        #expect(imported.stdout.hasPrefix("imported "), "\(imported.stdout)")
        let id = file.deletingPathExtension().lastPathComponent
        #expect(summary.contains("report \(id)"), "\(summary)")
        let report = try ReportFile(file)
        let names = report.mainImageSymbols(try ELFSymbols(file: sandbox.binary))
        #expect(names.contains { $0.contains("crashBySegfault") }, "\(names)")
        #expect(names.contains("main"), "\(names)")
    }

    @Test func theImportedReportIsTheFileAndIsStoredOnce() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        let crash = try await sandbox.crash(
            "fatal-error", environment: ["SWIFT_BACKTRACE": "enable=yes,interactive=no"])
        let original = try #require(sandbox.reports.first)
        // Swift's backtracer prints the executable's path (the planted home): only our lines are checked.
        Self.expectNoSecret(crash.stderr.split(separator: "\n").filter { $0.hasPrefix("crash-reporter") }.joined())
        // What `docker logs` would give: stdout and stderr interleaved, the Swift backtracer's text
        // included; then as Docker's json-file and as CRI lines (a long line split in P pieces).
        let lines = (crash.stdout + "service says hello\r\n" + crash.stderr).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.contains("Program crashed") || $0.contains("Fatal error") })
        let docker = lines.map { line -> String in
            let data = try! JSONSerialization.data(withJSONObject: ["log": line + "\n", "stream": "stderr"])
            return String(decoding: data, as: UTF8.self)
        }.joined(separator: "\n")
        let cri = lines.map { line -> String in
            guard line.count > 200 else { return "2026-12-04T16:10:49.123456789Z stderr F \(line)" }
            let cut = line.index(line.startIndex, offsetBy: 120)
            return "2026-12-04T16:10:49.1Z stderr P \(line[..<cut])\n2026-12-04T16:10:49.2Z stderr F \(line[cut...])"
        }.joined(separator: "\n")

        for log in [docker, cri] {
            let target = sandbox.root.appendingPathComponent("imported-\(UUID().uuidString)")
            let first = try await Self.importing(log, into: target, sandbox)
            #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")
            let copy = try #require(Self.pendingReports(target).first)
            #expect(copy.lastPathComponent == original.lastPathComponent)
            #expect(try ReportDecoding.decode(file: copy.path) == ReportDecoding.decode(file: original.path))
            let second = try await Self.importing(log, into: target, sandbox)
            #expect(second.exitCode == 0)
            #expect(second.stdout.hasPrefix("already there "), "\(second.stdout)")
            #expect(Self.pendingReports(target).count == 1)
        }
    }

    @Test func aSixtyFourThreadReportImportsWholeAndNotWithALineRemoved() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        let crash = try await sandbox.run(["threads", "64", "segfault"])
        let dataLines = crash.stderr.split(separator: "\n").filter { $0.hasPrefix(Self.marker) }
        #expect(dataLines.count > 2, "\(dataLines.count) lines")
        #expect(dataLines.allSatisfy { $0.utf8.count < 4096 })

        let whole = sandbox.root.appendingPathComponent("whole")
        let imported = try await Self.importing(crash.stderr, into: whole, sandbox)
        #expect(imported.exitCode == 0, "\(imported.stdout)\(imported.stderr)")
        let copy = try #require(Self.pendingReports(whole).first)
        #expect(try ReportFile(copy).threads.count >= 64)

        let removed = dataLines[1]
        let cut = crash.stderr.replacingOccurrences(of: removed + "\n", with: "")
        let partial = sandbox.root.appendingPathComponent("partial")
        let refused = try await Self.importing(cut, into: partial, sandbox)
        #expect(refused.exitCode == 1)
        #expect(refused.stdout.hasPrefix("incomplete "), "\(refused.stdout)")
        #expect(refused.stdout.contains("(2)"), "\(refused.stdout)")
        #expect(Self.pendingReports(partial).isEmpty)
    }

    @Test func theTerminationLogHoldsTheSummaryAndOptOutWritesNothing() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        let log = sandbox.root.appendingPathComponent("termination-log")
        try Data(String(repeating: "old message ", count: 1000).utf8).write(to: log)
        let crash = try await sandbox.crash("abort", environment: ["CRASH_REPORTER_TERMINATION_LOG": log.path])
        let id = try #require(sandbox.reports.first).deletingPathExtension().lastPathComponent
        let message = try String(contentsOf: log, encoding: .utf8)
        #expect(message.hasPrefix("crash-reporter: the process crashed: SIGABRT"), "\(message)")
        #expect(message.contains("report \(id)") && !message.contains("old message"), "\(message)")
        #expect(message.utf8.count <= 4096 && message.split(separator: "\n").count == 1)
        #expect(crash.stderr.contains(String(message.dropLast())))

        let optedOut = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { optedOut.remove() }
        let silentLog = optedOut.root.appendingPathComponent("termination-log")
        let silent = try await optedOut.crash(
            "abort", environment: ["CRASH_REPORTER_DISABLED": "1", "CRASH_REPORTER_TERMINATION_LOG": silentLog.path])
        #expect(silent.signal == SIGABRT)
        #expect(!silent.stderr.contains("crash-reporter: ") && !silent.stderr.contains(Self.marker), "\(silent.stderr)")
        #expect(!FileManager.default.fileExists(atPath: silentLog.path))
    }

    @Test func randomBytesACutLineAndAForgedLineStoreNothing() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        let crash = try await sandbox.crash("segfault", environment: ["CRASH_REPORTER_STDERR": "report"])
        let line = try #require(crash.stderr.split(separator: "\n").first { $0.hasPrefix(Self.marker) })
        var generator = SeededGenerator(seed: 29)
        let random = String(
            decoding: (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }, as: UTF8.self)
        let cut = String(line.prefix(line.count - 7))
        // The same fields with a payload of someone else's making and its own right checksum
        // pass the line check; the gzip check refuses it.
        let fields = line.split(separator: " ")
        let header = "\(fields[1]) \(fields[2])"
        let payload = Array("not a report at all".utf8)
        var crc = Array(header.utf8).withUnsafeBytes { Gzip.crc32(0, $0) }
        crc = payload.withUnsafeBytes { Gzip.crc32(crc, $0) }
        let encoded = Data(payload).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
        let forged = "\(Self.marker)\(header) \(String(format: "%08x", crc)) \(encoded)"
        let changed = String(line.dropLast(4)) + (line.hasSuffix("AAAA") ? "BBBB" : "AAAA")

        for (log, expected) in [
            (random, "no crash report found"), (cut, "damaged "), (forged, "damaged "), (changed, "damaged "),
        ] {
            let target = sandbox.root.appendingPathComponent("imported-\(UUID().uuidString)")
            let result = try await Self.importing(log, into: target, sandbox)
            #expect(result.stdout.hasPrefix(expected), "\(result.stdout)")
            #expect(result.exitCode == (expected.hasPrefix("no") ? 0 : 1))
            #expect(Self.pendingReports(target).isEmpty)
        }
    }
}

import Foundation
import Testing

/// A `--static-swift-stdlib` build of `crash-test`: the Swift runtime is linked into the
/// executable and exports nothing, so the reporter must reach the runtime's fatal-error
/// message slot through the static linker, not through dlsym; and Dispatch, linked in too, calls
/// the reporter's `pthread_sigmask` through the static linker, so its workers still answer.
@Suite("A static-stdlib build", .serialized)
struct StaticStdlibTests {
    /// Where the static build goes: its own scratch path, so that it never shares objects
    /// (built without `-static-stdlib`) with the ordinary builds.
    static let scratchPath = Binaries.packageRoot.appendingPathComponent(".build/static-stdlib")

    /// Builds `crash-test` with the Swift runtime linked statically (incremental after the first
    /// time) and returns the executable. In debug: what is checked is the linking, which the
    /// configuration does not change, and a debug build of its own scratch path costs half of a
    /// release one (docs/decisions/0178-the-tests-extra-builds-are-debug-builds.md).
    static func build() async throws -> URL {
        let result = try await ChildProcess.runSwiftPM(
            [
                "build", "--static-swift-stdlib", "--product", "crash-test",
                "--package-path", Binaries.packageRoot.path, "--scratch-path", scratchPath.path,
            ],
            environment: ProcessInfo.processInfo.environment, timeout: 1800)
        try #require(result.exitCode == 0, "swift build failed:\n\(result.stdout.suffix(2000))\(result.stderr)")
        return scratchPath.appendingPathComponent("debug/crash-test")
    }

    /// The shared libraries an ELF file needs, from `readelf -d`.
    static func neededLibraries(_ file: URL) async throws -> [String] {
        let result = try await ChildProcess.run(
            ["/usr/bin/readelf", "-d", file.path], environment: ["PATH": "/usr/bin:/bin"])
        try #require(result.exitCode == 0, "readelf: \(result.stderr)")
        // "0x…01 (NEEDED)  Shared library: [libc.so.6]"
        return result.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    @Test("the fatal-error message reaches the report of a --static-swift-stdlib build", .timeLimit(.minutes(30)))
    func fatalErrorMessage() async throws {
        let binary = try await Self.build()
        let needed = try await Self.neededLibraries(binary)
        #expect(!needed.isEmpty, "readelf found no NEEDED entries at all")
        #expect(!needed.contains { $0.hasPrefix("libswift") }, "a Swift runtime library is still dynamic: \(needed)")

        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let result = try await sandbox.crash("fatal-error")
        #expect(result.signal == CrashExpectation.trapSignal, "status \(result.status), stderr: \(result.stderr)")
        try #require(sandbox.reports.count == 1, "expected one report, found \(sandbox.reports.count)")
        let report = try ReportFile(sandbox.reports[0])
        let message = report.crash["message"] as? String ?? ""
        #expect(message.contains("Fatal error: crash-test fatal error on purpose"), "message: \(message)")
    }

    @Test("Dispatch linked in statically: a blocked pool thread answers a snapshot", .timeLimit(.minutes(30)))
    func poolThreadsAnswer() async throws {
        let binary = try await Self.build()
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let result = try await sandbox.run(
            ["pool-block", "1", "0"], environment: ["CRASH_TEST_SNAPSHOT_REASON": "pool"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        try #require(sandbox.reports.count == 1, "one snapshot, found \(sandbox.reports.count)")
        let report = try ReportFile(sandbox.reports[0])
        let silent = report.threads.filter { !($0["unwind_error"] is NSNull) }
        #expect(silent.isEmpty, "every thread answered: \(silent.map { ($0["name"] ?? "", $0["unwind_error"] ?? "") })")
        let symbols = try ELFSymbols(file: binary)
        let functions = report.threads.flatMap {
            report.mainImageSymbols(symbols, frames: $0["frames"] as? [[String: Any]] ?? [])
        }
        #expect(functions.contains { $0.contains("crash_test_block_executor") }, "the blocked pool thread's frame")
    }
}

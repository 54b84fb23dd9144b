import CrashReportFormat
import Foundation
import Testing

/// A stripped release `crash-test` (the recipe of docs/deployment.md: `objcopy
/// --only-keep-debug`, `--add-gnu-debuglink`, `strip --strip-all`) crashes; `crashreport show`
/// names its frames, with lines, only when given the debug file's directory, by build id or by
/// name, and passes over a debug file of another build with a note.
@Suite("Stripped binaries and their debug files")
struct StrippedBinaryTests {
    static let hasRelease = Binaries.crashTestBuilds.contains("release")

    /// Runs a tool of binutils (installed by scripts/ensure-deps.sh), failing the test on a non-zero status.
    @discardableResult
    static func binutils(_ arguments: [String]) async throws -> ChildProcess.Result {
        let result = try await ChildProcess.run(
            ["/usr/bin/" + arguments[0]] + arguments.dropFirst(), environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.exitCode == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    @Test(
        "raw offsets without the debug directory, names and lines with it",
        .enabled(if: hasRelease, "the release crash-test is not built (scripts/test.sh builds it)"))
    func strippedBinary() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.releaseCrashTest)
        defer { sandbox.remove() }
        let binary = sandbox.binary.path
        let byBuildID = sandbox.root.appendingPathComponent("debug-by-build-id")
        let byName = sandbox.root.appendingPathComponent("debug-by-name")
        let otherBuild = sandbox.root.appendingPathComponent("debug-other-build")
        for directory in [byName, otherBuild] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let debugFile = byName.appendingPathComponent("crash-test.debug").path
        try await Self.binutils(["objcopy", "--only-keep-debug", binary, debugFile])
        try await Self.binutils(["objcopy", "--add-gnu-debuglink=\(debugFile)", binary])
        try await Self.binutils(["strip", "--strip-all", binary])
        // The debug build's debug file, under the release's name: another build id.
        try await Self.binutils([
            "objcopy", "--only-keep-debug", Binaries.debug("crash-test").path,
            otherBuild.appendingPathComponent("crash-test.debug").path,
        ])
        let symbols = try await ChildProcess.run(["/usr/bin/nm", binary], environment: ["PATH": "/usr/bin:/bin"])
        #expect(symbols.stderr.contains("no symbols"), "the binary is stripped: \(symbols.stdout.prefix(200))")

        let result = try await sandbox.crash("segfault")
        #expect(result.signal == SIGSEGV, "status \(result.status), stderr: \(result.stderr)")
        let file = try #require(sandbox.reports.first).path
        let report = try ReportDecoding.decode(file: file)
        let main = try #require(report.images.first { $0.main })
        #expect(main.buildID.count == 40)
        let buildIDFolder = byBuildID.appendingPathComponent(".build-id/\(main.buildID.prefix(2))")
        try FileManager.default.createDirectory(at: buildIDFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: debugFile, toPath: buildIDFolder.appendingPathComponent("\(main.buildID.dropFirst(2)).debug").path)

        let plain = try await sandbox.crashreport(["show", file])
        #expect(plain.exitCode == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("crash-test+0x"), "\(plain.stdout)")
        #expect(!plain.stdout.contains("crashBySegfault()"), "no names without the debug file: \(plain.stdout)")

        let named: [(arguments: [String], environment: [String: String])] = [
            (["--debug-dir", byBuildID.path], [:]),
            (["--debug-dir", otherBuild.path, "--debug-dir", byName.path], [:]),
            ([], ["CRASH_REPORTER_DEBUG_DIRS": "\(otherBuild.path):\(byBuildID.path)"]),
        ]
        for (arguments, environment) in named {
            let shown = try await sandbox.crashreport(["show"] + arguments + [file], environment)
            #expect(shown.exitCode == 0, "\(shown.stderr)")
            #expect(shown.stdout.contains("crashBySegfault()"), "\(arguments) \(environment): \(shown.stdout)")
            #expect(shown.stdout.contains("CrashKind.perform()"), "\(shown.stdout)")
            #expect(shown.stdout.contains("Crashes.swift:"), "lines from the debug file: \(shown.stdout)")
            #expect(shown.stdout.contains("crash-test+0x"), "the raw offsets stay beside the names")
        }

        // Another build's debug file alone: a note, and the raw offsets.
        let mismatched = try await sandbox.crashreport(["show", "--debug-dir", otherBuild.path, file])
        #expect(mismatched.exitCode == 0, "\(mismatched.stderr)")
        #expect(!mismatched.stdout.contains("crashBySegfault()"), "\(mismatched.stdout)")
        #expect(mismatched.stderr.contains("note: "), "\(mismatched.stderr)")
        #expect(mismatched.stderr.contains("not the report's \(main.buildID)"), "\(mismatched.stderr)")

        // The group's title names the function with the directory, as `show` does.
        let listed = try await sandbox.crashreport(["list", "--debug-dir", byBuildID.path])
        #expect(listed.stdout.contains("crashBySegfault() — SIGSEGV"), "\(listed.stdout)")
    }

    @Test(
        "a .gnu_debuglink name is followed in the debug directory, and its CRC-32 checked",
        .enabled(if: hasRelease, "the release crash-test is not built (scripts/test.sh builds it)"))
    func debugLink() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.releaseCrashTest)
        defer { sandbox.remove() }
        let binary = sandbox.binary.path
        let linked = sandbox.root.appendingPathComponent("debug-linked")
        try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
        // A name that neither the build id nor NAME.debug would find.
        let debugFile = linked.appendingPathComponent("orders-1.4.2.dbg").path
        try await Self.binutils(["objcopy", "--only-keep-debug", binary, debugFile])
        try await Self.binutils(["objcopy", "--add-gnu-debuglink=\(debugFile)", binary])
        try await Self.binutils(["strip", "--strip-all", binary])
        _ = try await sandbox.crash("segfault")
        let file = try #require(sandbox.reports.first).path

        let shown = try await sandbox.crashreport(["show", "--debug-dir", linked.path, file])
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("crashBySegfault()"), "by the link's name: \(shown.stdout)")

        // The same build's debug file, changed after the link was made: its CRC-32 differs.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: debugFile))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let changed = try await sandbox.crashreport(["show", "--debug-dir", linked.path, file])
        #expect(changed.exitCode == 0, "\(changed.stderr)")
        #expect(!changed.stdout.contains("crashBySegfault()"), "\(changed.stdout)")
        #expect(changed.stderr.contains("\(debugFile): CRC-32 "), "\(changed.stderr)")
    }
}

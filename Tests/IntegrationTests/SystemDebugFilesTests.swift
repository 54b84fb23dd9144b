import Foundation
import Testing

/// The tools take the system's debug directory, `/usr/lib/debug` with Debian's `libc6-dbg`
/// (installed by scripts/ensure-deps.sh), without being told: the C library's debug file (whose
/// DWARF holds the nine-byte negative constants the Swift runtime's own reader traps on) names
/// the C library's frames with their source lines.
@Suite("The system's debug directory")
struct SystemDebugFilesTests {
    static let directory = "/usr/lib/debug"

    /// Whether a frame row of `crashreport show` names its innermost function: `<name> + <offset>`,
    /// or `[inlined] <name> at <file>:<line>` when that function is inlined at the address.
    static func namesItsFunction(_ row: Substring) -> Bool {
        row.contains(" + ") || (row.contains("[inlined] ") && row.contains(" at "))
    }

    /// The debug file of the C library this process runs with, by build id, if it is installed.
    static func libcDebugFile(buildID: String) -> String? {
        guard buildID.count > 2 else { return nil }
        let path = "\(directory)/.build-id/\(buildID.prefix(2))/\(buildID.dropFirst(2)).debug"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: directory + "/.build-id")))
    func showNamesTheCLibraryFromItsDebugFile() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        _ = try await sandbox.crash("segfault")
        let report = try ReportFile(try #require(sandbox.reports.first))
        let libc = try #require(report.images.first { $0["name"] as? String == "libc.so.6" }, "no libc in the report")
        _ = try #require(
            Self.libcDebugFile(buildID: libc["build_id"] as? String ?? ""), "libc6-dbg is not installed")

        // No toolchain on PATH, no --debug-dir: the system's directory is searched by itself.
        let shown = try await sandbox.crashreport(["show", sandbox.reports[0].path], ["PATH": "/nonexistent"])
        #expect(shown.signal == nil && shown.exitCode == 0, "status \(shown.status): \(shown.stderr)")
        #expect(!shown.stderr.contains("note:"), "\(shown.stderr)")
        #expect(shown.stdout.contains("crashBySegfault()"), "\(shown.stdout)")
        // Every C library frame is named, and the ones the debug file describes have their lines
        // (`__libc_start_call_main` is in every main thread's stack). A function inlined at the
        // address has a row of its own, `[inlined] <name> at <file>:<line>`, without an offset;
        // one appears when a thread happens to be in such a function at the crash (a thread
        // that is exiting, say).
        let libcRows = shown.stdout.split(separator: "\n").filter { $0.contains("libc.so.6+0x") }
        #expect(!libcRows.isEmpty, "\(shown.stdout)")
        for row in libcRows { #expect(Self.namesItsFunction(row), "a libc frame without a name: \(row)") }
        #expect(
            libcRows.contains { $0.contains("__libc_start_call_main + ") && $0.contains(".h:") },
            "\(libcRows.joined(separator: "\n"))")
    }
}

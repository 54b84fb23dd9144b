import Foundation
import TestSupport
import Testing

/// The C files of the signal handler call each other one way only: scripts/check-c-calls.sh
/// builds the file-to-file call graph from each object's symbols and fails on a cycle.
@Suite("C call graph")
struct CCallGraphTests {
    struct Run {
        var status: Int32
        var output: String
    }

    /// Runs the script on `directory` (CShims when nil), stdout and stderr together.
    func check(_ directory: URL?) throws -> Run {
        let script = Binaries.packageRoot.appendingPathComponent("scripts/check-c-calls.sh").path
        let run = try ProgramRun("/bin/bash", [script] + (directory.map { [$0.path] } ?? []), errors: .intoOutput)
        return Run(status: run.status, output: run.text)
    }

    @Test("CShims has no call cycle between its C files")
    func cshimsHasNoCycle() throws {
        let run = try check(nil)
        #expect(run.status == 0, "\(run.output)")
        // The graph was really built: the handler writes the report, install installs the handler.
        #expect(run.output.contains("handler.c report.c"), "\(run.output)")
        #expect(run.output.contains("install.c handler.c"), "\(run.output)")
        #expect(!run.output.contains("report.c handler.c"), "\(run.output)")
    }

    @Test("two C files that call each other fail the check, and it names them")
    func cycleFails() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("c-cycle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("include"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "void pong(int n);\nvoid ping(int n) { if (n > 0) pong(n - 1); }\n".write(
            to: directory.appendingPathComponent("ping.c"), atomically: true, encoding: .utf8)
        try "void ping(int n);\nvoid pong(int n) { if (n > 0) ping(n - 1); }\n".write(
            to: directory.appendingPathComponent("pong.c"), atomically: true, encoding: .utf8)
        try "int leaf(void) { return 1; }\n".write(
            to: directory.appendingPathComponent("leaf.c"), atomically: true, encoding: .utf8)

        let run = try check(directory)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("cycle"), "\(run.output)")
        #expect(run.output.contains("ping.c") && run.output.contains("pong.c"), "\(run.output)")
    }
}

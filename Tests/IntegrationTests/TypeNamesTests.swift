import Foundation
import Testing

/// Each top-level type name is declared in one module only: scripts/check-type-names.sh reads
/// every module under Sources (or the directory it is given) and fails naming the name and the
/// modules. scripts/test.sh runs it before anything builds.
@Suite("One module per type name")
struct TypeNamesTests {
    /// Runs the script on `directory` (Sources when nil): its exit code and its output.
    func check(_ directory: URL?) async throws -> (status: Int32?, output: String) {
        let script = Binaries.packageRoot.appendingPathComponent("scripts/check-type-names.sh").path
        let result = try await ChildProcess.run(
            ["/bin/bash", script] + (directory.map { [$0.path] } ?? []),
            environment: ProcessInfo.processInfo.environment)
        return (result.exitCode, result.stdout + result.stderr)
    }

    @Test("no top-level type name in Sources is declared in two modules")
    func sourcesHaveNoSharedName() async throws {
        let run = try await check(nil)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("each declared in one module"), "\(run.output)")
    }

    @Test("a name declared in two modules fails the check, which names it and both modules")
    func sharedNameFails() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("type-names-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = [
            "Client/Headers.swift": "/// Fields.\npublic struct HTTPHeaders: Sendable {\n    struct Nested {}\n}\n",
            "Server/Headers.swift": "@frozen package enum HTTPHeaders {}\nextension String {}\n",
            "Server/Other.swift": "/*\nstruct Commented {}\n*/\nfinal class Only {}\n",
            "Third/Nested.swift": "enum Outer {\n    struct Nested {}\n}\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }

        let run = try await check(root)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("'HTTPHeaders' is declared in 2 modules: Client, Server"), "\(run.output)")
        // Nested types, extensions and commented-out code declare no top-level name.
        for name in ["Nested", "String", "Commented", "Only", "Outer"] {
            #expect(!run.output.contains("'\(name)'"), "\(run.output)")
        }
    }
}

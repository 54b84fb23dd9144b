import Foundation
import TestSupport
import Testing

/// What a real service leaves in its state directory: every file is one of `StateLayout`'s
/// entries, which docs/configuration.md draws (StateLayoutDocsTests checks that drawing).
@Suite("The state directory a real service leaves")
struct StateDirectoryEntriesTests {
    let binary = Binaries.crashTest(build: "debug")

    @Test("a crash, its delivery, the run records and granted analytics leave only files StateLayout names")
    func everyFileIsAnEntry() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let collector = try await TrackingCollector()
        let env = collector.environment(["CRASH_REPORTER_URL": "http://127.0.0.1:\(collector.port)/api/reports"])
        do {
            try await sandbox.succeed(["consent", "analytics", "grant"], environment: env)
            _ = try await sandbox.crash("segfault", environment: env)
            try await sandbox.succeed(["run"], environment: env)
        } catch {
            await collector.stop()
            throw error
        }
        await collector.stop()

        let files = sandbox.stateEntries.filter { entry in
            var isDirectory: ObjCBool = false
            let path = sandbox.state.appendingPathComponent(entry).path
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        for file in files {
            let kinds = StateEntries.kinds(of: file)
            #expect(kinds.count == 1, "\(file) is an instance of \(kinds), not of exactly one of StateLayout's entries")
        }
        // The run wrote the kinds it should have, so the check above looked at real files.
        let seen = Set(files.flatMap(StateEntries.kinds(of:)))
        for expected in ["analytics.consent", "runs/slot-<n>.run", "analytics/install-id", "delivered/<id>.crash"] {
            #expect(seen.contains(expected), "no \(expected) in \(files)")
        }
    }
}

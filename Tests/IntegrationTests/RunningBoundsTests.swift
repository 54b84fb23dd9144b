import Foundation
import TestSupport
import Testing

/// The bounds and the crash-loop cap hold while the service runs, not only at its start
/// (docs/crash-loops.md): a loop's summary goes out within its window, and snapshots written as
/// fast as they are asked for never push `pending/` past its bound.
@Suite("Bounds while the service runs")
struct RunningBoundsTests {
    let binary = Binaries.crashTest(build: "debug")

    func pendingCount(_ sandbox: CrashSandbox) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.pending.path)) ?? []).filter {
            $0.hasSuffix(".crash")
        }.count
    }

    func waitUntilServing(_ child: ChildProcess.Running) async throws {
        let stdout = child.directory.appendingPathComponent("stdout")
        for _ in 0..<6000 where !((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").contains("serving") {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("a 30-crash loop: one full report, and the summary counting the other 29 while the service runs")
    func loopSummaryWhileRunning() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        for _ in 0..<30 { _ = try await sandbox.crash("segfault") }
        let server = try FaultServer(responses: ["201"])
        let service = try ChildProcess.start(
            [binary.path, "serve", "300"],
            environment: sandbox.environment([
                "CRASH_REPORTER_URL": server.url, "CRASH_REPORTER_CAP_COUNT": "1",
                "CRASH_REPORTER_CAP_WINDOW_SECONDS": "2",
            ]))
        _ = try await eventually(timeout: 60) { server.reportRequests.count >= 2 }
        let runningWhenSent = SnapshotTests.isRunning(service.pid)
        kill(service.pid, SIGTERM)
        _ = try await service.wait()
        let requests = server.reportRequests
        try #require(requests.count == 2, "one full report, then the summary: \(requests.count)")
        #expect(runningWhenSent, "the summary went out while the service ran")
        #expect(FaultServer.header(requests[0], "X-Crash-Report-Suppressed") == nil)
        #expect(FaultServer.header(requests[1], "X-Crash-Report-Suppressed") == "29")
    }

    /// Asks a serving child for `count` snapshots, one every few milliseconds, looking at
    /// `pending/` between them; returns the most it ever held.
    func soak(_ sandbox: CrashSandbox, environment: [String: String], count: Int) async throws -> Int {
        let child = try ChildProcess.start(
            [binary.path, "serve", "300"], environment: sandbox.environment(environment))
        try await waitUntilServing(child)
        var most = 0
        for _ in 0..<count {
            kill(child.pid, SIGQUIT)
            for _ in 0..<4 {
                most = max(most, pendingCount(sandbox))
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        most = max(most, pendingCount(sandbox))
        kill(child.pid, SIGTERM)
        let result = try await child.wait()
        #expect(result.signal == SIGTERM, "it served until told to stop: \(result.stderr)")
        return most
    }

    @Test("snapshots asked for as fast as they come, no destination: pending/ stays at its bound")
    func snapshotSoakWithoutDestination() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let most = try await soak(sandbox, environment: ["CRASH_REPORTER_MAX_PENDING_REPORTS": "10"], count: 120)
        // At most one more for the moment between a snapshot's write and the writer's pruning.
        #expect(most <= 11, "pending/ held \(most)")
        #expect(pendingCount(sandbox) == 10, "more than the bound were written, and the bound holds at the end")
    }

    @Test("snapshots asked for while the server keeps failing: the worker keeps pending/ at its bound")
    func snapshotSoakWhileDelivering() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let server = try FaultServer(responses: ["503"])
        let most = try await soak(
            sandbox,
            environment: ["CRASH_REPORTER_URL": server.url, "CRASH_REPORTER_MAX_PENDING_REPORTS": "10"], count: 120)
        #expect(most <= 11, "pending/ held \(most)")
        #expect(pendingCount(sandbox) <= 10)
        #expect(!server.reportRequests.isEmpty, "the worker tried to deliver meanwhile")
    }
}

import Foundation
import TestSupport
import Testing

/// A crash loop does not flood the receiver or fill the disk: real crashes of `crash-test`,
/// delivered by `crashreport upload` to a loopback receiver (docs/crash-loops.md).
@Suite("Crash loops and retention")
struct CrashLoopTests {
    let binary = Binaries.crashTest(build: "debug")
    func names(_ sandbox: CrashSandbox, _ folder: String) -> [String] {
        let path = sandbox.state.appendingPathComponent(folder).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".crash") }
    }

    /// Pending reports, oldest first (the order retention removes them in).
    func pendingByAge(_ sandbox: CrashSandbox) throws -> [String] {
        try names(sandbox, "pending").map { name -> (String, Date) in
            let attributes = try FileManager.default.attributesOfItem(
                atPath: sandbox.pending.appendingPathComponent(name).path)
            return (name, attributes[.modificationDate] as? Date ?? .distantPast)
        }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.0)
    }

    func pendingBytes(_ sandbox: CrashSandbox) -> Int {
        names(sandbox, "pending").reduce(0) { total, name in
            let size =
                (try? FileManager.default.attributesOfItem(atPath: sandbox.pending.appendingPathComponent(name).path))?[
                    .size] as? Int ?? 0
            return total + size
        }
    }

    @Test("50 identical crashes: the cap's 5 full reports, then one summary counting the other 45")
    func fiftyIdenticalCrashes() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        for _ in 0..<50 { _ = try await sandbox.crash("segfault") }
        #expect(sandbox.reports.count == 50)
        let server = try FaultServer(responses: ["201"])
        // The window opens when the first pass begins: after `started`, before `ended`.
        let window = ["--cap-window", "4"]
        let started = Date()
        let first = try await sandbox.crashreport(["upload", "--url", server.url] + window)
        let ended = Date()
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Delivered 5,") && first.stdout.contains("withheld 45"), "\(first.stdout)")
        #expect(server.reportRequests.count == 5)
        #expect(server.reportRequests.allSatisfy { FaultServer.header($0, "X-Crash-Report-Suppressed") == nil })
        #expect(names(sandbox, "withheld").count == 45, "withheld reports stay on disk")
        #expect(sandbox.reports.isEmpty)

        // Before the window closes nothing more goes; after it, the summary.
        let early = try await sandbox.crashreport(["upload", "--url", server.url] + window)
        if Date().timeIntervalSince(started) < 4 { #expect(server.reportRequests.count == 5, "\(early.stdout)") }
        try await Task.sleep(for: .seconds(max(0, 4.2 - Date().timeIntervalSince(ended))))
        let second = try await sandbox.crashreport(["upload", "--url", server.url] + window)
        #expect(second.exitCode == 0, "\(second.stderr)")
        // On a slow machine the window may have closed by the early pass already.
        #expect((early.stdout + second.stdout).contains("summary of 45 withheld report(s)"), "\(second.stdout)")
        let requests = server.reportRequests
        try #require(requests.count == 6)
        #expect(FaultServer.header(requests[5], "X-Crash-Report-Suppressed") == "45")
        let summaryID = try #require(FaultServer.header(requests[5], "X-Crash-Report-ID"))
        #expect(
            Set(requests.compactMap { FaultServer.header($0, "X-Crash-Report-ID") }).count == 6,
            "six reports, none twice")
        #expect(names(sandbox, "delivered").contains("\(summaryID).crash"))
        #expect(names(sandbox, "withheld").count == 44)

        let third = try await sandbox.crashreport(["upload", "--url", server.url] + window)
        #expect(third.exitCode == 0)
        #expect(server.reportRequests.count == 6, "one summary per window")
    }

    @Test("the running service's own worker caps a loop and sends the summary when the window closes")
    func serviceSendsSummary() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        for _ in 0..<3 { _ = try await sandbox.crash("segfault") }
        let server = try FaultServer(responses: ["201"])
        let service = try ChildProcess.start(
            [binary.path, "serve", "300"],
            environment: sandbox.environment([
                "CRASH_REPORTER_URL": server.url, "CRASH_REPORTER_CAP_COUNT": "1",
                "CRASH_REPORTER_CAP_WINDOW_SECONDS": "1",
            ]))
        // The summary goes when the window has closed, while the service serves (on a busy
        // machine the first pass alone can take seconds): wait until it is received and moved to
        // delivered/ (the receiver has it before the service has the answer), then stop the service.
        _ = try await eventually(timeout: 45) {
            server.reportRequests.count >= 2 && names(sandbox, "delivered").count >= 2
        }
        kill(service.pid, SIGTERM)
        _ = try await service.wait()
        let requests = server.reportRequests
        try #require(requests.count == 2, "one full report, then the summary: \(requests)")
        #expect(FaultServer.header(requests[0], "X-Crash-Report-Suppressed") == nil)
        #expect(FaultServer.header(requests[1], "X-Crash-Report-Suppressed") == "2")
        #expect(names(sandbox, "withheld").count == 1)
        #expect(names(sandbox, "delivered").count == 2)
    }

    @Test("Sentry: the summary is the same crash's event, with the count in extra and a tag")
    func sentrySummary() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        for _ in 0..<4 { _ = try await sandbox.crash("segfault") }
        let server = try FaultServer(responses: ["200"])
        let dsn = "http://publickey123@127.0.0.1:\(server.port)/42"
        let options = ["upload", "--dsn", dsn, "--cap-count", "1", "--cap-window", "1"]
        let first = try await sandbox.crashreport(options)
        #expect(first.stdout.contains("Delivered 1,") && first.stdout.contains("withheld 3"), "\(first.stdout)")
        try await Task.sleep(for: .seconds(1.2))
        _ = try await sandbox.crashreport(options)
        let events = server.reportRequests.compactMap { request -> [String: Any]? in
            ((request["envelope"] as? [String: Any])?["items"] as? [[String: Any]])?.first?["payload"] as? [String: Any]
        }
        try #require(events.count == 2)
        #expect(events[0]["extra"] == nil)
        #expect((events[1]["extra"] as? [String: Any])?["suppressed"] as? Int == 3)
        #expect((events[1]["tags"] as? [String: Any])?["suppressed"] as? String == "3")
        let fingerprints = events.map { ($0["fingerprint"] as? [String]) ?? [] }
        #expect(!fingerprints[0].isEmpty && fingerprints[0] == fingerprints[1], "the same group")
    }

    @Test("a state directory at its bounds stays there: the oldest go first, and the next report counts them")
    func retentionBounds() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        for _ in 0..<6 { _ = try await sandbox.crash("segfault") }
        let all = try pendingByAge(sandbox)
        let down = "http://127.0.0.1:\(closedPort())/api/reports"
        let retryNow = ["CRASH_REPORTER_RETRY_BASE_SECONDS": "0"]

        let byCount = try await sandbox.crashreport(["upload", "--url", down, "--max-pending-reports", "4"], retryNow)
        #expect(byCount.exitCode == 75)
        #expect(byCount.stdout.contains("removed 2 unsent (retention)"), "\(byCount.stdout)")
        #expect(try pendingByAge(sandbox) == Array(all.suffix(4)), "the oldest two went")

        // A byte bound that holds the newest three.
        let sizes = try all.suffix(3).map {
            try FileManager.default.attributesOfItem(atPath: sandbox.pending.appendingPathComponent($0).path)[.size]
                as? Int ?? 0
        }
        let bound = sizes.reduce(0, +)
        let bounds = ["--max-pending-reports", "4", "--max-pending-bytes", "\(bound)"]
        _ = try await sandbox.crashreport(["upload", "--url", down] + bounds, retryNow)
        #expect(try pendingByAge(sandbox) == Array(all.suffix(3)))
        #expect(pendingBytes(sandbox) <= bound)

        // Another crash: the directory stays at its bound, the oldest going again.
        _ = try await sandbox.crash("segfault")
        let newest = try #require(try pendingByAge(sandbox).last)
        _ = try await sandbox.crashreport(["upload", "--url", down] + bounds, retryNow)
        let kept = try pendingByAge(sandbox)
        #expect(kept.count <= 3 && kept.last == newest && pendingBytes(sandbox) <= bound)

        let server = try FaultServer(responses: ["201"])
        let delivered = try await sandbox.crashreport(["upload", "--url", server.url] + bounds, retryNow)
        #expect(delivered.exitCode == 0, "\(delivered.stdout) \(delivered.stderr)")
        let requests = server.reportRequests
        try #require(requests.count == kept.count)
        let removed = 7 - kept.count
        #expect(
            FaultServer.header(requests[0], "X-Crash-Report-Pruned") == "\(removed)", "the first report counts them")
        #expect(requests.dropFirst().allSatisfy { FaultServer.header($0, "X-Crash-Report-Pruned") == nil })
    }

    @Test("a crash-looping service with no destination keeps pending/ at its bound itself, oldest removed first")
    func boundWithoutDestination() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let bound = ["CRASH_REPORTER_MAX_PENDING_REPORTS": "3"]
        var written: [String] = []
        for _ in 0..<5 {
            let before = Set(names(sandbox, "pending"))
            _ = try await sandbox.crash("segfault", environment: bound)
            written += Set(names(sandbox, "pending")).subtracting(before)
        }
        #expect(written.count == 5)
        // Each start trims to 3 before its own crash adds one.
        #expect(try pendingByAge(sandbox) == Array(written.suffix(4)))
        let run = try await sandbox.run(["run"], environment: bound)
        #expect(run.exitCode == 0)
        #expect(try pendingByAge(sandbox) == Array(written.suffix(3)))
    }

    @Test("upload exits with 75 while a report waits for a retry, 0 once it is delivered")
    func uploadExitStatus() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        _ = try await sandbox.crash("abort")
        let retryNow = ["CRASH_REPORTER_RETRY_BASE_SECONDS": "0"]
        let down = try await sandbox.crashreport(
            ["upload", "--url", "http://127.0.0.1:\(closedPort())/api/reports"], retryNow)
        #expect(down.exitCode == 75, "\(down.stdout) \(down.stderr)")
        #expect(down.stdout.contains("kept for retry 1"))
        #expect(sandbox.reports.count == 1)
        let server = try FaultServer(responses: ["201"])
        let up = try await sandbox.crashreport(["upload", "--url", server.url], retryNow)
        #expect(up.exitCode == 0, "\(up.stdout) \(up.stderr)")
        #expect(sandbox.reports.isEmpty)
        #expect(server.reportRequests.count == 1)
    }
}

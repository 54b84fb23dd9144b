import CrashReportFormat
import Foundation
import TestSupport
import Testing

/// Snapshots of a live service (SIGQUIT, `CrashReporter.snapshot`) and hang reports: the
/// service goes on, the report shows every thread, and the running service delivers it.
@Suite("Snapshots and hangs of a live service")
struct SnapshotTests {
    let binary = Binaries.crashTest(build: "debug")

    func reports(_ sandbox: CrashSandbox, in folder: String) throws -> [ReportFile] {
        let dir = sandbox.state.appendingPathComponent(folder)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter {
            $0.hasSuffix(".crash")
        }
        return try names.sorted().map { try ReportFile(dir.appendingPathComponent($0)) }
    }

    /// Whether `pid` is alive and not a zombie waiting to be reaped.
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }

    @Test("kill -QUIT: the service keeps serving, a snapshot is written and delivered while it runs")
    func quitSignal() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let server = try FaultServer(responses: ["201"])
        let child = try ChildProcess.start(
            [sandbox.binary.path, "serve", "300"],
            environment: sandbox.environment(["CRASH_REPORTER_URL": server.url, "CRASH_TEST_TICK_MS": "100"]))
        // Asked once it serves: its snapshot signal is in place once start() has returned.
        let stdout = child.directory.appendingPathComponent("stdout")
        for _ in 0..<6000 where !((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").contains("serving") {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(kill(child.pid, SIGQUIT) == 0)
        // Delivery symbolicates first, which a loaded machine can make take seconds.
        var delivered = false
        for _ in 0..<2500 where !delivered && Self.isRunning(child.pid) {
            try await Task.sleep(for: .milliseconds(20))
            // Received, and moved to delivered/ once the service had the answer.
            delivered = !server.reportRequests.isEmpty && sandbox.reports.isEmpty
        }
        let runningWhenDelivered = Self.isRunning(child.pid)
        kill(child.pid, SIGTERM)
        let result = try await child.wait()

        #expect(
            result.signal == SIGTERM, "it went on serving until told to stop: status \(result.status), \(result.stderr)"
        )
        #expect(delivered && runningWhenDelivered, "delivered while the service still ran")
        let requests = server.reportRequests
        try #require(requests.count == 1, "one snapshot, sent once: \(requests.count)")
        let n = try #require(requests[0]["n"] as? Int)
        let body = try #require(server.body(n))
        let file = sandbox.root.appendingPathComponent("received.crash")
        try body.write(to: file)
        let model = try ReportDecoding.decode(file: file.path)  // validates
        let report = try ReportFile(file)
        #expect(report.kind == "snapshot")
        #expect(report.snapshot["reason"] as? String == "SIGQUIT")
        #expect(report.json["crash"] is NSNull)
        let main = try #require(report.threads.first { $0["main"] as? Bool == true }, "the main thread is in it")
        #expect(main["unwind_error"] is NSNull)
        #expect(report.threads.allSatisfy { $0["crashed"] as? Bool == false })
        let deliveredIDs = try self.reports(sandbox, in: "delivered").map { $0.json["report_id"] as? String }
        #expect(deliveredIDs == [model.reportID])
        #expect(sandbox.reports.isEmpty, "nothing left pending")
    }

    @Test("CrashReporter.snapshot(reason:) returns the id of the report it wrote, with the reason")
    func snapshotAPI() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let result = try await sandbox.run(
            ["serve", "1"],
            environment: [
                "CRASH_TEST_SNAPSHOT_REASON": "nightly check by \(CrashSandbox.plantedEmail)",
                "CRASH_TEST_TICK_MS": "100",
            ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("crash-test: snapshot ") })
        let id = String(line.dropFirst("crash-test: snapshot ".count))
        let reports = sandbox.reports
        try #require(reports.count == 1)
        #expect(reports[0].lastPathComponent == "\(id).crash")
        let report = try ReportFile(reports[0])
        #expect(
            report.snapshot["reason"] as? String == "nightly check by [redacted]", "scrubbed like a breadcrumb value")
        let asker = try #require(report.thread(named: "snapshotter"), "the thread that asked is in it too")
        let functions = report.mainImageSymbols(
            try ELFSymbols(file: sandbox.binary), frames: asker["frames"] as? [[String: Any]] ?? [])
        #expect(functions.contains { $0.contains("snapshot") }, "\(functions)")
    }

    @Test("a heartbeat that stops: exactly one hang report, naming it and its thread, whose stack shows the wait")
    func hang() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        // A 1 s timeout and 4 s of hanging: a second report would have had time to come.
        let result = try await sandbox.run(["hang", "4"], environment: ["CRASH_REPORTER_HANG_TIMEOUT_SECONDS": "1"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let reports = sandbox.reports
        try #require(reports.count == 1, "exactly one hang report, found \(reports.count)")
        _ = try ReportDecoding.decode(file: reports[0].path)
        let report = try ReportFile(reports[0])
        #expect(report.kind == "hang")
        let heartbeat = try #require(report.snapshot["heartbeat"] as? [String: Any])
        #expect(heartbeat["name"] as? String == "orders-loop")
        #expect(heartbeat["late_ms"] as? Int ?? 0 >= 1000)
        let loop = try #require(report.thread(named: "orders-loop"))
        #expect(heartbeat["thread_id"] as? Int == loop["id"] as? Int, "the thread that ticked it last")
        let functions = report.mainImageSymbols(
            try ELFSymbols(file: sandbox.binary), frames: loop["frames"] as? [[String: Any]] ?? [])
        #expect(functions.contains("crash_test_wait_for_hang_lock"), "\(functions)")
        let holder = try #require(report.thread(named: "lock-holder"))
        let held = report.mainImageSymbols(
            try ELFSymbols(file: sandbox.binary), frames: holder["frames"] as? [[String: Any]] ?? [])
        #expect(held.contains("crash_test_hold_hang_lock"), "\(held)")
    }
}

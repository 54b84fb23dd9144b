import CrashReportFormat
import Foundation
import TestSupport
import Testing

/// How runs end (docs/runs.md): real `crash-test` processes are killed, run out of memory in a
/// memory cgroup, crash or exit, and the next launch's abnormal-exit reports, sessions and
/// `lastRun` line are read back from the collector (which validates what it stores).
@Suite(.serialized)
struct RunRecordTests {
    let binary = Binaries.crashTest(build: "debug")

    /// `crash-test serve 300` (an upper bound: each test ends it), started, once it says it serves.
    private func serving(_ sandbox: CrashSandbox, _ environment: [String: String] = [:]) async throws
        -> ChildProcess.Running
    {
        let child = try ChildProcess.start(
            [sandbox.binary.path, "serve", "300"], environment: sandbox.environment(environment), timeout: 90)
        try await Self.waitForLine("crash-test: serving", in: child)
        return child
    }

    /// Waits for `line` on the child's standard output, up to 90 s (the whole integration group
    /// shares two cores with dozens of children); says how the child stands when it never comes.
    private static func waitForLine(_ line: String, in child: ChildProcess.Running) async throws {
        let stdout = child.directory.appendingPathComponent("stdout")
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            if ((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").contains(line) { return }
            if kill(child.pid, 0) != 0 { break }  // it is gone: the line will not come
            try await Task.sleep(for: .milliseconds(10))
        }
        let alive = kill(child.pid, 0) == 0
        let output = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOf: child.directory.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
        throw EndToEndError(
            "no line '\(line)' from \(child.arguments) (\(alive ? "still running" : "exited")); "
                + "stdout: \(output.suffix(500)) stderr: \(errors.suffix(1500))")
    }

    /// `crash-test run` printing `lastRun`, delivering to the collector's plain endpoint.
    private func launch(_ sandbox: CrashSandbox, _ environment: [String: String]) async throws -> ChildProcess.Result {
        var environment = environment
        environment["CRASH_TEST_LAST_RUN"] = "1"
        let result = try await sandbox.run(["run"], environment: environment)
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result
    }

    private static func storedJSON(_ collector: CollectorChild, _ folder: String) throws -> [[String: Any]] {
        try collector.files(folder).map { name in
            let data = try Data(contentsOf: collector.data.appendingPathComponent("\(folder)/\(name)"))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    /// The one report the collector stored (listed as an abnormal exit), as JSON text and decoded.
    private static func onlyReport(_ collector: CollectorChild) async throws -> (text: String, report: CrashReport) {
        let reports = try await collector.storedReports()
        try #require(reports.count == 1, "\(reports)")
        #expect(reports[0]["kind"] as? String == "abnormal_exit")
        let id = try #require(reports[0]["id"] as? String)
        let (status, text) = try await collector.get("/reports/\(id)?format=json")
        #expect(status == 200)
        return (text, try ReportDecoding.decode(json: Data(text.utf8)))
    }

    @Test("kill -9: a live sibling is left alone; once it is gone the next launch sends exactly one killed record")
    func killed() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let collector = try await CollectorChild(data: try sandbox.scratch("collector"), home: sandbox.home)
        let url = ["CRASH_REPORTER_URL": collector.reportsURL]

        let server = try await serving(sandbox, url)
        // A sibling that lives shares the state directory: it is not an abnormal exit.
        let meanwhile = try await launch(sandbox, url)
        #expect(meanwhile.stdout.contains("crash-test: last run none"), "\(meanwhile.stdout)")
        #expect(try await collector.storedReports().isEmpty)

        kill(server.pid, SIGKILL)
        let ended = try await server.wait()
        #expect(ended.signal == SIGKILL)
        let next = try await launch(sandbox, url)
        #expect(next.stdout.contains("crash-test: delivered 1, rejected 0, kept for retry 0"), "\(next.stdout)")
        let (text, report) = try await Self.onlyReport(collector)
        #expect(report.schemaVersion == 3)
        #expect(report.abnormalExit?.exitClass == .killed)
        #expect(report.app.name == "crash-test" && !report.app.version.isEmpty)
        #expect(report.threads.isEmpty && report.images.isEmpty && report.crash == nil)
        #expect(report.uptimeMs >= 0 && report.abnormalExit!.runStartedMs <= report.timestampMs)
        // Nothing that names the machine or the process: no boot id, no pid, no planted secret.
        let bootID = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!text.contains(bootID))
        #expect(!text.contains("\"pid\""))
        for secret in CrashSandbox.secrets { #expect(!text.contains(secret)) }

        // The runs as sessions on the plain endpoint: the sibling's clean exit (settled by the
        // launch after the kill) and the killed server, each once.
        let sessions = try Self.storedJSON(collector, "sessions")
        #expect(sessions.compactMap { $0["status"] as? String }.sorted() == ["abnormal", "exited"], "\(sessions)")
        #expect(sessions.allSatisfy { $0["did"] == nil && ($0["attrs"] as? [String: Any])?["release"] != nil })
        for session in sessions {
            for secret in [bootID, String(server.pid)] {
                #expect(!"\(session)".contains("\"\(secret)\""))
            }
        }

        // The launch after that: the last run was clean again, and nothing more is reported.
        let after = try await launch(sandbox, url)
        #expect(after.stdout.contains("crash-test: last run clean, failures 0"), "\(after.stdout)")
        #expect(try await collector.storedReports().count == 1)
        try await collector.stop()
    }

    @Test("Clean runs send no record, a crash only its report; sessions reach the fake Sentry; lastRun follows")
    func cleanAndCrashSessions() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let key = "runs0sentry0key0f00d"
        let collector = try await CollectorChild(
            data: try sandbox.scratch("collector"), home: sandbox.home, arguments: ["--sentry-key", key])
        let dsn = ["SENTRY_DSN": "http://\(key)@127.0.0.1:\(collector.port)/42"]

        let first = try await launch(sandbox, dsn)
        #expect(first.stdout.contains("crash-test: last run none"), "\(first.stdout)")
        let second = try await launch(sandbox, dsn)
        #expect(second.stdout.contains("crash-test: last run clean, failures 0"), "\(second.stdout)")
        #expect(collector.files("events-sentry").isEmpty, "a clean run sends no record")

        let crashed = try await sandbox.crash("segfault", environment: dsn)
        #expect(crashed.signal == SIGSEGV)
        let crashID = try sandbox.onlyPendingID()
        let third = try await launch(sandbox, dsn)
        #expect(third.stdout.contains("crash-test: last run crashed \(crashID), failures 1"), "\(third.stdout)")
        let fourth = try await launch(sandbox, dsn)
        #expect(fourth.stdout.contains("crash-test: last run clean, failures 0"), "\(fourth.stdout)")

        // The crash is one event, its report's; no abnormal-exit record besides it.
        #expect(collector.files("events-sentry") == [crashID.replacingOccurrences(of: "-", with: "") + ".json"])
        // Four runs ended: exited, exited, crashed, exited, each a session the collector validated.
        let sessions = try Self.storedJSON(collector, "sessions-sentry")
        let statuses = sessions.compactMap { $0["status"] as? String }.sorted()
        #expect(statuses == ["crashed", "exited", "exited", "exited"], "\(sessions)")
        for session in sessions {
            #expect(session["init"] as? Bool == true)
            #expect(session["did"] == nil)
            #expect((session["errors"] as? Int) == (session["status"] as? String == "crashed" ? 1 : 0))
            #expect(((session["duration"] as? Double) ?? -1) >= 0)
            let attrs = try #require(session["attrs"] as? [String: Any])
            #expect(attrs["release"] as? String == "1.0.0" || !(attrs["release"] as? String ?? "").isEmpty)
            #expect(attrs["environment"] as? String == "production")
        }
        try await collector.stop()
    }

    @Test("A server that cannot be reached keeps the sessions pending; the next launch delivers them all")
    func sessionsWaitForTheServer() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let refused = ["CRASH_REPORTER_URL": "http://127.0.0.1:\(closedPort())/api/reports"]
        _ = try await launch(sandbox, refused)
        _ = try await launch(sandbox, refused)
        #expect(sandbox.names(in: "pending", suffix: ".session").count == 1, "the first run's, kept")
        let collector = try await CollectorChild(data: try sandbox.scratch("collector"), home: sandbox.home)
        _ = try await launch(sandbox, ["CRASH_REPORTER_URL": collector.reportsURL])
        #expect(sandbox.names(in: "pending", suffix: ".session").isEmpty)
        let sessions = try Self.storedJSON(collector, "sessions")
        #expect(sessions.compactMap { $0["status"] as? String } == ["exited", "exited"], "\(sessions)")
        try await collector.stop()
    }

    @Test("Machine restart: the boot id in the record is rewritten (the machine cannot reboot in a test)")
    func machineRestart() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let collector = try await CollectorChild(data: try sandbox.scratch("collector"), home: sandbox.home)
        let url = ["CRASH_REPORTER_URL": collector.reportsURL]
        let server = try await serving(sandbox, url)
        kill(server.pid, SIGKILL)
        _ = try await server.wait()
        // What a reboot changes: the kernel's boot id. The record keeps the one it started with.
        let runs = sandbox.state.appendingPathComponent("runs")
        let records = try FileManager.default.contentsOfDirectory(atPath: runs.path).filter { $0.hasSuffix(".run") }
        try #require(records.count == 1)
        let path = runs.appendingPathComponent(records[0])
        let text = try String(contentsOf: path, encoding: .utf8)
        let rewritten = text.split(separator: "\n").map {
            $0.hasPrefix("boot_id ") ? "boot_id 00000000-0000-4000-8000-000000000000" : String($0)
        }
        try (rewritten.joined(separator: "\n") + "\n").write(to: path, atomically: true, encoding: .utf8)

        let next = try await launch(sandbox, url)
        #expect(next.stdout.contains("crash-test: last run abnormal machine_restart, failures 1"), "\(next.stdout)")
        let report = try await Self.onlyReport(collector).report
        #expect(report.abnormalExit?.exitClass == .machineRestart)
        try await collector.stop()
    }

    @Test("OOM kill in a memory cgroup: the next launch sends an oom_kill record")
    func oomKill() async throws {
        let root = "/sys/fs/cgroup/memory"
        guard access(root, W_OK) == 0 else {
            print("RunRecordTests.oomKill skipped: no writable memory cgroup (v1) at \(root)")
            return
        }
        let group = "\(root)/scr-test-\(UUID().uuidString.prefix(8))"
        try #require(mkdir(group, 0o755) == 0, "cannot make \(group)")
        defer { rmdir(group) }
        try "64M".write(toFile: group + "/memory.limit_in_bytes", atomically: false, encoding: .utf8)
        // With swap on, the memory limit alone would let it swap instead of being killed.
        if FileManager.default.fileExists(atPath: group + "/memory.memsw.limit_in_bytes") {
            try "64M".write(toFile: group + "/memory.memsw.limit_in_bytes", atomically: false, encoding: .utf8)
        }

        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let collector = try await CollectorChild(data: try sandbox.scratch("collector"), home: sandbox.home)
        let url = ["CRASH_REPORTER_URL": collector.reportsURL]
        // Into the cgroup before start() reads its counter, and before a byte is allocated.
        let script = "echo $$ > \(group)/cgroup.procs && exec \"$0\" oom"
        let eater = try await ChildProcess.run(
            ["/bin/sh", "-c", script, sandbox.binary.path], environment: sandbox.environment(url), timeout: 60)
        #expect(eater.signal == SIGKILL, "status \(eater.status): \(eater.stderr)")
        #expect(eater.stdout.contains("crash-test: allocating until killed"), "\(eater.stdout) \(eater.stderr)")

        let next = try await launch(sandbox, url)
        #expect(next.stdout.contains("crash-test: last run abnormal oom_kill, failures 1"), "\(next.stdout)")
        let report = try await Self.onlyReport(collector).report
        #expect(report.abnormalExit?.exitClass == .oomKill)
        try await collector.stop()
    }
}

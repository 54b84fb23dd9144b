import CrashReportFormat
import Foundation
import TestSupport
import Testing

/// Faults while the report is written (docs/signal-safety.md, "Faults while writing"): the
/// process still dies of its original signal, and the next launch neither delivers a torn
/// file nor crashes, and sets a torn file aside in `rejected/` with its reason. Each test
/// crashes a real `crash-test`, then runs the next launch (`crash-test run`) delivering to a
/// loopback receiver.
@Suite("Faults while the crash report is written")
struct CrashWriteFaultTests {
    let binary = Binaries.crashTest(build: "debug")

    /// What a next launch did: how it ended and the report ids the receiver got (each body
    /// decoded, so nothing torn passed).
    struct NextLaunch {
        var result: ChildProcess.Result
        var delivered: [String]
    }

    /// Runs the next launch with `run` (in the sandbox, or in a mount namespace) against a fresh
    /// receiver.
    func nextLaunch(
        _ sandbox: CrashSandbox,
        run: ([String: String]) async throws -> ChildProcess.Result
    ) async throws -> NextLaunch {
        let server = try FaultServer(responses: ["201", "201", "201"])
        let result = try await run(sandbox.environment(["CRASH_REPORTER_URL": server.url]))
        var delivered: [String] = []
        for request in server.reportRequests {
            let n = try #require(request["n"] as? Int)
            let body = try #require(server.body(n))
            let file = sandbox.root.appendingPathComponent("received-\(n).crash")
            try body.write(to: file)
            delivered.append(try ReportDecoding.decode(file: file.path).reportID)
        }
        return NextLaunch(result: result, delivered: delivered)
    }

    /// The one `<id>.crash.failed-<errno>` file a handler left in `pending/`: its id and size.
    func failedFile(in pending: String, errno code: Int32) throws -> (id: String, size: Int) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: pending)) ?? []).filter {
            $0.contains(".crash.failed-")
        }
        try #require(names.count == 1, "one failed report in \(pending): \(names)")
        #expect(names[0].hasSuffix(".crash.failed-\(code)"), "\(names[0])")
        let size = try FileManager.default.attributesOfItem(atPath: pending + "/" + names[0])[.size] as? Int ?? -1
        return (String(names[0].prefix { $0 != "." }), size)
    }

    /// Checks that the next launch delivers `report`, whole, and sets nothing aside.
    func expectNextLaunchDelivers(_ report: ReportFile, _ sandbox: CrashSandbox) async throws {
        let next = try await nextLaunch(sandbox) { try await sandbox.run(["run"], environment: $0) }
        #expect(next.result.exitCode == 0, "\(next.result.stderr)")
        #expect(next.delivered == [report.json["report_id"] as? String ?? ""])
        #expect(sandbox.names(in: "rejected").isEmpty)
    }

    /// Checks that `id` was set aside in `rejected/` with a reason holding `reason`.
    func expectSetAside(_ state: String, id: String, reason: String, bytes: Int) throws {
        let rejected = state + "/rejected"
        let crash = rejected + "/\(id).crash"
        #expect(FileManager.default.fileExists(atPath: crash), "set aside as \(crash)")
        let size = try FileManager.default.attributesOfItem(atPath: crash)[.size] as? Int
        #expect(size == bytes, "the torn bytes are kept as they were")
        let note = try Data(contentsOf: URL(fileURLWithPath: rejected + "/\(id).reason"))
        let json = try JSONSerialization.jsonObject(with: note) as? [String: Any]
        let text = json?["reason"] as? String ?? ""
        #expect(text.contains("incomplete report") && text.contains(reason), "reason: \(text)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: state + "/pending")) ?? []
        #expect(!left.contains { $0.contains(id) }, "nothing of it left pending: \(left)")
    }

    @Test("EIO in the middle of the report: dies of SIGABRT, the torn file is set aside with the reason")
    func ioErrorMidReport() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let crashed = try await sandbox.crash("abort", environment: ["CRASH_REPORTER_TEST_FAULT": "eio-after:700"])
        #expect(crashed.signal == SIGABRT, "status \(crashed.status)")
        #expect(sandbox.reports.isEmpty, "no torn file is renamed into a report")
        let (id, size) = try failedFile(in: sandbox.pending.path, errno: EIO)
        #expect(size == 700, "the bytes before the error")

        let next = try await nextLaunch(sandbox) { try await sandbox.run(["run"], environment: $0) }
        #expect(next.result.exitCode == 0, "\(next.result.stderr)")
        #expect(next.delivered.isEmpty, "nothing torn is delivered")
        try expectSetAside(sandbox.state.path, id: id, reason: "input/output error", bytes: size)
    }

    @Test("a nearly full disk (tmpfs): dies of SIGSEGV; the torn file waits while the disk is full, then is set aside")
    func diskFullMidReport() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let namespace: EndToEndStorageTests.MountNamespace
        do {
            namespace = try await EndToEndStorageTests.MountNamespace(
                directory: sandbox.state, options: "size=256k,mode=0700")
        } catch {
            print("skipped: no tmpfs can be mounted here (\(error))")
            return
        }
        let inside = namespace.inside(sandbox.state.path)
        // One crash with room, to learn a report's size (40 threads make it larger than the page
        // that tmpfs counts space in); then the disk is filled and about half of that is freed,
        // so that the next report is cut in the middle.
        let crash = [sandbox.binary.path, "threads", "40", "segfault"]
        let first = try await namespace.run(crash, environment: sandbox.environment())
        #expect(first.signal == SIGSEGV)
        let earlier = ((try? FileManager.default.contentsOfDirectory(atPath: inside + "/pending")) ?? []).filter {
            $0.hasSuffix(".crash")
        }
        try #require(earlier.count == 1)
        let reportSize =
            try FileManager.default.attributesOfItem(atPath: inside + "/pending/" + earlier[0])[.size] as? Int ?? 0
        try namespace.fill()
        let free = max(4096, reportSize / 2 / 4096 * 4096)
        let filler = inside + "/filler"
        let fillerSize = try FileManager.default.attributesOfItem(atPath: filler)[.size] as? Int ?? 0
        #expect(truncate(filler, off_t(fillerSize - free)) == 0)

        try #require(reportSize > free, "a report of \(reportSize) bytes does not fit in \(free)")
        let crashed = try await namespace.run(crash, environment: sandbox.environment())
        #expect(crashed.signal == SIGSEGV, "status \(crashed.status)")
        let (id, size) = try failedFile(in: inside + "/pending", errno: ENOSPC)
        #expect(size < reportSize, "cut short: \(size) of about \(reportSize) bytes")

        // The disk still full: the next launch runs, delivers the whole report, and keeps the torn
        // one where it is (its note cannot be written), so nothing is lost.
        try namespace.fill()
        let full = try await nextLaunch(sandbox) {
            try await namespace.run([sandbox.binary.path, "run"], environment: $0)
        }
        #expect(full.result.exitCode == 0, "\(full.result.stderr)")
        #expect(!full.delivered.contains(id), "nothing torn is delivered")
        // Room again: the next launch sets it aside with the reason.
        try FileManager.default.removeItem(atPath: filler)
        let after = try await nextLaunch(sandbox) {
            try await namespace.run([sandbox.binary.path, "run"], environment: $0)
        }
        #expect(after.result.exitCode == 0, "\(after.result.stderr)")
        #expect(!after.delivered.contains(id))
        try expectSetAside(inside, id: id, reason: "no space left on device", bytes: size)
        await namespace.end()
    }

    @Test("the state directory removed while the service runs: made again, the report is written and delivered")
    func stateDirectoryRemoved() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let child = try ChildProcess.start(
            [sandbox.binary.path, "crash", "segfault"],
            environment: sandbox.environment(["CRASH_TEST_WAIT_UNTIL_GONE": sandbox.state.path]))
        let stdout = child.directory.appendingPathComponent("stdout")
        for _ in 0..<2000 where !((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").contains("waiting for") {
            try await Task.sleep(for: .milliseconds(10))
        }
        try FileManager.default.removeItem(at: sandbox.state)
        let crashed = try await child.wait()
        #expect(crashed.signal == SIGSEGV, "status \(crashed.status)")
        let tree = FileManager.default.subpaths(atPath: sandbox.state.path) ?? []
        try #require(
            sandbox.reports.count == 1,
            "the handler made the directory again; state: \(tree.sorted()); stderr: \(crashed.stderr.prefix(2000))")
        let report = try ReportFile(sandbox.reports[0])
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.state.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)

        try await expectNextLaunchDelivers(report, sandbox)
    }

    @Test("the descriptor table full at the crash: the spare descriptor makes room for the report")
    func descriptorTableFull() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let crashed = try await ChildProcess.run(
            ["/bin/sh", "-c", "ulimit -n 256 && exec \"$0\" crash segfault", sandbox.binary.path],
            environment: sandbox.environment(["CRASH_TEST_FILL_DESCRIPTORS": "1"]))
        #expect(crashed.signal == SIGSEGV, "status \(crashed.status), \(crashed.stderr)")
        #expect(crashed.stdout.contains("then errno \(EMFILE)"), "the table was full: \(crashed.stdout)")
        try #require(sandbox.reports.count == 1)
        let report = try ReportFile(sandbox.reports[0])
        #expect(report.thread(named: "crash-monitor") != nil, "the other threads were listed too: \(report.threads)")

        try await expectNextLaunchDelivers(report, sandbox)
    }

    @Test("a crash while other threads write breadcrumbs: every breadcrumb in the report is whole")
    func ringBeingWritten() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let crashed = try await sandbox.crash("segfault", environment: ["CRASH_TEST_BREADCRUMB_THREADS": "3"])
        #expect(crashed.signal == SIGSEGV)
        try #require(sandbox.reports.count == 1)
        let report = try ReportFile(sandbox.reports[0])
        let ring = try #require(report.json["breadcrumbs"] as? [String: Any])
        let capacity = ring["capacity"] as? Int ?? 0
        let torn = ring["torn"] as? Int ?? -1
        let hammered = report.breadcrumbs.filter { $0["category"] as? String == "hammer" }
        #expect(!hammered.isEmpty)
        #expect(
            torn >= 0 && report.breadcrumbs.count + torn <= capacity, "items \(report.breadcrumbs.count) torn \(torn)")
        for crumb in hammered {
            let data = crumb["data"] as? [String: Any] ?? [:]
            let expected = "crumb.\(data["thread"] as? String ?? "?").\(data["index"] as? String ?? "?")"
            #expect(crumb["message"] as? String == expected, "a torn breadcrumb was written: \(crumb)")
        }

        try await expectNextLaunchDelivers(report, sandbox)
    }

    @Test("a crash inside a breadcrumb's record: the half-written breadcrumb is left out as torn")
    func crashInsideRecord() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let crashed = try await sandbox.crash("segfault", environment: ["CRASH_REPORTER_TEST_FAULT": "record"])
        #expect(crashed.signal == SIGSEGV)
        try #require(sandbox.reports.count == 1)
        let report = try ReportFile(sandbox.reports[0])
        let ring = try #require(report.json["breadcrumbs"] as? [String: Any])
        #expect(ring["torn"] as? Int == 1, "the breadcrumb being recorded")
        #expect(report.breadcrumbs.isEmpty, "the crash came at the first record: \(report.breadcrumbs)")

        try await expectNextLaunchDelivers(report, sandbox)
    }
}

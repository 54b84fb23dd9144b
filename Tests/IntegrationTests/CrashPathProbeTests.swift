import Foundation
import Testing

/// The crash path, checked mechanically: with the probe preloaded, a crash of every kind, the
/// capture of the other threads, and snapshots and hang reports written by the monitor thread
/// make no call to malloc, calloc, realloc, free, posix_memalign, aligned_alloc, memalign,
/// pthread_mutex_lock, pthread_mutex_trylock or a pthread_rwlock lock between entering the
/// handler (or the writer) and leaving it. The probe first shows it catches a handler that
/// does allocate. AddressSanitizer must be the first library loaded, so an `LD_PRELOAD`ed probe
/// cannot run beside it: the sanitizer run leaves these tests out (docs/signal-safety.md).
@Suite(
    "The crash path neither allocates nor locks (LD_PRELOAD probe)",
    .disabled(if: ProcessInfo.processInfo.environment["CRASH_REPORTER_SANITIZER"] != nil))
struct CrashPathProbeTests {
    let binary = Binaries.crashTest(build: "debug")

    /// Runs `arguments` of `crash-test` in a fresh sandbox with the probe; returns how it ended,
    /// what the probe logged and the reports left in pending/.
    func probed(
        _ arguments: [String], environment: [String: String] = [:], binary: URL? = nil
    ) async throws -> (result: ChildProcess.Result, log: CrashPathProbe.Log, reports: [ReportFile]) {
        let probe = try await CrashPathProbe.build()
        defer { probe.remove() }
        let sandbox = try CrashSandbox(binary: binary ?? self.binary)
        defer { sandbox.remove() }
        let log = sandbox.root.appendingPathComponent("probe.log")
        let result = try await sandbox.run(
            arguments, environment: environment.merging(probe.environment(log: log)) { $1 })
        return (result, CrashPathProbe.read(log), try sandbox.reports.map { try ReportFile($0) })
    }

    @Test("the probe catches a handler on the alternate stack, and a report writer, that allocate and lock")
    func probeCatchesViolations() async throws {
        let probe = try await CrashPathProbe.build()
        defer { probe.remove() }
        let log = probe.directory.appendingPathComponent("altstack.log")
        let crashed = try await ChildProcess.run(
            [probe.selfTest.path, "altstack"], environment: probe.environment(log: log))
        #expect(crashed.signal == SIGSEGV)
        let violations = CrashPathProbe.read(log).violations
        for function in ["malloc", "free", "pthread_mutex_lock"] {
            #expect(
                violations.contains { $0.hasPrefix("violation \(function) on=altstack") },
                "\(function) not flagged: \(violations)")
        }

        let writerLog = probe.directory.appendingPathComponent("writer.log")
        let wrote = try await ChildProcess.run(
            [probe.selfTest.path, "writer"], environment: probe.environment(log: writerLog))
        #expect(wrote.exitCode == 0)
        let writer = CrashPathProbe.read(writerLog)
        #expect(writer.writerHook)
        #expect(writer.violations.count == 1, "\(writer.violations)")
        #expect(writer.violations.first?.hasPrefix("violation malloc on=writer") == true)
    }

    /// Every kind of `crash-test`: the crash kind tests' list, and the one a test of its own covers there.
    static let kinds =
        CrashExpectation.all + [
            CrashExpectation(
                kind: "early-thread-stack-overflow", signal: SIGSEGV, codeName: "SEGV_ACCERR",
                function: "recurseUntilOverflow", mainThread: false, threadName: "early-loop")
        ]

    @Test("the crash kinds probed are every kind crash-test knows")
    func everyKind() async throws {
        let listed = try await ChildProcess.run([binary.path, "kinds"], environment: ["PATH": "/usr/bin:/bin"])
        let known = Set(listed.stdout.split(separator: "\n").map(String.init))
        #expect(!known.isEmpty && known == Set(Self.kinds.map(\.kind)))
    }

    @Test("no allocation and no lock while a crash is reported", arguments: Self.kinds)
    func crashKind(_ expectation: CrashExpectation) async throws {
        for build in Binaries.crashTestBuilds {
            let (result, log, reports) = try await probed(
                ["crash", expectation.kind], binary: Binaries.crashTest(build: build))
            #expect(result.signal == expectation.signal, "\(build): status \(result.status), \(result.stderr)")
            #expect(log.loaded && log.writerHook, "\(build): the probe ran and found the writer hook")
            #expect(log.violations.isEmpty, "\(build) \(expectation.kind): \(log.violations)")
            #expect(reports.count == 1, "\(build): the report was written under the probe")
            if expectation.kind.hasPrefix("async-") {
                // The async walk and the task's name ran under the probe too (on the crashing
                // thread, or on the one blocked in a task for async-other-thread).
                let inTask = reports.first?.threads.first { ($0["async_frames"] as? [Any])?.isEmpty == false }
                #expect(
                    (inTask?["task"] as? [String: Any])?["name"] is String, "\(build): no async frames or task name")
            }
        }
    }

    @Test(
        "no allocation and no lock while the other threads capture themselves for a crash",
        arguments: ["segfault", "abort", "fatal-error", "stack-overflow", "background-thread"])
    func otherThreads(_ kind: String) async throws {
        let (result, log, reports) = try await probed(["threads", "6", "--blocked", kind])
        #expect(result.signal != nil, "status \(result.status)")
        #expect(log.loaded && log.writerHook)
        #expect(log.violations.isEmpty, "\(kind): \(log.violations)")
        let report = try #require(reports.first)
        let answered = report.threads.filter { ($0["name"] as? String)?.hasPrefix("parked-") == true }
        #expect(answered.count == 6, "every parked thread is in the report")
        #expect(answered.allSatisfy { ($0["frames"] as? [Any])?.isEmpty == false }, "each unwound itself")
    }

    @Test("no allocation and no lock while the monitor thread writes snapshots (SIGQUIT, snapshot(reason:))")
    func snapshots() async throws {
        let (result, log, reports) = try await probed(
            ["serve", "2"],
            environment: [
                "CRASH_TEST_TICK_MS": "100", "CRASH_TEST_SELF_QUIT_MS": "1000", "CRASH_TEST_SNAPSHOT_REASON": "probe",
            ])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(log.loaded && log.writerHook)
        #expect(log.violations.isEmpty, "\(log.violations)")
        let reasons = Set(reports.compactMap { $0.snapshot["reason"] as? String })
        #expect(reasons == ["SIGQUIT", "probe"], "both snapshots were written under the probe: \(reasons)")
    }

    @Test("no allocation and no lock while the monitor thread writes a hang report")
    func hangReport() async throws {
        let (result, log, reports) = try await probed(
            ["hang", "3"], environment: ["CRASH_REPORTER_HANG_TIMEOUT_SECONDS": "1"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(log.loaded && log.writerHook)
        #expect(log.violations.isEmpty, "\(log.violations)")
        #expect(reports.map(\.kind) == ["hang"])
    }
}

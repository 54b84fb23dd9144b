import CrashReportFormat
import Foundation
import Testing

/// The concurrency pool in reports: its threads answer the capture signal although Dispatch
/// blocks every signal on them, and a pool whose every thread is blocked is reported as a hang
/// by the reporter's own watch, with no heartbeat in the service's code.
@Suite("The concurrency pool seen and watched")
struct PoolTests {
    let binary = Binaries.crashTest(build: "debug")

    /// The threads of `report` whose frames in the executable include `function`.
    func threads(in report: ReportFile, running function: String, symbols: ELFSymbols) -> [[String: Any]] {
        report.threads.filter { thread in
            report.mainImageSymbols(symbols, frames: thread["frames"] as? [[String: Any]] ?? []).contains {
                $0.contains(function)
            }
        }
    }

    @Test("a snapshot while a task blocks a pool thread: that thread answers with its blocking frame; none is silent")
    func snapshotOfBlockedPoolThread() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let result = try await sandbox.run(
            ["pool-block", "1", "0"], environment: ["CRASH_TEST_SNAPSHOT_REASON": "pool"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let reports = sandbox.reports
        try #require(reports.count == 1, "one snapshot, found \(reports.count)")
        _ = try ReportDecoding.decode(file: reports[0].path)
        let report = try ReportFile(reports[0])
        #expect(report.kind == "snapshot")
        let symbols = try ELFSymbols(file: sandbox.binary)
        let blocked = threads(in: report, running: "crash_test_block_executor", symbols: symbols)
        try #require(blocked.count == 1, "the blocked pool thread: \(report.threads.map { $0["name"] ?? "" })")
        #expect(blocked[0]["unwind_error"] is NSNull)
        let functions = report.mainImageSymbols(symbols, frames: blocked[0]["frames"] as? [[String: Any]] ?? [])
        #expect(functions.first { $0.contains("park_in_sleep") } != nil, "the sleep it blocks in: \(functions)")
        let silent = report.threads.filter { !($0["unwind_error"] is NSNull) }
        #expect(
            silent.isEmpty,
            "every thread answered, Dispatch's too: \(silent.map { ($0["name"] ?? "", $0["unwind_error"] ?? "") })")
    }

    @Test("every pool thread blocked, no heartbeat: exactly one hang report naming the pool, with the blocked threads")
    func starvedPool() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        // A 1 s timeout and 5 s blocked: a second report would have had time to come.
        let result = try await sandbox.run(
            ["pool-block", "0", "5"], environment: ["CRASH_REPORTER_HANG_TIMEOUT_SECONDS": "1"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let reports = sandbox.reports
        try #require(reports.count == 1, "exactly one hang report, found \(reports.count)")
        _ = try ReportDecoding.decode(file: reports[0].path)
        let report = try ReportFile(reports[0])
        #expect(report.kind == "hang")
        let heartbeat = try #require(report.snapshot["heartbeat"] as? [String: Any])
        #expect(heartbeat["name"] as? String == "cooperative pool")
        #expect(report.snapshot["reason"] as? String == "heartbeat 'cooperative pool' stalled")
        let late = heartbeat["late_ms"] as? Int ?? 0
        #expect(late >= 1000 && late < 4000, "within the timeout and a margin: \(late) ms")
        let symbols = try ELFSymbols(file: sandbox.binary)
        let blocked = threads(in: report, running: "crash_test_block_executor", symbols: symbols)
        let width = ProcessInfo.processInfo.activeProcessorCount
        #expect(blocked.count == width, "one blocked thread per CPU: \(blocked.count) of \(width)")
        #expect(blocked.allSatisfy { $0["unwind_error"] is NSNull })
    }

    @Test("the watch off (CRASH_REPORTER_WATCH_EXECUTORS=0): a starved pool writes nothing")
    func watchOff() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let result = try await sandbox.run(
            ["pool-block", "0", "2.5"],
            environment: ["CRASH_REPORTER_HANG_TIMEOUT_SECONDS": "1", "CRASH_REPORTER_WATCH_EXECUTORS": "0"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(sandbox.reports.isEmpty)
    }

    // dispatchMain() ends the main thread with pthread_exit and parks it in sigsuspend (a
    // thread-specific-data destructor) where main()'s frames were, which AddressSanitizer still
    // marks as main()'s: the capture signal's frame lands there, and ASan reports the handler's
    // first read of its siginfo. An artefact of ASan's bookkeeping (the kernel wrote that frame);
    // the sanitizer run leaves this test out.
    @Test(
        "the main actor drained, then blocked: exactly one hang report naming the main actor, with the blocked thread",
        .disabled(if: ProcessInfo.processInfo.environment["CRASH_REPORTER_SANITIZER"] == "address"))
    func starvedMainActor() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let result = try await sandbox.run(
            ["main-actor-block", "4"], environment: ["CRASH_REPORTER_HANG_TIMEOUT_SECONDS": "1"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let reports = sandbox.reports
        try #require(reports.count == 1, "exactly one hang report, found \(reports.count)")
        let report = try ReportFile(reports[0])
        #expect(report.kind == "hang")
        let heartbeat = try #require(report.snapshot["heartbeat"] as? [String: Any])
        #expect(heartbeat["name"] as? String == "main actor")
        let symbols = try ELFSymbols(file: sandbox.binary)
        let blocked = threads(in: report, running: "crash_test_block_executor", symbols: symbols)
        #expect(blocked.count == 1 && blocked.first?["unwind_error"] is NSNull, "the main actor's blocked thread")
        #expect(blocked.first?["id"] as? Int == heartbeat["thread_id"] as? Int, "the thread that ticked it last")
    }
}

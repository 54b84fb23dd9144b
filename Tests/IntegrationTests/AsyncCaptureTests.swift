import CrashReportFormat
import Foundation
import Testing

/// A crash after awaits: the report holds the functions that awaited the crashing one (from the
/// async context chain, marked async) and the task that ran them, its name scrubbed.
@Suite("Async frames and the running task")
struct AsyncCaptureTests {
    /// Crashes `crash-test crash KIND` and returns its one report, validated against the schema,
    /// with the crashing thread.
    func crash(_ sandbox: CrashSandbox, _ kind: String, signal: Int32, environment: [String: String] = [:])
        async throws -> (report: ReportFile, thread: [String: Any])
    {
        let result = try await sandbox.crash(kind, environment: environment)
        #expect(result.signal == signal, "status \(result.status), stderr: \(result.stderr)")
        let reports = sandbox.reports
        try #require(reports.count == 1, "expected one report, found \(reports.count)")
        let model = try ReportDecoding.decode(file: reports[0].path)  // validates against the schema
        let crashed = try #require(model.threads.first)
        #expect(crashed.crashed && crashed.asyncFrames.allSatisfy { $0.trust == .async })
        let report = try ReportFile(reports[0])
        return (report, try #require(report.threads.first))
    }

    /// The mangled names of `frames` that fall in the executable, looked up as they are.
    func executableSymbols(_ report: ReportFile, _ symbols: ELFSymbols, _ frames: [[String: Any]]) -> [String] {
        report.mainImageSymbols(symbols, frames: frames)
    }

    /// Whether `symbol` is a resume partial function (`…TQ<n>_` or `…TY<n>_`) of `function`.
    func isResume(_ symbol: String, of function: String) -> Bool {
        guard symbol.contains(function), symbol.hasSuffix("_") else { return false }
        let body = symbol.dropLast().reversed().drop { $0.isNumber }
        return body.starts(with: "QT") || body.starts(with: "YT")
    }

    @Test(
        "a crash three awaits deep shows every awaiting function, in order, marked async",
        arguments: Binaries.crashTestBuilds)
    func threeAwaitsDeep(build: String) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: build))
        defer { sandbox.remove() }
        let (report, thread) = try await crash(sandbox, "async-crash", signal: CrashExpectation.trapSignal)
        let symbols = try ELFSymbols(file: sandbox.binary)

        let asyncFrames = thread["async_frames"] as? [[String: Any]] ?? []
        #expect(asyncFrames.allSatisfy { $0["trust"] as? String == "async" })
        let awaiting = executableSymbols(report, symbols, asyncFrames)
        let expected = ["11asyncLevel2", "11asyncLevel1", "16crashAfterAwaits"]
        try #require(awaiting.count >= expected.count, "async frames in the executable: \(awaiting)")
        for (symbol, function) in zip(awaiting, expected) {
            #expect(isResume(symbol, of: function), "\(symbol) is not a resume point of \(function): \(awaiting)")
        }
        // The chain ends in the runtime's task completion, and begins beside the crashing function.
        #expect(asyncFrames.last.flatMap { report.imageName(of: $0) }?.hasPrefix("libswift_Concurrency") == true)
        let frames = thread["frames"] as? [[String: Any]] ?? []
        let at = try #require(thread["async_frames_at"] as? Int)
        try #require(frames.indices.contains(at))
        let beside = executableSymbols(report, symbols, [frames[at]])
        #expect(beside.first?.contains("11asyncLevel3") == true, "frame \(at) is \(beside), not asyncLevel3")
        #expect(thread["async_frames_omitted"] as? Int == 0)
    }

    @Test(
        "the crashing task's id and priority are there, and its name without the planted e-mail address",
        arguments: Binaries.crashTestBuilds)
    func taskIdentity(build: String) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: build))
        defer { sandbox.remove() }
        let (report, thread) = try await crash(sandbox, "async-crash", signal: CrashExpectation.trapSignal)
        let task = try #require(thread["task"] as? [String: Any], "no task in \(thread.keys.sorted())")
        #expect((task["id"] as? UInt64 ?? 0) > 0)
        #expect(task["name"] as? String == "orders for [redacted]")
        #expect((task["priority"] as? Int).map { (1...255).contains($0) } == true, "priority \(task["priority"] ?? "")")
        #expect(!report.text.contains("alice@example.com") && !report.text.contains("alice"))
    }

    @Test(
        "a task name holding personal data is written with that word redacted, the rest kept",
        arguments: [
            ("mail \(CrashSandbox.plantedEmail) now", CrashSandbox.plantedEmail, "mail [redacted] now"),
            ("from \(CrashSandbox.plantedIP)", CrashSandbox.plantedIP, "from [redacted]"),
            ("card \(CrashSandbox.plantedCard)", CrashSandbox.plantedCard, "[redacted]"),
            ("auth Bearer Zq8xLm2Pw9", "Zq8xLm2Pw9", "auth Bearer [redacted]"),
            ("order 20261201554433", "20261201554433", "order [redacted]"),
        ])
    func personalTaskName(name: String, secret: String, written: String) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        let (report, thread) = try await crash(
            sandbox, "async-crash", signal: CrashExpectation.trapSignal, environment: ["CRASH_TEST_TASK_NAME": name])
        #expect((thread["task"] as? [String: Any])?["name"] as? String == written)
        #expect(!report.text.contains(secret), "\(secret) is in the report")
    }

    @Test("a chain deeper than the bound keeps the 64 innermost resume points and counts the rest")
    func deepChain() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        let (report, thread) = try await crash(sandbox, "async-deep", signal: SIGSEGV)
        let symbols = try ELFSymbols(file: sandbox.binary)
        let asyncFrames = thread["async_frames"] as? [[String: Any]] ?? []
        #expect(asyncFrames.count == 64)
        let names = executableSymbols(report, symbols, asyncFrames)
        #expect(names.count == 64 && names.allSatisfy { isResume($0, of: "12asyncDescend") }, "\(Set(names))")
        // 100 awaiting levels, the task's closure and the runtime's completion at least.
        let omitted = thread["async_frames_omitted"] as? Int ?? 0
        #expect(asyncFrames.count + omitted >= 102, "omitted \(omitted)")
        #expect((thread["task"] as? [String: Any])?["name"] as? String == "deep chain")
    }

    @Test(
        "another thread blocked in a task shows its blocking frame, its async chain and its task",
        arguments: Binaries.crashTestBuilds)
    func otherThread(build: String) async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: build))
        defer { sandbox.remove() }
        let (report, _) = try await crash(sandbox, "async-other-thread", signal: SIGSEGV)
        let symbols = try ELFSymbols(file: sandbox.binary)
        let thread = try #require(report.thread(named: "task-executor"), "\(report.threads.map { $0["name"] ?? "" })")
        let frames = thread["frames"] as? [[String: Any]] ?? []
        let at = try #require(thread["async_frames_at"] as? Int, "no async frames: \(thread.keys.sorted())")
        try #require(frames.indices.contains(at))
        let blocking = executableSymbols(report, symbols, [frames[at]])
        #expect(blocking.first?.contains("13asyncBlocker2") == true, "frame \(at) is \(blocking)")
        let awaiting = executableSymbols(report, symbols, thread["async_frames"] as? [[String: Any]] ?? [])
        try #require(awaiting.count >= 2, "\(awaiting)")
        #expect(isResume(awaiting[0], of: "13asyncBlocker1") && isResume(awaiting[1], of: "22crashBesideBlockedTask"))
        let task = try #require(thread["task"] as? [String: Any])
        #expect(task["name"] as? String == "blocked for [redacted]")
        #expect(!report.text.contains("bob@example.org"))
    }

    @Test("a thread that runs no async code has no async members and no task")
    func synchronousCrash() async throws {
        let sandbox = try CrashSandbox(binary: Binaries.crashTest(build: "debug"))
        defer { sandbox.remove() }
        let (_, thread) = try await crash(sandbox, "segfault", signal: SIGSEGV)
        #expect(thread["async_frames"] == nil && thread["task"] == nil, "\(thread.keys.sorted())")
    }
}

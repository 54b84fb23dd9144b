import CrashReportFormat
import Foundation
import Testing

/// A crash report shows every thread of the process: parked threads with their names and whole
/// stacks, a thread that cannot answer named as such, a deep recursion with both of its ends.
@Suite("Every thread at crash time")
struct ThreadCaptureTests {
    let binary = Binaries.crashTest(build: "debug")

    /// Crashes `crash-test` with `arguments` and returns its one report, validated.
    func crashReport(
        _ sandbox: CrashSandbox, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> ReportFile {
        let result = try await sandbox.run(arguments, environment: environment)
        #expect(result.signal == SIGSEGV, "status \(result.status), stderr: \(result.stderr)")
        let reports = sandbox.reports
        try #require(reports.count == 1, "expected one report, found \(reports.count)")
        _ = try ReportDecoding.decode(file: reports[0].path)  // validates against the schema
        return try ReportFile(reports[0])
    }

    /// The thread's frames: all there, and the walk reached the thread's entry (the unwinder
    /// met the outermost frame, whose caller is marked undefined): the C library's `clone3` for
    /// a thread, the executable's `_start` for the main thread.
    func expectWholeStack(_ report: ReportFile, _ thread: [String: Any], _ name: String) {
        let frames = thread["frames"] as? [[String: Any]] ?? []
        #expect(thread["unwind_error"] is NSNull, "\(name): \(thread["unwind_error"] ?? "")")
        #expect(frames.count >= 3, "\(name): \(frames.count) frames")
        let outermost = frames.last.flatMap { report.imageName(of: $0) } ?? ""
        let entry = thread["main"] as? Bool == true ? "crash-test" : "libc.so"
        #expect(outermost.hasPrefix(entry), "\(name) ends in \(outermost), not in its entry in \(entry)")
    }

    @Test("8 named threads parked in different waits: each is in the report with its name and its whole stack")
    func parkedThreads() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let report = try await crashReport(sandbox, ["threads", "8"])
        let symbols = try ELFSymbols(file: sandbox.binary)

        let threads = report.threads
        let first = try #require(threads.first)
        #expect(first["crashed"] as? Bool == true && first["main"] as? Bool == true, "the crashing thread comes first")
        #expect(threads.dropFirst().allSatisfy { $0["crashed"] as? Bool == false })
        let others = threads.dropFirst().compactMap { $0["id"] as? Int }
        #expect(others == others.sorted(), "the others follow by id")
        #expect(report.json["threads_total"] as? Int == threads.count, "every thread, the monitor too")
        #expect(threads.contains { $0["name"] as? String == "crash-monitor" })
        #expect(report.json["threads_omitted"] as? Int == 0)

        let waits = ["park_in_mutex", "park_in_sleep", "park_in_read", "park_in_busy_loop"]
        for index in 1...8 {
            let name = "parked-\(index)"
            let thread = try #require(
                report.thread(named: name), "\(name) missing from \(threads.map { $0["name"] ?? "" })")
            expectWholeStack(report, thread, name)
            let functions = report.mainImageSymbols(symbols, frames: thread["frames"] as? [[String: Any]] ?? [])
            let wait = waits[(index - 1) % 4]
            #expect(functions.contains { $0.contains(wait) }, "\(name) should be in \(wait): \(functions)")
            #expect(thread["registers"] is [String: Any])
        }
        expectWholeStack(report, first, "the crashing thread")
    }

    @Test("threads parked in the same wait name the first one's stack, and read with their own stack pointers")
    func sharedStacks() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let report = try await crashReport(sandbox, ["threads", "8"])
        #expect(report.json["schema_version"] as? Int == 4)
        let written = report.writtenThreads
        let sharing = written.indices.filter { written[$0]["frames_as"] != nil }
        // Eight threads in four waits: the second thread in each blocking wait (mutex, sleep,
        // read) names the first; the busy loop's pair does too when both stand on one instruction.
        for first in 1...3 {
            let named = written.firstIndex { $0["name"] as? String == "parked-\(first)" }
            let second = written.first { $0["name"] as? String == "parked-\(first + 4)" }
            #expect(named != nil && second?["frames_as"] as? Int == named, "parked-\(first + 4) names parked-\(first)")
        }
        #expect(sharing.count >= 3, "\(sharing.count) threads name another's stack")
        for index in sharing {
            let named = try #require(written[index]["frames_as"] as? Int)
            #expect(named < index && written[named]["frames"] is [[String: Any]], "thread \(index) names \(named)")
            #expect(written[index]["frames"] == nil)
            let ips = { (thread: [String: Any]) in
                (thread["frames"] as? [[String: Any]] ?? []).map { $0["ip"] as? String }
            }
            #expect(ips(report.threads[index]) == ips(written[named]))
        }
        // Read back, each answered thread's innermost frame is where its own registers say it was.
        let model = try #require(report.model)
        for thread in model.threads where thread.answered {
            let registers = thread.registers?.values ?? [:]
            #expect(
                thread.frames.first?.sp == registers["rsp"] && thread.frames.first?.ip == registers["rip"],
                "\(thread.name)")
        }
    }

    @Test(
        "a thread name that could be personal data is written as [redacted]; ordinary names stay",
        arguments: [CrashSandbox.plantedIP, "bob@example.io", "4111111111111"])
    func personalThreadName(name: String) async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let result = try await sandbox.run(["threads", "1"], environment: ["CRASH_TEST_EXTRA_THREAD_NAME": name])
        #expect(result.signal == SIGSEGV)
        let report = try ReportFile(try #require(sandbox.reports.first))
        #expect(!report.text.contains(name), "\(name) is in the report")
        #expect(report.thread(named: "[redacted]") != nil)
        #expect(report.thread(named: "parked-1") != nil)
    }

    @Test("a thread that faults while it captures itself is skipped with `fault`, never fatal")
    func faultWhileCapturing() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let result = try await sandbox.run(["threads", "3"], environment: ["CRASH_REPORTER_TEST_FAULT": "thread"])
        #expect(result.signal == SIGSEGV, "the process still dies of its own crash: \(result.status)")
        let report = try ReportFile(try #require(sandbox.reports.first))
        let faulted = report.threads.filter { $0["unwind_error"] as? String == "fault" }
        #expect(faulted.count == 1, "\(report.threads.map { $0["unwind_error"] ?? "" })")
        #expect((faulted.first?["frames"] as? [Any])?.isEmpty == false, "the frames found before the fault are kept")
        let others = report.threads.dropFirst().filter { $0["unwind_error"] is NSNull }
        #expect(others.count == report.threads.count - 2, "every other thread answered as usual")
    }

    @Test("a thread slow to claim its slot, in its handler, is waited for, not taken for one blocking the signal")
    func slowClaim() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        // One thread sleeps 20 ms in its handler before its claim: its mask holds the signal then,
        // as a blocking thread's does, when the writer looks at the status files (at 2 ms).
        let report = try await crashReport(
            sandbox, ["threads", "4"], environment: ["CRASH_REPORTER_TEST_FAULT": "slow-claim"])
        for index in 1...4 {
            let name = "parked-\(index)"
            expectWholeStack(report, try #require(report.thread(named: name), "\(name) missing"), name)
        }
    }

    @Test("a thread gone between the listing and its signal is said to have exited; the others still answer")
    func goneThread() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        // The first capture signal sent goes to an id no thread has: tgkill fails as for a thread
        // that ended after the listing, whichever thread (the writer or one answering) sends it.
        let report = try await crashReport(
            sandbox, ["threads", "4"], environment: ["CRASH_REPORTER_TEST_FAULT": "gone"])
        let gone = report.threads.filter { $0["unwind_error"] as? String == "exited" }
        #expect(gone.count == 1, "\(report.threads.map { $0["unwind_error"] ?? "" })")
        #expect((gone.first?["frames"] as? [Any])?.isEmpty == true)
        #expect(gone.first?["registers"] is NSNull)
        let answered = report.threads.dropFirst().filter { $0["unwind_error"] is NSNull }
        #expect(answered.count == report.threads.count - 2, "every other thread answered as usual")
    }

    @Test("a thread that blocks the capture signal by name is named as not answering, and the report is still written")
    func blockedThread() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let report = try await crashReport(sandbox, ["threads", "2", "--blocked"])
        let blocked = try #require(report.thread(named: "blocked"))
        #expect(blocked["unwind_error"] as? String == "signal_blocked")
        #expect((blocked["frames"] as? [Any])?.isEmpty == true)
        #expect(blocked["registers"] is NSNull)
        #expect(blocked["id"] as? Int ?? 0 > 0)
        #expect(report.thread(named: "parked-2")?["unwind_error"] is NSNull, "the others still answered")
        // Written at all means the wait ended: the handler's 10 s watchdog would have ended the
        // process without a report (how long the wait takes is the benchmark's business).
    }

    @Test(
        "threads that block every signal, as Dispatch's workers do, answer with their stacks, one blocked before start() too"
    )
    func blanketMaskThreads() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let report = try await crashReport(
            sandbox, ["threads", "1", "--blanket", "--blocked"], environment: ["CRASH_TEST_EARLY_BLANKET": "1"])
        let symbols = try ELFSymbols(file: sandbox.binary)
        for name in ["blanket", "blanket-proc", "early-blanket"] {
            let thread = try #require(report.thread(named: name), "\(name) missing")
            expectWholeStack(report, thread, name)
            let functions = report.mainImageSymbols(symbols, frames: thread["frames"] as? [[String: Any]] ?? [])
            #expect(functions.contains { $0.contains("park_with_every_signal_blocked") }, "\(name): \(functions)")
        }
        #expect(report.thread(named: "blocked")?["unwind_error"] as? String == "signal_blocked", "by name: respected")
        let silent = report.threads.filter { $0["name"] as? String != "blocked" && !($0["unwind_error"] is NSNull) }
        #expect(
            silent.isEmpty,
            "every other thread answered: \(silent.map { ($0["name"] ?? "", $0["unwind_error"] ?? "") })")
    }

    @Test("a thread's stack overflow keeps the innermost and the outermost frames, with the count between")
    func stackOverflowKeepsBothEnds() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let report = try await crashReport(sandbox, ["crash", "thread-stack-overflow"])
        let crashed = try #require(report.threads.first)
        #expect(crashed["name"] as? String == "deep-worker")
        let omitted = crashed["frames_omitted"] as? Int ?? 0
        let at = crashed["frames_omitted_at"] as? Int ?? 0
        #expect(omitted > 1000, "a recursion that overflowed 8 MiB leaves many frames out: \(omitted)")
        #expect(at == 192)
        #expect(report.crash["frames_omitted"] as? Int == omitted, "the crash object says the same")
        expectWholeStack(report, crashed, "deep-worker")

        let frames = crashed["frames"] as? [[String: Any]] ?? []
        let symbols = try ELFSymbols(file: sandbox.binary)
        let inner = report.mainImageSymbols(symbols, frames: Array(frames.prefix(at)))
        let outer = report.mainImageSymbols(symbols, frames: Array(frames.suffix(from: at)))
        #expect(
            inner.allSatisfy { $0.contains("recurseUntilOverflow") || $0.contains("withUnsafeMutablePointer") },
            "innermost: \(Set(inner))")
        #expect(outer.contains { $0.contains("onBackgroundThread") }, "where the recursion started: \(outer)")
        #expect(outer.contains { $0.contains("start_prepared") }, "the thread's entry: \(outer)")
    }

    @Test("a thread started before start() overflows its stack: it had an alternate stack, so a report is written")
    func earlyThreadStackOverflow() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let report = try await crashReport(sandbox, ["crash", "early-thread-stack-overflow"])
        let crashed = try #require(report.threads.first)
        #expect(crashed["name"] as? String == "early-loop")
        #expect(crashed["frames_omitted"] as? Int ?? 0 > 0)
    }

    @Test("frames in a library opened after start() resolve to it and to its functions")
    func libraryOpenedLater() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let library = sandbox.root.appendingPathComponent("libcrashlibrary.so")
        let source = Binaries.packageRoot.appendingPathComponent("Examples/CrashTest/Library/crash_library.c")
        let compiler = try await ChildProcess.run(
            ["/usr/bin/cc", "-shared", "-fPIC", "-g", "-O1", "-o", library.path, source.path],
            environment: ["PATH": "/usr/bin:/bin"])
        try #require(compiler.exitCode == 0, "cc: \(compiler.stderr)")

        let report = try await crashReport(sandbox, ["dlopen-crash", library.path])
        let index = try #require(report.images.firstIndex { $0["name"] as? String == "libcrashlibrary.so" })
        let frames = report.frames
        #expect(frames.first?["image"] as? Int == index, "frame 0 is in the library opened late")
        let functions = report.imageSymbols(try ELFSymbols(file: library), image: index, frames: frames)
        #expect(functions.prefix(2) == ["crash_library_fault", "crash_library_entry"], "\(functions)")
        #expect((report.images[index]["build_id"] as? String ?? "").count == 40)
    }
}

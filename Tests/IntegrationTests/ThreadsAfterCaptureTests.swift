import Foundation
import Testing

/// What the other threads do once a crash's report has them: when handing the signal on ends the
/// process with no core dump, each ends itself as soon as it has answered; when a core dump
/// follows, every thread waits, so the dump shows each one where it was (decision 0182). The
/// crash handler's test hook `slow-end` waits 500 ms before it hands the signal on, and the test
/// counts the process's threads then. Left out of the sanitizer run: the sanitizers handle SIGSEGV
/// before the reporter does (so the signal is handed on to a handler, and every thread waits) and
/// AddressSanitizer turns core dumps off.
@Suite(
    "The other threads once a crash is reported",
    .disabled(if: ProcessInfo.processInfo.environment["CRASH_REPORTER_SANITIZER"] != nil))
struct ThreadsAfterCaptureTests {
    let binary = Binaries.crashTest(build: "debug")

    /// The kernel's core pattern, when it writes a file in the crashing process's directory.
    static var corePatternWritesHere: Bool {
        let pattern = (try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8)) ?? "|"
        return !pattern.hasPrefix("|") && !pattern.contains("/")
    }

    /// Runs `crash-test threads 8` from a shell that sets the core limit to `coreLimit` and works
    /// in the sandbox's root; once the report is in pending/, while the handler waits, counts the
    /// process's threads. Returns the count, how the child ended and its report.
    func crashAndCount(_ sandbox: CrashSandbox, coreLimit: String) async throws -> (
        threads: Int, result: ChildProcess.Result, report: ReportFile
    ) {
        let script = "cd '\(sandbox.root.path)' && ulimit -c \(coreLimit) && exec '\(sandbox.binary.path)' threads 8"
        let running = try ChildProcess.start(
            ["/bin/sh", "-c", script], environment: sandbox.environment(["CRASH_REPORTER_TEST_FAULT": "slow-end"]))
        let threads = await Self.threadsOnceReported(
            pid: running.pid, pending: sandbox.pending, settle: coreLimit == "0")
        let result = try await running.wait()
        let count = try #require(threads, "the report was not seen while the process lived: \(result.stderr)")
        return (count, result, try ReportFile(try #require(sandbox.reports.first)))
    }

    /// The number of threads of `pid` once a report is in `pending`, counted while the handler
    /// waits (the process still running), on a thread of its own: a test's task can wait seconds
    /// for the cooperative pool while other tests run, far longer than the handler waits. With
    /// `settle`, counted again until one thread is left (the threads that end themselves may take a
    /// moment after the last slot is written). nil when the process ended first.
    static func threadsOnceReported(pid: pid_t, pending: URL, settle: Bool) async -> Int? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let tasks = "/proc/\(pid)/task"
                func running() -> Bool {
                    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
                    guard let close = stat.lastIndex(of: ")") else { return false }
                    return !stat[close...].hasPrefix(") Z") && !stat[close...].hasPrefix(") X")
                }
                func count() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: tasks).count) ?? 0 }
                let deadline = Date().addingTimeInterval(20)
                var reported = false
                while Date() < deadline && running() {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: pending.path)) ?? []
                    if names.contains(where: { $0.hasSuffix(".crash") }) {
                        reported = true
                        break
                    }
                    usleep(1000)
                }
                var threads = reported ? count() : 0
                for _ in 0..<40 where settle && threads > 1 {
                    usleep(5000)
                    threads = count()
                }
                continuation.resume(returning: reported && running() ? threads : nil)
            }
        }
    }

    @Test("no core dump to come: each thread ends once it has answered, and the report has every one")
    func threadsEndWithoutCoreDump() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let (threads, result, report) = try await crashAndCount(sandbox, coreLimit: "0")
        #expect(result.signal == SIGSEGV && !result.dumpedCore, "status \(result.status)")
        let silent = report.threads.dropFirst().filter { !($0["unwind_error"] is NSNull) }
        #expect(threads == 1 + silent.count, "left while the handler waits: \(threads) threads; silent: \(silent)")
        #expect(report.json["threads_total"] as? Int == report.threads.count)
        for index in 1...8 {
            let thread = try #require(report.thread(named: "parked-\(index)"))
            #expect(thread["unwind_error"] is NSNull && (thread["frames"] as? [Any])?.count ?? 0 >= 3)
        }
    }

    @Test(
        "a core dump to come: every thread waits, and the dump has each of them",
        .enabled(if: corePatternWritesHere, "the core pattern does not write a file in the process's directory"))
    func threadsWaitForCoreDump() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let (threads, result, report) = try await crashAndCount(sandbox, coreLimit: "unlimited")
        #expect(result.signal == SIGSEGV && result.dumpedCore, "status \(result.status)")
        let total = try #require(report.json["threads_total"] as? Int)
        #expect(threads == total, "every thread is still there while the handler waits")
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path)
        let core = try #require(names.first { $0 == "core" || $0.hasPrefix("core.") }, "no core file in \(names)")
        let notes = try await ChildProcess.run(
            ["/usr/bin/readelf", "--notes", sandbox.root.appendingPathComponent(core).path],
            environment: ["PATH": "/usr/bin:/bin"])
        let statuses = notes.stdout.components(separatedBy: "NT_PRSTATUS").count - 1
        #expect(statuses == total, "the core dump's threads (NT_PRSTATUS notes): \(statuses), the report's: \(total)")
    }
}

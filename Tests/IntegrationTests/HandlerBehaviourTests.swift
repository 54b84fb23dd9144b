import Foundation
import Testing

/// How the handler behaves around the crash: chaining, exit status, opt-out, faults inside it.
@Suite("Handler behaviour")
struct HandlerBehaviourTests {
    let binary = Binaries.crashTest(build: "debug")

    @Test("a handler installed before start() still runs, after the report is written")
    func chainsToPreviousHandler() async throws {
        for kind in ["segfault", "abort"] {
            let sandbox = try CrashSandbox(binary: binary)
            defer { sandbox.remove() }
            let result = try await sandbox.crash(kind, environment: ["CRASH_TEST_PREVIOUS_HANDLER": "1"])
            #expect(result.stderr.contains("previous handler ran"), "\(kind): \(result.stderr)")
            #expect(result.signal == (kind == "segfault" ? SIGSEGV : SIGABRT))
            #expect(sandbox.reports.count == 1)
        }
    }

    // Swift's backtracer copies the crashed thread's stack with memcpy, which AddressSanitizer
    // reports as an overflow of the stack it reads; the sanitizer run leaves this test out.
    @Test(
        "Swift's own backtracer still prints its backtrace, and the report is written too",
        .disabled(if: ProcessInfo.processInfo.environment["CRASH_REPORTER_SANITIZER"] == "address"))
    func swiftBacktracerStillRuns() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let result = try await sandbox.crash(
            "fatal-error", environment: ["SWIFT_BACKTRACE": "enable=yes,interactive=no"])
        #expect(result.stderr.contains("Program crashed"), "stderr: \(result.stderr.prefix(400))")
        #expect(result.signal == CrashExpectation.trapSignal)
        #expect(sandbox.reports.count == 1)
    }

    @Test(
        "the process ends with the same wait status as without the reporter",
        arguments: ["segfault", "abort", "divide-by-zero"])
    func sameExitStatus(kind: String) async throws {
        let with = try CrashSandbox(binary: binary)
        let without = try CrashSandbox(binary: binary)
        defer {
            with.remove()
            without.remove()
        }
        let reported = try await with.crash(kind)
        let plain = try await without.crash(kind, environment: ["CRASH_REPORTER_DISABLED": "1"])
        #expect(reported.status == plain.status, "with \(reported.status) without \(plain.status)")
        #expect(with.reports.count == 1)
        #expect(without.reports.isEmpty)
    }

    @Test("opting out by the stored choice: nothing is captured and pending reports are deleted")
    func optOutByStoredChoice() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        _ = try await sandbox.crash("segfault")
        #expect(sandbox.reports.count == 1)

        let consent = try await sandbox.run(["consent", "crash-reporting", "off"])
        #expect(consent.exitCode == 0)
        #expect(sandbox.reports.isEmpty, "opting out deletes pending reports")
        let choice = try String(
            contentsOf: sandbox.state.appendingPathComponent("crash-reporting.consent"), encoding: .utf8)
        #expect(choice == "disabled\n")

        let result = try await sandbox.crash("segfault")
        #expect(result.signal == SIGSEGV)
        #expect(sandbox.reports.isEmpty)

        _ = try await sandbox.run(["consent", "crash-reporting", "on"])
        _ = try await sandbox.crash("abort")
        #expect(sandbox.reports.count == 1, "opting back in captures again")
    }

    @Test("opting out by the environment: CRASH_REPORTER_DISABLED=1 installs nothing and deletes pending reports")
    func optOutByEnvironment() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        _ = try await sandbox.crash("segfault")
        #expect(sandbox.reports.count == 1)
        let result = try await sandbox.crash("segfault", environment: ["CRASH_REPORTER_DISABLED": "1"])
        #expect(result.signal == SIGSEGV)
        #expect(sandbox.reports.isEmpty)
        #expect(
            !FileManager.default.fileExists(
                atPath: sandbox.state.appendingPathComponent("crash-reporting.consent").path))
    }

    @Test("a normal run exits 0 and leaves no report")
    func normalRun() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let result = try await sandbox.run(["run"])
        #expect(result.exitCode == 0)
        #expect(sandbox.reports.isEmpty)
    }

    @Test(
        "a fault while reading the stack keeps the report; one elsewhere in the handler still ends the process with the original signal"
    )
    func faultInsideHandler() async throws {
        let guarded = try CrashSandbox(binary: binary)
        defer { guarded.remove() }
        let first = try await guarded.crash("abort", environment: ["CRASH_REPORTER_TEST_FAULT": "unwind"])
        #expect(first.signal == SIGABRT)
        try #require(guarded.reports.count == 1)
        let report = try ReportFile(guarded.reports[0])
        #expect(report.crash["unwind_error"] as? String == "fault")
        #expect(report.breadcrumbs.count == 7, "the report goes on after the fault")

        let unguarded = try CrashSandbox(binary: binary)
        defer { unguarded.remove() }
        let second = try await unguarded.crash("abort", environment: ["CRASH_REPORTER_TEST_FAULT": "report"])
        #expect(second.signal == SIGABRT, "died of \(String(describing: second.signal)), not the original signal")
        #expect(unguarded.reports.isEmpty, "a half-written report is never renamed into place")
    }

    @Test("the host name is never written, even one planted in a UTS namespace")
    func hostNameIsNotWritten() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        let host = "planted-host-m3k8"
        let result = try await ChildProcess.run(
            [
                "/usr/bin/unshare", "--uts", "/bin/sh", "-c", "hostname \(host) && exec \"$0\" crash segfault",
                sandbox.binary.path,
            ],
            environment: sandbox.environment())
        try #require(result.signal == SIGSEGV, "unshare needs root: \(result.stderr)")
        try #require(sandbox.reports.count == 1)
        let report = try ReportFile(sandbox.reports[0])
        #expect(!report.text.contains(host))
        #expect(!report.text.contains("planted-host"))
    }
}

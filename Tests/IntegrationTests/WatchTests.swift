import Foundation
import TestSupport
import Testing

/// `crashreport watch` as a sidecar: real crashes renamed into `pending/` while it runs, a
/// loopback receiver that is down and then up, SIGTERM, and the service delivering beside it.
@Suite("crashreport watch")
struct WatchTests {
    let binary = Binaries.crashTest(build: "debug")
    let tool = CrashSandbox.tool

    func isRunning(_ child: ChildProcess.Running) -> Bool {
        var status: Int32 = 0
        return waitpid(child.pid, &status, WNOHANG) == 0
    }

    func ids(_ server: FaultServer) -> [String] {
        server.reportRequests.compactMap { FaultServer.header($0, "X-Crash-Report-ID") }
    }

    @Test("delivers a report that arrives while it runs, through a receiver down then up; SIGTERM ends it with 0")
    func deliversWhileRunning() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        // Down for two attempts (503), then up.
        let server = try FaultServer(responses: ["503", "503", "201"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.state.path), "watch starts before the service made it")
        let watch = try ChildProcess.start(
            [tool, "watch", "--url", server.url, sandbox.state.path],
            environment: sandbox.environment(["CRASH_REPORTER_RETRY_BASE_SECONDS": "0.2"]))
        _ = try await sandbox.crash("segfault")
        #expect(try await eventually { ids(server).count == 3 }, "\(server.requests.map { $0["response"] ?? "" })")
        // Read from the receiver: watch may have moved the report on before this test looks.
        let sent = ids(server)
        #expect(sent.count == 3 && Set(sent).count == 1, "retried with the same id until the receiver took it: \(sent)")
        #expect(try await eventually { sandbox.reports.isEmpty })
        let delivered = sandbox.state.appendingPathComponent("delivered/\(sent.first ?? "").crash").path
        #expect(FileManager.default.fileExists(atPath: delivered), "the report taken is kept as delivered")
        #expect(isRunning(watch), "the retries happened while watch ran")

        _ = try await sandbox.crash("abort")
        #expect(try await eventually { ids(server).count == 4 })
        #expect(isRunning(watch))

        kill(watch.pid, SIGTERM)
        let result = try await watch.wait()
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Watching") && result.stdout.contains("Stopped."))
    }

    @Test("watch and the service delivering at once send each report once")
    func besideTheService() async throws {
        let sandbox = try CrashSandbox(binary: binary)
        defer { sandbox.remove() }
        for _ in 0..<3 { _ = try await sandbox.crash("abort") }
        let server = try FaultServer(responses: ["201"])
        let env = sandbox.environment(["CRASH_REPORTER_URL": server.url, "CRASH_REPORTER_CAP_COUNT": "0"])
        let watch = try ChildProcess.start([tool, "watch", sandbox.state.path], environment: env)
        // Two launches of the service deliver too, while watch runs; then three more crashes
        // appear (their processes deliver nothing: a process that dies mid-send would leave a
        // repeat for the receiver to drop, which is not what this test is about), and two more
        // launches race watch for them.
        var services = try [0, 1].map { _ in try ChildProcess.start([sandbox.binary.path, "run"], environment: env) }
        for _ in 0..<3 { _ = try await sandbox.crash("segfault") }
        services += try [0, 1].map { _ in try ChildProcess.start([sandbox.binary.path, "run"], environment: env) }
        for service in services { #expect(try await service.wait().exitCode == 0) }
        #expect(try await eventually { ids(server).count >= 6 && sandbox.reports.isEmpty })
        // Time for a stray repeat to show.
        try await Task.sleep(for: .milliseconds(500))
        kill(watch.pid, SIGTERM)
        #expect(try await watch.wait().exitCode == 0)
        let sent = ids(server)
        #expect(sent.count == 6 && Set(sent).count == 6, "each report exactly once: \(sent)")
    }
}

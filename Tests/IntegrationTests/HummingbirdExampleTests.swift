import CrashReportFormat
import CrashSymbolication
import Foundation
import TestSupport
import Testing

/// The Hummingbird 2 example service (Examples/HummingbirdService, a package of its own) as a
/// user runs it: built, started, asked for its routes, and crashed three awaits deep in a
/// request handler, where the handler runs as a task on the concurrency pool.
@Suite("The Hummingbird example service", .serialized)
struct HummingbirdExampleTests {
    static let example = ExampleService(folder: "Examples/HummingbirdService", product: "hummingbird-service")

    /// Crashes a fresh service through `GET /crash/await` after one ordinary request; how it
    /// died, and the report it left (its file and the decoded model).
    static func crashAfterAwait(state: TempDirectory) async throws -> (ChildProcess.Result, String, CrashReport) {
        let service = try await example.start(state: state.path)
        #expect(try await ExampleService.get(service.port, "/") == "hello\n")
        try await ExampleService.get(service.port, "/crash/await")
        let result = try await service.process.wait()
        let reports = try ExampleService.pendingReports(in: state.path)
        try #require(reports.count == 1, "left \(reports.map(\.file)) (stderr: \(result.stderr.suffix(2000)))")
        return (result, reports[0].file, reports[0].report)
    }

    @Test("serves its routes: hello, a pool thread blocked for a second, and a snapshot asked for through a request")
    func serves() async throws {
        let state = TempDirectory()
        let service = try await Self.example.start(state: state.path)
        defer { kill(service.process.pid, SIGKILL) }
        #expect(try await ExampleService.get(service.port, "/") == "hello\n")
        #expect(try await ExampleService.get(service.port, "/block?seconds=1") == "blocked a pool thread for 1 s\n")
        let id = try await ExampleService.get(service.port, "/snapshot").trimmingCharacters(in: .whitespacesAndNewlines)
        let snapshot = try #require(
            try ExampleService.pendingReports(in: state.path).first { $0.report.reportID == id })
        #expect(snapshot.report.kind == .snapshot)
        #expect(snapshot.report.snapshot?.reason == "asked for through GET /snapshot")
        // It kept serving.
        #expect(try await ExampleService.get(service.port, "/") == "hello\n")
    }

    @Test(
        "crashed three awaits deep: one report, level3 on the crashing thread, the requests' log lines as breadcrumbs")
    func crashAfterAwait() async throws {
        let state = TempDirectory()
        let (result, _, report) = try await Self.crashAfterAwait(state: state)
        #expect(result.signal == SIGILL || result.signal == SIGTRAP)
        #expect(report.crash?.message?.contains("Index out of range") == true, "\(report.crash?.message ?? "-")")

        let symbols = Symbolicator().symbolicate(report).crash
        let functions = (report.crash?.frames ?? []).indices.map { index in
            (symbols[index] ?? []).map(\.function).joined(separator: " / ")
        }
        #expect(functions.contains { $0.contains("AwaitChain.level3") }, "frames: \(functions)")

        // swift-log lines, Hummingbird's own and the service's, in order.
        let crumbs = report.breadcrumbs.items.map { "\($0.category) \($0.message) \($0.data["path"] ?? "")" }
        let expected = [
            "hummingbird-service handling request /", "hummingbird-service handling request /crash/await",
        ]
        #expect(Array(crumbs.suffix(2)) == expected, "\(crumbs)")
        let started = try #require(crumbs.firstIndex { $0.hasPrefix("Hummingbird Server started and listening") })
        let listening = try #require(crumbs.firstIndex { $0.hasPrefix("hummingbird-service listening on") })
        #expect(started < listening, "\(crumbs)")
    }

    // The raw `async_frames` member of the crashing thread, as the handler wrote it, looked up in
    // the binary's own symbol table, each address as it is (a resume function's entry, not a
    // return address): the chain the handler walked, with no symbolicator between.
    @Test("crashed three awaits deep: the async frames go from level2 through the handler to Hummingbird's router")
    func asyncChainReachesRouter() async throws {
        let state = TempDirectory()
        let (_, file, _) = try await Self.crashAfterAwait(state: state)
        let raw = try ReportFile(URL(fileURLWithPath: file))
        let crashed = try #require(raw.threads.first { $0["crashed"] as? Bool == true })
        let asyncFrames = try #require(
            crashed["async_frames"] as? [[String: Any]],
            "the crashing thread has no async_frames: \(crashed.keys.sorted())")
        #expect(asyncFrames.allSatisfy { $0["trust"] as? String == "async" })
        let names = raw.mainImageSymbols(try ELFSymbols(file: try await Self.example.executable()), frames: asyncFrames)
        func position(_ part: String) -> Int? { names.firstIndex { $0.contains(part) } }
        let level2 = try #require(position("6level2"), "async frames: \(names)")
        let level1 = try #require(position("6level1"), "async frames: \(names)")
        let handler = try #require(position("10makeRouter"), "async frames: \(names)")
        let router = try #require(position("15RouterResponder"), "async frames: \(names)")
        #expect(level2 < level1 && level1 < handler && handler < router, "async frames: \(names)")
    }

    // Dispatch's workers block every asynchronous signal; the reporter keeps its capture signal
    // open in such a mask, so the blocked pool thread answers with its stack.
    @Test("a snapshot while a request blocks a pool thread shows the blocking frame on that thread")
    func blockedPoolThread() async throws {
        let state = TempDirectory()
        let service = try await Self.example.start(state: state.path)
        defer { kill(service.process.pid, SIGKILL) }
        let request = try ChildProcess.start(
            ["/usr/bin/curl", "-s", "-m", "30", "http://127.0.0.1:\(service.port)/block?seconds=20"], environment: [:])
        defer { kill(request.pid, SIGKILL) }
        let log = service.process.directory.appendingPathComponent("stderr")
        let blocking = try await eventually(timeout: 20) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("path=/block")
        }
        try #require(blocking, "the /block request was not handled")
        try await Task.sleep(for: .milliseconds(200))  // from its log line into the blocking call
        #expect(kill(service.process.pid, SIGQUIT) == 0)
        var snapshot: CrashReport?
        _ = try await eventually(timeout: 20) {
            snapshot = try? ExampleService.pendingReports(in: state.path).first { $0.report.kind == .snapshot }?.report
            return snapshot != nil
        }
        let report = try #require(snapshot, "no snapshot")
        let symbols = Symbolicator().symbolicate(report)
        let blocked = report.threads.indices.first { index in
            symbols[thread: index].values.contains { $0.contains { $0.function.contains("PoolBlocker.blockThread") } }
        }
        #expect(
            blocked != nil,
            "no thread in PoolBlocker.blockThread: \(report.threads.map { "\($0.name) \($0.unwindError ?? "ok")" })")
    }
}

import CrashReportFormat
import CrashSymbolication
import Foundation
import TestSupport
import Testing

/// The Vapor 4 example service (Examples/VaporService, a package of its own) as a user runs it:
/// built, started, asked for its routes, and crashed through them: in an async route (a task of
/// the concurrency pool), in a synchronous route and in an `EventLoopFuture` chain (on an event
/// loop), and snapshotted while a route blocks a pool thread.
@Suite("The Vapor example service", .serialized)
struct VaporExampleTests {
    // In debug, as the other examples: Vapor's graph is the largest, and its release build (the
    // demo's and the benchmark's) took a fifth of CI's time
    // (docs/decisions/0178-the-tests-extra-builds-are-debug-builds.md).
    static let example = ExampleService(folder: "Examples/VaporService", product: "vapor-service")

    /// An e-mail address and ids planted in concrete paths and a query: no report may hold them.
    static let plantedEmail = "planted.person@example.com"
    static let plantedID = "918273645"
    static let plantedQueryID = "564738291"

    /// The prefix of the threads of SwiftNIO's singleton event loop group, which Vapor runs on by
    /// default (`Application.make(_:_:)` with `.singleton`).
    static let eventLoopThread = "NIO-SGLTN-"

    /// Starts a fresh service, asks for `requests` in turn (each answer checked by the caller),
    /// then crashes it through `crashPath`; how it died, the report it left (its file and the
    /// decoded model), and the answers.
    static func crash(
        through crashPath: String, after requests: [String] = ["/"], state: TempDirectory
    ) async throws -> (ChildProcess.Result, String, CrashReport, [String]) {
        let service = try await example.start(state: state.path)
        var answers: [String] = []
        for path in requests { answers.append(try await ExampleService.get(service.port, path)) }
        try await ExampleService.get(service.port, crashPath)
        let result = try await service.process.wait()
        let reports = try ExampleService.pendingReports(in: state.path)
        try #require(reports.count == 1, "left \(reports.map(\.file)) (stderr: \(result.stderr.suffix(2000)))")
        return (result, reports[0].file, reports[0].report, answers)
    }

    /// The crashing thread's symbolicated frames, each as its functions joined by " / ".
    static func crashFunctions(_ report: CrashReport) -> [String] {
        let symbols = Symbolicator().symbolicate(report).crash
        return (report.crash?.frames ?? []).indices.map { index in
            (symbols[index] ?? []).map(\.function).joined(separator: " / ")
        }
    }

    @Test("serves hello, an order, a pool thread blocked for a second and a snapshot; ends on SIGTERM with 0")
    func serves() async throws {
        let state = TempDirectory()
        let service = try await Self.example.start(state: state.path)
        defer { kill(service.process.pid, SIGKILL) }
        #expect(try await ExampleService.get(service.port, "/") == "hello\n")
        #expect(try await ExampleService.get(service.port, "/users/a@example.com/orders/12") == "order 12\n")
        #expect(try await ExampleService.get(service.port, "/block?seconds=1") == "blocked a pool thread for 1 s\n")
        let id = try await ExampleService.get(service.port, "/snapshot").trimmingCharacters(in: .whitespacesAndNewlines)
        let snapshot = try #require(
            try ExampleService.pendingReports(in: state.path).first { $0.report.reportID == id })
        #expect(snapshot.report.kind == .snapshot)
        #expect(snapshot.report.snapshot?.reason == "asked for through GET /snapshot")
        #expect(try await ExampleService.get(service.port, "/") == "hello\n")
        // SIGTERM: Vapor shuts down (its lifecycle handlers, delivery's among them) and `main` returns.
        #expect(kill(service.process.pid, SIGTERM) == 0)
        let result = try await service.process.wait()
        #expect(result.signal == nil && result.exitCode == 0, "stderr: \(result.stderr.suffix(2000))")
    }

    @Test(
        "a synchronous route's crash: its stack reaches the SwiftNIO event loop, and the breadcrumbs name routes, not paths"
    )
    func synchronousRoute() async throws {
        let state = TempDirectory()
        let order = "/users/\(Self.plantedEmail)/orders/\(Self.plantedID)?ref=\(Self.plantedQueryID)"
        let unmatched = "/accounts/\(Self.plantedID)"
        let (result, file, report, answers) = try await Self.crash(
            through: "/crash/sync", after: ["/", order, unmatched], state: state)
        #expect(answers[0] == "hello\n" && answers[1] == "order \(Self.plantedID)\n")
        #expect(result.signal == SIGILL || result.signal == SIGTRAP)
        let thread = report.crash?.thread.name ?? "-"
        #expect(thread.hasPrefix(Self.eventLoopThread), "crashed on \(thread)")

        let functions = Self.crashFunctions(report)
        func position(_ name: String) -> Int? { functions.firstIndex { $0.contains(name) } }
        let crash = try #require(position("EventLoopCrash.unwrapMissing"), "frames: \(functions)")
        let route = try #require(position("registerRoutes"), "frames: \(functions)")
        let loop = try #require(position("SelectableEventLoop.run"), "frames: \(functions)")
        #expect(crash < route && route < loop, "frames: \(functions)")

        // One breadcrumb per request and one per response, by route pattern, in order; the
        // request that crashed has no response.
        let http = report.breadcrumbs.items.filter { $0.category == "http" }.map { crumb in
            [crumb.message, crumb.data["method"], crumb.data["route"], crumb.data["status"]].compactMap { $0 }
                .joined(separator: " ")
        }
        let expected = [
            "request GET /", "response GET / 200",
            "request GET /users/:email/orders/:id", "response GET /users/:email/orders/:id 200",
            "request GET unmatched", "response GET unmatched 404",
            "request GET /crash/sync",
        ]
        #expect(http == expected, "\(http)")
        #expect(report.breadcrumbs.items.last { $0.message == "response" }?.data["duration_ms"] != nil)
        // Nothing of the concrete paths anywhere in the report: not in a breadcrumb, not in a
        // log line Vapor or the service wrote.
        let text = try ReportFile(URL(fileURLWithPath: file)).text
        for planted in [Self.plantedEmail, Self.plantedID, Self.plantedQueryID, "/accounts/"] {
            #expect(!text.contains(planted), "the report holds \(planted)")
        }
    }

    @Test("a crash in an EventLoopFuture chain leaves a report from the event loop's thread")
    func futureChain() async throws {
        let state = TempDirectory()
        let (result, _, report, _) = try await Self.crash(through: "/crash/future", state: state)
        #expect(result.signal == SIGILL || result.signal == SIGTRAP)
        let thread = report.crash?.thread.name ?? "-"
        #expect(thread.hasPrefix(Self.eventLoopThread), "crashed on \(thread)")
        let functions = Self.crashFunctions(report)
        let crash = try #require(functions.firstIndex { $0.contains("EventLoopCrash.average") }, "frames: \(functions)")
        let loop = try #require(functions.firstIndex { $0.contains("SelectableEventLoop.run") }, "frames: \(functions)")
        #expect(crash < loop, "frames: \(functions)")
    }

    // The raw `async_frames` member of the crashing thread, as the handler wrote it, looked up in
    // the binary's own symbol table (Vapor is compiled into it), each address as it is.
    @Test("an async route's crash three awaits deep: the async frames go through the route to Vapor's responder")
    func asyncRoute() async throws {
        let state = TempDirectory()
        let (result, file, report, _) = try await Self.crash(through: "/crash/await", state: state)
        #expect(result.signal == SIGILL || result.signal == SIGTRAP)
        #expect(Self.crashFunctions(report).contains { $0.contains("AwaitChain.level3") })

        let raw = try ReportFile(URL(fileURLWithPath: file))
        let crashed = try #require(raw.threads.first { $0["crashed"] as? Bool == true })
        let asyncFrames = try #require(
            crashed["async_frames"] as? [[String: Any]],
            "the crashing thread has no async_frames: \(crashed.keys.sorted())")
        let names = raw.mainImageSymbols(try ELFSymbols(file: try await Self.example.executable()), frames: asyncFrames)
        func position(_ part: String) -> Int? { names.firstIndex { $0.contains(part) } }
        let level2 = try #require(position("6level2"), "async frames: \(names)")
        let level1 = try #require(position("6level1"), "async frames: \(names)")
        let route = try #require(position("14registerRoutes"), "async frames: \(names)")
        let on = try #require(position("13RoutesBuilderPAAE2on"), "async frames: \(names)")
        let responder = try #require(position("14AsyncResponderPAAE7respond"), "async frames: \(names)")
        let task = try #require(position("16EventLoopPromiseV16completeWithTask"), "async frames: \(names)")
        #expect(level1 < route && route < on && on < responder && responder < task, "async frames: \(names)")
        #expect(level2 < level1, "async frames: \(names)")
    }

    @Test("a snapshot while a route blocks a pool thread names the blocking function and the route")
    func blockedPoolThread() async throws {
        let state = TempDirectory()
        let service = try await Self.example.start(state: state.path)
        defer { kill(service.process.pid, SIGKILL) }
        let request = try ChildProcess.start(
            ["/usr/bin/curl", "-s", "-m", "30", "http://127.0.0.1:\(service.port)/block?seconds=20"], environment: [:])
        defer { kill(request.pid, SIGKILL) }
        let log = service.process.directory.appendingPathComponent("stderr")
        let blocking = try await eventually(timeout: 20) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("blocking a pool thread")
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
        func functions(_ frames: [Int: [FrameSymbol]]) -> [String] { frames.values.flatMap { $0.map(\.function) } }
        func blocks(_ thread: Int) -> Bool {
            functions(symbols[thread: thread]).contains { $0.contains("PoolBlocker.blockThread") }
        }
        let blocked = try #require(
            report.threads.indices.first(where: blocks),
            "no thread in PoolBlocker.blockThread: \(report.threads.map { "\($0.name) \($0.unwindError ?? "ok")" })")
        // The route: its closure in the blocked thread's async chain, and its breadcrumb.
        let awaiting = functions(symbols[asyncFramesOf: blocked])
        #expect(awaiting.contains { $0.contains("registerRoutes") }, "async frames: \(awaiting)")
        #expect(report.breadcrumbs.items.last { $0.category == "http" }?.data["route"] == "/block")
    }
}

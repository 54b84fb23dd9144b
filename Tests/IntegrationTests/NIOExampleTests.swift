import CrashReportFormat
import CrashSymbolication
import Foundation
import TestSupport
import Testing

/// The SwiftNIO example service (Examples/NIOService, a package of its own) as a user runs it:
/// built, started, crashed through a request, and relaunched to deliver the report.
@Suite("The SwiftNIO example service", .serialized)
struct NIOExampleTests {
    static let example = ExampleService(folder: "Examples/NIOService", product: "nio-service")

    static func start(state: String, extra: [String: String] = [:]) async throws -> ExampleService.Running {
        try await example.start(state: state, extra: extra)
    }

    @discardableResult
    static func get(_ port: Int, _ path: String) async throws -> String {
        try await ExampleService.get(port, path)
    }

    /// Crashes a fresh service through `/crash/<kind>` after one ordinary request; how it died
    /// and the report it left.
    static func crash(_ kind: String, state: TempDirectory) async throws -> (ChildProcess.Result, CrashReport) {
        let service = try await start(state: state.path)
        #expect(try await get(service.port, "/") == "hello\n")
        try await get(service.port, "/crash/\(kind)")
        let result = try await service.process.wait()
        let pending = state.path + "/pending"
        let files = try FileManager.default.contentsOfDirectory(atPath: pending).filter { $0.hasSuffix(".crash") }
        try #require(files.count == 1, "\(kind) left \(files) (stderr: \(result.stderr.suffix(2000)))")
        return (result, try ReportDecoding.decode(file: pending + "/" + files[0]))
    }

    @Test("a force-unwrap in a request handler: the stack goes through the NIO pipeline to the thread entry")
    func forceUnwrap() async throws {
        let state = TempDirectory()
        let (result, report) = try await Self.crash("force-unwrap", state: state)
        #expect(result.signal == SIGILL || result.signal == SIGTRAP)
        #expect(report.crash?.message?.contains("Unexpectedly found nil") == true)
        #expect(report.crash?.thread.name.hasPrefix("NIO-ELT-") == true, "thread \(report.crash?.thread.name ?? "-")")

        let symbols = Symbolicator().symbolicate(report).crash
        let functions = (report.crash?.frames ?? []).indices.map { index in
            (symbols[index] ?? []).map(\.function).joined(separator: " / ")
        }
        func position(_ name: String) -> Int? { functions.firstIndex { $0.contains(name) } }
        let handler = try #require(position("RequestHandler.channelRead"), "frames: \(functions)")
        let pipeline = try #require(position("ChannelHandlerContext.invokeChannelRead"), "frames: \(functions)")
        let loop = try #require(position("SelectableEventLoop.run"), "frames: \(functions)")
        let entry = try #require(position("start_thread"), "frames: \(functions)")
        #expect(handler < pipeline && pipeline < loop && loop < entry)

        // SwiftNIO's frames are in the same binary but their sources are in the package's
        // checkouts: a dependency's, so they name no group and are marked in the crash log
        // (docs/grouping.md, "Dependencies and compiler thunks").
        let all = Symbolicator().symbolicate(report)
        let signature = CrashSignature(report: report, symbols: all)
        #expect(signature.frames.contains { $0.contains("RequestHandler.channelRead") }, "\(signature)")
        #expect(!signature.frames.contains { $0.contains("ChannelHandlerContext") || $0.contains("EventLoop") })
        // The C parser's callback into NIO (`@objc closure #10 in BetterHTTPParser.init`) is a
        // thunk without a source line of its own.
        #expect(!signature.frames.contains { $0.contains("BetterHTTPParser") }, "\(signature)")
        #expect(!signature.frames.contains { $0.hasPrefix("partial apply for") }, "\(signature)")
        let log = try #require(TextRenderer(symbols: all).crashingThread(report))
        let invoke = try #require(log.split(separator: "\n").first { $0.contains("invokeChannelRead") })
        #expect(invoke.contains("/.build/checkouts/swift-nio/") && invoke.contains(" [dependency]"), "\(invoke)")
        let own = try #require(log.split(separator: "\n").first { $0.contains("RequestHandler.channelRead") })
        #expect(!own.contains("[dependency]"), "\(own)")

        // The request's breadcrumb, and the log lines before it, in order.
        let crumbs = report.breadcrumbs.items.map { "\($0.category) \($0.message) \($0.data["path"] ?? "")" }
        let expected = [
            "tracking request_received /", "nio-service handling request /",
            "tracking request_received /crash/force-unwrap", "nio-service handling request /crash/force-unwrap",
        ]
        #expect(Array(crumbs.suffix(4)) == expected, "\(crumbs)")
        #expect(crumbs.first?.hasPrefix("nio-service listening on") == true, "\(crumbs)")
    }

    @Test(
        "each crashing route leaves a report from the event loop's thread",
        arguments: [("fatal-error", SIGILL), ("null-write", SIGSEGV), ("recursion", SIGSEGV)])
    func routes(kind: String, signal: Int32) async throws {
        let state = TempDirectory()
        let (result, report) = try await Self.crash(kind, state: state)
        #expect(result.signal == signal || (signal == SIGILL && result.signal == SIGTRAP))
        #expect(report.crash?.signal.number == Int(result.signal ?? 0))
        #expect(report.crash?.thread.name.hasPrefix("NIO-ELT-") == true)
        #expect(report.breadcrumbs.items.last?.data["path"] == "/crash/\(kind)")
        if kind == "fatal-error" { #expect(report.crash?.message?.contains("the request handler gave up") == true) }
        if kind == "recursion" {
            let symbols = Symbolicator().symbolicate(report).crash
            #expect(symbols.values.contains { $0.contains { $0.function.contains("descend") } })
        }
    }

    @Test("a blocked event loop: one hang report names its heartbeat and thread; kill -QUIT shows both loops")
    func blockedLoop() async throws {
        let state = TempDirectory()
        let service = try await Self.start(state: state.path, extra: ["CRASH_REPORTER_HANG_TIMEOUT_SECONDS": "1"])
        defer { kill(service.process.pid, SIGKILL) }
        #expect(try await Self.get(service.port, "/") == "hello\n")
        // The request never gets an answer: its loop is blocked for good.
        let request = try ChildProcess.start(
            ["/usr/bin/curl", "-s", "-m", "30", "http://127.0.0.1:\(service.port)/crash/block"], environment: [:])
        defer { kill(request.pid, SIGKILL) }
        func reports() throws -> [CrashReport] {
            try FileManager.default.contentsOfDirectory(atPath: state.path + "/pending").filter {
                $0.hasSuffix(".crash")
            }
            .map { try ReportDecoding.decode(file: state.path + "/pending/" + $0) }
        }
        for _ in 0..<300 where try reports().isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        let hang = try #require(try reports().first, "no hang report")
        #expect(hang.kind == .hang)
        let heartbeat = try #require(hang.snapshot?.heartbeat)
        #expect(heartbeat.name.hasPrefix("event-loop-"))
        let blocked = try #require(hang.threads.first { $0.id == heartbeat.threadID })
        #expect(blocked.name.hasPrefix("NIO-ELT-"), "the loop's thread: \(blocked.name)")
        let symbols = Symbolicator().symbolicate(hang)
        let index = try #require(hang.threads.firstIndex { $0.id == heartbeat.threadID })
        let functions = symbols[thread: index].values.flatMap { $0.map(\.function) }
        #expect(functions.contains { $0.contains("RequestHandler.channelRead") }, "\(functions)")

        // The other loop still serves, and a snapshot shows both loops.
        #expect(kill(service.process.pid, SIGQUIT) == 0)
        for _ in 0..<200 where try reports().count < 2 { try await Task.sleep(for: .milliseconds(50)) }
        let snapshot = try #require(try reports().first { $0.kind == .snapshot })
        #expect(snapshot.threads.filter { $0.name.hasPrefix("NIO-ELT-") }.count == 2)
        #expect(try reports().filter { $0.kind == .hang }.count == 1, "one hang report for one stall")
    }

    @Test("relaunched, the service delivers the report to a real receiver while it serves")
    func relaunchDelivers() async throws {
        let state = TempDirectory()
        _ = try await Self.crash("null-write", state: state)
        let server = try FaultServer(responses: ["200"])
        let service = try await Self.start(state: state.path, extra: ["CRASH_REPORTER_URL": server.url])
        #expect(try await Self.get(service.port, "/") == "hello\n")
        let delivered = state.path + "/delivered"
        // Received, and moved to delivered/ once the service had the answer.
        for _ in 0..<200
        where server.reportRequests.isEmpty
            || ((try? FileManager.default.contentsOfDirectory(atPath: delivered)) ?? []).isEmpty
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(service.process.pid, SIGKILL)
        _ = try await service.process.wait()
        #expect(server.reportRequests.count == 1, "the report, once (the earlier run's session may follow it)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: delivered).count == 1)
    }
}

import CrashReportFormat
import CrashReporter
import CrashReporterLifecycle
import Foundation
import Logging
import ServiceLifecycle
import TestSupport
import Testing

/// The reporter's delivery inside a `ServiceGroup`, in a child process of its own (each test
/// starts the crash reporter, once per process), delivering to a real receiver on loopback.
@Suite("CrashReporterService in a ServiceGroup")
struct CrashReporterServiceTests {
    /// Writes `count` valid pending reports into a state directory; their ids.
    static func plant(_ count: Int, in state: String) throws -> [String] {
        try (0..<count).map { _ in
            let id = UUID().uuidString.lowercased()
            try ReportFixture.plantPending(id: id, in: state)
            return id
        }
    }

    static func pendingCount(_ state: String) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: state + "/pending")) ?? [])
            .filter { $0.hasSuffix(".crash") }.count
    }

    @Test("delivers pending reports while the group runs; SIGTERM through the group ends it cleanly")
    func deliversWhileRunning() async throws {
        let server = try FaultServer(responses: ["200"])
        let state = TempDirectory()
        let ids = try Self.plant(2, in: state.path)
        await #expect(processExitsWith: .success) { [url = server.url as String, path = state.path as String] in
            try CrashReporter.start(
                Options(appName: "lifecycle", stateDirectory: path, uploadURL: url, deliverAtStart: false))
            // Delivery waits for the group.
            try await Task.sleep(for: .milliseconds(300))
            guard Self.pendingCount(path) == 2 else { exit(2) }
            let group = ServiceGroup(
                services: [CrashReporterService()], gracefulShutdownSignals: [.sigterm],
                logger: Logger(label: "lifecycle-test"))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                for _ in 0..<200 where Self.pendingCount(path) > 0 {
                    try await Task.sleep(for: .milliseconds(50))
                }
                guard Self.pendingCount(path) == 0 else { exit(3) }
                kill(getpid(), SIGTERM)
                try await tasks.waitForAll()
            }
            exit(0)
        }
        #expect(server.requests.count == 2)
        let delivered = try FileManager.default.contentsOfDirectory(atPath: state.path + "/delivered")
        #expect(Set(delivered) == Set(ids.map { "\($0).crash" }))
    }

    @Test("a graceful shutdown stops the worker after the report in flight; the rest stay pending")
    func stopsWithTheGroup() async throws {
        // Each upload takes 2 s: five would take 10.
        let server = try FaultServer(responses: ["slow@2"])
        let state = TempDirectory()
        _ = try Self.plant(5, in: state.path)
        await #expect(processExitsWith: .success) { [url = server.url as String, path = state.path as String] in
            try CrashReporter.start(Options(appName: "lifecycle", stateDirectory: path, uploadURL: url))
            let group = ServiceGroup(services: [CrashReporterService()], logger: Logger(label: "lifecycle-test"))
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                try await Task.sleep(for: .milliseconds(500))
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            // The upload in flight finished (at most 2 s), the next ones were not started.
            guard ContinuousClock.now - started < .seconds(6) else { exit(2) }
            guard Self.pendingCount(path) >= 3 else { exit(3) }
            exit(0)
        }
        #expect(server.requests.count <= 2)
        #expect(Self.pendingCount(state.path) >= 3)
    }
}

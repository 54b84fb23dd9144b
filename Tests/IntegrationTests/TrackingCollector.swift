import Foundation
import TestSupport

/// A real `crash-collector` (the debug build next to the test bundle) on a free loopback port,
/// with its own data directory and write key, for the tracking tests.
final class TrackingCollector {
    static let writeKey = "aso_wk_integration"

    let running: ChildProcess.Running
    let data: URL
    let port: Int

    struct NotReady: Error, CustomStringConvertible {
        var output: String
        var description: String { "crash-collector did not say it was listening: \(output)" }
    }

    /// Starts the collector with `extra` options (fault injection, rate limits) and waits for
    /// its ready line.
    init(_ extra: [String] = []) async throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("collector-\(UUID().uuidString)")
        let arguments =
            [
                Binaries.debug("crash-collector").path, "--host", "127.0.0.1", "--port", "0", "--data", data.path,
                "--events-write-key", Self.writeKey,
            ] + extra
        running = try ChildProcess.start(arguments, environment: ["PATH": "/usr/bin:/bin"], timeout: 300)
        let stdout = running.directory.appendingPathComponent("stdout")
        var found: Int?
        for _ in 0..<500 {
            let text = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), text[range.upperBound...].contains("\n") {
                    found = port
                    break
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        guard let found else {
            kill(running.pid, SIGKILL)
            let out = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
            _ = try? await running.wait()
            throw NotReady(output: out)
        }
        port = found
    }

    /// The base URL crash-test gets in `EVENTS_API_URL`.
    var eventsURL: String { "http://127.0.0.1:\(port)/v1" }

    /// The environment that points crash-test at this collector.
    func environment(writeKey: String = TrackingCollector.writeKey, _ extra: [String: String] = [:]) -> [String: String]
    {
        // A generous bound at exit: on a loaded machine a send may take a while; a test that
        // expects nothing to arrive does not wait for it (nothing is queued).
        var env = ["EVENTS_API_URL": eventsURL, "EVENTS_WRITE_KEY": writeKey, "CRASH_TEST_ANALYTICS_TIMEOUT": "20"]
        env.merge(extra) { $1 }
        return env
    }

    /// One stored analytics event, as the collector wrote it to `events/events.jsonl`.
    struct StoredEvent {
        var id: String
        var name: String
        var anonymousID: String
        var receivedAt: Date?
        var properties: [String: Any]
        var line: String
    }

    /// The whole store, as raw text (for the privacy checks).
    var storeText: String {
        (try? String(contentsOf: data.appendingPathComponent("events/events.jsonl"), encoding: .utf8)) ?? ""
    }

    /// Every stored event, in the order stored.
    var events: [StoredEvent] {
        storeText.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let id = object["event_id"] as? String, let name = object["name"] as? String
            else { return nil }
            return StoredEvent(
                id: id, name: name, anonymousID: object["anonymous_id"] as? String ?? "",
                receivedAt: (object["received_at"] as? String).flatMap(Self.parseTime),
                properties: object["properties"] as? [String: Any] ?? [:], line: String(line))
        }
    }

    func names() -> [String] { events.map(\.name) }

    func count(_ name: String) -> Int { events.filter { $0.name == name }.count }

    /// Stops the collector (SIGTERM, then its exit) and removes its data.
    func stop() async {
        kill(running.pid, SIGTERM)
        _ = try? await running.wait()
        try? FileManager.default.removeItem(at: data)
    }

    static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

extension CrashSandbox {
    var analyticsDirectory: URL { state.appendingPathComponent("analytics") }
    var installIDFile: URL { analyticsDirectory.appendingPathComponent("install-id") }
    var analyticsChoiceFile: URL { state.appendingPathComponent("analytics.consent") }
    var crashChoiceFile: URL { state.appendingPathComponent("crash-reporting.consent") }

    /// Every file and directory under the state directory, relative to it, sorted.
    var stateEntries: [String] {
        guard let walker = FileManager.default.enumerator(atPath: state.path) else { return [] }
        return walker.compactMap { $0 as? String }.sorted()
    }

    /// The queued events as text, the journal's and the sealed batches' lines ("" when none wait).
    var queueText: String { QueuedAnalytics.text(stateDirectory: state.path) }

    /// The event ids queued, in the journal or a sealed batch: whole lines only
    /// (`<epoch> <event_id> <json>`).
    var queuedIDs: [String] {
        queueText.split(separator: "\n", omittingEmptySubsequences: true).compactMap { line in
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count == 3, line.hasSuffix("}") else { return nil }
            return String(words[1]).lowercased()
        }
    }

    /// Runs crash-test and requires a normal exit.
    @discardableResult
    func succeed(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> ChildProcess.Result {
        let result = try await run(arguments, environment: extra)
        guard result.exitCode == 0 else {
            throw ChildFailed(arguments: arguments, result: result)
        }
        return result
    }

    struct ChildFailed: Error, CustomStringConvertible {
        var arguments: [String]
        var result: ChildProcess.Result
        var description: String {
            "crash-test \(arguments.joined(separator: " ")) ended with status \(result.status): \(result.stderr)"
        }
    }
}

import CCrashReporter
import CrashReporter
import Foundation
import Tracking
import TrackingEventsAPI

/// The tracking façade's cost, side by side in one run:
/// - `track()` with analytics denied (a breadcrumb only) against a bare `Breadcrumbs.record`
///   (target: within 2x), and with analytics granted (a breadcrumb and an enqueue; target
///   at most 2 µs), through each provider: the events API's, TelemetryDeck's, PostHog's;
/// - adding one event to a queue that holds 10, 100 or 1,000 events: our append of one line
///   (`EventsAPIProvider.receive`) against rewriting the whole queue file per event, as a
///   naive tracker would (`JSONEncoder` over the whole queue, then an atomic write).
///
/// Bootstraps `TrackingSystem`, so call `run()` once per process.
enum TrackingBenchmark {
    enum Event: TrackingEvent {
        case stepCompleted(index: Int)

        var name: String { "step_completed" }
        var parameters: [String: TrackingValue] {
            switch self {
            case .stepCompleted(let index): ["index": .int(index)]
            }
        }
    }

    static func run() -> [String] {
        precondition(scr_breadcrumbs_configure(100) == 0)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tracking-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        return trackLines(state: root.appendingPathComponent("track").path) + [""]
            + queueLines(root: root.appendingPathComponent("queue"))
    }

    // MARK: track()

    static let calls = 200_000

    /// ns per call of `body`, best of three runs of `calls` calls on this thread.
    static func perCall(_ calls: Int = calls, _ body: (Int) -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let clock = ContinuousClock()
            let began = clock.now
            for i in 0..<calls { body(i) }
            best = Swift.min(best, nanoseconds(clock.now - began) / Double(calls))
        }
        return best
    }

    static func trackLines(state: String) -> [String] {
        // No endpoint: the provider queues and never sends, so the enqueue is all that is timed.
        let provider = EventsAPIProvider(
            stateDirectory: state,
            options: EventsAPIOptions(delivery: AnalyticsDeliveryOptions(flushInterval: .seconds(3600))),
            environment: [:])
        let tracker = Tracker(stateDirectory: state, providers: [provider])
        TrackingSystem.bootstrap(tracker)

        _ = perCall(20_000) {
            Breadcrumbs.record("step_completed", category: "tracking", data: [("index", String($0))])
        }
        let bare = perCall { Breadcrumbs.record("step_completed", category: "tracking", data: [("index", String($0))]) }
        try? tracker.setAnalyticsConsent(granted: false)
        let denied = perCall { track(Event.stepCompleted(index: $0)) }
        let granted = grantedCost(root: state + "-granted") { state in
            EventsAPIProvider(
                stateDirectory: state,
                options: EventsAPIOptions(delivery: AnalyticsDeliveryOptions(flushInterval: .seconds(3600))),
                environment: [:])
        }
        // The vendors' providers without their app id and key, so that, as the events API's
        // without its URL, they queue and never send: the enqueue is all that is timed. With a key
        // they would flush every 20 events in the background, to the vendors' own hosts (their
        // defaults), and the benchmark would time that too and send its events to them.
        let delivery = AnalyticsDeliveryOptions(flushInterval: .seconds(3600))
        let telemetryDeck = grantedCost(root: state + "-telemetrydeck") { state in
            TelemetryDeckProvider(
                stateDirectory: state, options: TelemetryDeckOptions(delivery: delivery), environment: [:])
        }
        let postHog = grantedCost(root: state + "-posthog") { state in
            PostHogProvider(stateDirectory: state, options: PostHogOptions(delivery: delivery), environment: [:])
        }
        let write = writeFloor(path: state + "/floor.log")
        return [
            "| one event, one int parameter (1 thread) | ns per call | vs bare breadcrumb | target |",
            "|---|---|---|---|",
            "| `Breadcrumbs.record` (bare breadcrumb) | \(format(bare)) | 1.00x | |",
            "| `track()`, analytics denied (breadcrumb only) | \(format(denied)) | \(format(denied / bare, 2))x | ≤ 2x |",
            "| `track()`, analytics granted (breadcrumb + enqueue) | \(format(granted)) | \(format(granted / bare, 2))x "
                + "| ≤ 2,000 ns |",
            "| `track()`, granted, `TelemetryDeckProvider` | \(format(telemetryDeck)) | "
                + "\(format(telemetryDeck / bare, 2))x | ≤ 2,000 ns |",
            "| `track()`, granted, `PostHogProvider` | \(format(postHog)) | \(format(postHog / bare, 2))x | ≤ 2,000 ns |",
            "| for scale: one `write(2)` of a 400-byte line, `O_APPEND` | \(format(write)) | "
                + "\(format(write / bare, 2))x | |",
        ]
    }

    /// `track()` with analytics granted through the provider `make` returns, in the queue's
    /// normal regime: below its capacity of 1,000 (a queue that overflows rewrites itself every
    /// 1,000 events, which is not what an enqueue costs while the service is online). Batches of
    /// 900 events, each into a fresh tracker and queue; ns per call over all batches.
    static func grantedCost(root: String, _ make: (String) -> any AnalyticsProvider) -> Double {
        var total = Duration.zero
        var calls = 0
        let clock = ContinuousClock()
        for batch in 0..<40 {
            let state = root + "/\(batch)"
            let tracker = Tracker(stateDirectory: state, providers: [make(state)])
            try? tracker.setAnalyticsConsent(granted: true)
            let began = clock.now
            for i in 0..<900 { tracker.track(Event.stepCompleted(index: i)) }
            total += clock.now - began
            calls += 900
        }
        try? FileManager.default.removeItem(atPath: root)
        return nanoseconds(total) / Double(calls)
    }

    /// The floor under any enqueue that reaches the file per event: one append syscall.
    static func writeFloor(path: String) -> Double {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .nan }
        defer {
            close(fd)
            unlink(path)
        }
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 399) + [0x0a]
        return line.withUnsafeBytes { bytes in perCall(50_000) { _ in _ = Foundation.write(fd, bytes.baseAddress, 400) }
        }
    }

    // MARK: Queue

    static let sizes = [10, 100, 1_000]

    static func queueLines(root: URL) -> [String] {
        var append: [Double] = []
        var rewrite: [Double] = []
        for size in sizes {
            append.append(appendCost(queued: size, state: root.appendingPathComponent("append-\(size)").path))
            rewrite.append(rewriteCost(queued: size, file: root.appendingPathComponent("rewrite-\(size).json")))
        }
        func row(_ name: String, _ values: [Double]) -> String {
            "| \(name) | " + values.map { format($0 / 1000, 2) }.joined(separator: " | ") + " |"
        }
        return [
            "| adding one event, µs (queue already holding) | 10 events | 100 events | 1,000 events |",
            "|---|---|---|---|",
            row("append one line (`EventsAPIProvider`)", append),
            row("rewrite the whole file per event (`JSONEncoder`, atomic write)", rewrite),
            "| rewrite / append | " + zip(rewrite, append).map { format($0 / $1, 1) + "x" }.joined(separator: " | ")
                + " |",
        ]
    }

    static func event(_ i: Int, installID: String) -> AnalyticsEvent {
        AnalyticsEvent(
            name: "step_completed", parameters: ["index": .int(i), "screen": "checkout"], installID: installID,
            consentEpoch: 1)
    }

    /// ns per `receive` on a provider whose queue keeps `queued` events and is full: each
    /// event appends one line and pushes the oldest out (the file is compacted when it holds
    /// twice as many lines, which is part of the cost).
    static func appendCost(queued: Int, state: String) -> Double {
        let provider = EventsAPIProvider(
            stateDirectory: state,
            options: EventsAPIOptions(
                delivery: AnalyticsDeliveryOptions(flushInterval: .seconds(3600), maxQueued: queued)),
            environment: [:])
        provider.consentChanged(to: .granted, epoch: 1, farewell: nil)
        let installID = UUID().uuidString
        for i in 0..<queued { provider.receive(event(i, installID: installID)) }
        let events = (0..<20_000).map { event($0, installID: installID) }
        return perCall(events.count) { provider.receive(events[$0]) }
    }

    /// One event as a whole-file-rewriting tracker would store it, with the wire names (docs/events-api.md §3.1).
    struct ReferenceEvent: Codable {
        var eventID: String
        var name: String
        var anonymousID: String
        var userID: String?
        var occurredAt: String
        var properties: [String: ReferenceValue]
        var context: [String: String]

        enum CodingKeys: String, CodingKey {
            case eventID = "event_id", name, anonymousID = "anonymous_id", userID = "user_id"
            case occurredAt = "occurred_at", properties, context
        }
    }

    enum ReferenceValue: Codable {
        case int(Int)
        case string(String)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .int(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self = .int(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    /// ns per event when each event is appended to an in-memory array of `queued` events
    /// (the oldest dropped) and the whole array is encoded and written atomically.
    static func rewriteCost(queued: Int, file: URL) -> Double {
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let installID = UUID().uuidString
        let timestamp = ISO8601DateFormatter()
        timestamp.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let context = [
            "app_version": "1.0.0", "build": "1", "os_version": "debian 12", "device_model": "x86_64",
            "environment": "production",
        ]
        func make(_ i: Int) -> ReferenceEvent {
            ReferenceEvent(
                eventID: UUID().uuidString, name: "step_completed", anonymousID: installID, userID: nil,
                occurredAt: timestamp.string(from: Date()),
                properties: ["index": .int(i), "screen": .string("checkout")],
                context: context)
        }
        var queue = (0..<queued).map(make)
        let encoder = JSONEncoder()
        let calls = Swift.max(50, 20_000 / queued)
        return perCall(calls) { i in
            queue.append(make(i))
            if queue.count > queued { queue.removeFirst(queue.count - queued) }
            try? encoder.encode(queue).write(to: file, options: .atomic)
        }
    }
}

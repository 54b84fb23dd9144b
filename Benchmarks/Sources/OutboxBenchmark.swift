import CrashReportFormat
import Foundation
import Tracking
import TrackingEventsAPI

/// The outboxes end to end, through processes and public API only, so that this file builds
/// against the code before a change to the delivery code and after it, and
/// `Benchmarks/outbox-compare.sh` runs the two builds interleaved:
/// - `crashreport upload` of 100 pending reports (each a new id, no cap) to a fresh
///   `crash-collector` on loopback: the process's wall time;
/// - the next launch with 100 pending reports (`crash-test run` delivering to the same kind of
///   collector, no cap): `start()`'s wall time as the program measures it, and the process's
///   wall time to exit, which waits for the worker's first pass (`waitForDelivery`): the worker's
///   time to idle;
/// - 100 analytics batches (1,000 events, 10 to a batch, and the opt-in event) through the events
///   API provider to the collector: the flush's wall time.
///
/// Each figure is the median of `runs`; a run that does not deliver everything fails the section.
enum OutboxBenchmark {
    static let reports = 100
    static let batches = 100
    static let eventsPerBatch = 10

    static func run(
        crashTest: String, crashreport: String, collector: String, reportPath: String, runs: Int
    ) -> [String] {
        do {
            let template = try CollectorBenchmark.Template(reportPath: reportPath)
            var upload: [Double] = []
            var start: [Double] = []
            var idle: [Double] = []
            var analytics: [Double] = []
            for _ in 0..<runs {
                upload.append(try uploadPass(crashreport: crashreport, collector: collector, template: template))
                let launch = try nextLaunch(crashTest: crashTest, collector: collector, template: template)
                start.append(launch.start)
                idle.append(launch.idle)
                analytics.append(try analyticsFlush(collector: collector))
            }
            return [
                "| outboxes, median of \(runs) | ms |",
                "|---|---|",
                "| `crashreport upload`, \(reports) pending reports to delivered | \(ms(upload)) |",
                "| next launch with \(reports) pending: `start()` | \(ms(start, digits: 2)) |",
                "| next launch with \(reports) pending: launch to the worker idle (all delivered) | \(ms(idle)) |",
                "| \(batches) analytics batches of \(eventsPerBatch) events, flushed | \(ms(analytics)) |",
            ]
        } catch {
            return ["Outbox benchmark failed: \(error)"]
        }
    }

    static func ms(_ samples: [Double], digits: Int = 1) -> String {
        format(Stats(samples: samples).median / 1e6, digits)
    }

    /// A fresh state directory under `root` whose `pending/` holds `reports` copies of the
    /// template's report, each with a new id.
    static func pendingState(root: URL, template: CollectorBenchmark.Template) throws -> URL {
        let state = root.appendingPathComponent("state")
        let pending = state.appendingPathComponent("pending")
        try FileManager.default.createDirectory(at: pending, withIntermediateDirectories: true)
        for _ in 0..<reports {
            let id = UUID().uuidString.lowercased()
            let body = try Gzip.compress(Data(template.json.replacingOccurrences(of: template.id, with: id).utf8))
            try Data(body).write(to: pending.appendingPathComponent("\(id).crash"))
        }
        return state
    }

    /// Whether every pending report was delivered: none left in `pending/` and none set aside
    /// in `rejected/` (`delivered/` keeps only the latest few).
    static func allDelivered(_ state: URL) -> Bool {
        ["pending", "rejected"].allSatisfy { folder in
            let names = try? FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent(folder).path)
            return (names ?? []).allSatisfy { !$0.hasSuffix(".crash") }
        }
    }

    /// Runs `arguments` to its exit with `environment`; its standard output and wall time in ns.
    static func timed(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> (
        output: String, wall: Double
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let clock = ContinuousClock()
        let began = clock.now
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text, nanoseconds(clock.now - began))
    }

    static func uploadPass(crashreport: String, collector: String, template: CollectorBenchmark.Template) throws
        -> Double
    {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-upload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let state = try pendingState(root: root, template: template)
        let server = try CollectorBenchmark.CollectorServer(
            binary: collector, data: root.appendingPathComponent("data"))
        defer { server.stop() }
        let run = try timed(
            crashreport,
            ["upload", "--url", "http://127.0.0.1:\(server.port)/api/reports", "--cap-count", "0", state.path],
            environment: ["PATH": "/usr/bin:/bin", "HOME": root.path])
        guard allDelivered(state) else { throw CollectorBenchmark.Failure("upload left reports: \(run.output)") }
        return run.wall
    }

    static func nextLaunch(crashTest: String, collector: String, template: CollectorBenchmark.Template) throws -> (
        start: Double, idle: Double
    ) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-launch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let state = try pendingState(root: root, template: template)
        let server = try CollectorBenchmark.CollectorServer(
            binary: collector, data: root.appendingPathComponent("data"))
        defer { server.stop() }
        let run = try timed(
            crashTest, ["run"],
            environment: [
                "PATH": "/usr/bin:/bin", "HOME": root.path, "CRASH_REPORTER_DIR": state.path,
                "CRASH_REPORTER_URL": "http://127.0.0.1:\(server.port)/api/reports", "CRASH_REPORTER_CAP_COUNT": "0",
                "CRASH_TEST_TIMING": "1", "SWIFT_BACKTRACE": "enable=no",
            ])
        guard allDelivered(state) else {
            throw CollectorBenchmark.Failure("the next launch left reports: \(run.output)")
        }
        guard let field = run.output.split(whereSeparator: \.isWhitespace).first(where: { $0.hasPrefix("start_ns=") }),
            let start = Double(field.dropFirst("start_ns=".count))
        else { throw CollectorBenchmark.Failure("crash-test printed no start_ns: \(run.output)") }
        return (start, run.wall)
    }

    struct Step: TrackingEvent {
        let index: Int
        var name: String { "step_completed" }
        var parameters: [String: TrackingValue] { ["index": .int(index)] }
    }

    /// Tracks `batches · eventsPerBatch` events with nothing sent meanwhile, then times the flush
    /// that sends them all.
    static func analyticsFlush(collector: String) throws -> Double {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-events-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")
        let key = "bench-key"
        let server = try CollectorBenchmark.CollectorServer(
            binary: collector, data: data,
            arguments: [
                "--events-write-key", key, "--events-rate-per-key", "10000000", "--events-rate-per-install", "10000000",
            ])
        defer { server.stop() }
        let events = batches * eventsPerBatch
        let state = root.appendingPathComponent("state").path
        let provider = EventsAPIProvider(
            stateDirectory: state,
            options: EventsAPIOptions(
                baseURL: "http://127.0.0.1:\(server.port)/v1", writeKey: key,
                delivery: AnalyticsDeliveryOptions(
                    flushAt: 1_000_000, flushInterval: .seconds(3600), maxQueued: events + 10,
                    maxBatchSize: eventsPerBatch)),
            environment: [:])
        let tracker = Tracker(stateDirectory: state, providers: [provider])
        try tracker.setAnalyticsConsent(granted: true)
        for index in 0..<events { tracker.track(Step(index: index)) }
        let clock = ContinuousClock()
        let began = clock.now
        let flushed = DispatchSemaphore(value: 0)
        Task {
            await tracker.flush()
            flushed.signal()
        }
        flushed.wait()
        let wall = nanoseconds(clock.now - began)
        let shutdown = DispatchSemaphore(value: 0)
        Task {
            await tracker.shutdown(within: .seconds(2))
            shutdown.signal()
        }
        shutdown.wait()
        // The collector answers once the batch is stored: one line per event.
        let log = (try? String(contentsOf: data.appendingPathComponent("events/events.jsonl"), encoding: .utf8)) ?? ""
        let stored = log.split(separator: "\n").count
        guard stored >= events else { throw CollectorBenchmark.Failure("the collector stored \(stored) of \(events)") }
        return wall
    }
}

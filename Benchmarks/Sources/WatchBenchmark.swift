import CrashReportDelivery
import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport
import Foundation

/// `crashreport watch` from a report's rename into `pending/` to its arrival in `delivered/`
/// (the receiver, a fresh `crash-collector` on loopback, has answered 201 by then): reports
/// renamed one by one, each a new id, the next only once the last is delivered. And what the
/// crash-loop cap and the retention bounds add to one delivery pass, in process, with a
/// transport that answers at once.
enum WatchBenchmark {
    static func run(crashreport: String, collector: String, reportPath: String, reports: Int) -> [String] {
        var lines: [String] = []
        do {
            let template = try CollectorBenchmark.Template(reportPath: reportPath)
            lines += [
                "| watch, \(reports) reports renamed into pending/ one by one, to delivered/ (collector on loopback) "
                    + "| median ms | p99 ms | max ms | lost |",
                "|---|---|---|---|---|",
            ]
            // No cap: the report as the plain transport sends it. A cap that withholds nothing:
            // the signature's symbolication added, as with the default cap.
            for (name, cap) in [("no cap", "0"), ("cap on (symbolicates for the signature)", "1000000")] {
                let latency = try measureWatch(
                    crashreport: crashreport, collector: collector, template: template, reports: reports, cap: cap)
                lines.append(
                    "| \(name) | \(format(latency.stats.median / 1e6, 1)) "
                        + "| \(format(latency.stats.percentile(0.99) / 1e6, 1)) "
                        + "| \(format((latency.stats.sorted.last ?? .nan) / 1e6, 1)) | \(latency.lost) |")
            }
        } catch {
            lines.append("Watch benchmark failed: \(error)")
        }
        lines.append("")
        do {
            lines += try measureBookkeeping(reportPath: reportPath)
        } catch {
            lines.append("Bookkeeping benchmark failed: \(error)")
        }
        return lines
    }

    // MARK: rename to delivered

    static func measureWatch(
        crashreport: String, collector: String, template: CollectorBenchmark.Template, reports: Int, cap: String
    ) throws -> (stats: Stats, lost: Int) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("watch-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let state = root.appendingPathComponent("state")
        let staging = state.appendingPathComponent("staging")
        let pending = state.appendingPathComponent("pending")
        let delivered = state.appendingPathComponent("delivered")
        for folder in [staging, pending] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let server = try CollectorBenchmark.CollectorServer(
            binary: collector, data: root.appendingPathComponent("data"))
        defer { server.stop() }
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: crashreport)
        // 200 copies of one crash would be capped at 5 with the default cap.
        watch.arguments = [
            "watch", "--url", "http://127.0.0.1:\(server.port)/api/reports", "--cap-count", cap, state.path,
        ]
        watch.environment = ["PATH": "/usr/bin:/bin", "HOME": root.path]
        watch.standardOutput = FileHandle.nullDevice
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer {
            watch.terminate()
            watch.waitUntilExit()
        }
        // The first pass (and the symbolicator's first look at the binary) before the clock runs.
        let warmUp = 5
        let clock = ContinuousClock()
        var latencies: [Double] = []
        var lost = 0
        for n in 0..<(warmUp + reports) {
            let id = UUID().uuidString.lowercased()
            let body = try Gzip.compress(Data(template.json.replacingOccurrences(of: template.id, with: id).utf8))
            let staged = staging.appendingPathComponent("\(id).crash")
            try Data(body).write(to: staged)
            let target = delivered.appendingPathComponent("\(id).crash").path
            let start = clock.now
            guard rename(staged.path, pending.appendingPathComponent("\(id).crash").path) == 0 else {
                throw CollectorBenchmark.Failure("rename failed")
            }
            var arrived = false
            while clock.now - start < .seconds(10) {
                if FileManager.default.fileExists(atPath: target) {
                    arrived = true
                    break
                }
                usleep(200)
            }
            if !arrived {
                lost += 1
                continue
            }
            if n >= warmUp { latencies.append(nanoseconds(clock.now - start)) }
        }
        return (Stats(samples: latencies), lost)
    }

    // MARK: what the bookkeeping adds to a pass

    /// A transport that takes every report at once.
    struct Accepting: ReportTransport {
        let url: HTTPURL
        var wantsSymbols: Bool { false }
        func encode(_ report: OutgoingReport) -> EncodedReport {
            EncodedReport(id: report.id, request: HTTPRequest(url: url, method: "POST", body: report.fileData))
        }
        func send(_ encoded: EncodedReport) -> DeliveryOutcome { .delivered }
    }

    /// One pass over `count` pending reports (all of one crash) with and without the cap and
    /// the retention bounds, and one pass over an empty `pending/` (what `watch` does on every
    /// wake that finds nothing), alternating, median of `runs`.
    static func measureBookkeeping(reportPath: String, count: Int = 100, runs: Int = 15) throws -> [String] {
        let file = try Data(contentsOf: URL(fileURLWithPath: reportPath))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pass-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        // A cap that withholds nothing, so that both passes send the same reports.
        let configurations: [(String, DeliveryLimits)] = [
            ("no cap, no retention", .unlimited),
            ("cap and retention on", DeliveryLimits(capCount: 1_000_000)),
        ]
        var full: [[Double]] = configurations.map { _ in [] }
        var empty: [[Double]] = configurations.map { _ in [] }
        let clock = ContinuousClock()
        for run in 0..<runs {
            for (index, configuration) in configurations.enumerated() {
                let state = root.appendingPathComponent("\(run)-\(index)")
                let pending = state.appendingPathComponent("pending")
                try FileManager.default.createDirectory(at: pending, withIntermediateDirectories: true)
                for n in 0..<count {
                    try file.write(to: pending.appendingPathComponent(String(format: "%08d.crash", n)))
                }
                var pipeline = NextLaunchPipeline(
                    store: ReportStore(stateDirectory: state.path, keepDelivered: count),
                    transport: Accepting(url: try HTTPURL("http://127.0.0.1/")))
                pipeline.limits = configuration.1
                var start = clock.now
                let summary = try pipeline.run()
                full[index].append(nanoseconds(clock.now - start))
                guard summary.delivered.count == count else { throw CollectorBenchmark.Failure("not all delivered") }
                start = clock.now
                _ = try pipeline.run()
                empty[index].append(nanoseconds(clock.now - start))
            }
        }
        var lines = [
            "| delivery pass, in process, instant transport | \(count) reports, median ms | empty pending/, median µs |",
            "|---|---|---|",
        ]
        for (index, configuration) in configurations.enumerated() {
            lines.append(
                "| \(configuration.0) | \(format(Stats(samples: full[index]).median / 1e6, 2)) "
                    + "| \(format(Stats(samples: empty[index]).median / 1e3, 0)) |")
        }
        return lines
    }
}

import CCrashReporter
import CrashReporter
import CrashReporterLogging
import Logging

/// What a swift-log call costs through the breadcrumb handler, side by side in one run: the
/// same `logger.info` to a handler that discards it (the floor any backend starts from), and to
/// that handler multiplexed with `BreadcrumbLogHandler`, without and with metadata; a bare
/// `Breadcrumbs.record` of the same line for scale.
enum LoggingBenchmark {
    /// A backend that accepts every line at `info` and does nothing with it.
    struct DiscardingHandler: LogHandler {
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {}
    }

    static func run() -> [String] {
        precondition(scr_breadcrumbs_configure(100) == 0)
        scr_set_capture_enabled(1)
        let plain = Logger(label: "orders.http") { _ in DiscardingHandler() }
        let withBreadcrumbs = Logger(label: "orders.http") { label in
            MultiplexLogHandler([DiscardingHandler(), BreadcrumbLogHandler(label: label, metadataProvider: nil)])
        }
        _ = TrackingBenchmark.perCall(20_000) { withBreadcrumbs.info("request handled", metadata: ["n": "\($0)"]) }
        let plainLine = TrackingBenchmark.perCall { _ in plain.info("request handled") }
        let line = TrackingBenchmark.perCall { _ in withBreadcrumbs.info("request handled") }
        let plainMetadata = TrackingBenchmark.perCall {
            plain.info("request handled", metadata: ["path": "/orders", "n": "\($0)"])
        }
        let metadata = TrackingBenchmark.perCall {
            withBreadcrumbs.info("request handled", metadata: ["path": "/orders", "n": "\($0)"])
        }
        let bare = TrackingBenchmark.perCall { _ in Breadcrumbs.record("request handled", category: "orders.http") }
        return [
            "| `logger.info` (1 thread) | discarding handler, ns | + `BreadcrumbLogHandler`, ns | difference |",
            "|---|---|---|---|",
            "| a line | \(format(plainLine)) | \(format(line)) | +\(format(line - plainLine)) ns |",
            "| a line with two metadata pairs | \(format(plainMetadata)) | \(format(metadata)) | "
                + "+\(format(metadata - plainMetadata)) ns |",
            "| for scale: `Breadcrumbs.record` of the same line | | \(format(bare)) | |",
        ]
    }
}

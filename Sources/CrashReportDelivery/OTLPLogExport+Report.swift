import CrashReportFormat
import CrashReportSentry
import CrashReporterSupport

/// A report as one OTLP log record (docs/opentelemetry.md has the table):
///
/// - severity FATAL (21) for a crash, ERROR (17) for a hang or an abnormal exit, WARN (13) for
///   a snapshot, as the Sentry event's level;
/// - the body is the report's title (`CrashSignature.title`); `event_name` is
///   `swift_crash_reporter.<kind>`;
/// - a crash has the semantic conventions' `exception.type` (the signal), `exception.message`
///   (what went wrong, as the Sentry event's exception value) and `exception.stacktrace` (the
///   crashing thread, symbolicated, as `crashreport show` prints it, home paths as `~`), and
///   `thread.id`, `thread.name`;
/// - every record has `swift_crash_reporter.report.id`, `.report.kind` and `.signature`, and
///   the cap's counts when not zero;
/// - the resource has `service.name`, `service.version`, `deployment.environment.name`, the
///   SDK's name and version, `os.type`, and the operator's attributes that may be sent.
extension OTLPLogExport {
    /// The attribute namespace of the project's own attributes.
    package static let namespace = "swift_crash_reporter"
    /// The longest text attribute sent, in UTF-8 bytes (longer ones are cut, and say so).
    package static let maxTextBytes = 32 * 1024

    package init(report outgoing: OutgoingReport, settings: OTLPSettings, observed: Timestamp) {
        let report = outgoing.report
        let symbols = Self.privateSymbols(outgoing.symbols)
        let signature = CrashSignature(report: report, symbols: symbols)
        let ns = Self.namespace
        var attributes: [OTLPAttribute] = []
        if let crash = report.crash {
            attributes.append(OTLPAttribute("exception.type", crash.signal.name))
            attributes.append(OTLPAttribute("exception.message", Self.cut(crash.problem(symbols: symbols.crash))))
            if let stack = TextRenderer(symbols: symbols).crashingThread(report) {
                attributes.append(OTLPAttribute("exception.stacktrace", Self.cut(stack)))
            }
            attributes.append(OTLPAttribute("thread.id", .int(Int64(crash.thread.id))))
            if !crash.thread.name.isEmpty { attributes.append(OTLPAttribute("thread.name", crash.thread.name)) }
            attributes.append(OTLPAttribute("\(ns).signal.code", crash.signal.codeName))
        } else {
            attributes.append(OTLPAttribute("\(ns).reason", Self.cut(report.headline)))
            if let heartbeat = report.snapshot?.heartbeat {
                attributes.append(OTLPAttribute("\(ns).heartbeat.name", heartbeat.name))
                attributes.append(OTLPAttribute("\(ns).heartbeat.late_ms", .int(heartbeat.lateMs)))
            }
            if let abnormal = report.abnormalExit {
                attributes.append(OTLPAttribute("\(ns).abnormal_exit.class", abnormal.exitClass.rawValue))
            }
            if !report.threads.isEmpty {
                attributes.append(
                    OTLPAttribute("\(ns).threads", Self.cut(TextRenderer(symbols: symbols).allThreads(report))))
            }
        }
        attributes.append(OTLPAttribute("\(ns).report.id", report.reportID))
        attributes.append(OTLPAttribute("\(ns).report.kind", report.kind.rawValue))
        attributes.append(OTLPAttribute("\(ns).signature", signature.description))
        for (name, count) in outgoing.notes.counts.sorted(by: { $0.key < $1.key }) {
            attributes.append(OTLPAttribute("\(ns).\(name)", .int(Int64(count))))
        }
        let (number, text) = Self.severity(report.kind)
        let record = OTLPLogRecord(
            timeUnixNano: Self.nanoseconds(report.timestampMs),
            observedTimeUnixNano: Self.nanoseconds(observed.milliseconds),
            severityNumber: number, severityText: text, body: signature.title,
            eventName: "\(ns).\(report.kind.rawValue)",
            attributes: attributes)
        self.init(
            resource: Self.resource(report, settings: settings), scopeName: CrashReportVersion.clientName,
            scopeVersion: CrashReportVersion.current, records: [record])
    }

    /// `SeverityNumber` and its text for a report's kind.
    package static func severity(_ kind: CrashReport.Kind) -> (number: Int, text: String) {
        switch kind {
        case .crash: (21, "FATAL")
        case .hang, .abnormalExit: (17, "ERROR")
        case .snapshot: (13, "WARN")
        }
    }

    /// The resource: the service as the report names it (the operator's `OTEL_SERVICE_NAME`
    /// first; the report's version and environment first, as they are the crashed run's), the
    /// SDK, the OS type, then the operator's attributes that may be sent.
    static func resource(_ report: CrashReport, settings: OTLPSettings) -> [OTLPAttribute] {
        let given = Dictionary(settings.resourceAttributes.map { ($0.key, $0.value) }) { $1 }
        func text(_ key: String) -> String? {
            if case .string(let value)? = given[key], !value.isEmpty { return value }
            return nil
        }
        let app = report.app
        var resource = [
            OTLPAttribute(
                "service.name",
                settings.serviceName ?? text("service.name") ?? (app.name.isEmpty ? "unknown_service" : app.name))
        ]
        if let version = app.version.isEmpty ? text("service.version") : app.version {
            resource.append(OTLPAttribute("service.version", version))
        }
        if let environment = app.environment.isEmpty ? text("deployment.environment.name") : app.environment {
            resource.append(OTLPAttribute("deployment.environment.name", environment))
        }
        resource += [
            OTLPAttribute("telemetry.sdk.name", CrashReportVersion.clientName),
            OTLPAttribute("telemetry.sdk.language", "swift"),
            OTLPAttribute("telemetry.sdk.version", CrashReportVersion.current),
            OTLPAttribute("os.type", "linux"),
        ]
        if !report.os.release.isEmpty { resource.append(OTLPAttribute("os.version", report.os.release)) }
        let set = Set(resource.map(\.key))
        resource += settings.resourceAttributes.filter { !set.contains($0.key) }
        return resource
    }

    /// The symbols with source paths under a home directory shortened to `~`.
    static func privateSymbols(_ symbols: ReportSymbols) -> ReportSymbols {
        func shorten(_ frames: [Int: [FrameSymbol]]) -> [Int: [FrameSymbol]] {
            frames.mapValues { list in
                list.map { symbol in
                    var symbol = symbol
                    symbol.file = symbol.file.map(PathPrivacy.shorten)
                    return symbol
                }
            }
        }
        return ReportSymbols(crash: shorten(symbols.crash), threads: symbols.threads.mapValues(shorten))
    }

    static func nanoseconds(_ milliseconds: Int64) -> UInt64 {
        UInt64(clamping: milliseconds).multipliedReportingOverflow(by: 1_000_000).partialValue
    }

    /// `text` cut to ``maxTextBytes`` on a character boundary, with a note when it was.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > maxTextBytes else { return text }
        var kept = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            if bytes > maxTextBytes - 64 { break }
            kept.append(character)
        }
        return kept + "\n... cut at \(maxTextBytes) bytes"
    }
}

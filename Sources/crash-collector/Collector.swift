import CrashCollectorParsers
import CrashReporterHTTP
import CrashReporterSupport
import CrashSymbolication
import Tracking

/// The collector's state and its request handling, independent of sockets: the server hands it
/// whole requests and writes back what it returns.
final class Collector: Sendable {
    let configuration: Configuration
    let reports: CollectorReportStore
    /// Stored reports symbolicated with this machine's binaries, made once per report.
    let views: SymbolicatedViews
    let sentryEvents: SentryEventStore
    /// Session updates: from Sentry envelopes, and from `POST /api/sessions`.
    let sentrySessions: SentryEventStore
    let sessions: SentryEventStore
    /// OTLP log records from `POST /v1/logs`.
    let otlpLogs: SentryEventStore
    let events: EventStore
    let faults: FaultInjection
    let limiters: Lock<(perKey: RateLimiter, perInstall: RateLimiter)>
    /// The clock, in Unix seconds (replaceable in tests).
    let now: @Sendable () -> Double

    init(
        configuration: Configuration, now: @escaping @Sendable () -> Double = { Timestamp.now().seconds }
    ) throws(FileError) {
        self.configuration = configuration
        try DataDirectory.create(configuration.dataDirectory)
        let symbolicator = Symbolicator(
            debugDirectories: configuration.debugDirectories)
        reports = try CollectorReportStore(dataDirectory: configuration.dataDirectory, symbolicator: symbolicator)
        views = SymbolicatedViews(symbolicator: symbolicator, dependencies: configuration.dependencyPaths)
        let data = configuration.dataDirectory
        sentryEvents = try SentryEventStore(dataDirectory: data)
        sentrySessions = try SentryEventStore(dataDirectory: data, folder: CollectorDataLayout.Name.sentrySessions)
        sessions = try SentryEventStore(dataDirectory: data, folder: CollectorDataLayout.Name.sessions)
        otlpLogs = try SentryEventStore(dataDirectory: data, folder: CollectorDataLayout.Name.otlpLogs)
        events = try EventStore(dataDirectory: configuration.dataDirectory)
        faults = FaultInjection(configuration.failNext)
        limiters = Lock(
            (
                RateLimiter(perMinute: configuration.eventsPerMinutePerKey),
                RateLimiter(perMinute: configuration.eventsPerMinutePerInstall)
            ))
        self.now = now
    }

    /// The largest body accepted for a request, before it is read.
    func bodyLimit(for head: HTTPRequestHead) -> Int {
        head.path == "/v1/events"
            ? min(EventLimits.maxCollectorBodyBytes, configuration.maxBodyBytes) : configuration.maxBodyBytes
    }

    /// The answer to a request that could not be read.
    func response(to error: HTTPParseError) -> HTTPResponse {
        if error.head?.path == "/v1/events" {
            let code = error.status == 413 ? "payload_too_large" : error.status >= 500 ? "server_error" : "invalid_body"
            return EventsEndpoint.error(error.status, code: code, message: error.reason)
        }
        return Self.error(error.status, error.reason)
    }

    /// `{"error": reason}` with a status.
    static func error(_ status: Int, _ reason: String, headers: [(String, String)] = []) -> HTTPResponse {
        .json(status, ["error": .string(reason)], headers: headers)
    }
}

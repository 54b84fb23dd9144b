import CrashReportFormat
import CrashReportSentry
import Foundation

/// The Sentry transport: the report as a native-crash event in an envelope, gzip-encoded,
/// POSTed to the DSN's envelope endpoint with the `X-Sentry-Auth` header. The event id is the
/// report id, so a retry that reaches Sentry twice is dropped there as a repeat.
public struct SentryTransport: ReportTransport {
    public let dsn: SentryDSN
    public var release: String?
    public var environment: String?
    public var timeout: TimeInterval

    public static let sdkName = "swift-crash-reporter"

    public init(dsn: SentryDSN, release: String?, environment: String?, timeout: TimeInterval = 30) {
        self.dsn = dsn
        self.release = release
        self.environment = environment
        self.timeout = timeout
    }

    public var wantsSymbols: Bool { true }

    public func send(_ report: OutgoingReport) -> DeliveryOutcome {
        let envelope: [UInt8]
        let body: Data
        do {
            envelope = try SentryEnvelope.make(
                report: report.report, symbols: report.symbols,
                release: release ?? (report.report.app.version.isEmpty ? nil : report.report.app.version),
                environment: environment ?? report.report.app.environment, sdkName: Self.sdkName,
                sdkVersion: CrashReportVersion.current)
            body = Data(try Gzip.compress(envelope))
        } catch {
            // A report that cannot be expressed as an event is a verdict on the report.
            return .response(status: 400, retryAfter: nil, reason: "cannot build the Sentry envelope: \(error)")
        }
        // The DSN parser admits only URL characters, so its envelope URL always parses.
        return HTTPClient(timeout: timeout).post(
            url: URL(string: dsn.envelopeURL)!,
            headers: [
                "Content-Type": "application/x-sentry-envelope",
                "Content-Encoding": "gzip",
                "X-Sentry-Auth": dsn.authHeader(sdkName: Self.sdkName, sdkVersion: CrashReportVersion.current),
                "User-Agent": "\(Self.sdkName)/\(CrashReportVersion.current)",
            ],
            body: body)
    }
}

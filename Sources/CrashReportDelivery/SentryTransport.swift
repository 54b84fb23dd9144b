import CrashReportFormat
import CrashReportSentry
import CrashReporterHTTP
import CrashReporterSupport

/// The Sentry transport: the report as a native-crash event in an envelope, gzip-encoded,
/// POSTed to the DSN's envelope endpoint with the `X-Sentry-Auth` header. The event id is the
/// report id, so a retry that reaches Sentry twice is dropped there as a repeat.
package struct SentryTransport: ReportTransport {
    package let dsn: SentryDSN
    /// The DSN's envelope endpoint, parsed once.
    package let envelopeURL: HTTPURL
    package var release: String?
    package var environment: String?
    /// Seconds the whole exchange may take (connect, TLS, send, the complete answer).
    package var timeout: Duration
    private let client: HTTPClient

    package static let sdkName = CrashReportVersion.clientName

    /// A transport to the DSN's project, whose envelope URL (`dsn.envelopeURL`) was parsed
    /// already. The client's proxies and trust store (`SSL_CERT_FILE`, `SSL_CERT_DIR`) come from
    /// `clientEnvironment`, the process's when nil.
    package init(
        dsn: SentryDSN, envelopeURL: HTTPURL, release: String?, environment: String?,
        timeout: Duration = ConfigurationDefaults.uploadTimeout,
        clientEnvironment: [String: String]? = nil
    ) {
        self.dsn = dsn
        self.envelopeURL = envelopeURL
        self.release = release
        self.environment = environment
        self.timeout = timeout
        self.client = HTTPClient(userAgent: CrashReportVersion.userAgent, environment: clientEnvironment)
    }

    /// A transport to the DSN's project. Throws `HTTPError.invalidURL` when the envelope URL
    /// is one the HTTP client cannot use (a non-ASCII host, say).
    package init(
        dsn: SentryDSN, release: String?, environment: String?, timeout: Duration = ConfigurationDefaults.uploadTimeout,
        clientEnvironment: [String: String]? = nil
    ) throws(HTTPError) {
        self.init(
            dsn: dsn, envelopeURL: try HTTPURL(dsn.envelopeURL), release: release, environment: environment,
            timeout: timeout, clientEnvironment: clientEnvironment)
    }

    package var wantsSymbols: Bool { true }

    /// The report as a native-crash event in an envelope, gzip-compressed, with the DSN's auth
    /// header.
    package func encode(_ report: OutgoingReport) throws(TransportEncodingError) -> EncodedReport {
        let body: [UInt8]
        do {
            let envelope = try SentryEnvelope.make(
                report: report.report, symbols: report.symbols,
                release: release ?? (report.report.app.version.isEmpty ? nil : report.report.app.version),
                environment: environment ?? report.report.app.environment, sdkName: Self.sdkName,
                sdkVersion: CrashReportVersion.current, counts: report.notes.counts)
            body = try Gzip.compress(envelope)
        } catch {
            // A report that cannot be expressed as an event is a verdict on the report.
            throw TransportEncodingError("cannot build the Sentry envelope: \(error)")
        }
        return EncodedReport(id: report.id, request: request(envelope: body))
    }

    package func send(_ encoded: EncodedReport) -> DeliveryOutcome {
        post(encoded.request)
    }

    /// One attempt at a request, its answer read by the outcome's one rule.
    func post(_ request: HTTPRequest) -> DeliveryOutcome {
        DeliveryOutcome(sending: request, with: client)
    }

    /// The POST of a gzip-compressed envelope with the DSN's auth header.
    func request(envelope body: [UInt8]) -> HTTPRequest {
        HTTPRequest(
            url: envelopeURL, method: "POST",
            headers: [
                "Content-Type": "application/x-sentry-envelope",
                "Content-Encoding": "gzip",
                "X-Sentry-Auth": dsn.authHeader(sdkName: Self.sdkName, sdkVersion: CrashReportVersion.current),
                "User-Agent": CrashReportVersion.userAgent,
            ],
            body: body, timeout: timeout)
    }
}

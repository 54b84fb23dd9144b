import CrashReporterHTTP
import CrashReporterSupport

/// The plain transport: the report file as written, POSTed to a URL, with its id in
/// `X-Crash-Report-ID` so that the receiver can drop a repeat (the same id on every retry).
package struct HTTPEndpointTransport: ReportTransport {
    package let url: HTTPURL
    /// Seconds the whole exchange may take (connect, TLS, send, the complete answer).
    package var timeout: Duration
    private let client: HTTPClient

    /// A transport to `url`. The client's proxies and trust store (`SSL_CERT_FILE`,
    /// `SSL_CERT_DIR`) come from `environment`, the process's when nil.
    package init(
        url: HTTPURL, timeout: Duration = ConfigurationDefaults.uploadTimeout, environment: [String: String]? = nil
    ) {
        self.url = url
        self.timeout = timeout
        self.client = HTTPClient(userAgent: CrashReportVersion.userAgent, environment: environment)
    }

    package var wantsSymbols: Bool { false }

    /// The file as written, with its id and the counts it carries as headers.
    package func encode(_ report: OutgoingReport) throws(TransportEncodingError) -> EncodedReport {
        var headers: HTTPHeaders = [
            "Content-Type": "application/gzip",
            "X-Crash-Report-ID": report.id,
            "User-Agent": CrashReportVersion.userAgent,
        ]
        if report.notes.suppressed > 0 { headers.append(DeliveryNotes.suppressedHeader, "\(report.notes.suppressed)") }
        if report.notes.pruned > 0 { headers.append(DeliveryNotes.prunedHeader, "\(report.notes.pruned)") }
        return EncodedReport(
            id: report.id,
            request: HTTPRequest(url: url, method: "POST", headers: headers, body: report.fileData, timeout: timeout))
    }

    package func send(_ encoded: EncodedReport) -> DeliveryOutcome {
        post(encoded.request)
    }

    func post(_ request: HTTPRequest) -> DeliveryOutcome {
        DeliveryOutcome(sending: request, with: client)
    }
}

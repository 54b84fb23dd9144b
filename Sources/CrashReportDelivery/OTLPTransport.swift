import CrashReportFormat
import CrashReporterHTTP
import CrashReporterSupport

/// The OpenTelemetry transport: each report as one log record, POSTed over OTLP/HTTP to the
/// logs endpoint (docs/opentelemetry.md), protobuf or JSON, gzip-compressed, with the
/// operator's headers. The answers follow the other transports' rules (`DeliveryPolicy`:
/// 429, 502, 503 and 504 retried after their `Retry-After`, any other 4xx final), and a 2xx
/// whose partial success rejects the record is final too: the receiver read it and refused
/// it, so it is kept in `rejected/` with the receiver's words. A partial success that rejects
/// nothing but has a message is delivered, and the message goes to `diagnose`.
///
/// Sessions are not exported (docs/decisions/0086-sessions-and-otlp.md).
package struct OTLPTransport: ReportTransport {
    package let settings: OTLPSettings
    /// Seconds the whole exchange may take (connect, TLS, send, the complete answer).
    package var timeout: Duration
    /// Where the receiver's warnings go (the package's diagnostics, the CLI's standard error).
    package var diagnose: @Sendable (String) -> Void
    private let client: HTTPClient

    /// A transport for `settings`. The client's proxies and trust store (`SSL_CERT_FILE`,
    /// `SSL_CERT_DIR`) come from `environment`, the process's when nil.
    package init(
        settings: OTLPSettings, timeout: Duration = ConfigurationDefaults.uploadTimeout,
        environment: [String: String]? = nil,
        diagnose: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.settings = settings
        self.timeout = timeout
        self.diagnose = diagnose
        self.client = HTTPClient(userAgent: CrashReportVersion.userAgent, environment: environment)
    }

    package var wantsSymbols: Bool { true }

    /// The request body for a report, encoded as the settings ask (not yet compressed).
    package func body(for report: OutgoingReport, observed: Timestamp = .now()) -> [UInt8] {
        let export = OTLPLogExport(report: report, settings: settings, observed: observed)
        return settings.encoding == .protobuf ? export.protobuf : export.json
    }

    /// The report as one log record, encoded as the settings ask, gzip-compressed, with the
    /// operator's headers.
    package func encode(_ report: OutgoingReport) throws(TransportEncodingError) -> EncodedReport {
        let compressed: [UInt8]
        do {
            compressed = try Gzip.compress(body(for: report))
        } catch {
            throw TransportEncodingError("cannot compress the OTLP request: \(error)")
        }
        var headers = HTTPHeaders(settings.headers)
        headers.append("Content-Type", settings.encoding.contentType)
        headers.append("Content-Encoding", "gzip")
        headers.append("User-Agent", CrashReportVersion.userAgent)
        return EncodedReport(
            id: report.id,
            request: HTTPRequest(
                url: settings.endpoint, method: "POST", headers: headers, body: compressed, timeout: timeout))
    }

    package func send(_ encoded: EncodedReport) -> DeliveryOutcome {
        let response: HTTPResponse
        do {
            response = try client.send(encoded.request)
        } catch {
            return .noAnswer(DeliveryOutcome.oneLine(error.description))
        }
        return outcome(of: response, reportID: encoded.id)
    }

    /// What the receiver's answer means: a status as the other transports read it, or for a
    /// 2xx its partial success.
    func outcome(of response: HTTPResponse, reportID: String) -> DeliveryOutcome {
        guard (200..<300).contains(response.status) else {
            return DeliveryOutcome(
                status: response.status,
                serverWait: DeliveryOutcome.serverWait(
                    seconds: ServerRetryDelay.parse(headers: response.headers, now: .now())),
                reason: Self.reason(response))
        }
        let partial: OTLPPartialSuccess
        do {
            let contentType = response.headers["Content-Type"]?.lowercased() ?? ""
            partial =
                contentType.hasPrefix("application/json")
                ? try OTLPPartialSuccess(json: response.body) : try OTLPPartialSuccess(protobuf: response.body)
        } catch {
            // The record reached the receiver; an answer it garbled is no reason to send it twice.
            diagnose("the OTLP receiver accepted crash report \(reportID) with an unreadable answer: \(error)")
            return .delivered
        }
        let message = DeliveryOutcome.oneLine(String(partial.errorMessage.prefix(400)))
        if partial.rejectedLogRecords > 0 {
            return .rejected(
                status: OTLPTransport.partialRejectionStatus,
                reason: "the OTLP receiver rejected the log record (partial success, HTTP \(response.status))"
                    + (message.isEmpty ? "" : ": \(message)"))
        }
        if !message.isEmpty {
            diagnose("the OTLP receiver accepted crash report \(reportID) with a warning: \(message)")
        }
        return .delivered
    }

    /// The status a rejecting partial success is taken as: 400's "final, keep for review".
    package static let partialRejectionStatus = 400

    /// The receiver's words for a failure: a `google.rpc.Status` message when it sent one
    /// (protobuf field 2, or JSON `message`), else the start of the body.
    static func reason(_ response: HTTPResponse) -> String {
        let contentType = response.headers["Content-Type"]?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-protobuf") {
            var reader = ProtobufReader(response.body)
            while let (field, value) = try? reader.next() {
                if field == 2, let text = value.string { return DeliveryOutcome.oneLine(String(text.prefix(400))) }
            }
            return ""
        }
        if contentType.hasPrefix("application/json"),
            let text = (try? JSON.parse(response.body))?["message"]?.stringValue
        {
            return DeliveryOutcome.oneLine(String(text.prefix(400)))
        }
        return DeliveryOutcome.reason(from: response.body)
    }
}

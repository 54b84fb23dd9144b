import CrashReportFormat
import CrashReportSentry
import CrashReporterHTTP
import CrashReporterSupport

/// One report to send: the file as written, its decoded form and, when the binary was on
/// disk, its symbols.
package struct OutgoingReport: Sendable {
    package var id: String
    /// The `.crash` file's bytes (gzip-compressed JSON), as the handler wrote them.
    package var fileData: [UInt8]
    package var report: CrashReport
    package var symbols: ReportSymbols
    /// The counts of reports not sent that this one carries (a crash loop's summary).
    package var notes: DeliveryNotes

    package init(
        id: String, fileData: [UInt8], report: CrashReport, symbols: ReportSymbols,
        notes: DeliveryNotes = DeliveryNotes()
    ) {
        self.id = id
        self.fileData = fileData
        self.report = report
        self.symbols = symbols
        self.notes = notes
    }
}

/// Where reports go, in two steps that the pipeline calls as two stages
/// (`NextLaunchPipeline`): `encode` builds the report's wire form, `send` posts it. A transport
/// makes one attempt and says what happened; the retry rules are `DeliveryPolicy`'s.
package protocol ReportTransport: Sendable {
    /// Whether the transport wants symbols (computing them costs time).
    var wantsSymbols: Bool { get }
    /// The report as this transport's server takes it: the request, its body and headers.
    /// Throws when the report cannot be expressed in that form, a verdict on the report: the
    /// pipeline rejects it with the reason, and never retries it.
    func encode(_ report: OutgoingReport) throws(TransportEncodingError) -> EncodedReport
    /// Posts an encoded report, blocking the calling thread (the delivery worker's own) until
    /// the server answers or the transport's timeout passes.
    func send(_ encoded: EncodedReport) -> DeliveryOutcome
    /// Sends release-health sessions (docs/runs.md), blocking like `send`.
    func send(sessions: [SentrySession]) -> DeliveryOutcome
}

extension ReportTransport {
    /// A transport that carries no sessions takes them as delivered: nothing has to go out,
    /// and they are dropped.
    package func send(sessions: [SentrySession]) -> DeliveryOutcome { .delivered }
}

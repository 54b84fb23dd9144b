import CrashReportFormat
import CrashReportSentry
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

/// Where reports go. A transport makes one attempt and says what happened; the retry rules
/// are `DeliveryPolicy`'s.
package protocol ReportTransport: Sendable {
    /// Whether the transport wants symbols (computing them costs time).
    var wantsSymbols: Bool { get }
    /// Sends the report, blocking the calling thread (the delivery worker's own) until the
    /// server answers or the transport's timeout passes.
    func send(_ report: OutgoingReport) -> DeliveryOutcome
    /// Sends release-health sessions (docs/runs.md), blocking like `send`.
    func send(sessions: [SentrySession]) -> DeliveryOutcome
}

extension ReportTransport {
    /// A transport that carries no sessions takes them as delivered: nothing has to go out,
    /// and they are dropped.
    package func send(sessions: [SentrySession]) -> DeliveryOutcome { .delivered }
}
